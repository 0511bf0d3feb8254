"""Browser tests of the pairs tab: two runs aligned, their cards, linked hover and selection, the morph, and
the stability study. Run with ``python -m pytest --headless``; expected values come from lab/ and the
libraries, computed here independently of the page."""

import numpy as np
import pytest
from dash.testing.wait import until

import algorithms
import datasets
import measures
from app import create_app
from components import ids
from components.figures.pairs import MORPH_FRAMES, MORPH_SECONDS
from notebook import notebook_app
from lab import ViewState, from_query
from lab.compute import compute
from lab.compute.catalogue import SEED_NOISE_LABEL
from lab.compute.choices import DataChoice, MethodChoice
from lab.compute.seed_noise import SeedNoiseRequest
from lab.compute.stability import StabilityRequest
from lab.view.state import StabilityChoice

from .test_app_browser import WAIT, browser_array, open_page, severe_logs, wait_for_output_title
from .test_explore_browser import choose_tool, marked, marked_count, sorted_rows

# Every callback the renderer knows of has finished. A job is started only then: the server forks it, and a
# fork while a request thread holds the result store's SQLite lock leaves the job waiting for that lock
# (seen here; see the report of this branch). Users do the same by not clicking within milliseconds.
SETTLED = ("const c = window.store.getState().callbacks; return ['requested', 'prioritized', 'blocked', "
           "'executing', 'watched', 'executed', 'stored'].every((key) => !c[key] || c[key].length === 0);")


def start_job(dash_duo, button):
    until(lambda: dash_duo.driver.execute_script(SETTLED), timeout=WAIT)
    dash_duo.find_element(f"#{button}").click()


def in_process(request):
    """``request``'s result computed in this process, which also serves the page and forks its jobs: only once the
    job on screen has shown its result (its cards). A study's click starts its job a round trip later (the button
    writes the job's request first): computed meanwhile, a run's threads here met the job's fork, and the forked
    t-SNE of a seed-noise job hung."""
    return compute(request, cache=None).result


def open_pairs_tab(dash_duo, tmp_path, query="?dataset=strip&n=400&algorithm=isomap&k=8", title="Isomap, k = 8"):
    open_page(dash_duo, create_app(tmp_path), query)
    wait_for_output_title(dash_duo, title)
    tab = next(element for element in dash_duo.find_elements(f"#{ids.TABS} .tab") if element.text == "Two runs")
    tab.click()


def card_text(dash_duo, name):
    selector = f"#{ids.pair_card_value(name)}"
    until(lambda: dash_duo.find_element(selector).text not in ("", "—"), timeout=WAIT)
    return dash_duo.find_element(selector).text


@pytest.fixture
def strip_pair():
    data = datasets.load("strip", 400)
    A = algorithms.embed("isomap", data.X, n_neighbors=8)
    B = algorithms.embed("lle", data.X, n_neighbors=8)
    return data, A, measures.similarity_procrustes(A, B)


