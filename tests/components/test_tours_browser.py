"""The tours in a browser, and what a lecturer needs on a projector (issue 13).

One tour is walked by Next to its end and every tour's first step opened: the renderer holds the
step's view state, its explore run is shown, and every claim the page states holds (the page
evaluates the claims' predicates on the computed runs; nothing is compared with a typed number).
Every step of every tour is checked so at the callback level (``test_tours``). Presentation mode fits
1280 × 720; a clicked point's neighbours and kNN edges appear in both views; a digit's image never
squeezes the views; the image format applies to the next download without redrawing anything.

The steps' runs come from the result cache the slow lab test fills (pytest's cache folder, keyed by
the code version), so the walk computes only what is not there yet. One test starts from an empty
cache and a fresh browser instead, as a first user does (issue 19): it opens all 29 steps in
presentation mode, each computed by its job, then all 29 again from the cache they filled, and
measures what a projector's window shows of each.
"""

import base64
import time

import numpy as np
from dash.testing.wait import until
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import algorithms
import datasets
import measures
from app import create_app
from components import ids
from lab import ResultCache, RunRequest, from_query, to_query
from lab.tours.presets import STEPS, TOURS

from .test_app_browser import WAIT, carried, open_page, severe_logs, wait_for_output_title
from .test_state_browser import layout_props, wait_for_run

VIEWPORT = (1280, 720)


def set_viewport(dash_duo, width, height):
    """The window's inner size: the page as a projector of ``width`` × ``height`` shows it."""
    dash_duo.driver.set_window_size(width, height)
    inner = dash_duo.driver.execute_script("return [window.innerWidth, window.innerHeight];")
    dash_duo.driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def claims(dash_duo):
    """``(class, text)`` of each claim the page shows."""
    return dash_duo.driver.execute_script(
        f"return Array.from(document.querySelectorAll('#{ids.TOUR_CLAIMS} li')).map((li) => [li.className, "
        "li.textContent]);")


def computed_claims(dash_duo):
    """The claims once the step is computed (none pending), else None."""
    found = claims(dash_duo)
    return found if found and all(kind != "claim pending" for kind, _ in found) else None


def view_state(dash_duo):
    return layout_props(dash_duo).get(ids.VIEW_STATE, {}).get("data")


# The tour walked to its end by Next; of the others, the first step (every step is opened by the walk from
# an empty cache below, and checked at the callback level, tests/components/test_tours.py).
WALKED_TOUR = "ml"


def test_a_tour_walked_by_next_reaches_each_step_s_state_and_its_claims_hold(dash_duo, tour_app_directory, choose):
    dash_duo.start_server(create_app(tour_app_directory))
    wait_for_output_title(dash_duo, "k = 10")
    for tour in TOURS:
        choose(ids.TOUR_INDEX, tour.steps[0].name)  # as a lecturer opens a tour: its first step from the menu
        walked = tour.steps if tour.key == WALKED_TOUR else tour.steps[:1]
        for index, step in enumerate(walked):
            if index:
                dash_duo.find_element(f"#{ids.TOUR_NEXT}").click()
            expected, link = step.state.to_dict(), to_query(step.state)
            until(lambda: view_state(dash_duo) == expected, timeout=WAIT)  # noqa: B023 (waited for here)
            until(lambda: dash_duo.driver.current_url.endswith(link), timeout=WAIT)  # noqa: B023
            dash_duo.wait_for_text_to_equal(f"#{ids.TOUR_POSITION}", f"step {index + 1} of {len(tour.steps)}",
                                            timeout=WAIT)
            dash_duo.wait_for_text_to_equal(f"#{ids.TOUR_STEP_TITLE}", step.title, timeout=WAIT)
            shown = until(lambda: computed_claims(dash_duo), timeout=WAIT)
            assert len(shown) == len(step.claims), step.name
            assert [kind for kind, _ in shown] == ["claim holds"] * len(step.claims), (step.name, shown)
            assert "—" not in "".join(text for _, text in shown), step.name  # every number computed
            wait_for_run(dash_duo, step.state)
        if walked == tour.steps:
            assert dash_duo.find_element(f"#{ids.TOUR_NEXT}").get_attribute("disabled") == "true"
    dash_duo.find_element(f"#{ids.TOUR_CLOSE}").click()
    dash_duo.wait_for_class_to_equal(f"#{ids.TOUR_BOX}", "tour hidden", timeout=WAIT)
    until(lambda: "tour=" not in dash_duo.driver.current_url, timeout=WAIT)
    assert severe_logs(dash_duo) == []


