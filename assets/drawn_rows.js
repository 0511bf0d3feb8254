/* The rows a view draws, shared by the page's linked views (assets/linked_views.js, loaded after this
 * file: Dash loads assets in name order) and the offline report (components/report.py inlines this
 * file before components/report.js).
 *
 * Trace 0 of each view holds its points in data-set order: every point, or, when its customdata is
 * set, only the data-set rows listed there (sorted: the 3-D view's level of detail, a report's
 * subsample), so a point's number maps to a data-set row and back. `figure` is a figure ({data,
 * layout}) or a graph div, which holds the same `data`. Columns are plain arrays, Plotly's typed-array
 * spec {dtype, bdata} (base64), or the page's 16-bit fixed point, that spec of uint16 codes with an
 * offset and a step (components/figures/fixed_point.py; assets/plotly_page.js hands it to Plotly decoded). */
window.procrustesDrawnRows = (function () {
  const TYPED = {f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array, i1: Int8Array,
                 u4: Uint32Array, u2: Uint16Array, u1: Uint8Array};
  const decoded = new WeakMap();

  // Code of a value that is not finite in a fixed-point column (components/figures/fixed_point.py).
  const NOT_FINITE = 65535;

  // A fixed-point column's values: offset + step * code, NaN for the code of a value that is not finite.
  function fixedPoint(codes, offset, step) {
    const values = new Float64Array(codes.length);
    for (let i = 0; i < codes.length; i += 1) {
      values[i] = codes[i] === NOT_FINITE ? NaN : offset + step * codes[i];
    }
    return values;
  }

  // Whether a column is a fixed-point spec ({dtype: 'u2', bdata, offset, step}) that Plotly cannot read itself.
  function isFixedPoint(values) {
    return values !== undefined && values !== null && typeof values === 'object' && !ArrayBuffer.isView(values) &&
      !Array.isArray(values) && typeof values.bdata === 'string' && typeof values.step === 'number';
  }

  // A column as an array (a typed-array spec, or a fixed-point one, decoded once), or undefined/null as given.
  function column(values) {
    if (values === undefined || values === null || Array.isArray(values) || ArrayBuffer.isView(values)) {
      return values;
    }
    if (!decoded.has(values)) {
      const bytes = Uint8Array.from(atob(values.bdata), (c) => c.charCodeAt(0));
      const typed = new TYPED[values.dtype](bytes.buffer);
      decoded.set(values, isFixedPoint(values) ? fixedPoint(typed, values.offset, values.step) : typed);
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

  return {column: column, drawnRows: drawnRows, isFixedPoint: isFixedPoint, toRows: toRows, toPoints: toPoints};
})();
