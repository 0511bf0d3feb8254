"""Tests of ``measures/distances.py``: stress, scale-normalized stress, KL divergence of density,
DEMaP's Spearman rho and random-triplet accuracy, against naive implementations written here."""

import importlib

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform
from scipy.stats import ortho_group, rankdata, spearmanr

from measures import (
    MeasureError,
    distance_spearman,
    evaluate,
    kl_divergence,
    residual_variance,
    scale_normalized_stress,
    stress,
    triplet_accuracy,
)

distances_module = importlib.import_module("measures.distances")
average_ranks = distances_module.average_ranks


def noisy_pair(n_samples, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, 4))
    return X, X[:, :2] @ [[1.0, 0.4], [0.2, 1.5]] + 0.2 * rng.normal(size=(n_samples, 2))


def test_stress_of_three_points_worked_by_hand():
    # Input distances 3, 4, 5 (a right triangle); output on a line 0, 3, 9: distances 3, 9, 6.
    X = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 4.0]])
    Y = np.array([[0.0], [3.0], [9.0]])
    # Pairs (0,1): 3 vs 3; (0,2): 5 vs 9; (1,2): 4 vs 6.
    assert stress(X, Y) == pytest.approx(np.sqrt((0 + 16 + 4) / (9 + 25 + 16)), rel=1e-15)
    alpha = (9 + 45 + 24) / (9 + 81 + 36)
    expected = np.sqrt(((3 - 3 * alpha) ** 2 + (5 - 9 * alpha) ** 2 + (4 - 6 * alpha) ** 2) / 50)
    assert scale_normalized_stress(X, Y) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stress_changes_with_the_output_scale_and_the_scale_normalized_one_does_not(seed):
    # Smelser, Miller & Kobourov (2024): "normalized" stress is not scale invariant.
    X, Y = noisy_pair(200, seed)
    stresses = [stress(X, factor * Y) for factor in (0.5, 1.0, 2.0)]
    assert len(set(np.round(stresses, 6))) == 3
    sns = [scale_normalized_stress(X, factor * Y) for factor in (0.5, 1.0, 2.0, 1e-100)]
    assert max(sns) - min(sns) < 1e-12
    # SNS is the minimum over the scale: no scale on a fine grid does better.
    grid = np.linspace(0.2, 3.0, 561)
    assert sns[1] <= min(stress(X, factor * Y) for factor in grid) + 1e-12
    assert sns[1] <= min(stresses)


def test_per_point_stress_sums_to_the_global_ratio():
    X, Y = noisy_pair(150, 3)
    value, per_point = stress(X, Y, per_point=True)
    dx, dy = squareform(pdist(X)), squareform(pdist(Y))
    np.testing.assert_allclose(per_point, np.sqrt(((dx - dy) ** 2).sum(1) / (dx**2).sum(1)), rtol=1e-12)
    assert value == pytest.approx(np.sqrt(((dx - dy) ** 2).sum() / (dx**2).sum()), rel=1e-13)


@pytest.mark.parametrize("sigma", [0.1, 0.5])
def test_kl_divergence_matches_its_definition_written_out(sigma):
    X, Y = noisy_pair(120, 4)

    def density(points):
        d = squareform(pdist(points))
        kernel = np.exp(-((d / d.max()) ** 2) / sigma).sum(axis=1)
        return kernel / kernel.sum()

    p, q = density(X), density(Y)
    assert kl_divergence(X, Y, sigma=sigma) == pytest.approx(np.sum(p * np.log(p / q)), rel=1e-12)
    assert kl_divergence(X, 5.0 * Y, sigma=sigma) == pytest.approx(kl_divergence(X, Y, sigma=sigma), rel=1e-12)
    with pytest.raises(MeasureError, match="sigma must be a positive number; got 0"):
        kl_divergence(X, Y, sigma=0)


def test_sampled_columns_estimate_the_pair_sums_and_say_so(monkeypatch):
    X, Y = noisy_pair(900, 5)
    exact = evaluate(X, Y, 8, which=["stress", "scale_normalized_stress", "kl_divergence"])
    monkeypatch.setattr(distances_module, "PAIRS_EXACT_UP_TO", 500)
    monkeypatch.setattr(distances_module, "PAIR_COLUMNS", 300)
    sampled = evaluate(X, Y, 8, which=["stress", "scale_normalized_stress", "kl_divergence"])
    for name in exact.measures:
        assert sampled.mean[name] == pytest.approx(exact.mean[name], rel=0.05), name
        assert "with j among 300 random points" in sampled.approximations[name]
    assert exact.approximations == {}


