"""Rank-based neighbourhood measures: neighbourhood agreement (1 - M_LC), trustworthiness, continuity.

All three compare each point's k nearest neighbours in the input (from the shared routine
:func:`measures.nearest_neighbors`, SPEC §0) with its k nearest neighbours in the output, the point
itself excluded.

References
----------
.. [CB] L. Chen and A. Buja, "Local multidimensional scaling for nonlinear dimension reduction,
   graph drawing, and proximity analysis", J. Amer. Statist. Assoc. 104 (2009) 209-219 (LCMC).
.. [VK] J. Venna and S. Kaski, "Neighborhood preservation in nonlinear projection methods: an
   experimental study", ICANN 2001, LNCS 2130, 485-491 (trustworthiness and continuity).
.. [NQ] P. Zhang, Y. Ren and B. Zhang, Neurocomputing 97 (2012) 251-266, Eq. 2.
"""

import numpy as np
import numpy.typing as npt
from sklearn.neighbors import NearestNeighbors

from .chunks import chunk_slices
from .errors import MeasureError
from .neighbors import (
    NEAR_TIE,
    PAIR_BYTES,
    OrderedTree,
    check_pair,
    nearest_neighbors,
    power_of_two_scaled,
    squared_distances,
)
from .parameters import check_integer

__all__ = [
    "TREE_COUNT_UP_TO",
    "check_rank_neighbors",
    "continuity",
    "mrre",
    "mrre_from_ranks",
    "mrre_values",
    "neighbour_sets",
    "neighbourhood_agreement",
    "pair_ranks",
    "rank_penalties",
    "shared_neighbour_counts",
    "trustworthiness",
    "trustworthiness_from_penalties",
]

# Half-width of the band around a needed pair's distance, relative, inside which the tree's count of
# closer points is not trusted and the pair's rank is computed exactly from its whole row.
_BAND = 1e3 * NEAR_TIE
# Above this many columns a KD-tree's radius count visits most of its nodes (digits, 64 columns:
# 4.1 s for the counts against 0.3 s for whole rows at n = 1 797), so ranks come from rows.
TREE_COUNT_UP_TO = 10
# Width of the sorted neighbour list that ranks most needed pairs, in units of k: on a swiss roll
# with a noisy chart (n = 200 000, k = 12) 62 % of the needed pairs rank below 32, 91 % below 64.
LIST_FACTOR = 4


def shared_neighbour_counts(input_neighbors, output_neighbors):
    """``|N_k(x_i) ∩ N_k(y_i)|`` per point, from two (n, k) index arrays (the point excluded).

    Each row holds k distinct indices, so the count is the number of matching (a, b) entries; the
    (n, k, k) comparison is chunked.
    """
    n_samples, k = input_neighbors.shape
    shared = np.empty(n_samples, dtype=np.int64)
    for part in chunk_slices(n_samples, k * k):
        shared[part] = (input_neighbors[part, :, None] == output_neighbors[part, None, :]).sum(axis=(1, 2))
    return shared


