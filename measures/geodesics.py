"""Graph geodesics on the kNN graph: shortest-path counts (NIEQA's landmark importance) and the
residual variance of Isomap, both from one sweep of Dijkstra over batches of sources.

The graph is the symmetrised k-nearest-neighbour graph of the input with Euclidean edge lengths,
built on :func:`measures.nearest_neighbors` (SPEC §0). Nothing here holds an n x n matrix: each
batch of sources gets its rows of distances and predecessors, which are reduced and dropped. The
batches of a large sweep run on every core, in forked processes (:func:`dijkstra_batches`): SciPy's
Dijkstra holds the interpreter, so threads would take turns.

References
----------
.. [TSL] J. B. Tenenbaum, V. de Silva and J. C. Langford, "A global geometric framework for
   nonlinear dimensionality reduction", Science 290 (2000) 2319-2323 (residual variance).
.. [NQ] P. Zhang, Y. Ren and B. Zhang, "A new embedding quality assessment method for manifold
   learning", Neurocomputing 97 (2012) 251-266 (importance = number of shortest paths, §IV-B).
.. [BP] U. Brandes and C. Pich, "Centrality estimation in large networks", Int. J. Bifurcation and
   Chaos 17 (2007) 2303-2318 (pivot sampling).
"""

import contextlib
import dataclasses

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_array
from scipy.sparse.csgraph import dijkstra
from scipy.spatial.distance import cdist

from .chunks import chunk_slices
from .errors import DisconnectedGraphError, MeasureError
from .memo import InputMemo, digest
from .neighbors import (
    check_pair,
    nearest_neighbors,
    neighbor_graph,
    neighbor_graph_components,
    power_of_two_scaled,
)
from .processes import ordered_map, shared_empty, thread_map
from .seeding import check_random_state

__all__ = [
    "EXACT_UP_TO",
    "PIVOT_SOURCES",
    "all_geodesics",
    "check_connected",
    "dijkstra_batches",
    "geodesic_graph",
    "geodesic_sweep",
    "geodesics_between",
    "pivot_count",
    "pivot_sources",
    "residual_variance",
    "residual_variance_from_sums",
    "shortest_path_counts",
    "sweep_approximation",
]

# Above EXACT_UP_TO points, graph sweeps start from PIVOT_SOURCES seeded random sources instead of
# all n (Brandes & Pich 2007): all-pairs Dijkstra costs ~1.2 ms per source at n = 5 000, k = 10
# on this machine and grows like n log n per source.
EXACT_UP_TO = 10_000
PIVOT_SOURCES = 2_000
# Beyond PAIR_BUDGET / PIVOT_SOURCES points the sources shrink so that a sweep visits about
# PAIR_BUDGET (source, vertex) pairs: one Dijkstra over a million-point kNN graph (k = 12) takes
# ~0.5 s here, so 50 sources, 5e7 pairs, keep the residual variance near half a minute at n = 1e6.
PAIR_BUDGET = 50_000_000
MIN_PIVOT_SOURCES = 32
# Working memory of one source in a sweep, in units of n: distances and predecessors from Dijkstra,
# and for the residual variance the output distances and the selected pairs.
_BYTES_PER_SOURCE_AND_VERTEX = 48
# (source, vertex) pairs from which a sweep's Dijkstra runs on every core (measures.processes): about a
# second of work at 0.2-0.25 us a pair, against a pool's start (0.1 s) and the rows' trip back (8 bytes a pair).
PARALLEL_FROM_PAIRS = 5_000_000


