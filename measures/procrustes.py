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
import numpy.typing as npt

from .errors import MeasureError, ProcrustesLabWarning
from .kernels import (
    centred_chunks,
    coincident,
    divide_where_defined,
    local_principal_coordinates,
    normalized_nuclear_norm,
)
from .neighbors import check_pair, check_points, nearest_neighbors, power_of_two_scaled
from .parameters import check_integer

__all__ = [
    "LocalProcrustes",
    "local_pca_procrustes",
    "local_pca_residual",
    "local_procrustes",
    "local_rotations",
    "procrustes",
    "procrustes_lower_bound",
    "procrustes_rotation",
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
    input_sq_norm : ndarray of shape (n_samples,)
        ``||H X_i||_F^2``, the squared Frobenius norm of the centred input neighbourhood (not a
        scale convention: those are the algorithms' ``output_scale``).
    output_sq_norm : ndarray of shape (n_samples,)
        ``||H Y_i||_F^2``, the same of the output neighbourhood.
    nuclear_norm : ndarray of shape (n_samples,)
        ``nuc(X_i' H Y_i)``, the sum of singular values of the cross-covariance.
    coincident : ndarray of shape (n_samples,), bool
        Neighbourhoods whose k+1 input points coincide (:func:`measures.kernels.coincident`,
        relative to the data's magnitude); the normalized values are NaN there.
    """

    raw: np.ndarray
    normalized: np.ndarray
    conformal: np.ndarray
    input_sq_norm: np.ndarray
    output_sq_norm: np.ndarray
    nuclear_norm: np.ndarray
    coincident: np.ndarray

    def best_global_scale(self):
        """The one factor ``c > 0`` for the whole embedding that minimizes R_N(X, c Y).

        ``R_N(cY)`` is the mean of ``(||Xc||^2 + c^2 ||Yc||^2 - 2 c nuc) / ||Xc||^2``, a parabola in
        c with minimum at ``c = sum(nuc / ||Xc||^2) / sum(||Yc||^2 / ||Xc||^2)`` (degenerate
        neighbourhoods left out). R_C does not change with c; R_N then shows what is left once
        the output's arbitrary overall scale (a normalized method's) is set fairly.
        """
        defined = ~self.coincident
        weight = 1.0 / self.input_sq_norm[defined]
        denominator = (self.output_sq_norm[defined] * weight).sum()
        if denominator == 0:
            raise MeasureError("every neighbourhood of the embedding collapsed to a point: no scale helps.")
        return float((self.nuclear_norm[defined] * weight).sum() / denominator)

    def per_point(self, variant):
        """The per-point array of ``variant`` ("raw", "normalized" or "conformal")."""
        if variant not in VARIANTS:
            raise MeasureError(f"variant must be one of {list(VARIANTS)}; got {variant!r}.")
        return getattr(self, variant)


def local_procrustes(X: np.ndarray, Y: np.ndarray, neighbors: np.ndarray) -> LocalProcrustes:
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
    not translation invariant). If ``Yc = 0`` the best scale is 0 and ``G_C = ||Xc||^2``.

    Both are computed from two scale-free numbers, ``nu = nuc(M) / (||Xc|| ||Yc||)`` in [0, 1]
    (:func:`measures.kernels.normalized_nuclear_norm`) and ``rho = ||Yc|| / ||Xc||``:

    .. math::

        R_C^{(i)} = 1 - \\nu^2, \\qquad R_N^{(i)} = R_C^{(i)} + (\\rho - \\nu)^2,

    so nothing of the data's units is squared twice (the values do not change when X and Y are both
    scaled by any c from 1e-150 to 1e150), and ``R_N >= R_C`` holds to the last bit. An exact
    embedding scores values of the size of rounding, ``~1e-16``, possibly of either sign.

    d > q: GR take ``d <= q``. The same formulas hold for ``d > q`` with X embedded in R^d by zero
    columns (``[Xc, 0]' Yc`` has the singular values of M): the rigid fit in the larger space, so
    R, R_N and R_C are defined for any d (SPEC §3 note; only ASIM needs ``d <= q``).
    """
    n_samples, width = neighbors.shape
    q, d = X.shape[1], Y.shape[1]
    x_sq_norm = np.empty(n_samples)
    y_sq_norm = np.empty(n_samples)
    nu = np.empty(n_samples)
    # Work per point: the two stacks, M, and for d = 2 the Gram-Schmidt residual column.
    bytes_per_point = 8 * (width * (q + d) + 2 * q * d + q)
    for part, (Xc, Yc) in centred_chunks(neighbors, (X, Y), bytes_per_point):
        xx = np.einsum("nkq,nkq->n", Xc, Xc)
        yy = np.einsum("nkd,nkd->n", Yc, Yc)
        x_sq_norm[part] = xx
        y_sq_norm[part] = yy
        nu[part] = normalized_nuclear_norm(np.einsum("nkq,nkd->nqd", Xc, Yc), np.sqrt(xx), np.sqrt(yy))
    undefined = coincident(x_sq_norm, X, width)
    ratio = np.sqrt(divide_where_defined(y_sq_norm, x_sq_norm, undefined))
    conformal = 1.0 - nu * nu
    x_norm, y_norm = np.sqrt(x_sq_norm), np.sqrt(y_sq_norm)
    nuclear = nu * x_norm * y_norm
    return LocalProcrustes(
        raw=x_sq_norm + y_sq_norm - 2.0 * nuclear,
        normalized=conformal + (ratio - nu) ** 2,
        conformal=np.where(undefined, np.nan, conformal),
        input_sq_norm=x_sq_norm,
        output_sq_norm=y_sq_norm,
        nuclear_norm=nuclear,
        coincident=undefined,
    )


def local_pca_procrustes(X: np.ndarray, Y: np.ndarray, neighbors: np.ndarray) -> np.ndarray:
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
    projected_share = np.empty(n_samples)
    ratio = np.empty(n_samples)
    nu = np.empty(n_samples)
    scale = np.empty(n_samples)
    size = min(q, width)
    for part, (Xc, Yc) in centred_chunks(neighbors, (X, Y), 8 * (width * (q + 2 * d) + 2 * size * size + 2 * d * d)):
        projected = local_principal_coordinates(Xc, d)
        xx = np.einsum("nkq,nkq->n", Xc, Xc)
        pp = np.einsum("nkd,nkd->n", projected, projected)
        yy = np.einsum("nkd,nkd->n", Yc, Yc)
        nu[part] = normalized_nuclear_norm(np.einsum("nkd,nke->nde", projected, Yc), np.sqrt(pp), np.sqrt(yy))
        # Ratios to ||Xc||^2 before anything is multiplied: scale-free, as in local_procrustes.
        safe = np.where(xx > 0.0, xx, 1.0)
        projected_share[part] = pp / safe
        ratio[part] = np.sqrt(yy / safe)
        scale[part] = xx
    undefined = coincident(scale, X, width)
    statistic = projected_share + ratio**2 - 2.0 * nu * np.sqrt(projected_share) * ratio
    return np.where(undefined, np.nan, statistic)


def procrustes_rotation(Xc: np.ndarray, Yc: np.ndarray) -> np.ndarray:
    """Optimal rotations ``A`` (``A'A = I``) aligning centred ``Yc`` to centred ``Xc`` (GR Eq. 1).

    Parameters
    ----------
    Xc : ndarray of shape (..., m, q)
        Centred input neighbourhoods (any leading stack dimensions).
    Yc : ndarray of shape (..., m, d)
        Centred embedded neighbourhoods.

    Returns
    -------
    ndarray of shape (..., q, d)
        ``A = U V'`` from the thin SVD ``U L V'`` of ``M = Xc' Yc``; ``Yc A'`` is the best rigid fit
        of ``Xc`` (Sibson 1978). Where M is rank-deficient A is one of several minimizers. For
        ``d > q`` A has orthonormal rows instead (``A A' = I``): the fit of Y onto X padded with
        zero columns, read back in X's q coordinates.

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


def local_rotations(X: np.ndarray, Y: np.ndarray, neighbors: np.ndarray) -> np.ndarray:
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
    for part, (Xc, Yc) in centred_chunks(neighbors, (X, Y), 8 * (width * (q + d) + 3 * q * d)):
        rotations[part] = procrustes_rotation(Xc, Yc)
    return rotations


def local_pca_residual(X: np.ndarray, neighbors: np.ndarray, n_components: int) -> np.ndarray:
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
    for part, (Xc,) in centred_chunks(neighbors, (X,), 8 * (width * q + 2 * size * size)):
        gram = np.einsum("nkq,nkr->nqr", Xc, Xc) if q <= width else np.einsum("nkq,njq->nkj", Xc, Xc)
        eigenvalues = np.linalg.eigvalsh(gram)  # ascending
        residual[part] = eigenvalues[:, : max(size - n_components, 0)].sum(axis=1)
        scale[part] = np.trace(gram, axis1=1, axis2=2)
    return divide_where_defined(residual, scale, coincident(scale, X, width))


def summarize(values, name, *, sampled=False):
    """Mean and median of a per-point measure, leaving out (and warning about) NaN points.

    Parameters
    ----------
    values : ndarray of shape (n_samples,)
    name : str
        Measure name for the warning.
    sampled : bool, default=False
        The measure was computed on a sample of the points (NaN off it, as its caller states): no
        warning about coincident points.

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
    if n_undefined and not sampled:
        warnings.warn(f"{name}: {n_undefined} neighbourhood(s) of coincident points left out of the mean "
                      "(duplicate points; remove them or raise k).", ProcrustesLabWarning, stacklevel=3)
    if n_undefined:
        values = values[~undefined]
    return float(values.mean()), float(np.median(values)), n_undefined


def procrustes(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *, variant: str = "normalized",
               per_point: bool = False) -> "float | tuple[float, np.ndarray]":
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
    R_N, R_C and R_PCA do not change when X and Y are both multiplied by any ``c`` (tested from
    1e-150 to 1e150); R, a sum of squared residuals, is multiplied by ``c^2``. Y may have more
    columns than X (see :func:`local_procrustes`).

    A neighbourhood whose k+1 input points coincide (relative to the data's magnitude,
    :func:`measures.kernels.coincident`) has no normalized value: NaN per point, left out of the
    mean with a ``ProcrustesLabWarning`` (:func:`summarize`).

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
    X, Y = check_pair(X, Y)
    # One power of two for both (exact): R_N compares their scales; R's G is in X's units squared.
    X, exponent = power_of_two_scaled(X)
    Y = np.ldexp(Y, -exponent)
    neighbors = nearest_neighbors(X, n_neighbors)
    if variant == "pca":
        values = local_pca_procrustes(X, Y, neighbors)
    else:
        values = local_procrustes(X, Y, neighbors).per_point(variant)
        if variant == "raw":
            values = np.ldexp(values, 2 * exponent)
    mean = summarize(values, f"R ({variant})")[0]
    return (mean, values) if per_point else mean


def procrustes_lower_bound(X: npt.ArrayLike, n_neighbors: int, n_components: int, *,
                           per_point: bool = False) -> "float | tuple[float, np.ndarray]":
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
    X = power_of_two_scaled(check_points(X, "X"))[0]
    n_components = check_integer(n_components, "n_components", 1, error=MeasureError)
    values = local_pca_residual(X, nearest_neighbors(X, n_neighbors), n_components)
    mean = summarize(values, "lower bound")[0]
    return (mean, values) if per_point else mean