def neighbour_sets(points, neighbors, n_neighbors):
    """Each point's k nearest neighbours as scikit-learn's ``NearestNeighbors(k).kneighbors()`` picks them.

    Parameters
    ----------
    points : ndarray of shape (n_samples, p)
    neighbors : ndarray of shape (n_samples, k + 1 or k + 2)
        :func:`measures.nearest_neighbors` of ``points`` (the point first). With ``k + 2`` columns
        the (k+1)-th distance is read from it; with ``k + 1`` a tree counts the points within the
        k-th distance instead.
    n_neighbors : int
        k.

    Returns
    -------
    ndarray of shape (n_samples, k), int64
        The set of each point's k nearest other points (in distance order where it is ours).

    Notes
    -----
    The set is unique unless the k-th and (k+1)-th distances tie; our search then keeps the
    smaller index, scikit-learn whichever its own search returns first. Rows with such a tie (or a
    near-tie within :data:`measures.neighbors.NEAR_TIE`) are taken from scikit-learn's own
    ``NearestNeighbors(n_neighbors=k).fit(points).kneighbors()``, the call
    ``sklearn.manifold.trustworthiness`` makes, so that trustworthiness and continuity agree with
    it on tied data (integer images, grids, duplicates); elsewhere no second search is run.
    """
    k = n_neighbors
    sets = np.ascontiguousarray(neighbors[:, 1:k + 1])
    rows = np.arange(points.shape[0])
    scaled = power_of_two_scaled(points)[0]
    kth = squared_distances(scaled, rows, neighbors[:, k])
    if neighbors.shape[1] >= k + 2:
        beyond = squared_distances(scaled, rows, neighbors[:, k + 1])
        tied = beyond - kth <= 2.0 * NEAR_TIE * beyond
    else:
        radius = np.sqrt(kth) * (1.0 + _BAND) + np.finfo(float).tiny
        tied = OrderedTree(scaled).count(scaled, radius) > k + 1
    if tied.any():
        found = NearestNeighbors(n_neighbors=k).fit(points).kneighbors(return_distance=False)
        sets[tied] = found[tied]
    return sets


def rank_penalties(reference, reference_neighbors, other_sets):
    """``sum_j max(r(i, j) - k, 0)`` per point over the k neighbours j of i in the *other* space.

    Parameters
    ----------
    reference : ndarray of shape (n, p)
        The space in which ranks are taken.
    reference_neighbors : ndarray of shape (n, k + 1) or (n, k + 2)
        :func:`measures.nearest_neighbors` of ``reference`` (the point first); with one neighbour
        more, pairs within the (k+1)-th distance need no rank.
    other_sets : ndarray of shape (n, k)
        The k nearest neighbours of each point in the other space (:func:`neighbour_sets`).

    Returns
    -------
    ndarray of shape (n,), int64

    Notes
    -----
    Tie rule, scikit-learn's: ``r(i, j)`` is the position of j (from 1) in ``numpy.argsort`` (its
    default, unstable quicksort) of row i of the reference's Euclidean distances with the diagonal
    set to inf. Without ties that is 1 + the number of points strictly closer to i than j.

    Exact without the n x n matrix (issue 16): a neighbour j of i in the other space that is
    strictly closer to i than i's (k+1)-th reference neighbour has rank <= k and costs nothing
    (every point placed before it is one of the k strictly closer than that neighbour), so only the
    other pairs are ranked. A rank is then a count of points within a radius. Most needed
    pairs rank a little past k and are read off one search of the ``LIST_FACTOR * k`` nearest
    neighbours of each point (the number of listed distances below the pair's); the others are
    counted by the reference's KD-tree (up to :data:`TREE_COUNT_UP_TO` columns; above, whole rows
    are cheaper; two counts, at the pair's distance shrunk and grown by a relative
    1e-9; when only j lies between them, ``r(i, j)`` is the smaller count, the point i itself
    counting as the "1"). A pair with other points in that band (a tie, or a near-tie that
    rounding could order either way) gets its row of distances computed exactly
    (:func:`measures.neighbors.squared_distances`) and, if j ties with another point, the row is
    argsorted as scikit-learn does. Time grows with the number of pairs the two spaces disagree on
    and with their ranks (a count costs about ``r^{(p-1)/p}`` tree nodes), not with n^2.

    The value equals scikit-learn's wherever its distance formula (``|x|^2 + |y|^2 - 2 x.y``)
    orders the points as the exact distances do: always for integer-valued data (digits, grids),
    and for real data whenever no two distances from a point differ by less than that formula's
    rounding.
    """
    n_samples, k = other_sets.shape
    points = power_of_two_scaled(reference)[0]
    rows = np.arange(n_samples)
    # Safe below the (k+1)-th distance when the search has it (then a perfect embedding needs no
    # rank at all), else below the k-th.
    kth = squared_distances(points, rows, reference_neighbors[:, min(k + 1, reference_neighbors.shape[1] - 1)])
    pair_rows = np.repeat(rows, k)
    pair_columns = other_sets.ravel()
    squared = np.empty(pair_rows.size)
    for part in chunk_slices(pair_rows.size, PAIR_BYTES):
        squared[part] = squared_distances(points, pair_rows[part], pair_columns[part])
    needed = ~(squared < kth[pair_rows] * (1.0 - 2.0 * NEAR_TIE))
    pair_rows, pair_columns, squared = pair_rows[needed], pair_columns[needed], squared[needed]
    penalties = np.zeros(n_samples, dtype=np.int64)
    ranks = pair_ranks(points, pair_rows, pair_columns, squared, k)
    np.add.at(penalties, pair_rows, np.maximum(ranks - k, 0))
    return penalties


