"""Distance measures peers report: stress and scale-normalized stress, KL divergence of density,
Spearman's rho between geodesic and output distances (DEMaP), and random-triplet accuracy.

They compare the two configurations' *pairwise distances*, globally, where R_N, ASIM and the rank
measures compare neighbourhoods. Each is computed over the ordered pairs (i, j), j in a set of
columns: every point up to :data:`PAIRS_EXACT_UP_TO` points (exact), otherwise a seeded uniform
sample of points (the values then estimate the full sums and say so in ``approximation``).

References
----------
.. [SMK] W. Smelser, J. Miller and S. Kobourov, "'Normalized stress' is not normalized: how to
   interpret stress correctly", BELIV 2024 (scale-normalized stress).
.. [K] J. B. Kruskal, "Multidimensional scaling by optimizing goodness of fit to a nonmetric
   hypothesis", Psychometrika 29 (1964) 1-27 (stress).
.. [MvD] K. R. Moon, D. van Dijk et al., "Visualizing structure and transitions in high-dimensional
   biological data", Nature Biotechnology 37 (2019) 1482-1492 (PHATE's DEMaP).
.. [JJ] H. Jeon, H.-K. Ko, J. Jo, Y. Kim and J. Seo, "Measuring and explaining the inter-cluster
   reliability of multidimensional projections", IEEE TVCG 28 (2022) (KL divergence of density as
   ZADU computes it; J. Jeon et al., ZADU, IEEE VIS 2023).
.. [WH] Y. Wang, H. Huang, C. Rudin and Y. Shaposhnikov, "Understanding how dimension reduction
   tools work", JMLR 22 (2021) 1-73 (random-triplet accuracy).
"""

import contextlib
import dataclasses

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_array
from scipy.spatial import ConvexHull, QhullError
from scipy.spatial.distance import cdist

from . import chunks
from .chunks import chunk_slices
from .errors import MeasureError
from .geodesics import check_connected, dijkstra_batches, geodesic_graph
from .memo import InputMemo, digest
from .neighbors import check_pair, nearest_neighbors, power_of_two_scaled
from .parameters import check_integer
from .processes import cores, thread_map
from .seeding import check_random_state

__all__ = [
    "KL_SIGMA",
    "PAIRS_EXACT_UP_TO",
    "SPEARMAN_MEMO_BYTES",
    "SPEARMAN_PAIRS",
    "TRIPLETS_PER_POINT",
    "PairSums",
    "columns_approximation",
    "distance_spearman",
    "distance_spearman_values",
    "kl_divergence",
    "kl_from_sums",
    "pair_columns",
    "pair_sums",
    "scale_normalized_stress",
    "spearman_from_rows",
    "spearman_sources",
    "stress",
    "stress_from_sums",
    "triplet_accuracy",
    "with_self",
]

PARALLEL_FROM_PAIRS = 4_000_000  # pairs from which the pair sums share the cores (about 0.05 s of work)
HULL_VERTICES = 2_000  # convex hulls up to this many vertices give the pair sums' largest distance first
PAIRS_EXACT_UP_TO = 20_000  # all n^2 pairs: ~10 s here at 20 000 points; above, sampled columns
PAIR_COLUMNS = 200  # the sample of columns above PAIRS_EXACT_UP_TO (2e8 pairs at a million points)
SPEARMAN_PAIRS = 12_500_000  # pairs ranked for Spearman's rho: all pairs up to 5 000 points
TRIPLETS_PER_POINT = 10
KL_SIGMA = 0.1  # ZADU's default bandwidth, relative to the largest distance
# The centred ranks of recent inputs' distances (DEMaP's input side, a sort of up to SPEARMAN_PAIRS
# pairs) are kept for the next output of the same input while they fit in this many bytes together:
# one sort per output instead of two in a comparison or a tour step. A 1 600-point input's take 10 MB.
SPEARMAN_MEMO_BYTES = 128 * 2**20
_ranks = InputMemo(SPEARMAN_MEMO_BYTES)  # digest of the input's distances -> their centred ranks


