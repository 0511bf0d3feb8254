"""Browser tests of the dashboard: headless Chromium clicks what a user clicks and reads the page.

Run with ``python -m pytest --headless``. Every test waits for the text the server produced (a run
can take a few seconds on a loaded 2-core machine) and ends by checking the browser log is clean.
"""

import json

import numpy as np
import pytest
from dash.testing.wait import until
from selenium.webdriver.common.keys import Keys

import algorithms
import datasets
import measures
from app import create_app
from components import ids
from components.figures import fixed_point

# Runs on a busy CI machine: an Isomap or LTSA run plus drawing stays well under this.
WAIT = 60


def card_mean(dash_duo, measure):
    """The mean shown on a headline card once the server has filled it."""
    selector = f"#{ids.card_value(measure)} .card-mean"
    dash_duo.wait_for_element(selector, timeout=WAIT)
    return float(dash_duo.find_element(selector).text)


def open_page(dash_duo, app, link):
    """Start ``app`` and open its page on ``link`` (a query string) as the browser's first page, as a user
    following a shared link does: no default page loads (and starts its run) first. Later links are built
    on ``dash_duo.server.url``; ``dash_duo.server_url`` stays unset."""
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(f"{dash_duo.server.url}/{link}", timeout=WAIT)


def wait_for_output_title(dash_duo, text, timeout=WAIT):
    """Wait until the output view draws the whole run titled ``text``: a run still measuring is drawn first,
    its title marked (issue 24's partial runs)."""
    def drawn():
        titles = [element.text for element in dash_duo.find_elements(f"#{ids.OUTPUT_GRAPH} .gtitle")]
        return any(text in title and "measuring" not in title for title in titles)

    until(drawn, timeout=timeout)


def browser_array(dash_duo, graph_id, path):
    """A numeric array of a figure as the page draws it: Plotly's typed arrays and the views' fixed point decoded
    by the page's own ``column`` (assets/drawn_rows.js)."""
    value = dash_duo.driver.execute_script(
        f"const v = document.getElementById('{graph_id}').querySelector('.js-plotly-plot').{path};"
        "const c = window.procrustesDrawnRows.column(v); return c === undefined || c === null ? c : Array.from(c);")
    return np.asarray(value, dtype=float)


def carried(values):
    """``values`` (a column, or columns) as the page's views carry them (16-bit fixed point, decoded, each column
    over all its rows): what the page decodes must be these, bit for bit."""
    values = np.asarray(values)
    if values.ndim == 2:
        return np.column_stack([carried(column) for column in values.T])
    return fixed_point.decode(fixed_point.encode(values))


def severe_logs(dash_duo):
    return [entry for entry in dash_duo.get_logs() if entry["level"] == "SEVERE"]


def api_rn(dataset, algorithm, k):
    data = datasets.load(dataset)
    Y = algorithms.embed(algorithm, data.X, n_neighbors=k)
    return measures.procrustes(data.X, Y, k, per_point=True)


