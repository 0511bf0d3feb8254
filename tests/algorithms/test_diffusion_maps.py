"""Tests of ``algorithms/diffusion_maps.py``: the sparse implementation against a dense eigendecomposition
of the same Markov matrix, Coifman & Lafon's normalisation and time scaling, the default ε, PN's grid
experiment (Fig. 4 C, D), and its failure diagnostics."""

import numpy as np
import pytest
from scipy.sparse.linalg import ArpackNoConvergence
from scipy.stats import spearmanr

import algorithms
import datasets
import measures
from algorithms import ConvergenceError, DisconnectedGraphError
from algorithms import diffusion_maps as diffusion_module
from algorithms.diffusion_maps import diffusion_kernel
from algorithms.scaling import fix_signs

K = 8


@pytest.fixture(scope="module")
def roll():
    """A 300-point swiss roll (seed 1) and its neighbourhoods at k = 8."""
    X = datasets.load("swissroll", 300, random_state=1).X
    return X, measures.nearest_neighbors(X, K)


def _dense_diffusion_map(kernel, alpha, t, n_components):
    """Oracle: the α-normalised Markov matrix built densely and decomposed by ``numpy.linalg.eig``."""
    K = kernel.toarray()
    q = K.sum(axis=1)
    normalized = K / np.outer(q**alpha, q**alpha)
    degree = normalized.sum(axis=1)
    markov = normalized / degree[:, None]
    eigenvalues, right = np.linalg.eig(markov)
    order = np.argsort(-eigenvalues.real)[: n_components + 1]
    eigenvalues, right = eigenvalues.real[order], right.real[:, order]
    stationary = degree / degree.sum()
    right /= np.sqrt((stationary[:, None] * right**2).sum(axis=0))  # Σ π ψ² = 1
    return right[:, 1:] * eigenvalues[1:] ** t, eigenvalues, stationary, markov


@pytest.mark.parametrize(("alpha", "t"), [(1.0, 1.0), (0.5, 3.0), (0.0, 0.0)])
def test_matches_a_dense_eigendecomposition(alpha, t, roll):
    X, neighbors = roll
    Y = algorithms.embed("diffusion_maps", X, n_neighbors=K, alpha=alpha, diffusion_time=t)
    kernel, _ = diffusion_kernel(X, neighbors, 0.0)
    expected, *_ = _dense_diffusion_map(kernel, alpha, t, 2)
    np.testing.assert_allclose(Y, fix_signs(expected), atol=1e-8)


@pytest.mark.slow
def test_crowded_top_eigenvalues_are_resolved_like_the_dense_oracle():
    # A long strip: the top eigenvalues of the Markov matrix crowd within 2e-3 of 1, where plain
    # Lanczos slows down and shift-invert about 1 + SHIFT must still pick the right eigenpairs.
    strip = datasets.load("strip", 800, random_state=0, length=20.0)
    Y = algorithms.embed("diffusion_maps", strip.X, n_neighbors=K, n_components=3)
    kernel, _ = diffusion_kernel(strip.X, measures.nearest_neighbors(strip.X, K), 0.0)
    expected, eigenvalues, *_ = _dense_diffusion_map(kernel, 1.0, 1.0, 3)
    assert 1.0 - eigenvalues[3] < 2e-3 and eigenvalues[1] - eigenvalues[2] < 5e-4
    np.testing.assert_allclose(Y, fix_signs(expected), atol=1e-8)


def test_coordinates_are_right_eigenvectors_normalised_under_the_stationary_law(roll):
    X, neighbors = roll
    kernel, _ = diffusion_kernel(X, neighbors, 0.0)
    _, eigenvalues, stationary, markov = _dense_diffusion_map(kernel, 1.0, 1.0, 2)
    psi = algorithms.embed("diffusion_maps", X, n_neighbors=K, diffusion_time=0.0)
    # P ψ = λ ψ, ψ ⟂ 1 under π, Σ π ψ² = 1 (Coifman & Lafon's normalisation).
    np.testing.assert_allclose(markov @ psi, psi * eigenvalues[1:], atol=1e-9)
    np.testing.assert_allclose(stationary @ psi, 0.0, atol=1e-10)
    np.testing.assert_allclose(stationary @ psi**2, 1.0, rtol=1e-9)
    # Time t scales coordinate j by λ_j^t.
    later = algorithms.embed("diffusion_maps", X, n_neighbors=K, diffusion_time=4.0)
    np.testing.assert_allclose(later, psi * eigenvalues[1:] ** 4, atol=1e-9)


