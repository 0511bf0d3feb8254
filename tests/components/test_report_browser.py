"""Browser tests of the offline report (components/report.py): the file on its own, and the page's download.

Run with ``python -m pytest --headless``. The report is opened as a file:// page with every network
address blocked (Chrome DevTools ``Network.setBlockedURLs``), and the browser's record of what it loaded
must hold nothing but the page itself.
"""

import json
import pathlib
import time

import numpy as np
import pytest
from dash.testing.wait import until

import measures
from app import create_app
from components import ids
from components.report import report_rows, write_report
from lab import RunRequest
from lab.compute import catalogue, compute

from .test_app_browser import WAIT, severe_logs, wait_for_output_title


def view_array(dash_duo, view, path):
    """An array of the report's ``view`` ("input" or "output") figure, as the browser holds it."""
    return np.asarray(dash_duo.driver.execute_script(
        f"return Array.from(document.getElementById('report-{view}').{path});"), dtype=float)


def pointer_at(dash_duo, view, *points, events=("mousemove",)):
    """Mouse events over a 2-D view at data coordinates, on the drag layer where a user's pointer lands: each of
    ``events`` at one point, or with several points, a press at the first, moves, and a release at the last."""
    steps = [(kind, *points[0]) for kind in events] if len(points) == 1 else (
        [("mousedown", *points[0])] + [("mousemove", *point) for point in points[1:]] + [("mouseup", *points[-1])])
    dash_duo.driver.execute_script(
        f"const gd = document.getElementById('{view}');"
        "const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();"
        "const drag = gd.querySelector('.nsewdrag');"
        "for (const [type, x, y] of arguments[0]) {"
        "  drag.dispatchEvent(new MouseEvent(type, {bubbles: true, buttons: 1,"
        "    clientX: box.left + xa._offset + xa.l2p(x), clientY: box.top + ya._offset + ya.l2p(y)}));"
        "}",
        [[kind, float(x), float(y)] for kind, x, y in steps])


def test_the_report_opens_offline_and_links_hover_selection_and_colour_between_its_views(dash_duo, tmp_path):
    request = RunRequest.create("swissroll", "isomap", n=400, n_neighbors=10).measuring(["normalized", "asim"])
    result = compute(request, cache=None).result
    path = write_report(tmp_path / "report.html", request, result)
    driver = dash_duo.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["http://*", "https://*", "ws://*", "wss://*"]})
    driver.get(path.as_uri())
    until(lambda: driver.execute_script("return document.body.getAttribute('data-ready');") == "true", timeout=WAIT)

    # The pointer on point 123 of the output rings row 123 in the input view (and in the output itself).
    # (Plotly.Fx.hover by point number finds no scattergl point and emits no event: a pointer event it is.)
    pointer_at(dash_duo, "report-output", result.Y[123])
    until(lambda: len(view_array(dash_duo, "input", "data[1].x")) == 1, timeout=WAIT)
    ring = [view_array(dash_duo, "input", f"data[1].{axis}")[0] for axis in "xyz"]
    np.testing.assert_array_equal(ring, result.drawn_X[123].astype(np.float32))
    np.testing.assert_array_equal([view_array(dash_duo, "output", f"data[1].{axis}")[0] for axis in "xy"],
                                  result.Y[123].astype(np.float32))

    # A box drawn with the output's box tool marks its rows in the output and the same rows in the input.
    dash_duo.find_element("#report-output .modebar-btn[data-val='select']").click()
    half = 0.1 * np.ptp(result.Y, axis=0)  # a box around point 123, on the arc of the output (a ring)
    low, high = result.Y[123] - half, result.Y[123] + half
    pointer_at(dash_duo, "report-output", *[(1 - t) * low + t * high for t in np.linspace(0, 1, 11)])
    until(lambda: len(view_array(dash_duo, "input", "data[2].x")) > 0, timeout=WAIT)
    Y32 = result.Y.astype(np.float32)
    output_marks = np.column_stack([view_array(dash_duo, "output", f"data[2].{axis}") for axis in "xy"])
    rows = np.flatnonzero((Y32[:, None, :] == output_marks[None, :, :]).all(axis=2).any(axis=1))
    assert 10 < len(rows) == len(output_marks) < result.n_samples // 2 and 123 in rows
    input_marks = np.column_stack([view_array(dash_duo, "input", f"data[2].{axis}") for axis in "xyz"])
    np.testing.assert_array_equal(input_marks, result.drawn_X[rows].astype(np.float32))
    assert dash_duo.find_element("#report-selection").text == f"{len(rows)} points selected, marked in both views."

    # The colour menu recolours both views from the embedded arrays.
    driver.execute_script("const menu = document.getElementById('report-color'); menu.value = 'truth-1';"
                          "menu.dispatchEvent(new Event('change'));")
    until(lambda: f"{result.truth_labels[1]}: " in driver.execute_script(
        "return document.getElementById('report-output').data[0].hovertemplate;"), timeout=WAIT)
    np.testing.assert_array_equal(view_array(dash_duo, "input", "data[0].marker.color"),
                                  result.truth[:, 1].astype(np.float32))

    # Nothing but the file itself was loaded, and the page logged no error.
    assert driver.execute_script("return performance.getEntriesByType('resource').length;") == 0
    driver.save_screenshot(str(tmp_path / "report.png"))
    assert severe_logs(dash_duo) == []


