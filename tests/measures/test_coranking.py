"""The co-ranking curves against a brute-force co-ranking matrix written from Lee & Verleysen's definition (n = 60 to
2 000), and trustworthiness and continuity against the same matrix's counts."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from measures import MeasureError, auc_rnx, auc_rnx_rows, auc_rnx_values, coranking_curves, evaluate
from measures import coranking as coranking_module
from measures import continuity, neighbourhood_agreement, trustworthiness


def brute_force_matrix(X, Y):
    """Q[k - 1, l - 1] = |{(i, j): ρ_ij = k, r_ij = l}|, every rank the position of j in a full sort of
    row i's distances (the points are random: no distances tie)."""
    n = len(X)
    rows = np.arange(n)[:, None]

    def ranks(points):
        distances = cdist(points, points)
        np.fill_diagonal(distances, np.inf)  # the point itself sorts last, rank n: dropped below
        result = np.empty((n, n), dtype=np.int64)
        result[rows, np.argsort(distances, axis=1, kind="stable")] = np.arange(1, n + 1)
        return result

    rho, r = ranks(X), ranks(Y)
    off_diagonal = ~np.eye(n, dtype=bool)
    cells = (rho[off_diagonal] - 1) * (n - 1) + (r[off_diagonal] - 1)
    return np.bincount(cells, minlength=(n - 1) ** 2).reshape(n - 1, n - 1)


def upper_left_sums(Q):
    """``S[K - 1] = sum of Q[:K, :K]`` for K = 1 … n - 1, from prefix sums of the rows and columns."""
    return np.diagonal(Q.cumsum(axis=0).cumsum(axis=1))


def curves_from_matrix(Q):
    n = Q.shape[0] + 1
    K = np.arange(1, n - 1)
    Q_NX = upper_left_sums(Q)[:-1] / (K * n)
    intrusions = upper_left_sums(np.tril(Q, -1))[:-1]
    extrusions = upper_left_sums(np.triu(Q, 1))[:-1]
    R_NX = ((n - 1) * Q_NX - K) / (n - 1 - K)
    return Q_NX, R_NX, (intrusions - extrusions) / (K * n), Q_NX - K / (n - 1)


def trustworthiness_from_matrix(Q, K):
    """Venna & Kaski's T(K) from the co-ranking matrix: each pair an output neighbour (r <= K) whose input
    rank ρ = k passes K costs k - K (Lee & Verleysen 2009, Sec. 3)."""
    n = Q.shape[0] + 1
    k = np.arange(1, n)
    penalty = np.sum((k[K:, None] - K) * Q[K:, :K])
    return 1.0 - 2.0 / (n * K * (2 * n - 3 * K - 1)) * penalty


@pytest.mark.parametrize("n, seed", [(60, 0), (300, 2), (1000, 6), (2000, 7)])
def test_curves_equal_the_brute_force_co_ranking_matrix(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    Y = X[:, :2] + 0.3 * rng.normal(size=(n, 2))  # a lossy output: every curve away from its bounds
    curves = coranking_curves(X, Y)
    Q = brute_force_matrix(X, Y)
    for computed, expected in zip((curves.Q_NX, curves.R_NX, curves.B_NX, curves.LCMC), curves_from_matrix(Q)):
        np.testing.assert_allclose(computed, expected, rtol=0, atol=1e-12)
    weights = 1.0 / curves.K
    assert auc_rnx(X, Y) == pytest.approx(np.dot(curves.R_NX, weights) / weights.sum(), abs=1e-12)
    # The same counts give trustworthiness and, transposed, continuity: our rank-count kernels agree.
    for K in (5, 12, n // 4):
        assert trustworthiness(X, Y, K) == pytest.approx(trustworthiness_from_matrix(Q, K), abs=1e-12)
        assert continuity(X, Y, K) == pytest.approx(trustworthiness_from_matrix(Q.T, K), abs=1e-12)


def test_row_blocks_do_not_change_the_counts(monkeypatch):
    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=(200, 3)), rng.normal(size=(200, 2))
    whole = coranking_curves(X, Y)
    monkeypatch.setattr(coranking_module, "chunk_slices",
                        lambda n, size: (slice(i, min(i + 7, n)) for i in range(0, n, 7)))
    np.testing.assert_array_equal(coranking_curves(X, Y).Q_NX, whole.Q_NX)


def test_q_nx_at_k_is_one_minus_the_neighbourhood_disagreement():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 3))
    Y = X[:, [0, 2]] + 0.1 * rng.normal(size=(400, 2))
    curves = coranking_curves(X, Y, max_rank=20)
    for k in (5, 10, 20):
        assert curves.Q_NX[k - 1] == pytest.approx(1.0 - neighbourhood_agreement(X, Y, k), abs=1e-12)