def pair_ranks(points, pair_rows, pair_columns, squared, k, *, ties="argsort"):
    """The rank ``r(i, j)`` of each pair's j among the distances from i (1 for the nearest other point).

    Parameters
    ----------
    points : ndarray of shape (n, p)
        The space of the ranks (already scaled, :func:`measures.power_of_two_scaled`).
    pair_rows, pair_columns : ndarray of shape (m,), int
        The pairs (i, j), sorted by i.
    squared : ndarray of shape (m,)
        Their squared distances (:func:`measures.neighbors.squared_distances`).
    k : int
        Sets the width of the sorted neighbour list that ranks most pairs (``LIST_FACTOR * k``).
    ties : {"argsort", "index"}
        Among equidistant points: scikit-learn's order (numpy's default argsort of the row; for
        trustworthiness and continuity) or increasing index (a stable sort; ZADU's MRRE).

    Returns
    -------
    ndarray of shape (m,), int64

    Notes
    -----
    See :func:`rank_penalties`: the sorted list of ``LIST_FACTOR * k`` neighbours, then two
    KD-tree counts, then whole rows for ties, near-ties and inputs of many columns.
    """
    n_samples = points.shape[0]
    ranks = np.zeros(pair_rows.size, dtype=np.int64)
    if pair_rows.size == 0:
        return ranks
    if points.shape[1] > TREE_COUNT_UP_TO:
        ranks[:] = _exact_ranks(points, pair_rows, pair_columns, ties)
        return ranks
    tree = OrderedTree(points)
    distance = np.sqrt(squared)
    # Most needed pairs rank a little past k: one search with LIST_FACTOR * k neighbours per point
    # ranks them by a comparison with the row's sorted distances; the rest are counted.
    width = min(LIST_FACTOR * k + 1, n_samples)
    resolved = np.zeros(pair_rows.size, dtype=bool)
    listed_rows, owner = np.unique(pair_rows, return_inverse=True)
    boundaries = np.searchsorted(owner, np.arange(0, listed_rows.size + 1))
    for part in chunk_slices(listed_rows.size, 8 * (3 * width + 3 * k * width)):
        first, last = boundaries[part.start], boundaries[part.stop]
        listed, _ = tree.query(points[listed_rows[part]], width)
        local = owner[first:last] - part.start
        target = distance[first:last, None]
        row = listed[local]
        below = np.count_nonzero(row < target * (1.0 - _BAND), axis=1)
        within = np.count_nonzero(row <= target * (1.0 + _BAND), axis=1)
        inside = target[:, 0] * (1.0 + _BAND) < row[:, -1]
        done = inside & (within - below == 1) & (target[:, 0] > 0.0)
        resolved[first:last] = done
        ranks[first:last] = below
    counted = np.flatnonzero(~resolved)
    if counted.size:
        query = points[pair_rows[counted]]
        inner = tree.count(query, distance[counted] * (1.0 - _BAND))
        outer = tree.count(query, distance[counted] * (1.0 + _BAND) + np.finfo(float).tiny)
        clear = (outer - inner == 1) & (distance[counted] > 0.0)
        resolved[counted[clear]] = True
        ranks[counted[clear]] = inner[clear]
    unclear = np.flatnonzero(~resolved)
    if unclear.size:
        ranks[unclear] = _exact_ranks(points, pair_rows[unclear], pair_columns[unclear], ties)
    return ranks


