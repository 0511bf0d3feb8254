"""Browser tests of the explore tab's linked views: selection in either view, the neighbourhood inspector.

Run with ``python -m pytest --headless``. The expected values come from the libraries, computed
here independently of the page.
"""

import time

import numpy as np
import pytest
from dash.testing.wait import until
from selenium.webdriver.common.keys import Keys

import algorithms
import datasets
import measures
from app import create_app
from lab.compute import catalogue
from components import ids
from components.figures.marks import LOSS_LEVELS, loss_index, loss_palette, loss_range

from .test_app_browser import WAIT, browser_array, card_mean, carried, open_page, severe_logs, wait_for_output_title


def marked(dash_duo, graph_id, axes):
    """The points of a view's selection trace (trace 2), one row per point."""
    return np.column_stack([browser_array(dash_duo, graph_id, f"data[2].{axis}") for axis in axes])


def rows_of(drawn, marks):
    """The rows of ``drawn`` (n, d) that ``marks`` holds (whole rows: one coordinate of fixed point may repeat)."""
    return np.flatnonzero((drawn[:, None, :] == marks[None, :, :]).all(axis=2).any(axis=1))


def marked_count(dash_duo, graph_id):
    script = f"return document.getElementById('{graph_id}').querySelector('.js-plotly-plot').data[2].x.length;"
    return dash_duo.driver.execute_script(script)


def choose_tool(dash_duo, graph_id, tool):
    """Click a tool of a graph's mode bar, as a user does ("select" is box select, "lasso")."""
    dash_duo.find_element(f"#{graph_id} .modebar-btn[data-val='{tool}']").click()


def selected_box(dash_duo, graph_id):
    """The data-coordinate box Plotly selected (pixel-rounded from the drag): (low, high)."""
    box = dash_duo.driver.execute_script(
        f"return document.getElementById('{graph_id}').querySelector('.js-plotly-plot').layout.selections[0];")
    return np.array([min(box["x0"], box["x1"]), min(box["y0"], box["y1"])]), \
        np.array([max(box["x0"], box["x1"]), max(box["y0"], box["y1"])])


def sorted_rows(points):
    return points[np.lexsort(points.T[::-1])]


@pytest.fixture
def default_run():
    data = datasets.load("swissroll")
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    return data, Y, measures.evaluate(data.X, Y, 10, which=["normalized", "conformal", "asim"])


def measure_rows(dash_duo):
    """The table of every measure as the page shows it, ``{label: [direction, mean, median, best, random]}``, read
    in one script: the table is one Markdown component, whose every update replaces its rows."""
    cells = dash_duo.driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), "
        "row => Array.from(row.cells, cell => cell.innerText.trim()));", f"#{ids.MEASURE_TABLE} tbody tr")
    return {row[0]: row[1:] for row in cells}