def geodesic_graph(X, neighbors, *, both_directions=False):
    """The kNN graph of ``X`` with Euclidean edge lengths, for use as an undirected graph.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        From :func:`measures.nearest_neighbors`, the point first.
    both_directions : bool, default=False
        Store both directions of every edge (see :func:`_symmetrized`), so that
        ``dijkstra(directed=True)`` gives the undirected distances, faster than
        ``directed=False`` on the one-way graph (which scipy symmetrizes on every call).

    Returns
    -------
    scipy.sparse.csr_array of shape (n_samples, n_samples)
        Edge ``i -> j`` for each neighbour j of i, of length ``||x_i - x_j||``. Both directions of
        an edge carry the same length bit for bit (``x_i - x_j = -(x_j - x_i)`` exactly), as
        ``scipy.sparse.csgraph`` requires with ``directed=False``; zero lengths between duplicate
        points stay stored as edges.
    """
    lengths = np.empty((neighbors.shape[0], neighbors.shape[1] - 1))
    for part in chunk_slices(neighbors.shape[0], 8 * neighbors.shape[1] * X.shape[1]):
        lengths[part] = np.linalg.norm(X[neighbors[part, 1:]] - X[part, None, :], axis=-1)
    graph = neighbor_graph(neighbors, lengths)
    return _symmetrized(graph) if both_directions else graph


def _symmetrized(graph):
    """Both directions of every edge of ``graph`` stored explicitly (explicit zeros kept).

    ``dijkstra(directed=True)`` on this runs 10-20 % faster than ``directed=False`` on the
    one-directional kNN graph, which scipy symmetrizes on every call. Where both directions are
    stored with different lengths the first stored one is kept: :func:`geodesic_graph`'s lengths
    agree bit for bit.
    """
    coo = graph.tocoo()
    rows = np.concatenate([coo.row, coo.col])
    columns = np.concatenate([coo.col, coo.row])
    lengths = np.concatenate([coo.data, coo.data])
    _, first = np.unique(rows.astype(np.int64) * graph.shape[0] + columns, return_index=True)
    return csr_array((lengths[first], (rows[first], columns[first])), shape=graph.shape)


# (source, vertex) pairs per Dijkstra call of all_geodesics: about a second of work on a kNN graph
# (~4 ms per source at n = 20 000, k = 10, shared machine).
_PAIRS_PER_CALL = 5_000_000
# all_geodesics derives a vertex's row from its neighbours' only up to this degree (a kNN graph's median is
# about k + 1); a hub's candidate rows (degree x n) would take a chunk's memory each.
MAX_DERIVED_DEGREE = 64


def all_geodesics(graph):
    """Shortest-path distances between every pair of vertices of ``graph`` (Isomap's geodesics).

    Parameters
    ----------
    graph : sparse matrix of shape (n, n)
        Non-negative edge lengths with both directions of every edge stored
        (:func:`geodesic_graph` with ``both_directions=True``).

    Returns
    -------
    ndarray of shape (n, n)
        ``inf`` between vertices of different components.

    Notes
    -----
    Equal to one ``dijkstra(graph, directed=True)`` call, bit for bit, but run over batches of
    sources: a job's deadline is a Python signal handler, which runs only between native calls, and
    one all-pairs call at 20 000 points holds the interpreter for 85-135 s (a 2 s deadline was
    missed by two minutes). A batch is about a second of work; the extra cost is one graph check
    per batch and one copy of each row, into memory the workers share with the caller
    (:func:`measures.processes.shared_empty`).

    Where its rows fit :data:`SWEEP_MEMO_BYTES`, the pass is a :func:`geodesic_sweep` that also
    counts the paths through each vertex: the measures of the output (M_G's importance degrees, the
    residual variance, DEMaP) sweep the same graph from every source next, and read these rows and
    counts instead of running Dijkstra a second time (a third more work here, a whole pass less there).

    Larger graphs run Dijkstra from all vertices but an independent set (:func:`_independent_vertices`,
    about 14 % of a kNN graph's): a shortest path from ``v`` leaves it by an edge, so
    ``d(v, u) = min_t (w(v, t) + d(t, u))`` over its neighbours ``t``, whose rows are all computed
    (:func:`_rows_through_neighbours`). Those rows add the same lengths in another order, so they can
    differ from Dijkstra's in the last bits (a few units of 1e-16, relative).
    """
    n = graph.shape[0]
    if _sweeps.fits(8 * n * n):
        distances = np.empty((n, n))

        def keep(batch, rows):
            distances[batch] = rows

        geodesic_sweep(graph, count_paths=True, both_directions=True, on_rows=keep)
        return distances
    graph = csr_array(graph)
    distances = shared_empty((n, n))  # the workers write their rows in place: 8 n^2 bytes through no pipe

    def write(batch, rows):
        distances[batch] = rows

    derived = _independent_vertices(graph)
    swept = np.setdiff1d(np.arange(n), derived, assume_unique=True)
    batches = [swept[part] for part in chunk_slices(len(swept), n, budget=_PAIRS_PER_CALL)]
    with contextlib.closing(dijkstra_batches(graph, batches, reduce=write)) as rows:
        for _ in rows:
            pass
    # Threads: numpy's minimum releases the interpreter. Each batch holds its vertices' candidate rows.
    parts = list(chunk_slices(len(derived), 8 * n * int(np.diff(graph.indptr)[derived].max(initial=1))))
    thread_map(lambda part: _rows_through_neighbours(graph, distances, derived[part]), parts,
               parallel=len(derived) * n >= PARALLEL_FROM_PAIRS)
    return distances


