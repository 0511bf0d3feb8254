"""Local Procrustes measures of an embedding: R, R_N, R_C and the local-PCA lower bound.

All four compare each input neighbourhood ``X_i`` (the point and its k nearest input neighbours,
SPEC §0) with its embedding ``Y_i`` after the best rigid (or, for R_C, similarity) alignment.
They are computed for all neighbourhoods at once on stacked ``(n, k+1, q)`` arrays, in chunks.

References
----------
.. [GR] Y. Goldberg and Y. Ritov, "Local Procrustes for manifold embedding: a measure of embedding
   quality and embedding algorithms", Machine Learning 77 (2009) 1-25.
"""

import dataclasses
import warnings

import numpy as np

from .chunks import chunk_slices
from .errors import MeasureError, ProcrustesLabWarning
from .neighbors import check_points, nearest_neighbors

__all__ = [
    "LocalProcrustes",
    "centred_stack",
    "local_procrustes",
    "local_pca_procrustes",
    "local_pca_residual",
    "local_rotations",
    "procrustes",
    "procrustes_rotation",
    "procrustes_lower_bound",
    "summarize",
]

VARIANTS = ("raw", "normalized", "conformal")
# procrustes() also offers R_PCA (GR Eq. 6), computed by its own kernel (one eigendecomposition per
# neighbourhood) so that local_procrustes, the hot path, does not pay for it.
MEASURE_VARIANTS = VARIANTS + ("pca",)


@dataclasses.dataclass(frozen=True)
class LocalProcrustes:
    """Per-neighbourhood Procrustes statistics of one embedding (GR Eqs. 1, 3, 4, 7).

    Attributes
    ----------
    raw : ndarray of shape (n_samples,)
        ``G(X_i, Y_i)``, the rigid Procrustes statistic (GR Eq. 1); its mean is R (Eq. 3).
    normalized : ndarray of shape (n_samples,)
        ``G(X_i, Y_i) / ||H X_i||_F^2``; its mean is R_N (Eq. 4). Unbounded above.
    conformal : ndarray of shape (n_samples,)
        ``G_C(X_i, Y_i) / ||H X_i||_F^2`` in [0, 1]; its mean is R_C (Eq. 7).
    input_scale : ndarray of shape (n_samples,)
        ``||H X_i||_F^2``. Where it is 0 (all k+1 points coincide) the normalized values are NaN.
    output_scale : ndarray of shape (n_samples,)
        ``||H Y_i||_F^2``.
    nuclear_norm : ndarray of shape (n_samples,)
        ``nuc(X_i' H Y_i)``, the sum of singular values of the cross-covariance.
    """

    raw: np.ndarray
    normalized: np.ndarray
    conformal: np.ndarray
    input_scale: np.ndarray
    output_scale: np.ndarray
    nuclear_norm: np.ndarray

    def best_global_scale(self):
        """The one factor ``c > 0`` for the whole embedding that minimizes R_N(X, c Y).

        ``R_N(cY)`` is the mean of ``(||Xc||^2 + c^2 ||Yc||^2 - 2 c nuc) / ||Xc||^2``, a parabola in
        c with minimum at ``c = sum(nuc / ||Xc||^2) / sum(||Yc||^2 / ||Xc||^2)`` (degenerate
        neighbourhoods left out). R_C does not change with c; R_N then shows what is left once
        the output's arbitrary overall scale (a normalized method's) is set fairly.
        """
        defined = self.input_scale > 0
        weight = 1.0 / self.input_scale[defined]
        denominator = (self.output_scale[defined] * weight).sum()
        if denominator == 0:
            raise MeasureError("every neighbourhood of the embedding collapsed to a point: no scale helps.")
        return float((self.nuclear_norm[defined] * weight).sum() / denominator)

    def per_point(self, variant):
        """The per-point array of ``variant`` ("raw", "normalized" or "conformal")."""
        if variant not in VARIANTS:
            raise MeasureError(f"variant must be one of {list(VARIANTS)}; got {variant!r}.")
        return getattr(self, variant)


def centred_stack(points, neighbors):
    """Neighbourhoods of ``points`` as a centred ``(len(neighbors), k+1, dim)`` stack (``H X_i``)."""
    stack = points[neighbors]
    return stack - stack.mean(axis=1, keepdims=True)