def rect(dash_duo, selector):
    return dash_duo.driver.execute_script(
        f"const r = document.querySelector('{selector}').getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};")


def inside_viewport(box, viewport=VIEWPORT):
    return box["left"] >= 0 and box["top"] >= 0 and box["right"] <= viewport[0] and box["bottom"] <= viewport[1]


def font_size(dash_duo, selector):
    return dash_duo.driver.execute_script(
        f"return parseFloat(getComputedStyle(document.querySelector('{selector}')).fontSize);")


def overlaps(first, second):
    return not (first["right"] <= second["left"] or second["right"] <= first["left"]
                or first["bottom"] <= second["top"] or second["bottom"] <= first["top"])


def test_presentation_mode_fits_1280_by_720_with_large_type_and_the_views_fully_visible(dash_duo, tour_app_directory):
    set_viewport(dash_duo, *VIEWPORT)
    open_page(dash_duo, create_app(tour_app_directory), "?present=1")
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    assert dash_duo.driver.execute_script("return document.documentElement.classList.contains('presentation');")
    assert not dash_duo.find_element(".panel").is_displayed()  # the control panel is hidden
    for graph in (ids.INPUT_GRAPH, ids.OUTPUT_GRAPH):
        assert inside_viewport(rect(dash_duo, f"#{graph}")), graph
        assert rect(dash_duo, f"#{graph}")["bottom"] - rect(dash_duo, f"#{graph}")["top"] >= 400
        until(lambda: font_size(dash_duo, f"#{graph} .gtitle") >= 18, timeout=WAIT)  # noqa: B023
        assert not overlaps(rect(dash_duo, f"#{graph} .gtitle"), rect(dash_duo, f"#{graph} .modebar"))
    for label in (".card-title", ".tab", f"#{ids.PRESENTATION} label"):
        assert font_size(dash_duo, label) >= 18, label
    figure = layout_props(dash_duo)[ids.OUTPUT_GRAPH]["figure"]
    hovered = next(trace for trace in figure["data"] if trace.get("name") == "hovered")
    assert figure["layout"]["font"]["size"] >= 18 and hovered["marker"]["line"]["width"] >= 5

    # A tour step: its text and claims beside its figure, every panel in the window.
    dash_duo.driver.get(dash_duo.server.url + "/?tour=gr-fig1&present=1")
    dash_duo.wait_for_element(f"#{ids.TOUR_CLAIMS} li.claim.holds", timeout=WAIT)
    until(lambda: layout_props(dash_duo)[ids.TOUR_FIGURE].get("style") == {}, timeout=WAIT)
    for element in (ids.TOUR_FIGURE, ids.TOUR_BOX):
        assert inside_viewport(rect(dash_duo, f"#{element}")), element
    assert font_size(dash_duo, f"#{ids.TOUR_TEXT}") >= 18 and font_size(dash_duo, f"#{ids.TOUR_CLAIMS} li") >= 18
    assert layout_props(dash_duo)[ids.TOUR_FIGURE]["figure"]["layout"]["font"]["size"] >= 18
    # Next keeps the presentation mode.
    dash_duo.find_element(f"#{ids.TOUR_NEXT}").click()
    until(lambda: "tour=gr-short-circuit" in dash_duo.driver.current_url, timeout=WAIT)
    assert "present=1" in dash_duo.driver.current_url
    assert severe_logs(dash_duo) == []


def neighbour_marks(dash_duo, graph_id, axes):
    """The points and edge segments a view draws for the clicked point's neighbourhood."""
    script = (f"const gd = document.getElementById('{graph_id}').querySelector('.js-plotly-plot');"
              "const pick = (name) => gd.data.find((trace) => trace.name === name);"
              f"return [{','.join(f'pick(arguments[0]).{axis}' for axis in axes)}];")
    points = dash_duo.driver.execute_script(script, "neighbours")
    edges = dash_duo.driver.execute_script(script, "kNN edges")
    return np.array(points, dtype=float).T, np.array([[np.nan if v is None else v for v in axis] for axis in edges]).T