def _independent_vertices(graph):
    """Vertices of ``graph`` no two of which are joined (either way), each left by an edge and by at most
    :data:`MAX_DERIVED_DEGREE` (self-loops aside): Luby's rounds, in which an undecided
    vertex joins when its priority (a fixed seeded permutation) is below every undecided neighbour's; about
    14 % of a kNN graph's vertices (k = 10), and the same set for the same graph.

    Returns
    -------
    ndarray of int, sorted
    """
    n = graph.shape[0]
    rows, columns = np.repeat(np.arange(n), np.diff(graph.indptr)), graph.indices
    away = rows != columns  # a self-loop never shortens a path
    leaving = np.bincount(rows[away], minlength=n)  # the rows a vertex's own row is derived from
    # Joined either way (a one-way edge too: its rows could not be derived in either order).
    rows, columns = np.r_[rows[away], columns[away]], np.r_[columns[away], rows[away]]
    priority = np.random.default_rng(0).permutation(n).astype(float)
    # A vertex no edge leaves, or a hub whose candidate rows would fill a chunk, runs its own Dijkstra.
    chosen, excluded = np.zeros(n, dtype=bool), (leaving == 0) | (leaving > MAX_DERIVED_DEGREE)
    while True:
        undecided = ~(chosen | excluded)
        if not undecided.any():
            return np.flatnonzero(chosen)
        active = np.where(undecided, priority, np.inf)
        lowest = np.full(n, np.inf)
        np.minimum.at(lowest, rows, active[columns])  # each vertex's lowest undecided neighbour
        joining = undecided & (active < lowest)
        chosen |= joining
        excluded[columns[joining[rows]]] = True  # their neighbours cannot join
        excluded &= ~chosen


def _rows_through_neighbours(graph, distances, vertices):
    """``distances[v] = min_t (w(v, t) + distances[t])`` over the neighbours ``t`` of each of ``vertices``, and
    ``distances[v, v] = 0``: their geodesics from the rows of the vertices their edges reach, which must be
    complete (:func:`_independent_vertices`)."""
    starts, ends = graph.indptr[vertices], graph.indptr[vertices + 1]
    edges = np.repeat(ends - np.cumsum(ends - starts), ends - starts) + np.arange((ends - starts).sum())
    owners = np.repeat(vertices, ends - starts)
    away = graph.indices[edges] != owners  # a self-loop: its own row is not known yet, and never shorter
    edges, owners = edges[away], owners[away]
    candidates = distances[graph.indices[edges]]
    candidates += graph.data[edges][:, None]
    firsts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
    distances[vertices] = np.minimum.reduceat(candidates, firsts, axis=0)
    distances[vertices, vertices] = 0.0


