"""Tests of ``algorithms/landmark_isomap.py``: triangulation against a pseudo-inverse oracle and exact
cases, MaxMin against an all-pairs oracle, equality with Isomap when every point is a landmark, accuracy
on flat data, determinism, typed errors, and Isomap's refusal naming Landmark Isomap."""

import re

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra, shortest_path
from scipy.spatial import procrustes as scipy_procrustes
from scipy.spatial.distance import cdist

import algorithms
import datasets
import measures
from algorithms import Cancelled, DisconnectedGraphError, EmbeddingError, SampleLimitError
from algorithms import landmark_isomap as landmark_module
from algorithms.isomap import classical_scaling
from algorithms.landmark_isomap import landmark_geodesics, landmark_mds, triangulate


@pytest.fixture(scope="module")
def roll_graph(small_roll):
    """``(graph, all-pairs geodesics)`` of the 400-point roll at k = 8: Isomap's graph, and scipy's
    shortest paths on the one-way kNN graph taken as undirected (an oracle independent of it)."""
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    oracle = shortest_path(measures.geodesic_graph(small_roll.X, neighbors), method="D", directed=False)
    return measures.geodesic_graph(small_roll.X, neighbors, both_directions=True), oracle


# --- triangulation ------------------------------------------------------------------------------------