def test_clicking_a_point_draws_its_k_neighbours_and_knn_edges_in_both_views(dash_duo, tour_app_directory, mouse_at):
    link = "?dataset=swissroll&algorithm=isomap&k=12&view=02"  # GR's short circuit at random state 0
    state = from_query(link)
    data = datasets.load("swissroll", 1600, random_state=0)
    Y = algorithms.embed("isomap", data.X, n_neighbors=12)
    neighbors = measures.nearest_neighbors(data.X, 12)
    open_page(dash_duo, create_app(tour_app_directory), link)
    wait_for_run(dash_duo, state)
    wait_for_output_title(dash_duo, "Isomap, k = 12")
    mouse_at(ids.OUTPUT_GRAPH, *Y[321], ("mousemove", "mousedown", "mouseup", "click"))
    dash_duo.wait_for_contains_text(f"#{ids.INSPECTOR_TEXT}", "input neighbours", timeout=WAIT)
    clicked = int(dash_duo.find_element(f"#{ids.INSPECTOR_TEXT}").text.split()[1])
    expected = neighbors[clicked, 1:]
    until(lambda: len(neighbour_marks(dash_duo, ids.OUTPUT_GRAPH, "xy")[0]) == 12, timeout=WAIT)
    points, edges = neighbour_marks(dash_duo, ids.OUTPUT_GRAPH, "xy")
    drawn = carried(Y)  # as the page draws it (16-bit fixed point); the tour's Y may differ in its last bits
    step = (Y.max(axis=0) - Y.min(axis=0)) / 65534
    np.testing.assert_allclose(points, drawn[expected], rtol=0, atol=step.max())
    np.testing.assert_allclose(edges[0::3], np.repeat(drawn[[clicked]], 12, 0), rtol=0, atol=step.max())
    np.testing.assert_allclose(edges[1::3], drawn[expected], rtol=0, atol=step.max())
    assert np.isnan(edges[2::3]).all()
    points, _ = neighbour_marks(dash_duo, ids.INPUT_GRAPH, "xy")  # the input on coordinates 1 and 3
    np.testing.assert_array_equal(points, carried(data.X)[expected][:, [0, 2]])
    # The inspector below is scrolled into view.
    until(lambda: rect(dash_duo, f"#{ids.INSPECTOR_GRAPH}")["top"] < dash_duo.driver.execute_script(
        "return window.innerHeight;"), timeout=WAIT)
    assert severe_logs(dash_duo) == []


def drawn_with_legend(dash_duo):
    """The output view's figure once its legend traces are drawn, else None."""
    figure = layout_props(dash_duo)[ids.OUTPUT_GRAPH].get("figure")
    return figure if figure and len(figure["data"]) > 3 else None


def test_digits_have_a_class_legend_and_a_fixed_image_box_that_never_squeezes_the_views(dash_duo, tour_app_directory,
                                                                                       mouse_at):
    link = "?dataset=digits&algorithm=mlle&k=12&d.classes=2-5&color=truth-0"
    state = from_query(link)
    open_page(dash_duo, create_app(tour_app_directory), link)
    wait_for_run(dash_duo, state)
    wait_for_output_title(dash_duo, "MLLE, k = 12")
    figure = until(lambda: drawn_with_legend(dash_duo), timeout=WAIT)
    legend = [trace["name"] for trace in figure["data"] if trace.get("name", "").startswith("digit class")]
    assert legend == [f"digit class {digit}" for digit in (2, 3, 4, 5)] and figure["layout"]["showlegend"]
    assert figure["data"][0]["marker"].get("showscale") is False  # a legend, not a colour bar
    widths = [rect(dash_duo, f"#{graph}")["right"] - rect(dash_duo, f"#{graph}")["left"]
              for graph in (ids.INPUT_GRAPH, ids.OUTPUT_GRAPH)]
    result = ResultCache(tour_app_directory / "results").get(RunRequest.from_state(state))
    ActionChains(dash_duo.driver).move_to_element(dash_duo.find_element(f"#{ids.OUTPUT_GRAPH}")).perform()
    mouse_at(ids.OUTPUT_GRAPH, *result.Y[10][:2])
    until(lambda: dash_duo.find_element(f"#{ids.POINT_IMAGE}").is_displayed(), timeout=WAIT)
    image = rect(dash_duo, f"#{ids.POINT_IMAGE}")
    assert (round(image["right"] - image["left"]), round(image["bottom"] - image["top"])) == (200, 230)
    assert [rect(dash_duo, f"#{graph}")["right"] - rect(dash_duo, f"#{graph}")["left"]
            for graph in (ids.INPUT_GRAPH, ids.OUTPUT_GRAPH)] == widths
    # The pointer leaves the views: the image goes.
    dash_duo.driver.execute_script("window.scrollTo(0, 0);")
    ActionChains(dash_duo.driver).move_to_element(dash_duo.find_element("header h1")).perform()
    until(lambda: not dash_duo.find_element(f"#{ids.POINT_IMAGE}").is_displayed(), timeout=WAIT)
    assert severe_logs(dash_duo) == []


