"""The co-ranking family: Q_NX(K), R_NX(K), B_NX(K), LCMC(K) at every scale K, and the area AUC of R_NX.

Point i ranks every other point j twice: ``ρ_ij`` among the input distances from x_i and ``r_ij``
among the output distances from y_i (1 for the nearest, n - 1 for the farthest). The co-ranking
matrix counts the pairs per rank pair, ``Q_kl = |{(i, j) : ρ_ij = k, r_ij = l}|`` [LV]. Every
curve below reads only sums of Q over the upper-left K × K block, that is the pairs whose larger
rank ``max(ρ_ij, r_ij)`` is at most K: the n × n matrix is never formed, only a histogram of that
larger rank over the n (n - 1) pairs, row block by row block (memory ``O(block × n)``, time
``O(n² log n)``).

References
----------
.. [LV] J. A. Lee and M. Verleysen, "Quality assessment of dimensionality reduction: rank-based
   criteria", Neurocomputing 72 (2009) 1431-1443 (the co-ranking matrix, Q_NX, B_NX).
.. [LPV] J. A. Lee, D. H. Peluffo-Ordóñez and M. Verleysen, "Multi-scale similarities in stochastic
   neighbour embedding: reducing dimensionality while preserving both local and global structure",
   Neurocomputing 169 (2015) 246-261 (R_NX and its log-weighted area).
.. [CB] L. Chen and A. Buja, J. Amer. Statist. Assoc. 104 (2009) 209-219 (LCMC).
"""

import dataclasses

import numpy as np
import numpy.typing as npt

from .chunks import chunk_slices
from .errors import MeasureError
from .neighbors import check_pair, power_of_two_scaled, squared_distances
from .parameters import check_integer
from .seeding import check_random_state

__all__ = ["AUC_MIN_ROWS", "AUC_PAIR_BUDGET", "CorankingCurves", "auc_rnx", "auc_rnx_rows", "auc_rnx_values",
           "coranking_curves"]

# Pairs ranked per space when a run's AUC is estimated (measures.evaluate): every point's row up to
# sqrt(budget) = 2 000 points (0.36 s at the default 1 600 points, exact, so a default run states no
# approximation); above, a seeded sample of budget / n rows, never fewer than AUC_MIN_ROWS: about 0.5 s
# at 5 000 points (800 rows), 0.6 s at 20 000 (200 rows).
AUC_PAIR_BUDGET = 4_000_000
AUC_MIN_ROWS = 200


@dataclasses.dataclass(frozen=True)
class CorankingCurves:
    """The co-ranking curves at the scales ``K = 1 … len(Q_NX)``.

    Attributes
    ----------
    K : ndarray of int
    Q_NX : ndarray
        Share of the K nearest neighbours kept, averaged over the points, in [0, 1].
    R_NX : ndarray
        ``Q_NX`` rescaled so that a random output scores 0 and a perfect one 1 (defined for K <= n - 2).
    B_NX : ndarray
        Intrusions minus extrusions among the pairs counted by ``Q_NX``, over ``K n``: positive when
        the output brings points closer than the input has them.
    LCMC : ndarray
        ``Q_NX - K / (n - 1)`` (Chen & Buja's local continuity meta-criterion).
    n_samples : int
    """

    K: np.ndarray
    Q_NX: np.ndarray
    R_NX: np.ndarray
    B_NX: np.ndarray
    LCMC: np.ndarray
    n_samples: int


def _row_ranks(points, rows):
    """Ranks (1 … n - 1) of every point among the distances from each of ``rows``; the row's own point n.

    Ties as scikit-learn's trustworthiness ranks them: positions in numpy's default argsort of the
    row (of :func:`measures.neighbors.squared_distances`, exact integers on integer data). The
    stable sort would rank ties by index, at 2.5 times the cost.
    """
    n_samples = points.shape[0]
    distances = squared_distances(points, rows[:, None], np.arange(n_samples)[None, :])
    distances[np.arange(len(rows)), rows] = np.inf  # the point itself ranks last, apart from the others
    order = np.argsort(distances, axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, n_samples + 1)[None, :], axis=1)
    return ranks