@pytest.mark.parametrize("levels", [None, 3, 40])
def test_average_ranks_are_scipys_with_and_without_ties(levels):
    values = np.random.default_rng(7).random(5000)
    if levels is not None:  # many ties, as the distances of a grid have
        values = np.floor(values * levels)
    np.testing.assert_array_equal(average_ranks(values), rankdata(values))


NEAR_TIES = {
    # Values that agree in the high bits the packed sort keeps, so only its exact pass orders them.
    "one ulp apart": 1.0 + np.random.default_rng(1).integers(0, 1000, 100_000) * 2.0**-52,
    "negative, one ulp apart": -1.0 - np.random.default_rng(2).integers(0, 1000, 100_000) * 2.0**-52,
    "signed zeros, infinities and subnormals": np.array([0.0, -0.0, 1.0, 1.0 + 2**-52, -5.0, np.inf, -np.inf,
                                                         -1e-300, 1e-300, 5e-324, 0.0, -0.0]),
    "the distances of a small grid": pdist(np.random.default_rng(3).integers(0, 4, size=(300, 2)).astype(float)),
}


@pytest.mark.parametrize("case", list(NEAR_TIES))
def test_average_ranks_are_scipys_where_values_differ_in_the_last_bits(case):
    values = NEAR_TIES[case]
    order = distances_module.ascending_order(values)
    assert np.all(np.diff(values[order]) >= 0) and np.array_equal(np.sort(order), np.arange(values.size))
    np.testing.assert_array_equal(average_ranks(values), rankdata(values))


def test_average_ranks_worked_by_hand():
    np.testing.assert_array_equal(average_ranks(np.array([2.0, 1.0, 2.0, 5.0, 2.0])), [3.0, 1.0, 3.0, 5.0, 3.0])


def test_spearman_of_euclidean_distances_is_scipys():
    X, Y = noisy_pair(150, 6)
    expected = spearmanr(pdist(X), pdist(Y)).statistic
    assert distance_spearman(X, Y, 8, geodesic=False) == pytest.approx(expected, rel=1e-13)


def test_a_second_output_of_one_input_reuses_its_ranks_and_gets_the_same_rho(monkeypatch):
    """DEMaP's input side is sorted once per input (a comparison scores several outputs of one input)."""
    X, Y = noisy_pair(150, 6)
    others = [Y, Y[:, ::-1] + 0.3, np.random.default_rng(2).normal(size=Y.shape)]
    distances_module._ranks.clear()
    fresh = [spearmanr(pdist(X), pdist(output)).statistic for output in others]
    sorts = []
    real = distances_module.average_ranks
    monkeypatch.setattr(distances_module, "average_ranks", lambda values: sorts.append(1) or real(values))
    rhos = [distances_module.spearman_from_rows(pdist(X), pdist(output)) for output in others]
    assert len(sorts) == len(others) + 1  # the input's once, each output's once
    np.testing.assert_allclose(rhos, fresh, rtol=1e-13)
    # Bit for bit the numbers of a call that sorts both sides.
    distances_module._ranks.clear()
    assert [distances_module.spearman_from_rows(pdist(X), pdist(output)) for output in others[::-1]] == rhos[::-1]
    # The kept ranks are read-only, and only what fits the budget is kept.
    assert all(not distances_module._ranks.get(key).flags.writeable for key in distances_module._ranks.keys())
    monkeypatch.setattr(distances_module._ranks, "budget", 8 * len(pdist(X)) - 1)
    distances_module._ranks.clear()
    distances_module.spearman_from_rows(pdist(X), pdist(Y))
    assert not len(distances_module._ranks)


