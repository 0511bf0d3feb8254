"""Tests of ``algorithms/isomap.py``: classical scaling against hand-checkable oracles, and Isomap on
flat data, where it is exact in the limit (graph geodesics tend to Euclidean distances)."""

import numpy as np
import pytest
from scipy.sparse.csgraph import shortest_path
from scipy.sparse.linalg import ArpackNoConvergence
from scipy.spatial import procrustes as scipy_procrustes
from scipy.spatial.distance import cdist
from sklearn.manifold import Isomap

import algorithms
import datasets
import measures
from algorithms import ConvergenceError, SolverError
from algorithms import isomap as isomap_module
from algorithms.isomap import classical_scaling
from algorithms.scaling import fix_signs


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_classical_scaling_recovers_points_from_their_squared_distances(seed, rigid_misfit):
    points = np.random.default_rng(seed).uniform(-5.0, 5.0, size=(60, 2))
    Y = classical_scaling(cdist(points, points, "sqeuclidean"), 2, seed)
    assert rigid_misfit(Y, points) < 1e-8
    np.testing.assert_allclose(cdist(Y, Y), cdist(points, points), atol=1e-8)
    # Principal axes: centred, uncorrelated coordinates in decreasing order of spread.
    np.testing.assert_allclose(Y.mean(axis=0), 0.0, atol=1e-10)
    assert abs(Y[:, 0] @ Y[:, 1]) < 1e-8 and Y[:, 0] @ Y[:, 0] > Y[:, 1] @ Y[:, 1]


def test_classical_scaling_of_a_worked_example():
    # Square of side 2 centred at 0: B = -½ H D² H = P P', whose non-zero eigenvalues are those of
    # P'P = diag(4, 4); so Y'Y = Λ = 4 I.
    square = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])
    Y = classical_scaling(cdist(square, square, "sqeuclidean"), 2, 0)
    np.testing.assert_allclose(Y.T @ Y, 4.0 * np.eye(2), atol=1e-12)
    np.testing.assert_allclose(cdist(Y, Y), cdist(square, square), atol=1e-12)


def test_classical_scaling_refuses_too_few_positive_eigenvalues():
    # B = v v' - (P - v v' / |v|²) on the centred subspace (P the centring projector): one positive
    # eigenvalue, |v|², then 0 (the constants) and -1 (n - 2 times). The squared distances
    # B_ii + B_jj - 2 B_ij are not Euclidean; a third coordinate would be imaginary.
    n = 8
    v = np.arange(n, dtype=float) - (n - 1) / 2
    centring = np.eye(n) - 1.0 / n
    B = np.outer(v, v) - (centring - np.outer(v, v) / (v @ v))
    squared = np.diag(B)[:, None] + np.diag(B)[None, :] - 2 * B
    with pytest.raises(SolverError, match=r"classical scaling: only 1 positive eigenvalue\(s\), 3 needed; "
                                          "the distances are far from Euclidean or span fewer dimensions"):
        classical_scaling(squared, 3, 0)


@pytest.mark.parametrize("n", [3, 4, 10, 50])
def test_classical_scaling_refuses_a_second_coordinate_for_collinear_points(n):
    # Points on a line span one dimension: the second eigenvalue is the null direction's rounding,
    # whatever its sign, and must not become a coordinate of ~1e-8 noise.
    line = np.linspace(0.0, 1.0, n)
    with pytest.raises(SolverError, match=r"only 1 positive eigenvalue\(s\), 2 needed"):
        classical_scaling(np.subtract.outer(line, line) ** 2, 2, 0)


def test_classical_scaling_reports_arpack_failure(monkeypatch):
    def no_convergence(*args, **kwargs):
        raise ArpackNoConvergence("ARPACK error -1: No convergence", np.empty(0), np.empty((0, 0)))

    monkeypatch.setattr(isomap_module, "eigsh", no_convergence)
    points = np.random.default_rng(0).uniform(size=(20, 2))
    with pytest.raises(ConvergenceError,
                       match=r"ARPACK did not converge for 2 eigenpairs of an 20x20 matrix") as caught:
        classical_scaling(cdist(points, points, "sqeuclidean"), 2, 0)
    assert isinstance(caught.value.__cause__, ArpackNoConvergence)


def test_isomap_on_a_complete_graph_is_pca():
    # With k = n - 1 every pair is an edge, and the direct edge is the shortest path (triangle
    # inequality): the geodesics are the Euclidean distances, whose classical scaling is PCA.
    X = datasets.load("swissroll", 120, random_state=4).X
    isomap = algorithms.embed("isomap", X, n_neighbors=119)
    np.testing.assert_allclose(isomap, algorithms.embed("pca", X, n_neighbors=1), atol=1e-8)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_isomap_recovers_a_flat_strip_up_to_a_rigid_motion(seed, rigid_misfit):
    strip = datasets.load("strip", 600, random_state=seed)
    Y = algorithms.embed("isomap", strip.X, n_neighbors=20)
    assert measures.procrustes(strip.X, Y, 20, variant="normalized") < 0.05
    assert scipy_procrustes(strip.truth, Y)[2] < 1e-3  # shape, scale removed
    assert rigid_misfit(Y, strip.truth) < 0.05  # and the scale is the input's


