"""Tests of ``measures/geodesics.py``: shortest-path counts (NIEQA's importance) and residual variance."""

import importlib
import multiprocessing

import networkx as nx
import numpy as np
import pytest
from scipy.sparse.csgraph import shortest_path
from scipy.spatial.distance import pdist, squareform

import measures.chunks
from measures import (
    DisconnectedGraphError,
    MeasureError,
    all_geodesics,
    geodesic_graph,
    nearest_neighbors,
    residual_variance,
    shortest_path_counts,
)

geodesics_module = importlib.import_module("measures.geodesics")


def knn_graph(n_samples, n_neighbors, seed, n_features=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features))
    return X, geodesic_graph(X, nearest_neighbors(X, n_neighbors))


def to_networkx(graph):
    """The undirected weighted networkx graph of a stored (directed) kNN graph, every vertex kept."""
    coo = graph.tocoo()
    result = nx.Graph()
    result.add_nodes_from(range(graph.shape[0]))
    result.add_weighted_edges_from(zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()))
    return result


def interior_counts_by_path_enumeration(graph, sources):
    """Oracle: networkx's shortest path from each source to every target, interior vertices counted."""
    network = to_networkx(graph)
    counts = np.zeros(graph.shape[0], dtype=np.int64)
    for source in sources:
        for path in nx.single_source_dijkstra_path(network, int(source)).values():
            for vertex in path[1:-1]:
                counts[vertex] += 1
    return counts


# ---------------------------------------------------------------- shortest-path counts


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n_neighbors", [3, 6])
def test_counts_equal_twice_networkx_betweenness(seed, n_neighbors):
    # Random Euclidean edge lengths: every shortest path is unique, and the number of ordered
    # pairs through v is exactly twice networkx's unnormalized (unordered-pair) betweenness.
    _, graph = knn_graph(150, n_neighbors, seed)
    betweenness = nx.betweenness_centrality(to_networkx(graph), normalized=False, weight="weight")
    expected = 2.0 * np.array([betweenness[v] for v in range(150)])
    counts = shortest_path_counts(graph)
    assert counts.dtype == np.int64 and counts.max() > 100
    np.testing.assert_array_equal(counts, expected)


def test_counts_from_a_subset_of_sources_match_path_enumeration():
    _, graph = knn_graph(120, 4, seed=3)
    sources = np.array([0, 5, 17, 60, 119])
    np.testing.assert_array_equal(shortest_path_counts(graph, sources=sources),
                                  interior_counts_by_path_enumeration(graph, sources))


def test_counts_on_a_disconnected_graph_count_within_components():
    # Two clusters far apart: no path joins them, each is counted on its own.
    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal(size=(60, 2)), rng.normal(size=(40, 2)) + 100.0])
    graph = geodesic_graph(X, nearest_neighbors(X, 5))
    np.testing.assert_array_equal(shortest_path_counts(graph), interior_counts_by_path_enumeration(graph, range(100)))


def test_path_graph_worked_by_hand():
    # 0 - 1 - 2 - 3 with unit edges: vertex 1 is interior to (0,2), (0,3), (2,0), (3,0): 4;
    # vertex 2 likewise to (0,3), (1,3), (3,0), (3,1): 4; the ends to none.
    X = np.arange(4.0)[:, None]
    graph = geodesic_graph(X, np.array([[0, 1], [1, 0], [2, 1], [3, 2]]))
    assert shortest_path_counts(graph).tolist() == [0, 4, 4, 0]


def test_counts_do_not_depend_on_batch_or_block_size(monkeypatch):
    _, graph = knn_graph(200, 5, seed=5)
    default = shortest_path_counts(graph)
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 4000)  # 4000 / (48 * 200): 1 source per batch
    np.testing.assert_array_equal(shortest_path_counts(graph), default)


def test_subtree_sizes_of_a_hand_built_forest():
    # Tree of source 0: 0 <- 1 <- 2, 0 <- 3; vertex 4 unreached. Tree of source 4: 4 <- 3 <- 0 <- 1 <- 2.
    predecessors = np.array([[-9999, 0, 1, 0, -9999], [3, 0, 1, 4, -9999]])
    sizes = geodesics_module._subtree_sizes(predecessors)
    assert sizes.tolist() == [[4, 2, 1, 1, 1], [3, 2, 1, 4, 5]]