def _naive_triangulation(squared_distances, landmark_indices, landmark_coordinates):
    """[dST04 Eq. (3)] one point at a time, with L^# from numpy's pseudo-inverse (the oracle)."""
    L = landmark_coordinates.T  # d x m, rows sqrt(λ_i) v_i'
    pseudo_inverse_transpose = np.linalg.pinv(L).T  # d x m
    mean_column = squared_distances[:, landmark_indices].mean(axis=1)
    return np.array([-0.5 * pseudo_inverse_transpose @ (squared_distances[:, a] - mean_column)
                     for a in range(squared_distances.shape[1])])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_triangulation_matches_the_pseudo_inverse_formula_point_by_point(seed, small_roll, roll_graph):
    graph, _ = roll_graph
    landmarks, geodesics = landmark_geodesics(graph, 40, seed)
    squared = geodesics**2
    coordinates = classical_scaling(squared[:, landmarks], 2, seed)
    np.testing.assert_allclose(triangulate(squared, landmarks, coordinates),
                               _naive_triangulation(squared, landmarks, coordinates), rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("selection", ["maxmin", "random"])
def test_triangulation_puts_each_landmark_on_its_own_coordinates(selection, roll_graph):
    # Graph geodesics of a swiss roll are not Euclidean in 2-D, yet a landmark's column of Δ_m gives
    # back its classical-scaling coordinates exactly ([dST04]: B = -½ H Δ_m H, v_i ⟂ 1).
    graph, _ = roll_graph
    landmarks, geodesics = landmark_geodesics(graph, 60, 3, selection=selection)
    squared = geodesics**2
    block = squared[:, landmarks]
    coordinates = classical_scaling(0.5 * (block + block.T), 2, 0)
    Y = triangulate(squared, landmarks, coordinates)
    np.testing.assert_allclose(Y[landmarks], coordinates, rtol=0, atol=1e-10 * np.abs(coordinates).max())


@pytest.mark.parametrize(("dimension", "n_landmarks"), [(1, 2), (2, 3), (2, 10), (3, 4), (3, 25)])
def test_triangulation_is_exact_for_euclidean_distances(dimension, n_landmarks, rigid_misfit):
    # d + 1 landmarks in general position pin down a point of R^d from its distances to them.
    points = np.random.default_rng(dimension).uniform(-3.0, 3.0, size=(200, dimension))
    landmarks = np.arange(n_landmarks)
    squared = cdist(points[landmarks], points, "sqeuclidean")
    Y = triangulate(squared, landmarks, classical_scaling(squared[:, landmarks].copy(), dimension, 0))
    assert rigid_misfit(Y, points) < 1e-10


def test_landmark_mds_is_centred_on_its_principal_axes(roll_graph):
    graph, _ = roll_graph
    landmarks, geodesics = landmark_geodesics(graph, 30, 0)
    Y = landmark_mds(geodesics**2, landmarks, 2, 0)
    np.testing.assert_allclose(Y.mean(axis=0), 0.0, atol=1e-10 * np.abs(Y).max())
    covariance = Y.T @ Y
    assert abs(covariance[0, 1]) < 1e-10 * covariance[0, 0] and covariance[0, 0] > covariance[1, 1]


# --- landmark choice ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_maxmin_takes_the_point_farthest_from_the_landmarks_so_far(seed, roll_graph):
    graph, geodesics_all = roll_graph
    landmarks, geodesics = landmark_geodesics(graph, 25, seed)
    np.testing.assert_allclose(geodesics, geodesics_all[landmarks], rtol=1e-12)
    assert landmarks[0] == np.random.default_rng(seed).integers(graph.shape[0])
    for j in range(1, landmarks.size):
        nearest = geodesics_all[landmarks[:j]].min(axis=0)
        assert landmarks[j] == np.argmax(nearest), j
    assert np.unique(landmarks).size == landmarks.size


def test_maxmin_landmarks_cover_the_graph_within_twice_the_best_radius(roll_graph):
    # Gonzalez's argument: the covering radius r of m MaxMin landmarks (largest geodesic distance to the
    # nearest landmark) is the distance of the (m+1)-th pick to them, and the m + 1 picks are pairwise
    # at least r apart, so ANY m centres leave a point at distance >= r/2: random ones included.
    graph, geodesics_all = roll_graph
    landmarks, _ = landmark_geodesics(graph, 21, 0)
    radius = geodesics_all[landmarks[:20]].min(axis=0).max()
    picks = geodesics_all[np.ix_(landmarks, landmarks)]
    assert picks[np.triu_indices(21, 1)].min() >= radius * (1 - 1e-12)
    random_radii = [geodesics_all[landmark_geodesics(graph, 20, seed, selection="random")[0]].min(axis=0).max()
                    for seed in range(5)]
    assert radius <= 2 * min(random_radii)
    assert radius < np.median(random_radii)  # and in practice well below


def test_random_landmarks_are_distinct_seeded_draws_with_their_geodesics(roll_graph):
    graph, geodesics_all = roll_graph
    landmarks, geodesics = landmark_geodesics(graph, 50, 7, selection="random")
    np.testing.assert_array_equal(landmarks, np.random.default_rng(7).choice(graph.shape[0], 50, replace=False))
    np.testing.assert_allclose(geodesics, geodesics_all[landmarks], rtol=1e-12)


def test_random_landmark_geodesics_do_not_depend_on_the_chunk_size(roll_graph, monkeypatch):
    graph, _ = roll_graph
    calls = []

    def counted_dijkstra(*args, **kwargs):
        calls.append(kwargs["indices"])
        return dijkstra(*args, **kwargs)

    monkeypatch.setattr(landmark_module, "dijkstra", counted_dijkstra)
    whole = landmark_geodesics(graph, 50, 7, selection="random")
    assert len(calls) == 1  # 50 sources of 400 vertices: one batch under the default budget
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 1)  # one source per batch
    pieces = landmark_geodesics(graph, 50, 7, selection="random")
    assert len(calls) == 51
    np.testing.assert_array_equal(pieces[0], whole[0])
    np.testing.assert_array_equal(pieces[1], whole[1])


def test_unknown_selection_is_refused(roll_graph):
    with pytest.raises(EmbeddingError, match=r"landmark selection must be one of \['maxmin', 'random'\]; got 'kmeans'"):
        landmark_geodesics(roll_graph[0], 5, 0, selection="kmeans")


# --- the embedding ------------------------------------------------------------------------------------


@pytest.mark.parametrize("selection", ["maxmin", "random"])
@pytest.mark.parametrize("seed", [0, 1])
def test_every_point_a_landmark_is_isomap(selection, seed, small_roll):
    X = small_roll.X
    isomap = algorithms.embed("isomap", X, n_neighbors=8, random_state=seed)
    for n_landmarks in (400, 5000):  # more landmarks than points: all of them
        Y = algorithms.embed("landmark_isomap", X, n_neighbors=8, random_state=seed, n_landmarks=n_landmarks,
                             landmark_selection=selection)
        np.testing.assert_allclose(Y, isomap, rtol=0, atol=1e-8)
        np.testing.assert_allclose(cdist(Y, Y), cdist(isomap, isomap), rtol=0, atol=1e-8)


