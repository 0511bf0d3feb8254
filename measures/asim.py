"""ASIM: how well a configuration matches its embedding up to rotation and axis scaling (NQ §III).

ASIM compares a reference configuration ``X`` (m x q, rows are points) with ``Y`` (m x d, d <= q)
after the best rigid motion *and* a separate scale (of either sign) for each axis of Y:

.. math::

    \\mathrm{ASIM}(X, Y) = \\min_{P \\in St(q, d),\\ D\\ \\mathrm{diagonal},\\ t}
        \\frac{\\|X - Y D P' - \\mathbf{1} t'\\|_F^2}{\\|H X\\|_F^2} \\in [0, 1]

(NQ Eqs. 5-7, 12). It is the local measure of NIEQA: an embedding normalized to unit variance per
coordinate (LLE, LTSA, Laplacian eigenmaps) loses nothing it would not lose unnormalized.

Two corrections to NQ (SPEC §3): the denominator is the *centred* ``||H X||^2`` (NQ prints
``||X||^2``, which is not translation invariant), and NQ's Riemannian gradient, Eq. 17, is misprinted;
the gradient of :math:`\\phi(P) = \\sum_j (p_j' m_j)^2` on St(q, d) is
:math:`G - P\\,\\mathrm{sym}(P'G)` with :math:`G = 2 M \\delta^2(P'M)`.

References
----------
.. [NQ] P. Zhang, Y. Ren and B. Zhang, "A new embedding quality assessment method for manifold
   learning", Neurocomputing 97 (2012) 251-266.
"""

import dataclasses
import warnings

import numpy as np
import numpy.typing as npt

from .errors import DimensionError, MeasureError, ProcrustesLabWarning
from .kernels import (
    centred_chunks,
    coincident,
    divide_where_defined,
    triangular_factor_2,
)
from .neighbors import check_pair, power_of_two_scaled

__all__ = ["SOLVERS", "AsimFit", "asim", "asim_fit", "check_dimensions", "local_asim", "truth_match"]

SOLVERS = ("auto", "closed_form", "iterative")
# Stopping rule of the Stiefel ascent: ||grad phi||_F <= GRADIENT_TOLERANCE * ||M||_F^2. Near the
# maximum phi's error is quadratic in the gradient (~1e-16 relative here), and the Armijo test cannot
# resolve smaller gradients: the increase it asks for falls below the rounding of phi.
GRADIENT_TOLERANCE = 1e-8
MAX_ITERATIONS = 1000


@dataclasses.dataclass(frozen=True)
class AsimFit:
    """The optimal fit of ASIM for one configuration: ``X ≈ Y diag(scales) P' + t`` (NQ Eqs. 11, 13).

    Attributes
    ----------
    value : float
        ASIM in [0, 1]: the residual of the fit over ``||H X||_F^2``.
    rotation : ndarray of shape (q, d)
        ``P``, orthonormal columns (NQ's P_i).
    scales : ndarray of shape (d,)
        The diagonal of ``D`` (NQ Eq. 13); of either sign, 0 for a constant column of Y.
    translation : ndarray of shape (q,)
        ``t`` (NQ Eq. 11).
    """

    value: float
    rotation: np.ndarray
    scales: np.ndarray
    translation: np.ndarray

    def transform(self, Y):
        """Map ``Y`` (m, d) into the frame of X: ``Y diag(scales) P' + t``."""
        return (np.asarray(Y, dtype=np.float64) * self.scales) @ self.rotation.T + self.translation


def _normalized_cross_covariance(Xc, Yc):
    """``M = Xc' Yc diag(||yc_j||)^-1`` and the correlation ``Yc'Yc`` of the unit-norm columns.

    With ``D`` eliminated by NQ Eq. 13, the residual is ``||Xc||^2 - sum_j (p_j' m_j)^2`` with
    ``m_j`` the columns of this M (NQ's ``M_i``). A constant column of Y (``||yc_j|| = 0``) fits
    nothing: its column of M is set to 0 (the where keeps 0/0 out).

    Returns
    -------
    M : ndarray of shape (n, q, d)
    correlation : ndarray of shape (n, d, d)
    column_norms : ndarray of shape (n, d)
    """
    column_norms = np.sqrt(np.einsum("nkd,nkd->nd", Yc, Yc))
    inverse = np.where(column_norms == 0.0, 0.0, 1.0 / np.where(column_norms == 0.0, 1.0, column_norms))
    unit = Yc * inverse[:, None, :]
    return np.einsum("nkq,nkd->nqd", Xc, unit), np.einsum("nkd,nke->nde", unit, unit), column_norms