def test_the_default_run_shows_the_api_values_rings_a_hovered_point_draws_landmarks_and_switches_to_ltsa(
        dash_duo, tmp_path, mouse_at, choose):
    """A first visit (an empty cache, a fresh browser) to the default run: its cards and colours equal the
    API's, a hovered point is ringed in both views, the NIEQA cards, ASIM colouring and landmark overlay
    show the API's values, and LTSA then shows its own R_N (one session: a browser session costs ~10 s of CI)."""
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    shown = card_mean(dash_duo, "normalized")
    expected, per_point = api_rn("swissroll", "isomap", 10)
    assert shown == pytest.approx(expected, abs=6e-5)
    assert shown < 0.15  # near zero: an isometric method on an isometric surface
    lower_bound = card_mean(dash_duo, "lower_bound")
    assert lower_bound <= card_mean(dash_duo, "conformal") <= shown

    # The per-point colours the browser holds are the API's local R_N.
    colors = browser_array(dash_duo, ids.OUTPUT_GRAPH, "data[0].marker.color")
    np.testing.assert_array_equal(colors, carried(per_point))  # drawn as 16-bit fixed point
    dash_duo.driver.save_screenshot("/tmp/procrustes-lab-default.png")

    # Hovering point 123 of the output view rings it in both views: in the 3-D input view's trace 1, in the 2-D
    # output view as a shape, which leaves Plotly's computed traces as they are (a changed trace did not).
    data = datasets.load("swissroll")
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    output = f"document.querySelector('#{ids.OUTPUT_GRAPH} .js-plotly-plot')"
    dash_duo.driver.execute_script(f"window.computed = {output}.calcdata;")
    mouse_at(ids.OUTPUT_GRAPH, *Y[123])
    ring = f"document.getElementById('{ids.INPUT_GRAPH}').querySelector('.js-plotly-plot').data[1]"
    until(lambda: dash_duo.driver.execute_script(f"return {ring}.x.length;") == 1, timeout=WAIT)
    ringed_input = [browser_array(dash_duo, ids.INPUT_GRAPH, f"data[1].{axis}")[0] for axis in "xyz"]
    shape = until(lambda: dash_duo.driver.execute_script(
        f"return ({output}.layout.shapes || []).find((shape) => shape.name === 'hovered');"), timeout=WAIT)
    ringed_output = [(shape["x0"] + shape["x1"]) / 2, (shape["y0"] + shape["y1"]) / 2]
    assert shape["type"] == "circle" and shape["line"]["color"] == "crimson"
    drawn_ring = dash_duo.find_element(f"#{ids.OUTPUT_GRAPH} .shapelayer path").rect
    assert drawn_ring["width"] == pytest.approx(14, abs=3) and drawn_ring["height"] == pytest.approx(14, abs=3)
    assert dash_duo.driver.execute_script(f"return {output}.calcdata === window.computed;")
    assert len(browser_array(dash_duo, ids.OUTPUT_GRAPH, "data[1].x")) == 0
    # Plotly hovers the point nearest the mouse (123 or a point drawn on top of it); both rings
    # must mark that same point.
    hovered = int(np.argmin(np.linalg.norm(Y - ringed_output, axis=1)))
    assert np.linalg.norm(Y[hovered] - Y[123]) < 1.0
    np.testing.assert_allclose(ringed_output, [carried(Y[:, axis])[hovered] for axis in range(2)], rtol=1e-12)
    np.testing.assert_array_equal(ringed_input, [carried(data.X[:, axis])[hovered] for axis in range(3)])
    # Its hover label shows the decimals the fixed point carries, of the values it carries.
    label = dash_duo.driver.execute_script(
        f"const t = document.querySelector('#{ids.OUTPUT_GRAPH} .hoverlayer .hovertext'); return t && t.textContent;")
    shown = [f"{name} {carried(values)[hovered]:{fixed_point.carried_format(values)}}"
             for name, values in (("y₁", Y[:, 0]), ("y₂", Y[:, 1]), ("local R_N (2–98% range):", per_point))]
    assert label is not None and all(text in label for text in shown), (label, shown)

    # NIEQA: the cards, the local ASIM colouring and the landmark overlay.
    nieqa = measures.nieqa(data.X, Y, 10, per_point=True)
    assert card_mean(dash_duo, "asim") == pytest.approx(nieqa.local_assessment, abs=6e-5)
    assert card_mean(dash_duo, "nieqa_global") == pytest.approx(nieqa.global_assessment, abs=6e-5)
    dash_duo.select_dcc_dropdown(f"#{ids.COLOR_BY}", "local ASIM (M_L)")
    until(lambda: "ASIM" in dash_duo.find_element(f"#{ids.OUTPUT_GRAPH} .cbtitle").text, timeout=WAIT)
    np.testing.assert_array_equal(browser_array(dash_duo, ids.OUTPUT_GRAPH, "data[0].marker.color"),
                                  carried(nieqa.asim_values))
    dash_duo.find_element(f"#{ids.SHOW_LANDMARKS} input").click()
    names = (f"return document.getElementById('{ids.OUTPUT_GRAPH}').querySelector('.js-plotly-plot')"
             ".data.map((trace) => trace.name);")
    until(lambda: "landmarks" in dash_duo.driver.execute_script(names), timeout=WAIT)
    drawn = dash_duo.driver.execute_script(names)
    assert drawn[3:6] == ["to MDS reference", "landmarks", "MDS of landmark geodesics"], drawn
    landmarks = browser_array(dash_duo, ids.OUTPUT_GRAPH, "data[4].x")
    np.testing.assert_allclose(landmarks, Y[nieqa.landmark_indices, 0], rtol=1e-6)

    # Switching to LTSA (the overlay off, the colouring R_N): its unit-norm output's R_N is near one, the
    # input view keeps its points and takes LTSA's colours (a patch: issue 24), and LTSA's control appears.
    dash_duo.find_element(f"#{ids.SHOW_LANDMARKS} input").click()
    until(lambda: "landmarks" not in dash_duo.driver.execute_script(names), timeout=WAIT)
    choose(ids.COLOR_BY, "normalized")
    until(lambda: "R_N" in dash_duo.find_element(f"#{ids.OUTPUT_GRAPH} .cbtitle").text, timeout=WAIT)
    dash_duo.select_dcc_dropdown(f"#{ids.ALGORITHM}", "LTSA (normalized)")
    wait_for_output_title(dash_duo, "LTSA, k = 10")
    shown = card_mean(dash_duo, "normalized")
    ltsa_rn, ltsa_per_point = api_rn("swissroll", "ltsa", 10)
    assert shown == pytest.approx(ltsa_rn, abs=6e-5)
    until(lambda: np.array_equal(browser_array(dash_duo, ids.INPUT_GRAPH, "data[0].marker.color"),
                                 carried(ltsa_per_point)), timeout=WAIT)
    np.testing.assert_array_equal(browser_array(dash_duo, ids.INPUT_GRAPH, "data[0].x"), carried(data.X[:, 0]))
    assert 0.95 < shown <= 1.0  # GR Table 2: 0.99, from LTSA's unit-norm output (SPEC §2)
    # LTSA's own control, generated from its registry entry.
    dash_duo.wait_for_element(f"#{ids.ALGORITHM_PARAMS} .control", timeout=WAIT)
    assert "Eigensolver" in dash_duo.find_element(f"#{ids.ALGORITHM_PARAMS}").text
    assert severe_logs(dash_duo) == []