def dijkstra_batches(graph, batches, *, count_paths=False, reduce=None):
    """``dijkstra(graph, directed=True)`` from each batch of sources, in order, on every core when the work
    is large (:data:`PARALLEL_FROM_PAIRS`; :func:`measures.processes.ordered_map`).

    Parameters
    ----------
    graph : csr_array of shape (n, n)
        Both directions of every edge stored.
    batches : list of ndarray of int
    count_paths : bool
        Also count, per vertex, the shortest paths from the batch's sources through it as an interior
        vertex (:func:`_interior_counts` of the predecessors, reduced where they were computed).
    reduce : callable, optional
        ``reduce(batch, distances)``, called where the rows were computed and yielded in their place:
        what the caller reads of them (some columns, sums, rows written into a shared array), so that
        less than the rows crosses the workers' pipes.

    Yields
    ------
    (ndarray of shape (len(batch), n), or what ``reduce`` made of it; ndarray of shape (n,) or None)
        Each batch's rows, the same bit for bit wherever they ran, and its counts. Close the generator
        when done or on an error (``contextlib.closing``): that stops its workers at once.
    """
    def rows(batch):
        through = None
        if count_paths:
            distances, predecessors = dijkstra(graph, directed=True, indices=batch, return_predecessors=True)
            through = _interior_counts(predecessors)
        else:
            distances = dijkstra(graph, directed=True, indices=batch)
        return (distances if reduce is None else reduce(batch, distances)), through

    pairs = graph.shape[0] * sum(len(batch) for batch in batches)
    return ordered_map(rows, batches, parallel=pairs >= PARALLEL_FROM_PAIRS)


def geodesics_between(graph, vertices, *, progress=None):
    """The shortest-path distances between ``vertices``: one Dijkstra from each, read at the others.

    Parameters
    ----------
    graph : sparse matrix of shape (n, n)
        Both directions of every edge stored (:func:`geodesic_graph` with ``both_directions=True``).
    vertices : ndarray of int, shape (m,)
    progress : callable, optional
        ``progress(done, m)`` after each batch of sources.

    Returns
    -------
    ndarray of shape (m, m)
        Row i from ``vertices[i]``: equal to ``dijkstra(graph, indices=vertices)[:, vertices]`` bit
        for bit, computed in batches of about a second on every core (NIEQA's 2 000 landmarks of
        20 000 points took 6-7 s on one), each worker sending back only the m columns; or read from
        the kept rows of a sweep of ``graph`` from every vertex (:data:`SWEEP_MEMO_BYTES`), which the
        measures' sweep or Isomap's geodesics just made.
    """
    vertices = np.asarray(vertices)
    graph = csr_array(graph)
    kept = _every_row_kept(graph)
    if kept is not None:
        distances, position = np.empty((len(vertices), len(vertices))), np.full(graph.shape[0], -1)
        position[vertices] = np.arange(len(vertices))
        for batch, rows in kept.rows:
            where = position[batch]
            chosen = where >= 0
            distances[where[chosen]] = rows[chosen][:, vertices]
        if progress is not None:
            progress(len(vertices), len(vertices))
        return distances
    batches = [vertices[part] for part in chunk_slices(len(vertices), graph.shape[0], budget=_PAIRS_PER_CALL)]
    distances, done = np.empty((len(vertices), len(vertices))), 0
    with contextlib.closing(dijkstra_batches(graph, batches,
                                             reduce=lambda batch, rows: rows[:, vertices])) as swept:
        for batch, (rows, _) in zip(batches, swept, strict=True):
            distances[done:done + len(batch)] = rows
            done += len(batch)
            if progress is not None:
                progress(done, len(vertices))
    return distances


