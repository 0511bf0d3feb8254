"""The yardsticks: random-output values against their expectations worked by hand, floors against GR Lemma 1."""

import numpy as np
import pytest

import measures


def noisy_strip(n, seed=1, noise=0.02):
    """A 4 × 1 strip in the plane, its true coordinates, and noise along the third axis only."""
    rng = np.random.default_rng(seed)
    truth = rng.random((n, 2)) * [4.0, 1.0]
    return np.column_stack([truth, noise * rng.standard_normal(n)]), truth


def test_random_outputs_are_y_shuffled_then_a_gaussian_of_its_total_variance():
    Y = np.random.default_rng(0).random((5000, 2)) * [3.0, 0.5] + 7.0
    shuffled, gaussian = measures.random_outputs(Y, random_state=4)
    assert np.array_equal(np.sort(shuffled, axis=0), np.sort(Y, axis=0)) and not np.array_equal(shuffled, Y)
    assert gaussian.var(axis=0).sum() == pytest.approx(Y.var(axis=0).sum(), rel=0.05)
    assert gaussian.var(axis=0)[0] == pytest.approx(gaussian.var(axis=0)[1], rel=0.1)  # isotropic
    assert gaussian.mean(axis=0) == pytest.approx(Y.mean(axis=0), abs=0.05)


def test_a_random_outputs_rank_measures_equal_their_expectations_worked_by_hand():
    """Output neighbours unrelated to the input: each of the k is a uniform draw among the n - 1 others.

    Neighbourhood agreement (1 - M_LC): the expected overlap of two k-sets among n - 1 is k² / (n - 1).
    Trustworthiness: an output neighbour's input rank r is uniform on 1 … n - 1 and costs max(r - k, 0),
    of mean (n - 1 - k)(n - k) / (2 (n - 1)); Venna & Kaski's normalization 2 / (n k (2n - 3k - 1)) over the
    n k pairs gives 1 - T = (n - 1 - k)(n - k) / ((2n - 3k - 1)(n - 1)). Continuity, by symmetry, the same.
    R_NX(K): K of the n - 1 others drawn at random keep K² / (n - 1) of the K input neighbours on average,
    Q_NX(K) = K / (n - 1), which R_NX's rescaling sends to 0 at every K ([LPV] Eq. 13): its area too. The
    distances of unrelated points are uncorrelated: Shepard's ρ and CPD about 0.
    """
    n, k = 800, 10
    X, truth = noisy_strip(n)
    sticks = measures.yardsticks(X, truth, k, ["neighbourhood_agreement", "trustworthiness", "continuity", "auc_rnx",
                                               "shepard", "cpd"], n_draws=2)
    assert sticks.random["auc_rnx"] == pytest.approx(0.0, abs=0.01)
    assert sticks.random["shepard"] == pytest.approx(0.0, abs=0.02)
    assert sticks.random["cpd"] == pytest.approx(0.0, abs=0.02)
    expected_t = 1 - (n - 1 - k) * (n - k) / ((2 * n - 3 * k - 1) * (n - 1))
    assert sticks.random["neighbourhood_agreement"] == pytest.approx(1 - k / (n - 1), abs=0.003)
    assert sticks.random["trustworthiness"] == pytest.approx(expected_t, abs=0.01)
    assert sticks.random["continuity"] == pytest.approx(expected_t, abs=0.01)
    assert all(0 < spread < 0.02 for spread in sticks.random_spread.values())


def test_the_truths_r_n_sits_on_its_floor_up_to_the_noise_and_a_random_output_far_above():
    """GR Lemma 1: no 2-D output beats the local-PCA residual; a noisy strip's true coordinates come within
    a few per cent of it (they miss only the noise's tilt of each neighbourhood's plane)."""
    X, truth = noisy_strip(800)
    which = ["normalized", "conformal", "lower_bound"]
    value = measures.evaluate(X, truth, 10, which=which).mean
    sticks = measures.yardsticks(X, truth, 10, which)
    assert sticks.best["normalized"] == sticks.best["conformal"] == value["lower_bound"]
    assert value["lower_bound"] <= value["conformal"] <= value["normalized"] <= 1.1 * value["lower_bound"]
    assert sticks.random["conformal"] > 10 * value["conformal"]
    assert sticks.random["normalized"] > 1000 * value["normalized"]  # R_N also pays for the output's scale
    assert "lower_bound" not in sticks.random  # read from the input alone: no random value


def test_best_by_definition_and_none_where_no_floor_is_known():
    X, truth = noisy_strip(300)
    sticks = measures.yardsticks(X, truth, 8, ["trustworthiness", "continuity", "mrre_false", "stress", "asim"])
    assert dict(sticks.best) == {"trustworthiness": 1.0, "continuity": 1.0, "mrre_false": 0.0}


def test_the_same_seed_gives_the_same_yardsticks_and_another_seed_other_draws():
    X, truth = noisy_strip(300)
    first, again, other = (measures.yardsticks(X, truth, 8, ["trustworthiness", "stress"], random_state=seed)
                           for seed in (3, 3, 4))
    assert first == again
    assert first.random["stress"] != other.random["stress"]


def test_rank_yardsticks_ignore_the_outputs_scale_and_rotation():
    """A similarity of Y moves both random outputs by the same similarity; rank measures cannot tell."""
    X, truth = noisy_strip(300)
    angle = 0.7
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    names = ["trustworthiness", "continuity", "neighbourhood_agreement"]
    plain = measures.yardsticks(X, truth, 8, names, random_state=5)
    moved = measures.yardsticks(X, 40.0 * truth @ rotation + 3.0, 8, names, random_state=5)
    assert plain.random == pytest.approx(moved.random, abs=1e-12)


@pytest.mark.parametrize("n_draws", [0, -1, 1.5, True, "2"])
def test_a_bad_number_of_draws_is_refused_by_name(n_draws):
    X, truth = noisy_strip(100)
    with pytest.raises(measures.MeasureError, match="n_draws"):
        measures.yardsticks(X, truth, 5, ["trustworthiness"], n_draws=n_draws)
