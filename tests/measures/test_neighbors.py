"""Tests of ``measures/neighbors.py``: the one exact kNN routine (SPEC §0)."""

import importlib

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from measures import (
    MeasureError,
    check_points,
    nearest_neighbors,
    neighbor_graph_components,
    neighbor_search,
)


def brute_force_neighbors(X, n_neighbors):
    """Oracle: full distance matrix, stable argsort, first ``n_neighbors + 1`` columns."""
    return np.argsort(cdist(X, X), axis=1, kind="stable")[:, : n_neighbors + 1]


def assert_self_first_and_distinct(neighbors):
    rows = np.arange(neighbors.shape[0])
    np.testing.assert_array_equal(neighbors[:, 0], rows)
    sorted_rows = np.sort(neighbors, axis=1)
    assert not (sorted_rows[:, 1:] == sorted_rows[:, :-1]).any(), "an index repeats within a row"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n_features, n_neighbors", [(1, 4), (3, 12), (10, 7)])
def test_matches_brute_force_without_ties(seed, n_features, n_neighbors):
    X = np.random.default_rng(seed).normal(size=(300, n_features))
    neighbors = nearest_neighbors(X, n_neighbors)
    assert neighbors.shape == (300, n_neighbors + 1)
    assert neighbors.dtype == np.int64
    np.testing.assert_array_equal(neighbors, brute_force_neighbors(X, n_neighbors))


def test_self_first_in_every_row():
    X = np.random.default_rng(3).uniform(size=(500, 2))
    assert_self_first_and_distinct(nearest_neighbors(X, 9))


@pytest.mark.parametrize("n_copies", [2, 5, 6, 9])
def test_duplicates_keep_self_first_and_the_true_distances(n_copies):
    # n_copies of one point (k + 1 = 6 copies: a tree may return six twins and miss the point
    # itself), plus several exact twin pairs among distinct random points.
    n_neighbors = 5
    rng = np.random.default_rng(4)
    base = rng.normal(size=(60, 3))
    X = np.vstack([base, base[:8], np.repeat(rng.normal(size=(1, 3)), n_copies, axis=0)])
    X = X[rng.permutation(len(X))]
    neighbors = nearest_neighbors(X, n_neighbors)
    assert_self_first_and_distinct(neighbors)
    # The neighbourhood is a set of k + 1 nearest points: its distance profile is the brute-force one.
    distances = np.linalg.norm(X[neighbors] - X[:, None, :], axis=2)
    np.testing.assert_array_equal(np.sort(distances, axis=1), np.sort(cdist(X, X), axis=1)[:, : n_neighbors + 1])


def test_all_points_identical_still_self_first():
    neighbors = nearest_neighbors(np.ones((7, 2)), 3)
    assert_self_first_and_distinct(neighbors)


def test_deterministic():
    X = np.random.default_rng(5).normal(size=(400, 3))
    np.testing.assert_array_equal(nearest_neighbors(X, 8), nearest_neighbors(X.copy(), 8))


@pytest.mark.parametrize("n_neighbors", [10, 11, 0, -1, 3.0, 2.5, True, "3", None])
def test_bad_n_neighbors_raises(n_neighbors):
    X = np.random.default_rng(6).normal(size=(10, 2))
    with pytest.raises(MeasureError, match=r"n_neighbors must be an integer in \[1, 9\]; got .*Choose a smaller k"):
        nearest_neighbors(X, n_neighbors)


def test_numpy_integer_n_neighbors_accepted():
    X = np.random.default_rng(6).normal(size=(10, 2))
    np.testing.assert_array_equal(nearest_neighbors(X, np.int64(9)), brute_force_neighbors(X, 9))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_raises_naming_the_row(bad):
    X = np.random.default_rng(7).normal(size=(20, 2))
    X[13, 1] = bad
    with pytest.raises(MeasureError, match="NaN or infinite values in 1 row\\(s\\), first at row 13"):
        nearest_neighbors(X, 3)


@pytest.mark.parametrize("shape", [(0, 2), (5, 0), (5,), (2, 2, 2)])
def test_check_points_rejects_bad_shapes(shape):
    with pytest.raises(MeasureError, match=r"Y must be a non-empty 2-D array"):
        check_points(np.zeros(shape), "Y")


def test_check_points_returns_contiguous_float64():
    X = check_points(np.arange(12).reshape(3, 4)[:, ::2])
    assert X.dtype == np.float64 and X.flags.c_contiguous
    np.testing.assert_array_equal(X, [[0, 2], [4, 6], [8, 10]])


def test_two_far_clusters_are_two_components():
    rng = np.random.default_rng(8)
    X = np.vstack([rng.normal(size=(50, 2)), rng.normal(size=(70, 2)) + 100.0])
    n_components, labels = neighbor_graph_components(nearest_neighbors(X, 5))
    assert n_components == 2
    assert len(set(labels[:50])) == 1 and len(set(labels[50:])) == 1
    assert labels[0] != labels[50]


def test_one_cloud_is_one_component():
    X = np.random.default_rng(9).uniform(size=(300, 2))
    n_components, labels = neighbor_graph_components(nearest_neighbors(X, 6))
    assert n_components == 1 and not labels.any()


def test_components_use_the_symmetrised_graph():
    # With k = 1 the edges are 0 -> 1, 1 -> 0, 2 -> 1, 3 -> 2: no point picks 3 as its neighbour,
    # so 3 joins the others only if the graph is taken undirected.
    X = np.array([[0.0], [1.0], [2.2], [4.0]])
    neighbors = nearest_neighbors(X, 1)
    assert 3 not in neighbors[:3]
    assert neighbor_graph_components(neighbors)[0] == 1


def test_the_approximate_index_finds_the_exact_neighbours_and_reports_its_recall():
    # Many columns, low intrinsic dimension (images): HNSW's neighbours, re-sorted by exact
    # distances with the tie rule, are the exact ones here; its recall is measured, not assumed.
    rng = np.random.default_rng(14)
    X = np.tanh(rng.uniform(-1, 1, size=(3000, 3)) @ rng.normal(size=(3, 40))) + 0.01 * rng.normal(size=(3000, 40))
    found = neighbor_search(X, 10, method="approximate", random_state=1)
    exact = nearest_neighbors(X, 10)
    assert found.method == "approximate" and found.recall == pytest.approx(
        np.mean((found.neighbors[:, 1:, None] == exact[:, None, 1:]).any(axis=2)), abs=0.02)
    assert found.recall > 0.99 and "recall" in found.description
    np.testing.assert_array_equal(found.neighbors[:, 0], np.arange(3000))
    assert (found.neighbors == exact).mean() > 0.99
    np.testing.assert_array_equal(neighbor_search(X, 10, method="approximate", random_state=1).neighbors,
                                  found.neighbors)


def test_the_switch_to_the_approximate_index_follows_the_measured_rule(monkeypatch):
    neighbors_module = importlib.import_module("measures.neighbors")
    X = np.random.default_rng(15).normal(size=(400, 20))
    assert neighbor_search(X, 5).method == "exact"  # 400 points: below the size rule
    monkeypatch.setattr(neighbors_module, "APPROXIMATE_ABOVE_SAMPLES", 300)
    assert neighbor_search(X, 5).method == "approximate"
    assert neighbor_search(X[:, :16], 5).method == "exact"  # 16 columns: the tree's domain
    with pytest.raises(MeasureError, match="method must be one of"):
        neighbor_search(X, 5, method="fast")