def test_the_run_s_table_yardsticks_inspector_and_box_selection_from_an_empty_cache(dash_duo, tmp_path, mouse_at,
                                                                                   drag, default_run):
    """One first visit (an empty result cache, a fresh browser) to the default run: the table of every measure
    and its yardsticks, a clicked point's neighbourhood in the inspector, a box selection in the output
    marked in the input (one session: a browser session costs ~10 s of CI)."""
    data, Y, evaluation = default_run
    trustworthiness_and_continuity = measures.evaluate(data.X, Y, 10, which=["trustworthiness", "continuity"])
    surveys = measures.evaluate(data.X, Y, 10, which=["auc_rnx", "shepard", "cpd"])  # the surveys' measures
    dash_duo.start_server(create_app(tmp_path))  # an empty result cache, a fresh browser
    dash_duo.wait_for_element(f"#{ids.MEASURE_TABLE} tbody tr", timeout=WAIT)
    rows = measure_rows(dash_duo)
    for name in ("trustworthiness", "continuity"):
        direction, mean, median, best, random = rows[measures.spec(name).label]
        assert direction == "↑ better" and best == "1" and random == "—"
        assert float(mean) == pytest.approx(trustworthiness_and_continuity.mean[name], rel=1e-3)
        assert float(median) == pytest.approx(trustworthiness_and_continuity.median[name], rel=1e-3)
    for name in ("auc_rnx", "shepard", "cpd"):
        assert rows[measures.spec(name).label][0] == "↑ better"
        assert float(rows[measures.spec(name).label][1]) == pytest.approx(surveys.mean[name], rel=1e-3), name
    assert rows[measures.spec("stress").label][0] == "↓ better"
    assert len(rows) > len(catalogue.CARD_MEASURES)
    # The yardsticks, as a user asks for them: the cards and the table gain each measure's random value.
    card = f"#{ids.card_yardstick('trustworthiness')}"
    assert dash_duo.find_element(card).text == "best 1"
    dash_duo.find_element(f"#{ids.YARDSTICK_RUN}").click()
    dash_duo.wait_for_contains_text(card, "random", timeout=WAIT)
    random_t = float(dash_duo.find_element(card).text.rsplit(" ", 1)[1])
    n, k = len(data.X), 10  # a random output's expected trustworthiness, worked by hand in tests/measures
    assert random_t == pytest.approx(1 - (n - 1 - k) * (n - k) / ((2 * n - 3 * k - 1) * (n - 1)), abs=0.01)
    dash_duo.wait_for_contains_text(f"#{ids.YARDSTICK_MESSAGE}", "random outputs", timeout=WAIT)
    assert float(measure_rows(dash_duo)["trustworthiness"][4]) == pytest.approx(random_t, abs=1e-3)
    floor = dash_duo.find_element(f"#{ids.card_yardstick('normalized')}").text
    assert floor.startswith("floor ") and float(floor.split()[1]) == pytest.approx(
        float(dash_duo.find_element(f"#{ids.card_value('lower_bound')} .card-mean").text), rel=1e-2)

    # A clicked point's neighbourhood opens in the inspector.
    mouse_at(ids.OUTPUT_GRAPH, *Y[123], ("mousemove", "mousedown", "mouseup", "click"))
    dash_duo.wait_for_contains_text(f"#{ids.INSPECTOR_TEXT}", "input neighbours", timeout=WAIT)
    text = dash_duo.find_element(f"#{ids.INSPECTOR_TEXT}").text
    # Plotly clicks the point nearest the pointer (123 or one drawn on top of it).
    clicked = int(text.split()[1])
    assert np.linalg.norm(Y[clicked] - Y[123]) < 1.0
    view = measures.inspect_neighbourhood(data.X, Y, measures.nearest_neighbors(data.X, 10), clicked)
    assert f"local R_N {evaluation.per_point['normalized'][clicked]:.4f}" in text
    assert f"R_C {evaluation.per_point['conformal'][clicked]:.4f}" in text
    assert f"ASIM {evaluation.per_point['asim'][clicked]:.4f}" in text
    # The panels hold the input patch and each alignment of its embedding (signs of axes may differ).
    inspector = f"document.getElementById('{ids.INSPECTOR_GRAPH}').querySelector('.js-plotly-plot')"
    until(lambda: dash_duo.driver.execute_script(f"return {inspector}.data.length;") == 12, timeout=WAIT)
    drawn_input = np.c_[browser_array(dash_duo, ids.INSPECTOR_GRAPH, "data[1].x"),
                        browser_array(dash_duo, ids.INSPECTOR_GRAPH, "data[1].y")]
    np.testing.assert_allclose(np.abs(drawn_input), np.abs(view.input_local), rtol=1e-9, atol=1e-12)
    titles = dash_duo.driver.execute_script(
        f"return {inspector}.layout.annotations.map((a) => a.text);")
    assert titles[0].startswith(f"R_N {view.normalized:.4f}")

    # A box drawn in the output view marks the same points in the input view.
    choose_tool(dash_duo, ids.OUTPUT_GRAPH, "select")
    low, high = np.percentile(Y, 20, axis=0), np.percentile(Y, 45, axis=0)
    drag(ids.OUTPUT_GRAPH, low, high)
    until(lambda: marked_count(dash_duo, ids.INPUT_GRAPH) > 0, timeout=WAIT)
    low, high = selected_box(dash_duo, ids.OUTPUT_GRAPH)
    X_drawn, Y_drawn = carried(data.X), carried(Y)  # as the views draw them (16-bit fixed point)

    def inside(margin):  # points of the box grown (or shrunk) by ``margin`` of its size
        pad = margin * (high - low)
        return set(np.flatnonzero(np.all((Y_drawn >= low - pad) & (Y_drawn <= high + pad), axis=1)))

    assert 20 < len(inside(0)) < len(Y) // 2
    selected = rows_of(X_drawn, marked(dash_duo, ids.INPUT_GRAPH, "xyz"))
    # Plotly tests the box in pixels (one is about 1% of this box's size): a point within 2% of the box's
    # size of its edge may fall either way; every other point is marked exactly when it lies inside.
    assert inside(-0.02) <= set(selected) <= inside(0.02)
    # Not a vacuous check: the band of ±2 % along the four edges holds about 17 % of a box's points (4 × 4 %),
    # here 22 of 106 (the share moves a few points with the pixel rounding of the drag).
    assert len(inside(0.02) - inside(-0.02)) < 0.3 * len(selected)
    np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.INPUT_GRAPH, "xyz")), sorted_rows(X_drawn[selected]))
    np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.OUTPUT_GRAPH, "xy")), sorted_rows(Y_drawn[selected]))
    # The summary is the selection's mean local R_N beside every point's.
    expected = np.nanmean(evaluation.per_point["normalized"][selected])
    dash_duo.wait_for_contains_text(f"#{ids.SELECTION_TEXT}", f"{len(selected)} points selected", timeout=WAIT)
    text = dash_duo.find_element(f"#{ids.SELECTION_TEXT}").text
    assert f"R_N {expected:.4f} (all points {evaluation.mean['normalized']:.4f})" in text
    assert severe_logs(dash_duo) == []


