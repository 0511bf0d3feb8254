/* Linked views, in the browser (no server round trip): the hovered point is ringed and the selected
 * points (box or lasso in a 2-D view, or found by the find box's query) are marked in both the input and
 * the output view.
 *
 * Registered as the clientside callbacks procrustes.markHovered, procrustes.markSelected and
 * procrustes.markNeighbours (components/point_events.py). A point's number maps to a data-set row and
 * back through the rows its view draws (assets/drawn_rows.js); trace 1 is the hover ring and trace 2 the
 * selection (components/figures/views.py). A 2-D view draws its ring as a shape of its layout, styled as its
 * trace 1. Plotly's WebGL traces leave customdata out of events, hence the figure's own copy. */
(function () {
  const HOVER_TRACE = 1;
  const SELECTION_TRACE = 2;
  const {column, toRows, toPoints} = window.procrustesDrawnRows;  // assets/drawn_rows.js

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

  // The ring of a 2-D view: a circle of its trace 1's marker size and line around the point, among its layout's
  // shapes. A changed trace makes Plotly compute every trace of the view again, a changed shape does not: a hover
  // took Plotly 0.5 s in the output view of 100 000 points, and about 5 s at a million. Its size is set in data
  // units from the graph's scale when drawn (with a shape sized in pixels, Plotly 4.1 records the next box
  // selection in pixels). A 3-D view rings the point in its trace 1 (Plotly draws no shape in a 3-D scene).
  const RING = 'hovered';

  function ring(figure, dataRows, graphId) {
    if (!figure.data || figure.data.length <= HOVER_TRACE) {  // a placeholder: no points drawn yet
      return window.dash_clientside.no_update;
    }
    if (figure.data[0].z !== undefined) {
      return mark(figure, HOVER_TRACE, dataRows);
    }
    const style = figure.data[HOVER_TRACE].marker;
    const gd = graphDiv(graphId);
    const axes = gd && gd._fullLayout ? [gd._fullLayout.xaxis, gd._fullLayout.yaxis] : [];
    // Data units a pixel along each axis (Plotly's axis: its range over its length in pixels).
    const [perX, perY] = axes.map((axis) => (axis && axis._length ?
      Math.abs(axis.range[1] - axis.range[0]) / axis._length : NaN));
    const xs = column(figure.data[0].x), ys = column(figure.data[0].y);
    const rings = toPoints(figure, dataRows).slice(0, 1)
      .filter((point) => [xs[point], ys[point], perX, perY].every(Number.isFinite))  // as a trace leaves it out
      .map((point) => {
        const rx = perX * style.size / 2, ry = perY * style.size / 2;
        return {type: 'circle', name: RING, xref: 'x', yref: 'y', x0: xs[point] - rx, x1: xs[point] + rx,
                y0: ys[point] - ry, y1: ys[point] + ry, line: style.line};
      });
    const others = ((figure.layout && figure.layout.shapes) || []).filter((shape) => shape.name !== RING);
    const patch = new window.dash_clientside.Patch();
    patch.assign(['layout', 'shapes'], others.concat(rings));
    return patch.build();
  }

  // The Plotly graph of the dcc.Graph `graphId`, or null.
  function graphDiv(graphId) {
    const element = document.getElementById(graphId);
    return element && element.querySelector('.js-plotly-plot');
  }

  function triggeredFigure(inputFigure, outputFigure) {
    const triggered = window.dash_clientside.callback_context.triggered_id;
    return triggered === 'view-input-graph' ? inputFigure : outputFigure;
  }

  // A patch drawing the clicked point's neighbours and its kNN edges (point -> neighbour segments) in a
  // view, into its traces named 'neighbours' and 'kNN edges' (components/figures/views.py). `marks` holds
  // data-set rows; a row the view does not draw (the 3-D level of detail) is left out, and so are the
  // edges when the clicked point itself is not drawn there.
  function drawNeighbours(figure, marks) {
    const names = figure.data.map((trace) => trace.name);
    const points = names.indexOf('neighbours');
    const edges = names.indexOf('kNN edges');
    if (points < 0 || edges < 0) {
      return window.dash_clientside.no_update;
    }
    const neighbours = toPoints(figure, marks ? marks.neighbours : []);
    const centre = toPoints(figure, marks ? [marks.point] : []);
    const patch = new window.dash_clientside.Patch();
    ['x', 'y', 'z'].filter((axis) => figure.data[0][axis] !== undefined).forEach((axis) => {
      const values = column(figure.data[0][axis]);
      patch.assign(['data', points, axis], neighbours.map((point) => values[point]));
      patch.assign(['data', edges, axis], centre.length === 0 ? [] :
        neighbours.flatMap((point) => [values[centre[0]], values[point], null]));
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

  // A graph with WebGL traces is saved from a copy drawn off screen at Plotly's export pixel ratio: the page
  // draws its WebGL at the screen's ratio (assets/plotly_page.js), which Plotly's own download would keep,
  // and a PNG saved at scale 2 would hold a 3-D scene or scattergl points of half its resolution.
  const EXPORT_GL_PIXEL_RATIO = 2;  // Plotly's default plotGlPixelRatio
  const WEBGL_TYPES = ['scattergl', 'scatter3d'];

  function hasWebGL(gd) {
    return (gd.data || []).some((trace) => WEBGL_TYPES.includes(trace.type));
  }

  // An SVG of a WebGL trace holds one raster image of its points: its copy draws SVG markers instead (scatter
  // for scattergl); a 3-D scene stays a raster image. A PNG's copy keeps every trace. One export of a graph at a
  // time (a copy of a million points takes seconds); a failed one is logged.
  function downloadCopy(gd, options) {
    if (gd.procrustesSaving) {
      return Promise.resolve();
    }
    const width = gd.offsetWidth, height = gd.offsetHeight;
    const vector = options.format === 'svg';
    const data = gd.data.map(
      (trace) => Object.assign({}, trace, vector && trace.type === 'scattergl' ? {type: 'scatter'} : {}));
    const layout = Object.assign({}, gd.layout, {width: width, height: height});
    gd.procrustesSaving = true;
    return window.Plotly.downloadImage(
      {data: data, layout: layout, config: {plotGlPixelRatio: EXPORT_GL_PIXEL_RATIO}},
      {format: options.format, scale: options.scale, filename: options.filename || 'procrustes-lab',
       width: width, height: height})
      .catch((error) => console.error('The figure could not be saved:', error))
      .finally(() => { gd.procrustesSaving = false; });
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
    // A figure naming what it shows (a run's views: layout.meta.filename) is saved under that name.
    const named = gd.layout && gd.layout.meta && gd.layout.meta.filename;
    const options = Object.assign({}, gd._context.toImageButtonOptions || {}, named ? {filename: named} : {},
                                  {format: format, scale: IMAGE_SCALE[format]});
    if (hasWebGL(gd) && window.Plotly) {
      event.preventDefault();
      event.stopImmediatePropagation();
      downloadCopy(gd, options);
    } else {
      gd._context.toImageButtonOptions = options;  // Plotly's own handler reads it next
    }
  }, true);

  function triggeredEvent(inputEvent, outputEvent) {
    const triggered = window.dash_clientside.callback_context.triggered_id;
    return triggered === 'view-input-graph' ? inputEvent : outputEvent;
  }

  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    procrustes: {
      markHovered: function (inputHover, outputHover, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        const hover = triggeredEvent(inputHover, outputHover);
        const point = hover && hover.points && hover.points[0];
        if (!point || point.curveNumber !== 0 || !inputFigure || !outputFigure) {
          return [noUpdate, noUpdate];
        }
        const rows = toRows(triggeredFigure(inputFigure, outputFigure), [point.pointNumber]);
        const [input, output] = window.dash_clientside.callback_context.outputs_list.map((output) => output.id);
        return [ring(inputFigure, rows, input), ring(outputFigure, rows, output)];
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
      // Find points (components/find.py): the rows the query found, marked as a selection is.
      markFound: function (found, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        // Before the first run is drawn the views hold a placeholder without points: nothing to mark.
        const drawn = (figure) => Boolean(figure && figure.data && figure.data.length > SELECTION_TRACE);
        if (!found || !drawn(inputFigure) || !drawn(outputFigure)) {
          return [noUpdate, noUpdate];
        }
        // Nothing found and nothing marked: no patch, for a patch redraws the view (a 3-D view of 20 000
        // points took about a second in software WebGL on every page that opened a link, its find box blank).
        const unmarked = (figure) => column(figure.data[SELECTION_TRACE].x || []).length === 0;
        const marks = (figure) => (found.rows.length || !unmarked(figure) ?
          mark(figure, SELECTION_TRACE, found.rows) : noUpdate);
        return [marks(inputFigure), marks(outputFigure)];
      },
      // A clicked point: its k neighbours and kNN edges in both views (an edge that short-circuits the
      // manifold is a long chord), and the inspector below scrolled into view.
      markNeighbours: function (marks, inputFigure, outputFigure) {
        const noUpdate = window.dash_clientside.no_update;
        if (marks === undefined || !inputFigure || !outputFigure) {
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
