/* The page's Plotly draws the views' 16-bit fixed-point columns (components/figures/fixed_point.py): react
 * and newPlot receive each trace's x, y, z and marker.color decoded (assets/drawn_rows.js, `column`, once
 * per column), so the graphs' figures keep the compact spec that travelled and Plotly sees numbers.
 *
 * dcc.Graph loads Plotly on demand and calls the global `Plotly.react`; the wrap is put in place when
 * `window.Plotly` is assigned (or at once if it already is). */
(function () {
  const {column, isFixedPoint} = window.procrustesDrawnRows;  // assets/drawn_rows.js (Dash loads assets in name order)
  const AXES = ['x', 'y', 'z'];

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

  // Plotly.react(gd, data, layout, config) or Plotly.react(gd, {data, layout, config, frames}).
  function decodedArguments(rest) {
    const [first, ...others] = rest;
    if (first && !Array.isArray(first) && typeof first === 'object' && Array.isArray(first.data)) {
      return [Object.assign({}, first, {data: decodedData(first.data)}), ...others];
    }
    return [decodedData(first), ...others];
  }

  function wrapped(plotly) {
    if (!plotly || plotly.procrustesFixedPoint) {
      return plotly;
    }
    ['react', 'newPlot'].forEach((name) => {
      const original = plotly[name];
      plotly[name] = function (gd, ...rest) {
        return original.call(this, gd, ...decodedArguments(rest));
      };
    });
    plotly.procrustesFixedPoint = true;
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