def _exact_ranks(points, pair_rows, pair_columns, ties):
    """``r(i, j)`` for each pair from row i's distances, computed whole.

    O(n) per row, each row once, a cache-sized block of rows at a time (sized by
    :data:`measures.neighbors.PAIR_BYTES`: at 1 024 dimensions, sized for every coordinate's differences,
    a block was one row, 16 of the 21 s of a run on the globe's 900 images). Where j ties with another point:
    with ``ties="argsort"`` its row is argsorted (numpy's default kind, as scikit-learn's
    ``trustworthiness``) and j's position read off; with ``"index"`` the tied points of smaller index
    come first.
    """
    n_samples = points.shape[0]
    everyone = np.arange(n_samples)
    rows, owner = np.unique(pair_rows, return_inverse=True)
    ranks = np.empty(pair_rows.size, dtype=np.int64)
    for block in chunk_slices(rows.size, (PAIR_BYTES + 8) * n_samples, cache=True):  # and the row's distances
        in_block = np.flatnonzero((owner >= block.start) & (owner < block.stop))
        local = owner[in_block] - block.start
        distances = np.sqrt(squared_distances(points, rows[block, None], everyone[None, :]))
        distances[np.arange(distances.shape[0]), rows[block]] = np.inf
        targets = distances[local, pair_columns[in_block]]
        closer = np.count_nonzero(distances[local] < targets[:, None], axis=1)
        equal = distances[local] == targets[:, None]
        tied = np.count_nonzero(equal, axis=1) > 1
        ranks[in_block] = closer + 1
        if ties == "index":
            before = np.count_nonzero(equal & (everyone[None, :] < pair_columns[in_block, None]), axis=1)
            ranks[in_block] += before
            continue
        for row in np.unique(local[tied]):  # scikit-learn's order of equidistant points: argsort of the row
            position = np.empty(n_samples, dtype=np.int64)
            position[np.argsort(distances[row])] = everyone
            pairs = in_block[tied & (local == row)]
            ranks[pairs] = position[pair_columns[pairs]] + 1
    return ranks


def mrre_from_ranks(base_ranks, n_samples):
    """Per-point mean relative rank errors from the base ranks of each point's k target neighbours.

    Parameters
    ----------
    base_ranks : ndarray of shape (n_samples, k)
        Rank in the other space of each of the point's k nearest neighbours in this one, listed
        in this space's order (so column c has target rank c + 1).
    n_samples : int

    Returns
    -------
    ndarray of shape (n_samples,)
        ``sum_c |base - (c+1)| / (c+1)`` over ``sum_r |n - 2r + 1| / r`` (Lee & Verleysen's
        normalization, the largest possible sum).
    """
    k = base_ranks.shape[1]
    target = np.arange(1, k + 1)
    normalization = np.sum(np.abs(n_samples - 2 * target + 1) / target)
    return np.sum(np.abs(base_ranks - target) / target, axis=1) / normalization


def mrre_values(reference, reference_search, other_search, n_neighbors):
    """Per-point MRRE: the other space's k nearest neighbours ranked in ``reference`` (ties by index).

    ``reference_search`` and ``other_search`` are :func:`measures.nearest_neighbors` of the two
    spaces (self first, at least k + 1 columns); both orders are the stable (distance, index)
    order ZADU's ranking uses, so a neighbour listed in the reference's search has its column as rank.
    """
    k = n_neighbors
    n_samples = reference.shape[0]
    points = power_of_two_scaled(reference)[0]
    sets = other_search[:, 1:k + 1]
    listed = reference_search[:, 1:k + 1]
    match = sets[:, :, None] == listed[:, None, :]
    base = np.where(match.any(axis=2), match.argmax(axis=2) + 1, 0).astype(np.int64)
    rows, columns = np.nonzero(base == 0)
    squared = squared_distances(points, rows, sets[rows, columns])
    base[rows, columns] = pair_ranks(points, rows, sets[rows, columns], squared, k, ties="index")
    return mrre_from_ranks(base, n_samples)


