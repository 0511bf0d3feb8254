"""A run request is canonical, and a run's numbers are the API's."""

import numpy as np
import pytest

import algorithms
import datasets
import measures
from components.jobs import cache_key
from components.runs import align_to_reference, compute_run, make_request, result_summary


def request(**overrides):
    values = dict(dataset="strip", n=300, noise=0.0, seed=1, dataset_params={}, algorithm="ltsa", n_neighbors=8,
                  algorithm_params={})
    values.update(overrides)
    return make_request(**values)


def test_omitted_and_default_parameters_make_one_request():
    named = request(dataset_params={"length": 6.0, "thickness": 0.0}, algorithm_params={"eigen_solver": "auto"})
    emptied = request(dataset_params={"length": None}, noise=None)
    assert request() == named == emptied
    assert cache_key(request()) == cache_key(named)
    assert request()["algorithm_params"] == {"eigen_solver": "auto"}


def test_a_request_rebuilt_after_json_has_the_same_key():
    import json

    original = request(dataset_params={"length": 6.0}, noise=0.0)
    travelled = json.loads(json.dumps(original).replace("6.0", "6").replace("0.0", "0"))
    assert cache_key(make_request(**travelled)) == cache_key(original)


def test_bad_parameters_fail_when_the_request_is_made():
    with pytest.raises(measures.DatasetError, match="length"):
        request(dataset_params={"length": -1.0})
    with pytest.raises(measures.EmbeddingError, match="no parameter 'reg'"):
        request(algorithm_params={"reg": 0.1})


def test_run_reports_the_api_values_and_its_stages():
    stages = []
    result = compute_run(request(), progress=lambda fraction, stage: stages.append(fraction))
    data = datasets.load("strip", 300, seed=1)
    Y = algorithms.embed("ltsa", data.X, n_neighbors=8, seed=1)
    np.testing.assert_array_equal(result["Y"], Y)
    rn, per_point = measures.procrustes(data.X, Y, 8, per_point=True)
    np.testing.assert_array_equal(result["local"]["normalized"], per_point)
    assert result["summary"]["normalized"] == [pytest.approx(rn), pytest.approx(np.median(per_point))]
    # Every run measure comes from the one evaluate() call, equal to its own function.
    assert result["summary"]["trustworthiness"][0] == pytest.approx(
        measures.trustworthiness(data.X, Y, 8), rel=1e-12)
    assert result["summary"]["nieqa_global"][1] is None  # a global measure has no median
    np.testing.assert_array_equal(result["drawn_X"], data.X)
    assert result["summary"]["lower_bound"][0] <= result["summary"]["conformal"][0] <= rn
    assert stages == sorted(stages) and 0 < stages[0] and stages[-1] < 1
    summary = result_summary(result)
    assert set(summary) == {"summary", "seconds"} and summary["summary"]["normalized"][0] == pytest.approx(rn)


def test_high_dimensional_input_is_drawn_by_its_principal_components():
    result = compute_run(make_request(dataset="digits", n=None, noise=0.0, seed=0, dataset_params={"classes": "2"},
                                      algorithm="isomap", n_neighbors=8, algorithm_params={}))
    assert result["X"].shape[1] == 64 and result["drawn_X"].shape == (result["X"].shape[0], 3)
    assert result["input_axes"] == ["PC1", "PC2", "PC3"] and result["image_shape"] == (8, 8)
    centred = result["X"] - result["X"].mean(axis=0)
    top = np.linalg.svd(centred, compute_uv=False)[:3] ** 2
    np.testing.assert_allclose(np.sum(result["drawn_X"] ** 2, axis=0), top, rtol=1e-8)


def test_alignment_to_the_truth_undoes_a_similarity_exactly():
    rng = np.random.default_rng(2)
    truth = rng.normal(size=(80, 2))
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]]) @ np.diag([1.0, -1.0])  # with a reflection
    moved = 0.2 * truth @ rotation + [5.0, -3.0]
    np.testing.assert_allclose(align_to_reference(moved, truth), truth, atol=1e-12)
    # A collapsed output stays collapsed (scale 0), at the truth's centre.
    np.testing.assert_allclose(align_to_reference(np.ones((80, 2)), truth), np.broadcast_to(truth.mean(0), (80, 2)))


def test_a_long_algorithm_reports_its_annealing_through_the_run():
    stages = []
    compute_run(request(algorithm="psa", dataset="swissroll", n=400),
                progress=lambda fraction, stage: stages.append((fraction, stage)))
    fractions = [fraction for fraction, _ in stages]
    assert fractions == sorted(fractions)
    assert any(stage.startswith("Procrustes subspaces alignment: anneal") and " T " in stage and " f " in stage
               for _, stage in stages)
    assert all(0.15 <= fraction <= 0.65 for fraction, stage in stages if stage.startswith("Procrustes"))


def test_quadratic_measures_are_reported_as_not_computed_above_the_limit(monkeypatch):
    import components.runs as runs

    monkeypatch.setattr(runs, "QUADRATIC_UP_TO", 150)
    result = runs.compute_run(runs.make_request("swissroll", 200, 0.0, 0, {}, "pca", 8, {}))
    for name in runs.QUADRATIC_MEASURES:
        assert result["summary"][name] == [None, None] and name not in result["local"]
    assert any("are not computed: their cost grows with the square of n" in note for note in result["notes"])
    assert result["landmarks"] is None
    # The local measures are untouched by the cut.
    data = datasets.load("swissroll", 200)
    expected = measures.procrustes(data.X, algorithms.embed("pca", data.X, n_neighbors=8), 8)
    assert result["summary"]["normalized"][0] == pytest.approx(expected, rel=1e-12)