def pair_columns(n_samples, *, random_state=0):
    """``None`` (every point) up to :data:`PAIRS_EXACT_UP_TO` points, else :data:`PAIR_COLUMNS`
    distinct points drawn from ``random_state``, sorted: the j of the pairs (i, j) summed over."""
    if n_samples <= PAIRS_EXACT_UP_TO:
        return None
    return np.sort(check_random_state(random_state).choice(n_samples, PAIR_COLUMNS, replace=False))


@dataclasses.dataclass(frozen=True)
class PairSums:
    """Per-point sums over the pairs (i, j), j in the columns, j != i, of both spaces' distances.

    Attributes
    ----------
    xx, yy, xy : ndarray of shape (n_samples,)
        ``sum_j dX_ij^2``, ``sum_j dY_ij^2``, ``sum_j dX_ij dY_ij``.
    x_density, y_density : ndarray of shape (n_samples,) or None
        ``sum_j exp(-(d_ij / max d)^2 / sigma)`` in each space (ZADU's density, before
        normalization; ``j = i`` included as ZADU does), when asked for.
    x_max, y_max : float
        The largest distance of each space over the pairs seen.
    columns : ndarray or None
        The sampled columns, None when every point was one.
    """

    xx: np.ndarray
    yy: np.ndarray
    xy: np.ndarray
    x_density: np.ndarray
    y_density: np.ndarray
    x_max: float
    y_max: float
    columns: np.ndarray