def _orthonormal_q(matrices):
    """Q of the thin QR of each matrix in the stack, columns signed so that ``diag(R) >= 0``.

    This is the QR retraction onto the Stiefel manifold used by NQ's Algorithm 1.
    """
    Q, R = np.linalg.qr(matrices)
    signs = np.where(np.diagonal(R, axis1=1, axis2=2) < 0.0, -1.0, 1.0)
    return Q * signs[:, None, :]


def _polar_factor(matrices):
    """The orthonormal polar factor ``U V'`` of each matrix (nearest matrix with orthonormal columns)."""
    U, _, Vt = np.linalg.svd(matrices, full_matrices=False)
    return U @ Vt


def _objective(M, P):
    """``phi(P) = sum_j (p_j'm_j)^2`` and its Riemannian gradient on St(q, d) (SPEC §3, not NQ Eq. 17).

    The Euclidean gradient is ``G = 2 M diag(P'M)`` (column j of M scaled by ``2 p_j'm_j``); its
    projection on the tangent space at P is ``G - P sym(P'G)``.
    """
    diagonal = np.einsum("nqd,nqd->nd", P, M)
    euclidean = 2.0 * M * diagonal[:, None, :]
    inner = np.swapaxes(P, 1, 2) @ euclidean
    gradient = euclidean - P @ (0.5 * (inner + np.swapaxes(inner, 1, 2)))
    return np.einsum("nd,nd->n", diagonal, diagonal), gradient


def _stiefel_ascent(M, start):
    """Maximize ``phi(P) = sum_j (p_j'm_j)^2`` over St(q, d) for every M in the stack.

    Riemannian gradient ascent with Barzilai-Borwein steps, Armijo backtracking (monotone) and the
    QR retraction, all matrices at once: the Python loop runs over iterations, and each iteration
    only touches the matrices that have not converged.

    Parameters
    ----------
    M : ndarray of shape (n, q, d)
    start : ndarray of shape (n, q, d)
        Starting points with orthonormal columns.

    Returns
    -------
    phi : ndarray of shape (n,)
    P : ndarray of shape (n, q, d)
        The maximizers found.
    converged : ndarray of shape (n,), bool
        False where ``MAX_ITERATIONS`` ran out while phi was still increasing and the gradient
        test had not passed (a matrix whose phi stops increasing is at its maximum to rounding).
    """
    P = start.copy()
    scale = np.einsum("nqd,nqd->n", M, M)
    safe_scale = np.where(scale > 0.0, scale, 1.0)
    phi, gradient = _objective(M, P)
    gradient_sq = np.einsum("nqd,nqd->n", gradient, gradient)
    # phi's Hessian is of the order of ||M||^2: 1/||M||^2 is a safe first step.
    step = 1.0 / safe_scale
    tolerance = GRADIENT_TOLERANCE * safe_scale
    active = np.sqrt(gradient_sq) > tolerance
    for _ in range(MAX_ITERATIONS):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        M_a, P_a, g_a, phi_a, gsq_a = M[idx], P[idx], gradient[idx], phi[idx], gradient_sq[idx]
        step_a = step[idx]
        trial = _orthonormal_q(P_a + step_a[:, None, None] * g_a)
        phi_t, g_t = _objective(M_a, trial)
        for _ in range(60):  # backtracking: halve the step where the Armijo test fails
            failing = phi_t < phi_a + 1e-4 * step_a * gsq_a
            if not failing.any():
                break
            step_a = np.where(failing, 0.5 * step_a, step_a)
            f = np.flatnonzero(failing)
            trial[f] = _orthonormal_q(P_a[f] + step_a[f, None, None] * g_a[f])
            phi_t[f], g_t[f] = _objective(M_a[f], trial[f])
        # A step that no longer increases phi means the maximum is reached to rounding: near it the
        # increase asked for by Armijo rounds to nothing and the test passes for a null step.
        stalled = (phi_t < phi_a + 1e-4 * step_a * gsq_a) | (phi_t <= phi_a)
        keep = ~stalled
        s = trial - P_a
        y = g_t - g_a
        # BB1 step for minimizing -phi: <s, s> / <s, -(g_new - g_old)>; a non-positive curvature
        # estimate keeps the last accepted step.
        curvature = -np.einsum("nqd,nqd->n", s, y)
        bb = np.where(curvature > 0.0, np.einsum("nqd,nqd->n", s, s) / np.where(curvature > 0.0, curvature, 1.0),
                      step_a)
        scale_a = safe_scale[idx]
        step[idx] = np.clip(bb, 1e-6 / scale_a, 1e6 / scale_a)
        P[idx[keep]] = trial[keep]
        phi[idx[keep]] = phi_t[keep]
        gradient[idx[keep]] = g_t[keep]
        gradient_sq[idx[keep]] = np.einsum("nqd,nqd->n", g_t[keep], g_t[keep])
        active[idx] = keep & (np.sqrt(gradient_sq[idx]) > tolerance[idx])
        active[idx[stalled]] = False
    return phi, P, ~active


