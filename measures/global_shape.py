"""Global descriptions of an output's shape against its ground truth: proportions, affine fit, rings, short circuits.

The tours' claims ("the output keeps the strip's aspect", "collapses", "an affine copy", "a ring",
"an edge jumps between two turns") are read from these numbers, each a property a reader can see
fail on other data. The similarity fit of an output onto its truth is
:func:`measures.similarity_procrustes` (its ``distance`` is GR's Eq. 7 statistic over all points).
"""

import numpy as np

from .errors import MeasureError
from .neighbors import check_pair, check_points, nearest_neighbors

__all__ = ["SHORT_CIRCUIT_RATIO", "affine_residual", "central_share", "principal_aspect", "short_circuits"]

# An input kNN edge whose two ends lie this many times farther apart on the manifold (in the
# ground truth) than in the input short-circuits the manifold: it jumps across a gap, such as
# between two turns of a swiss roll. Along the manifold the two lengths agree to O(r^2).
SHORT_CIRCUIT_RATIO = 3.0


def principal_aspect(points):
    """Ratio of the standard deviations along the first and second principal axes of ``points`` (>= 1).

    Infinite for points on a line; a set of one repeated point, or of one column, has no second axis
    and raises :class:`MeasureError`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> round(principal_aspect(rng.uniform(size=(20000, 2)) * [6.0, 1.0]), 1)
    6.0
    """
    points = check_points(points, "points")
    if points.shape[1] < 2:
        raise MeasureError(f"points have {points.shape[1]} column: an aspect needs two axes.")
    spread = np.linalg.svd(points - points.mean(axis=0), compute_uv=False)
    if spread[0] == 0:
        raise MeasureError("every point is at one place: there is no shape to measure.")
    return float(spread[0] / spread[1]) if spread[1] > 0 else float("inf")


def short_circuits(X, truth, n_neighbors, ratio=SHORT_CIRCUIT_RATIO):
    """Number of input kNN edges that short-circuit the manifold (see :data:`SHORT_CIRCUIT_RATIO`).

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    truth : ndarray of shape (n_samples, d)
        Intrinsic coordinates, isometric (or nearly) to the manifold's geodesics.
    n_neighbors : int
        k of the kNN graph (SPEC §0: the algorithm's graph and every measure's).

    Returns
    -------
    int
        Directed edges ``i -> j`` (j among i's k nearest input neighbours) with
        ``||t_i - t_j|| > ratio ||x_i - x_j||``.

    Examples
    --------
    Two rows of points 0.1 apart, the rows 0.25 apart in the input but 10 apart along the manifold
    (two turns of a roll): at k = 2 every neighbour lies along the point's own row; by k = 4 the
    neighbours of the rows' ends reach across.

    >>> u = np.linspace(0, 1, 11)
    >>> X = np.r_[np.c_[u, np.zeros(11)], np.c_[u, np.full(11, 0.25)]]
    >>> truth = np.r_[np.c_[u, np.zeros(11)], np.c_[u, np.full(11, 10.0)]]
    >>> short_circuits(X, truth, 2), short_circuits(X, truth, 4) > 0
    (0, True)
    """
    X, truth = check_pair(X, truth, names=("X", "truth"))
    neighbors = nearest_neighbors(X, n_neighbors)
    points, others = neighbors[:, :1], neighbors[:, 1:]
    input_length = np.linalg.norm(X[points] - X[others], axis=-1)
    intrinsic_length = np.linalg.norm(truth[points] - truth[others], axis=-1)
    return int(np.count_nonzero(intrinsic_length > ratio * input_length))


def affine_residual(truth, Y):
    """How far the truth is from an affine image of an output (0: PN's success, an affine copy).

    Parameters
    ----------
    truth : ndarray of shape (n_samples, d)
    Y : ndarray of shape (n_samples, d')

    Returns
    -------
    float
        ``min_{A, b} ||T - Y A - 1 b'||^2 / ||T_c||^2`` in [0, 1], by least squares. PN §3 call a
        normalized output successful when it is an affine image of the original sample: this is 0
        then, however the normalization stretched or sheared it. An output folded onto a curve
        still follows the truth's long axis, so it scores about the short axis's share of the
        truth's variance (0.03 for a 6 × 1 strip): read it with the collapse score.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.uniform(size=(300, 2)) * [6.0, 1.0]
    >>> bool(affine_residual(truth, truth @ [[0.2, 1.0], [3.0, -1.0]] + 5) < 1e-20)
    True
    """
    truth, Y = check_pair(truth, Y, names=("truth", "Y"))
    design = np.column_stack([Y, np.ones(len(truth))])
    coefficients = np.linalg.lstsq(design, truth, rcond=None)[0]
    residual = truth - design @ coefficients
    centred = truth - truth.mean(axis=0)
    size = np.einsum("ij,ij->", centred, centred)
    if size == 0:
        raise MeasureError("the truth puts every point at one place: there is nothing to fit.")
    return float(np.einsum("ij,ij->", residual, residual) / size)


def central_share(Y):
    """Share of an output's points within half the median distance of its centre, after whitening.

    About 0.125 for a filled disc or rectangle (uniform), near 0 for a ring around an empty centre
    (a cylinder unrolled around its axis), so it tells a ring from a filled shape whatever the
    output's scale. An output of one repeated point has no centre to speak of and raises
    :class:`MeasureError` (it is no ring).

    Examples
    --------
    >>> angle = np.linspace(0, 2 * np.pi, 400, endpoint=False)
    >>> ring = np.c_[np.cos(angle), np.sin(angle)] * np.linspace(1, 1.2, 400)[:, None]
    >>> central_share(ring)
    0.0
    >>> disc = np.random.default_rng(0).uniform(-1, 1, size=(40000, 2))
    >>> abs(central_share(disc[(disc ** 2).sum(1) < 1]) - 0.125) < 0.01
    True
    """
    Y = check_points(Y, "Y")
    centred = Y - Y.mean(axis=0)
    covariance = centred.T @ centred / len(centred)
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    if eigenvalues.max() <= 0:
        raise MeasureError("Y puts every point at one place: there is no shape to measure.")
    kept = eigenvalues > eigenvalues.max() * 1e-12  # a direction of no variance carries no shape
    whitened = centred @ eigenvectors[:, kept] / np.sqrt(eigenvalues[kept])
    radius = np.linalg.norm(whitened, axis=1)
    return float(np.mean(radius < 0.5 * np.median(radius)))
