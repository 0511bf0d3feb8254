"""Tests of ``algorithms/locally_linear.py``: LLE, MLLE, HLLE and LTSA against scikit-learn, exactness on
flat data, HLLE's neighbour bound, and the dense-solver retry of SPEC §2 (reported by a warning, refused
when ARPACK was asked for, and refused above the dense solver's size limit)."""

import warnings

import numpy as np
import pytest
from sklearn.manifold import LocallyLinearEmbedding

import algorithms
import datasets
import measures
from algorithms import (
    ConvergenceError,
    SampleLimitError,
    SingularFactorError,
    SolverError,
    TooFewNeighborsError,
)
from algorithms import (
    locally_linear as locally_linear_module,
)
from algorithms.scaling import apply_output_scale, fix_signs
from measures import ProcrustesLabWarning

RETRY_WARNING = r"ltsa: ARPACK failed \(Factor is exactly singular\); retried with the dense eigensolver\."


@pytest.fixture(scope="module")
def flat_grid():
    """The 15 x 15 integer grid in the plane z = 0: 225 points, so scikit-learn's 'auto' picks ARPACK,
    whose shift-invert factorisation of LTSA's alignment matrix is exactly singular at k = 3."""
    grid = np.stack(np.meshgrid(np.arange(15.0), np.arange(15.0)), axis=-1).reshape(-1, 2)
    return np.column_stack([grid, np.zeros(len(grid))])


@pytest.mark.parametrize(("name", "method"), [("lle", "standard"), ("ltsa", "ltsa"), ("mlle", "modified"),
                                              ("hlle", "hessian")])
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
    assert "ARPACK" in str(caught.value.__cause__) and isinstance(caught.value, SingularFactorError)


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


def _arpack_failure(cause):
    """The ValueError scikit-learn's ``null_space`` raises when ARPACK raises ``cause`` (chained from it)."""
    try:
        try:
            raise cause
        except RuntimeError as error:
            raise ValueError("Error in determining null-space with ARPACK.") from error
    except ValueError as error:
        return error


def _arpack_error():
    return _arpack_failure(RuntimeError("ARPACK error 3: No shifts could be applied"))


def _arpack_no_convergence():
    from scipy.sparse.linalg import ArpackNoConvergence

    return _arpack_failure(ArpackNoConvergence("ARPACK error -1: No convergence", np.empty(0), np.empty((0, 0))))


def _singular_factor():
    return _arpack_failure(RuntimeError("Factor is exactly singular"))


def test_dense_failure_after_the_retry_is_a_solver_error(monkeypatch, small_roll):
    solvers = _script_fit(monkeypatch, {"auto": _arpack_error(),
                                        "dense": ValueError("array must not contain infs or NaNs")})
    with pytest.warns(ProcrustesLabWarning, match=r"standard: ARPACK failed \(ARPACK error 3: No shifts could be "
                                                  r"applied\); retried with the dense eigensolver"):
        with pytest.raises(SolverError, match=r"standard: the dense eigensolver failed too \(array must not "
                                              r"contain infs or NaNs\); raise k or add noise"):
            algorithms.embed("lle", small_roll.X, n_neighbors=8)
    assert solvers == ["auto", "dense"]


@pytest.mark.parametrize("name", ["hlle", "mlle"])
def test_singular_factor_of_hlle_and_mlle_is_retried_dense(name, monkeypatch, small_roll):
    solvers = _script_fit(monkeypatch, {"auto": _singular_factor()})
    method = {"hlle": "hessian", "mlle": "modified"}[name]
    with pytest.warns(ProcrustesLabWarning, match=rf"{method}: ARPACK failed \(Factor is exactly singular\); retried "
                                                  r"with the dense eigensolver\."):
        Y = algorithms.embed(name, small_roll.X, n_neighbors=8)
    assert solvers == ["auto", "dense"] and Y.shape == (400, 2)


def test_singular_hlle_factor_is_explained_when_the_dense_retry_fails(monkeypatch, small_roll):
    _script_fit(monkeypatch, {"auto": _singular_factor(), "dense": ValueError("array must not contain infs or NaNs")})
    with pytest.warns(ProcrustesLabWarning, match="retried with the dense eigensolver"):
        with pytest.raises(SingularFactorError, match=r"^hessian: the dense eigensolver failed too \(array must not "
                                                      r"contain infs or NaNs\); raise k or add noise to break exact "
                                                      r"degeneracies\.$"):
            algorithms.embed("hlle", small_roll.X, n_neighbors=8)


@pytest.mark.parametrize(("error", "kind"), [(_arpack_no_convergence, ConvergenceError),
                                             (_singular_factor, SingularFactorError)])
def test_arpack_failure_is_typed_when_arpack_was_chosen(error, kind, monkeypatch, small_roll):
    solvers = _script_fit(monkeypatch, {"arpack": error()})
    with pytest.raises(kind, match=r"^hessian: ARPACK failed \(.+\); choose eigen_solver='dense' or raise k\.$"):
        algorithms.embed("hlle", small_roll.X, n_neighbors=8, eigen_solver="arpack")
    assert solvers == ["arpack"]


