"""Browser tests of the sweep tab and of background jobs: progress, cancel, and the result cache."""

import json

import numpy as np
from dash.testing.wait import until
from selenium.webdriver.common.keys import Keys

import algorithms
import datasets
import measures
from app import create_app
from components import ids
from lab import ResultCache, SweepRequest, from_query
from lab.compute import compute
from lab.compute.studies import runs_agreement, sweep_yardsticks

from .test_app_browser import open_page, wait_for_output_title

WAIT = 180  # a sweep of 25 runs on a busy 2-core machine


def start_on_sweep_tab(dash_duo, tmp_path, n_points):
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "k = 10", timeout=WAIT)
    show_sweep_tab(dash_duo, n_points)


def show_sweep_tab(dash_duo, n_points):
    """Set the sample size to ``n_points``, wait for that run, then open the sweep tab."""
    box = dash_duo.find_element(f"#{ids.DATASET_SIZE}")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(f"{n_points}\n")
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", f"n = {n_points}", timeout=WAIT)
    dash_duo.find_element(f"#{ids.TABS} .tab:nth-child(2)").click()
    dash_duo.wait_for_element(f"#{ids.SWEEP_RUN}", timeout=WAIT)


def plotted(dash_duo, graph_id):
    """The traces of a graph once drawn (the figure follows the job's message by a moment)."""
    script = f"return JSON.stringify(document.getElementById('{graph_id}').querySelector('.js-plotly-plot').data);"
    return until(lambda: json.loads(dash_duo.driver.execute_script(script)), timeout=WAIT)


def test_sweep_marks_the_best_k_a_repeat_comes_from_the_cache_and_a_clicked_point_opens(dash_duo, tmp_path, mouse_at):
    start_on_sweep_tab(dash_duo, tmp_path, 400)
    dash_duo.find_element(f"#{ids.SWEEP_RUN}").click()
    dash_duo.wait_for_contains_text(f"#{ids.SWEEP_MESSAGE}", "25 runs: 25 computed, 0 from the cache", timeout=WAIT)

    # Isomap's starred k is the k of smallest mean R_N, computed here through the API.
    data = datasets.load("swissroll", 400)
    ks = [6, 9, 12, 15, 18]
    scores = [measures.procrustes(data.X, algorithms.embed("isomap", data.X, n_neighbors=k), k) for k in ks]
    traces = plotted(dash_duo, ids.SWEEP_GRAPH)
    isomap = next(t for t in traces if t["name"] == "Isomap")
    np.testing.assert_allclose(isomap["y"], scores, rtol=1e-10)
    # R_N's floor, GR Lemma 1's lower bound at each k (no 2-D output beats it), dashed beneath the curves.
    floor = next(t for t in traces if t["name"] == "floor")
    np.testing.assert_allclose(floor["y"], [measures.evaluate(data.X, data.X[:, :2], k, which=["lower_bound"])
                                            .mean["lower_bound"] for k in ks], rtol=1e-10)
    stars = next(t for t in traces if t["name"] == "best k")
    assert stars["x"][stars["text"].index("Isomap")] == ks[int(np.argmin(scores))]
    assert "Isomap" in dash_duo.find_element(f"#{ids.SWEEP_TABLE}").text

    # The same sweep again: every cell is served from disk (the server's record, not a timing).
    before = ResultCache(tmp_path / "results").stats()
    dash_duo.find_element(f"#{ids.SWEEP_RUN}").click()
    dash_duo.wait_for_contains_text(f"#{ids.SWEEP_MESSAGE}", "25 runs: 0 computed, 25 from the cache", timeout=WAIT)
    after = ResultCache(tmp_path / "results").stats()
    # Its 25 cells read; the sweep itself, assembled from them, is one computation and is never kept.
    assert after["computed"] == before["computed"] + 1 and after["hits"] == before["hits"] + 25

    # Which measures rank the 25 runs alike: the API's agreement of the same sweep, read from the same cells.
    request = SweepRequest.from_state(from_query("?n=400&tab=sweep"))
    names, rho, runs = runs_agreement(compute(request, cache=ResultCache(tmp_path / "results")).result.rows)
    heatmap = plotted(dash_duo, ids.SWEEP_AGREEMENT)[0]
    assert runs == 25 and heatmap["x"] == [measures.spec(name).label for name in names]
    assert {"R_N", "trustworthiness", "DEMaP ρ"} <= set(heatmap["x"]) and "lower bound" not in heatmap["x"]
    np.testing.assert_allclose(np.array(heatmap["z"], dtype=float), rho, rtol=1e-12)  # blank cells: NaN in both

    # Clicking a point of a curve opens that run in the explore tab, from the cache.
    ltsa = next(trace for trace in plotted(dash_duo, ids.SWEEP_GRAPH) if trace["name"] == "LTSA")
    mouse_at(ids.SWEEP_GRAPH, 15, ltsa["y"][ltsa["x"].index(15)], ("mousemove", "mousedown", "mouseup", "click"))
    wait_for_output_title(dash_duo, "LTSA, k = 15", timeout=WAIT)
    assert "(cached)" in dash_duo.find_element(f"#{ids.card_value('time')}").text

    # Back on the sweep tab, with the random-output band: each k's band spans the algorithms' R_N on random
    # outputs, as the API computes the same sweep's yardsticks; a faithful Isomap lies below all of it.
    dash_duo.find_element(f"#{ids.TABS} .tab:nth-child(2)").click()
    dash_duo.find_element(f"#{ids.SWEEP_YARDSTICKS} input").click()
    until(lambda: "sweep.yardsticks=1" in dash_duo.driver.current_url, timeout=WAIT)  # the view state has it
    dash_duo.find_element(f"#{ids.SWEEP_RUN}").click()
    band = until(lambda: next((trace for trace in plotted(dash_duo, ids.SWEEP_GRAPH)
                               if trace["name"] == "random outputs"), None), timeout=WAIT)
    sticks = sweep_yardsticks(compute(SweepRequest.from_state(from_query("?n=400&tab=sweep&sweep.yardsticks=1")),
                                      cache=ResultCache(tmp_path / "results")).result.rows, "normalized")
    assert band["x"] == ks + ks[::-1]
    np.testing.assert_allclose(band["y"], list(sticks.random_low) + list(sticks.random_high)[::-1], rtol=1e-12)
    assert min(sticks.random_low) > max(scores)
    assert dash_duo.get_logs() == []