def test_two_algorithms_are_aligned_with_their_distance_and_linked_views(dash_duo, tmp_path, choose, mouse_at, drag,
                                                                         strip_pair):
    _, A, fit = strip_pair
    open_pairs_tab(dash_duo, tmp_path)
    choose(ids.PAIR_ALGORITHM, "lle")
    start_job(dash_duo, ids.PAIR_RUN)
    assert float(card_text(dash_duo, "distance")) == pytest.approx(fit.distance, rel=1e-3)
    assert card_text(dash_duo, "scale").startswith(f"{fit.scale:.4g}")
    dash_duo.wait_for_contains_text(f"#{ids.PAIR_B_GRAPH} .gtitle", "B onto A", timeout=WAIT)
    # B's view draws B after the alignment, at A's scale (float32), with a segment from each point's place in A.
    np.testing.assert_array_equal(browser_array(dash_duo, ids.PAIR_B_GRAPH, "data[0].x"),
                                  fit.aligned[:, 0].astype(np.float32))
    segments = browser_array(dash_duo, ids.PAIR_B_GRAPH, "data[3].x")
    np.testing.assert_array_equal(segments[0::3], A[:, 0].astype(np.float32))

    # Hovering a point of A rings the same point in B's view (a shape: assets/linked_views.js).
    mouse_at(ids.PAIR_A_GRAPH, *A[37])
    rings = f"return document.getElementById('{ids.PAIR_B_GRAPH}').querySelector('.js-plotly-plot').layout.shapes;"
    shapes = until(lambda: dash_duo.driver.execute_script(rings), timeout=WAIT)
    assert len(shapes) == 1 and shapes[0]["name"] == "hovered"
    ringed = np.r_[shapes[0]["x0"] + shapes[0]["x1"], shapes[0]["y0"] + shapes[0]["y1"]] / 2
    hovered = int(np.argmin(np.linalg.norm(fit.aligned[:, :2].astype(np.float32) - ringed, axis=1)))
    assert np.linalg.norm(A[hovered] - A[37]) < 0.2  # the point under the pointer (37, or one on top of it)

    # Selecting in B's view marks the same points in A's, and the summary reads their displacement.
    choose_tool(dash_duo, ids.PAIR_B_GRAPH, "select")
    low, high = np.percentile(fit.aligned[:, :2], 10, axis=0), np.percentile(fit.aligned[:, :2], 40, axis=0)
    drag(ids.PAIR_B_GRAPH, low, high)
    until(lambda: marked_count(dash_duo, ids.PAIR_A_GRAPH) > 0, timeout=WAIT)
    marks_b = marked(dash_duo, ids.PAIR_B_GRAPH, "xy")
    selected = np.flatnonzero(np.isin(fit.aligned[:, 0].astype(np.float32), marks_b[:, 0]))
    np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.PAIR_A_GRAPH, "xy")),
                                  sorted_rows(A[selected].astype(np.float32)))
    dash_duo.wait_for_contains_text(f"#{ids.PAIR_SELECTION_TEXT}", f"{len(selected)} points selected", timeout=WAIT)
    assert f"displacement {fit.displacement[selected].mean():.4g}" in dash_duo.find_element(
        f"#{ids.PAIR_SELECTION_TEXT}").text

    # The morph runs from A (its first frame) to B aligned (its last).
    plot = f"document.getElementById('{ids.PAIR_MORPH_GRAPH}').querySelector('.js-plotly-plot')"
    until(lambda: dash_duo.driver.execute_script(f"return ({plot}._transitionData || {{}})._frames?.length")
          == MORPH_FRAMES, timeout=WAIT)
    first = browser_array(dash_duo, ids.PAIR_MORPH_GRAPH, "_transitionData._frames[0].data[0].x")
    last = browser_array(dash_duo, ids.PAIR_MORPH_GRAPH, f"_transitionData._frames[{MORPH_FRAMES - 1}].data[0].x")
    np.testing.assert_allclose(first, A[:, 0], rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(last, fit.aligned[:, 0], rtol=1e-6, atol=1e-5)
    dash_duo.find_element(f"#{ids.PAIR_MORPH_GRAPH} .updatemenu-button").click()  # play: no error
    # A slower morph: the play button now steps through the same frames at the chosen pace.
    dash_duo.find_element(f"#{ids.PAIR_MORPH_SPEED} input[value='slow']").click()
    until(lambda: dash_duo.driver.execute_script(f"return {plot}.layout.updatemenus[0].buttons[0].args[1].frame"
                                                 ".duration") * MORPH_FRAMES == pytest.approx(
        1000 * MORPH_SECONDS["slow"], abs=MORPH_FRAMES), timeout=WAIT)
    dash_duo.find_element(f"#{ids.PAIR_MORPH_GRAPH} .updatemenu-button").click()
    dash_duo.driver.save_screenshot("/tmp/procrustes-lab-pairs.png")
    assert severe_logs(dash_duo) == []


def test_two_seeds_of_t_sne_are_read_against_a_s_seed_noise(dash_duo, tmp_path):
    """From an empty cache: compare, then divide by A's seed spread; the card, the table and the colours agree
    with the library's result, and the views switch to the ratio."""
    query = "?dataset=strip&n=400&algorithm=tsne&k=8&pair.algorithm=&pair.random_state=9&stability.runs=3"
    open_pairs_tab(dash_duo, tmp_path, query, title="t-SNE, k = 8")
    start_job(dash_duo, ids.PAIR_RUN)
    card_text(dash_duo, "distance")
    start_job(dash_duo, ids.SEED_NOISE_RUN)
    shown = {name: card_text(dash_duo, name) for name in ("beyond", "ratio")}
    expected = in_process(SeedNoiseRequest.from_state(from_query(query)))
    assert shown["beyond"] == f"{100 * expected.beyond:.1f} %"
    assert shown["ratio"] == f"{expected.median_ratio:.3g}"
    table = f"#{ids.SEED_NOISE_TABLE} tbody tr"
    until(lambda: len(dash_duo.find_elements(table)) == 10, timeout=WAIT)
    cells = [[cell.text for cell in row.find_elements("css selector", "td")] for row in dash_duo.find_elements(table)]
    top = expected.ranked(10)
    assert [int(row[0]) for row in cells] == top.tolist()
    assert [row[3] for row in cells] == [f"{value:.3g}" for value in expected.ratio[top]]
    # The views are now coloured by the ratio (the colour choice switched to it).
    dash_duo.wait_for_contains_text(f"#{ids.PAIR_COLOR}", SEED_NOISE_LABEL, timeout=WAIT)
    until(lambda: len(browser_array(dash_duo, ids.PAIR_B_GRAPH, "data[0].marker.color")) == 400
          and np.allclose(browser_array(dash_duo, ids.PAIR_B_GRAPH, "data[0].marker.color"),
                          expected.ratio.astype(np.float32), rtol=1e-5), timeout=WAIT)
    assert dash_duo.driver.execute_script(
        f"return document.getElementById('{ids.PAIR_B_GRAPH}').querySelector('.js-plotly-plot')"
        ".data[0].marker.colorbar.title.text") == SEED_NOISE_LABEL
    for element, name in ((ids.PAIR_A_GRAPH, "views"), (ids.SEED_NOISE_MESSAGE, "table")):
        dash_duo.driver.execute_script(f"document.getElementById('{element}').scrollIntoView();")
        dash_duo.driver.save_screenshot(f"/tmp/procrustes-lab-seed-noise-{name}.png")
    assert severe_logs(dash_duo) == []


def test_a_run_beside_itself_has_distance_zero_and_the_stability_study_shows_each_point_s_spread(dash_duo, tmp_path):
    open_pairs_tab(dash_duo, tmp_path, "?dataset=strip&n=400&algorithm=isomap&k=8&pair.algorithm="  # B: A's
                                       "&stability.mode=subsamples&stability.runs=4")
    start_job(dash_duo, ids.PAIR_RUN)
    assert card_text(dash_duo, "distance") == "0"
    assert card_text(dash_duo, "scale") == "1"

    start_job(dash_duo, ids.STABILITY_RUN)
    shown = {name: card_text(dash_duo, name) for name in ("spread", "runs")}
    state = ViewState(data=DataChoice("strip", n=400), method=MethodChoice("isomap", 8),
                      stability=StabilityChoice("subsamples", 4)).validated()
    result = in_process(StabilityRequest.from_state(state))
    summary = result.summary
    assert shown["spread"] == f"{summary['mean spread']:.4g} (median {summary['median spread']:.4g})"
    assert shown["runs"] == "4"
    colors = browser_array(dash_duo, ids.STABILITY_GRAPH, "data[0].marker.color")
    np.testing.assert_array_equal(colors, result.spread.astype(np.float32))
    assert severe_logs(dash_duo) == []


def test_an_uploaded_output_is_paired_with_a_run_on_its_input(dash_duo, tmp_path, choose):
    data = datasets.load("swissroll", 400, random_state=2)
    Y = data.truth * [1.0, 0.4]  # an embedding "made elsewhere": the chart, squeezed
    dash_duo.start_server(notebook_app(data.X, Y, cache_dir=tmp_path)[1])
    wait_for_output_title(dash_duo, "Output: your uploaded output, k = 10")
    tab = next(element for element in dash_duo.find_elements(f"#{ids.TABS} .tab") if element.text == "Two runs")
    tab.click()
    choose(ids.PAIR_ALGORITHM, "isomap")
    start_job(dash_duo, ids.PAIR_RUN)
    fit = measures.similarity_procrustes(Y, algorithms.embed("isomap", data.X, n_neighbors=10))
    assert float(card_text(dash_duo, "distance")) == pytest.approx(fit.distance, rel=1e-3)
    dash_duo.wait_for_contains_text(f"#{ids.PAIR_A_GRAPH} .gtitle", "your uploaded output (columns 4, 5)",
                                    timeout=WAIT)
    assert severe_logs(dash_duo) == []