def test_geodesic_graph_lengths_are_symmetric_euclidean_distances():
    X, graph = knn_graph(80, 4, seed=6, n_features=3)
    coo = graph.tocoo()
    np.testing.assert_allclose(coo.data, np.linalg.norm(X[coo.row] - X[coo.col], axis=1), rtol=1e-15)
    dense = graph.toarray()
    both = (dense > 0) & (dense.T > 0)
    np.testing.assert_array_equal(dense[both], dense.T[both])  # bit for bit, as csgraph needs


# ---------------------------------------------------------------- residual variance


def dense_residual_variance(X, Y, n_neighbors):
    """Oracle: all geodesics at once, Pearson correlation over the pairs i < j."""
    geodesics = shortest_path(geodesic_graph(X, nearest_neighbors(X, n_neighbors)), directed=False)
    upper = np.triu_indices(len(X), 1)
    rho = np.corrcoef(geodesics[upper], squareform(pdist(Y))[upper])[0, 1]
    return 1.0 - rho**2


@pytest.mark.parametrize("seed", [0, 1])
def test_residual_variance_matches_the_dense_computation(seed, swiss_roll):
    X, arc_length_chart, raw_chart = swiss_roll(500, seed)
    for Y in (arc_length_chart, raw_chart, np.random.default_rng(seed).normal(size=(500, 2))):
        assert residual_variance(X, Y, 10) == pytest.approx(dense_residual_variance(X, Y, 10), abs=1e-12)


def test_residual_variance_is_small_for_isomaps_goal_and_invariant_to_similarities(swiss_roll):
    X, arc_length_chart, raw_chart = swiss_roll(800, 1)
    isometric = residual_variance(X, arc_length_chart, 10)
    assert isometric < 0.02 < residual_variance(X, raw_chart, 10)
    rotation = np.array([[0.6, -0.8], [0.8, 0.6]])
    assert residual_variance(X, 3.0 * arc_length_chart @ rotation + 7.0, 10) == pytest.approx(isometric, rel=1e-10)


def test_residual_variance_pivot_sampling_is_seeded_and_close(pivot_sampling, swiss_roll):
    X, _, raw_chart = swiss_roll(600, 2)
    exact = residual_variance(X, raw_chart, 10)
    pivot_sampling(500, 150)
    sampled = residual_variance(X, raw_chart, 10, random_state=3)
    assert sampled == residual_variance(X, raw_chart, 10, random_state=3)
    assert sampled != exact and sampled == pytest.approx(exact, abs=0.05)
    assert len(geodesics_module.pivot_sources(600, random_state=3)) == 150


def test_residual_variance_errors():
    rng = np.random.default_rng(7)
    X = np.vstack([rng.normal(size=(30, 2)), rng.normal(size=(30, 2)) + 50.0])
    with pytest.raises(DisconnectedGraphError, match=r"the k-nearest-neighbour graph \(k = 4\) has 2 connected "
                                                     r"components \(sizes 30, 30\); residual variance needs every "
                                                     r"geodesic distance finite\. Raise n_neighbors"):
        residual_variance(X, X, 4)
    with pytest.raises(MeasureError, match="every output distance is equal"):
        residual_variance(X[:30], np.zeros((30, 2)), 5)


def test_all_geodesics_in_batches_equal_one_all_pairs_call_and_networkx(monkeypatch):
    """Batches of sources (a deadline lands between them) give one call's distances bit for bit."""
    X = np.random.default_rng(4).normal(size=(60, 2))
    X[40:] += 50.0  # two components: inf between them
    graph = geodesic_graph(X, nearest_neighbors(X, 5), both_directions=True)
    monkeypatch.setattr(geodesics_module, "_PAIRS_PER_CALL", 7 * 60)  # batches of 7 sources
    distances = all_geodesics(graph)
    np.testing.assert_array_equal(distances, shortest_path(graph, method="D", directed=True))
    assert np.isinf(distances[0, 50]) and distances[0, 0] == 0.0
    lengths = dict(nx.all_pairs_dijkstra_path_length(to_networkx(graph)))
    np.testing.assert_allclose(distances[3, 17], lengths[3][17], rtol=1e-12)


