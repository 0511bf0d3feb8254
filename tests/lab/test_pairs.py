"""Two embeddings aligned: exact on similarity images (reflections too), equal to scipy's Procrustes
disparity and to R_C of one all-points neighbourhood, optimal, and the pairs tab's request end to end."""

import numpy as np
import pytest
import scipy.spatial
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms
import datasets
import measures
from lab import ResultCache, RunRequest, StateError, ViewState, compute_run
from lab.pairs import (
    PairRequest,
    align,
    compare_outputs,
    compute_pair,
    pair_coloring,
    selection_summary,
)
from lab.state import DataChoice, MethodChoice, PairChoice


def orthogonal(rng, d, reflect):
    """A random d x d orthogonal matrix with determinant -1 (a reflection) or +1."""
    Q, R = np.linalg.qr(rng.normal(size=(d, d)))
    Q = Q * np.sign(np.diag(R))
    if (np.linalg.det(Q) < 0) != reflect:
        Q[:, 0] *= -1
    return Q


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), extra=st.integers(0, 80), d=st.integers(1, 4), reflect=st.booleans(),
       log_scale=st.floats(-3.0, 3.0), shift=st.floats(-1e3, 1e3))
def test_a_similarity_image_aligns_exactly_with_distance_and_displacement_zero(seed, extra, d, reflect, log_scale,
                                                                              shift):
    # d + 2 points or more: the centred A spans its d dimensions, so the transform (and whether it
    # reflects) is unique.
    n = d + 2 + extra
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, d)) * rng.uniform(0.1, 10.0)
    Q = orthogonal(rng, d, reflect) if d > 1 else np.array([[-1.0 if reflect else 1.0]])
    scale = 10.0**log_scale
    B = scale * A @ Q + shift * rng.normal(size=d)
    fit = align(A, B)
    radius = np.sqrt(np.mean(np.sum((A - A.mean(axis=0)) ** 2, axis=1)))
    # Exact to the precision the coordinates carry: a shift large against the spread leaves fewer
    # correct digits in the centred points (rounding of |B| over B's radius).
    radius_b = np.sqrt(np.mean(np.sum((B - B.mean(axis=0)) ** 2, axis=1)))
    resolution = 100 * np.finfo(float).eps * (np.abs(A).max() / radius + np.abs(B).max() / radius_b)
    assert fit.distance <= resolution**2
    assert fit.displacement.max() <= resolution * radius
    np.testing.assert_allclose(fit.aligned, A, atol=resolution * radius)
    assert fit.scale == pytest.approx(1.0 / scale, rel=resolution)
    assert fit.reflection == reflect
    # The transform maps B's points onto A's (and so any other point of B's space the same way).
    np.testing.assert_allclose(fit.transform(B), A, atol=resolution * radius)


@pytest.mark.parametrize("d", [2, 3])
def test_a_mirror_image_is_undone_by_a_reflection_not_a_rotation(d):
    rng = np.random.default_rng(d)
    A = rng.normal(size=(30, d))
    mirror = np.diag([-1.0] + [1.0] * (d - 1))
    fit = align(A, A @ mirror)
    assert fit.reflection and fit.distance < 1e-28
    np.testing.assert_allclose(fit.rotation, mirror, atol=1e-12)
    # A rotation alone cannot undo it: the best proper rotation leaves a residual.
    assert align(A, A @ mirror @ orthogonal(rng, d, reflect=True)).reflection is False


def test_the_distance_is_scipy_s_procrustes_disparity_and_symmetric():
    rng = np.random.default_rng(7)
    for _ in range(20):
        A, B = rng.normal(size=(40, 2)), rng.normal(size=(40, 2))
        B[:20] = 2.0 * A[:20] + rng.normal(scale=0.2, size=(20, 2))  # partly similar
        _, _, disparity = scipy.spatial.procrustes(A, B)
        assert align(A, B).distance == pytest.approx(disparity, rel=1e-10)
        assert align(B, A).distance == pytest.approx(align(A, B).distance, rel=1e-10)


def test_the_distance_is_r_c_of_one_neighbourhood_holding_every_point():
    """The kernel's conformal statistic (GR Eq. 7) with all points as one neighbourhood is 1 - nu^2."""
    rng = np.random.default_rng(3)
    A, B = rng.normal(size=(25, 3)), rng.normal(size=(25, 2))
    everything = np.arange(25)[None, :]
    assert align(A, B).distance == pytest.approx(measures.local_procrustes(A, B, everything).conformal[0], rel=1e-12)


def test_the_alignment_is_optimal_against_perturbed_transforms():
    rng = np.random.default_rng(11)
    A = rng.normal(size=(60, 2))
    B = 0.3 * A @ orthogonal(rng, 2, True) + rng.normal(scale=0.1, size=(60, 2))
    fit = align(A, B)
    best = np.sum((A - fit.aligned) ** 2)
    angle = 1e-3
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    for scale, rotation, shift in ((1.001, np.eye(2), 0.0), (0.999, np.eye(2), 0.0), (1.0, turn, 0.0),
                                   (1.0, turn.T, 0.0), (1.0, np.eye(2), 1e-3)):
        moved = fit.scale * scale * B @ fit.rotation @ rotation + fit.translation + shift
        assert np.sum((A - moved) ** 2) > best


