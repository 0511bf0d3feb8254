"""The one k-nearest-neighbour routine of the project (SPEC §0), and the input checks every measure shares.

Every measure and every algorithm of our own builds its neighbourhoods here, so that a measure
scores an embedding on the same graph the algorithm used.
"""

import dataclasses
import functools

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components
from scipy.spatial import KDTree

from .chunks import chunk_slices
from .errors import MeasureError
from .interrupts import signals_deferred
from .parameters import check_integer
from .seeding import check_random_state

__all__ = [
    "APPROXIMATE_ABOVE_COLUMNS",
    "APPROXIMATE_ABOVE_SAMPLES",
    "NEAR_TIE",
    "NeighborSearch",
    "PAIR_BYTES",
    "OrderedTree",
    "check_neighbors",
    "check_pair",
    "check_points",
    "morton_order",
    "nearest_neighbors",
    "neighbor_graph",
    "neighbor_graph_components",
    "neighbor_search",
    "power_of_two_scaled",
    "squared_distances",
]

# Two distances within this relative gap of each other are treated as a possible tie: the tree's
# distances and ours are each accurate to a few units of 1e-16, so only pairs this close can be
# ordered differently by two correct computations; they are settled by the exact rule below.
NEAR_TIE = 1e-12


def check_points(X: npt.ArrayLike, name: str = "X", *, error: type = MeasureError) -> np.ndarray:
    """Return ``X`` as a C-contiguous float64 array of shape (n_samples, n_features).

    Raises ``error`` on a wrong number of dimensions, an empty array, or a NaN/inf entry (naming
    the first bad row, so a user can find it in their file).
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise error(f"{name} must be a non-empty 2-D array (n_samples, n_features); got shape {X.shape}.")
    finite = np.isfinite(X)
    if not finite.all():
        bad_rows = np.flatnonzero(~finite.all(axis=1))
        raise error(f"{name} contains NaN or infinite values in {bad_rows.size} row(s), first at row "
                    f"{bad_rows[0]}; drop or impute those rows first.")
    return np.ascontiguousarray(X)


def check_pair(X: npt.ArrayLike, Y: npt.ArrayLike, *, names: tuple = ("X", "Y")) -> tuple:
    """Both arrays checked by :func:`check_points`, with one row per point each.

    Parameters
    ----------
    X, Y : array-like
    names : (str, str)
        How the two arrays are named in messages.

    Returns
    -------
    X, Y : ndarray, C-contiguous float64

    Raises
    ------
    MeasureError
        On a bad array or different numbers of rows.
    """
    X = check_points(X, names[0])
    Y = check_points(Y, names[1])
    if X.shape[0] != Y.shape[0]:
        raise MeasureError(f"{names[0]} and {names[1]} must have the same number of rows (points); got {names[0]} "
                           f"{X.shape} and {names[1]} {Y.shape}.")
    return X, Y


def power_of_two_scaled(points):
    """``points * 2**-e`` with the largest absolute entry in [0.5, 1), and ``e``.

    Multiplying by a power of two is exact in floating point (away from subnormals), so every
    distance comparison and every ratio is unchanged, while squares and sums of squares of the
    scaled coordinates stay far from underflow and overflow whatever the data's units: the
    measures are then the same for ``c X`` and ``X`` from ``c = 1e-150`` to ``1e150`` (issue 15).

    Returns
    -------
    scaled : ndarray
    exponent : int
        0 for an all-zero array (returned unchanged).

    Examples
    --------
    >>> import numpy as np
    >>> scaled, exponent = power_of_two_scaled(np.array([[3.0e150, -1.0]]))
    >>> exponent, bool(np.all(np.ldexp(scaled, exponent) == [[3.0e150, -1.0]]))
    (500, True)
    """
    largest = float(np.max(np.abs(points))) if points.size else 0.0
    if largest == 0.0:
        return points, 0
    exponent = int(np.frexp(largest)[1])
    return (np.ldexp(points, -exponent) if exponent else points), exponent


# Working memory of one pair in squared_distances, whatever the dimension (it sums coordinate by coordinate):
# the two coordinates gathered, their difference, its square and the running sum, float64. Chunks of pairs
# are sized with it: sized for every coordinate's differences at once, a chunk at 1 024 dimensions held a
# single row of pairs, and the Python calls per chunk and coordinate took most of a run on 32 x 32 images.
PAIR_BYTES = 40


def squared_distances(points, rows, columns):
    """Squared Euclidean distances ``||x_r - x_c||^2``, formed from differences (not ``|x|^2 + |y|^2 - 2x.y``).

    Parameters
    ----------
    points : ndarray of shape (n_samples, q)
    rows, columns : ndarray of int, broadcastable
        Pairs of point indices.

    Returns
    -------
    ndarray of the broadcast shape

    Notes
    -----
    The one formula every exact comparison of distances uses (neighbour order, ranks, ties): the
    same pair always gets the same bits, and integer-valued data give exact integers, so points at
    equal distance tie exactly (as they do in scikit-learn's distances of integer data).

    Summed coordinate by coordinate, in order, over arrays of the pairs' shape: three to four times
    faster than ``einsum`` over an array of the differences (whose last axis is the few coordinates),
    at 1 600 × 1 600 pairs in 2 to 64 dimensions, and without that array's memory.
    """
    total = None
    for coordinate in range(points.shape[1]):
        difference = points[rows, coordinate] - points[columns, coordinate]
        total = difference * difference if total is None else total + difference * difference
    return total


def _spread_bits(values, dimensions):
    """Spread the bits of unsigned integers so that ``dimensions`` codes interleave (Morton order)."""
    x = values.astype(np.uint64)
    if dimensions == 2:  # 32 bits -> even positions of 64
        for shift, mask in ((16, 0x0000FFFF0000FFFF), (8, 0x00FF00FF00FF00FF), (4, 0x0F0F0F0F0F0F0F0F),
                            (2, 0x3333333333333333), (1, 0x5555555555555555)):
            x = (x | (x << np.uint64(shift))) & np.uint64(mask)
        return x
    for shift, mask in ((32, 0x1F00000000FFFF), (16, 0x1F0000FF0000FF), (8, 0x100F00F00F00F00F),  # 21 bits -> every 3rd
                        (4, 0x10C30C30C30C30C3), (2, 0x1249249249249249)):
        x = (x | (x << np.uint64(shift))) & np.uint64(mask)
    return x


def morton_order(points):
    """A permutation that sorts points along a Z-order (Morton) curve, for up to 3 columns.

    Parameters
    ----------
    points : ndarray of shape (n_samples, q), q <= 3

    Returns
    -------
    ndarray of shape (n_samples,), int64
        ``points[order]`` visits space cell by cell, so that points close in space are close in
        memory. Built on that order a KD-tree answers a query over all points 3.2x faster at
        n = 1 000 000 (PERFORMANCE.md): its leaves and the queries' walks stay in cache.

    Examples
    --------
    >>> import numpy as np
    >>> morton_order(np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])).tolist()
    [1, 2, 3, 0]
    """
    n_samples, q = points.shape
    low = points.min(axis=0)
    span = points.max(axis=0) - low
    span[span == 0.0] = 1.0
    bits = {1: 63, 2: 32, 3: 21}[q]
    cells = np.minimum((points - low) / span * 2.0**bits, 2.0**bits - 1).astype(np.uint64)
    if q == 1:
        return np.argsort(cells[:, 0], kind="stable")
    code = np.zeros(n_samples, dtype=np.uint64)
    for column in range(q):
        code |= _spread_bits(cells[:, column], q) << np.uint64(column)
    return np.argsort(code, kind="stable")


# Leaf size of the tree that counts points within a radius: a count opens every node the ball's edge
# crosses, fewer with bigger leaves (a ball of 2 600 points on the swiss roll: 28 us per count with
# leaves of 10, 17 us with 32, 16 us with 64); scipy's default of 10 suits the k-nearest searches.
COUNT_LEAF_SIZE = 32


class OrderedTree:
    """A KD-tree built on the points in Morton order (:func:`morton_order`), answering in the caller's indices.

    For more than 3 columns the points keep their order. Parameters as ``scipy.spatial.KDTree``.
    Queries run on every core, with raising signal handlers held back until their threads are
    joined (:func:`measures.interrupts.signals_deferred`).
    """

    def __init__(self, points):
        self.order = morton_order(points) if points.shape[1] <= 3 and points.shape[0] > 1 else None
        self.points = points if self.order is None else points[self.order]

    @functools.cached_property
    def tree(self):
        """The search tree (scipy's leaves of 10), built at the first search: a caller that only counts
        (:func:`measures.ranks.neighbour_sets`) never pays for it."""
        return KDTree(self.points)

    @functools.cached_property
    def _counting(self):
        """The counting tree, of :data:`COUNT_LEAF_SIZE` points per leaf, built at the first count."""
        return KDTree(self.points, leafsize=COUNT_LEAF_SIZE)

    def query_all(self, n_columns):
        """``(distances, indices)`` of the ``n_columns`` nearest points of every point, rows in the caller's order."""
        with signals_deferred():
            distances, indices = self.tree.query(self.points, k=n_columns, workers=-1)
        indices = indices.astype(np.int64, copy=False)
        if self.order is None:
            return distances, indices
        rows = np.empty_like(self.order)
        rows[self.order] = np.arange(self.order.size)
        return distances[rows], self.order[indices[rows]]

    def query(self, queries, n_columns):
        """``(distances, indices)`` of the ``n_columns`` nearest points of each query point."""
        with signals_deferred():
            distances, indices = self.tree.query(queries, k=n_columns, workers=-1)
        indices = indices.astype(np.int64, copy=False)
        return distances, (indices if self.order is None else self.order[indices])

    def count(self, queries, radii):
        """Number of points within each radius (inclusive) of each query point.

        Counted on a tree of :data:`COUNT_LEAF_SIZE` points per leaf, the queries visited in Morton
        order (answers returned in the caller's order), so that consecutive queries walk the same
        nodes: exact trustworthiness + continuity of a noisy 50 000-point output, two counts of about
        2 400 points per disagreeing pair, took 0.64 times the CPU of counts on the search tree in
        the caller's order (``bench/counts.py``, medians of 3 interleaved runs, 2026-12-06).
        """
        radii = np.broadcast_to(radii, queries.shape[:1])
        visit = morton_order(queries) if queries.shape[1] <= 3 and queries.shape[0] > 1 else slice(None)
        counts = np.empty(queries.shape[0], dtype=np.int64)
        with signals_deferred():
            counts[visit] = self._counting.query_ball_point(queries[visit], radii[visit], return_length=True,
                                                            workers=-1)
        return counts

    def within(self, queries, radii):
        """Lists of the points within each radius of each query point (the caller's indices)."""
        with signals_deferred():
            found = self.tree.query_ball_point(queries, radii, workers=-1)
        if self.order is None:
            return found
        return [self.order[entry].tolist() for entry in found]


def _near(a, b):
    """Where ``a <= b`` are equal up to :data:`NEAR_TIE` (relative), elementwise."""
    return b - a <= NEAR_TIE * b


def nearest_neighbors(X: npt.ArrayLike, n_neighbors: int, *,
                      return_distance: bool = False) -> "np.ndarray | tuple[np.ndarray, np.ndarray]":
    """Indices of each point and its ``n_neighbors`` nearest neighbours, the point itself first.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Points, one per row.
    n_neighbors : int
        Number of neighbours other than the point (scikit-learn's convention); each neighbourhood
        holds ``n_neighbors + 1`` points.
    return_distance : bool, default=False
        Also return the Euclidean distances.

    Returns
    -------
    neighbors : ndarray of shape (n_samples, n_neighbors + 1), int64
        Row ``i`` is ``i`` followed by its neighbours in order of increasing Euclidean distance,
        equidistant neighbours in order of increasing index.
    distances : ndarray of shape (n_samples, n_neighbors + 1)
        With ``return_distance``: the distance of each entry from the row's point.

    Raises
    ------
    MeasureError
        If ``n_neighbors`` is not in ``[1, n_samples - 1]`` or ``X`` is not finite.

    Notes
    -----
    Exact search with ``scipy.spatial.KDTree`` on all cores, built on the points in Morton order
    (:class:`OrderedTree`: 3.2x faster at a million points, PERFORMANCE.md), on ``X`` scaled by a power of two
    (exact: :func:`power_of_two_scaled`), so coordinates near 1e154 do not overflow the tree's
    squared distances. Tie rule: the point itself first (even among duplicates of it), then by
    distance, then by index. The tree's own order of equidistant points is not part of the
    result: rows whose candidates (one beyond the k-th, to see a tie at the boundary) hold two
    distances within :data:`NEAR_TIE` of each other are recomputed with :func:`squared_distances`
    over every point within the k-th distance, and sorted by (distance, index). So the result does
    not depend on the tree, and the first ``k' + 1`` columns for ``k' < k`` are exactly the
    search with ``k'``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [0.0]])  # rows 0 and 3 coincide
    >>> nearest_neighbors(X, 2).tolist()
    [[0, 3, 1], [1, 0, 3], [2, 1, 0], [3, 0, 1]]
    """
    X = check_points(X)
    n_samples = X.shape[0]
    k = check_integer(n_neighbors, "n_neighbors", 1, n_samples - 1, error=MeasureError,
                      hint="Choose a smaller k or use more points.")
    points, exponent = power_of_two_scaled(X)
    tree = OrderedTree(points)
    # One candidate beyond the k-th neighbour (self included: k + 2 columns) shows a tie at the boundary.
    width = min(k + 2, n_samples)
    distances, candidates = tree.query_all(width)
    rows = np.arange(n_samples)
    # Self first, then the others in the tree's order (increasing distance).
    is_self = candidates == rows[:, None]
    order = np.argsort(~is_self, axis=1, kind="stable")
    candidates = np.take_along_axis(candidates, order, axis=1)
    distances = np.take_along_axis(distances, order, axis=1)
    # Rows the tree answered without the point itself (k + 2 twins at distance 0), and rows with two
    # (nearly) equal distances among the others: the tree's order there is not the tie rule's.
    others = distances[:, 1:]
    tied = ~is_self.any(axis=1) | _near(others[:, :-1], others[:, 1:]).any(axis=1)
    neighbors = candidates[:, :k + 1]
    distances = distances[:, :k + 1]
    distances[:, 0] = 0.0
    fixed = np.flatnonzero(tied)
    if fixed.size:
        # The k-th candidate's distance bounds the k-th neighbour's, up to the tree's rounding.
        radius = others[fixed, k - 1] * (1.0 + 1e3 * NEAR_TIE) + np.finfo(float).tiny
        neighbors[fixed], squared = _canonical_rows(points, tree, fixed, k, radius)
        distances[fixed] = np.sqrt(squared)
    neighbors = np.ascontiguousarray(neighbors)
    if return_distance:
        return neighbors, np.ldexp(distances, exponent)
    return neighbors


def _canonical_rows(points, tree, rows, k, radius):
    """The first k + 1 neighbours of ``rows`` by the tie rule (self, then distance, then index).

    Every point within ``radius`` (at least the k-th distance) of each row's point is a candidate;
    candidates are sorted by their exact squared distance (:func:`squared_distances`, the point
    itself given -1) and then by index, all rows at once.

    Returns
    -------
    neighbors : ndarray of shape (len(rows), k + 1), int64
    squared : ndarray of shape (len(rows), k + 1)
    """
    found = tree.within(points[rows], radius)
    lengths = np.fromiter((len(entry) for entry in found), dtype=np.int64, count=len(found))
    owner = np.repeat(np.arange(len(rows)), lengths)
    candidates = np.fromiter((index for entry in found for index in entry), dtype=np.int64, count=lengths.sum())
    squared = np.empty(candidates.size)
    for part in chunk_slices(candidates.size, PAIR_BYTES):
        squared[part] = squared_distances(points, rows[owner[part]], candidates[part])
    key = np.where(candidates == rows[owner], -1.0, squared)
    order = np.lexsort((candidates, key, owner))
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    take = starts[:, None] + np.arange(k + 1)
    neighbors = candidates[order][take]
    squared = np.maximum(key[order][take], 0.0)
    return neighbors, squared


# The approximate index takes over from the exact KD-tree for inputs with more than
# APPROXIMATE_ABOVE_COLUMNS columns and more than APPROXIMATE_ABOVE_SAMPLES points. Measured here
# (bench/measures.py: a curved manifold of intrinsic dimension m in q columns, k = 12, 2 shared
# cores under load): up to 16 columns the tree wins at any n (100 000 x 16, m = 3: tree 1.1 s,
# HNSW 11 s); above, the tree's time explodes with the intrinsic dimension (20 000 x 64, m = 8:
# tree 10-20 s, HNSW 2.4-5.7 s; 50 000 x 64, m = 8: tree 247 s, HNSW 5.9 s) while for m = 3 the
# two are within 1.5x (50 000 x 128: 24 s against 19.5 s). Every recall measured was 1.0000.
APPROXIMATE_ABOVE_COLUMNS = 16
APPROXIMATE_ABOVE_SAMPLES = 10_000
# Points whose exact neighbours are searched to report the approximate index's recall.
RECALL_SAMPLE = 500


@dataclasses.dataclass(frozen=True)
class NeighborSearch:
    """Result of :func:`neighbor_search`.

    Attributes
    ----------
    neighbors : ndarray of shape (n_samples, n_neighbors + 1), int64
        Each point first, then its neighbours by increasing distance.
    method : {"exact", "approximate"}
    recall : float or None
        For the approximate index: the share of the exact k nearest neighbours it found, over
        :data:`RECALL_SAMPLE` seeded random points; None when exact.
    description : str or None
        One sentence stating the approximation (for ``Evaluation.approximations``), None when exact.
    """

    neighbors: np.ndarray
    method: str
    recall: float | None = None
    description: str | None = None


def neighbor_search(X: npt.ArrayLike, n_neighbors: int, *, method: str = "auto",
                    random_state: "int | np.random.Generator" = 0) -> NeighborSearch:
    """The input's neighbour search: exact (:func:`nearest_neighbors`) or, for many columns, approximate.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    n_neighbors : int
    method : {"auto", "exact", "approximate"}, default="auto"
        ``"auto"``: approximate when ``q >`` :data:`APPROXIMATE_ABOVE_COLUMNS` (16) and
        ``n_samples >`` :data:`APPROXIMATE_ABOVE_SAMPLES` (10 000; the switch-over measured here), exact
        otherwise.
    random_state : int or numpy.random.Generator, default=0
        Draws the points on which the approximate index's recall is measured.

    Returns
    -------
    NeighborSearch

    Notes
    -----
    The approximate index is faiss's HNSW graph (``IndexHNSWFlat``, 32 links per node,
    efConstruction 80, efSearch 64) on float32 copies, built on one thread so that the same
    input gives the same graph; each row's candidates are then re-sorted by their exact float64
    distances with the tie rule of :func:`nearest_neighbors` (self, distance, index). Its recall is
    ``|found ∩ exact| / k`` averaged over :data:`RECALL_SAMPLE` random points whose exact
    neighbours are computed by brute force.
    """
    if method not in ("auto", "exact", "approximate"):
        raise MeasureError(f"method must be one of ['auto', 'exact', 'approximate']; got {method!r}.")
    X = check_points(X)
    n_samples, q = X.shape
    k = check_integer(n_neighbors, "n_neighbors", 1, n_samples - 1, error=MeasureError,
                      hint="Choose a smaller k or use more points.")
    if method == "exact" or (method == "auto" and (q <= APPROXIMATE_ABOVE_COLUMNS
                                                   or n_samples <= APPROXIMATE_ABOVE_SAMPLES)):
        return NeighborSearch(nearest_neighbors(X, k), "exact")
    neighbors = _hnsw_neighbors(power_of_two_scaled(X)[0], k)
    rng = check_random_state(random_state)
    sample = np.sort(rng.choice(n_samples, min(RECALL_SAMPLE, n_samples), replace=False))
    exact = _brute_neighbors(X, sample, k)
    found = neighbors[sample, 1:]
    recall = float(np.mean([np.intersect1d(a, b).size / k for a, b in zip(found, exact)]))
    description = (f"Input neighbours from an approximate index (faiss HNSW) for {n_samples:,} points of {q} "
                   f"columns: recall {recall:.4f} against the exact search on {sample.size} random points.")
    return NeighborSearch(neighbors, "approximate", recall, description)


def _hnsw_neighbors(points, k):
    """k + 1 neighbours per point from faiss's HNSW index, self first, candidates sorted exactly."""
    import faiss

    n_samples, q = points.shape
    data = np.ascontiguousarray(points, dtype=np.float32)
    index = faiss.IndexHNSWFlat(q, 32)
    index.hnsw.efConstruction = 80
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)  # parallel insertion makes the graph depend on thread timing
    try:
        index.add(data)
    finally:
        faiss.omp_set_num_threads(threads)
    index.hnsw.efSearch = 64
    width = min(k + 2, n_samples)
    _, candidates = index.search(data, width)
    candidates = candidates.astype(np.int64)
    rows = np.arange(n_samples)
    # Missing slots (-1) and the point itself leave the candidates; the point goes first.
    key = np.empty(candidates.shape)
    for part in chunk_slices(n_samples, PAIR_BYTES * width):
        key[part] = squared_distances(points, rows[part, None], np.maximum(candidates[part], 0))
    key = np.where((candidates < 0) | (candidates == rows[:, None]), np.inf, key)
    order = np.lexsort((candidates, key), axis=1)
    ordered = np.take_along_axis(candidates, order, axis=1)
    return np.ascontiguousarray(np.c_[rows, ordered[:, :k]])


