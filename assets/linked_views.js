/* Linked views, in the browser (no server round trip): the hovered point is ringed and the selected
 * points (box or lasso in a 2-D view) are marked in both the input and the output view.
 *
 * Registered as the clientside callbacks procrustes.markHovered and procrustes.markSelected
 * (components/explore.py). Trace 0 of each figure holds its points in data-set order: every point, or,
 * when its customdata is set, only the data-set rows listed there (the 3-D view's level of detail), so
 * a point's number maps to a data-set row and back; trace 1 is the hover ring and trace 2 the selection
 * (components/figures/views.py). Plotly's WebGL traces leave customdata out of events, hence the
 * figure's own copy. Columns are plain arrays or Plotly's typed-array spec {dtype, bdata} (base64). */
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

  // The data-set rows a figure's trace 0 draws (sorted), or null when it draws every row in order.
  function drawnRows(figure) {
    const rows = figure.data[0].customdata;
    return rows === undefined || rows === null ? null : column(rows);
  }

  // Data-set rows of a figure's point numbers.
  function toRows(figure, points) {
    const rows = drawnRows(figure);
    return rows === null ? points : points.map((point) => rows[point]);
  }

  // Point numbers of data-set rows in a figure (rows it does not draw are left out).
  function toPoints(figure, dataRows) {
    const rows = drawnRows(figure);
    if (rows === null) {
      return dataRows;
    }
    const points = [];
    dataRows.forEach((row) => {
      let low = 0;
      let high = rows.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (rows[middle] < row) { low = middle + 1; } else { high = middle; }
      }
      if (low < rows.length && rows[low] === row) {
        points.push(low);
      }
    });
    return points;
  }

  // A patch setting trace `trace` to the data-set rows `dataRows` (x, y, and z in a 3-D view).
  function mark(figure, trace, dataRows) {
    const patch = new window.dash_clientside.Patch();
    const points = toPoints(figure, dataRows);
    ['x', 'y', 'z'].filter((axis) => figure.data[0][axis] !== undefined).forEach((axis) => {
      const values = column(figure.data[0][axis]);
      patch.assign(['data', trace, axis], points.map((point) => values[point]));
    });
    return patch.build();
  }

  function triggeredFigure(inputFigure, outputFigure) {
    const triggered = window.dash_clientside.callback_context.triggered_id;
    return triggered === 'view-input-graph' ? inputFigure : outputFigure;
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
        const rows = toRows(triggeredFigure(inputFigure, outputFigure), [point.pointNumber]);
        return [mark(inputFigure, HOVER_TRACE, rows), mark(outputFigure, HOVER_TRACE, rows)];
      },
      markSelected: function (inputSelection, outputSelection, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        if (!inputFigure || !outputFigure) {
          return [noUpdate, noUpdate];
        }
        // A cleared selection (double click) arrives as null: the marks go too.
        const selection = triggeredEvent(inputSelection, outputSelection);
        const points = ((selection && selection.points) || [])
          .filter((point) => point.curveNumber === 0).map((point) => point.pointNumber);
        const rows = toRows(triggeredFigure(inputFigure, outputFigure), points);
        return [mark(inputFigure, SELECTION_TRACE, rows), mark(outputFigure, SELECTION_TRACE, rows)];
      },
    },
  });
})();