def _triangular_factor_2(M):
    """The thin QR factor ``R = [[r11, r12], [0, r22]]`` of each ``(q, 2)`` matrix in the stack ``M``.

    Gram-Schmidt on the columns ``m1, m2``: ``r11 = ||m1||``, ``r12 = m1'm2 / ||m1||`` and
    ``r22 = ||m2 - (m1'm2/||m1||^2) m1|| >= 0``. Both diagonal entries are non-negative by
    construction and ``r11 r22 = sqrt(det M'M)`` is accurate to rounding of ``||m1|| ||m2||``, where
    ``B11 B22 - B12^2`` can round below zero and lose half the digits for a nearly rank-one M. It
    costs O(q), not the O(q^2) of the Cauchy-Binet sum of squared 2x2 minors (20x slower for
    32x32-pixel images, q = 1024).

    Returns
    -------
    r11, r12, r22 : ndarray of shape (n,)
    """
    first, second = M[:, :, 0], M[:, :, 1]
    first_sq = np.einsum("nq,nq->n", first, first)
    # A zero first column makes M rank <= 1 (r11 = r12 = 0); the where keeps 0/0 out of it.
    coefficient = np.einsum("nq,nq->n", first, second) / np.where(first_sq == 0.0, 1.0, first_sq)
    rest = second - coefficient[:, None] * first
    r11 = np.sqrt(first_sq)
    return r11, coefficient * r11, np.sqrt(np.einsum("nq,nq->n", rest, rest))


def _nuclear_norm(M):
    """Sum of singular values of each ``(q, d)`` matrix in the stack ``M``.

    For ``d <= 2`` the closed form of SPEC §3 avoids an SVD: with ``B = M'M``,
    ``nuc(M) = sqrt(tr B + 2 sqrt(det B))`` with ``sqrt(det B) = r11 r22`` from
    :func:`_triangular_factor_2` (O(q), accurate for nearly rank-one M).
    """
    d = M.shape[-1]
    if d == 1:
        return np.sqrt(np.einsum("nij,nij->n", M, M))
    if d == 2:
        trace = np.einsum("nij,nij->n", M, M)
        r11, _, r22 = _triangular_factor_2(M)
        return np.sqrt(trace + 2.0 * r11 * r22)
    return np.linalg.svd(M, compute_uv=False).sum(axis=-1)


def _local_principal_coordinates(Xc, n_components):
    """Local PCA coordinates ``H X_i P_i`` of each centred neighbourhood (GR Eq. 6).

    Parameters
    ----------
    Xc : ndarray of shape (n, m, q)
        Centred neighbourhoods.
    n_components : int
        d, the number of principal axes kept.

    Returns
    -------
    ndarray of shape (n, m, d)
        ``Xc V_d = U_d S_d``: the coordinates of the m points on the top-d principal axes, largest
        variance first (the sign of each axis is arbitrary: every caller is sign invariant).

    Notes
    -----
    The axes come from whichever of ``Xc'Xc`` (q x q) and ``Xc Xc'`` (m x m) is smaller. In the
    second case ``Xc V_d = U_d S_d`` with ``S_d`` read as the column norms of ``Xc' U_d``, not as
    square roots of eigenvalues that may round below zero.
    """
    q, m = Xc.shape[2], Xc.shape[1]
    if q <= m:
        _, axes = np.linalg.eigh(np.einsum("nkq,nkr->nqr", Xc, Xc))  # ascending
        return Xc @ axes[:, :, ::-1][:, :, :n_components]
    _, left = np.linalg.eigh(np.einsum("nkq,njq->nkj", Xc, Xc))
    left = left[:, :, ::-1][:, :, :n_components]
    singular_values = np.linalg.norm(np.einsum("nkq,nkd->nqd", Xc, left), axis=1)
    return left * singular_values[:, None, :]


def _divide_by_scale(values, scale):
    """``values / scale`` with NaN where ``scale == 0`` (a neighbourhood of coincident points)."""
    degenerate = scale == 0.0
    return np.where(degenerate, np.nan, values / np.where(degenerate, 1.0, scale))


def _check_pair(X, Y, names=("X", "Y")):
    """Both arrays checked by :func:`check_points`, with one row per point each (``names`` for messages)."""
    X = check_points(X, names[0])
    Y = check_points(Y, names[1])
    if X.shape[0] != Y.shape[0]:
        raise MeasureError(f"{names[0]} and {names[1]} must have the same number of rows (points); got {names[0]} "
                           f"{X.shape} and {names[1]} {Y.shape}.")
    return X, Y