def test_the_image_format_applies_to_the_next_download_without_a_redraw_and_svg_keeps_vector_points(
        dash_duo, tour_app_directory, choose):
    dash_duo.start_server(create_app(tour_app_directory))
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    graph = f"document.getElementById('{ids.OUTPUT_GRAPH}').querySelector('.js-plotly-plot')"
    # Count redraws of the output view, and catch what a download would save.
    dash_duo.driver.execute_script(
        f"const gd = {graph}; window.redraws = 0; gd.on('plotly_afterplot', () => {{ window.redraws += 1; }});"
        "window.saved = []; window.Plotly.downloadImage = (figure, options) => {"
        "  window.saved.push({format: options.format, filename: options.filename,"
        "                     types: figure.data.map((trace) => trace.type),"
        "                     svg: null}); return Promise.resolve(options.filename); };")
    # Whatever the page still draws after its first run (a resize, a late answer) settles first.
    dash_duo.driver.execute_script("return new Promise((done) => setTimeout(done, 2000));")
    settled = dash_duo.driver.execute_script("return window.redraws;")
    dash_duo.find_element(f"#{ids.FIGURE_FORMAT} input[value='svg']").click()
    until(lambda: "format=svg" in dash_duo.driver.current_url, timeout=WAIT)
    dash_duo.driver.execute_script("return new Promise((done) => setTimeout(done, 2000));")
    assert dash_duo.driver.execute_script("return window.redraws;") == settled  # nothing redrawn
    dash_duo.find_element(f"#{ids.OUTPUT_GRAPH} .modebar-btn[data-title^='Download plot']").click()
    saved = until(lambda: dash_duo.driver.execute_script("return window.saved;"), timeout=WAIT)
    assert saved[0]["format"] == "svg" and saved[0]["filename"] == "procrustes-lab_swissroll_n1600_isomap_k10_output"
    assert "scattergl" not in saved[0]["types"] and "scatter" in saved[0]["types"]  # SVG markers, not an image
    assert not dash_duo.find_elements(".modebar-btn[data-title*='Cloud'], .modebar-btn[data-title*='cloud']")
    assert severe_logs(dash_duo) == []


# The longest a step's job may take from an empty cache: GR Table 2's 75 runs took 11 s on a quiet machine
# with one BLAS thread (bench/tours.py, 2026-12-06), 16 s in this test beside another worker.
COLD_WAIT = 300


def drawn_panels(dash_duo):
    """Panels (subplots) of the tour's figure with points drawn (a marked neighbourhood adds traces, not panels)."""
    return dash_duo.driver.execute_script(
        f"return Array.from(document.querySelectorAll('#{ids.TOUR_FIGURE} .cartesianlayer .subplot'))"
        ".filter((panel) => panel.querySelector('.scatterlayer .trace .point')).length;")


# The last step of PN and the one before it: the slide is saved from the last, and the keys walk back and
# forth between the two. Every step's fit is measured by the walk below.
PROJECTOR_STEPS = ("pn-fig9-globe", "pn-phi-curve")