def test_a_second_sweep_of_the_same_input_reads_the_first_s_rows_and_gives_the_same_numbers(monkeypatch):
    """Several outputs of one input (a comparison, GR Table 2): one Dijkstra, the same sums and counts."""
    X, graph = knn_graph(300, 6, seed=3, n_features=3)
    outputs = [np.random.default_rng(seed).normal(size=(300, 2)) for seed in (1, 2)]
    fresh = [geodesics_module.geodesic_sweep(graph, count_paths=True, output=Y) for Y in outputs]
    calls = []
    real = geodesics_module.dijkstra
    monkeypatch.setattr(geodesics_module, "dijkstra", lambda *a, **k: calls.append(1) or real(*a, **k))
    geodesics_module._sweeps.clear()
    swept = [geodesics_module.geodesic_sweep(graph, count_paths=True, output=Y) for Y in outputs]
    batches = len(calls)
    for (counts, sums), (counts_again, sums_again) in zip(fresh, swept):
        np.testing.assert_array_equal(counts, counts_again)
        np.testing.assert_array_equal(sums, sums_again)
    assert batches == len(list(measures.chunks.chunk_slices(300, geodesics_module._BYTES_PER_SOURCE_AND_VERTEX * 300)))
    # Another graph (k = 7), other sources, or counts not kept: Dijkstra runs again.
    geodesics_module.geodesic_sweep(geodesic_graph(X, nearest_neighbors(X, 7)), output=outputs[0])
    geodesics_module.geodesic_sweep(graph, sources=np.arange(10), output=outputs[0])
    assert len(calls) > batches + 1
    # The first input is still kept beside the other two, and read again.
    before = len(calls)
    geodesics_module.geodesic_sweep(graph, count_paths=True, output=outputs[1])
    assert len(calls) == before
    # Within the memory bound only: the least recently used go first, a sweep too large is not kept.
    monkeypatch.setattr(geodesics_module._sweeps, "budget", 8 * 300 * 300)
    geodesics_module._sweeps.put("another", geodesics_module._InputSweep(((np.arange(1), np.zeros((1, 300))),), None))
    assert geodesics_module._sweeps.keys() == ["another"]
    monkeypatch.setattr(geodesics_module._sweeps, "budget", 8 * 300 * 300 - 1)
    geodesics_module._sweeps.clear()
    geodesics_module.geodesic_sweep(graph, output=outputs[0])
    assert not len(geodesics_module._sweeps)


# ------------------------------------------------------------------ Dijkstra on every core (issue 24)

def _every_sweep(X, graph):
    """What each caller of measures.geodesics.dijkstra_batches computes from one graph: all-pairs geodesics
    (its two paths), a sweep's path counts and residual-variance sums, and DEMaP's pair distances."""
    from measures.distances import distance_spearman_values

    geodesics_module._sweeps.clear()
    swept = geodesics_module.geodesic_sweep(graph, count_paths=True, output=X[:, :2])
    geodesics_module._sweeps.clear()
    return (all_geodesics(geodesic_graph(X, nearest_neighbors(X, 6), both_directions=True)), *swept,
            *distance_spearman_values(X, X[:, :2], nearest_neighbors(X, 6)))


def test_sweeps_on_every_core_give_the_rows_and_sums_of_one_process_bit_for_bit(monkeypatch):
    X, graph = knn_graph(400, 6, seed=8, n_features=3)
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 48 * 400 * 37)  # batches of 37 sources: 11 of them
    monkeypatch.setattr(geodesics_module, "_PAIRS_PER_CALL", 400 * 37)
    monkeypatch.setattr(importlib.import_module("measures.processes"), "PARALLEL", False)
    alone = _every_sweep(X, graph)
    processes = importlib.import_module("measures.processes")
    monkeypatch.setattr(processes, "PARALLEL", True)
    monkeypatch.setattr(geodesics_module, "PARALLEL_FROM_PAIRS", 0)  # every sweep on the worker processes
    started, start = [], multiprocessing.context.ForkProcess.start
    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start",
                        lambda process: started.append(process) or start(process))
    shared = _every_sweep(X, graph)
    # the sweep, all-pairs (a sweep too) and DEMaP, each on every core
    assert len(started) == (3 * processes.cores() if processes.cores() > 1 else 0)
    assert len(alone) == len(shared) == 5
    for one, other in zip(alone, shared, strict=True):
        np.testing.assert_array_equal(one, other)
    np.testing.assert_allclose(alone[0], shortest_path(graph, directed=False), rtol=1e-15)  # and right


