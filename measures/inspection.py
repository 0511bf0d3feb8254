"""One neighbourhood under the microscope: the input patch beside its aligned embedding (PN Fig. 1E/F).

The per-point measures say *how much* a neighbourhood is distorted; :func:`inspect_neighbourhood`
shows *how*: the k + 1 input points in their local principal coordinates, and the embedded points
after each measure's own optimal alignment, so the drawn residuals are exactly what the measure
sums (GR Eq. 1 for R_N, GR Eq. 7 for R_C, NQ Eqs. 11-13 for ASIM).
"""

import dataclasses

import numpy as np
import numpy.typing as npt

from .asim import asim_fit, check_dimensions
from .errors import MeasureError
from .kernels import coincident
from .parameters import check_integer
from .procrustes import local_pca_residual, procrustes_rotation

__all__ = ["NeighbourhoodView", "inspect_neighbourhood"]


@dataclasses.dataclass(frozen=True)
class NeighbourhoodView:
    """The alignments of one neighbourhood, in the input's local principal coordinates.

    Every configuration is centred on the input patch's mean and expressed on the patch's top-d
    principal axes (``d`` the output dimension, largest variance first). The residuals the measures
    sum live in the full input space; the part off these axes is the Lemma 1 lower bound, which no
    alignment can remove and no drawing in d dimensions can show.

    Attributes
    ----------
    index : int
        The inspected point.
    neighbors : ndarray of shape (k + 1,)
        Its neighbourhood, the point first.
    input_local : ndarray of shape (k + 1, d)
        ``H X_i V_d``: the input patch on its principal axes.
    rigid : ndarray of shape (k + 1, d)
        ``H Y_i A'`` on the same axes: the output after the rotation (and reflection) ``A`` of GR
        Eq. 1, no scale; its residual is R_N's.
    conformal : ndarray of shape (k + 1, d)
        ``c H Y_i A'``: also scaled by GR Eq. 7's best ``c``; its residual is R_C's.
    anisotropic : ndarray of shape (k + 1, d)
        ASIM's fit ``H Y_i D P'`` (one scale per output axis, NQ Eq. 11); its residual is ASIM's.
    normalized, conformal_value, asim_value, lower_bound : float
        The point's local R_N, R_C, ASIM and lower bound, each a residual over ``||H X_i||_F^2``.
    scale : float
        ``c``, the conformal scale.
    axis_scales : ndarray of shape (d,)
        ASIM's per-axis scales (NQ Eq. 13).
    """

    index: int
    neighbors: np.ndarray
    input_local: np.ndarray
    rigid: np.ndarray
    conformal: np.ndarray
    anisotropic: np.ndarray
    normalized: float
    conformal_value: float
    asim_value: float
    lower_bound: float
    scale: float
    axis_scales: np.ndarray


def inspect_neighbourhood(X: npt.ArrayLike, Y: npt.ArrayLike, neighbors: npt.ArrayLike,
                          index: int) -> NeighbourhoodView:
    """Align the embedding of point ``index``'s neighbourhood to the input as R_N, R_C and ASIM do.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
        Input points.
    Y : ndarray of shape (n_samples, d)
        Their embedding, ``d <= q``.
    neighbors : ndarray of shape (n_samples, k + 1)
        From :func:`measures.nearest_neighbors` on X (the run's own k).
    index : int
        The point to inspect.

    Returns
    -------
    NeighbourhoodView

    Raises
    ------
    MeasureError
        On an index out of range, or a neighbourhood whose points all coincide.
    DimensionError
        If ``d > q`` (ASIM's fit needs ``d <= q``).

    Notes
    -----
    With ``Xc = H X_i``, ``Yc = H Y_i`` and ``A = U V'`` from the SVD of ``Xc' Yc`` (GR Eq. 1), the
    local R_N is ``||Xc - Yc A'||^2 / ||Xc||^2`` and the local R_C is
    ``||Xc - c Yc A'||^2 / ||Xc||^2`` with ``c = nuc(Xc' Yc) / ||Yc||^2`` (GR Eq. 7): the same
    numbers :func:`measures.local_procrustes` gets from its closed forms, computed here from the
    aligned points themselves. ASIM's fit comes from :func:`measures.asim_fit`. The drawn
    coordinates are ``(·) V_d`` with ``V_d`` the patch's top-d principal axes.
    """
    X, Y, neighbors = np.asarray(X, dtype=float), np.asarray(Y, dtype=float), np.asarray(neighbors)
    n_samples = X.shape[0]
    index = check_integer(index, "index", 0, n_samples - 1, error=MeasureError, hint="Pass a point's row number.")
    q, d = X.shape[1], Y.shape[1]
    check_dimensions(q, d, "inspect_neighbourhood (its ASIM fit)")
    patch = neighbors[index]
    Xc = X[patch] - X[patch].mean(axis=0)
    Yc = Y[patch] - Y[patch].mean(axis=0)
    input_sq_norm = float(np.sum(Xc**2))
    if coincident(np.array([input_sq_norm]), X, len(patch))[0]:
        raise MeasureError(f"the {len(patch)} points of neighbourhood {index} coincide: there is nothing to align.")
    A = procrustes_rotation(Xc, Yc)
    rigid = Yc @ A.T
    output_sq_norm = float(np.sum(Yc**2))
    scale = float(np.sum(rigid * Xc) / output_sq_norm) if output_sq_norm > 0.0 else 0.0
    fit = asim_fit(X[patch], Y[patch])
    anisotropic = fit.transform(Y[patch]) - X[patch].mean(axis=0)
    # The patch's top-d principal axes V_d: the rows of Xc V_d are its local PCA coordinates (GR Eq. 6).
    axes = np.linalg.svd(Xc, full_matrices=False)[2][:d].T
    return NeighbourhoodView(
        index=int(index), neighbors=patch.copy(), input_local=Xc @ axes, rigid=rigid @ axes,
        conformal=scale * rigid @ axes, anisotropic=anisotropic @ axes,
        normalized=float(np.sum((Xc - rigid) ** 2) / input_sq_norm),
        conformal_value=float(np.sum((Xc - scale * rigid) ** 2) / input_sq_norm),
        asim_value=fit.value,
        lower_bound=float(local_pca_residual(X, neighbors[[index]], d)[0]),
        scale=scale, axis_scales=fit.scales)