def figure_labels(dash_duo):
    """Boxes of the tour figure's panel titles and captions (the x axes' titles) that hold text."""
    return dash_duo.driver.execute_script(
        f"const figure = document.getElementById('{ids.TOUR_FIGURE}');"
        "const texts = Array.from(figure.querySelectorAll('.annotation-text, text'))"
        "  .filter((t) => t.classList.contains('annotation-text') || /^x\\d*title$/.test(t.getAttribute('class')))"
        "  .filter((t) => t.textContent.trim());"
        "return texts.map((t) => { const r = t.getBoundingClientRect();"
        "  return {text: t.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; });")


def open_presented(dash_duo, step, app=None, claims_wait=WAIT):
    """Open ``step`` in presentation mode (the browser's first page when ``app`` is given) and wait until
    its claims are computed (``claims_wait`` s: its job's time from an empty cache) and every panel's points
    (or its table's cells) are drawn."""
    if app is not None:
        open_page(dash_duo, app, f"?tour={step.name}&present=1")
    else:
        dash_duo.driver.get(dash_duo.server.url + f"/?tour={step.name}&present=1")
    dash_duo.wait_for_text_to_equal(f"#{ids.TOUR_STEP_TITLE}", step.title, timeout=WAIT)
    until(lambda: computed_claims(dash_duo), timeout=claims_wait, msg=f"{step.name}: claims not computed")
    if step.chart == "table":  # GR Table 2: ours beside GR's, each cell filled (the figure hidden)
        cells = len(step.rows) * len(step.columns)
        until(lambda: len(dash_duo.find_elements(f"#{ids.TOUR_TABLE} td .ours")) == cells, timeout=WAIT,
              msg=f"{step.name}: not {cells} cells of ours in the table")
    else:
        panels = len(step.drawn) + step.show_input * len(step.input_rows())
        until(lambda: drawn_panels(dash_duo) == panels, timeout=WAIT,
              msg=f"{step.name}: not {panels} panels of points drawn")
    dash_duo.driver.execute_script("return new Promise((done) => setTimeout(done, 500));")  # a settled layout


def fit_problems(dash_duo, step, viewport=VIEWPORT):
    """What does not fit a projector's ``viewport`` (width, height) in the step as shown: a page scroll, a title,
    claim, figure or table outside the window, unfolded text, a squeezed figure, overlapping panel labels, two
    panels lettered A."""
    problems = []
    if dash_duo.driver.execute_script("return window.scrollY;") != 0:
        problems.append("the page scrolled")
    # The title, every claim and the whole figure (its curve too) or table in the window: nothing needs a
    # page scroll.
    shown = {"table": ids.TOUR_TABLE} if step.chart == "table" else {"figure": ids.TOUR_FIGURE}
    boxes = {"title": rect(dash_duo, f"#{ids.TOUR_STEP_TITLE}"), "figures": rect(dash_duo, f"#{ids.TOUR_FIGURES}"),
             **{part: rect(dash_duo, f"#{name}") for part, name in shown.items()}}
    boxes.update({f"claim {index}": box for index, box in enumerate(dash_duo.driver.execute_script(
        f"return Array.from(document.querySelectorAll('#{ids.TOUR_CLAIMS} li')).map((li) => {{"
        "const r = li.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, "
        "bottom: r.bottom}; });"))})
    problems += [f"{part} outside the window: {box}" for part, box in boxes.items()
                 if not inside_viewport(box, viewport)]
    if dash_duo.find_element(f"#{ids.TOUR_TEXT} details").get_attribute("open"):
        problems.append("the text is unfolded")
    if step.chart == "table":
        return problems
    if boxes["figure"]["bottom"] - boxes["figure"]["top"] < viewport[1] / 2:
        problems.append("the figure is squeezed")
    labels = figure_labels(dash_duo)
    if len(labels) < len(step.drawn):
        problems.append(f"{len(labels)} panel labels for {len(step.drawn)} panels")
    problems += [f"labels overlap: {first['text']!r}, {second['text']!r}" for index, first in enumerate(labels)
                 for second in labels[index + 1:] if overlaps(first, second)]
    if sum(label["text"].startswith("A:") for label in labels) > 1:
        problems.append("two panels lettered A")
    return problems


# The projectors a lecture meets: the step's figure is sized for the smaller (components/figures/tours.py).
PROJECTORS = (VIEWPORT, (1920, 1080))


