"""Tests of ``algorithms/scaling.py``: the output-scale conventions, the "rescale output" options and the
sign rule (SPEC §2)."""

import numpy as np
import pytest

import datasets
import measures
from algorithms.scaling import apply_output_scale, best_global_scale, fix_signs, rescale_output

# Columns (0, 1, 5) and (1, -3, 2): centred they are (-2, -1, 3) and (1, -3, 2), both of norm √14.
SMALL = np.array([[0.0, 1.0], [1.0, -3.0], [5.0, 2.0]])
SMALL_CENTRED = np.array([[-2.0, 1.0], [-1.0, -3.0], [3.0, 2.0]])


def test_unit_norm_of_a_small_case():
    np.testing.assert_allclose(apply_output_scale(SMALL, "unit_norm"), SMALL_CENTRED / np.sqrt(14.0), rtol=1e-15)


def test_unit_variance_of_a_small_case():
    # Population variance (divide by n = 3): 14 / 3 for both columns.
    np.testing.assert_allclose(apply_output_scale(SMALL, "unit_variance"), SMALL_CENTRED / np.sqrt(14.0 / 3.0),
                               rtol=1e-15)


@pytest.mark.parametrize("convention", ["isometric", "diffusion", "neighbour_embedding"])
def test_a_methods_own_coordinates_are_left_untouched(convention):
    assert apply_output_scale(SMALL, convention) is SMALL


def test_unknown_convention_is_refused():
    with pytest.raises(ValueError, match="unknown output scale 'unit_length'"):
        apply_output_scale(SMALL, "unit_length")


@pytest.mark.parametrize("convention", ["unit_norm", "unit_variance"])
def test_normalized_output_forgets_scale_and_translation_of_each_column(convention):
    moved = SMALL * np.array([3.0, 0.25]) + np.array([-7.0, 100.0])
    np.testing.assert_allclose(apply_output_scale(moved, convention), apply_output_scale(SMALL, convention),
                               atol=1e-13)


@pytest.mark.parametrize("convention", ["unit_norm", "unit_variance"])
def test_exactly_constant_column_is_left_at_zero(convention):
    Y = np.column_stack([SMALL[:, 0], np.full(3, 2.0)])
    with np.errstate(all="raise"):
        scaled = apply_output_scale(Y, convention)
    assert np.array_equal(scaled[:, 1], np.zeros(3))
    np.testing.assert_allclose(scaled[:, 0], apply_output_scale(SMALL, convention)[:, 0], rtol=1e-15)


@pytest.mark.parametrize("convention", ["unit_norm", "unit_variance"])
def test_constant_column_with_inexact_mean_is_left_at_zero(convention):
    Y = np.column_stack([SMALL[:, 0], np.full(3, 0.1)])
    scaled = apply_output_scale(Y, convention)
    np.testing.assert_allclose(scaled[:, 1], 0.0, atol=1e-12)


def test_spec_output_scales_give_gr_table2_values_of_an_affine_exact_roll():
    # SPEC §2: the isometric chart of the swiss roll, only rescaled, scores R_N ≈ 0.81 at unit variance
    # (GR Table 2, LLE) and ≈ 0.995 at unit norm (LTSA); the chart itself scores ≈ 0.
    roll = datasets.load("swissroll", 1600, random_state=0)
    unit_variance = apply_output_scale(roll.truth, "unit_variance")
    unit_norm = apply_output_scale(roll.truth, "unit_norm")
    scores = {name: measures.procrustes(roll.X, Y, 10, variant="normalized")
              for name, Y in [("truth", roll.truth), ("unit_variance", unit_variance), ("unit_norm", unit_norm)]}
    assert scores["truth"] < 0.01
    assert scores["unit_variance"] == pytest.approx(0.81, abs=0.01)
    assert scores["unit_norm"] == pytest.approx(0.995, abs=0.003)
    # The two normalizations differ by the global factor √n, a similarity: R_C cannot tell them apart.
    np.testing.assert_allclose(unit_variance, unit_norm * np.sqrt(1600), rtol=1e-12)
    assert measures.procrustes(roll.X, unit_variance, 10, variant="conformal") == pytest.approx(
        measures.procrustes(roll.X, unit_norm, 10, variant="conformal"), rel=1e-9)