def local_procrustes(X, Y, neighbors):
    """Rigid and conformal Procrustes statistics of every neighbourhood, in one pass.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
        Input points.
    Y : ndarray of shape (n_samples, d)
        Their embedding.
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhood indices, point first, from :func:`measures.neighbors.nearest_neighbors` on X.

    Returns
    -------
    LocalProcrustes

    Notes
    -----
    With ``Xc = H X_i``, ``Yc = H Y_i`` and ``M = Xc' Yc`` (q x d), the infima over the rotation
    ``A`` (q x d, ``A'A = I``), translation and, for G_C, scale ``c > 0`` have closed forms (GR §3,
    SPEC §3):

    .. math::

        G = \\|X_c\\|_F^2 + \\|Y_c\\|_F^2 - 2\\,\\mathrm{nuc}(M), \\qquad
        G_C = \\|X_c\\|_F^2 - \\mathrm{nuc}(M)^2 / \\|Y_c\\|_F^2,

    attained at ``A = UV'`` and ``c = nuc(M)/||Yc||^2`` (the centred Y: GR writes tr(Y'Y), which is
    not translation invariant). If ``Yc = 0`` the best scale is 0 and ``G_C = ||Xc||^2``. The
    subtraction in G costs about ``1e-16 ||Xc||^2`` of rounding, so an exact embedding scores
    values of that size, possibly of either sign.
    """
    n_samples, width = neighbors.shape
    q, d = X.shape[1], Y.shape[1]
    raw = np.empty(n_samples)
    x_scale = np.empty(n_samples)
    y_scale = np.empty(n_samples)
    nuclear = np.empty(n_samples)
    conformal_residual = np.empty(n_samples)
    # Work per point: the two stacks, M, and for d = 2 the Gram-Schmidt residual column.
    bytes_per_point = 8 * (width * (q + d) + q * d + q)
    for part in chunk_slices(n_samples, bytes_per_point):
        Xc = centred_stack(X, neighbors[part])
        Yc = centred_stack(Y, neighbors[part])
        M = np.einsum("nkq,nkd->nqd", Xc, Yc)
        nuc = _nuclear_norm(M)
        xx = np.einsum("nkq,nkq->n", Xc, Xc)
        yy = np.einsum("nkd,nkd->n", Yc, Yc)
        raw[part] = xx + yy - 2.0 * nuc
        x_scale[part] = xx
        y_scale[part] = yy
        nuclear[part] = nuc
        collapsed = yy == 0.0
        conformal_residual[part] = xx - np.where(collapsed, 0.0, nuc**2 / np.where(collapsed, 1.0, yy))
    return LocalProcrustes(
        raw=raw,
        normalized=_divide_by_scale(raw, x_scale),
        conformal=_divide_by_scale(conformal_residual, x_scale),
        input_scale=x_scale,
        output_scale=y_scale,
        nuclear_norm=nuclear,
    )


def local_pca_procrustes(X, Y, neighbors):
    """R_PCA of every neighbourhood: Procrustes statistic of the local PCA projection (GR Eq. 6).

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    Y : ndarray of shape (n_samples, d)
    neighbors : ndarray of shape (n_samples, k + 1)

    Returns
    -------
    ndarray of shape (n_samples,)
        ``G(H X_i P_i, H Y_i) / ||H X_i||_F^2``, NaN where the neighbourhood's points coincide.

    Notes
    -----
    ``P_i`` (q x d) holds the top-d principal axes of ``H X_i``; the neighbourhood is compared with
    its embedding after projection onto them (GR Eq. 6), with the closed form of
    :func:`local_procrustes`:

    .. math::

        G(X_c P, Y_c) = \\|X_c P\\|_F^2 + \\|Y_c\\|_F^2 - 2\\,\\mathrm{nuc}(P' X_c' Y_c).

    It is normalized by ``||H X_i||^2``, the unprojected scale, like R_N, so the two read on one
    scale (SPEC §3). The variance outside the axes (the lower bound of GR Lemma 1) is not counted,
    and since ``nuc(P'M) <= nuc(M)``, ``R_PCA >= R_N - lower bound`` at every point.
    """
    n_samples, width = neighbors.shape
    q, d = X.shape[1], Y.shape[1]
    statistic = np.empty(n_samples)
    scale = np.empty(n_samples)
    size = min(q, width)
    for part in chunk_slices(n_samples, 8 * (width * (q + 2 * d) + 2 * size * size + 2 * d * d)):
        Xc = centred_stack(X, neighbors[part])
        Yc = centred_stack(Y, neighbors[part])
        projected = _local_principal_coordinates(Xc, d)
        nuc = _nuclear_norm(np.einsum("nkd,nke->nde", projected, Yc))
        statistic[part] = (np.einsum("nkd,nkd->n", projected, projected) + np.einsum("nkd,nkd->n", Yc, Yc)
                           - 2.0 * nuc)
        scale[part] = np.einsum("nkq,nkq->n", Xc, Xc)
    return _divide_by_scale(statistic, scale)