def test_every_step_from_an_empty_cache_then_from_its_cache_holds_its_claims_and_fits_a_projector(dash_duo,
                                                                                                  tmp_path):
    """All 29 steps in presentation mode, in a fresh browser on an empty cache, as a first user meets them:
    each step's job computes it, then every claim holds, its numbers are filled in, every panel is drawn and
    no callback answered 500 (a severe log). The index then marks every step ✓. Then all 29 again, drawn
    from the cache they filled, at 1280 × 720 and at 1920 × 1080: nothing outside the projector's window
    (:func:`fit_problems`)."""
    set_viewport(dash_duo, *VIEWPORT)
    app = create_app(tmp_path)
    for index, step in enumerate(STEPS.values()):
        started = time.perf_counter()
        open_presented(dash_duo, step, app if index == 0 else None, claims_wait=COLD_WAIT)
        print(f"{step.name}: computed and drawn in {time.perf_counter() - started:.1f} s")  # noqa: T201 (the report)
        shown = claims(dash_duo)
        assert [kind for kind, _ in shown] == ["claim holds"] * len(step.claims), (step.name, shown)
        assert all(text.startswith("✓") and "—" not in text for _, text in shown), (step.name, shown)
        # Every number of the text filled in: no "—" (a missing value) beyond the dashes its sentences have.
        text = dash_duo.find_element(f"#{ids.TOUR_TEXT}").get_attribute("textContent")
        assert text.count("—") == step.text.count("—"), (step.name, text)
        assert severe_logs(dash_duo) == [], step.name
    dash_duo.find_element(f"#{ids.TOUR_INDEX}").click()
    dash_duo.wait_for_element(".dash-dropdown-options", timeout=WAIT)
    marked = until(lambda: dash_duo.driver.execute_script(
        "return Array.from(document.querySelectorAll('.dash-dropdown-options input'))"
        "  .filter((input) => input.closest('label').textContent.trim().endsWith('✓')).map((input) => input.value);"),
        timeout=WAIT)
    assert sorted(marked) == sorted(STEPS)
    problems = {}
    for width, height in PROJECTORS:
        set_viewport(dash_duo, width, height)
        for index, step in enumerate(STEPS.values()):
            open_presented(dash_duo, step)
            found = problems[f"{step.name} at {width} × {height}"] = fit_problems(dash_duo, step, (width, height))
            if found or step.name in PROJECTOR_STEPS or index == 0:  # what a failure looked like
                dash_duo.driver.save_screenshot(f"/tmp/tour-{step.name}-{width}x{height}.png")
    assert {name: found for name, found in problems.items() if found} == {}
    assert severe_logs(dash_duo) == []


def test_a_lecture_s_slide_and_the_keys_of_a_clicker(dash_duo, steps_app_directory):
    set_viewport(dash_duo, *VIEWPORT)
    app = create_app(steps_app_directory(*PROJECTOR_STEPS))
    for name in PROJECTOR_STEPS:
        open_presented(dash_duo, STEPS[name], app if name == PROJECTOR_STEPS[0] else None)
    # The step as a slide: the figure at 1920 × 1080 under its title and claims, the link at its foot.
    dash_duo.driver.execute_script(
        "window.saved = []; window.Plotly.downloadImage = (figure, options) => {"
        "  window.saved.push({options: options, texts: figure.layout.annotations.map((a) => a.text),"
        "                     traces: figure.data.length, top: figure.layout.margin.t}); return Promise.resolve(); };")
    dash_duo.find_element(f"#{ids.TOUR_SLIDE}").click()
    slide = until(lambda: dash_duo.driver.execute_script("return window.saved;"), timeout=WAIT)[0]
    last = STEPS[PROJECTOR_STEPS[-1]]
    assert slide["options"] == {"format": "png", "width": 1920, "height": 1080,
                                "filename": f"procrustes-lab_{last.name}_slide"}
    texts = " ".join(slide["texts"]).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    assert f"<b>{last.title}</b>" in texts and dash_duo.driver.current_url in texts
    for claim in claims(dash_duo):  # every claim's words, wrapped over lines
        assert " ".join(claim[1].split()) in " ".join(texts.split()), claim
    assert slide["traces"] >= len(last.drawn) and slide["top"] > 100
    # A clicker's keys: → and PageDown go on, ← and PageUp back, Escape closes the tour.
    body = dash_duo.find_element("body")
    for key, expected in ((Keys.ARROW_LEFT, "pn-fig9-globe"), (Keys.PAGE_DOWN, "pn-phi-curve"),
                          (Keys.PAGE_UP, "pn-fig9-globe"), (Keys.ARROW_RIGHT, "pn-phi-curve")):
        ActionChains(dash_duo.driver).move_to_element(body).send_keys(key).perform()
        until(lambda: f"tour={expected}&" in dash_duo.driver.current_url + "&", timeout=WAIT)  # noqa: B023
        dash_duo.wait_for_text_to_equal(f"#{ids.TOUR_STEP_TITLE}", STEPS[expected].title, timeout=WAIT)
    ActionChains(dash_duo.driver).send_keys(Keys.ESCAPE).perform()
    dash_duo.wait_for_class_to_equal(f"#{ids.TOUR_BOX}", "tour hidden", timeout=WAIT)
    assert "present=1" in dash_duo.driver.current_url
    assert severe_logs(dash_duo) == []