def browser_colors(dash_duo, graph_id):
    """Each point's colour in a view, as the browser maps trace 0's marker values through its colour scale."""
    values = browser_array(dash_duo, graph_id, "data[0].marker.color").astype(float)
    marker = dash_duo.driver.execute_script(
        f"const m = document.getElementById('{graph_id}').querySelector('.js-plotly-plot').data[0].marker;"
        "return {cmin: m.cmin, cmax: m.cmax, colorscale: m.colorscale};")
    stops = marker["colorscale"]
    position = (values - marker["cmin"]) / (marker["cmax"] - marker["cmin"])
    return np.array([next(color for (low, color), (high, same) in zip(stops[:-1], stops[1:])
                          if color == same and low <= p <= high) for p in position])


def test_false_vs_missing_colours_and_a_projected_input_s_selection_from_an_empty_cache(dash_duo, tmp_path, choose,
                                                                                      drag, default_run):
    data, Y, _ = default_run
    trust, trust_values = measures.trustworthiness(data.X, Y, 10, per_point=True)
    continuity, continuity_values = measures.continuity(data.X, Y, 10, per_point=True)
    false, missing = 1.0 - trust_values, 1.0 - continuity_values
    expected = np.array(loss_palette())[loss_index(false, missing, loss_range(false, missing))]
    dash_duo.start_server(create_app(tmp_path))  # an empty result cache, a fresh browser
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    choose(ids.COLOR_BY, catalogue.NEIGHBOUR_LOSSES)
    dash_duo.wait_for_contains_text(f"#{ids.OUTPUT_GRAPH} .annotation-text", "false vs missing", timeout=WAIT)
    key = dash_duo.find_element(f"#{ids.OUTPUT_GRAPH} .annotation-text").text
    top = loss_range(false, missing)
    assert key == f"false vs missingneighboursT = {trust:.4f}C = {continuity:.4f}full hue from {top:.2g}"  # 5 lines
    axes = [element.text for element in dash_duo.find_elements(f"#{ids.OUTPUT_GRAPH} .g-x2title, "
                                                               f"#{ids.OUTPUT_GRAPH} .g-y2title")]
    assert axes == ["false →", "missing →"]
    for graph in (ids.INPUT_GRAPH, ids.OUTPUT_GRAPH):  # n = 1600: both views draw every point
        np.testing.assert_array_equal(browser_colors(dash_duo, graph), expected)
    dash_duo.driver.save_screenshot(str(tmp_path / "false_missing.png"))
    # A point has as many false neighbours as missing ones (k minus those its two sets share; no ties
    # here): the hue tells which lie farther, in the input (orange) or in the output (blue).
    np.testing.assert_array_equal(false > 0, missing > 0)
    levels = loss_index(false, missing, loss_range(false, missing))
    false_level, missing_level = np.divmod(levels, LOSS_LEVELS)
    assert (levels == 0).any() and (false_level > missing_level).any() and (missing_level > false_level).any()

    # A box drawn in a projection of the input (x₁ against x₃) marks its points in the output.
    choose(ids.INPUT_VIEW, "02")  # the roll's spiral: x₁ against x₃
    until(lambda: dash_duo.driver.execute_script(
        f"return document.getElementById('{ids.INPUT_GRAPH}').querySelector('.js-plotly-plot').data[0].type;")
        == "scattergl", timeout=WAIT)
    choose_tool(dash_duo, ids.INPUT_GRAPH, "select")
    plane = data.X[:, [0, 2]]
    low, high = np.array([0.0, 0.0]), plane.max(axis=0)  # the roll's quarter x₁ > 0, x₃ > 0
    drag(ids.INPUT_GRAPH, low, high)
    until(lambda: marked_count(dash_duo, ids.OUTPUT_GRAPH) > 0, timeout=WAIT)
    marks = marked(dash_duo, ids.OUTPUT_GRAPH, "xy")
    Y_drawn = carried(Y)  # as the views draw them
    selected = rows_of(Y_drawn, marks)
    low, high = selected_box(dash_duo, ids.INPUT_GRAPH)
    plane = carried(data.X)[:, [0, 2]]
    inside = np.flatnonzero(np.all((plane >= low) & (plane <= high), axis=1))
    assert 100 < len(inside) < len(Y) // 2
    np.testing.assert_array_equal(selected, inside)
    np.testing.assert_array_equal(sorted_rows(marks), sorted_rows(Y_drawn[selected]))
    assert severe_logs(dash_duo) == []