def test_kernel_is_symmetric_gaussian_on_the_knn_graph_with_unit_diagonal(roll):
    X, neighbors = roll
    kernel, epsilon = diffusion_kernel(X, neighbors, 0.0)
    dense = kernel.toarray()
    np.testing.assert_array_equal(dense, dense.T)
    np.testing.assert_array_equal(np.diag(dense), 1.0)
    i, j = 5, neighbors[5, 3]
    assert dense[i, j] == pytest.approx(np.exp(-np.sum((X[i] - X[j]) ** 2) / epsilon), rel=1e-14)
    # Only kNN edges (either direction) and the diagonal carry weight.
    adjacency = measures.neighbor_graph(neighbors).toarray() > 0
    assert ((dense > 0) == (adjacency | adjacency.T | np.eye(len(X), dtype=bool))).all()


def test_default_epsilon_is_the_median_squared_distance_to_the_kth_neighbour(roll):
    X, neighbors = roll
    kth = np.sum((X[neighbors[:, -1]] - X) ** 2, axis=1)
    epsilon = diffusion_kernel(X, neighbors, 0.0)[1]
    assert epsilon == pytest.approx(np.median(kth), rel=1e-14)
    np.testing.assert_array_equal(algorithms.embed("diffusion_maps", X, n_neighbors=K),
                                  algorithms.embed("diffusion_maps", X, n_neighbors=K, epsilon=epsilon))


def test_one_dimensional_map_orders_a_curve(helix):
    t, X = helix
    Y = algorithms.embed("diffusion_maps", X, n_neighbors=6, n_components=1)[:, 0]
    assert abs(spearmanr(Y, t)[0]) > 0.999


def _collapse_share(Y, columns):
    """Share of the second coordinate's variance explained by the lattice column: 1 for a curve."""
    second = Y[:, 1] - Y[:, 1].mean()
    column_means = np.bincount(columns, weights=second) / np.bincount(columns)
    return float(np.sum(column_means[columns] ** 2) / np.sum(second**2))


def test_pn_grid_experiment_collapses_only_beyond_aspect_two():
    # PN Fig. 4 C, D: diffusion maps keep the 81 × 41 grid two-dimensional and fold 81 × 39 into a
    # curve, whose second coordinate is a function of the first lattice coordinate alone.
    shares = {}
    for half_height in (20, 19):
        grid = datasets.load("grid", half_width=40, half_height=half_height)
        Y = algorithms.embed("diffusion_maps", grid.X, n_neighbors=8)
        shares[half_height] = _collapse_share(Y, grid.truth[:, 0].astype(int) + 40)
    assert shares[20] < 0.05 and shares[19] > 0.95


def test_arpack_non_convergence_is_a_convergence_error(monkeypatch, roll):
    error = ArpackNoConvergence("ARPACK error -1: No convergence", np.empty(0), np.empty((0, 0)))

    def no_convergence(*args, **kwargs):
        raise error

    monkeypatch.setattr(diffusion_module, "eigsh", no_convergence)
    with pytest.raises(ConvergenceError,
                       match=r"^diffusion maps: ARPACK did not converge for the top 3 eigenpairs of "
                             r"the 300x300 Markov matrix .*; raise ε or k, or use fewer points\.$") as caught:
        algorithms.embed("diffusion_maps", roll[0], n_neighbors=K)
    assert caught.value.__cause__ is error


def test_kernel_underflow_that_disconnects_the_graph_is_explained(roll):
    # ε a billionth of the squared neighbour distances: exp(-1e9) is 0 in floating point.
    with pytest.raises(DisconnectedGraphError, match=r"^diffusion maps: with ε = 1e-08 the kernel weights of some kNN "
                                                     r"edges underflow to 0 and the weighted graph has 300 connected "
                                                     r"components; raise ε") as caught:
        algorithms.embed("diffusion_maps", roll[0], n_neighbors=K, epsilon=1e-8)
    assert caught.value.n_components == 300