def pair_sums(X, Y, *, columns=None, sigma=None):
    """One pass over the pairs: :class:`PairSums` (and the densities when ``sigma`` is given).

    Rows are processed in chunks against the columns, the chunks shared by the cores
    (:func:`measures.processes.thread_map`: ``cdist`` and numpy's reductions release the interpreter);
    nothing n x n is held. Each row's sums are made by one thread in one order: the same bits on any
    number of cores.

    The densities need each space's largest distance. Over every pair it lies between two vertices of
    the points' convex hull, so it is taken from them first (:func:`_hull_diameter`) and the densities
    are made in the same pass as the sums; a space whose largest distance the pass then meets is not
    that one (sampled columns, a hull qhull could not make exactly) gets a second pass with it.
    """
    n_samples = X.shape[0]
    targets = np.arange(n_samples) if columns is None else columns
    spaces = ((X, X[targets]), (Y, Y[targets]))
    xx, yy, xy = np.zeros(n_samples), np.zeros(n_samples), np.zeros(n_samples)
    densities = (np.zeros(n_samples), np.zeros(n_samples)) if sigma is not None else (None, None)
    guesses = (None, None) if sigma is None or columns is not None else tuple(_hull_diameter(X_) for X_ in (X, Y))
    # Each thread holds one chunk's two blocks of distances at a time.
    parts = list(chunk_slices(n_samples, 8 * 4 * len(targets), budget=chunks.CHUNK_BYTES // cores()))
    parallel = n_samples * len(targets) >= PARALLEL_FROM_PAIRS

    def density(d, largest):
        """``sum_j exp(-((d_ij / largest) ** 2) / sigma)``, each step in place in ``d``."""
        np.divide(d, largest, out=d)
        np.square(d, out=d)
        np.negative(d, out=d)
        np.divide(d, sigma, out=d)
        return np.exp(d, out=d).sum(axis=1)

    def sums(part):
        dx, dy = (cdist(points[part], columns_) for points, columns_ in spaces)
        xx[part] = np.einsum("ij,ij->i", dx, dx)
        yy[part] = np.einsum("ij,ij->i", dy, dy)
        xy[part] = np.einsum("ij,ij->i", dx, dy)
        largest = float(dx.max()), float(dy.max())
        for side, d in enumerate((dx, dy)):
            if guesses[side] is not None:
                densities[side][part] = density(d, guesses[side])
        return largest

    largest = tuple(max(side) for side in zip(*thread_map(sums, parts, parallel=parallel)))
    again = [side for side in (0, 1) if sigma is not None and guesses[side] != largest[side]]
    if again:
        def second(part):
            for side in again:
                points, columns_ = spaces[side]
                densities[side][part] = density(cdist(points[part], columns_), largest[side])

        thread_map(second, parts, parallel=parallel)
    return PairSums(xx, yy, xy, *densities, *largest, columns)


def _hull_diameter(points):
    """The largest distance between ``points`` as ``cdist`` computes it, from the vertices of their convex hull
    (where it lies), in at most 3 dimensions; None in more, where qhull makes no hull (flat points), or
    where the hull has more than :data:`HULL_VERTICES` vertices (their pairs would cost a pass's share).

    A vertex qhull leaves out within its precision can make this smaller than the largest distance:
    :func:`pair_sums` uses it only where the pass over the pairs meets it as the largest.
    """
    dimensions = points.shape[1]
    if dimensions == 1:  # the two ends
        ends = points[[np.argmin(points[:, 0]), np.argmax(points[:, 0])]]
        return float(cdist(ends, ends).max())
    if dimensions > 3 or points.shape[0] <= dimensions + 1:
        return None
    try:
        vertices = ConvexHull(points).vertices
    except QhullError:
        return None
    if len(vertices) > HULL_VERTICES:  # a curved surface (a swiss roll's outer turn) can have most points on its hull
        return None
    hull = points[vertices]
    return float(cdist(hull, hull).max())


def stress_from_sums(sums, *, scale_normalized=False):
    """Global and per-point (scale-normalized) stress from :class:`PairSums`.

    Stress is ``sqrt(sum (dX - dY)^2 / sum dX^2)`` over the pairs; per point, over point i's
    pairs. Scale-normalized, ``dY`` is first multiplied by the one alpha that minimizes the global
    stress, ``alpha = sum dX dY / sum dY^2`` (Smelser, Miller & Kobourov 2024), which gives
    ``sqrt(1 - (sum dX dY)^2 / (sum dX^2 sum dY^2))``.

    Returns
    -------
    value : float
    per_point : ndarray of shape (n_samples,)
    """
    if not sums.xx.sum() > 0.0:
        raise MeasureError("stress: every input distance is 0 (all points coincide); it is 0/0.")
    alpha = 1.0
    if scale_normalized:
        if not sums.yy.sum() > 0.0:
            raise MeasureError("scale-normalized stress: every output distance is 0; no scale fits it.")
        alpha = sums.xy.sum() / sums.yy.sum()
    residual = sums.xx - 2.0 * alpha * sums.xy + alpha**2 * sums.yy
    value = float(np.sqrt(max(residual.sum(), 0.0) / sums.xx.sum()))
    defined = sums.xx > 0.0
    per_point = np.where(defined, np.sqrt(np.maximum(residual, 0.0) / np.where(defined, sums.xx, 1.0)), np.nan)
    return value, per_point


def _prepare(X, Y):
    X, Y = check_pair(X, Y)
    # One power of two for both (exact): stress compares the two scales.
    X, exponent = power_of_two_scaled(X)
    return X, np.ldexp(Y, -exponent)


def stress(X: npt.ArrayLike, Y: npt.ArrayLike, *, per_point: bool = False,
           random_state: "int | np.random.Generator" = 0) -> "float | tuple[float, np.ndarray]":
    """Normalized stress of an embedding, ``sqrt(sum (dX_ij - dY_ij)^2 / sum dX_ij^2)`` (Kruskal).

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    per_point : bool, default=False
        Also return each point's stress over its own pairs.
    random_state : int or numpy.random.Generator, default=0
        Draws the columns above :data:`PAIRS_EXACT_UP_TO` points.

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        0 for an isometry; lower is better. It is ZADU's ``stress``.

    Notes
    -----
    Not scale invariant: Smelser, Miller & Kobourov (2024) show that "normalized" stress changes
    when a layout is uniformly scaled, so two methods' outputs at their own scales are not
    comparable by it; read :func:`scale_normalized_stress` for that.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(50, 2))
    >>> stress(X, X @ [[0.0, 1.0], [-1.0, 0.0]] + 3.0) < 1e-12
    True
    """
    X, Y = _prepare(X, Y)
    value, values = stress_from_sums(pair_sums(X, Y, columns=pair_columns(X.shape[0], random_state=random_state)))
    return (value, values) if per_point else value


def scale_normalized_stress(X: npt.ArrayLike, Y: npt.ArrayLike, *, per_point: bool = False,
                            random_state: "int | np.random.Generator" = 0) -> "float | tuple[float, np.ndarray]":
    """Stress after the best uniform scale of the output: ``min_alpha stress(X, alpha Y)`` (SMK 2024).

    Parameters and Returns as :func:`stress`; the per-point values use the global alpha.

    Notes
    -----
    .. math::

        \\mathrm{SNS} = \\sqrt{1 - \\frac{(\\sum d^X_{ij} d^Y_{ij})^2}{\\sum (d^X_{ij})^2 \\sum (d^Y_{ij})^2}},

    invariant to scaling Y (and X); ZADU's ``scale_normalized_stress``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(50, 2))
    >>> scale_normalized_stress(X, 7.0 * X) < 1e-6
    True
    """
    X, Y = _prepare(X, Y)
    sums = pair_sums(X, Y, columns=pair_columns(X.shape[0], random_state=random_state))
    value, values = stress_from_sums(sums, scale_normalized=True)
    return (value, values) if per_point else value


def kl_from_sums(sums):
    """ZADU's KL divergence of density from :class:`PairSums` with densities."""
    p = sums.x_density / sums.x_density.sum()
    q = sums.y_density / sums.y_density.sum()
    return float(np.sum(p * np.log(p / q)))


def kl_divergence(X: npt.ArrayLike, Y: npt.ArrayLike, *, sigma: float = KL_SIGMA,
                  random_state: "int | np.random.Generator" = 0) -> float:
    """KL divergence between the input's and the output's point densities, as ZADU defines it.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    sigma : float, default=0.1
        Bandwidth, relative to the largest distance of each space (squared: the kernel is
        ``exp(-(d / max d)^2 / sigma)``).
    random_state : int or numpy.random.Generator, default=0
        Draws the columns above :data:`PAIRS_EXACT_UP_TO` points.

    Returns
    -------
    float
        ``sum_i p_i log(p_i / q_i)`` with ``p_i`` (``q_i``) point i's kernel density in X (Y),
        normalized to sum 1; 0 when the densities agree, lower is better.

    Notes
    -----
    As ZADU 0.5.4 (``kl_divergence.py``, ``distance_matrix_to_density``): the density sum includes
    j = i, and distances are divided by the largest one, so the measure is invariant to scaling
    either space. Above :data:`PAIRS_EXACT_UP_TO` points the densities (and the largest distances)
    come from a sample of columns.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(60, 3))
    >>> abs(kl_divergence(X, 2.0 * X)) < 1e-15
    True
    """
    if not (isinstance(sigma, (int, float)) and not isinstance(sigma, bool) and sigma > 0 and np.isfinite(sigma)):
        raise MeasureError(f"sigma must be a positive number; got {sigma!r}.")
    X, Y = check_pair(X, Y)
    X, Y = power_of_two_scaled(X)[0], power_of_two_scaled(Y)[0]
    columns = pair_columns(X.shape[0], random_state=random_state)
    sums = pair_sums(X, Y, columns=None if columns is None else columns, sigma=sigma)
    if sums.x_max == 0.0 or sums.y_max == 0.0:
        raise MeasureError("KL divergence of density: every distance of one space is 0 (all points coincide).")
    return kl_from_sums(with_self(sums, columns))


def with_self(sums, columns):
    """Sampled columns miss most j = i terms, which ZADU's density includes: add ``exp(0) = 1``
    where i is not a column (so the estimate counts it once, as the full sum does)."""
    if columns is None:
        return sums
    missing = np.ones(sums.x_density.size)
    missing[columns] = 0.0
    return dataclasses.replace(sums, x_density=sums.x_density + missing, y_density=sums.y_density + missing)


def spearman_sources(n_samples, *, random_state=0):
    """Sources of the pairs ranked by :func:`distance_spearman`: None (all pairs i < j) up to
    ``sqrt(2 SPEARMAN_PAIRS)`` points, else ``SPEARMAN_PAIRS / n`` random points (at least 8)."""
    if n_samples * (n_samples - 1) // 2 <= SPEARMAN_PAIRS:
        return None
    count = min(n_samples, max(8, SPEARMAN_PAIRS // n_samples))
    return np.sort(check_random_state(random_state).choice(n_samples, count, replace=False))


def ascending_order(values):
    """An order that sorts a 1-D float array ascending: ``values[order]`` is sorted (ties in any order).

    ``numpy.sort`` of 64-bit integers is vectorized (SIMD) where ``numpy.argsort`` is not, and about
    four times faster on the million distances of 1 600 points. So each value's IEEE-754 bits, as an
    unsigned key in the floats' order, keep their high bits and carry the value's index in the low
    ones; one ``sort`` then gives the order. Values equal in the kept bits (within a relative 2^-32
    of each other at a million values) come out by index: those few runs are sorted again exactly.
    """
    return _ordered(values)[0]


def _ordered(values):
    """:func:`ascending_order`'s order, and the sorted positions where equal values can lie: those whose kept
    bits equal a neighbour's (an int array), or None for anywhere (an order from ``argsort``)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    size = values.size
    index_bits = max(1, (size - 1).bit_length())
    if size < 2 or index_bits > 32:  # nothing to order, or too few bits left for the values
        return np.argsort(values), None
    keys = (values + 0.0).view(np.uint64)  # -0.0 + 0.0 is 0.0: equal zeros get one key
    if np.signbit(values).any():  # negative numbers' bits run backwards: flip them; the rest get the sign bit
        keys = np.where(keys >> np.uint64(63), ~keys, keys | np.uint64(1 << 63))
    low = np.uint64((1 << index_bits) - 1)
    packed = (keys & ~low) | np.arange(size, dtype=np.uint64)
    packed.sort()
    order = (packed & low).astype(np.intp)
    kept = packed >> np.uint64(index_bits)
    same = kept[1:] == kept[:-1]
    # Positions inside runs of equal kept bits, each run numbered; sorted by (run, value) in place.
    inside = np.flatnonzero(np.r_[same, False] | np.r_[False, same])
    if inside.size:
        run = np.cumsum(np.r_[True, ~same[inside[1:] - 1]])
        members = order[inside]
        order[inside] = members[np.lexsort((values[members], run))]
    return order, inside


def average_ranks(values):
    """Ranks from 1 of a 1-D array, ties given their average rank (``scipy.stats.rankdata``'s default).

    The same ranks as SciPy's from :func:`ascending_order`, about twice as fast as numpy's argsort on
    the million pairs of 1 600 points: an average over each run of equal values cannot depend on the
    order inside the run, so a stable sort buys nothing. Equal values can lie only where the packed
    sort found equal kept bits, so only those positions are read again for ties: the rest take their
    position's rank (at 20 000 points, DEMaP's 12.5 million pairs hold a few hundred thousand such).
    """
    values = np.asarray(values)
    order, suspects = _ordered(values)
    if suspects is None:
        suspects = np.arange(values.size)
    ranked = np.arange(1.0, values.size + 1)  # sorted position p: rank p + 1, unless its value is tied
    if suspects.size:
        tied = values[order[suspects]]
        starts = np.flatnonzero(np.r_[True, (tied[1:] != tied[:-1]) | (np.diff(suspects) != 1)])
        lengths = np.diff(np.r_[starts, suspects.size])
        first = suspects[starts]
        # Positions first .. first + length - 1 hold ranks first + 1 .. first + length: their average.
        ranked[suspects] = np.repeat((2 * first + 1 + lengths) / 2.0, lengths)
    ranks = np.empty(values.size)
    ranks[order] = ranked
    return ranks


def _centred_ranks(values):
    """:func:`average_ranks` of ``values`` minus their mean."""
    ranks = average_ranks(values)
    ranks -= ranks.mean()
    return ranks


def _input_ranks(values):
    """The centred ranks of an input's distances, kept (read-only) for the next output of the same input."""
    values = np.asarray(values)
    if not _ranks.fits(8 * values.size):
        return _centred_ranks(values)
    key = digest(values)
    ranks = _ranks.get(key)
    if ranks is None:
        ranks = _centred_ranks(values)
        ranks.flags.writeable = False
        _ranks.put(key, ranks)
    return ranks


def spearman_from_rows(input_rows, output_rows):
    """Spearman's rho between two equal-length collections of distances (1-D arrays).

    The input's ranks are those of a previous call with the same input distances when it is still
    kept (:data:`SPEARMAN_MEMO_BYTES`): the same numbers bit for bit, one sort instead of two. The two
    sides are ranked at once on two cores when they are long (numpy's sort releases the interpreter).
    """
    sides = ((_input_ranks, input_rows), (_centred_ranks, output_rows))
    first, second = thread_map(lambda side: side[0](side[1]), sides, parallel=len(output_rows) >= PARALLEL_FROM_PAIRS)
    denominator = np.sqrt(np.dot(first, first) * np.dot(second, second))
    if denominator == 0.0:
        raise MeasureError("Spearman's rho: every distance of one space is equal (all points coincide).")
    return float(np.dot(first, second) / denominator)


def distance_spearman_values(X, Y, neighbors=None, *, geodesic=True, sources=None, graph=None):
    """The pairs' input (geodesic or Euclidean) and output distances, flattened: ``(input, output)``.

    With ``sources`` None, every pair i < j once; else the pairs (s, j), j != s. ``graph``: the
    two-way kNN graph (:func:`measures.geodesic_graph` with ``both_directions=True``) when the
    caller built it already.
    """
    n_samples = X.shape[0]
    if geodesic and graph is None:
        graph = geodesic_graph(X, neighbors, both_directions=True)
    starts = np.arange(n_samples) if sources is None else sources
    batches = [starts[part] for part in chunk_slices(len(starts), 8 * 4 * n_samples)]
    swept = dijkstra_batches(csr_array(graph), batches) if geodesic else ((cdist(X[batch], X), None)
                                                                            for batch in batches)
    with contextlib.closing(swept):  # an error while ranking stops the workers at once
        parts = [spearman_pair_rows(batch, rows, Y, every_pair_once=sources is None)
                 for batch, (rows, _) in zip(batches, swept, strict=True)]
    return joined_pair_rows(parts)


def joined_pair_rows(parts):
    """The ``(input, output)`` distances of several :func:`spearman_pair_rows` results, end to end."""
    return tuple(np.concatenate(side) for side in zip(*parts))


def spearman_pair_rows(batch, given, Y, *, every_pair_once):
    """The pairs of rows ``batch`` that DEMaP ranks: ``(input distances, output distances)``, flattened.

    ``given`` holds the input distances from each source of ``batch`` to every point (a Dijkstra's
    rows, here or in a graph sweep that reads the same rows, :func:`measures.geodesics.geodesic_sweep`);
    ``every_pair_once``: the pairs (s, j > s), else (s, j != s).
    """
    columns = np.arange(given.shape[1])[None, :]
    keep = columns > batch[:, None] if every_pair_once else columns != batch[:, None]
    return given[keep], cdist(Y[batch], Y)[keep]


def distance_spearman(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *, geodesic: bool = True,
                      random_state: "int | np.random.Generator" = 0) -> float:
    """Spearman's rho between the input's graph-geodesic distances and the output's (PHATE's DEMaP).

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    n_neighbors : int
        k of the input's kNN graph (SPEC §0), whose shortest paths approximate geodesics.
    geodesic : bool, default=True
        False: the input's Euclidean distances instead (ZADU's ``spearman_rho``).
    random_state : int or numpy.random.Generator, default=0
        Draws the sources above ``sqrt(2 SPEARMAN_PAIRS)`` points.

    Returns
    -------
    float
        In [-1, 1], 1 when output distances are a monotone function of the geodesics; higher is
        better.

    Raises
    ------
    DisconnectedGraphError
        If the kNN graph is not connected (with ``geodesic``).

    Notes
    -----
    DEMaP (Moon et al. 2019) correlates the output's Euclidean distances with geodesic distances
    of the data, here the kNN-graph shortest paths of Isomap and the residual variance. Ranked
    over all pairs i < j (ties get average ranks) up to 5 000 points, otherwise over the pairs of
    ``SPEARMAN_PAIRS / n`` random sources.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(300, 2)) * [3.0, 1.0]
    >>> distance_spearman(Z, Z, 8) > 0.99
    True
    """
    X, Y = check_pair(X, Y)
    X, Y = power_of_two_scaled(X)[0], power_of_two_scaled(Y)[0]
    neighbors = None
    if geodesic:
        neighbors = nearest_neighbors(X, n_neighbors)
        check_connected(neighbors, "DEMaP needs every geodesic distance finite", "Raise n_neighbors.")
    sources = spearman_sources(X.shape[0], random_state=random_state)
    return spearman_from_rows(*distance_spearman_values(X, Y, neighbors, geodesic=geodesic, sources=sources))


def triplet_accuracy(X: npt.ArrayLike, Y: npt.ArrayLike, *, per_point: bool = False,
                     n_triplets: int = TRIPLETS_PER_POINT,
                     random_state: "int | np.random.Generator" = 0) -> "float | tuple[float, np.ndarray]":
    """Random-triplet accuracy: how often the output orders two distances from a point as the input does.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    per_point : bool, default=False
    n_triplets : int, default=10
        Triplets (i, j, l) drawn per point i (j, l distinct and other than i).
    random_state : int or numpy.random.Generator, default=0
        Draws the triplets (same seed, same triplets, same value).

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        Share of triplets with ``sign(dX_ij - dX_il) == sign(dY_ij - dY_il)``; 1 for an isometry
        (or any similarity), ~0.5 for an unrelated output; higher is better.

    Notes
    -----
    Wang, Huang, Rudin & Shaposhnikov (2021) use it as the global-structure score of PaCMAP. It
    reads O(n n_triplets) distances: exact for its triplets at any n.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(100, 3))
    >>> triplet_accuracy(X, 2.0 * X[:, [2, 0, 1]])
    1.0
    """
    X, Y = check_pair(X, Y)
    n_samples = X.shape[0]
    if n_samples < 3:
        raise MeasureError(f"random triplets need at least 3 points; got {n_samples}.")
    n_triplets = check_integer(n_triplets, "n_triplets", 1, error=MeasureError)
    X, Y = power_of_two_scaled(X)[0], power_of_two_scaled(Y)[0]
    rng = check_random_state(random_state)
    anchors = np.repeat(np.arange(n_samples), n_triplets)
    # j, l uniform among the other points and distinct: shift past the anchor and past j.
    first = rng.integers(0, n_samples - 1, anchors.size)
    second = rng.integers(0, n_samples - 2, anchors.size)
    first = first + (first >= anchors)
    low, high = np.minimum(anchors, first), np.maximum(anchors, first)
    second = second + (second >= low)
    second = second + (second >= high)
    agree = np.empty(anchors.size, dtype=bool)
    for part in chunk_slices(anchors.size, 16 * (X.shape[1] + Y.shape[1])):
        a, j, m = anchors[part], first[part], second[part]
        sign_x = np.sign(np.linalg.norm(X[a] - X[j], axis=1) - np.linalg.norm(X[a] - X[m], axis=1))
        sign_y = np.sign(np.linalg.norm(Y[a] - Y[j], axis=1) - np.linalg.norm(Y[a] - Y[m], axis=1))
        agree[part] = sign_x == sign_y
    values = agree.reshape(n_samples, n_triplets).mean(axis=1)
    value = float(agree.mean())
    return (value, values) if per_point else value


def columns_approximation(what, n_samples, columns):
    """The sentence stating a column-sampled pair measure's approximation, or None when exact."""
    if columns is None:
        return None
    return (f"{what} over the pairs (i, j) with j among {len(columns):,} random points ({n_samples * len(columns):,} "
            f"of the {n_samples * (n_samples - 1):,} ordered pairs), not all pairs.")
