"""Tests of ``algorithms/locally_linear.py``: our sparse alignment matrices and shift-invert solver give
scikit-learn's LLE and MLLE (same subspaces, same R_N and R_C), LTSA and HLLE equal per-point loops of
Zhang & Zha's and Donoho & Grimes' algorithms (where scikit-learn departs from them), the sparse solver equals the
dense one, the matrices are symmetric PSD with
the constants as null space and do not depend on the chunk size, flat data are recovered exactly, and
solver failures are typed, retried dense within the memory budget, and refused above it."""

import warnings

import numpy as np
import pytest
import scipy.linalg
from scipy.sparse.linalg import ArpackNoConvergence
from sklearn.manifold import LocallyLinearEmbedding

import algorithms
import datasets
import measures
import measures.chunks
from algorithms import ConvergenceError, SampleLimitError, SingularFactorError, TooFewNeighborsError, registry
from algorithms import locally_linear as locally_linear_module
from measures import ProcrustesLabWarning

NAMES = {"lle": "standard", "mlle": "modified", "hlle": "hessian", "ltsa": "ltsa"}


def _cosines(A, B):
    """Cosines of the principal angles between the column spans of the centred A and B (1 = same span)."""
    first, _ = np.linalg.qr(A - A.mean(axis=0))
    second, _ = np.linalg.qr(B - B.mean(axis=0))
    return np.linalg.svd(first.T @ second, compute_uv=False)


def _scores(X, Y, k):
    return [measures.procrustes(X, Y, k, variant=variant) for variant in ("normalized", "conformal")]


@pytest.mark.parametrize(("name", "method"), [("lle", "standard"), ("mlle", "modified")])
def test_equals_scikit_learns_dense_solution(name, method, small_roll):
    # The same null space (any basis of it is an equally valid output) and so the same measures at the
    # authors' scale, against scikit-learn's dense LAPACK solution of its own matrix.
    reference = LocallyLinearEmbedding(n_neighbors=8, n_components=2, method=method,
                                       eigen_solver="dense").fit_transform(small_roll.X)
    Y = algorithms.embed(name, small_roll.X, n_neighbors=8)
    np.testing.assert_allclose(_cosines(Y, reference), 1.0, atol=1e-10)
    scaled = algorithms.embed(name, small_roll.X, n_neighbors=8, rescale="unit_norm")
    np.testing.assert_allclose(_scores(small_roll.X, scaled, 8),
                               _scores(small_roll.X, reference - reference.mean(axis=0), 8), rtol=1e-9)


def _bottom_eigenvectors(M, d):
    """The d eigenvectors of a dense PSD M after its constant null vector (LAPACK)."""
    return scipy.linalg.eigh(M, subset_by_index=(1, d))[1]


def _zhang_zha_ltsa(X, k, d):
    """LTSA as Zhang & Zha write it (Algorithm LTSA, §5), one neighbourhood at a time: N_i is x_i and its k
    nearest neighbours; ``G_i = [1/sqrt(k+1), top-d left singular vectors of the centred X_i]``;
    ``M = sum S_i (I - G_i G_i') S_i'``."""
    n = len(X)
    M = np.zeros((n, n))
    for row in measures.nearest_neighbors(X, k):
        points = X[row] - X[row].mean(axis=0)
        G = np.column_stack([np.full(k + 1, 1.0 / np.sqrt(k + 1)), np.linalg.svd(points)[0][:, :d]])
        M[np.ix_(row, row)] += np.eye(k + 1) - G @ G.T
    return _bottom_eigenvectors(M, d)


def _donoho_grimes_hlle(X, k, d):
    """HLLE as Donoho & Grimes' hlle.m writes it, one neighbourhood at a time (N_i: x_i and its k nearest
    neighbours): modified Gram-Schmidt of ``[1, U_d, U_a U_b]``, the last d(d+1)/2 columns as the Hessian
    estimator (each divided by its sum when that exceeds 1e-4), ``M = sum H_i' H_i``."""
    n = len(X)
    M = np.zeros((n, n))
    for row in measures.nearest_neighbors(X, k):
        points = X[row] - X[row].mean(axis=0)
        tangent = np.linalg.svd(points, full_matrices=False)[0][:, :d]
        columns = [np.ones(k + 1)] + [tangent[:, a] for a in range(d)] + \
                  [tangent[:, a] * tangent[:, b] for a in range(d) for b in range(a, d)]
        orthonormal = []
        for column in columns:
            for previous in orthonormal:
                column = column - (previous @ column) * previous
            orthonormal.append(column / np.linalg.norm(column))
        estimator = np.array(orthonormal[1 + d:])
        sums = estimator.sum(axis=1)
        large = np.abs(sums) > 1e-4
        estimator[large] /= sums[large, None]
        M[np.ix_(row, row)] += estimator.T @ estimator
    return _bottom_eigenvectors(M, d)