def test_root_mean_square_displacement_over_a_s_radius_is_the_square_root_of_the_distance():
    rng = np.random.default_rng(5)
    A, B = rng.normal(size=(50, 2)), rng.normal(size=(50, 2))
    fit = align(A, B)
    radius = np.sqrt(np.mean(np.sum((A - A.mean(axis=0)) ** 2, axis=1)))
    assert np.sqrt(np.mean(fit.displacement**2)) / radius == pytest.approx(np.sqrt(fit.distance), rel=1e-12)


def test_outputs_of_different_dimensions_are_compared_in_the_larger_space():
    rng = np.random.default_rng(2)
    A = rng.normal(size=(30, 2))
    B = 4.0 * np.c_[A, np.zeros(30)] @ orthogonal(rng, 3, reflect=False) + 1.0  # A placed in 3-D
    fit = align(A, B)
    assert fit.aligned.shape == (30, 3) and fit.distance < 1e-24
    np.testing.assert_allclose(fit.aligned, np.c_[A, np.zeros(30)], atol=1e-10)


def test_bad_inputs_get_typed_messages():
    A = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(measures.MeasureError, match="same number of rows"):
        align(A, A[:9])
    with pytest.raises(measures.MeasureError, match="B puts every point at one place"):
        align(A, np.full((10, 2), 0.3))
    with pytest.raises(measures.MeasureError, match="NaN"):
        align(A, np.where(np.eye(10, 2) > 0, np.nan, A))


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
    rng = np.random.default_rng(4)
    data = datasets.load("strip", 300, random_state=0)
    A = data.truth
    B = 2.0 * A @ orthogonal(rng, 2, reflect=True)
    bent = A[:, 0] > 4.0  # B bends one end of the strip: a quadratic fold there
    B[bent] += np.c_[np.zeros(bent.sum()), 0.5 * (A[bent, 0] - 4.0) ** 2] @ orthogonal(rng, 2, reflect=True)
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
    cache.get_or_compute(request.a, compute_run)  # run A was shown in explore: the pair reads it
    result = compute_pair(request, cache)
    assert cache.stats() == {"hits": 1, "computed": 2}
    data = datasets.load("strip", 300, random_state=0)
    Y_a = algorithms.embed("isomap", data.X, n_neighbors=8)
    Y_b = algorithms.embed("ltsa", data.X, n_neighbors=8)
    expected = align(Y_a, Y_b)
    assert result.distance == pytest.approx(expected.distance, rel=1e-10)
    np.testing.assert_allclose(result.displacement, expected.displacement, rtol=1e-8, atol=1e-12)
    assert result.summary_a["normalized"][0] == pytest.approx(measures.procrustes(data.X, Y_a, 8), rel=1e-10)
    # LTSA's unit-norm output is scaled up onto Isomap's (GR Table 2 scales).
    assert result.scale > 10
    # Kept whole in the cache, read back equal.
    cache.get_or_compute(request, lambda chosen: compute_pair(chosen, cache))
    again, cached = cache.get_or_compute(request, lambda chosen: compute_pair(chosen, cache))
    assert cached and again.distance == result.distance and again.label_b == result.label_b
    np.testing.assert_array_equal(again.local_conformal, result.local_conformal)


def test_a_run_paired_with_itself_has_distance_and_displacement_zero(cache):
    result = compute_pair(PairRequest.from_state(strip_state(algorithm=None)), cache)
    assert result.distance == 0.0 and not result.displacement.any() and result.scale == 1.0
    assert np.nanmax(np.abs(result.local_conformal)) < 1e-12


def test_two_random_states_rerun_the_algorithm_on_the_same_points(cache, monkeypatch):
    seeds = []
    embed = algorithms.embed

    def recording(name, X, **options):
        seed = options.get("random_state", options.get("seed"))  # embed's keyword, old or new
        seeds.append((seed, X.copy()))
        # A stand-in whose output depends on the seed (many algorithms here do not, on a strip).
        return embed(name, X, **options) + 0.05 * np.random.default_rng(seed).normal(size=(len(X), 2))

    monkeypatch.setattr(algorithms, "embed", recording)
    state = ViewState(data=DataChoice("strip", n=200, random_state=2), method=MethodChoice("pca", 10),
                      pair=PairChoice(algorithm=None, random_state=5)).validated()
    request = PairRequest.from_state(state)
    assert request.a.data == request.b.data and request.b.method.random_state == 5
    assert "random state 5" in request.b.describe()
    result = compute_pair(request, cache)
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
    result = compute_pair(PairRequest.from_state(strip_state(algorithm="pca")), cache)
    rows = np.argsort(result.displacement)[-10:]
    line = selection_summary(result, rows)
    assert line.startswith("10 points selected") and f"{result.displacement[rows].mean():.4g}" in line
    values, title = pair_coloring(result, "local_conformal", rows)
    assert title == "local R_C between the runs"
    np.testing.assert_array_equal(values, result.local_conformal[rows])
    assert pair_coloring(result, "truth-1")[1] == result.truth_labels[1]