def _brute_neighbors(points, rows, k):
    """Exact k neighbours (self excluded) of ``rows`` by full rows of distances, for recall checks."""
    everyone = np.arange(points.shape[0])
    result = np.empty((rows.size, k), dtype=np.int64)
    for part in chunk_slices(rows.size, (PAIR_BYTES + 8) * points.shape[0]):  # and the argsort's indices
        squared = squared_distances(points, rows[part, None], everyone[None, :])
        squared[np.arange(squared.shape[0]), rows[part]] = np.inf
        result[part] = np.argsort(squared, axis=1, kind="stable")[:, :k]
    return result


def check_neighbors(neighbors: npt.ArrayLike, n_samples: int, n_neighbors: int) -> np.ndarray:
    """A precomputed neighbour array, checked against the search it claims to be.

    Parameters
    ----------
    neighbors : array-like of shape (n_samples, K + 1), K >= n_neighbors
        Rows of point indices, each point first, as :func:`nearest_neighbors` returns them (a
        search with more neighbours serves: its first ``n_neighbors + 1`` columns are used).
    n_samples : int
    n_neighbors : int

    Returns
    -------
    ndarray of shape (n_samples, n_neighbors + 1), int64

    Raises
    ------
    MeasureError
        On a wrong shape, non-integer entries, an index out of range, or a row that does not start
        with its own point.
    """
    array = np.asarray(neighbors)
    if array.ndim != 2 or array.shape[0] != n_samples or array.shape[1] < n_neighbors + 1:
        raise MeasureError(f"neighbors must have shape (n_samples, n_neighbors + 1) = ({n_samples}, "
                           f"{n_neighbors + 1}) (or more columns); got {array.shape}. Pass "
                           "measures.nearest_neighbors(X, n_neighbors).")
    if not np.issubdtype(array.dtype, np.integer):
        raise MeasureError(f"neighbors must hold integer point indices; got dtype {array.dtype}.")
    array = np.ascontiguousarray(array[:, :n_neighbors + 1], dtype=np.int64)
    if array.min() < 0 or array.max() >= n_samples:
        raise MeasureError(f"neighbors holds indices outside [0, {n_samples - 1}]: min {array.min()}, "
                           f"max {array.max()}.")
    wrong = np.flatnonzero(array[:, 0] != np.arange(n_samples))
    if wrong.size:
        raise MeasureError(f"row i of neighbors must start with i (the point itself, SPEC §0); {wrong.size} row(s) "
                           f"do not, first row {wrong[0]}. Pass measures.nearest_neighbors(X, n_neighbors).")
    return array


