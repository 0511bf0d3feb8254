"""Sweeps and comparisons: cells are explore runs, failures stay in their cell, best k follows direction."""

import doctest

import numpy as np
import pytest

from lab import (CompareChoice, CompareRequest, DataChoice, ResultCache, RunRequest, SweepChoice, SweepRequest,
                 StateError, ViewState, YardstickRequest)
from lab.compute import catalogue, compute
import lab.compute.studies
from lab.compute.studies import align_to_reference, best_cells, stored_sweep, sweep_yardsticks


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return ResultCache(tmp_path_factory.mktemp("results"))


def state(**parts):
    return ViewState(data=DataChoice("swissroll", n=400), **parts).validated()


def test_a_sweep_cell_is_the_explore_run_of_the_same_settings(cache):
    view = state(sweep=SweepChoice(("isomap", "lle"), 8, 10, 2))
    result = compute(SweepRequest.from_state(view), cache=cache).result
    assert [(row["algorithm"], row["k"]) for row in result.rows] == [("isomap", 8), ("isomap", 10), ("lle", 8),
                                                                     ("lle", 10)]
    assert result.computed == 4 and result.cached == 0 and result.message == "4 runs: 4 computed, 0 from the cache."
    explore = RunRequest.create("swissroll", "lle", n=400, n_neighbors=10)
    hit, cached = compute(explore, cache=cache)
    assert cached and result.rows[3]["summary"]["normalized"] == list(hit.summary["normalized"])
    again = compute(SweepRequest.from_state(view), cache=cache).result
    assert again.cached == 4 and again.rows == result.rows


def test_a_sweep_read_back_from_the_page_is_the_one_written_and_anything_else_is_refused(cache):
    view = state(sweep=SweepChoice(("hlle", "pca"), 3, 6, 3))  # a failed cell (HLLE at k = 3) among good ones
    result = compute(SweepRequest.from_state(view), cache=cache).result
    stored = {"state": view.to_dict(), "result": result.to_value()}
    assert stored_sweep(stored).rows == result.rows
    good = result.rows[-1]
    for forged in ({}, {"result": {"rows": "x"}}, {"result": {"rows": [{}]}},
                   {"result": {"rows": [{**good, "seconds": "1"}]}},
                   {"result": {"rows": [{**good, "summary": {"normalized": [1.0]}}]}},
                   {"result": {"rows": [{**good, "k": True}]}}, {"result": {"rows": [{**good, "error": 3}]}},
                   # A 400-digit integer: no float holds it, and the table and agreement would overflow on it.
                   {"result": {"rows": [{**good, "summary": {**good["summary"], "normalized": [10**400, None]}}]}}):
        with pytest.raises(StateError, match="not one this page wrote"):
            stored_sweep(forged)


def test_a_failing_cell_is_reported_in_its_row_and_the_others_run(cache):
    view = state(sweep=SweepChoice(("hlle", "pca"), 3, 6, 3))
    result = compute(SweepRequest.from_state(view), cache=cache).result
    rows = {(row["algorithm"], row["k"]): row for row in result.rows}
    assert "HLLE needs n_neighbors > d(d+3)/2 = 5" in rows["hlle", 3]["error"]
    assert "summary" in rows["hlle", 6] and "summary" in rows["pca", 3]
    assert result.failed == 1 and result.message.endswith("1 failed (see the table).")


def test_the_best_k_follows_each_measure_s_direction():
    rows = [{"algorithm": "ltsa", "label": "LTSA", "k": k,
             "summary": {"trustworthiness": [t, None], "normalized": [r, r]}}
            for k, t, r in ((6, 0.998, 0.99), (12, 0.95, 0.97), (18, 0.857, 0.995))]
    assert best_cells(rows, "trustworthiness")["ltsa"]["k"] == 6  # higher is better
    assert best_cells(rows, "normalized")["ltsa"]["k"] == 12  # lower is better
    rows.append({"algorithm": "ltsa", "label": "LTSA", "k": 3, "error": "disconnected"})
    assert best_cells(rows, "trustworthiness")["ltsa"]["k"] == 6