def css(component_id):
    """CSS selector of a component id; Dash renders a dict id as its compact, key-sorted JSON."""
    if isinstance(component_id, dict):
        return f"[id='{json.dumps(component_id, sort_keys=True, separators=(',', ':'))}']"
    return f"#{component_id}"


def type_number(dash_duo, component_id, value):
    box = dash_duo.find_element(css(component_id))
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(f"{value}\n")


def test_refused_inputs_get_their_messages_and_the_app_recovers(dash_duo, tmp_path):
    """One session meets, in turn, a sample size out of the data set's range (refused before any job), one too
    large for Isomap's memory, and a strip whose k-nearest-neighbour graph falls apart; the app recovers
    after each (a browser session costs ~15 s of CI)."""
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    type_number(dash_duo, ids.DATASET_SIZE, 10)
    dash_duo.wait_for_text_to_equal(f"#{ids.STATE_MESSAGE}", "Swiss roll: n must lie in [50, 1000000]; got 10.",
                                    timeout=WAIT)
    assert "n = 1600" in dash_duo.find_element(f"#{ids.INPUT_GRAPH} .gtitle").text  # the view stays as it was
    assert "n=10" not in dash_duo.driver.current_url

    type_number(dash_duo, ids.DATASET_SIZE, 30000)
    # The refusal states the memory estimate, the budget, the largest n that fits and the alternative.
    data = datasets.load("swissroll", 30000)
    with pytest.raises(algorithms.SampleLimitError) as refused:
        algorithms.embed("isomap", data.X, n_neighbors=10)
    dash_duo.wait_for_text_to_equal(f"#{ids.MESSAGE}", str(refused.value), timeout=WAIT)
    assert "Landmark Isomap" in str(refused.value)
    assert dash_duo.find_element(f"#{ids.card_value('normalized')}").text == "—"
    type_number(dash_duo, ids.DATASET_SIZE, 400)
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    dash_duo.wait_for_text_to_equal(f"#{ids.MESSAGE}", "", timeout=WAIT)
    data = datasets.load("swissroll", 400)
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    assert card_mean(dash_duo, "normalized") == pytest.approx(measures.procrustes(data.X, Y, 10), abs=6e-5)

    dash_duo.select_dcc_dropdown(f"#{ids.DATASET}", "Strip")
    dash_duo.wait_for_element(css(ids.dataset_param("strip", "length")), timeout=WAIT)
    type_number(dash_duo, ids.DATASET_SIZE, 60)
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    dash_duo.find_element(f"#{ids.ALGORITHM_NEIGHBORS} [role=slider]").send_keys(Keys.HOME)  # k = 3
    type_number(dash_duo, ids.dataset_param("strip", "length"), 50)
    dash_duo.wait_for_contains_text(f"#{ids.MESSAGE}", "connected components", timeout=WAIT)
    data = datasets.load("strip", 60, length=50.0)
    with pytest.raises(algorithms.DisconnectedGraphError) as raised:
        algorithms.embed("isomap", data.X, n_neighbors=3)
    assert dash_duo.find_element(f"#{ids.MESSAGE}").text == str(raised.value)
    assert severe_logs(dash_duo) == []


# Each view's WebGL canvas: the 3-D scene's, and the canvas Plotly draws a plane's scattergl on.
GL_CANVASES = {ids.INPUT_GRAPH: ".gl-container canvas", ids.OUTPUT_GRAPH: "canvas.gl-canvas-context"}