def _maximize(M, correlation, solver):
    """``max_{P in St(q,d)} sum_j (p_j'm_j)^2`` for each M in the stack, and a maximizer P.

    Exact reduction (SPEC §3): with the thin QR ``M = Q R``, the maximum over St(q, d) equals the
    maximum of ``sum_j (o_j'r_j)^2`` over O(d), attained at ``P = Q O`` (Q'P is a contraction, and
    a convex function on the contractions peaks at an orthogonal matrix).

    - d = 1: ``||m||^2``, P = m/||m||.
    - d = 2, closed form: with ``O`` the rotation by θ,
      ``phi = ||R||^2/2 + B cos 2θ + C sin 2θ``, ``B = (r11² − r21² + r22² − r12²)/2``,
      ``C = r11 r21 − r12 r22`` (reflections give the same values: D absorbs the sign), so the
      maximum is ``||R||^2/2 + sqrt(B² + C²)`` at ``2θ = atan2(C, B)``.
    - otherwise (or ``solver="iterative"``): :func:`_stiefel_ascent` on the d x d problem in R, from
      the polar factor of the least-squares map ``R C^+`` (C = the correlation of Y's columns).

    Returns
    -------
    phi : ndarray of shape (n,)
    P : ndarray of shape (n, q, d)
    converged : ndarray of shape (n,), bool
    """
    n, q, d = M.shape
    if d == 1:
        norms = np.sqrt(np.einsum("nqd,nqd->n", M, M))
        unit = np.zeros_like(M)
        unit[:, 0, 0] = 1.0  # any unit vector is optimal for a zero column
        P = np.where(norms[:, None, None] > 0.0, M / np.where(norms > 0.0, norms, 1.0)[:, None, None], unit)
        return norms**2, P, np.ones(n, dtype=bool)
    Q, R = np.linalg.qr(M)
    if d == 2 and solver != "iterative":
        r11, r12, r21, r22 = R[:, 0, 0], R[:, 0, 1], R[:, 1, 0], R[:, 1, 1]
        B = 0.5 * (r11**2 - r21**2 + r22**2 - r12**2)
        C = r11 * r21 - r12 * r22
        phi = 0.5 * np.einsum("nij,nij->n", R, R) + np.hypot(B, C)
        theta = 0.5 * np.arctan2(C, B)
        c, s = np.cos(theta), np.sin(theta)
        orthogonal = np.stack([np.stack([c, -s], axis=-1), np.stack([s, c], axis=-1)], axis=1)
        return phi, Q @ orthogonal, np.ones(n, dtype=bool)
    start = _polar_factor(R @ np.linalg.pinv(correlation, hermitian=True))
    phi, orthogonal, converged = _stiefel_ascent(R, start)
    return phi, Q @ orthogonal, converged


def _closed_form_2(M):
    """The d = 2 maximum of :func:`_maximize` from the Gram-Schmidt factor, without a QR call.

    The per-neighbourhood hot path: ``R`` is upper triangular (``r21 = 0``), so
    ``B = (r11² + r22² − r12²)/2`` and ``C = −r12 r22``.
    """
    r11, r12, r22 = triangular_factor_2(M)
    B = 0.5 * (r11**2 + r22**2 - r12**2)
    return 0.5 * np.einsum("nij,nij->n", M, M) + np.hypot(B, r12 * r22)


