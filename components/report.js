/* The report's linked views (components/report.py), offline: no Dash, no server, Plotly inline.
 *
 * The figures, and every colouring's marker and hover text, are read from the JSON block
 * #report-data. A point's number maps to a data-set row and back through the rows its view draws
 * (assets/drawn_rows.js); trace 1 is the hover ring and trace 2 the selection
 * (components/figures/views.py). Hovering a point rings its row in both views, until the next point is
 * hovered, as on the page (a restyle on unhover would run while a box drag starts, since Plotly unhovers
 * on the press, and leave that selection empty); a box or lasso selection in the output marks its rows
 * in both; the colour menu restyles trace 0 of both. */
(function () {
  const HOVER_TRACE = 1;
  const SELECTION_TRACE = 2;
  const {column, toRows, toPoints} = window.procrustesDrawnRows;  // assets/drawn_rows.js, inlined before

  const report = JSON.parse(document.getElementById('report-data').textContent);
  const views = ['input', 'output'].map((name) => document.getElementById('report-' + name));
  const status = document.getElementById('report-selection');
  const menu = document.getElementById('report-color');

  // Trace `trace` of both views set to the data-set rows `dataRows`.
  function mark(trace, dataRows) {
    views.forEach((gd) => {
      const points = toPoints(gd, dataRows);
      const update = {};
      ['x', 'y', 'z'].filter((axis) => gd.data[0][axis] !== undefined).forEach((axis) => {
        const values = column(gd.data[0][axis]);
        update[axis] = [points.map((point) => values[point])];
      });
      window.Plotly.restyle(gd, update, [trace]);
    });
  }

  function recolor(key) {
    const coloring = report.colorings[key];
    views.forEach((gd, index) => {
      const patch = coloring[index === 0 ? 'input' : 'output'];
      const marker = Object.assign({}, patch.marker, {color: column(patch.marker.color)});
      window.Plotly.restyle(gd, {marker: [marker], hovertemplate: [patch.hovertemplate]}, [0]);
    });
  }

  const config = {displaylogo: false, responsive: true, modeBarButtonsToRemove: ['sendDataToCloud']};
  Promise.all(views.map((gd, index) => {
    const figure = report.figures[index === 0 ? 'input' : 'output'];
    return window.Plotly.newPlot(gd, figure.data, figure.layout, config);
  })).then(() => {
    views.forEach((gd) => {
      gd.on('plotly_hover', (event) => {
        const point = event.points.find((candidate) => candidate.curveNumber === 0);
        if (point) {
          mark(HOVER_TRACE, toRows(gd, [point.pointNumber]));
        }
      });
      gd.on('plotly_selected', (event) => {
        const points = ((event && event.points) || []).filter((point) => point.curveNumber === 0)
          .map((point) => point.pointNumber);
        mark(SELECTION_TRACE, toRows(gd, points));
        status.textContent = points.length + ' points selected, marked in both views.';
      });
      gd.on('plotly_deselect', () => {
        mark(SELECTION_TRACE, []);
        status.textContent = '';
      });
    });
    menu.addEventListener('change', () => recolor(menu.value));
    document.body.setAttribute('data-ready', 'true');
  });
})();
