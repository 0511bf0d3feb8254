/* Linked views, in the browser (no server round trip): the hovered point is ringed and the selected
 * points (box or lasso in a 2-D view) are marked in both the input and the output view.
 *
 * Registered as the clientside callbacks procrustes.markHovered, procrustes.markSelected and
 * procrustes.markNeighbours (components/explore.py). Trace 0 of both figures holds the same points in the same order, so a
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

  // A patch drawing the clicked point's neighbours and its kNN edges (point -> neighbour segments) in a
  // view, into its traces named 'neighbours' and 'kNN edges' (components/figures/views.py).
  function drawNeighbours(figure, marks) {
    const names = figure.data.map((trace) => trace.name);
    const points = names.indexOf('neighbours');
    const edges = names.indexOf('kNN edges');
    if (points < 0 || edges < 0) {
      return window.dash_clientside.no_update;
    }
    const patch = new window.dash_clientside.Patch();
    ['x', 'y', 'z'].filter((axis) => figure.data[0][axis] !== undefined).forEach((axis) => {
      const values = column(figure.data[0][axis]);
      patch.assign(['data', points, axis], marks.neighbours.map((index) => values[index]));
      patch.assign(['data', edges, axis],
        marks.neighbours.flatMap((index) => [values[marks.point], values[index], null]));
    });
    return patch.build();
  }

  // The figure format chosen in the View panel, applied when a camera button is pressed (not sent
  // with the graphs' config, so choosing it redraws nothing).
  const IMAGE_SCALE = {png: 2, svg: 1};

  function chosenFormat() {
    const checked = document.querySelector('#view-figure-format input:checked');
    return checked ? checked.value : 'png';
  }

  // An SVG of a WebGL trace holds one raster image of its points: redraw the graph off screen with
  // SVG markers (scatter for scattergl) and save that instead. A 3-D scene stays a raster image.
  function downloadVectorImage(gd, options) {
    const copy = document.createElement('div');
    Object.assign(copy.style, {position: 'fixed', left: '-20000px', top: '0', width: gd.offsetWidth + 'px',
                               height: gd.offsetHeight + 'px'});
    document.body.appendChild(copy);
    const data = gd.data.map((trace) => (trace.type === 'scattergl' ? Object.assign({}, trace, {type: 'scatter'}) : trace));
    const layout = Object.assign({}, gd.layout, {width: gd.offsetWidth, height: gd.offsetHeight});
    return window.Plotly.newPlot(copy, data, layout, {staticPlot: true})
      .then(() => window.Plotly.downloadImage(copy, {format: 'svg', filename: options.filename || 'procrustes-lab',
                                                     width: gd.offsetWidth, height: gd.offsetHeight}))
      .finally(() => { window.Plotly.purge(copy); copy.remove(); });
  }

  document.addEventListener('click', function (event) {
    const button = event.target.closest && event.target.closest('.modebar-btn');
    if (!button || !(button.getAttribute('data-title') || '').startsWith('Download plot')) {
      return;
    }
    const gd = button.closest('.js-plotly-plot');
    if (!gd || !gd._context) {
      return;
    }
    const format = chosenFormat();
    const options = Object.assign({}, gd._context.toImageButtonOptions || {}, {format: format, scale: IMAGE_SCALE[format]});
    gd._context.toImageButtonOptions = options;  // Plotly's own handler reads it next
    if (format === 'svg' && (gd.data || []).some((trace) => trace.type === 'scattergl') && window.Plotly) {
      event.preventDefault();
      event.stopImmediatePropagation();
      downloadVectorImage(gd, options);
    }
  }, true);

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
      // A clicked point: its k neighbours and kNN edges in both views (an edge that short-circuits the
      // manifold is a long chord), and the inspector below scrolled into view.
      markNeighbours: function (marks, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        if (!marks || !inputFigure || !outputFigure) {
          return [noUpdate, noUpdate];
        }
        const inspector = document.getElementById('inspector-graph');
        if (inspector) {
          inspector.scrollIntoView({behavior: 'smooth', block: 'nearest'});
        }
        return [drawNeighbours(inputFigure, marks), drawNeighbours(outputFigure, marks)];
      },
      // Presentation mode: the page's class (stylesheet: no control panel, large type, full-window views).
      presentation: function (state) {
        const on = Boolean(state && state.display && state.display.presentation);
        document.documentElement.classList.toggle('presentation', on);
        return window.dash_clientside.no_update;
      },
    },
  });
})();