def neighbor_graph(neighbors, weights=None):
    """The directed k-nearest-neighbour graph as a sparse matrix, without self-loops.

    Parameters
    ----------
    neighbors : ndarray of shape (n_samples, n_neighbors + 1)
        Output of :func:`nearest_neighbors` (the point first).
    weights : ndarray of shape (n_samples, n_neighbors), optional
        Weight of the edge from ``i`` to ``neighbors[i, j + 1]``; 1 when omitted. Zero weights stay
        stored, so scipy's graph routines see edges between duplicate points.

    Returns
    -------
    scipy.sparse.csr_array of shape (n_samples, n_samples)
    """
    n_samples, width = neighbors.shape
    if weights is None:
        weights = np.ones((n_samples, width - 1))
    # 32-bit indices: scikit-learn's graph routines refuse int64-indexed sparse input.
    rows = np.repeat(np.arange(n_samples, dtype=np.int32), width - 1)
    columns = neighbors[:, 1:].ravel().astype(np.int32)
    return csr_array((weights.ravel(), (rows, columns)), shape=(n_samples, n_samples))


def neighbor_graph_components(neighbors):
    """Connected components of the symmetrised k-nearest-neighbour graph.

    Parameters
    ----------
    neighbors : ndarray of shape (n_samples, n_neighbors + 1)
        Output of :func:`nearest_neighbors`.

    Returns
    -------
    n_components : int
    labels : ndarray of shape (n_samples,)
        Component index of each point.
    """
    return connected_components(neighbor_graph(neighbors), directed=True, connection="weak")