def test_a_random_output_scores_about_zero_and_a_similar_one_exactly_one():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(800, 3))
    assert abs(auc_rnx(X, rng.normal(size=(800, 2)))) < 0.02  # R_NX's baseline: a random output's expected 0
    similar = coranking_curves(X, 2.5 * X @ np.linalg.qr(rng.normal(size=(3, 3)))[0] + 7.0)
    assert np.all(similar.Q_NX == 1.0) and np.all(similar.R_NX == 1.0) and np.all(similar.B_NX == 0.0)


def test_four_points_on_a_line_worked_by_hand():
    """Input 0, 1, 3, 7 and output 0, 2, 3, 7 on a line. Only point 1's ranks change: its neighbours 0
    and 2 (ranks 1, 2) swap to 2, 1. At K = 1 three points keep their nearest: Q_NX = 3/4,
    R_NX = (3 * 3/4 - 1) / (3 - 1) = 5/8; at K = 2 every pair of ranks <= 2 stays within 2: Q_NX = 1,
    and point 1's swap is one intrusion and one extrusion: B_NX = 0."""
    curves = coranking_curves(np.array([[0.0], [1.0], [3.0], [7.0]]), np.array([[0.0], [2.0], [3.0], [7.0]]))
    np.testing.assert_array_equal(curves.Q_NX, [0.75, 1.0])
    np.testing.assert_array_equal(curves.R_NX, [0.625, 1.0])
    np.testing.assert_array_equal(curves.B_NX, [0.0, 0.0])
    np.testing.assert_allclose(curves.LCMC, [0.75 - 1 / 3, 1.0 - 2 / 3], rtol=0, atol=1e-15)
    # Each point's own area, weights 1 and 1/2: point 1 keeps no neighbour at K = 1, R = (0 - 1) / 2, and
    # both at K = 2, R = 1: (-1/2 + 1/2) / (3/2) = 0; the others keep theirs at both scales: 1. Mean 3/4,
    # the area of the curves above: (5/8 + 1/2) / (3/2).
    np.testing.assert_allclose(auc_rnx_values(np.array([[0.0], [1.0], [3.0], [7.0]]),
                                              np.array([[0.0], [2.0], [3.0], [7.0]])), [1, 0, 1, 1], rtol=0, atol=1e-15)


@pytest.mark.parametrize("max_rank", [0, 99, 2.5, True])
def test_a_scale_outside_one_to_n_minus_two_is_refused(max_rank):
    X = np.random.default_rng(6).normal(size=(50, 3))
    with pytest.raises(MeasureError, match=r"max_rank must .*defined up to K = n - 2"):
        coranking_curves(X, X[:, :2], max_rank=max_rank)


def test_each_point_s_area_is_its_own_row_of_the_brute_force_ranks():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(120, 3))
    Y = X[:, :2] + 0.4 * rng.normal(size=(120, 2))
    n = 120

    def ranks(points):
        distances = cdist(points, points)
        np.fill_diagonal(distances, np.inf)
        return np.argsort(np.argsort(distances, axis=1, kind="stable"), axis=1) + 1

    rho, r = ranks(X), ranks(Y)
    K = np.arange(1, n - 1)
    kept = np.array([[np.sum((rho[i] <= k) & (r[i] <= k)) for k in K] for i in range(n)])  # c_i(K), plainly
    expected = (((n - 1) * kept / K - K) / (n - 1 - K) / K).sum(axis=1) / (1.0 / K).sum()
    values = auc_rnx_values(X, Y)
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)
    rows = np.array([5, 0, 119, 5])
    np.testing.assert_array_equal(auc_rnx_values(X, Y, rows), values[rows])
    for bad in (np.array([120]), np.array([-1]), np.array([0.5]), np.zeros((2, 2), int)):
        with pytest.raises(MeasureError, match=r"rows must be a 1-D array of point indices in \[0, 120\)"):
            auc_rnx_values(X, Y, bad)


def test_a_large_run_s_auc_is_a_seeded_sample_within_its_stated_standard_error():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(2500, 3))
    Y = X[:, :2] + 0.3 * rng.normal(size=(2500, 2))
    rows = auc_rnx_rows(2500, random_state=3)
    assert auc_rnx_rows(2000) is None and rows.size == 1600 and np.array_equal(rows, auc_rnx_rows(2500, 3))
    assert auc_rnx_rows(100_000).size == 200  # AUC_MIN_ROWS
    result = evaluate(X, Y, 10, which=["auc_rnx"], random_state=3)
    drawn = result.per_point["auc_rnx"][rows]
    assert np.isnan(result.per_point["auc_rnx"]).sum() == 2500 - 1600 and not np.isnan(drawn).any()
    assert result.mean["auc_rnx"] == drawn.mean() and result.notes == ()
    error = drawn.std(ddof=1) / np.sqrt(1600) * np.sqrt(1 - 1600 / 2500)
    assert result.approximations["auc_rnx"].endswith(f"standard error {error:.1g}.")
    assert abs(result.mean["auc_rnx"] - auc_rnx(X, Y)) < 4 * error