def _check_solver(solver):
    if solver not in SOLVERS:
        raise MeasureError(f"solver must be one of {list(SOLVERS)}; got {solver!r}.")


def check_dimensions(q, d, what):
    """Raise :class:`DimensionError` unless ``d <= q``: ASIM's P lies on the Stiefel manifold St(q, d).

    The one place the policy for outputs with more columns than their reference is enforced for
    ASIM, M_L, M_G and M_t (SPEC §3 note): the measures of GR and the rank measures are defined
    for any d, ASIM is not.
    """
    if d > q:
        raise DimensionError(f"{what}: the embedding has more columns (d = {d}) than the reference (q = {q}); "
                             "ASIM needs d <= q (P has orthonormal columns). Drop output columns, or read R_N, "
                             "R_C and the rank measures, which are defined for any d.")


def _warn_unconverged(converged, what):
    missed = int((~converged).sum())
    if missed:
        warnings.warn(f"{what}: the Stiefel ascent stopped after {MAX_ITERATIONS} iterations before its gradient "
                      f"test in {missed} neighbourhood(s); their values are the best found.",
                      ProcrustesLabWarning, stacklevel=3)


def local_asim(X: np.ndarray, Y: np.ndarray, neighbors: np.ndarray, *, solver: str = "auto") -> np.ndarray:
    """ASIM of every neighbourhood, ``ASIM(H X_i, H Y_i)`` (NQ Eq. 7), batched in chunks.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
        Input points (the reference).
    Y : ndarray of shape (n_samples, d)
        Their embedding, ``d <= q``.
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhood indices, point first, from :func:`measures.nearest_neighbors` on X.
    solver : {"auto", "closed_form", "iterative"}, default="auto"
        ``"auto"`` uses the closed form for d <= 2 and the Stiefel ascent for d >= 3;
        ``"iterative"`` forces the ascent (for checking the closed form); ``"closed_form"``
        raises for d >= 3.

    Returns
    -------
    ndarray of shape (n_samples,)
        Values in [0, 1] (an exact fit scores ~1e-16 of either sign); NaN where the k + 1 input
        points coincide (``||H X_i|| = 0``).

    Notes
    -----
    The mean over points is NIEQA's local assessment M_L (NQ Eq. 18). See :func:`_maximize` for the
    exact reduction to O(d) and the d = 2 closed form (SPEC §3).
    """
    _check_solver(solver)
    n_samples, width = neighbors.shape
    q, d = X.shape[1], Y.shape[1]
    check_dimensions(q, d, "local ASIM")
    if solver == "closed_form" and d > 2:
        raise MeasureError(f"the closed form of ASIM exists for d <= 2; got d = {d}. Use solver='auto'.")
    explained = np.empty(n_samples)
    scale = np.empty(n_samples)
    converged = np.ones(n_samples, dtype=bool)
    bytes_per_point = 8 * (width * (q + 2 * d) + 4 * q * d + 4 * d * d)
    for part, (Xc, Yc) in centred_chunks(neighbors, (X, Y), bytes_per_point):
        M, correlation, _ = _normalized_cross_covariance(Xc, Yc)
        if d == 2 and solver != "iterative":
            explained[part] = _closed_form_2(M)
        else:
            explained[part], _, converged[part] = _maximize(M, correlation, solver)
        scale[part] = np.einsum("nkq,nkq->n", Xc, Xc)
    _warn_unconverged(converged, "local ASIM")
    return divide_where_defined(scale - explained, scale, coincident(scale, X, width))


def _check_patches(X_patch, Y_patch):
    X, Y = check_pair(X_patch, Y_patch)
    check_dimensions(X.shape[1], Y.shape[1], "ASIM")
    if X.shape[0] < 2:
        raise MeasureError(f"ASIM needs at least 2 points; got {X.shape[0]}.")
    return X, Y