def gl_pixel_ratios(dash_duo):
    """Each view's WebGL drawing buffer over the size it is shown at: the pixel ratio it is drawn at (to a tenth:
    a buffer is a whole number of pixels, a size on screen may be a fraction)."""
    return {graph: round(dash_duo.driver.execute_script(
        f"const c = document.querySelector('#{graph} {selector}');"
        "return c.width / c.getBoundingClientRect().width;"), 1) for graph, selector in GL_CANVASES.items()}


def test_the_views_draw_webgl_at_the_screens_pixel_ratio_and_a_png_saves_them_at_plotlys(dash_duo, tmp_path,
                                                                                          mouse_at):
    """A first visit on a high-density screen draws both views' WebGL at the screen's ratio, and again on a
    screen of ratio 1 (Plotly's default, 2, would draw four times its pixels there: assets/plotly_page.js); a
    zoom in between keeps the ratio a view was drawn at (a new one would draw it anew at its next hover). A
    layout copied whole keeps what Plotly computed. A PNG of the 3-D view is saved from a copy at Plotly's
    ratio 2, whatever the screen's, with every trace."""
    driver, screen_ratio = dash_duo.driver, 2
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1500, "height": 1000, "deviceScaleFactor": screen_ratio, "mobile": False})
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    assert driver.execute_script("return window.devicePixelRatio;") == screen_ratio
    until(lambda: gl_pixel_ratios(dash_duo) == {graph: screen_ratio for graph in GL_CANVASES}, timeout=WAIT,
          msg="not drawn at the screen's ratio")
    output = f"document.querySelector('#{ids.OUTPUT_GRAPH} .js-plotly-plot')"
    driver.execute_script(f"window.computed = {output}.calcdata;")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})  # as a zoom changes the ratio
    Y = algorithms.embed("isomap", datasets.load("swissroll").X, n_neighbors=10)
    mouse_at(ids.OUTPUT_GRAPH, *Y[123])
    until(lambda: driver.execute_script(f"return ({output}.layout.shapes || []).length;") == 1, timeout=WAIT)
    assert driver.execute_script(f"return {output}.calcdata === window.computed;")
    assert gl_pixel_ratios(dash_duo) == {graph: screen_ratio for graph in GL_CANVASES}

    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.get(dash_duo.server.url)
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    assert driver.execute_script("return window.devicePixelRatio;") == 1
    until(lambda: gl_pixel_ratios(dash_duo) == {graph: 1 for graph in GL_CANVASES}, timeout=WAIT,
          msg="not drawn at the screen's ratio")

    # A layout copied whole, as dcc.Graph hands one to Plotly.react on every patch, keeps Plotly's computed traces:
    # an equal template is handed to Plotly as the object it already holds (a new one made it compute every trace).
    # A call without a config keeps the graph's own (and its pixel ratio).
    recomputed = driver.execute_script(
        f"const gd = document.querySelector('#{ids.OUTPUT_GRAPH} .js-plotly-plot'), kept = gd.calcdata;"
        "const layout = Object.assign(JSON.parse(JSON.stringify(gd.layout)), {title: {text: 'retitled'}});"
        "return window.Plotly.react(gd, gd.data, layout).then(() => [gd.calcdata !== kept, gd._context.displaylogo,"
        "                                                             gd._context.plotGlPixelRatio]);")
    assert recomputed == [False, False, 1]
    # What the camera saves (the page's default format, PNG), rendered by Plotly as the download would be.
    driver.execute_script(
        "window.saved = []; window.Plotly.downloadImage = (figure, options) => window.Plotly.toImage(figure, options)"
        "  .then((url) => new Promise((done) => { const image = new Image(); image.onload = () => done(image);"
        "                                          image.src = url; }))"
        "  .then((image) => { window.saved.push({config: figure.config, options: options, width: image.width,"
        "                                        types: figure.data.map((t) => t.type)}); });")
    dash_duo.find_element(f"#{ids.INPUT_GRAPH} .modebar-btn[data-title^='Download plot']").click()
    saved = until(lambda: driver.execute_script("return window.saved;"), timeout=WAIT)
    assert len(saved) == 1 and saved[0]["config"] == {"plotGlPixelRatio": 2}
    assert saved[0]["options"]["format"] == "png" and saved[0]["options"]["scale"] == 2
    assert saved[0]["width"] == 2 * saved[0]["options"]["width"]  # the graph's size on screen, at scale 2
    assert saved[0]["options"]["filename"] == "procrustes-lab_swissroll_n1600_isomap_k10_input"
    assert saved[0]["types"][0] == "scatter3d"
    assert severe_logs(dash_duo) == []