def check_connected(neighbors, what, fix):
    """Raise :class:`DisconnectedGraphError` unless the symmetrised kNN graph is connected.

    The one connectivity check of the project: measures on geodesics, graph-based embeddings and the
    exact refinement step all refuse a disconnected graph with the same message.

    Parameters
    ----------
    neighbors : ndarray of shape (n_samples, k + 1)
    what : str
        Who needs the graph connected and why it cannot go on, for the message (e.g. "Isomap
        cannot place them relative to each other").
    fix : str
        What the user can do, for the message.

    Raises
    ------
    DisconnectedGraphError
        Naming k, the number of components and the largest sizes, e.g. "the k-nearest-neighbour
        graph (k = 3) has 2 connected components (sizes 60, 40); Isomap cannot place them relative
        to each other. Raise k."
    """
    n_components, labels = neighbor_graph_components(neighbors)
    if n_components > 1:
        sizes = sorted(np.bincount(labels).tolist(), reverse=True)
        listed = ", ".join(map(str, sizes[:5])) + (" ..." if n_components > 5 else "")
        raise DisconnectedGraphError(
            f"the k-nearest-neighbour graph (k = {neighbors.shape[1] - 1}) has {n_components} connected "
            f"components (sizes {listed}); {what}. {fix}", n_components)


def pivot_sources(n_samples, *, random_state=0):
    """Sources of a graph sweep: ``None`` (all vertices) up to :data:`EXACT_UP_TO` points, otherwise
    distinct vertices drawn from ``random_state``, sorted: :data:`PIVOT_SOURCES` of them, fewer
    above ``PAIR_BUDGET / PIVOT_SOURCES`` points (``PAIR_BUDGET / n``, at least
    :data:`MIN_PIVOT_SOURCES`), so that a sweep's work stops growing like n^2.

    Parameters
    ----------
    n_samples : int
    random_state : int or numpy.random.Generator, default=0

    Returns
    -------
    None or ndarray of shape (n_sources,)
    """
    if n_samples <= EXACT_UP_TO:
        return None
    return np.sort(check_random_state(random_state).choice(n_samples, pivot_count(n_samples), replace=False))