def _larger_rank_histograms(X, Y):
    """Over the pairs (i, j), j != i: how many have ``max(ρ_ij, r_ij) = m``, and the same count with
    each pair signed +1 when ``r_ij < ρ_ij`` (an intrusion), -1 when ``r_ij > ρ_ij`` (an extrusion)."""
    n_samples = X.shape[0]
    counts = np.zeros(n_samples + 1, dtype=np.int64)
    signed = np.zeros(n_samples + 1, dtype=np.int64)
    # Two distance rows, two index rows and their ranks per point: about 6 * 8 * n bytes each.
    for part in chunk_slices(n_samples, 48 * n_samples):
        rows = np.arange(part.start, part.stop)
        input_ranks, output_ranks = _row_ranks(X, rows), _row_ranks(Y, rows)
        larger = np.maximum(input_ranks, output_ranks)
        counts += np.bincount(larger.ravel(), minlength=n_samples + 1)
        sign = np.sign(input_ranks - output_ranks)  # the self pair has rank n in both: sign 0
        signed += np.bincount(larger.ravel(), weights=sign.ravel(), minlength=n_samples + 1).astype(np.int64)
    counts[n_samples] = 0  # the pairs (i, i)
    return counts, signed


def coranking_curves(X: npt.ArrayLike, Y: npt.ArrayLike, *, max_rank: "int | None" = None) -> CorankingCurves:
    """Q_NX(K), R_NX(K), B_NX(K) and LCMC(K) for K = 1 … ``max_rank``, exactly.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    max_rank : int, optional
        The largest scale K; default n - 2, the last at which R_NX is defined.

    Returns
    -------
    CorankingCurves

    Raises
    ------
    MeasureError
        For fewer than 4 points or a ``max_rank`` outside [1, n - 2].

    Notes
    -----
    With ``ρ_ij`` the input rank and ``r_ij`` the output rank of j from i ([LV] Eqs. 1-3, [LPV] Eq. 13):

    .. math::

        Q_{NX}(K) = \\frac{1}{Kn} \\sum_{k=1}^{K} \\sum_{l=1}^{K} Q_{kl}, \\qquad
        R_{NX}(K) = \\frac{(n-1) Q_{NX}(K) - K}{n - 1 - K},

    ``B_NX(K) = (1/Kn) (Σ_{l<k≤K} Q_kl - Σ_{k<l≤K} Q_kl)`` (intrusions minus extrusions) and
    ``LCMC(K) = Q_NX(K) - K/(n-1)``. ``Q_NX(k)`` is ``1 -`` :func:`measures.neighbourhood_agreement`
    at k when no distances tie.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(40, 3))
    >>> curves = coranking_curves(X, 2.0 * X)
    >>> bool(np.all(curves.Q_NX == 1.0) and np.all(curves.R_NX == 1.0))
    True
    """
    X, Y = check_pair(X, Y)
    n_samples = X.shape[0]
    if n_samples < 4:
        raise MeasureError(f"The co-ranking curves need at least 4 points; got {n_samples}.")
    largest = n_samples - 2 if max_rank is None else check_integer(
        max_rank, "max_rank", 1, n_samples - 2, error=MeasureError, hint="R_NX is defined up to K = n - 2.")
    # Scaled by powers of two: the distances, hence the ranks, are those of the given points, exactly.
    counts, signed = _larger_rank_histograms(power_of_two_scaled(X)[0], power_of_two_scaled(Y)[0])
    K = np.arange(1, largest + 1)
    Q_NX = np.cumsum(counts)[1:largest + 1] / (K * n_samples)
    return CorankingCurves(K=K, Q_NX=Q_NX, R_NX=((n_samples - 1) * Q_NX - K) / (n_samples - 1 - K),
                           B_NX=np.cumsum(signed)[1:largest + 1] / (K * n_samples),
                           LCMC=Q_NX - K / (n_samples - 1), n_samples=n_samples)