@pytest.mark.parametrize(("name", "oracle"), [("ltsa", _zhang_zha_ltsa), ("hlle", _donoho_grimes_hlle)])
def test_ltsa_and_hlle_equal_per_point_loops_of_the_authors_algorithms(name, oracle, small_roll):
    Y = algorithms.embed(name, small_roll.X, n_neighbors=8)
    np.testing.assert_allclose(_cosines(Y, oracle(small_roll.X, 8, 2)), 1.0, atol=1e-9)


def test_scikit_learns_hessian_method_is_its_ltsa_and_ours_is_not(small_roll):
    # scikit-learn keeps every column of the full QR after [1, U_d] (the whole complement, not the
    # d(d+1)/2 Hessian directions), so its "hessian" block is LTSA's I - GG' (locally_linear docstring).
    fits = {method: LocallyLinearEmbedding(n_neighbors=8, method=method, eigen_solver="dense").fit_transform(
        small_roll.X) for method in ("hessian", "ltsa")}
    np.testing.assert_allclose(_cosines(fits["hessian"], fits["ltsa"]), 1.0, atol=1e-10)
    ours = algorithms.embed("hlle", small_roll.X, n_neighbors=8)
    assert _cosines(ours, algorithms.embed("ltsa", small_roll.X, n_neighbors=8)).min() < 1.0 - 1e-8


def test_a_point_in_no_other_neighbourhood_is_still_placed():
    # A flat 14 x 14 grid with a 5 x 5 hole and one point at the hole's centre: it is in nobody's 6 nearest
    # neighbours (theirs lie within 2, it is 3 away), so scikit-learn's LTSA, which fits each neighbourhood
    # without its point, puts it in no block: its row of M is zero, its indicator joins the null space, and
    # the point is not placed (it lands wherever the basis puts it). Ours fits x_i with its neighbours: all
    # data are flat, so the point lands exactly where the grid's affine map puts (6, 6).
    grid = np.stack(np.meshgrid(np.arange(14.0), np.arange(14.0)), axis=-1).reshape(-1, 2)
    grid = grid[(np.abs(grid - 6.0) > 2).any(axis=1)]
    X = np.column_stack([np.vstack([grid, [6.0, 6.0]]), np.zeros(len(grid) + 1)])
    assert not np.isin(len(X) - 1, measures.nearest_neighbors(X, 6)[:, 1:])
    affine = np.column_stack([grid, np.ones(len(grid))])

    def misplacement(Y):  # distance from where the grid's affine map puts (6, 6), in grid steps
        fit = np.linalg.lstsq(affine, Y[:-1], rcond=None)[0]
        return np.linalg.norm(np.array([6.0, 6.0, 1.0]) @ fit - Y[-1]) / np.linalg.norm(fit[0])

    theirs = LocallyLinearEmbedding(n_neighbors=6, method="ltsa", eigen_solver="dense").fit_transform(X)
    assert misplacement(theirs) > 0.5
    assert misplacement(algorithms.embed("ltsa", X, n_neighbors=6)) < 1e-6


@pytest.mark.parametrize("name", sorted(NAMES))
def test_sparse_shift_invert_equals_the_dense_solver(name):
    data = datasets.load("swissroll", 1500, random_state=3)
    sparse = algorithms.embed(name, data.X, n_neighbors=10, eigen_solver="arpack")
    dense = algorithms.embed(name, data.X, n_neighbors=10, eigen_solver="dense")
    np.testing.assert_allclose(_cosines(sparse, dense), 1.0, atol=1e-9)
    np.testing.assert_allclose(_scores(data.X, sparse, 10), _scores(data.X, dense, 10), rtol=1e-7)


@pytest.mark.parametrize("method", sorted(NAMES.values()))
def test_alignment_matrix_is_symmetric_psd_with_the_constants_in_its_null_space(method, small_roll):
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    M = locally_linear_module.alignment_matrix(small_roll.X, neighbors, 2, method)
    dense = M.toarray()
    scale = np.abs(dense).max()
    np.testing.assert_allclose(dense, dense.T, atol=1e-13 * scale)
    assert np.abs(dense @ np.ones(len(dense))).max() < 1e-12 * scale
    assert np.linalg.eigvalsh(dense)[0] > -1e-12 * scale