def pivot_count(n_samples):
    """How many sources a graph sweep of ``n_samples`` points visits (:func:`pivot_sources`), drawing nothing."""
    if n_samples <= EXACT_UP_TO:
        return n_samples
    return min(PIVOT_SOURCES, max(MIN_PIVOT_SOURCES, PAIR_BUDGET // n_samples), n_samples)


def sweep_approximation(what, n_samples, sources):
    """The sentence that states a pivot-sampled sweep's approximation, or None when it is exact."""
    if sources is None:
        return None
    pairs = len(sources) * (n_samples - 1)
    return (f"{what} from the shortest paths of {len(sources)} random sources ({pairs:,} of the "
            f"{n_samples * (n_samples - 1):,} ordered pairs; Brandes & Pich pivots), not all {n_samples:,}.")


def _subtree_sizes(predecessors):
    """Subtree sizes of a block of shortest-path trees, vectorized over all their vertices.

    Parameters
    ----------
    predecessors : ndarray of shape (b, n), int
        Row s: the parent of each vertex in the shortest-path tree of source s, negative for the
        source itself and for vertices it does not reach (scipy's -9999).

    Returns
    -------
    ndarray of shape (b, n), int64
        Number of vertices in the subtree of each vertex, itself included (1 for a leaf).

    Notes
    -----
    The b trees are flattened into one forest of b n vertices. Pointer jumping gives every vertex
    its depth in ``ceil(log2(depth))`` vectorized steps (``depth += depth[ancestor]``,
    ``ancestor = ancestor[ancestor]``); then the levels are folded into their parents deepest first,
    one ``np.add.at`` per level, so the Python loop runs over tree depth (about the hop diameter of
    the graph), never over vertices.
    """
    b, n = predecessors.shape
    total = b * n
    flat = predecessors.reshape(total)
    is_child = flat >= 0
    own = np.arange(total, dtype=np.intp)
    parent = np.where(is_child, flat + (own - own % n), own)  # roots are their own parent
    depth = is_child.astype(np.int32)  # hops from each vertex to `ancestor`
    ancestor = parent
    while True:
        next_ancestor = ancestor[ancestor]
        if np.array_equal(next_ancestor, ancestor):
            break
        depth += depth[ancestor]
        ancestor = next_ancestor
    deepest = int(depth.max())
    # Depths fit in 16 bits for any n <= EXACT_UP_TO; numpy sorts 16-bit keys by radix sort.
    order = np.argsort(depth.astype(np.int16 if deepest < 2**15 else np.int32), kind="stable")
    starts = np.searchsorted(depth[order], np.arange(deepest + 2))
    sizes = np.ones(total, dtype=np.int64)
    for level in range(deepest, 0, -1):
        nodes = order[starts[level]:starts[level + 1]]
        np.add.at(sizes, parent[nodes], sizes[nodes])
    return sizes.reshape(b, n)


def _interior_counts(predecessors):
    """Per vertex, the number of (source, target) pairs of these trees it lies strictly inside.

    v is interior to the path s -> t exactly when t is in v's subtree of s's tree and t != v, so
    the count is ``sum_s (|subtree_s(v)| - 1)`` over the trees where v is not the root. The trees
    go to :func:`_subtree_sizes` a few at a time: its gathers run 4x faster on cache-sized blocks
    (:data:`measures.chunks.CACHE_BYTES`) than on a whole batch.
    """
    n = predecessors.shape[1]
    counts = np.zeros(n, dtype=np.int64)
    for block in chunk_slices(predecessors.shape[0], 8 * n, cache=True):
        rows = predecessors[block]
        counts += np.where(rows >= 0, _subtree_sizes(rows) - 1, 0).sum(axis=0)
    return counts


def _pair_sums(geodesic, output):
    """Sums over a block of pairs: ``(count, Σg, Σd, Σg², Σd², Σgd)``.

    The block holds each source's row, the source itself included: that pair has g = d = 0 and
    adds nothing to the sums, so only the count leaves it out (no mask, no copy).
    """
    b, n = geodesic.shape
    return np.array([b * (n - 1), geodesic.sum(), output.sum(), np.einsum("ij,ij->", geodesic, geodesic),
                     np.einsum("ij,ij->", output, output), np.einsum("ij,ij->", geodesic, output)])


# The input side of recent sweeps (their rows of geodesic distances, and their path counts) is kept
# (measures.memo) for later sweeps of the same graph from the same sources, the most recent first,
# while their rows fit in this many bytes together: a comparison, a tour step or a table scores several outputs of one
# input, and their Dijkstra is the same (GR Table 2: 75 runs on 15 graphs, algorithms outside k).
# A 2 500-point input's rows from every source take 50 MB.
SWEEP_MEMO_BYTES = 256 * 2**20


@dataclasses.dataclass(frozen=True)
class _InputSweep:
    """What a sweep computes from the input alone: its batches of rows and, if asked, the path counts."""

    rows: tuple  # ((batch, distances), ...), read-only
    counts: "np.ndarray | None"

    @property
    def nbytes(self):
        return sum(distances.nbytes for _, distances in self.rows)


_sweeps = InputMemo(SWEEP_MEMO_BYTES)  # key -> _InputSweep


def _sweep_key(graph, sources, parts):
    """A digest of the graph's edges, the sources and their batches ``parts``: equal exactly when the
    Dijkstra rows are, batch for batch (the sums are accumulated per batch, so other batches would round
    otherwise)."""
    return digest(graph.shape, [(part.start, part.stop) for part in parts], graph.indptr, graph.indices, graph.data,
                  np.asarray(sources))


def _sweep_parts(n_sources, n):
    """The batches of :func:`geodesic_sweep`'s sources (a working memory's worth each), as slices."""
    return list(chunk_slices(n_sources, _BYTES_PER_SOURCE_AND_VERTEX * n))


def _every_row_kept(graph):
    """The kept sweep of ``graph`` (csr, both directions stored) from every vertex, as :func:`geodesic_sweep`
    keeps it, or None."""
    n = graph.shape[0]
    if not _sweeps.fits(8 * n * n):
        return None
    return _sweeps.get(_sweep_key(graph, np.arange(n), _sweep_parts(n, n)))


def geodesic_sweep(graph, sources=None, *, count_paths=False, output=None, both_directions=False, on_rows=None,
                   progress=None):
    """One pass of Dijkstra over batches of sources, reducing each batch on the fly.

    Parameters
    ----------
    graph : sparse matrix of shape (n, n)
        From :func:`geodesic_graph`, used undirected.
    sources : ndarray of int, optional
        Sources of the pass; all vertices when None.
    count_paths : bool
        Accumulate, per vertex, the number of (source, target) pairs whose shortest path passes
        through it as an interior vertex.
    output : ndarray of shape (n, d), optional
        An embedding: accumulate the sums that give the Pearson correlation between geodesic and
        output distances over the pairs (source, j != source).
    both_directions : bool, default=False
        ``graph`` already stores both directions of every edge (:func:`geodesic_graph` with
        ``both_directions=True``); otherwise they are added here.
    on_rows : callable, optional
        ``on_rows(batch, distances)`` with each batch of sources and its rows of geodesic
        distances: another measure reading the same rows (DEMaP) without a second Dijkstra.
    progress : callable, optional
        ``progress(done, total)`` with the sources done after each batch.

    Returns
    -------
    counts : ndarray of shape (n,), int64, or None
    sums : ndarray of shape (6,) or None
        ``(count, Σg, Σd, Σg², Σd², Σgd)`` over the pairs (see :func:`_pair_sums`).

    Notes
    -----
    The rows and counts of recent sweeps are kept while they fit :data:`SWEEP_MEMO_BYTES`; a sweep
    of the same graph from the same sources reads them (read-only) instead of running Dijkstra
    again, and gives the same numbers bit for bit. Rows that are neither kept nor read by ``on_rows``
    stay where they were computed: only the batch's sums and counts come back (2 000 pivot rows of
    20 000 points are 320 MB).
    """
    n = graph.shape[0]
    if not both_directions:  # symmetrizing 2 k n edges costs seconds at a million points: once per graph
        graph = _symmetrized(graph)
    graph = csr_array(graph)
    sources = np.arange(n) if sources is None else np.asarray(sources)
    sums = np.zeros(6) if output is not None else None

    def summed(batch, distances):  # the output's side of a batch of rows
        return None if output is None else _pair_sums(distances, cdist(output[batch], output))

    def read(batch, distances):
        if output is not None:
            sums[:] += summed(batch, distances)
        if on_rows is not None:
            on_rows(batch, distances)

    parts = _sweep_parts(len(sources), n)
    kept = _sweeps.fits(8 * len(sources) * n)
    key = _sweep_key(graph, sources, parts) if kept else None
    memo = _sweeps.get(key) if kept else None
    done = 0
    if memo is not None and (memo.counts is not None or not count_paths):
        for batch, distances in memo.rows:
            read(batch, distances)
            done += len(batch)
            if progress is not None:
                progress(done, len(sources))
        return (memo.counts.copy() if count_paths else None), sums
    counts = np.zeros(n, dtype=np.int64) if count_paths else None
    rows = []
    batches = [sources[part] for part in parts]
    read_here = kept or on_rows is not None
    with contextlib.closing(dijkstra_batches(graph, batches, count_paths=count_paths,
                                             reduce=None if read_here else summed)) as swept:
        for batch, (made, through) in zip(batches, swept, strict=True):  # made: the rows, or their sums
            if count_paths:
                counts += through
            if read_here:
                read(batch, made)
            elif output is not None:
                sums[:] += made  # the batch's sums, made where its rows were
            if kept:
                made.flags.writeable = False  # shared with the next sweep of this input
                rows.append((batch.copy(), made))
            done += len(batch)
            if progress is not None:
                progress(done, len(sources))
    if kept:
        _sweeps.put(key, _InputSweep(tuple(rows), None if counts is None else counts.copy()))
    return counts, sums


def shortest_path_counts(graph, *, sources=None):
    """How many shortest paths pass through each vertex: NIEQA's importance degree (NQ §IV-B).

    Parameters
    ----------
    graph : sparse matrix of shape (n, n)
        Non-negative edge lengths, used undirected (e.g. :func:`geodesic_graph`).
    sources : array-like of int, optional
        Count only paths starting at these vertices (pivot sampling); all vertices when None.

    Returns
    -------
    ndarray of shape (n,), int64
        For each vertex v, the number of ordered pairs (s, t), s in ``sources``, whose shortest path
        passes through v as an interior vertex. With all sources and unique shortest paths this is
        twice the unnormalized betweenness centrality (SPEC §3).

    Notes
    -----
    Exact counting: ``scipy.sparse.csgraph.dijkstra(return_predecessors=True)`` gives the
    shortest-path tree of each source, and v lies inside the paths to exactly the other vertices of
    its subtree, so the count is ``sum_s (|subtree_s(v)| - 1)`` over the trees where v is not the
    root (:func:`_subtree_sizes`). Where several shortest paths tie (unit edge lengths), Dijkstra
    keeps one of them, where betweenness would split the pair between them.

    Examples
    --------
    On the path 0 - 1 - 2 only vertex 1 is interior, to the pairs (0, 2) and (2, 0):

    >>> from scipy.sparse import csr_array
    >>> shortest_path_counts(csr_array([[0, 1.0, 0], [0, 0, 1.0], [0, 0, 0]])).tolist()
    [0, 2, 0]
    """
    counts, _ = geodesic_sweep(graph, sources, count_paths=True)
    return counts


def residual_variance_from_sums(sums):
    """``1 - rho^2`` from the sums of :func:`_pair_sums` (float64 sums of ~n^2 terms: the centred
    products ``N Σgd - Σg Σd`` lose at most a few digits to the mean, far below what matters)."""
    count, s_g, s_d, s_gg, s_dd, s_gd = sums
    covariance = count * s_gd - s_g * s_d
    variance_g = count * s_gg - s_g**2
    variance_d = count * s_dd - s_d**2
    if variance_d <= 0.0:
        raise MeasureError("residual variance: every output distance is equal (the embedding collapsed to a point); "
                           "the correlation with the geodesics is undefined.")
    return float(1.0 - covariance**2 / (variance_g * variance_d))


def residual_variance(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *,
                      random_state: "int | np.random.Generator" = 0) -> float:
    """Isomap's residual variance ``1 - rho^2`` between graph geodesics and output distances.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        Input; geodesics are shortest paths on its kNN graph with Euclidean edge lengths.
    Y : array-like of shape (n_samples, d)
        Embedding.
    n_neighbors : int
        k of the graph.
    random_state : int or numpy.random.Generator, default=0
        Draws the pivot sources above :data:`EXACT_UP_TO` points.

    Returns
    -------
    float
        In [0, 1]; 0 when output distances are an affine function of the geodesics.

    Raises
    ------
    DisconnectedGraphError
        If the kNN graph is not connected.

    Notes
    -----
    :math:`M_{RV} = 1 - \\rho^2(G_X, D_Y)` (NQ Eq. 3, Tenenbaum et al.), ρ the Pearson correlation over
    the pairs i < j (every pair counted once; the ordered pairs give the same ρ). Above
    :data:`EXACT_UP_TO` points, ρ is estimated on the pairs (s, j) for :data:`PIVOT_SOURCES` random
    sources s. There is no per-point version. The sums are accumulated per batch of sources, so
    memory stays O(batch x n).

    Examples
    --------
    A flat strip embedded isometrically keeps every geodesic:

    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(300, 2)) * [3.0, 1.0]
    >>> residual_variance(Z, Z, 8) < 0.05
    True
    """
    X, Y = check_pair(X, Y)
    # Powers of two (exact; rho is invariant to scaling either): the sums of ~n^2 squared distances
    # must not overflow (coordinates near 1e150).
    X, Y = power_of_two_scaled(X)[0], power_of_two_scaled(Y)[0]
    neighbors = nearest_neighbors(X, n_neighbors)
    check_connected(neighbors, "residual variance needs every geodesic distance finite", "Raise n_neighbors.")
    _, sums = geodesic_sweep(geodesic_graph(X, neighbors), pivot_sources(X.shape[0], random_state=random_state),
                             output=Y)
    return residual_variance_from_sums(sums)