def open_offline(dash_duo, path):
    """Open the report file with every network address blocked; the seconds until its script says it is ready."""
    driver = dash_duo.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["http://*", "https://*", "ws://*", "wss://*"]})
    start = time.perf_counter()
    driver.get(path.as_uri())
    until(lambda: driver.execute_script("return document.body.getAttribute('data-ready');") == "true", timeout=WAIT)
    return time.perf_counter() - start


def drawn_table(dash_duo):
    """The report's measure table as the browser shows it: ``{label: (direction, mean, median)}`` as text."""
    rows = dash_duo.driver.execute_script(
        "return Array.from(document.querySelectorAll('#report-measures-table tbody tr'))"
        ".map(row => Array.from(row.cells).map(cell => cell.innerText));")
    return {label: (direction, mean, median) for label, direction, mean, median, *_ in rows}


@pytest.mark.parametrize(("n_samples", "algorithm", "measured"), [
    (1_600, "isomap", None),  # the page's default run, every measure
    (100_000, "pca", ("raw", "normalized", "conformal", "pca", "lower_bound", "asim", "neighbourhood_agreement",
                      "trustworthiness", "continuity", "mrre_false", "mrre_missing", "auc_rnx", "triplet_accuracy")),
], ids=["1600-isomap-every-measure", "100000-pca"])
def test_a_report_at_1600_and_100000_points_opens_offline_with_the_api_s_numbers_and_links_hover(
        dash_duo, tmp_path, n_samples, algorithm, measured):
    """Issue 23's done-when: the file opens with no request leaving it, its table shows the API's numbers, and
    the pointer on an output point rings that row in the input view too."""
    request = RunRequest.create("swissroll", algorithm, n=n_samples, n_neighbors=10)
    request = request if measured is None else request.measuring(list(measured))
    result = compute(request, cache=None).result
    path = write_report(tmp_path / "report.html", request, result)
    assert path.stat().st_size < 25 * 2**20
    seconds = open_offline(dash_duo, path)
    print(f"report of {n_samples} points: {path.stat().st_size / 1e6:.1f} MB, ready {seconds:.2f} s after opening")

    # The table as drawn: every measure of the run, each number the API's to the 4 digits shown.
    table = drawn_table(dash_duo)
    assert sorted(table) == sorted(measures.spec(name).label for name in result.summary)
    for name, (mean, median) in result.summary.items():
        direction, shown_mean, shown_median = table[measures.spec(name).label]
        assert direction == catalogue.direction_key(name)
        for shown, value in ((shown_mean, mean), (shown_median, median)):
            assert shown == ("—" if value is None else f"{value:.4g}"), (name, shown, value)

    # Zoomed in on a row both views draw (at 100 000 points the output's points lie closer than a pixel), the
    # pointer on it rings it in the output and the same row in the input.
    drawn = report_rows(result, "input")
    row = int(np.random.default_rng(0).choice(np.arange(result.n_samples) if drawn is None else drawn))
    half = 0.02 * np.ptp(result.Y, axis=0)
    dash_duo.driver.execute_script(
        "Plotly.relayout('report-output', {'xaxis.range': arguments[0], 'yaxis.range': arguments[1]});",
        *([float(low), float(high)] for low, high in zip(result.Y[row] - half, result.Y[row] + half)))
    pointer_at(dash_duo, "report-output", result.Y[row])
    until(lambda: len(view_array(dash_duo, "input", "data[1].x")) == 1, timeout=WAIT)
    np.testing.assert_array_equal([view_array(dash_duo, "output", f"data[1].{axis}")[0] for axis in "xy"],
                                  result.Y[row].astype(np.float32))
    np.testing.assert_array_equal([view_array(dash_duo, "input", f"data[1].{axis}")[0] for axis in "xyz"],
                                  result.drawn_X[row].astype(np.float32))

    assert dash_duo.driver.execute_script("return performance.getEntriesByType('resource').length;") == 0
    assert severe_logs(dash_duo) == []