def procrustes_rotation(Xc, Yc):
    """Optimal rotations ``A`` (``A'A = I``) aligning centred ``Yc`` to centred ``Xc`` (GR Eq. 1).

    Parameters
    ----------
    Xc : ndarray of shape (..., m, q)
        Centred input neighbourhoods (any leading stack dimensions).
    Yc : ndarray of shape (..., m, d)
        Centred embedded neighbourhoods, ``d <= q``.

    Returns
    -------
    ndarray of shape (..., q, d)
        ``A = U V'`` from the thin SVD ``U L V'`` of ``M = Xc' Yc``; ``Yc A'`` is the best rigid fit
        of ``Xc`` (Sibson 1978). Where M is rank-deficient A is one of several minimizers.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.normal(size=(6, 2)); Y -= Y.mean(axis=0)
    >>> Q = np.linalg.qr(rng.normal(size=(3, 2)))[0]
    >>> bool(np.allclose(procrustes_rotation(Y @ Q.T, Y), Q))
    True
    """
    U, _, Vt = np.linalg.svd(np.swapaxes(Xc, -1, -2) @ Yc, full_matrices=False)
    return U @ Vt


def local_rotations(X, Y, neighbors):
    """The Procrustes rotation of every neighbourhood, ``A_i`` of GR Eq. 1, batched in chunks.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    Y : ndarray of shape (n_samples, d)
    neighbors : ndarray of shape (n_samples, k + 1)

    Returns
    -------
    ndarray of shape (n_samples, q, d)
        ``A_i`` minimizing ``||H X_i - H Y_i A_i'||``; the translation is ``mean(X_i) - A_i mean(Y_i)``.
    """
    n_samples, width = neighbors.shape
    q, d = X.shape[1], Y.shape[1]
    rotations = np.empty((n_samples, q, d))
    for part in chunk_slices(n_samples, 8 * (width * (q + d) + 3 * q * d)):
        rotations[part] = procrustes_rotation(centred_stack(X, neighbors[part]), centred_stack(Y, neighbors[part]))
    return rotations


def local_pca_residual(X, neighbors, n_components):
    """Per-neighbourhood share of ``||H X_i||^2`` outside its top ``n_components`` principal axes.

    This is GR Lemma 1's lower bound: no d-dimensional Y_i, aligned by any rotation and scale, leaves
    less residual, so ``local_pca_residual <= conformal <= normalized`` at every point.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
    n_components : int
        Output dimension d.

    Returns
    -------
    ndarray of shape (n_samples,)
        Sum of the ``q - d`` smallest eigenvalues of ``Xc' Xc`` over its trace; NaN where the
        neighbourhood's points coincide.

    Notes
    -----
    The eigenvalues come from whichever of ``Xc'Xc`` (q x q) and ``Xc Xc'`` ((k+1) x (k+1)) is
    smaller: both share their non-zero spectrum, and image data has q far above k.
    """
    n_samples, width = neighbors.shape
    q = X.shape[1]
    size = min(q, width)
    residual = np.empty(n_samples)
    scale = np.empty(n_samples)
    for part in chunk_slices(n_samples, 8 * (width * q + 2 * size * size)):
        Xc = centred_stack(X, neighbors[part])
        gram = np.einsum("nkq,nkr->nqr", Xc, Xc) if q <= width else np.einsum("nkq,njq->nkj", Xc, Xc)
        eigenvalues = np.linalg.eigvalsh(gram)  # ascending
        residual[part] = eigenvalues[:, : max(size - n_components, 0)].sum(axis=1)
        scale[part] = np.trace(gram, axis1=1, axis2=2)
    return _divide_by_scale(residual, scale)