def test_a_comparison_puts_isometric_outputs_first_and_aligns_them(cache):
    view = state(compare=CompareChoice(("lle", "pca", "isomap"), align=True))
    result = compute(CompareRequest.from_state(view), cache=cache).result
    assert [panel["algorithm"] for panel in result.panels] == ["pca", "isomap", "lle"]
    isomap = next(panel for panel in result.panels if panel["algorithm"] == "isomap")
    run = cache.get(RunRequest.create("swissroll", "isomap", n=400))
    np.testing.assert_allclose(isomap["Y"], align_to_reference(run.Y, run.truth))
    assert result.message == "3 algorithms at k = 10." and result.cacheable


def test_alignment_to_the_truth_undoes_a_similarity_exactly():
    rng = np.random.default_rng(2)
    truth = rng.normal(size=(80, 2))
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]]) @ np.diag([1.0, -1.0])  # with a reflection
    moved = 0.2 * truth @ rotation + [5.0, -3.0]
    np.testing.assert_allclose(align_to_reference(moved, truth), truth, atol=1e-12)
    # A collapsed output has no shape to fit: it is drawn where it lies.
    np.testing.assert_array_equal(align_to_reference(np.ones((80, 2)), truth), np.ones((80, 2)))


def test_doctests():
    assert doctest.testmod(lab.compute.studies).failed == 0


def test_a_sweep_with_yardsticks_holds_each_cells_random_values_and_floor(cache):
    view = state(sweep=SweepChoice(("isomap", "ltsa"), 8, 10, 2, yardsticks=True))
    request = SweepRequest.from_state(view)
    assert request.to_dict()["yardsticks"] is True
    assert "yardsticks" not in SweepRequest.from_state(state(sweep=SweepChoice(("isomap",), 8, 10, 2))).to_dict()
    rows = compute(request, cache=cache).result.rows
    for row in rows:
        run = RunRequest.create("swissroll", row["algorithm"], n=400, n_neighbors=row["k"])
        sticks = compute(YardstickRequest(run), cache=cache)
        assert sticks.cached  # the sweep computed and kept each cell's yardsticks
        assert row["random"] == {name: value for name, value in sticks.result.random.items() if value == value}
    plotted = sweep_yardsticks(rows, "normalized")
    assert plotted.best_label == "floor" and plotted.best_ks == (8, 10)
    assert plotted.best == tuple(rows[i]["summary"]["lower_bound"][0] for i in (0, 1))
    # LTSA's unit-variance output and Isomap's isometric one meet random outputs of their own scales.
    assert plotted.random_low == tuple(min(rows[i]["random"]["normalized"], rows[i + 2]["random"]["normalized"])
                                       for i in (0, 1))
    assert plotted.random_low[0] < plotted.random_high[0]
    trust = sweep_yardsticks(rows, "trustworthiness")
    assert trust.best_label == "best" and trust.best == (1.0, 1.0) and 0.45 < trust.random_low[0] < 0.55
    assert stored_sweep({"result": {"rows": list(rows)}}).rows == rows  # a page's store takes them back


@pytest.mark.parametrize("forged", [{"random": {"normalized": "x"}}, {"random": [1]}, {"random_error": 3},
                                    {"random": {"normalized": 10**400}}])
def test_a_stored_sweep_with_forged_yardsticks_is_refused(cache, forged):
    rows = compute(SweepRequest.from_state(state(sweep=SweepChoice(("isomap",), 8, 8, 2))), cache=cache).result.rows
    with pytest.raises(StateError):
        stored_sweep({"result": {"rows": [{**rows[0], **forged}]}})


def test_yardsticks_are_refused_for_a_sweep_above_their_cap_and_for_a_non_boolean():
    big = DataChoice("swissroll", n=catalogue.YARDSTICK_MAX_SAMPLES + 1).validated()
    with pytest.raises(StateError, match="at most 10,000 points"):
        SweepRequest(big, ("pca",), (8,), True)
    values = SweepRequest(DataChoice("swissroll", n=400).validated(), ("pca",), (8,)).to_dict()
    with pytest.raises(StateError, match="yardsticks must be true or false"):
        SweepRequest.from_dict({**values, "yardsticks": "yes"})


def test_a_sweep_of_the_uploaded_output_is_refused_for_data_that_carries_none():
    """A forged request (the page offers the uploaded output only with an upload that has one): refused when read,
    before any cell runs, as a run of it is."""
    values = SweepRequest(DataChoice("swissroll", n=400).validated(), ("pca",), (8,)).to_dict()
    with pytest.raises(StateError, match="the data carries none"):
        SweepRequest.from_dict({**values, "algorithms": ["uploaded", "pca"]})
