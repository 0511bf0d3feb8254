"""Browser tests of the compare, normalization and help tabs, links and presets."""

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
from lab import CompareRequest, ResultCache, from_query
from lab.compute import compute
from lab.compute.catalogue import COMPARE_DEFAULTS
from lab.compute.studies import runs_agreement
from lab.tours.presets import preset

from .test_app_browser import open_page, type_number, wait_for_output_title

WAIT = 120


def test_compare_shows_every_algorithm_s_rn_and_groups_outputs_and_help_typesets_the_measures(dash_duo, tmp_path):
    # 400 points: the comparison computes every measure of seven algorithms (a quarter of the default's work).
    open_page(dash_duo, create_app(tmp_path), "?n=400")
    wait_for_output_title(dash_duo, "k = 10", timeout=WAIT)
    dash_duo.find_element(f"#{ids.TABS} .tab:nth-child(3)").click()
    dash_duo.find_element(f"#{ids.COMPARE_RUN}").click()
    names = COMPARE_DEFAULTS
    dash_duo.wait_for_contains_text(f"#{ids.COMPARE_MESSAGE}", f"{len(names)} algorithms at k = 10", timeout=WAIT)
    script = (f"return JSON.stringify(document.getElementById('{ids.COMPARE_BARS}')"
              ".querySelector('.js-plotly-plot').data);")
    # The message arrives with the job's result; the figures are drawn from it a moment later.
    bars = until(lambda: json.loads(dash_duo.driver.execute_script(script)), timeout=WAIT)
    data = datasets.load("swissroll", 400)
    shown = {}
    for trace in bars:
        if trace.get("xaxis") in ("x", None):  # the first chart: R_N
            # Past four algorithms the bars lie horizontal: names on y, values on x.
            labels, values = ("y", "x") if trace.get("orientation") == "h" else ("x", "y")
            shown.update(zip(trace[labels], trace[values]))
    for name in names:
        entry = algorithms.spec(name)
        expected = measures.procrustes(data.X, algorithms.embed(name, data.X, n_neighbors=10), 10)
        assert shown[entry.label] == pytest.approx(expected, rel=1e-9)
    # Isometric outputs come first in the grid, normalized ones after.
    titles = dash_duo.driver.execute_script(
        f"return Array.from(document.querySelectorAll('#{ids.COMPARE_GRID} .annotation-text'))"
        ".map(a => a.textContent);")
    kinds = ["isometric" if "(isometric)" in title else "normalized" for title in titles]
    assert kinds == sorted(kinds, key=lambda kind: kind != "isometric") and len(kinds) == len(names)
    # Which measures rank the seven outputs alike: the API's agreement of the cached comparison.
    result = compute(CompareRequest.from_state(from_query("?n=400&tab=compare")),
                     cache=ResultCache(tmp_path / "results"))
    assert result.cached  # the comparison the page computed
    agreement = runs_agreement([panel for panel in result.result.panels if "error" not in panel])
    heatmap = until(lambda: json.loads(dash_duo.driver.execute_script(script.replace(ids.COMPARE_BARS,
                                                                                     ids.COMPARE_AGREEMENT))), WAIT)[0]
    assert heatmap["x"] == [measures.spec(name).label for name in agreement[0]] and agreement[2] == len(names)
    np.testing.assert_allclose(np.array(heatmap["z"], dtype=float), agreement[1], rtol=1e-12)

    # The help tab typesets the measures' definitions: MathJax replaced the TeX source by rendered math.
    dash_duo.find_element(f"#{ids.TABS} .tab:nth-child(5)").click()
    dash_duo.wait_for_contains_text(".help-text", "When to trust which", timeout=WAIT)
    until(lambda: dash_duo.driver.execute_script("return document.querySelectorAll('.help-text mjx-container').length")
          >= 5, timeout=WAIT)
    assert "Goldberg & Ritov Table 2" in dash_duo.find_element(".help-text").text
    assert dash_duo.get_logs() == []