def test_cancelling_a_sweep_stores_nothing_partial_and_the_app_keeps_working(dash_duo, tmp_path):
    start_on_sweep_tab(dash_duo, tmp_path, 1600)
    for name in ("PCA", "Laplacian eigenmaps"):  # more, slower cells: time to cancel
        position = [spec.label for spec in algorithms.specs()].index(name) + 1
        dash_duo.find_element(f"#{ids.SWEEP_ALGORITHMS} label:nth-child({position})").click()
    job = ids.job_controls(ids.SWEEP_JOB)
    dash_duo.find_element(f"#{ids.SWEEP_RUN}").click()
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job running", timeout=WAIT)
    until(lambda: ResultCache(tmp_path / "results").stats()["computed"] >= 2, timeout=WAIT)
    dash_duo.find_element(f"#{job['cancel']}").click()
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job idle", timeout=WAIT)
    computed = ResultCache(tmp_path / "results").stats()["computed"]
    assert computed < 35  # the job stopped before the end
    # No partial sweep is shown, and the page says the sweep was cancelled.
    dash_duo.wait_for_text_to_equal(f"#{ids.SWEEP_MESSAGE}", "Cancelled. Shown: nothing has finished yet.",
                                    timeout=WAIT)
    assert dash_duo.driver.execute_script(
        f"return document.getElementById('{ids.SWEEP_GRAPH}').querySelector('.js-plotly-plot').data.length;") == 0
    # Every stored cell is a complete run, and the explore view still works (served from the cache).
    dash_duo.find_element(f"#{ids.TABS} .tab:nth-child(1)").click()
    dash_duo.select_dcc_dropdown(f"#{ids.ALGORITHM}", "LLE (normalized)")
    wait_for_output_title(dash_duo, "LLE, k = 10", timeout=WAIT)
    assert float(dash_duo.find_element(f"#{ids.card_value('normalized')} .card-mean").text) > 0.5
    assert [entry for entry in dash_duo.get_logs() if entry["level"] == "SEVERE"] == []


def test_a_sweep_link_opens_with_its_result_when_this_server_computed_it(dash_duo, tmp_path):
    """issue 19 item 8: a Sweep link opened its tab empty; its cells, computed by another page of this server,
    now draw it at once, and the numbers are the API's."""
    link = "?tab=sweep&dataset=swissroll&n=300&sweep.algorithms=pca,ltsa&sweep.k_min=6&sweep.k_max=10&sweep.k_step=2"
    expected = compute(SweepRequest.from_state(from_query(link)), cache=ResultCache(tmp_path / "results")).result
    open_page(dash_duo, create_app(tmp_path), link)  # a fresh browser
    dash_duo.wait_for_contains_text(f"#{ids.SWEEP_MESSAGE}", "Restored from this server's cache", timeout=WAIT)
    ltsa = next(trace for trace in plotted(dash_duo, ids.SWEEP_GRAPH) if trace["name"] == "LTSA")
    rows = [row for row in expected.rows if row["algorithm"] == "ltsa"]
    assert ltsa["x"] == [row["k"] for row in rows] == [6, 8, 10]
    np.testing.assert_allclose(ltsa["y"], [row["summary"]["normalized"][0] for row in rows], rtol=1e-12)
    assert dash_duo.get_logs() == []