def test_isomap_error_on_a_strip_falls_as_k_grows():
    # Graph geodesics zig-zag; more neighbours straighten them towards Euclidean distances.
    strip = datasets.load("strip", 600, random_state=0)
    scores = [measures.procrustes(strip.X, algorithms.embed("isomap", strip.X, n_neighbors=k), k, variant="normalized")
              for k in (10, 20, 30)]
    assert scores[0] > 2 * scores[1] > 4 * scores[2]


def test_isomap_of_a_curve_is_its_arc_length(helix):
    # 1-D Isomap returns arc length up to a translation and a reflection (chords fall short of arcs
    # by < 1e-4 at this spacing).
    t, X = helix
    Y = algorithms.embed("isomap", X, n_neighbors=5, n_components=1)[:, 0]
    arc_length = t * np.sqrt(1.0 + 0.2**2)
    direction = np.sign(np.corrcoef(Y, arc_length)[0, 1])
    np.testing.assert_allclose(direction * (Y - Y.mean()), arc_length - arc_length.mean(), atol=2e-3)


def test_isomap_matches_scikit_learn():
    # Independent implementation (its own kNN graph, Dijkstra and KernelPCA): same embedding up to signs.
    roll = datasets.load("swissroll", 500, random_state=2)
    reference = Isomap(n_neighbors=10, n_components=2, path_method="D").fit_transform(roll.X)
    np.testing.assert_allclose(algorithms.embed("isomap", roll.X, n_neighbors=10), fix_signs(reference), atol=1e-8)


def test_isomap_coordinates_are_nested_across_dimensions(small_roll):
    # The top eigenvectors do not depend on how many are asked for.
    one, two, three = (algorithms.embed("isomap", small_roll.X, n_neighbors=8, n_components=d) for d in (1, 2, 3))
    np.testing.assert_allclose(one[:, 0], two[:, 0], atol=1e-10)
    np.testing.assert_allclose(three[:, :2], two, atol=1e-10)


def test_two_way_graph_stores_both_directions_and_keeps_the_geodesics(small_roll):
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    one_way = measures.geodesic_graph(small_roll.X, neighbors)
    graph = measures.geodesic_graph(small_roll.X, neighbors, both_directions=True)
    assert (graph != graph.T).nnz == 0
    assert graph.nnz > one_way.nnz  # the one-way graph lacks the reverse of non-mutual edges
    np.testing.assert_array_equal(shortest_path(graph, method="D", directed=True),
                                  shortest_path(one_way, method="D", directed=False))


@pytest.mark.parametrize("scale", [1.0, 3.0e-5])
def test_isomap_and_the_measures_of_its_output_share_one_dijkstra_pass(monkeypatch, scale):
    """Isomap's geodesics are the graph measures' rows (M_G, residual variance, DEMaP): one pass of
    Dijkstra serves both, and every number equals what two separate passes give, bit for bit."""
    X = scale * datasets.load("swissroll", 400, random_state=5).X
    neighbors = measures.nearest_neighbors(X, 10)
    graph = measures.geodesic_graph(X, neighbors, both_directions=True)
    separate_geodesics = shortest_path(graph, method="D", directed=True)
    geodesics_module = measures.geodesics
    geodesics_module._sweeps.clear()
    Y = algorithms.embed("isomap", X, n_neighbors=10)
    names = ["nieqa_global", "residual_variance", "distance_spearman"]
    together = measures.evaluate(X, Y, 10, which=names)
    geodesics_module._sweeps.clear()
    apart = measures.evaluate(X, Y, 10, which=names)
    assert together.mean == apart.mean
    sources = []
    real = geodesics_module.dijkstra
    monkeypatch.setattr(geodesics_module, "dijkstra",
                        lambda *a, **k: sources.append(len(k["indices"])) or real(*a, **k))
    geodesics_module._sweeps.clear()
    again = algorithms.embed("isomap", X, n_neighbors=10)
    assert measures.evaluate(X, again, 10, which=names).mean == together.mean
    assert sum(sources) == len(X)  # every source once: the measures read the algorithm's rows
    # The geodesics Isomap scaled are one all-pairs call's, bit for bit (the power-of-two scaling is exact).
    monkeypatch.setattr(isomap_module, "classical_scaling", lambda squared, d, seed: np.sqrt(squared))
    np.testing.assert_array_equal(isomap_module.isomap(X, neighbors, 2, 0), separate_geodesics)