def test_every_point_a_landmark_is_isomap_in_three_dimensions(small_roll):
    X = small_roll.X
    isomap = algorithms.embed("isomap", X, n_neighbors=8, n_components=3)
    Y = algorithms.embed("landmark_isomap", X, n_neighbors=8, n_components=3, n_landmarks=400)
    np.testing.assert_allclose(cdist(Y, Y), cdist(isomap, isomap), rtol=0, atol=1e-8)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_flat_strip_is_recovered_up_to_a_rigid_motion(seed, rigid_misfit):
    strip = datasets.load("strip", 1500, random_state=seed)
    Y = algorithms.embed("landmark_isomap", strip.X, n_neighbors=20, n_landmarks=50, random_state=seed)
    isomap = algorithms.embed("isomap", strip.X, n_neighbors=20, random_state=seed)
    landmark_rn, isomap_rn = (measures.procrustes(strip.X, Z, 20) for Z in (Y, isomap))
    assert landmark_rn < 0.05 and landmark_rn < 1.1 * isomap_rn
    assert scipy_procrustes(strip.truth, Y)[2] < 1e-3
    assert rigid_misfit(Y, strip.truth) < 0.05  # at the input's scale


def test_few_landmarks_track_isomap_on_the_swiss_roll():
    roll = datasets.load("swissroll", 1600, random_state=0)
    isomap = algorithms.embed("isomap", roll.X, n_neighbors=10)
    isomap_rn = measures.procrustes(roll.X, isomap, 10)
    for n_landmarks in (50, 200):
        Y = algorithms.embed("landmark_isomap", roll.X, n_neighbors=10, n_landmarks=n_landmarks)
        assert measures.procrustes(roll.X, Y, 10) < 1.1 * isomap_rn
        assert scipy_procrustes(isomap, Y)[2] < 1e-3  # the same global shape as Isomap's
    # and the swiss roll is unrolled: close to its isometric chart, unlike the raw input.
    assert scipy_procrustes(roll.truth, Y)[2] < 0.02


def test_curve_is_embedded_by_its_arc_length(helix):
    t, X = helix
    Y = algorithms.embed("landmark_isomap", X, n_neighbors=5, n_components=1, n_landmarks=10)[:, 0]
    arc_length = t * np.sqrt(1.0 + 0.2**2)
    direction = np.sign(np.corrcoef(Y, arc_length)[0, 1])
    np.testing.assert_allclose(direction * (Y - Y.mean()), arc_length - arc_length.mean(), atol=2e-3)


@pytest.mark.slow
def test_above_isomaps_limit_landmark_isomap_embeds_the_same_sample():
    roll = datasets.load("swissroll", algorithms.spec("isomap").sample_limit(10) + 1, random_state=0)
    with pytest.raises(SampleLimitError):
        algorithms.embed("isomap", roll.X, n_neighbors=10)
    Y = algorithms.embed("landmark_isomap", roll.X, n_neighbors=10, n_landmarks=60)
    assert measures.procrustes(roll.X, Y, 10) < 0.1
    assert scipy_procrustes(roll.truth, Y)[2] < 0.02


def test_same_seed_same_output_other_seed_other_landmarks(small_roll, roll_graph):
    X = small_roll.X
    first, again, other = (algorithms.embed("landmark_isomap", X, n_neighbors=8, n_landmarks=30, random_state=seed)
                           for seed in (0, 0, 1))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    assert scipy_procrustes(first, other)[2] < 1e-3  # other landmarks, nearly the same embedding
    for selection in ("maxmin", "random"):
        landmarks = [landmark_geodesics(roll_graph[0], 30, seed, selection=selection)[0] for seed in (0, 0, 1)]
        assert np.array_equal(landmarks[0], landmarks[1]) and not np.array_equal(landmarks[0], landmarks[2])


# --- errors -------------------------------------------------------------------------------------------


