/* The page's Plotly: what every Plotly.react and Plotly.newPlot of the page's graphs receives.
 *
 * - The views' 16-bit fixed-point columns (components/figures/fixed_point.py) arrive decoded: each trace's
 *   x, y, z and marker.color (assets/drawn_rows.js, `column`, once per column), so the graphs' figures keep
 *   the compact spec that travelled and Plotly sees numbers.
 * - An interactive graph's WebGL traces (the views' scattergl and scatter3d) are drawn at the screen's pixel
 *   ratio. Plotly's default, plotGlPixelRatio = 2, draws four times the pixels a screen of ratio 1 shows, on
 *   every redraw; without a GPU (Chromium's software WebGL) the 3-D view's frame is where a 20 000-point
 *   switch spends most of its time (bench/browser.py --large). A high-density screen keeps its ratio, so it
 *   stays sharp, and a graph keeps the ratio it was first drawn at. A static graph keeps what it asks for, or
 *   Plotly's 2; exports are drawn by Plotly itself, at 2 (assets/linked_views.js).
 * - Equal layout templates reach Plotly as one object. dcc.Graph hands Plotly.react a deep copy of the figure's
 *   layout on every update (so that a Patch never mutates its prop), and Plotly takes a template object it has
 *   not seen for a change of every default: it computes every trace again. A hover ring's patch of the views
 *   of 100 000 points took 1.5 s so, a retitled output of a million points 5 s (a copied axis or title costs
 *   Plotly 2 ms on a bare page of 100 000 points, a copied template 0.28 s).
 *
 * dcc.Graph loads Plotly on demand and calls the global `Plotly.react`; the wrap is put in place when
 * `window.Plotly` is assigned (or at once if it already is). */
(function () {
  const {column, isFixedPoint} = window.procrustesDrawnRows;  // assets/drawn_rows.js (Dash loads assets in name order)
  const AXES = ['x', 'y', 'z'];
  const MAX_GL_PIXEL_RATIO = 4;  // the largest plotGlPixelRatio Plotly accepts

  // A trace with its fixed-point columns decoded (a copy), or the trace itself when it has none.
  function decodedTrace(trace) {
    if (!trace || typeof trace !== 'object') {
      return trace;
    }
    const axes = AXES.filter((axis) => isFixedPoint(trace[axis]));
    const color = trace.marker && isFixedPoint(trace.marker.color);
    if (!axes.length && !color) {
      return trace;
    }
    const copy = Object.assign({}, trace);
    axes.forEach((axis) => { copy[axis] = column(trace[axis]); });
    if (color) {
      copy.marker = Object.assign({}, trace.marker, {color: column(trace.marker.color)});
    }
    return copy;
  }

  function decodedData(data) {
    return Array.isArray(data) ? data.map(decodedTrace) : data;
  }

  // The config with the screen's pixel ratio for WebGL, unless the graph is static or names its own ratio. A graph
  // drawn already keeps the ratio it was drawn at (a new one is a new config, which Plotly takes for a new plot: a
  // browser zoom would have redrawn a view of a million points at its next hover), and a call without a config keeps
  // the graph's own (Plotly replaces a graph's config with any config given).
  function screenConfig(gd, config) {
    const given = Boolean(config) && typeof config === 'object';
    const drawn = Boolean(gd && gd._fullLayout && gd._context);
    if ((given && (config.staticPlot || config.plotGlPixelRatio !== undefined)) || (!given && drawn)) {
      return config;
    }
    const ratio = drawn ? gd._context.plotGlPixelRatio
      : Math.min(MAX_GL_PIXEL_RATIO, Math.max(1, window.devicePixelRatio || 1));
    return Object.assign({}, given ? config : {}, {plotGlPixelRatio: ratio});
  }

  const templates = new Map();  // a template's JSON -> the one object Plotly receives for it
  const MAX_TEMPLATES = 16;  // the page's figures share one (components/figures/theme.py)

  // The layout with its template replaced by the first equal one Plotly received.
  function sharedTemplate(layout) {
    if (!layout || typeof layout !== 'object' || !layout.template || typeof layout.template !== 'object') {
      return layout;
    }
    const key = JSON.stringify(layout.template);
    if (!templates.has(key)) {
      if (templates.size >= MAX_TEMPLATES) {
        templates.clear();
      }
      templates.set(key, layout.template);
    }
    return Object.assign({}, layout, {template: templates.get(key)});
  }

  // Plotly.react(gd, data, layout, config) or Plotly.react(gd, {data, layout, config, frames}).
  function pageArguments(gd, rest) {
    const [first, ...others] = rest;
    if (first && !Array.isArray(first) && typeof first === 'object' && Array.isArray(first.data)) {
      return [Object.assign({}, first, {data: decodedData(first.data), layout: sharedTemplate(first.layout),
                                        config: screenConfig(gd, first.config)}), ...others];
    }
    const [layout, config, ...more] = others;
    return [decodedData(first), sharedTemplate(layout), screenConfig(gd, config), ...more];
  }

  function wrapped(plotly) {
    if (!plotly || plotly.procrustesPage) {
      return plotly;
    }
    ['react', 'newPlot'].forEach((name) => {
      const original = plotly[name];
      plotly[name] = function (gd, ...rest) {
        return original.call(this, gd, ...pageArguments(typeof gd === 'string' ? document.getElementById(gd) : gd,
                                                         rest));
      };
    });
    plotly.procrustesPage = true;
    return plotly;
  }

  if (window.Plotly) {
    wrapped(window.Plotly);
  } else {
    let plotly;
    Object.defineProperty(window, 'Plotly', {
      configurable: true,
      enumerable: true,
      get: () => plotly,
      set: (value) => { plotly = wrapped(value); },
    });
  }
})();