def test_geodesics_between_vertices_equal_one_dijkstra_read_at_them_on_every_core(monkeypatch):
    """issue 24: M_G's landmark geodesics in batches on the worker processes, each sending back only the
    landmarks' columns, are one all-pairs Dijkstra read at the landmarks, bit for bit, and networkx's."""
    X, graph = knn_graph(300, 6, seed=3)
    vertices = np.random.default_rng(4).permutation(300)[:40]
    monkeypatch.setattr(geodesics_module, "_PAIRS_PER_CALL", 300 * 7)  # batches of 7 sources: 6 of them
    monkeypatch.setattr(geodesics_module, "PARALLEL_FROM_PAIRS", 0)
    geodesics_module._sweeps.clear()  # computed, not read from a sweep another test kept
    told = []
    between = geodesics_module.geodesics_between(geodesic_graph(X, nearest_neighbors(X, 6), both_directions=True),
                                                  vertices, progress=lambda done, total: told.append((done, total)))
    expected = shortest_path(graph, directed=False, indices=vertices)[:, vertices]
    np.testing.assert_array_equal(between, expected)
    assert told == [(done, 40) for done in (7, 14, 21, 28, 35, 40)]
    lengths = nx.single_source_dijkstra_path_length(to_networkx(graph), int(vertices[0]))
    np.testing.assert_allclose(between[0], [lengths[int(v)] for v in vertices], rtol=1e-12)


def test_all_geodesics_past_the_memo_derive_an_independent_set_s_rows_from_their_neighbours(monkeypatch):
    """issue 24: above the sweep memo, the rows of an independent set come from their neighbours' rows,
    d(v, u) = min_t w(v, t) + d(t, u); the others are Dijkstra's, on the worker processes."""
    X = np.random.default_rng(6).normal(size=(300, 2))
    X[200:] += 50.0  # two components: inf between them
    X[10] = X[11]  # a zero-length edge
    graph = geodesic_graph(X, nearest_neighbors(X, 6), both_directions=True)
    monkeypatch.setattr(geodesics_module._sweeps, "budget", 0)  # too large to keep: the batched path
    monkeypatch.setattr(geodesics_module, "_PAIRS_PER_CALL", 300 * 11)
    monkeypatch.setattr(geodesics_module, "PARALLEL_FROM_PAIRS", 0)
    derived = geodesics_module._independent_vertices(graph)
    coo = graph.tocoo()
    joined = np.zeros(300, dtype=bool)
    joined[coo.col[np.isin(coo.row, derived)]] = True
    assert not joined[derived].any()  # independent
    assert joined[np.setdiff1d(np.arange(300), derived)].all()  # maximal: every other vertex has one as neighbour
    assert 0.1 < len(derived) / 300 < 0.3
    distances = all_geodesics(graph)
    expected = shortest_path(graph, method="D", directed=True)
    swept = np.setdiff1d(np.arange(300), derived)
    np.testing.assert_array_equal(distances[swept], expected[swept])  # Dijkstra's rows, bit for bit
    np.testing.assert_array_equal(np.isinf(distances), np.isinf(expected))
    np.testing.assert_allclose(distances, expected, rtol=1e-14, atol=0.0)
    assert np.all(np.diag(distances) == 0.0)


@pytest.mark.parametrize("case", ["self-loops", "one-way cycle", "a hub", "no edge leaves"])
def test_all_geodesics_past_the_memo_on_graphs_isomap_never_makes_equal_dijkstra(monkeypatch, case):
    """all_geodesics is public: self-loops, one-way edges, a vertex joined to all others and a vertex no edge
    leaves are derived correctly or left to Dijkstra (a self-loop once made the independent set loop forever)."""
    from scipy.sparse import csr_array

    n = 120
    if case == "self-loops":
        dense = np.diag(np.full(n, 0.5)) + np.diag(np.ones(n - 1), 1) + np.diag(np.ones(n - 1), -1)
    elif case == "one-way cycle":
        dense = np.roll(np.eye(n), 1, axis=1) * np.random.default_rng(1).uniform(0.5, 2.0, size=(n, 1))
    elif case == "a hub":
        dense = np.diag(np.ones(n - 1), 1) + np.diag(np.ones(n - 1), -1)
        dense[0, 1:] = dense[1:, 0] = 7.0
    else:
        dense = np.diag(np.ones(n - 1), 1)  # a one-way path: vertex n - 1 is left by no edge
    graph = csr_array(dense)
    monkeypatch.setattr(geodesics_module._sweeps, "budget", 0)
    monkeypatch.setattr(geodesics_module, "MAX_DERIVED_DEGREE", 16)
    derived = geodesics_module._independent_vertices(graph)
    assert len(derived) > 0 and 0 not in derived if case == "a hub" else len(derived) > 0
    np.testing.assert_allclose(all_geodesics(graph), shortest_path(graph, method="D", directed=True), rtol=1e-14)