def test_a_find_query_in_the_link_marks_its_rows_in_both_views_from_an_empty_cache(dash_duo, tmp_path, default_run):
    data, Y, evaluation = default_run
    dash_duo.start_server(create_app(tmp_path))  # an empty result cache, a fresh browser, the link a user shares
    dash_duo.wait_for_page(f"{dash_duo.server_url}/?find=R_N%20top%201%25", timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.FIND_TEXT}", "points selected", timeout=WAIT)
    values = evaluation.per_point["normalized"]
    top = np.sort(np.argsort(-values, kind="stable")[:16])  # ceil(1 % of 1 600): R_N's largest, as the API says
    assert dash_duo.find_element(f"#{ids.FIND_TEXT}").text.startswith("“R_N top 1%”: 16 points selected")
    X_drawn, Y_drawn = carried(data.X), carried(Y)  # as the views draw them (16-bit fixed point)
    until(lambda: marked_count(dash_duo, ids.OUTPUT_GRAPH) == 16, timeout=WAIT)
    np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.OUTPUT_GRAPH, "xy")), sorted_rows(Y_drawn[top]))
    np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.INPUT_GRAPH, "xyz")), sorted_rows(X_drawn[top]))
    # A new query typed as a user does: rows by number, the link keeps it; a query it cannot read says why.
    box = dash_duo.find_element(f"#{ids.FIND}")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("rows 3-5\n")
    dash_duo.wait_for_contains_text(f"#{ids.FIND_TEXT}", "3 points selected", timeout=WAIT)
    until(lambda: marked_count(dash_duo, ids.INPUT_GRAPH) == 3, timeout=WAIT)
    np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.INPUT_GRAPH, "xyz")), sorted_rows(X_drawn[3:6]))
    until(lambda: "find=rows" in dash_duo.driver.execute_script("return window.location.search;"), timeout=WAIT)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("depth > 3\n")
    dash_duo.wait_for_contains_text(f"#{ids.FIND_TEXT}", "no per-point measure, truth or metadata column 'depth'",
                                    timeout=WAIT)
    until(lambda: marked_count(dash_duo, ids.INPUT_GRAPH) == 0, timeout=WAIT)
    assert severe_logs(dash_duo) == []


