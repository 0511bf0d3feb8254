"""Two embeddings compared: each neighbourhood of B against A's (the slow oracle), the selection summary,
and the pairs tab's request end to end. The global fit itself is tested in tests/measures/test_similarity.py."""

import numpy as np
import pytest

import algorithms
import datasets
import measures
from lab import ResultCache, RunRequest, StateError, ViewState
from lab.compute import compute
from lab.compute.choices import DataChoice, MethodChoice
from lab.compute.pairs import (
    PairRequest,
    compare_outputs,
    pair_coloring,
    selection_summary,
)
from lab.view.state import PairChoice


def _local_oracle(A, B, neighbors):
    """R_C and R_N of each neighbourhood, one full SVD at a time (the slow loop the kernel replaces)."""
    conformal, normalized = [], []
    for row in neighbors:
        a, b = A[row] - A[row].mean(axis=0), B[row] - B[row].mean(axis=0)
        nuclear = np.linalg.svd(a.T @ b, compute_uv=False).sum()
        aa, bb = np.sum(a * a), np.sum(b * b)
        conformal.append(1.0 - nuclear**2 / (aa * bb))
        normalized.append((aa + bb - 2.0 * nuclear) / aa)
    return np.array(conformal), np.array(normalized)


def test_local_procrustes_between_outputs_compares_each_neighbourhood_of_b_with_the_same_of_a():
    data = datasets.load("strip", 300, random_state=0)
    A = data.truth
    reflection = np.array([[0.6, 0.8], [0.8, -0.6]])
    B = 2.0 * A @ reflection
    bent = A[:, 0] > 4.0  # B bends one end of the strip: a quadratic fold there
    B[bent] += np.c_[np.zeros(bent.sum()), 0.5 * (A[bent, 0] - 4.0) ** 2] @ reflection
    neighbors = measures.nearest_neighbors(data.X, 10)
    pair = compare_outputs(A, B, neighbors)
    conformal, normalized = _local_oracle(A, pair.alignment.aligned, neighbors)
    np.testing.assert_allclose(pair.local.conformal, conformal, atol=1e-12)
    np.testing.assert_allclose(pair.local.normalized, normalized, atol=1e-12)
    # Untouched neighbourhoods agree up to a similarity; the bent end does not.
    untouched = ~bent[neighbors].any(axis=1)
    assert pair.local.conformal[untouched].max() < 1e-12
    assert np.median(pair.local.conformal[bent]) > 1e-3


@pytest.fixture
def cache(tmp_path):
    return ResultCache(tmp_path / "results")


def strip_state(**pair):
    return ViewState(data=DataChoice("strip", n=300), method=MethodChoice("isomap", 8),
                     pair=PairChoice(**pair)).validated()


def test_a_pair_of_two_algorithms_aligns_the_runs_the_explore_tab_computes(cache):
    state = strip_state(algorithm="ltsa")
    request = PairRequest.from_state(state)
    assert request.a == RunRequest.from_state(state)
    assert (request.b.method.algorithm, request.b.method.n_neighbors) == ("ltsa", 8)
    compute(request.a, cache=cache)  # run A was shown in explore: the pair reads it
    result = compute(request, cache=cache).result
    assert cache.stats() == {"hits": 1, "computed": 3}  # A, then the pair: A read, B and the pair computed
    data = datasets.load("strip", 300, random_state=0)
    Y_a = algorithms.embed("isomap", data.X, n_neighbors=8)
    Y_b = algorithms.embed("ltsa", data.X, n_neighbors=8)
    expected = measures.similarity_procrustes(Y_a, Y_b)
    assert result.distance == pytest.approx(expected.distance, rel=1e-10)
    np.testing.assert_allclose(result.displacement, expected.displacement, rtol=1e-8, atol=1e-12)
    assert result.summary_a["normalized"][0] == pytest.approx(measures.procrustes(data.X, Y_a, 8), rel=1e-10)
    # LTSA's unit-norm output is scaled up onto Isomap's (GR Table 2 scales).
    assert result.scale > 10
    # Kept whole in the cache, read back equal.
    compute(request, cache=cache)
    again, cached = compute(request, cache=cache)
    assert cached and again.distance == result.distance and again.label_b == result.label_b
    np.testing.assert_array_equal(again.local_conformal, result.local_conformal)


def test_a_run_paired_with_itself_has_distance_and_displacement_zero(cache):
    result = compute(PairRequest.from_state(strip_state(algorithm=None)), cache=cache).result
    assert result.distance == 0.0 and not result.displacement.any() and result.scale == 1.0
    assert np.nanmax(np.abs(result.local_conformal)) < 1e-12


def test_two_random_states_rerun_the_algorithm_on_the_same_points(cache, monkeypatch):
    seeds = []
    embed = algorithms.embed

    def recording(name, X, **options):
        seed = options["random_state"]
        seeds.append((seed, X.copy()))
        # A stand-in whose output depends on the seed (many algorithms here do not, on a strip).
        return embed(name, X, **options) + 0.05 * np.random.default_rng(seed).normal(size=(len(X), 2))

    monkeypatch.setattr(algorithms, "embed", recording)
    state = ViewState(data=DataChoice("strip", n=200, random_state=2), method=MethodChoice("pca", 10),
                      pair=PairChoice(algorithm=None, random_state=5)).validated()
    request = PairRequest.from_state(state)
    assert request.a.data == request.b.data and request.b.method.random_state == 5
    assert "random state 5" in request.b.describe()
    result = compute(request, cache=cache).result
    (seed_a, X_a), (seed_b, X_b) = seeds
    assert (seed_a, seed_b) == (2, 5)  # A: the data's random state; B: its own, on the very same points
    np.testing.assert_array_equal(X_a, X_b)
    assert 0.0 < result.distance < 0.01


def test_runs_on_different_points_cannot_be_paired():
    a = RunRequest.create("strip", "pca", n=100)
    with pytest.raises(StateError, match="the same points"):
        PairRequest(a, RunRequest.create("strip", "pca", n=100, random_state=1))


def test_run_b_keeps_a_s_settings_unless_changed_and_its_k_is_checked():
    state = ViewState(method=MethodChoice("lle", 12, (("reg", 0.01),), rescale="unit_norm"),
                      pair=PairChoice(algorithm=None, n_neighbors=6)).validated()
    method = PairRequest.from_state(state).b.method
    assert (method.algorithm, method.n_neighbors, method.kwargs["reg"], method.rescale) == (
        "lle", 6, 0.01, "unit_norm")
    with pytest.raises(StateError, match="HLLE"):
        ViewState(method=MethodChoice("isomap", 4), pair=PairChoice(algorithm="hlle")).validated()


def test_a_selection_summary_and_the_colourings_read_the_pair_s_values(cache):
    result = compute(PairRequest.from_state(strip_state(algorithm="pca")), cache=cache).result
    rows = np.argsort(result.displacement)[-10:]
    line = selection_summary(result, rows)
    assert line.startswith("10 points selected") and f"{result.displacement[rows].mean():.4g}" in line
    values, title = pair_coloring(result, "local_conformal", rows)
    assert title == "local R_C between the runs"
    np.testing.assert_array_equal(values, result.local_conformal[rows])
    assert pair_coloring(result, "truth-1")[1] == result.truth_labels[1]
