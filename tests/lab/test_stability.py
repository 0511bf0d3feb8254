"""Stability: runs aligned to their consensus, each point's spread; zero for identical runs, large where
an algorithm's output is ambiguous, and the study behind the pairs tab end to end."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms
import measures
from lab import ResultCache, StateError, ViewState
from lab.compute.choices import DataChoice, MethodChoice, OutputRef, UploadRef
from lab.compute.runs import output_of
from lab.compute import compute
from lab.compute.stability import StabilityRequest, StabilityResult, consensus
from lab.view.state import StabilityChoice


def similarity(rng, d=2):
    """A random similarity (reflection or not): ``points -> s points Q + t``."""
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    scale, shift = 10.0 ** rng.uniform(-2, 2), rng.normal(scale=100.0, size=d)
    return lambda points: scale * points @ Q + shift


def spread_oracle(aligned, rows, n_samples):
    """Each point's RMS distance to its mean position over the runs holding it, over the mean's RMS radius."""
    positions = [[] for _ in range(n_samples)]
    for values, held in zip(aligned, rows):
        for value, index in zip(values, held):
            positions[index].append(value)
    means = np.array([np.mean(p, axis=0) if p else np.full(aligned[0].shape[1], np.nan) for p in positions])
    radius = np.sqrt(np.nanmean(np.sum((means - np.nanmean(means, axis=0)) ** 2, axis=1)))
    return np.array([np.sqrt(np.mean(np.sum((np.array(p) - m) ** 2, axis=1))) / radius if len(p) >= 2 else np.nan
                     for p, m in zip(positions, means)])


def test_identical_runs_have_spread_exactly_zero():
    Y = np.random.default_rng(0).normal(size=(100, 2))
    fit = consensus([Y, Y.copy(), Y.copy()])
    assert fit.converged and np.all(fit.spread == 0.0) and np.all(fit.distances < 1e-28)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_runs=st.integers(2, 6))
def test_runs_equal_up_to_a_similarity_have_spread_zero(seed, n_runs):
    rng = np.random.default_rng(seed)
    Y = rng.normal(size=(40, 2))
    fit = consensus([similarity(rng)(Y) for _ in range(n_runs)])
    assert fit.converged and np.abs(fit.spread).max() < 1e-9


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_spread_does_not_depend_on_the_pose_or_scale_of_any_run(seed):
    rng = np.random.default_rng(seed)
    Y = rng.normal(size=(60, 2))
    runs = [Y + rng.normal(scale=0.2, size=Y.shape) for _ in range(4)]
    moved = [similarity(rng)(run) for run in runs]
    np.testing.assert_allclose(consensus(moved).spread, consensus(runs).spread, rtol=1e-7, atol=1e-10)


def test_a_perturbed_region_spreads_and_the_rest_stays_put():
    rng = np.random.default_rng(1)
    Y = rng.uniform(-1, 1, size=(300, 2))
    unstable = Y[:, 0] > 0.6
    runs = []
    for _ in range(6):
        run = Y.copy()
        run[unstable] += rng.normal(scale=0.3, size=(unstable.sum(), 2))
        runs.append(similarity(rng)(run))
    fit = consensus(runs)
    assert fit.converged
    assert np.median(fit.spread[unstable]) > 5 * np.median(fit.spread[~unstable])


def test_the_consensus_is_a_fixed_point_and_the_spread_its_definition():
    """At convergence every run is already its best fit to the consensus, and the spread is the formula."""
    rng = np.random.default_rng(2)
    Y = rng.normal(size=(80, 2))
    rows = [np.sort(rng.choice(80, 60, replace=False)) for _ in range(5)]
    runs = [similarity(rng)(Y[held] + rng.normal(scale=0.1, size=(60, 2))) for held in rows]
    fit = consensus(runs, rows, n_samples=80)
    assert fit.converged
    for values, held in zip(fit.aligned, rows):
        refit = measures.similarity_procrustes(fit.consensus[held], values)
        np.testing.assert_allclose(refit.rotation, np.eye(2), atol=1e-8)
    expected = spread_oracle(fit.aligned, rows, 80)
    np.testing.assert_allclose(fit.spread, expected, rtol=1e-9, equal_nan=True)
    assert np.array_equal(np.isnan(fit.spread), fit.counts < 2)
    consensus_radius = np.sqrt(np.nanmean(np.sum(fit.consensus**2, axis=1)))
    assert consensus_radius == pytest.approx(1.0) and np.allclose(np.nanmean(fit.consensus, axis=0), 0.0)


def test_a_symmetric_ambiguity_shows_as_spread_where_the_choice_matters():
    """PCA of a slab whose two minor axes have equal variance: each subsample picks its own second axis
    in the (v, w) plane, so points far from the long axis land differently run to run."""
    rng = np.random.default_rng(0)
    n = 600
    u, v, w = rng.uniform(-1, 1, size=(3, n))
    X = np.c_[5 * u, v, w]
    radius = np.hypot(v, w)
    rows = [np.sort(np.random.default_rng([0, run]).choice(n, 420, replace=False)) for run in range(8)]
    method = MethodChoice("pca", 10).validated()
    outputs = [output_of(X[held], method, random_state=0) for held in rows]
    fit = consensus(outputs, rows, n_samples=n)
    near, far = radius < 0.2, radius > 0.9
    defined = fit.counts >= 2
    assert np.median(fit.spread[far & defined]) > 4 * np.median(fit.spread[near & defined])


def strip_state(algorithm="isomap", **stability):
    return ViewState(data=DataChoice("strip", n=250), method=MethodChoice(algorithm, 10),
                     stability=StabilityChoice(**stability)).validated()


def test_reruns_of_a_deterministic_algorithm_over_random_states_have_spread_zero():
    request = StabilityRequest.from_state(strip_state("pca", mode="random_states", n_runs=4))
    assert request.fraction is None  # not part of the request (nor of its cache key)
    result = compute(request, cache=None).result
    assert result.random_states == (0, 1, 2, 3) and result.failed == 0
    assert np.all(result.spread == 0.0) and result.summary["mean spread"] == 0.0


def test_subsample_runs_hold_each_point_in_some_runs_and_name_their_seeds(tmp_path):
    request = StabilityRequest.from_state(strip_state(mode="subsamples", n_runs=5, fraction=0.6))
    plan = request.plan(250)
    assert [state for state, _ in plan] == [0] * 5 and all(len(held) == 150 for _, held in plan)
    assert len({tuple(held) for _, held in plan}) == 5  # five different subsamples, each seeded
    result = compute(request, cache=None).result
    counts = np.bincount(np.concatenate([held for _, held in plan]), minlength=250)
    np.testing.assert_array_equal(result.counts, counts)
    assert np.array_equal(np.isnan(result.spread), counts < 2)
    assert 0 < result.summary["median spread"] < 0.5
    # Kept whole in the result cache.
    cache = ResultCache(tmp_path)
    compute(request, cache=cache)
    again, cached = compute(request, cache=cache)
    assert cached and isinstance(again, StabilityResult)
    np.testing.assert_array_equal(again.spread, result.spread)


def test_a_failed_run_is_noted_and_the_others_still_count(monkeypatch):
    import lab.compute.stability

    calls = []

    def failing_second(points, method, *, random_state, uploaded=None, progress=None):
        calls.append(random_state)
        if len(calls) == 2:
            raise measures.EmbeddingError("the graph fell apart")
        return output_of(points, method, random_state=random_state)

    monkeypatch.setattr(lab.compute.stability, "output_of", failing_second)
    result = compute(StabilityRequest.from_state(strip_state("pca", n_runs=3)), cache=None).result
    assert result.failed == 1 and not result.cacheable and result.random_states == (0, 2)
    assert "Run 2 (random state 1) failed: the graph fell apart" in result.notes


def test_fewer_than_two_successful_runs_raise_the_first_failure(monkeypatch):
    import lab.compute.stability

    def failing(points, method, *, random_state, uploaded=None, progress=None):
        raise algorithms.SolverError(f"no luck with {random_state}")

    monkeypatch.setattr(lab.compute.stability, "output_of", failing)
    with pytest.raises(algorithms.SolverError, match="no luck with 0"):
        compute(StabilityRequest.from_state(strip_state("pca", n_runs=2)), cache=None).result


def test_an_uploaded_output_has_no_stability_to_study():
    upload = UploadRef("0" * 64, "points.csv", output=OutputRef(columns=(3, 4)))
    state = ViewState(data=DataChoice("upload", upload=upload), method=MethodChoice("uploaded")).validated()
    with pytest.raises(StateError, match="Stability reruns an algorithm"):
        StabilityRequest.from_state(state)


def test_consensus_refuses_too_few_runs_and_disjoint_subsamples():
    Y = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(measures.MeasureError, match="at least two runs"):
        consensus([Y])
    with pytest.raises(measures.MeasureError, match="names one twice"):
        consensus([Y, Y], [np.arange(10), np.r_[0, np.arange(9)]])
    with pytest.raises(measures.MeasureError, match="shares 0 points with the first run"):
        consensus([Y[:5], Y[5:]], [np.arange(5), np.arange(5, 10)])
