/* Linked views, in the browser (no server round trip): the hovered point is ringed and the selected
 * points (box or lasso in a 2-D view) are marked in both the input and the output view.
 *
 * Registered as the clientside callbacks procrustes.markHovered and procrustes.markSelected
 * (components/callbacks.py). Trace 0 of both figures holds the same points in the same order, so a
 * point's index in one finds it in the other; trace 1 is the hover ring and trace 2 the selection
 * (components/figures.py). Plotly's WebGL traces leave customdata out of events, hence indices.
 * Trace 0's columns are plain arrays or Plotly's typed-array spec {dtype, bdata} (base64). */
(function () {
  const TYPED = {f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array, i1: Int8Array,
                 u4: Uint32Array, u2: Uint16Array, u1: Uint8Array};
  const HOVER_TRACE = 1;
  const SELECTION_TRACE = 2;
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

  // A patch setting trace `trace` to the points `indices` of trace 0 (x, y, and z in a 3-D view).
  function mark(figure, trace, indices) {
    const patch = new window.dash_clientside.Patch();
    ['x', 'y', 'z'].filter((axis) => figure.data[0][axis] !== undefined).forEach((axis) => {
      const values = column(figure.data[0][axis]);
      patch.assign(['data', trace, axis], indices.map((index) => values[index]));
    });
    return patch.build();
  }

  function triggeredEvent(inputEvent, outputEvent) {
    const triggered = window.dash_clientside.callback_context.triggered_id;
    return triggered === 'view-input-graph' ? inputEvent : outputEvent;
  }

  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    procrustes: {
      // The explore run shown: whichever record arrived last, from the cache or from a job.
      latestRun: function (fromCache, fromJob) {
        const triggered = window.dash_clientside.callback_context.triggered_id;
        return triggered === 'explore-run-cached' ? fromCache : fromJob;
      },
      markHovered: function (inputHover, outputHover, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        const hover = triggeredEvent(inputHover, outputHover);
        const point = hover && hover.points && hover.points[0];
        if (!point || point.curveNumber !== 0 || !inputFigure || !outputFigure) {
          return [noUpdate, noUpdate];
        }
        return [mark(inputFigure, HOVER_TRACE, [point.pointNumber]),
                mark(outputFigure, HOVER_TRACE, [point.pointNumber])];
      },
      markSelected: function (inputSelection, outputSelection, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        if (!inputFigure || !outputFigure) {
          return [noUpdate, noUpdate];
        }
        // A cleared selection (double click) arrives as null: the marks go too.
        const selection = triggeredEvent(inputSelection, outputSelection);
        const indices = ((selection && selection.points) || [])
          .filter((point) => point.curveNumber === 0).map((point) => point.pointNumber);
        return [mark(inputFigure, SELECTION_TRACE, indices), mark(outputFigure, SELECTION_TRACE, indices)];
      },
    },
  });
})();
