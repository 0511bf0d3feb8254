"""Measure agreement: Spearman's rho between measures across runs, each turned so that higher is better."""

import numpy as np
import pytest
from scipy.stats import spearmanr

from measures import MIN_SHARED_RUNS, MeasureError, measure_agreement

NAMES = ["normalized", "trustworthiness", "asim", "distance_spearman"]


def test_on_complete_runs_it_is_scipys_spearman_of_the_measures_turned_to_higher_is_better():
    values = np.random.default_rng(0).random((12, len(NAMES)))
    values[3, 0] = values[5, 0]  # a tie, ranked by its average
    turned = values * [-1.0, 1.0, -1.0, 1.0]  # R_N and ASIM are errors, the other two scores
    np.testing.assert_allclose(measure_agreement(values, NAMES), spearmanr(turned).statistic, rtol=0, atol=1e-14)


def test_worked_by_hand_an_error_and_a_score_preferring_the_same_runs_agree_fully():
    # Runs ordered best to worst by both: R_N rises as trustworthiness falls. Turned, both fall: rho = +1.
    # The third column ranks the runs in reverse of R_N's preference: rho = -1 with both.
    rho = measure_agreement([[0.1, 0.99, 0.9], [0.2, 0.98, 0.7], [0.3, 0.97, 0.5], [0.4, 0.90, 0.1]],
                            ["normalized", "trustworthiness", "asim"])
    np.testing.assert_array_equal(rho, [[1.0, 1.0, -1.0], [1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]])


def test_each_pair_uses_the_runs_both_have_and_too_few_or_constant_give_nan():
    values = np.array([[0.1, 0.99, np.nan], [0.2, 0.98, 0.5], [0.3, np.nan, 0.5], [0.4, 0.90, 0.5],
                       [0.5, 0.80, 0.5], [0.6, 0.70, np.nan]])
    rho = measure_agreement(values, ["normalized", "trustworthiness", "asim"])
    shared = np.isfinite(values[:, 0]) & np.isfinite(values[:, 1])  # 5 runs
    assert rho[0, 1] == pytest.approx(spearmanr(-values[shared, 0], values[shared, 1]).statistic, abs=1e-14)
    assert np.isnan(rho[0, 2]) and np.isnan(rho[2, 2])  # ASIM is constant over its runs
    assert np.isnan(measure_agreement(values[:MIN_SHARED_RUNS - 1, :2], ["normalized", "trustworthiness"])).all()


@pytest.mark.parametrize("name, says", [("collapse", "no better direction"), ("lower_bound", "reads no output"),
                                        ("pca", "reads no output")])
def test_a_measure_without_direction_or_of_the_input_alone_is_refused_by_name(name, says):
    with pytest.raises(MeasureError, match=says):
        measure_agreement(np.random.default_rng(1).random((6, 2)), ["normalized", name])
    with pytest.raises(MeasureError, match="2 names for a table"):
        measure_agreement(np.zeros((6, 3)), ["normalized", "asim"])