@pytest.mark.parametrize("method", sorted(NAMES.values()))
def test_alignment_matrix_does_not_depend_on_the_chunk_size(method, small_roll, monkeypatch):
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    whole = locally_linear_module.alignment_matrix(small_roll.X, neighbors, 2, method)

    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 20_000)  # a few neighbourhoods per chunk
    pieces = locally_linear_module.alignment_matrix(small_roll.X, neighbors, 2, method)
    assert abs(whole - pieces).max() == 0.0


def test_lle_block_is_the_outer_product_of_the_barycentric_weights():
    # A point at the centroid of a square of neighbours: the weights are 1/4 each, exactly.
    X = np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    block = locally_linear_module.alignment_blocks(X, np.array([[0, 1, 2, 3, 4]]), 2, "standard", reg=1e-3)[0]
    a = np.array([1.0, -0.25, -0.25, -0.25, -0.25])
    np.testing.assert_allclose(block, np.outer(a, a), atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ltsa_of_a_flat_strip_is_affine_in_the_truth(seed):
    # Zhang & Zha: for linearly placed flat data the affine coordinates span LTSA's null space.
    strip = datasets.load("strip", 400, random_state=seed)
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


def test_a_grid_that_breaks_scikit_learns_arpack_is_solved_by_the_shifted_factor():
    # The 15 x 15 grid at k = 3: scikit-learn's shift-invert at 0 factorizes LTSA's singular matrix
    # ("Factor is exactly singular"); M + δI is positive definite, and the result equals the dense one.
    grid = np.stack(np.meshgrid(np.arange(15.0), np.arange(15.0)), axis=-1).reshape(-1, 2)
    X = np.column_stack([grid, np.zeros(len(grid))])
    with pytest.raises(ValueError, match="ARPACK"):
        LocallyLinearEmbedding(n_neighbors=3, method="ltsa", eigen_solver="arpack").fit_transform(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sparse = algorithms.embed("ltsa", X, n_neighbors=3, eigen_solver="arpack")
    dense = algorithms.embed("ltsa", X, n_neighbors=3, eigen_solver="dense")
    np.testing.assert_allclose(_cosines(sparse, dense), 1.0, atol=1e-8)


# --- solver failures ----------------------------------------------------------------------------------


def _script_null_space(monkeypatch, errors):
    """Make ``null_space`` raise ``errors[solver]`` where given; returns the list of solvers it is called with."""
    real = locally_linear_module.null_space
    solvers = []

    def null_space(M, n_components, random_state, *, solver="arpack"):
        solvers.append(solver)
        if solver in errors:
            raise errors[solver]
        return real(M, n_components, random_state, solver=solver)

    monkeypatch.setattr(locally_linear_module, "null_space", null_space)
    return solvers


def _no_convergence():
    return ArpackNoConvergence("ARPACK error -1: No convergence", np.empty(0), np.empty((0, 0)))


@pytest.mark.parametrize(("error", "kind"), [(_no_convergence, ConvergenceError),
                                             (lambda: RuntimeError("Factor is exactly singular"), SingularFactorError)])
def test_arpack_failure_is_typed_when_arpack_was_chosen(error, kind, monkeypatch, small_roll):
    solvers = _script_null_space(monkeypatch, {"arpack": error()})
    with pytest.raises(kind, match=r"^hessian: ARPACK failed \(.+\); choose eigen_solver='dense' or raise k\.$"):
        algorithms.embed("hlle", small_roll.X, n_neighbors=8, eigen_solver="arpack")
    assert solvers == ["arpack"]


@pytest.mark.parametrize("name", sorted(NAMES))
def test_arpack_failure_is_retried_dense_with_a_warning(name, monkeypatch, small_roll):
    expected = algorithms.embed(name, small_roll.X, n_neighbors=8, eigen_solver="dense")
    solvers = _script_null_space(monkeypatch, {"arpack": _no_convergence()})
    with pytest.warns(ProcrustesLabWarning, match=rf"{NAMES[name]}: ARPACK failed \(ARPACK error -1: .*No "
                                                  r"convergence\); retried with the dense eigensolver\."):
        Y = algorithms.embed(name, small_roll.X, n_neighbors=8)
    assert solvers == ["arpack", "dense"]
    assert np.array_equal(Y, expected)


def test_dense_retry_is_refused_above_the_memory_budget(monkeypatch, small_roll):
    needed = locally_linear_module.alignment_memory_bytes(400, 8, 2, method="hessian", eigen_solver="dense")
    monkeypatch.setattr(registry, "MEMORY_BUDGET", needed - 1)
    solvers = _script_null_space(monkeypatch, {"arpack": RuntimeError("Factor is exactly singular")})
    with pytest.raises(SampleLimitError, match=r"^hessian: ARPACK failed \(Factor is exactly singular\), and the dense "
                                               r"eigensolver would take about 3.\d MB at n = 400, above the memory "
                                               r"budget of 3.\d MB\. Raise k, use fewer points") as caught:
        algorithms.embed("hlle", small_roll.X, n_neighbors=8)
    assert solvers == ["arpack"]  # refused before the n x n matrix is allocated
    assert (caught.value.bytes_needed, caught.value.budget) == (needed, needed - 1)


def test_dense_failure_after_the_retry_is_a_singular_factor_error(monkeypatch, small_roll):
    _script_null_space(monkeypatch, {"arpack": _no_convergence(),
                                     "dense": np.linalg.LinAlgError("eigenvalues did not converge")})
    with pytest.warns(ProcrustesLabWarning, match="retried with the dense eigensolver"), \
            pytest.raises(SingularFactorError, match=r"^standard: the dense eigensolver failed too \(eigenvalues did "
                                                     r"not converge\); raise k or add noise"):
        algorithms.embed("lle", small_roll.X, n_neighbors=8)


def test_dense_solver_choice_is_held_against_the_budget(monkeypatch, small_roll):
    entry = algorithms.spec("ltsa")
    dense = entry.memory_bytes(400, 8, 2, eigen_solver="dense")
    sparse = entry.memory_bytes(400, 8, 2, eigen_solver="arpack")
    assert dense > sparse
    monkeypatch.setattr(registry, "MEMORY_BUDGET", (dense + sparse) // 2)
    assert algorithms.embed("ltsa", small_roll.X, n_neighbors=8).shape == (400, 2)
    with pytest.raises(SampleLimitError, match=r"^LTSA would need about .* at n = 400 \(k = 8, d = 2\), above the "
                                               r"memory budget of .*\. Use at most \d+ points\.$") as caught:
        algorithms.embed("ltsa", small_roll.X, n_neighbors=8, eigen_solver="dense")
    assert caught.value.max_samples < 400 and caught.value.bytes_needed == dense


def test_memory_estimates_fit_a_100_000_point_swiss_roll_in_4_gb():
    # Issue 16: each of the four at n = 100 000, k = 12 (measured in bench/locally_linear.py: <= 2.1 GB).
    for name in NAMES:
        assert algorithms.spec(name).memory_bytes(100_000, 12, 2) <= 4e9
        assert algorithms.spec(name).memory_bytes(100_000, 12, 2, eigen_solver="dense") > 4e9


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
    strip = datasets.load("strip", 400, length=3.0, random_state=seed)
    Y = algorithms.embed(name, strip.X, n_neighbors=12)
    affine = np.column_stack([strip.truth, np.ones(len(Y))])
    coefficients, *_ = np.linalg.lstsq(affine, Y, rcond=None)
    tolerance = 1e-8 if name == "hlle" else 1e-2
    assert np.linalg.norm(affine @ coefficients - Y) < tolerance * np.linalg.norm(Y)


def test_mlle_keeps_the_three_peaks_flatter_than_lle():
    # ML Fig. 4 / §5: MLLE recovers the generating coordinates up to an affine map where LLE distorts.
    data = datasets.load("three_peaks", 600, random_state=0)
    scores = {}
    for name in ("lle", "mlle"):
        Y = algorithms.embed(name, data.X, n_neighbors=12)
        affine = np.column_stack([Y, np.ones(len(Y))])
        coefficients, *_ = np.linalg.lstsq(affine, data.truth, rcond=None)
        scores[name] = (np.linalg.norm(affine @ coefficients - data.truth)
                        / np.linalg.norm(data.truth - data.truth.mean(0)))
    assert scores["mlle"] < 0.1 and scores["mlle"] < scores["lle"] / 2


@pytest.mark.parametrize("name", ["lle", "mlle", "ltsa"])
def test_small_inputs_are_solved_densely_by_auto(name):
    # Up to DENSE_AUTO_MAX_SAMPLES points "auto" is "dense" (ARPACK cannot even be asked for d + 1 = n - 1
    # eigenvectors of a 4-point matrix).
    X = np.random.default_rng(0).normal(size=(50, 3))
    assert np.array_equal(algorithms.embed(name, X, n_neighbors=6), algorithms.embed(name, X, n_neighbors=6,
                                                                                     eigen_solver="dense"))
    assert algorithms.embed(name, X[:4], n_neighbors=3).shape == (4, 2)
