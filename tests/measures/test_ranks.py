"""Tests of ``measures/ranks.py``: neighbourhood agreement (1 - M_LC), trustworthiness, continuity."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.manifold import trustworthiness as sklearn_trustworthiness

import measures.chunks
from measures import (
    MeasureError,
    continuity,
    mrre,
    nearest_neighbors,
    neighbourhood_agreement,
    trustworthiness,
)


def noisy_projection(n_samples, n_features, n_components, seed, noise=0.5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features))
    return X, X[:, :n_components] + noise * rng.normal(size=(n_samples, n_components))


# ---------------------------------------------------------------- against scikit-learn


@pytest.mark.parametrize("n_samples, n_features, n_components, n_neighbors",
                         [(300, 3, 2, 5), (500, 10, 2, 12), (200, 3, 3, 20), (400, 64, 2, 7), (120, 2, 1, 1)])
@pytest.mark.parametrize("seed", [0, 1])
def test_trustworthiness_equals_scikit_learn(n_samples, n_features, n_components, n_neighbors, seed):
    X, Y = noisy_projection(n_samples, n_features, n_components, seed)
    ours = trustworthiness(X, Y, n_neighbors)
    assert ours == pytest.approx(sklearn_trustworthiness(X, Y, n_neighbors=n_neighbors), abs=1e-12)
    assert 0.5 < ours < 1.0


@pytest.mark.parametrize("seed", [0, 1])
def test_continuity_is_trustworthiness_with_roles_swapped(seed, swiss_roll):
    X, _, raw_chart = swiss_roll(600, seed)
    Y = raw_chart + np.random.default_rng(seed).normal(size=raw_chart.shape)
    assert continuity(X, Y, 10) == pytest.approx(sklearn_trustworthiness(Y, X, n_neighbors=10), abs=1e-12)
    assert continuity(X, Y, 10) == trustworthiness(Y, X, 10)
    assert continuity(X, Y, 10) != trustworthiness(X, Y, 10)


def test_per_point_values_average_to_the_scalar():
    X, Y = noisy_projection(300, 4, 2, seed=2)
    for measure in (trustworthiness, continuity, neighbourhood_agreement):
        mean, values = measure(X, Y, 6, per_point=True)
        assert values.shape == (300,)
        assert mean == pytest.approx(values.mean(), abs=1e-14)
        assert measure(X, Y, 6) == mean


# ---------------------------------------------------------------- cases worked by hand, invariants


def test_trustworthiness_five_points_worked_by_hand():
    # x = 0, 1, 3, 7, 15 (no tied distances), y = 0, 5, 1, 13, 6, k = 1.
    # Output nearest neighbours: 0 -> 2, 1 -> 4, 2 -> 0, 3 -> 4, 4 -> 1.
    # Input ranks r(i, j): r(0,2) = 2 (1 closer), r(1,4) = 4, r(2,0) = 2 (1 closer), r(3,4) = 4,
    # r(4,1) = 3 (3 and 2 closer). Penalties r - k: 1 + 3 + 1 + 3 + 2 = 10.
    # T = 1 - 2/(n k (2n - 3k - 1)) * 10 = 1 - 2/(5 * 6) * 10 = 1/3; per point 1 - p_i/3.
    X = np.array([0.0, 1.0, 3.0, 7.0, 15.0])[:, None]
    Y = np.array([0.0, 5.0, 1.0, 13.0, 6.0])[:, None]
    mean, values = trustworthiness(X, Y, 1, per_point=True)
    assert mean == pytest.approx(1.0 / 3.0, abs=1e-15)
    np.testing.assert_allclose(values, [2 / 3, 0.0, 2 / 3, 0.0, 1 / 3], atol=1e-15)
    assert sklearn_trustworthiness(X, Y, n_neighbors=1) == pytest.approx(1.0 / 3.0, abs=1e-15)


def test_neighbourhood_agreement_worked_by_hand():
    # Same points, k = 1. Input nearest neighbours: 0 -> 1, 1 -> 0, 2 -> 1, 3 -> 2, 4 -> 3;
    # output ones as above: 0 -> 2, 1 -> 4, 2 -> 0, 3 -> 4, 4 -> 1. No pair agrees: 1 - M_LC = 1.
    # With y = 0, 1, 3, 15, 7 (points 3 and 4 swapped): output 0 -> 1, 1 -> 0, 2 -> 1 agree;
    # 3 -> 4 (distance 8) and 4 -> 2 (distance 4) do not: per point 0, 0, 0, 1, 1, mean 2/5.
    X = np.array([0.0, 1.0, 3.0, 7.0, 15.0])[:, None]
    assert neighbourhood_agreement(X, np.array([0.0, 5.0, 1.0, 13.0, 6.0])[:, None], 1) == 1.0
    mean, values = neighbourhood_agreement(X, np.array([0.0, 1.0, 3.0, 15.0, 7.0])[:, None], 1, per_point=True)
    assert values.tolist() == [0.0, 0.0, 0.0, 1.0, 1.0] and mean == pytest.approx(0.4, abs=1e-15)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_similarity_maps_keep_every_neighbour(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(200, 3))
    rotation = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    Y = 4.0 * X @ rotation + 2.0
    assert trustworthiness(X, Y, 7) == 1.0 and continuity(X, Y, 7) == 1.0
    assert neighbourhood_agreement(X, Y, 7) == 0.0


def test_shuffled_output_scores_near_chance():
    # A random permutation: agreement ~ k/n, trustworthiness ~ 0.5 (Venna & Kaski's chance level).
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(400, 2))
    Y = X[rng.permutation(400)]
    assert neighbourhood_agreement(X, Y, 10) > 0.95
    assert 0.4 < trustworthiness(X, Y, 10) < 0.6 and 0.4 < continuity(X, Y, 10) < 0.6


def test_normalization_disturbs_ranks_as_nq_section_iii_a_shows():
    # NQ §III-A: normalizing the rectangle [-2, 2] x [-1, 1] changes neighbourhoods (NQ: 60 % overlap
    # at the origin), though the embedding is an exact linear map.
    rng = np.random.default_rng(0)
    X = rng.uniform(-1.0, 1.0, size=(100, 2)) * [2.0, 1.0]
    Y = (X - X.mean(axis=0)) / X.std(axis=0)
    assert 0.05 < neighbourhood_agreement(X, Y, 10) < 0.6
    assert trustworthiness(X, Y, 10) < 1.0


# ---------------------------------------------------------------- implementation details, errors


def test_ranks_match_a_brute_force_rank_loop():
    # Oracle: the full distance matrix, one stable argsort per row, the rank read off directly.
    X, Y = noisy_projection(150, 5, 2, seed=4)
    k = 6
    distances = cdist(X, X)
    np.fill_diagonal(distances, np.inf)
    order = np.argsort(distances, axis=1, kind="stable")
    ranks = np.empty_like(order)
    ranks[np.arange(150)[:, None], order] = np.arange(1, 151)
    output_neighbors = nearest_neighbors(Y, k)[:, 1:]
    penalties = np.maximum(np.take_along_axis(ranks, output_neighbors, axis=1) - k, 0).sum(axis=1)
    _, values = trustworthiness(X, Y, k, per_point=True)
    np.testing.assert_allclose(values, 1.0 - penalties * 2.0 / (k * (2 * 150 - 3 * k - 1)), atol=1e-15)


def test_results_do_not_depend_on_chunk_size(monkeypatch):
    X, Y = noisy_projection(300, 3, 2, seed=5)
    rank_measures = (trustworthiness, continuity, neighbourhood_agreement)
    default = [measure(X, Y, 8, per_point=True)[1] for measure in rank_measures]
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 3000)  # one row per chunk
    for measure, expected in zip(rank_measures, default):
        np.testing.assert_array_equal(measure(X, Y, 8, per_point=True)[1], expected)


def test_translated_input_far_from_the_origin_keeps_exact_ranks():
    # Squared distances come from one matrix product; centring first keeps |x|² + |y|² − 2x·y exact
    # enough for ranks when the data sit 1e6 away from the origin.
    X, Y = noisy_projection(300, 3, 2, seed=6)
    assert trustworthiness(X + 1e6, Y, 8) == trustworthiness(X, Y, 8)
    assert continuity(X, Y - 1e6, 8) == continuity(X, Y, 8)


def test_bad_neighbour_count_raises():
    X, Y = noisy_projection(20, 3, 2, seed=7)
    with pytest.raises(MeasureError,
                       match=r"n_neighbors must be an integer in \[1, 9\]; got 10\. .*n_samples / 2 = 10\.0"):
        trustworthiness(X, Y, 10)
    with pytest.raises(MeasureError, match=r"got 0\. .*n_samples / 2 = 10\.0"):
        continuity(X, Y, 0)
    with pytest.raises(MeasureError, match=r"n_neighbors must be an integer in \[1, "):
        neighbourhood_agreement(X, Y, 20)
    with pytest.raises(MeasureError, match=r"same number of rows"):
        trustworthiness(X, Y[:10], 3)


# ---------------------------------------------------------------- scikit-learn's tie rule (issue 15)


def tie_cases():
    """Integer-valued inputs full of equal distances, and one without: (name, X, Y)."""
    from sklearn.datasets import load_digits
    from sklearn.decomposition import PCA

    # 500 of the 1 797 images: ties as dense (integer pixels), a twelfth of the quadratic cost. Scikit-learn's
    # tie order replaced by the index order, or its neighbour sets by ours, fails every digits case at each
    # k here, as at 1 797.
    digits = load_digits().data[:500]
    rng = np.random.default_rng(0)
    lattice = np.stack(np.meshgrid(np.arange(30), np.arange(20)), -1).reshape(-1, 2).astype(float)
    grid = np.vstack([lattice, lattice[::7]])  # 86 points twice
    random = rng.normal(size=(800, 5))
    return [
        ("digits", digits, PCA(2).fit_transform(digits)),
        ("digits, rounded output", digits, np.round(PCA(2).fit_transform(digits))),
        ("grid with duplicates", grid, grid[:, ::-1] + np.round(rng.normal(size=grid.shape))),
        ("grid with duplicates, swapped axes", grid, grid[:, ::-1]),
        ("random", random, random[:, :2] + 0.3 * rng.normal(size=(800, 2))),
    ]


@pytest.mark.parametrize("n_neighbors", [5, 10, 12])
def test_ties_are_broken_as_scikit_learn_breaks_them(n_neighbors):
    # Ranks among equidistant points follow numpy's default (unstable) argsort of the row, output
    # neighbour sets scikit-learn's NearestNeighbors: the values are equal, not merely close.
    for name, X, Y in tie_cases():
        assert trustworthiness(X, Y, n_neighbors) == sklearn_trustworthiness(X, Y, n_neighbors=n_neighbors), name
        assert continuity(X, Y, n_neighbors) == sklearn_trustworthiness(Y, X, n_neighbors=n_neighbors), name


# ---------------------------------------------------------------- MRRE (issue 14)


def naive_mrre(X, Y, k):
    """Oracle: full rank matrices by a stable argsort (self first, ties by index), Lee & Verleysen's
    W_n (output neighbours ranked in the input) and W_v, per point."""
    n = len(X)

    def ranks(points):
        distances = cdist(points, points)
        np.fill_diagonal(distances, -np.inf)
        order = np.argsort(distances, axis=1, kind="stable")
        rank = np.empty_like(order)
        rank[np.arange(n)[:, None], order] = np.arange(n)[None, :]
        return order[:, 1:k + 1], rank

    c = sum(abs(n - 2 * r + 1) / r for r in range(1, k + 1))
    x_neighbors, x_rank = ranks(X)
    y_neighbors, y_rank = ranks(Y)
    rows = np.arange(n)[:, None]
    false = (np.abs(x_rank[rows, y_neighbors] - y_rank[rows, y_neighbors]) / y_rank[rows, y_neighbors]).sum(1) / c
    missing = (np.abs(y_rank[rows, x_neighbors] - x_rank[rows, x_neighbors]) / x_rank[rows, x_neighbors]).sum(1) / c
    return false, missing


@pytest.mark.parametrize("case", ["random", "grid with duplicates"])
@pytest.mark.parametrize("n_neighbors", [3, 10])
def test_mrre_matches_a_full_rank_oracle(case, n_neighbors):
    rng = np.random.default_rng(16)
    if case == "random":
        X = rng.normal(size=(300, 4))
        Y = X[:, :2] + 0.3 * rng.normal(size=(300, 2))
    else:
        lattice = np.stack(np.meshgrid(np.arange(15), np.arange(12)), -1).reshape(-1, 2).astype(float)
        X = np.vstack([lattice, lattice[::5]])
        Y = X[:, ::-1] + np.round(rng.normal(size=X.shape))
    false, missing = naive_mrre(X, Y, n_neighbors)
    mean, values = mrre(X, Y, n_neighbors, per_point=True)
    np.testing.assert_allclose(values, false, rtol=1e-13, atol=1e-15)
    assert mean == pytest.approx(false.mean(), rel=1e-13)
    np.testing.assert_allclose(mrre(X, Y, n_neighbors, direction="missing", per_point=True)[1], missing,
                               rtol=1e-13, atol=1e-15)


def test_mrre_bad_direction_raises():
    X = np.random.default_rng(17).normal(size=(30, 2))
    with pytest.raises(MeasureError, match="direction must be 'false' or 'missing'; got 'both'"):
        mrre(X, X, 3, direction="both")
