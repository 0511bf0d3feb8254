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

from .chunks import chunk_slices
from .errors import MeasureError
from .neighbors import nearest_neighbors
from .procrustes import _check_pair

__all__ = ["continuity", "neighbourhood_agreement", "trustworthiness"]


def _shared_neighbours(input_neighbors, output_neighbors):
    """``|N_k(x_i) ∩ N_k(y_i)|`` per point, from two (n, k) index arrays (the point excluded).

    Each row holds k distinct indices, so the count is the number of matching (a, b) entries; the
    (n, k, k) comparison is chunked.
    """
    n_samples, k = input_neighbors.shape
    shared = np.empty(n_samples, dtype=np.int64)
    for part in chunk_slices(n_samples, k * k):
        shared[part] = (input_neighbors[part, :, None] == output_neighbors[part, None, :]).sum(axis=(1, 2))
    return shared


def _rank_penalties(reference, reference_neighbors, other_neighbors):
    """``sum_j max(r(i, j) - k, 0)`` per point over the k neighbours j of i in the *other* space.

    Parameters
    ----------
    reference : ndarray of shape (n, p)
        The space in which ranks are taken.
    reference_neighbors : ndarray of shape (n, k)
        k nearest neighbours of each point in ``reference`` (the point excluded).
    other_neighbors : ndarray of shape (n, k)
        k nearest neighbours of each point in the other space.

    Returns
    -------
    ndarray of shape (n,), int64

    Notes
    -----
    ``r(i, j)`` is 1 + the number of points closer to i than j in ``reference``. A neighbour
    shared with ``reference_neighbors`` has rank <= k and costs nothing; for the others the rank is
    counted, not sorted for: squared distances of a chunk of rows come from one matrix product
    (centred first, so that ``|x|^2 + |y|^2 - 2 x.y`` loses no digits to an offset), and each
    needed rank is the number of entries of its row below its own entry, the point itself set to
    -inf so that it is counted as the "1". This does O(n) work per needed pair and O(n^2) in all,
    with no n x n array and no sort (scikit-learn argsorts full rows: O(n^2 log n)). Equidistant
    points (duplicates) make ranks ambiguous; any order of them is as valid as scikit-learn's.
    """
    n_samples, k = other_neighbors.shape
    reference = reference - reference.mean(axis=0)
    squared_norms = np.einsum("ij,ij->i", reference, reference)
    needed = ~(other_neighbors[:, :, None] == reference_neighbors[:, None, :]).any(axis=2)
    penalties = np.zeros(n_samples, dtype=np.int64)
    # Per row: its squared distances (float64) and one column's comparison mask (bool); the
    # comparisons re-read each chunk k times, so it is kept cache-sized.
    for part in chunk_slices(n_samples, 9 * n_samples, cache=True):
        rows = np.arange(part.start, part.stop)
        squared = squared_norms[rows, None] + squared_norms[None, :] - 2.0 * (reference[rows] @ reference.T)
        squared[np.arange(len(rows)), rows] = -np.inf
        for column in range(k):  # a loop over the k neighbour slots, each vectorized over rows
            local = np.flatnonzero(needed[rows, column])
            if local.size == 0:
                continue
            thresholds = squared[local, other_neighbors[rows[local], column]]
            ranks = np.count_nonzero(squared[local] < thresholds[:, None], axis=1)
            penalties[rows[local]] += np.maximum(ranks - k, 0)
    return penalties


def _check_rank_neighbors(n_samples, n_neighbors):
    if isinstance(n_neighbors, bool) or not isinstance(n_neighbors, (int, np.integer)) \
            or not 1 <= n_neighbors < n_samples / 2:
        raise MeasureError(f"n_neighbors must be an integer with 1 <= n_neighbors < n_samples / 2 = {n_samples / 2} "
                           f"for trustworthiness and continuity to lie in [0, 1]; got {n_neighbors!r}.")


def _trustworthiness_from_penalties(penalties, n_neighbors):
    """Mean (scikit-learn's exact expression) and per-point values of Venna & Kaski's formula."""
    n, k = penalties.size, n_neighbors
    mean = 1.0 - int(penalties.sum()) * (2.0 / (n * k * (2.0 * n - 3.0 * k - 1.0)))
    return mean, 1.0 - penalties * (2.0 / (k * (2.0 * n - 3.0 * k - 1.0)))


def _rank_measure(X, Y, n_neighbors, per_point, swap):
    X, Y = _check_pair(X, Y)
    _check_rank_neighbors(X.shape[0], n_neighbors)
    input_neighbors = nearest_neighbors(X, n_neighbors)[:, 1:]
    output_neighbors = nearest_neighbors(Y, n_neighbors)[:, 1:]
    if swap:
        penalties = _rank_penalties(Y, output_neighbors, input_neighbors)
    else:
        penalties = _rank_penalties(X, input_neighbors, output_neighbors)
    mean, values = _trustworthiness_from_penalties(penalties, n_neighbors)
    return (mean, values) if per_point else mean


def trustworthiness(X, Y, n_neighbors, *, per_point=False):
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

    ``r(i, j)`` the rank of j among the input distances from i. Equal to
    ``sklearn.manifold.trustworthiness(X, Y, n_neighbors=k)`` (same formula, same rounding of the
    final expression) without its n x n distance and rank matrices; see :func:`_rank_penalties`.

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


def continuity(X, Y, n_neighbors, *, per_point=False):
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

    ``r̂(i, j)`` the rank of j among the output distances from i.
    """
    return _rank_measure(X, Y, n_neighbors, per_point, swap=True)


def neighbourhood_agreement(X, Y, n_neighbors, *, per_point=False):
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
    X, Y = _check_pair(X, Y)
    shared = _shared_neighbours(nearest_neighbors(X, n_neighbors)[:, 1:], nearest_neighbors(Y, n_neighbors)[:, 1:])
    values = 1.0 - shared / n_neighbors
    mean = float(1.0 - shared.sum() / (n_neighbors * shared.size))
    return (mean, values) if per_point else mean