def _auc_weights(n_samples):
    """``(C, constant)`` with ``a_i = Σ_j C[max(ρ_ij, r_ij)] + constant`` the AUC of point i's own R_NX.

    From [LPV] Eq. 14 with ``w_K = 1/K`` and ``W = Σ_K w_K`` over K = 1 … n - 2, point i's R_NX(K) is
    ``((n - 1) c_i(K) / K - K) / (n - 1 - K)``, ``c_i(K)`` the neighbours i keeps at scale K, that is the
    j whose larger rank is at most K. Summing over K first, each such j adds ``Σ_{K >= m} c_K`` with
    ``c_K = w_K (n - 1) / (K (n - 1 - K)) / W``: ``C[m]``, 0 for m > n - 2 (the point itself has rank n).
    """
    K = np.arange(1, n_samples - 1, dtype=float)
    weights = 1.0 / K
    total = weights.sum()
    C = np.zeros(n_samples + 1)
    C[1:n_samples - 1] = np.cumsum((weights * (n_samples - 1) / (K * (n_samples - 1 - K)))[::-1])[::-1] / total
    return C, -float(np.dot(weights, K / (n_samples - 1 - K)) / total)


def auc_rnx_values(X: npt.ArrayLike, Y: npt.ArrayLike, rows: "npt.ArrayLike | None" = None) -> np.ndarray:
    """Each point's own area under R_NX(K) on a log scale of K: their mean over all points is :func:`auc_rnx`.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    rows : array-like of int, optional
        The points to compute (default all): the mean over a uniform random sample of them estimates
        the AUC without bias, at ``len(rows) / n_samples`` of the cost.

    Returns
    -------
    ndarray of shape (len(rows),)
        ``a_i = Σ_K R_i(K) / K  /  Σ_K 1 / K`` over K = 1 … n - 2, with ``R_i(K) = ((n - 1) c_i(K) / K - K)
        / (n - 1 - K)`` and ``c_i(K)`` the number of i's K nearest input neighbours that are among its K
        nearest output neighbours: ``Q_NX(K)`` is the mean of ``c_i(K) / K`` ([LV] Eq. 2), so the AUC of
        [LPV] Eq. 14, linear in ``Q_NX``, is the mean of the ``a_i``. 1 for a point whose neighbours keep
        their order at every scale, about 0 when its output neighbours are random.

    Raises
    ------
    MeasureError
        For fewer than 4 points or a row outside [0, n_samples).
    """
    X, Y = check_pair(X, Y)
    n_samples = X.shape[0]
    if n_samples < 4:
        raise MeasureError(f"The co-ranking curves need at least 4 points; got {n_samples}.")
    rows = np.arange(n_samples) if rows is None else np.asarray(rows)
    if rows.ndim != 1 or rows.dtype.kind not in "iu" or (rows.size and (rows.min() < 0 or rows.max() >= n_samples)):
        raise MeasureError(f"rows must be a 1-D array of point indices in [0, {n_samples}).")
    C, constant = _auc_weights(n_samples)
    X, Y = power_of_two_scaled(X)[0], power_of_two_scaled(Y)[0]
    values = np.empty(rows.size)
    for part in chunk_slices(rows.size, 48 * n_samples):  # as _larger_rank_histograms: its memory per row
        block = rows[part]
        values[part] = C[np.maximum(_row_ranks(X, block), _row_ranks(Y, block))].sum(axis=1) + constant
    return values


def auc_rnx_rows(n_samples: int, random_state: "int | np.random.Generator" = 0) -> "np.ndarray | None":
    """The rows :func:`measures.evaluate` ranks for the AUC: None (every one) up to ``sqrt(AUC_PAIR_BUDGET)``
    points, otherwise a sorted uniform sample without replacement of ``max(AUC_MIN_ROWS, AUC_PAIR_BUDGET //
    n_samples)`` of them, drawn with ``random_state``."""
    count = max(AUC_MIN_ROWS, AUC_PAIR_BUDGET // n_samples)
    if count >= n_samples:
        return None
    return np.sort(check_random_state(random_state).choice(n_samples, count, replace=False))


def auc_rnx(X: npt.ArrayLike, Y: npt.ArrayLike) -> float:
    """The area under R_NX(K) on a log scale of K, [LPV] Eq. 14: 1 for a perfect output, about 0 for a random one.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)

    Returns
    -------
    float
        ``Σ_K R_NX(K) / K  /  Σ_K 1 / K`` over K = 1 … n - 2; higher is better. The mean of
        :func:`auc_rnx_values` over every point.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(40, 3))
    >>> round(auc_rnx(X, 3.0 * X), 12)
    1.0
    """
    return float(np.mean(auc_rnx_values(X, Y)))
