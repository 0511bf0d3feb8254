"""Tests of ``algorithms/locally_linear.py``: LLE and LTSA against scikit-learn, LTSA's exactness on flat
data, and the dense-solver retry of SPEC §2 (reported by a warning, or refused when ARPACK was asked for)."""

import warnings

import numpy as np
import pytest
from sklearn.manifold import LocallyLinearEmbedding

import algorithms
import datasets
import measures
from algorithms import SolverError
from algorithms.scaling import apply_output_scale, fix_signs
from measures import ProcrustesLabWarning

RETRY_WARNING = r"ltsa: ARPACK failed \(Factor is exactly singular\); retried with the dense eigensolver\."


@pytest.fixture(scope="module")
def flat_grid():
    """The 15 x 15 integer grid in the plane z = 0: 225 points, so scikit-learn's 'auto' picks ARPACK,
    whose shift-invert factorisation of LTSA's alignment matrix is exactly singular at k = 3."""
    grid = np.stack(np.meshgrid(np.arange(15.0), np.arange(15.0)), axis=-1).reshape(-1, 2)
    return np.column_stack([grid, np.zeros(len(grid))])


@pytest.mark.parametrize(("name", "method"), [("lle", "standard"), ("ltsa", "ltsa")])
def test_matches_scikit_learn_at_the_authors_scale(name, method, small_roll):
    # Same k (neighbours other than the point), the seed passed as scikit-learn's random_state.
    reference = LocallyLinearEmbedding(n_neighbors=8, n_components=2, method=method,
                                       random_state=measures.seed_int(0)).fit_transform(small_roll.X)
    expected = fix_signs(apply_output_scale(reference, algorithms.spec(name).output_scale))
    np.testing.assert_allclose(algorithms.embed(name, small_roll.X, n_neighbors=8), expected, atol=1e-10)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ltsa_of_a_flat_strip_is_affine_in_the_truth(seed):
    # Zhang & Zha: for linearly placed flat data the affine coordinates span LTSA's null space.
    strip = datasets.load("strip", 400, seed=seed)
    Y = algorithms.embed("ltsa", strip.X, n_neighbors=10)
    affine = np.column_stack([strip.truth, np.ones(len(Y))])
    coefficients, *_ = np.linalg.lstsq(affine, Y, rcond=None)
    assert np.linalg.norm(affine @ coefficients - Y) < 1e-8 * np.linalg.norm(Y)


def test_lle_coordinates_are_nested_across_dimensions(small_roll):
    # LLE's weights do not depend on d, so the bottom eigenvectors are the same (LTSA's local tangent
    # spaces do depend on d: no such property there).
    one = algorithms.embed("lle", small_roll.X, n_neighbors=8, n_components=1)
    two = algorithms.embed("lle", small_roll.X, n_neighbors=8)
    np.testing.assert_allclose(one[:, 0], two[:, 0], atol=1e-6)


def test_singular_arpack_factor_is_retried_dense_with_a_warning(flat_grid):
    with pytest.warns(ProcrustesLabWarning, match=RETRY_WARNING):
        retried = algorithms.embed("ltsa", flat_grid, n_neighbors=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dense = algorithms.embed("ltsa", flat_grid, n_neighbors=3, eigen_solver="dense")
    assert np.array_equal(retried, dense)


def test_singular_arpack_factor_is_an_error_when_arpack_was_chosen(flat_grid):
    with pytest.raises(SolverError, match=r"ltsa: ARPACK failed \(Factor is exactly singular\); choose "
                                          r"eigen_solver='dense' or raise k\.") as caught:
        algorithms.embed("ltsa", flat_grid, n_neighbors=3, eigen_solver="arpack")
    assert "ARPACK" in str(caught.value.__cause__)


def _script_fit(monkeypatch, errors):
    """Replace ``LocallyLinearEmbedding.fit_transform`` by one raising ``errors[eigen_solver]`` (when given);
    returns the list of solvers it is called with."""
    solvers = []

    def fit_transform(estimator, X, y=None):
        solvers.append(estimator.eigen_solver)
        if estimator.eigen_solver in errors:
            raise errors[estimator.eigen_solver]
        return X[:, :estimator.n_components]

    monkeypatch.setattr(LocallyLinearEmbedding, "fit_transform", fit_transform)
    return solvers


def _arpack_error():
    try:
        try:
            raise RuntimeError("ARPACK error 3: No shifts could be applied")
        except RuntimeError as cause:
            raise ValueError("Error in determining null-space with ARPACK.") from cause
    except ValueError as error:
        return error


def test_dense_failure_after_the_retry_is_a_solver_error(monkeypatch, small_roll):
    solvers = _script_fit(monkeypatch, {"auto": _arpack_error(),
                                        "dense": ValueError("array must not contain infs or NaNs")})
    with pytest.warns(ProcrustesLabWarning, match=r"standard: ARPACK failed \(ARPACK error 3: No shifts could be "
                                                  r"applied\); retried with the dense eigensolver"):
        with pytest.raises(SolverError, match=r"standard: the dense eigensolver failed too \(array must not "
                                              r"contain infs or NaNs\); raise k or add noise"):
            algorithms.embed("lle", small_roll.X, n_neighbors=8)
    assert solvers == ["auto", "dense"]


def test_non_arpack_failure_is_not_retried(monkeypatch, small_roll):
    solvers = _script_fit(monkeypatch, {"auto": ValueError("Expected n_neighbors <= n_samples")})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SolverError, match=r"^ltsa failed: Expected n_neighbors <= n_samples$"):
            algorithms.embed("ltsa", small_roll.X, n_neighbors=8)
    assert solvers == ["auto"]