def test_a_run_is_drawn_when_its_algorithm_ends_and_its_cards_fill_in_as_measured_from_an_empty_cache(
        dash_duo, tmp_path, monkeypatch):
    """issue 24 item 2: the input is drawn while the algorithm runs, the output before the slow measures end,
    the quick cards already filled with the values the whole run holds, the others pending; then every card
    fills in, without a reload."""
    import measures.evaluation

    data = datasets.load("swissroll", 600)
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    expected = measures.evaluate(data.X, Y, 10, which=["normalized", "trustworthiness", "nieqa_global"])
    embed, graph_measures = algorithms.embed, measures.evaluation._graph_measures

    def held(function, seconds):  # a step held long enough to look at the page meanwhile
        def slow(*args, **kwargs):
            time.sleep(seconds)
            return function(*args, **kwargs)
        return slow

    # The job, forked from here, inherits both: the algorithm, then the graph sweep (M_G, M_RV), take longer.
    monkeypatch.setattr(algorithms, "embed", held(embed, 5.0))
    monkeypatch.setattr(measures.evaluation, "_graph_measures", held(graph_measures, 8.0))
    open_page(dash_duo, create_app(tmp_path), "?dataset=swissroll&n=600&algorithm=isomap&k=10")
    dash_duo.wait_for_contains_text(f"#{ids.OUTPUT_GRAPH}", "Embedding with Isomap", timeout=WAIT)
    assert "n = 600" in dash_duo.find_element(f"#{ids.INPUT_GRAPH} .gtitle").text
    assert dash_duo.find_element(f"#{ids.MESSAGE}").text.startswith("Embedding: the input is drawn")
    dash_duo.wait_for_contains_text(f"#{ids.OUTPUT_GRAPH} .gtitle", "Output (measuring…):", timeout=WAIT)
    assert "Isomap, k = 10" in dash_duo.find_element(f"#{ids.OUTPUT_GRAPH} .gtitle").text
    assert dash_duo.find_element(f"#{ids.MESSAGE}").text.startswith("Measuring")
    assert len(browser_array(dash_duo, ids.OUTPUT_GRAPH, "data[0].x")) == 600
    assert card_mean(dash_duo, "normalized") == pytest.approx(expected.mean["normalized"], rel=1e-3)
    assert card_mean(dash_duo, "trustworthiness") == pytest.approx(expected.mean["trustworthiness"], rel=1e-3)
    assert dash_duo.find_element(f"#{ids.card_value('nieqa_global')}").text == "…"
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    assert card_mean(dash_duo, "nieqa_global") == pytest.approx(expected.mean["nieqa_global"], rel=1e-3)
    assert not dash_duo.find_element(f"#{ids.MESSAGE}").text.startswith("Measuring")
    assert "s" in dash_duo.find_element(f"#{ids.card_value('time')}").text
    assert severe_logs(dash_duo) == []