def test_hovering_a_digit_in_a_tour_figure_shows_its_image_from_an_empty_cache(dash_duo, tmp_path):
    """ML Fig. 5's panels are digits: a hover over the MLLE panel shows that digit's pixels beside the figure."""
    step = STEPS["ml-fig5-digits"]
    open_page(dash_duo, create_app(tmp_path), to_query(step.state))  # an empty result cache, a fresh browser
    figure = f"document.querySelector('#{ids.TOUR_FIGURE} .js-plotly-plot')"
    names = until(lambda: dash_duo.driver.execute_script(
        f"const gd = {figure}; return gd && gd.data && gd.data.length > 1 ? gd.data.map((t) => t.name) : null;"),
        timeout=3 * WAIT)
    panel = next(index for index, panel in enumerate(step.drawn) if panel.label.startswith("MLLE"))
    trace = names.index(step.drawn[panel].label)
    ActionChains(dash_duo.driver).move_to_element(dash_duo.find_element(f"#{ids.TOUR_FIGURE}")).perform()
    # The pointer over the panel's point 17: its own subplot's axes and drag layer, as a user's hover lands.
    dash_duo.driver.execute_script(
        f"const gd = {figure}; const trace = gd._fullData[{trace}], point = gd.calcdata[{trace}][17];"
        "const xa = gd._fullLayout[trace.xaxis.replace('x', 'xaxis')];"
        "const ya = gd._fullLayout[trace.yaxis.replace('y', 'yaxis')];"
        "const box = gd.getBoundingClientRect();"
        "const drag = gd.querySelector(`.nsewdrag[data-subplot='${trace.xaxis}${trace.yaxis}']`);"
        "drag.dispatchEvent(new MouseEvent('mousemove', {clientX: box.left + xa._offset + xa.l2p(point.x),"
        "                                                clientY: box.top + ya._offset + ya.l2p(point.y),"
        "                                                bubbles: true}));")
    until(lambda: dash_duo.find_element(f"#{ids.TOUR_IMAGE}").is_displayed(), timeout=WAIT)
    result = ResultCache(tmp_path / "results").get(step.drawn[panel].request)
    pixels = until(lambda: dash_duo.driver.execute_script(
        f"const gd = document.querySelector('#{ids.TOUR_IMAGE} .js-plotly-plot');"
        "return gd && gd.data && gd.data.length ? gd.data[0].z : null;"), timeout=WAIT)
    if isinstance(pixels, dict):  # Plotly's typed-array form of a numpy array
        shape = [int(size) for size in str(pixels["shape"]).split(",")]
        pixels = np.frombuffer(base64.b64decode(pixels["bdata"]), dtype=pixels["dtype"]).reshape(shape)
    row = layout_props(dash_duo)[ids.TOUR_FIGURE]["hoverData"]["points"][0]["pointNumber"]  # nearest the pointer
    np.testing.assert_array_equal(np.asarray(pixels, dtype=float), result.X[row].reshape(result.image_shape))
    assert dash_duo.find_element(f"#{ids.TOUR_IMAGE} .gtitle").text.startswith(f"point {row}:")
    assert severe_logs(dash_duo) == []