def mrre(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *, direction: str = "false",
         per_point: bool = False) -> "float | tuple[float, np.ndarray]":
    """Mean relative rank error of an embedding (Lee & Verleysen), one direction.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    n_neighbors : int
        k.
    direction : {"false", "missing"}, default="false"
        ``"false"``: the output's k nearest neighbours, ranked in the input (intrusions, W_n);
        ``"missing"``: the input's k nearest neighbours, ranked in the output (extrusions, W_ν).
    per_point : bool, default=False

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        In [0, 1], 0 when every neighbour keeps its rank; lower is better.

    Notes
    -----
    .. math::

        W_n = \\frac{1}{C} \\frac{1}{n} \\sum_i \\sum_{j \\in N_k(y_i)}
              \\frac{|\\rho_{ij} - r_{ij}|}{r_{ij}}, \\qquad C = \\sum_{r=1}^k \\frac{|n - 2r + 1|}{r},

    ``r`` the rank in the output, ``rho`` in the input (Lee & Verleysen, "Quality assessment of
    dimensionality reduction", Neurocomputing 72, 2009). Equidistant points are ranked by index
    (a stable sort), as ZADU does; ZADU's ``mrre_false`` / ``mrre_missing`` are ``1 - W``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(80, 2))
    >>> mrre(X, 3.0 * X, 5), mrre(X, 3.0 * X, 5, direction="missing")
    (0.0, 0.0)
    """
    if direction not in ("false", "missing"):
        raise MeasureError(f"direction must be 'false' or 'missing'; got {direction!r}.")
    X, Y = check_pair(X, Y)
    k = check_integer(n_neighbors, "n_neighbors", 1, X.shape[0] - 1, error=MeasureError,
                      hint="Choose a smaller k or use more points.")
    input_search, output_search = nearest_neighbors(X, k), nearest_neighbors(Y, k)
    if direction == "false":
        values = mrre_values(X, input_search, output_search, k)
    else:
        values = mrre_values(Y, output_search, input_search, k)
    mean = float(values.mean())
    return (mean, values) if per_point else mean


def check_rank_neighbors(n_samples, n_neighbors):
    """k for trustworthiness and continuity: an integer with ``1 <= k < n_samples / 2``, else MeasureError."""
    high = (n_samples - 1) // 2
    return check_integer(n_neighbors, "n_neighbors", 1, high, error=MeasureError,
                         hint=f"Trustworthiness and continuity need n_neighbors < n_samples / 2 = {n_samples / 2} "
                              "to lie in [0, 1]; choose a smaller k.")


def trustworthiness_from_penalties(penalties, n_neighbors):
    """Mean (scikit-learn's exact expression) and per-point values of Venna & Kaski's formula.

    Parameters
    ----------
    penalties : ndarray of shape (n,), int
        From :func:`rank_penalties`.
    n_neighbors : int

    Returns
    -------
    mean : float
    values : ndarray of shape (n,)
    """
    n, k = penalties.size, n_neighbors
    mean = 1.0 - int(penalties.sum()) * (2.0 / (n * k * (2.0 * n - 3.0 * k - 1.0)))
    return mean, 1.0 - penalties * (2.0 / (k * (2.0 * n - 3.0 * k - 1.0)))


def _rank_measure(X, Y, n_neighbors, per_point, swap):
    X, Y = check_pair(X, Y)
    k = check_rank_neighbors(X.shape[0], n_neighbors)
    input_neighbors = nearest_neighbors(X, k + 1)
    output_neighbors = nearest_neighbors(Y, k + 1)
    if swap:
        penalties = rank_penalties(Y, output_neighbors, neighbour_sets(X, input_neighbors, k))
    else:
        penalties = rank_penalties(X, input_neighbors, neighbour_sets(Y, output_neighbors, k))
    mean, values = trustworthiness_from_penalties(penalties, k)
    return (mean, values) if per_point else mean