def test_over_a_subsampled_3d_view_a_hovered_row_is_ringed_there_only_when_it_is_drawn(dash_duo, tmp_path):
    """25 000 points: the output draws all of them, the 3-D input the page's 20 000 (customdata names them)."""
    from scipy.spatial import cKDTree

    from lab.compute.views import drawn_rows

    request = RunRequest.create("swissroll", "pca", n=25_000, n_neighbors=10).measuring(["normalized"])
    result = compute(request, cache=None).result
    drawn = drawn_rows(result, "input")
    assert drawn is not None and len(drawn) < result.n_samples
    path = write_report(tmp_path / "report.html", request, result)
    dash_duo.driver.get(path.as_uri())
    until(lambda: dash_duo.driver.execute_script("return document.body.getAttribute('data-ready');") == "true",
          timeout=WAIT)
    # The most isolated output point among the rows the input draws, and among those it does not: the
    # pointer on it hovers it and no other.
    spacing = cKDTree(result.Y).query(result.Y, k=2)[0][:, 1]
    left_out = np.setdiff1d(np.arange(result.n_samples), drawn)
    for row, in_input in ((drawn[np.argmax(spacing[drawn])], True), (left_out[np.argmax(spacing[left_out])], False)):
        pointer_at(dash_duo, "report-output", result.Y[row])
        until(lambda: np.array_equal([view_array(dash_duo, "output", f"data[1].{axis}")[0]
                                      if len(view_array(dash_duo, "output", "data[1].x")) else np.nan
                                      for axis in "xy"], result.Y[row].astype(np.float32)), timeout=WAIT)
        ring = np.column_stack([view_array(dash_duo, "input", f"data[1].{axis}") for axis in "xyz"])
        expected = result.drawn_X[[row]].astype(np.float32) if in_input else np.zeros((0, 3))
        np.testing.assert_array_equal(ring, expected)
    assert severe_logs(dash_duo) == []


def test_the_explore_tab_s_report_button_downloads_the_shown_run_s_report(dash_duo, tmp_path):
    """From an empty cache: the first run computed by the page, then its report downloaded."""
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    until(lambda: dash_duo.find_element(f"#{ids.card_value('time')}").text.endswith(" s"), timeout=WAIT)
    dash_duo.find_element(f"#{ids.EXPORT_REPORT}").click()
    download = pathlib.Path(dash_duo.download_path) / "procrustes-lab_swissroll_n1600_isomap_k10_report.html"
    until(lambda: download.exists() and download.stat().st_size > 0, timeout=WAIT)
    time.sleep(1)  # the browser finishes writing
    text = download.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="report-measures">')
    record = json.loads(text[text.index(">", start) + 1:text.index("</script>", start)])
    expected = compute(RunRequest.create("swissroll", "isomap", n=1600, n_neighbors=10), cache=None).result
    assert {name: (entry["mean"], entry["median"]) for name, entry in record["measures"].items()} == \
        expected.summary
    assert severe_logs(dash_duo) == []