def test_signs_of_a_small_case():
    # Largest magnitudes: 5 (positive, kept) in the first column, -3 (flipped) in the second.
    np.testing.assert_array_equal(fix_signs(SMALL), [[0.0, -1.0], [1.0, 3.0], [5.0, -2.0]])


def test_sign_rule_is_idempotent_and_blind_to_a_flip():
    Y = np.random.default_rng(0).standard_normal((50, 3))
    fixed = fix_signs(Y)
    assert np.array_equal(fix_signs(fixed), fixed)
    assert np.array_equal(fix_signs(-Y), fixed)
    assert np.array_equal(fix_signs(Y * np.array([1.0, -1.0, -1.0])), fixed)
    assert np.array_equal(np.abs(fixed), np.abs(Y))


def test_sign_rule_keeps_zero_columns_and_breaks_ties_at_the_first_row():
    Y = np.array([[0.0, -2.0], [0.0, 2.0], [0.0, 1.0]])
    np.testing.assert_array_equal(fix_signs(Y), [[0.0, 2.0], [0.0, -2.0], [0.0, -1.0]])


# --- rescale options ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def roll():
    """The 1600-point roll of seed 0 and its kNN graph at k = 10."""
    data = datasets.load("swissroll", 1600, random_state=0)
    return data, measures.nearest_neighbors(data.X, 10)


def test_rescale_options_map_onto_the_conventions(roll):
    data, _ = roll
    Y = data.truth * np.array([3.0, 0.5]) + 7.0
    assert rescale_output(Y, "authors") is Y
    for option in ("unit_variance", "unit_norm"):
        np.testing.assert_array_equal(rescale_output(Y, option), apply_output_scale(Y, option))


def test_best_global_scale_undoes_a_uniform_shrink_of_the_isometric_chart(roll):
    # The chart is (nearly) isometric: the best factor for truth / 40 is (nearly) 40.
    data, neighbors = roll
    assert best_global_scale(data.X, data.truth / 40.0, neighbors) == pytest.approx(40.0, rel=0.01)


def test_best_global_scale_of_a_unit_norm_chart_leaves_only_its_anisotropy(roll):
    # SPEC §2: the affine-exact unit-norm output scores R_N ≈ 0.995, mostly because of its overall
    # scale. One factor removes that; what remains is the columns' unequal shrinking (arc length
    # spans ~4 times the height, and both were brought to norm 1), which no global factor can undo.
    data, neighbors = roll
    unit_norm = apply_output_scale(data.truth, "unit_norm")
    rescaled = rescale_output(unit_norm, "best_global_scale", data.X, neighbors)
    assert measures.procrustes(data.X, unit_norm, 10) == pytest.approx(0.995, abs=0.003)
    assert 0.1 < measures.procrustes(data.X, rescaled, 10) < 0.4
    # Equal spreads again (undoing the anisotropy by hand), the best factor brings R_N near 0.
    spreads = data.truth.std(axis=0) / unit_norm.std(axis=0)
    isotropic = rescale_output(unit_norm * spreads / spreads[0], "best_global_scale", data.X, neighbors)
    assert measures.procrustes(data.X, isotropic, 10) < 0.01
    np.testing.assert_allclose(measures.procrustes(data.X, rescaled, 10, variant="conformal"),
                               measures.procrustes(data.X, unit_norm, 10, variant="conformal"), rtol=1e-9)


def test_unknown_rescale_option_is_refused():
    with pytest.raises(ValueError, match="unknown rescale option 'isometric'"):
        rescale_output(SMALL, "isometric")