def test_disconnected_graph_is_refused(two_clusters):
    with pytest.raises(DisconnectedGraphError, match=r"\(k = 5\) has 2 connected components \(sizes 60, 40\); "
                                                     r"Landmark Isomap cannot place them.*Raise k\."):
        algorithms.embed("landmark_isomap", two_clusters, n_neighbors=5, n_landmarks=10)


@pytest.mark.parametrize(("n_landmarks", "n_components"), [(2, 2), (3, 3)])
def test_no_more_landmarks_than_dimensions_is_refused(n_landmarks, n_components, small_roll):
    with pytest.raises(EmbeddingError, match=rf"m landmarks span at most m - 1; got n_landmarks = {n_landmarks} for "
                                             rf"n_components = {n_components}\. Raise n_landmarks\."):
        algorithms.embed("landmark_isomap", small_roll.X, n_neighbors=8, n_landmarks=n_landmarks,
                         n_components=n_components)


def test_landmark_geodesics_above_the_memory_budget_are_refused_naming_the_largest_m(small_roll, monkeypatch):
    entry = algorithms.spec("landmark_isomap")
    budget = entry.memory_bytes(400, 8, 2, n_landmarks=25)
    monkeypatch.setattr(algorithms.registry, "MEMORY_BUDGET", budget)
    with pytest.raises(SampleLimitError, match=r"^Landmark Isomap would need about .* at n = 400 \(k = 8, d = 2\), "
                                               r"above the memory budget of .*\. Landmark Isomap keeps the geodesics "
                                               r"from each of its m = 30 landmarks to all 400 points\. Use at most 25 "
                                               r"landmarks at this n, or fewer points\.$") as caught:
        algorithms.embed("landmark_isomap", small_roll.X, n_neighbors=8, n_landmarks=30)
    assert caught.value.bytes_needed == entry.memory_bytes(400, 8, 2, n_landmarks=30)
    assert algorithms.embed("landmark_isomap", small_roll.X, n_neighbors=8, n_landmarks=25).shape == (400, 2)


def test_isomap_above_its_limit_names_landmark_isomap():
    # The real entry at its real limit: refused before any neighbour search, so this is quick.
    limit = algorithms.spec("isomap").sample_limit(10)
    X = np.zeros((limit + 1, 3))
    with pytest.raises(SampleLimitError, match=rf"^Isomap would need about 4.0 GB at n = {limit + 1} .*Use at most "
                                               rf"{limit} points, or Landmark Isomap \(algorithm 'landmark_isomap'\), "
                                               r"which needs far less memory\.$") as caught:
        algorithms.embed("isomap", X, n_neighbors=10)
    assert caught.value.alternative == "landmark_isomap"
    assert algorithms.spec("landmark_isomap").sample_limit(10) > 30 * limit


def test_classical_mds_above_its_limit_names_pca(monkeypatch):
    X = datasets.load("strip", 51, random_state=0).X
    monkeypatch.setattr(algorithms.registry, "MEMORY_BUDGET", algorithms.spec("mds").memory_bytes(50, 8, 2))
    with pytest.raises(SampleLimitError, match=re.escape("Use at most 50 points, or PCA (algorithm 'pca'), which needs "
                                                         "far less memory.")) as caught:
        algorithms.embed("mds", X, n_neighbors=8)
    assert caught.value.alternative == "pca"


# --- long runs ----------------------------------------------------------------------------------------


def test_progress_is_reported_and_a_stop_cancels(small_roll, monkeypatch):
    monkeypatch.setattr(algorithms.longrun, "CHECK_SECONDS", 0.0)  # report on every landmark
    reports = []
    Y = algorithms.embed("landmark_isomap", small_roll.X, n_neighbors=8, n_landmarks=40,
                         progress=lambda fraction, info: reports.append((fraction, info)))
    fractions = [fraction for fraction, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(fractions) > 40
    assert reports[0][1]["stage"] == "MaxMin landmarks" and reports[-1][1]["stage"] == "triangulated"
    assert np.array_equal(Y, algorithms.embed("landmark_isomap", small_roll.X, n_neighbors=8, n_landmarks=40))
    with pytest.raises(Cancelled, match="Landmark Isomap was cancelled; no result was produced"):
        algorithms.embed("landmark_isomap", small_roll.X, n_neighbors=8, n_landmarks=40, should_stop=lambda: True)