def test_links_restore_the_view_and_a_paper_preset_sets_the_controls_and_shows_its_caption(dash_duo, tmp_path,
                                                                                          choose):
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap, k = 10", timeout=WAIT)
    # Regression: the link below sets n to the value it has, re-triggering the run with equal arguments
    # while the first (cached, instant) job is in flight; both shared one hand-over entry in Dash's
    # store and the page waited forever for the second.
    shown = dash_duo.find_element(f"#{ids.card_value('normalized')} .card-mean").text
    dash_duo.driver.get(dash_duo.server_url + "/?color=normalized")
    dash_duo.wait_for_text_to_equal(f"#{ids.card_value('normalized')} .card-mean", shown, timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.card_value('time')}", "(cached)", timeout=WAIT)

    # Change the view the way a user does; the address bar follows.
    dash_duo.select_dcc_dropdown(f"#{ids.DATASET}", "Strip")
    length_id = json.dumps(ids.dataset_param("strip", "length"), sort_keys=True, separators=(",", ":"))
    length = dash_duo.find_element(f"[id='{length_id}']")
    length.send_keys(Keys.CONTROL, "a")
    length.send_keys("9\n")
    dash_duo.select_dcc_dropdown(f"#{ids.ALGORITHM}", "LTSA (normalized)")
    wait_for_output_title(dash_duo, "LTSA, k = 10", timeout=WAIT)
    until(lambda: "d.length=9" in dash_duo.driver.current_url and "algorithm=ltsa" in dash_duo.driver.current_url,
          timeout=WAIT)
    link = dash_duo.driver.current_url
    shown = dash_duo.find_element(f"#{ids.card_value('normalized')} .card-mean").text

    # A new page opened on the link shows the same view: same controls, same numbers.
    dash_duo.driver.get(dash_duo.server_url)
    wait_for_output_title(dash_duo, "Isomap, k = 10", timeout=WAIT)
    dash_duo.driver.get(link)
    wait_for_output_title(dash_duo, "LTSA, k = 10", timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "Strip", timeout=WAIT)
    assert dash_duo.find_element(
        f"[id='{json.dumps(ids.dataset_param('strip', 'length'), sort_keys=True, separators=(',', ':'))}']"
    ).get_attribute("value") == "9"
    dash_duo.wait_for_text_to_equal(f"#{ids.card_value('normalized')} .card-mean", shown, timeout=WAIT)
    data = datasets.load("strip", length=9.0)
    expected = measures.procrustes(data.X, algorithms.embed("ltsa", data.X, n_neighbors=10), 10)
    assert float(shown) == pytest.approx(expected, abs=6e-5)

    # A step of a moment (NQ's 100-point rectangle), whose explore run sets a data set's parameter, another
    # algorithm and another rescaling.
    chosen = preset("nq-3a-rectangle")
    choose(ids.TOUR_INDEX, chosen.name)
    dash_duo.wait_for_contains_text(f"#{ids.TOUR_TEXT}", "100 points of a 2 × 1 rectangle", timeout=WAIT)
    wait_for_output_title(dash_duo, "PCA, k = 10", timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "n = 100", timeout=WAIT)
    length = dash_duo.find_element(
        f"[id='{json.dumps(ids.dataset_param('strip', 'length'), sort_keys=True, separators=(',', ':'))}']")
    until(lambda: length.get_attribute("value") == "2", timeout=WAIT)
    assert "d.length=2" in dash_duo.driver.current_url and "rescale=unit_norm" in dash_duo.driver.current_url
    assert [entry for entry in dash_duo.get_logs() if entry["level"] == "SEVERE"] == []


def test_pn_fig5_preset_opens_the_normalization_study_and_its_table_equals_the_api(dash_duo, tmp_path, choose):
    """PN Fig. 5 (3000 uniform points at aspect 81/39, K = 8): the preset sets the tab and its controls
    through the URL. The study then runs on 1200 of them (its four algorithms at 3000 points cost a minute
    of CI; the paper's size is the lab test's, tests/lab/test_normalization.py), and its table equals the API."""
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "k = 10", timeout=WAIT)
    choose(ids.TOUR_INDEX, "pn-fig5-random-grid")
    dash_duo.wait_for_contains_text(f"#{ids.TOUR_TEXT}", "81/39", timeout=WAIT)
    until(lambda: dash_duo.find_element(f"#{ids.TABS} .tab--selected").text == "Normalization", timeout=WAIT)
    until(lambda: dash_duo.find_element(f"#{ids.NORMALIZATION_SIZE}").get_attribute("value") == "3000", timeout=WAIT)
    type_number(dash_duo, ids.NORMALIZATION_SIZE, 1200)
    dash_duo.find_element(f"#{ids.NORMALIZATION_RUN}").click()
    dash_duo.wait_for_contains_text(f"#{ids.NORMALIZATION_MESSAGE}", "length L (the aspect ratio) = 2.08, k = 8: 4 "
                                    "algorithms", timeout=WAIT)
    rows = until(lambda: {row[0]: row for row in dash_duo.driver.execute_script(
        f"return Array.from(document.querySelectorAll('#{ids.NORMALIZATION_TABLE} tbody tr'))"
        ".map(r => Array.from(r.cells).map(c => c.textContent));")}, timeout=WAIT)
    data = datasets.load("strip", 1200, length=2.08)
    Y = algorithms.embed("laplacian", data.X, n_neighbors=8)
    cost = measures.normalization_cost(data.truth, data.X, "laplacian", 8)
    lem = rows["Laplacian eigenmaps"]
    assert float(lem[1]) == pytest.approx(measures.collapse_score(data.truth, Y), abs=5e-4)
    assert float(lem[4]) == pytest.approx(cost.ratio, rel=1e-3)
    assert lem[5] == cost.verdict
    assert set(rows) == {"Laplacian eigenmaps", "Diffusion maps", "LLE", "LTSA"}
    assert "norm.aspect=2.08" in dash_duo.driver.current_url
    dash_duo.driver.save_screenshot("/tmp/procrustes-lab-normalization.png")
    assert dash_duo.get_logs() == []