def test_arpack_non_convergence_is_retried_dense_too(monkeypatch, small_roll):
    solvers = _script_fit(monkeypatch, {"auto": _arpack_no_convergence()})
    with pytest.warns(ProcrustesLabWarning, match=r"ltsa: ARPACK failed \(ARPACK error -1: .*No convergence\); "
                                                  r"retried with the dense eigensolver"):
        algorithms.embed("ltsa", small_roll.X, n_neighbors=8)
    assert solvers == ["auto", "dense"]


def test_dense_retry_is_refused_above_the_dense_solvers_limit(monkeypatch, small_roll):
    monkeypatch.setattr(locally_linear_module, "DENSE_SOLVER_MAX_SAMPLES", 300)
    solvers = _script_fit(monkeypatch, {"auto": _singular_factor()})
    with pytest.raises(SampleLimitError, match=r"^hessian: ARPACK failed \(Factor is exactly singular\), and the dense "
                                               r"eigensolver is limited to 300 points here \(it would take about 2.6 MB "
                                               r"at n = 400\); got 400\. Raise k, use fewer points"):
        algorithms.embed("hlle", small_roll.X, n_neighbors=8)
    assert solvers == ["auto"]  # refused before the n x n matrix is allocated


def test_dense_solver_choice_is_refused_above_its_limit(monkeypatch, small_roll):
    monkeypatch.setattr(locally_linear_module, "DENSE_SOLVER_MAX_SAMPLES", 300)
    solvers = _script_fit(monkeypatch, {})
    with pytest.raises(SampleLimitError, match=r"^ltsa: the dense eigensolver is limited to 300 points here"):
        algorithms.embed("ltsa", small_roll.X, n_neighbors=8, eigen_solver="dense")
    assert solvers == []


# --- HLLE and MLLE ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n_components", "bound"), [(1, 2), (2, 5), (3, 9)])
def test_hlle_bound_message(n_components, bound, small_roll):
    with pytest.raises(TooFewNeighborsError, match=rf"^HLLE needs n_neighbors > d\(d\+3\)/2 = {bound} for "
                                                   rf"d={n_components}; got {bound}\. Raise k or choose LTSA\.$"):
        algorithms.embed("hlle", small_roll.X, n_neighbors=bound, n_components=n_components)
    # One more neighbour passes the bound (and at least 8 keep the roll's graph connected).
    Y = algorithms.embed("hlle", small_roll.X, n_neighbors=max(bound + 1, 8), n_components=n_components)
    assert Y.shape == (400, n_components)


def test_hlle_bound_example_of_the_style_guide(small_roll):
    with pytest.raises(TooFewNeighborsError, match=r"^HLLE needs n_neighbors > d\(d\+3\)/2 = 5 for d=2; got 4\. "
                                                   r"Raise k or choose LTSA\.$"):
        algorithms.embed("hlle", small_roll.X, n_neighbors=4)


@pytest.mark.parametrize("name", ["hlle", "mlle"])
@pytest.mark.parametrize("seed", [0, 1])
def test_hlle_and_mlle_of_a_flat_strip_are_affine_in_the_truth(name, seed):
    # Donoho & Grimes: on flat data the isometric coordinates span HLLE's null space (exactly);
    # MLLE's multiple weights do so up to its regularisation.
    strip = datasets.load("strip", 400, length=3.0, seed=seed)
    Y = algorithms.embed(name, strip.X, n_neighbors=12)
    affine = np.column_stack([strip.truth, np.ones(len(Y))])
    coefficients, *_ = np.linalg.lstsq(affine, Y, rcond=None)
    tolerance = 1e-8 if name == "hlle" else 1e-2
    assert np.linalg.norm(affine @ coefficients - Y) < tolerance * np.linalg.norm(Y)


def test_mlle_keeps_the_three_peaks_flatter_than_lle():
    # ML Fig. 4 / §5: MLLE recovers the generating coordinates up to an affine map where LLE distorts.
    data = datasets.load("three_peaks", 600, seed=0)
    scores = {}
    for name in ("lle", "mlle"):
        Y = algorithms.embed(name, data.X, n_neighbors=12)
        affine = np.column_stack([Y, np.ones(len(Y))])
        coefficients, *_ = np.linalg.lstsq(affine, data.truth, rcond=None)
        scores[name] = np.linalg.norm(affine @ coefficients - data.truth) / np.linalg.norm(data.truth - data.truth.mean(0))
    assert scores["mlle"] < 0.1 and scores["mlle"] < scores["lle"] / 2


def test_non_arpack_failure_is_not_retried(monkeypatch, small_roll):
    solvers = _script_fit(monkeypatch, {"auto": ValueError("Expected n_neighbors <= n_samples")})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SolverError, match=r"^ltsa failed: Expected n_neighbors <= n_samples$"):
            algorithms.embed("ltsa", small_roll.X, n_neighbors=8)
    assert solvers == ["auto"]
