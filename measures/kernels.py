"""The shared pieces of every per-neighbourhood kernel: centred stacks in chunks, the scale-free
nuclear norm, local principal coordinates, and the one rule for neighbourhoods of coincident points.

Every batched measure (R, R_N, R_C, R_PCA, the Lemma 1 bound, ASIM, PN's LTSA cost) walks the
point axis in chunks, gathers each chunk's neighbourhoods as a centred ``(chunk, k+1, dim)`` stack
(``H X_i``, SPEC §0) and reduces it to one number per neighbourhood; the walk lives here once
(:func:`centred_chunks`), and so does the test that says a neighbourhood's points coincide
(:func:`coincident`), so every measure leaves out the same neighbourhoods and counts them.
"""

import numpy as np

from .chunks import chunk_slices

__all__ = [
    "COINCIDENCE_TOLERANCE",
    "centred_chunks",
    "centred_stack",
    "coincident",
    "divide_where_defined",
    "local_principal_coordinates",
    "normalized_nuclear_norm",
    "triangular_factor_2",
]

# A neighbourhood whose root-mean-square spread about its mean is at most this share of the input's
# largest absolute coordinate is one of coincident points. The coordinates themselves are only
# resolved to about 1.1e-16 of that magnitude, so centring k+1 copies of one point leaves a
# spread of rounding size (||H X_i||^2 ~ 1e-31 |x|^2, and R_N ~ 1e31: issue 15); 1e-12 keeps four
# orders of magnitude between rounding and any spread a measure is computed on, where the centred
# coordinates still carry about 4 correct digits.
COINCIDENCE_TOLERANCE = 1e-12


def centred_stack(points, neighbors):
    """Neighbourhoods of ``points`` as a centred ``(len(neighbors), k+1, dim)`` stack (``H X_i``).

    Parameters
    ----------
    points : ndarray of shape (n_samples, dim)
    neighbors : ndarray of shape (m, k + 1)
        Index rows, one neighbourhood each.

    Returns
    -------
    ndarray of shape (m, k + 1, dim)
        Each neighbourhood minus its own mean (H = I - 11'/(k+1), SPEC §0).
    """
    stack = points[neighbors]
    return stack - stack.mean(axis=1, keepdims=True)


def centred_chunks(neighbors, arrays, bytes_per_point):
    """Walk the point axis in chunks, yielding each chunk's slice and its centred stacks.

    The one chunked loop over neighbourhoods (:func:`measures.chunks.chunk_slices` +
    :func:`centred_stack`): kernels differ only in what they compute on the stacks.

    Parameters
    ----------
    neighbors : ndarray of shape (n_samples, k + 1)
    arrays : sequence of ndarray of shape (n_samples, dim_j)
        The point sets to stack (input, output, ...), all indexed by the same neighbourhoods.
    bytes_per_point : int
        Working memory of one neighbourhood in the caller's kernel (stacks included).

    Yields
    ------
    part : slice
        Rows of ``neighbors`` in this chunk.
    stacks : list of ndarray of shape (chunk, k + 1, dim_j)
        ``centred_stack(array, neighbors[part])`` for each array.
    """
    for part in chunk_slices(neighbors.shape[0], bytes_per_point):
        rows = neighbors[part]
        yield part, [centred_stack(array, rows) for array in arrays]


def coincident(squared_spread, points, width):
    """Which neighbourhoods consist of coincident points, relative to the data's magnitude.

    Parameters
    ----------
    squared_spread : ndarray of shape (n,)
        ``||H X_i||_F^2`` of each neighbourhood.
    points : ndarray of shape (n_samples, q)
        The points the neighbourhoods were taken from.
    width : int
        Points per neighbourhood (k + 1).

    Returns
    -------
    ndarray of shape (n,), bool
        ``||H X_i||_F^2 <= (k+1) (tol s)^2`` with ``s = max |x_jl|`` over all the points and
        ``tol =`` :data:`COINCIDENCE_TOLERANCE`: the root-mean-square distance of the
        neighbourhood's points to their mean is at most ``tol s``. The test is relative, so it does
        not change when the data are scaled, and it catches copies of one point, whose centred
        spread is rounding (about 1e-16 s) rather than 0.

    Examples
    --------
    >>> import numpy as np
    >>> copies = np.full((13, 3), 0.1)
    >>> spread = np.sum((copies - copies.mean(axis=0)) ** 2)
    >>> bool(coincident(np.array([spread]), copies, 13)[0])
    True
    """
    magnitude = float(np.max(np.abs(points))) if points.size else 0.0
    return squared_spread <= width * (COINCIDENCE_TOLERANCE * magnitude) ** 2


def divide_where_defined(values, scale, undefined):
    """``values / scale``, NaN where ``undefined`` (the where keeps 0/0 and x/0 out)."""
    return np.where(undefined, np.nan, values / np.where(undefined, 1.0, scale))


def triangular_factor_2(M):
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


def normalized_nuclear_norm(M, x_norm, y_norm):
    """``nu = nuc(M) / (||Xc|| ||Yc||)`` for each ``M = Xc'Yc`` in the stack: a number in [0, 1].

    Parameters
    ----------
    M : ndarray of shape (n, q, d)
    x_norm, y_norm : ndarray of shape (n,)
        ``||Xc||_F`` and ``||Yc||_F``; where either is 0, nu is 0.

    Notes
    -----
    M is divided by ``||Xc|| ||Yc||`` *before* anything is squared: ``nuc(M) <= ||Xc|| ||Yc||``
    (Cauchy-Schwarz), so the scaled entries lie in [-1, 1] and their squares neither underflow nor
    overflow whatever the data's scale. The closed form squares entries of M, which are products
    of two coordinates: at coordinates of 1e-150 their squares (1e-600) vanish and R_N read 1.78
    instead of 0.35 (issue 15). For ``d <= 2`` the closed form of SPEC §3 avoids an SVD: with
    ``B = M'M``, ``nuc(M) = sqrt(tr B + 2 sqrt(det B))``, ``sqrt(det B) = r11 r22`` from
    :func:`triangular_factor_2`; otherwise a batched SVD.
    """
    norms = x_norm * y_norm
    empty = norms == 0.0
    M = M * (1.0 / np.where(empty, 1.0, norms))[:, None, None]
    d = M.shape[-1]
    if d == 1:
        nu = np.sqrt(np.einsum("nij,nij->n", M, M))
    elif d == 2:
        r11, _, r22 = triangular_factor_2(M)
        nu = np.sqrt(np.einsum("nij,nij->n", M, M) + 2.0 * r11 * r22)
    else:
        nu = np.linalg.svd(M, compute_uv=False).sum(axis=-1)
    return np.where(empty, 0.0, nu)


def local_principal_coordinates(Xc, n_components):
    """Local PCA coordinates ``H X_i P_i`` of each centred neighbourhood (GR Eq. 6).

    Parameters
    ----------
    Xc : ndarray of shape (n, m, q)
        Centred neighbourhoods.
    n_components : int
        d, the number of principal axes kept (at most ``min(q, m)`` exist: for a larger d the
        result has that many columns).

    Returns
    -------
    ndarray of shape (n, m, min(d, q, m))
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