def trustworthiness(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *,
                    per_point: bool = False) -> "float | tuple[float, np.ndarray]":
    """Trustworthiness of an embedding: are the output's neighbours true neighbours? (Venna & Kaski)

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        Input points.
    Y : array-like of shape (n_samples, d)
        Embedding.
    n_neighbors : int
        k, with ``k < n_samples / 2``.
    per_point : bool, default=False
        Also return each point's term.

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        In [0, 1], higher is better; the per-point values average to the float.

    Raises
    ------
    MeasureError
        On mismatched rows, NaN, or k outside ``[1, n / 2)``.

    Notes
    -----
    .. math::

        T(k) = 1 - \\frac{2}{n k (2n - 3k - 1)} \\sum_{i=1}^n \\sum_{j \\in N_k(y_i)} \\max(0, r(i, j) - k),

    ``r(i, j)`` the rank of j among the input distances from i, with scikit-learn's tie rule.
    Equal to ``sklearn.manifold.trustworthiness(X, Y, n_neighbors=k)`` (same formula, same ties,
    same rounding of the final expression; tested to equality on digits, a grid with duplicates
    and random data) without its n x n distance and rank matrices: O(n k) memory, and time that
    grows with the pairs the two spaces disagree on (:func:`rank_penalties`).

    Examples
    --------
    An affine map of the input keeps every neighbour:

    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(100, 3))
    >>> trustworthiness(X, 2.0 * X[:, :2] @ [[0.0, 1.0], [1.0, 0.0]] + 1.0, 5) <= 1.0
    True
    >>> trustworthiness(X, 3.0 * X + 1.0, 5)
    1.0
    """
    return _rank_measure(X, Y, n_neighbors, per_point, swap=False)


def continuity(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *,
               per_point: bool = False) -> "float | tuple[float, np.ndarray]":
    """Continuity of an embedding: are the input's neighbours kept together? (Venna & Kaski)

    Trustworthiness with the roles of input and output swapped: ranks are taken in the output,
    for the input's k nearest neighbours (``continuity(X, Y, k) == trustworthiness(Y, X, k)``).

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    n_neighbors : int
        k, with ``k < n_samples / 2``.
    per_point : bool, default=False

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        In [0, 1], higher is better.

    Notes
    -----
    .. math::

        C(k) = 1 - \\frac{2}{n k (2n - 3k - 1)} \\sum_{i=1}^n \\sum_{j \\in N_k(x_i)} \\max(0, \\hat r(i, j) - k),

    ``r̂(i, j)`` the rank of j among the output distances from i, with scikit-learn's tie rule:
    equal to ``sklearn.manifold.trustworthiness(Y, X, n_neighbors=k)``.
    """
    return _rank_measure(X, Y, n_neighbors, per_point, swap=True)


def neighbourhood_agreement(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *,
                            per_point: bool = False) -> "float | tuple[float, np.ndarray]":
    """Neighbourhood disagreement ``1 - M_LC``: share of input neighbours missing from the output's.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    n_neighbors : int
        k.
    per_point : bool, default=False

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        ``1 - M_LC`` in [0, 1], lower is better, as NQ plots it; per point
        ``1 - |N_k(x_i) ∩ N_k(y_i)| / k``.

    Notes
    -----
    .. math::

        M_{LC} = \\frac{1}{kn} \\sum_{i=1}^n |N_k(x_i) \\cap N_k(y_i)|

    (NQ Eq. 2; Chen & Buja's LCMC without its baseline correction).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(50, 2))
    >>> neighbourhood_agreement(X, -X, 4)
    0.0
    """
    X, Y = check_pair(X, Y)
    shared = shared_neighbour_counts(nearest_neighbors(X, n_neighbors)[:, 1:], nearest_neighbors(Y, n_neighbors)[:, 1:])
    values = 1.0 - shared / n_neighbors
    mean = float(1.0 - shared.sum() / (n_neighbors * shared.size))
    return (mean, values) if per_point else mean
