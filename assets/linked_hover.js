/* Linked hover: ring the hovered point in both views, in the browser (no server round trip).
 *
 * Registered as the clientside callback procrustes.markHovered (components/callbacks.py). Plotly's
 * WebGL traces leave customdata out of hover events, so the point is found by its index in trace 0,
 * whose columns are plain arrays or Plotly's typed-array spec {dtype, bdata} (base64). */
(function () {
  const TYPED = {f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array, i1: Int8Array,
                 u4: Uint32Array, u2: Uint16Array, u1: Uint8Array};
  const decoded = new WeakMap();

  function column(values) {
    if (Array.isArray(values) || ArrayBuffer.isView(values)) {
      return values;
    }
    if (!decoded.has(values)) {
      const bytes = Uint8Array.from(atob(values.bdata), (c) => c.charCodeAt(0));
      decoded.set(values, new TYPED[values.dtype](bytes.buffer));
    }
    return decoded.get(values);
  }

  function ring(figure, axes, index) {
    const patch = new window.dash_clientside.Patch();
    axes.forEach((axis) => patch.assign(['data', 1, axis], [column(figure.data[0][axis])[index]]));
    return patch.build();
  }

  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    procrustes: {
      markHovered: function (inputHover, outputHover, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        const triggered = window.dash_clientside.callback_context.triggered_id;
        const hover = triggered === 'view-input-graph' ? inputHover : outputHover;
        const point = hover && hover.points && hover.points[0];
        if (!point || point.curveNumber !== 0 || !inputFigure || !outputFigure) {
          return [noUpdate, noUpdate];
        }
        return [ring(inputFigure, ['x', 'y', 'z'], point.pointNumber),
                ring(outputFigure, ['x', 'y'], point.pointNumber)];
      },
    },
  });
})();