def asim_fit(X_patch: npt.ArrayLike, Y_patch: npt.ArrayLike, *, solver: str = "auto") -> AsimFit:
    """The ASIM fit of one configuration: value, rotation, axis scales and translation.

    Parameters
    ----------
    X_patch : array-like of shape (m, q)
        The reference configuration (a neighbourhood of the input, or ground truth).
    Y_patch : array-like of shape (m, d)
        Its embedding, row for row, ``d <= q``.
    solver : {"auto", "closed_form", "iterative"}, default="auto"

    Returns
    -------
    AsimFit

    Raises
    ------
    MeasureError
        On mismatched rows, ``d > q``, NaN, or a reference whose points all coincide.

    Examples
    --------
    A rotated copy with its axes rescaled (one reflected) is fitted exactly:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.normal(size=(12, 2))
    >>> P = np.linalg.qr(rng.normal(size=(3, 2)))[0]
    >>> X = Y @ np.diag([3.0, -0.5]) @ P.T + 1.0
    >>> fit = asim_fit(X, Y)
    >>> bool(fit.value < 1e-12 and np.allclose(fit.transform(Y), X))
    True
    """
    _check_solver(solver)
    X, Y = _check_patches(X_patch, Y_patch)
    if solver == "closed_form" and Y.shape[1] > 2:
        raise MeasureError(f"the closed form of ASIM exists for d <= 2; got d = {Y.shape[1]}. Use solver='auto'.")
    # Powers of two (exact; the value is invariant to both scales), undone on scales and translation.
    (X, x_exponent), (Y, y_exponent) = power_of_two_scaled(X), power_of_two_scaled(Y)
    Xc = (X - X.mean(axis=0))[None]
    Yc = (Y - Y.mean(axis=0))[None]
    scale = float(np.sum(Xc**2))
    if scale == 0.0:
        raise MeasureError("the reference configuration X_patch must contain > 1 unique points "
                           "(its centred norm is 0, so ASIM is 0/0).")
    M, correlation, column_norms = _normalized_cross_covariance(Xc, Yc)
    explained, P, converged = _maximize(M, correlation, solver)
    _warn_unconverged(converged, "ASIM")
    P = P[0]
    # NQ Eq. 13: d_j = p_j' Xc' yc_j / ||yc_j||^2 = p_j' m_j / ||yc_j|| (0 for a constant column).
    norms = column_norms[0]
    scales = np.where(norms > 0.0, np.einsum("qd,qd->d", P, M[0]) / np.where(norms > 0.0, norms, 1.0), 0.0)
    translation = X.mean(axis=0) - (Y.mean(axis=0) * scales) @ P.T  # NQ Eq. 11
    return AsimFit(value=float((scale - explained[0]) / scale), rotation=P,
                   scales=np.ldexp(scales, x_exponent - y_exponent), translation=np.ldexp(translation, x_exponent))


def asim(X_patch: npt.ArrayLike, Y_patch: npt.ArrayLike, *, solver: str = "auto") -> float:
    """ASIM of one configuration (NQ Eqs. 5-7 with the centred denominator of SPEC §3).

    Parameters
    ----------
    X_patch : array-like of shape (m, q)
        The reference configuration.
    Y_patch : array-like of shape (m, d)
        Its embedding, ``d <= q``.
    solver : {"auto", "closed_form", "iterative"}, default="auto"

    Returns
    -------
    float
        In [0, 1]; 0 when ``X = Y D P' + t`` for some P with orthonormal columns and diagonal D.

    Notes
    -----
    ASIM is invariant to translating either argument, to rotating, reflecting and uniformly
    scaling X, and to scaling, flipping and permuting the axes of Y; it is *not* invariant to
    rotating Y, and not symmetric (SPEC §3).

    Examples
    --------
    Normalizing each coordinate of a configuration costs nothing:

    >>> import numpy as np
    >>> X = np.random.default_rng(1).uniform(-1, 1, size=(50, 2)) * [2.0, 1.0]
    >>> bool(asim(X, X / X.std(axis=0)) < 1e-12)
    True
    """
    return asim_fit(X_patch, Y_patch, solver=solver).value


def truth_match(truth: npt.ArrayLike, Y: npt.ArrayLike, *, solver: str = "auto") -> float:
    """M_t: ASIM of the whole embedding against the ground truth (NQ Table III; SPEC §3).

    Parameters
    ----------
    truth : array-like of shape (n_samples, d_truth)
        The intrinsic coordinates, used as the reference.
    Y : array-like of shape (n_samples, d)
        The embedding, ``d <= d_truth``.
    solver : {"auto", "closed_form", "iterative"}, default="auto"

    Returns
    -------
    float
        0 when Y is the truth up to rotation, axis scaling and translation.
    """
    truth, Y = check_pair(truth, Y, names=("truth", "Y"))
    return asim(truth, Y, solver=solver)