def summarize(values, name):
    """Mean and median of a per-point measure, leaving out (and warning about) NaN points.

    Parameters
    ----------
    values : ndarray of shape (n_samples,)
    name : str
        Measure name for the warning.

    Returns
    -------
    mean, median : float
    n_undefined : int
        Points left out: neighbourhoods whose points coincide, where a normalized measure is 0/0.
    """
    undefined = np.isnan(values)
    n_undefined = int(undefined.sum())
    if n_undefined == values.size:
        raise MeasureError(f"{name} is undefined at every point: every neighbourhood's points coincide.")
    if n_undefined:
        warnings.warn(f"{name}: {n_undefined} neighbourhood(s) of coincident points left out of the mean "
                      "(duplicate points; remove them or raise k).", ProcrustesLabWarning, stacklevel=3)
        values = values[~undefined]
    return float(values.mean()), float(np.median(values)), n_undefined


def procrustes(X, Y, n_neighbors, *, variant="normalized", per_point=False):
    """Local Procrustes measure of an embedding: R (GR Eq. 3), R_N (Eq. 4) or R_C (Eq. 7).

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        Input points; neighbourhoods are taken here (SPEC §0).
    Y : array-like of shape (n_samples, d)
        Embedding of X, row for row.
    n_neighbors : int
        k, neighbours other than the point; each neighbourhood has k + 1 points.
    variant : {"raw", "normalized", "conformal", "pca"}, default="normalized"
        ``"raw"``: R, mean of G(X_i, Y_i); ``"normalized"``: R_N, mean of G / ||H X_i||^2;
        ``"conformal"``: R_C, as R_N but also minimizing over a scale of each Y_i; ``"pca"``:
        R_PCA (GR Eq. 6), G of the local PCA projection of X_i, also over ||H X_i||^2
        (:func:`local_pca_procrustes`).
    per_point : bool, default=False
        Also return the per-neighbourhood values.

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,)) when ``per_point``
        The mean over neighbourhoods (NaN points, where all k+1 input points coincide, are left
        out with a ``ProcrustesLabWarning``; the per-point array keeps them as NaN).

    Raises
    ------
    MeasureError
        On mismatched rows, NaN or inf, an unknown variant, or k outside [1, n - 1].

    Notes
    -----
    See :func:`local_procrustes` for the closed forms. R and R_N are invariant to rotating,
    reflecting and translating Y; R_C is also invariant to scaling Y; none depends on the order of
    the points. ``R_C <= R_N`` and both are bounded below by :func:`procrustes_lower_bound`.

    Examples
    --------
    An embedding that is a rigid motion of the input scores zero:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.uniform(size=(200, 2))
    >>> rotation = np.array([[0.0, -1.0], [1.0, 0.0]])
    >>> abs(procrustes(Z, Z @ rotation + 5.0, 8)) < 1e-12
    True
    """
    if variant not in MEASURE_VARIANTS:
        raise MeasureError(f"variant must be one of {list(MEASURE_VARIANTS)}; got {variant!r}.")
    X, Y = _check_pair(X, Y)
    neighbors = nearest_neighbors(X, n_neighbors)
    if variant == "pca":
        values = local_pca_procrustes(X, Y, neighbors)
    else:
        values = local_procrustes(X, Y, neighbors).per_point(variant)
    mean = summarize(values, f"R ({variant})")[0]
    return (mean, values) if per_point else mean


def procrustes_lower_bound(X, n_neighbors, n_components, per_point=False):
    """Lower bound of R_N and R_C over all d-dimensional embeddings (GR Lemma 1, local PCA).

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    n_neighbors : int
    n_components : int
        Output dimension d (>= 1).
    per_point : bool, default=False

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        Mean over neighbourhoods of the variance share outside the top d local principal axes.

    Examples
    --------
    Points on a plane in R^3 need no third dimension:

    >>> import numpy as np
    >>> X = np.c_[np.random.default_rng(1).uniform(size=(100, 2)), np.zeros(100)]
    >>> procrustes_lower_bound(X, 6, 2) < 1e-12
    True
    """
    X = check_points(X, "X")
    if isinstance(n_components, bool) or not isinstance(n_components, (int, np.integer)) or n_components < 1:
        raise MeasureError(f"n_components must be a positive integer; got {n_components!r}.")
    values = local_pca_residual(X, nearest_neighbors(X, n_neighbors), n_components)
    mean = summarize(values, "lower bound")[0]
    return (mean, values) if per_point else mean