def test_demap_reads_geodesics_not_chords(swiss_roll):
    # The unrolled chart keeps geodesic distances (DEMaP ~1); a projection that keeps chords (the
    # roll seen from its axis) scores lower on geodesics than on Euclidean distances.
    X, chart, _ = swiss_roll(600, 2)
    assert distance_spearman(X, chart, 10) > 0.99
    projection = X[:, [0, 2]]
    assert distance_spearman(X, projection, 10) < distance_spearman(X, projection, 10, geodesic=False)
    # The same graph as the residual variance: where that is ~0, rho is ~1.
    assert residual_variance(X, chart, 10) < 0.01


def test_sampled_spearman_estimates_the_exact_value(monkeypatch, swiss_roll):
    X, chart, raw = swiss_roll(800, 3)
    exact = distance_spearman(X, raw, 10)
    monkeypatch.setattr(distances_module, "SPEARMAN_PAIRS", 40_000)
    assert distance_spearman(X, raw, 10) == pytest.approx(exact, abs=0.02)
    result = evaluate(X, raw, 10, which=["distance_spearman"])
    assert result.approximations["distance_spearman"].startswith("Spearman's ρ from the shortest paths of 50")


def test_triplet_accuracy_is_one_for_similarities_and_half_for_noise():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 3))
    similar = 3.0 * X @ ortho_group.rvs(3, random_state=1) + 2.0
    assert triplet_accuracy(X, similar) == 1.0
    assert triplet_accuracy(X, rng.normal(size=(300, 2)), n_triplets=40) == pytest.approx(0.5, abs=0.03)
    value, per_point = triplet_accuracy(X, X[:, :2], per_point=True, random_state=3)
    assert value == pytest.approx(per_point.mean(), rel=1e-15)
    assert triplet_accuracy(X, X[:, :2], random_state=3) == value
    with pytest.raises(MeasureError, match="need at least 3 points"):
        triplet_accuracy(X[:2], X[:2])


def test_triplets_are_distinct_and_exclude_the_anchor():
    # Each triplet's three points are distinct: checked through a configuration where any repeat
    # would give a zero distance difference (sign 0) and a disagreement with the output.
    X = np.arange(12, dtype=float)[:, None] ** 2
    assert triplet_accuracy(X, X, n_triplets=50) == 1.0
    assert triplet_accuracy(X, -X, n_triplets=50) == 1.0


@pytest.mark.parametrize("dimensions", [1, 2, 3])
def test_the_hull_s_diameter_is_the_largest_pairwise_distance_bit_for_bit(dimensions):
    rng = np.random.default_rng(dimensions)
    for _ in range(20):
        points = rng.normal(size=(int(rng.integers(6, 300)), dimensions)) * rng.uniform(1e-3, 1e3)
        assert distances_module._hull_diameter(points) == pdist(points).max()


def test_no_hull_diameter_for_flat_or_many_dimensional_points():
    rng = np.random.default_rng(0)
    flat = np.column_stack([rng.normal(size=(50, 2)), np.zeros(50)])  # a strip lying in a plane of R^3
    assert distances_module._hull_diameter(flat) is None
    assert distances_module._hull_diameter(rng.normal(size=(50, 4))) is None


@pytest.mark.parametrize("guess", ["hull", "none", "wrong"])
def test_densities_made_with_the_sums_equal_a_second_pass_bit_for_bit(monkeypatch, guess):
    """issue 24: the densities are made in the sums' pass when the hull gives the largest distance first;
    without a guess, or with a wrong one, a second pass makes the same values."""
    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=(400, 3)), rng.normal(size=(400, 2))
    monkeypatch.setattr(distances_module, "_hull_diameter", lambda points: None)
    expected = distances_module.pair_sums(X, Y, sigma=0.1)
    monkeypatch.undo()
    if guess != "hull":
        real = distances_module._hull_diameter
        monkeypatch.setattr(distances_module, "_hull_diameter",
                            lambda points: None if guess == "none" else 0.9 * real(points))
    got = distances_module.pair_sums(X, Y, sigma=0.1)
    for field in ("xx", "yy", "xy", "x_density", "y_density", "x_max", "y_max"):
        np.testing.assert_array_equal(getattr(got, field), getattr(expected, field), err_msg=field)
    densities = [np.exp(-((squareform(pdist(Z)) / pdist(Z).max()) ** 2) / 0.1).sum(axis=1) for Z in (X, Y)]
    np.testing.assert_allclose([got.x_density, got.y_density], densities, rtol=1e-13)
