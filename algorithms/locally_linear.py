"""Locally linear methods on our own sparse alignment matrices: LLE, MLLE, HLLE and LTSA.

Each method builds a sparse, symmetric, positive semi-definite n x n *alignment matrix*

.. math::

    M = \\sum_i S_i B_i S_i',

a sum of one small dense block ``B_i`` per neighbourhood (``S_i`` selects its points), whose null space
holds the constants, and embeds X by the eigenvectors of the next d smallest eigenvalues. The blocks
are computed for all neighbourhoods at once (batched SVD, QR and eigh over stacked neighbourhoods,
chunked to a memory budget) and summed into one sparse matrix; scikit-learn's hessian, modified and ltsa
branches loop over points in Python, one factorisation per neighbourhood. The eigenvectors come from
ARPACK in shift-invert mode about a small *negative* shift, so the factorised ``M + δI`` is positive
definite: scikit-learn's shift 0 factorises the singular M itself ("Factor is exactly singular" for
HLLE and LTSA above ~10 000 points). Each author's output scale is restored by the registry entry
(unit variance for Roweis' LLE and Zhang & Wang's MLLE, unit norm for Zhang's LTSA and Donoho &
Grimes' HLLE; SPEC §2).

LLE and MLLE follow scikit-learn's definitions exactly, so their embeddings equal scikit-learn's on
inputs small enough for it; ``tests/algorithms/test_locally_linear.py`` compares the subspaces. LTSA
and HLLE fit each neighbourhood *with* its point (Zhang & Zha's and SPEC §0's N_i), where
scikit-learn leaves the point out, which can leave a point in no block at all (see
:func:`alignment_blocks`); and HLLE is Donoho & Grimes' estimator, where scikit-learn's
``method="hessian"`` builds LTSA's matrix (see :func:`_hessian_blocks`). Both are tested against
per-point loops of the authors' algorithms.

References
----------
.. [RS] S. T. Roweis and L. K. Saul, "Nonlinear dimensionality reduction by locally linear
   embedding", Science 290 (2000) 2323-2326.
.. [ZZ] Z. Zhang and H. Zha, "Principal manifolds and nonlinear dimensionality reduction via
   tangent space alignment", SIAM J. Sci. Comput. 26 (2004) 313-338.
.. [ML] Z. Zhang and J. Wang, "MLLE: modified locally linear embedding using multiple weights",
   NIPS 19 (2007) 1593-1600.
.. [DG] D. L. Donoho and C. Grimes, "Hessian eigenmaps: locally linear embedding techniques for
   high-dimensional data", PNAS 100 (2003) 5591-5596.
"""

import math
import warnings

import numpy as np
import scipy.linalg
from scipy.sparse import coo_array, identity
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh, splu

from measures import Parameter, ProcrustesLabWarning, check_random_state
from measures.chunks import chunk_slices

from .errors import ConvergenceError, SampleLimitError, SingularFactorError, format_bytes
from .registry import AlgorithmSpec, memory_budget, register, sparse_factor_bytes

__all__ = [
    "METHODS",
    "SHIFT",
    "alignment_blocks",
    "alignment_matrix",
    "alignment_memory_bytes",
    "hessian_neighbors_bound",
    "locally_linear",
    "null_space",
]

METHODS = ("standard", "modified", "hessian", "ltsa")

# Shift-invert ARPACK works with (M + δI)^-1, δ = SHIFT x mean(diag M): positive definite (no singular
# factor) yet far below the eigenvalues that follow the embedding's, so these converge in one Lanczos
# pass (21 solves on the 100 000-point swiss roll). The condition number of M + δI (~1e10) only
# amplifies errors along the smallest eigenvectors, the ones sought (the classical shift-invert argument).
SHIFT = 1e-10
# ARPACK's tolerance: 0 asks for machine precision; with shift-invert this costs no extra pass here.
ARPACK_TOLERANCE = 0.0
ARPACK_MAX_ITERATIONS = 1000
# "auto" solves up to this many points densely (scikit-learn's threshold): LAPACK takes milliseconds there,
# and ARPACK needs more points than the d + 1 eigenvectors it is asked for.
DENSE_AUTO_MAX_SAMPLES = 200
# MLLE: Householder vectors shorter than this are taken as zero (scikit-learn's modified_tol).
MODIFIED_TOLERANCE = 1e-12

EIGEN_SOLVER = Parameter(
    "eigen_solver", "Eigensolver", "choice", "auto", choices=("auto", "arpack", "dense"),
    help="'arpack': sparse shift-invert about a small negative shift (any n within the memory budget); "
         "'dense': LAPACK on the n x n matrix (O(n²) memory); 'auto': dense up to 200 points, else ARPACK, "
         "retried dense if it does not converge and the dense matrix fits the memory budget.")


def _lle_blocks(X, neighbors, n_components, reg):
    """LLE blocks ``a a'`` with ``a = (1, -w)`` on (x_i, its k neighbours): ``(I - W)'(I - W)`` summed.

    ``w`` solves ``(C + r I) w = 1`` with ``C_ab = (x_a - x_i)'(x_b - x_i)`` and ``r = reg tr C`` (``reg``
    when the trace is 0), normalized to sum 1 (RS Eq. 2; scikit-learn's ``barycenter_weights``).
    """
    offsets = X[neighbors[:, 1:]] - X[:, None, :][neighbors[:, 0]]  # (c, k, q)
    gram = offsets @ offsets.transpose(0, 2, 1)
    k = gram.shape[1]
    trace = np.trace(gram, axis1=1, axis2=2)
    gram[:, np.arange(k), np.arange(k)] += np.where(trace > 0, reg * trace, reg)[:, None]
    weights = np.linalg.solve(gram, np.ones((len(gram), k, 1)))[..., 0]
    weights /= weights.sum(axis=1, keepdims=True)
    a = np.concatenate([np.ones((len(weights), 1)), -weights], axis=1)
    return a[:, :, None] * a[:, None, :]


def _ltsa_blocks(X, neighbors, n_components):
    """LTSA blocks ``I - G G'``, ``G = (1/sqrt(m), U_d)``: U_d the top-d left singular vectors of the centred
    neighbourhood of m = k + 1 points, x_i and its k neighbours (ZZ §3, Eq. 3.4)."""
    points = X[neighbors]
    left = np.linalg.svd(points - points.mean(axis=1, keepdims=True), full_matrices=False)[0][:, :, :n_components]
    k = points.shape[1]
    return np.eye(k) - 1.0 / k - left @ left.transpose(0, 2, 1)


def _hessian_blocks(X, neighbors, n_components):
    """HLLE blocks ``H_i' H_i`` on x_i and its k neighbours: the projector on the local Hessian directions (DG §4).

    Notes
    -----
    With U_d the top-d left singular vectors of the centred neighbourhood (tangent coordinates), the
    columns ``[1, U_d, U_a * U_b (a <= b)]`` are orthonormalized in order (Gram-Schmidt, here a
    batched QR, which keeps the nested spans); the last d(d+1)/2 columns ``Q_2`` form the Hessian
    estimator ``H_i = Q_2'`` and the block is ``Q_2 Q_2'``. Donoho & Grimes' code also divides each
    column by its sum when that exceeds 1e-4; the columns are orthogonal to the constant column, so
    their sums are rounding and that never happens.

    scikit-learn's ``method="hessian"`` takes *all* columns of the full QR after the first 1 + d as
    its weights, i.e. the whole complement of ``[1, U_d]``, so its block is ``I - Q_1 Q_1'``: exactly
    LTSA's block ``I - G G'``. Its HLLE output equals its LTSA output (to 1e-12 on a 500-point swiss
    roll); ours is Donoho & Grimes' estimator, which penalizes only the quadratic part.
    """
    points = X[neighbors]
    left = np.linalg.svd(points - points.mean(axis=1, keepdims=True), full_matrices=False)[0][:, :, :n_components]
    k = points.shape[1]
    upper_a, upper_b = np.triu_indices(n_components)
    columns = np.concatenate([np.ones((len(points), k, 1)), left, left[:, :, upper_a] * left[:, :, upper_b]], axis=2)
    basis, _ = np.linalg.qr(columns)
    hessian = basis[:, :, 1 + n_components:]
    return hessian @ hessian.transpose(0, 2, 1)


def _mlle_spectra(X, neighbors):
    """Eigenvalues (descending) and eigenvectors of each local Gram matrix ``C_i = (X_Ni - x_i)(X_Ni - x_i)'``.

    Only the top ``min(q, k)`` eigenvalues are data; the others are exactly 0 (scikit-learn's convention,
    kept so that the regularisation below equals its).
    """
    offsets = X[neighbors[:, 1:]] - X[neighbors[:, 0]][:, None, :]
    values, vectors = np.linalg.eigh(offsets @ offsets.transpose(0, 2, 1))
    values, vectors = values[:, ::-1], vectors[:, :, ::-1]
    n_data = min(X.shape[1], neighbors.shape[1] - 1)
    values[:, n_data:] = 0.0
    return values, vectors


def _mlle_ratio(X, neighbors, n_components):
    """ρ_i of ML §3: the sum of the small over the d large local eigenvalues, whose median is η."""
    values, _ = _mlle_spectra(X, neighbors)
    n_data = min(X.shape[1], neighbors.shape[1] - 1)
    return values[:, n_components:n_data].sum(axis=1) / values[:, :n_components].sum(axis=1)


def _mlle_blocks(X, neighbors, n_components, eta):
    """MLLE blocks on (x_i, its k neighbours) for the global threshold ``eta`` (ML Algorithm; scikit-learn's
    modified branch, in closed form).

    Notes
    -----
    With the bottom ``s_i`` eigenvectors ``V_i`` of ``C_i`` (s_i from ML's ratio test against η, plus the
    ``k - min(q, k)`` null directions), ``α_i = ||V_i'1|| / sqrt(s_i)``, the Householder H_i mapping
    ``V_i'1`` to ``α_i 1`` and the regularised LLE weights ``w_i``, ML's weights are
    ``W_i = V_i H_i + (1 - α_i) w_i 1'`` and the block is ``[[s_i, -(W_i 1)'], [-W_i 1, W_i W_i']]``. As H_i is
    orthogonal and ``H_i 1 = V_i'1 / α_i``, with ``P = V_i V_i'``:

    .. math::

        W_i W_i' = P + c (P 1 w' + w 1' P) + (1 - α)^2 s w w', \\quad
        W_i 1 = P 1 / α + (1 - α) s w, \\quad c = (1 - α) / α,

    which depend on the subspace of V_i only, not on the basis an eigensolver returns. Where ``V_i'1`` is
    already ``α 1`` (scikit-learn's ``modified_tol``) H_i is the identity, and the same formulas hold.
    """
    values, vectors = _mlle_spectra(X, neighbors)
    k = neighbors.shape[1] - 1
    n_data = min(X.shape[1], k)
    total = values.sum(axis=1)
    # Regularised LLE weights from the same spectrum: w = (C + r I)^-1 1, r = 1e-3 tr C, normalized.
    regularizer = 1e-3 * total
    projections = vectors.transpose(0, 2, 1) @ np.ones(k)
    weights = np.einsum("cab,cb->ca", vectors, projections / (values + regularizer[:, None]))
    weights /= weights.sum(axis=1, keepdims=True)
    # s_i: the largest number of bottom eigenvalues whose sum over the rest's stays below η.
    cumulative = np.cumsum(values[:, :n_data], axis=1)
    ratios = cumulative[:, -1:] / cumulative[:, :-1] - 1.0
    sizes = (ratios < eta).sum(axis=1) + (k - n_data)
    bottom = np.arange(k)[None, :] >= (k - sizes)[:, None]  # the last s_i columns (ascending eigenvalues)
    V = vectors * bottom[:, None, :]
    projector = V @ V.transpose(0, 2, 1)
    column_sums = projector.sum(axis=2)  # P 1
    alpha = np.sqrt(np.einsum("ca,ca->c", column_sums, np.ones_like(column_sums)) / np.maximum(sizes, 1))
    # ||V'1||^2 = 1'P1. A neighbourhood with s_i = 0 or V_i'1 = 0 has no defined α: it contributes its
    # LLE-like part only (scikit-learn divides by zero there).
    defined = alpha > 0
    safe_alpha = np.where(defined, alpha, 1.0)
    coupling = np.where(defined, (1.0 - alpha) / safe_alpha, 0.0)
    s = sizes.astype(np.float64)
    wwt = (projector
           + coupling[:, None, None] * (column_sums[:, :, None] * weights[:, None, :]
                                        + weights[:, :, None] * column_sums[:, None, :])
           + ((1.0 - alpha) ** 2 * s)[:, None, None] * weights[:, :, None] * weights[:, None, :])
    row = column_sums / safe_alpha[:, None] * defined[:, None] + ((1.0 - alpha) * s)[:, None] * weights
    blocks = np.empty((len(V), k + 1, k + 1))
    blocks[:, 0, 0] = s
    blocks[:, 0, 1:] = -row
    blocks[:, 1:, 0] = -row
    blocks[:, 1:, 1:] = wwt
    return blocks


def alignment_blocks(X, neighbors, n_components, method, *, reg=1e-3, eta=None):
    """The dense blocks ``B_i`` of the alignment matrix for a stack of neighbourhoods.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (c, k + 1)
        Rows of :func:`measures.nearest_neighbors` (the point first).
    n_components : int
    method : {"standard", "modified", "hessian", "ltsa"}
    reg : float
        LLE's regularisation (``"standard"`` only).
    eta : float
        MLLE's threshold η, the median of :func:`_mlle_ratio` over all points (``"modified"`` only).

    Returns
    -------
    ndarray of shape (c, k + 1, k + 1)
        Indexed like the rows of ``neighbors``.

    Notes
    -----
    Every block covers x_i and its k neighbours. LLE's and MLLE's blocks couple x_i to its neighbours
    (the reconstruction of x_i); LTSA's and HLLE's blocks are local tangent fits over the neighbourhood,
    which for Zhang & Zha (and SPEC §0) holds x_i itself. scikit-learn fits them over the k neighbours
    *without* x_i, so a point that is nobody's neighbour appears in no block: its row of M is zero and
    its indicator vector joins the null space. That happens (1 point of the 100 000-point swiss roll at
    k = 12), and the "embedding" is then that indicator (R_C 0.46 instead of 0.26 at 20 000 points).
    """
    if method == "standard":
        return _lle_blocks(X, neighbors, n_components, reg)
    if method == "modified":
        return _mlle_blocks(X, neighbors, n_components, eta)
    if method == "hessian":
        return _hessian_blocks(X, neighbors, n_components)
    return _ltsa_blocks(X, neighbors, n_components)


def alignment_matrix(X, neighbors, n_components, method, *, reg=1e-3):
    """The sparse alignment matrix ``M = sum_i S_i B_i S_i'`` of a locally linear method.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        From :func:`measures.nearest_neighbors`, the point first.
    n_components : int
    method : {"standard", "modified", "hessian", "ltsa"}
    reg : float, default=1e-3
        LLE's regularisation.

    Returns
    -------
    scipy.sparse.csr_array of shape (n_samples, n_samples)
        Symmetric positive semi-definite; ``M 1 = 0``.

    Notes
    -----
    The blocks are computed chunk by chunk (:func:`measures.chunks.chunk_slices`) into one triplet
    list of ``n m²`` entries (32-bit indices), then summed by one COO to CSR conversion: memory
    ``16 n m²`` bytes for the triplets, about as much again during the conversion.

    Examples
    --------
    >>> import numpy as np
    >>> from measures import nearest_neighbors
    >>> X = np.random.default_rng(0).normal(size=(60, 3))
    >>> M = alignment_matrix(X, nearest_neighbors(X, 6), 2, "ltsa")
    >>> bool(abs(M - M.T).max() < 1e-12 and np.abs(M @ np.ones(60)).max() < 1e-12)
    True
    """
    n_samples = X.shape[0]
    n_neighbors = neighbors.shape[1] - 1
    width = n_neighbors + 1  # every block covers x_i and its k neighbours (alignment_blocks)
    eta = float(np.median(np.concatenate([_mlle_ratio(X, neighbors[part], n_components) for part in
                                          chunk_slices(n_samples, 8 * (n_neighbors + 1) ** 2 * 4)]))) \
        if method == "modified" else None
    size = width * width
    rows = np.empty(n_samples * size, dtype=np.int32)
    columns = np.empty(n_samples * size, dtype=np.int32)
    data = np.empty(n_samples * size)
    for part in chunk_slices(n_samples, 8 * (n_neighbors + 1) ** 2 * 6):
        block_members = neighbors[part]
        where = slice(part.start * size, part.stop * size)
        rows[where] = np.repeat(block_members, width, axis=1).ravel()
        columns[where] = np.tile(block_members, (1, width)).ravel()
        data[where] = alignment_blocks(X, neighbors[part], n_components, method, reg=reg, eta=eta).ravel()
    matrix = coo_array((data, (rows, columns)), shape=(n_samples, n_samples))
    del rows, columns, data
    matrix = matrix.tocsr()
    matrix.sum_duplicates()
    return matrix


def _drop_constants(M, vectors):
    """The d eigenvectors of M orthogonal to the constants within the span of ``vectors`` (n x (d + 1)).

    M's null space holds the constant vector; a solver returns some basis of the bottom d + 1 eigenvectors,
    which may mix it with the next ones where their eigenvalues are as small as rounding. The component
    along ``1`` is removed exactly and the rest is re-diagonalized (Rayleigh-Ritz), ascending.
    """
    basis, _ = np.linalg.qr(vectors)
    along = basis.T @ np.full(len(basis), 1.0 / math.sqrt(len(basis)))
    # An orthonormal basis of the directions of the span orthogonal to the constants.
    _, _, right = np.linalg.svd(along[None, :])
    complement = basis @ right[1:].T
    values, rotation = np.linalg.eigh(complement.T @ (M @ complement))
    return complement @ rotation[:, np.argsort(values)]


def null_space(M, n_components, random_state, *, solver="arpack"):
    """The eigenvectors of the d smallest eigenvalues of M above its constant null vector.

    Parameters
    ----------
    M : scipy.sparse array of shape (n_samples, n_samples)
        Symmetric positive semi-definite with ``M 1 = 0`` (:func:`alignment_matrix`).
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds ARPACK's start vector.
    solver : {"arpack", "dense"}
        ``"arpack"``: shift-invert Lanczos about ``-δ``, ``δ = SHIFT * mean(diag M)``, with a sparse LU of
        ``M + δ I`` (minimum-degree ordering of ``M + M'``, no pivoting: it is positive definite).
        ``"dense"``: LAPACK's ``eigh`` on the dense matrix (O(n²) memory).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        Orthonormal, orthogonal to the constants, in ascending order of their eigenvalues.

    Raises
    ------
    scipy.sparse.linalg.ArpackNoConvergence
        If ARPACK stops first.
    RuntimeError
        If the LU factorisation fails (SuperLU's "Factor is exactly singular").
    """
    n_samples = M.shape[0]
    if solver == "dense":
        _, vectors = scipy.linalg.eigh(M.toarray(), subset_by_index=(0, n_components), overwrite_a=True)
        return _drop_constants(M, vectors)
    shift = SHIFT * float(M.diagonal().mean())
    shifted = (M + shift * identity(n_samples, format="csr")).tocsc()
    factor = splu(shifted, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    del shifted
    inverse = LinearOperator((n_samples, n_samples), matvec=factor.solve, dtype=np.float64)
    start = check_random_state(random_state).uniform(-1.0, 1.0, n_samples)
    _, vectors = eigsh(M, k=n_components + 1, sigma=-shift, which="LM", OPinv=inverse, v0=start,
                       tol=ARPACK_TOLERANCE, maxiter=ARPACK_MAX_ITERATIONS)
    return _drop_constants(M, vectors)


def alignment_memory_bytes(n_samples, n_neighbors, n_components, *, method, eigen_solver="auto"):
    """Peak memory (bytes) of :func:`locally_linear` for this size, solver and method.

    Parameters
    ----------
    n_samples, n_neighbors, n_components : int
    method : {"standard", "modified", "hessian", "ltsa"}
    eigen_solver : {"auto", "arpack", "dense"}

    Returns
    -------
    int

    Notes
    -----
    - Assembly: ``n m²`` triplets of 16 bytes, twice over during the COO to CSR conversion.
    - ``"arpack"`` (and ``"auto"``): the CSR matrix and its shifted CSC copy (12 bytes per stored entry,
      ``nnz(M) ≈ 0.3 n m²``: 0.22 measured on swiss rolls of 20 000 and 100 000 points at k = 12, plus a
      margin) and the sparse LU factor
      (:func:`algorithms.registry.sparse_factor_bytes`), plus ARPACK's ``n x 2(d + 1)`` Lanczos basis (at
      least 20 vectors).
    - ``"dense"``: the n x n matrix, overwritten in place by LAPACK, and about as much workspace.
    """
    width = n_neighbors + 1
    assembly = 2 * 16 * n_samples * width**2
    if eigen_solver == "dense":
        return assembly + 2 * 8 * n_samples**2
    nonzeros = int(0.3 * n_samples * width**2)
    lanczos = 8 * n_samples * max(20, 2 * (n_components + 1) + 1)
    return max(assembly, 2 * 12 * nonzeros + sparse_factor_bytes(n_samples, nonzeros, n_components)) + lanczos


def locally_linear(X, neighbors, n_components, random_state, *, method, eigen_solver="auto", reg=1e-3):
    """Embed X by LLE, MLLE, HLLE or LTSA: the bottom eigenvectors of the sparse alignment matrix.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods from :func:`measures.nearest_neighbors`, the point first.
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds ARPACK's start vector.
    method : {"standard", "modified", "hessian", "ltsa"}
    eigen_solver : {"auto", "arpack", "dense"}
    reg : float
        Regularisation of the local Gram matrices (LLE weights; MLLE and HLLE have their own).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        Unit-norm eigenvectors (the registry entry applies the authors' scale).

    Raises
    ------
    ConvergenceError
        ARPACK did not converge, and the dense retry was not allowed (``"arpack"`` chosen).
    SingularFactorError
        The LU factorisation failed and the dense retry was not allowed, or the dense solver failed.
    SampleLimitError
        The dense retry would exceed the memory budget.

    Notes
    -----
    ``M + δI`` is positive definite, so its factorisation does not fail on the exactly singular M of
    scikit-learn's shift 0 (SPEC §2's "Factor is exactly singular" needs no dense retry any more). If
    ARPACK still fails (no convergence within ``ARPACK_MAX_ITERATIONS``, or a factorisation failure),
    ``"auto"`` (which solves up to ``DENSE_AUTO_MAX_SAMPLES`` points densely from the start) retries
    with the dense solver when its memory estimate fits the budget, and a
    ``ProcrustesLabWarning`` says so; ``"arpack"`` raises.

    Examples
    --------
    LTSA of a flat strip is affine in its coordinates (ZZ §5):

    >>> import numpy as np
    >>> from measures import nearest_neighbors
    >>> Z = np.random.default_rng(0).uniform(size=(300, 2)) * [3.0, 1.0]
    >>> X = np.c_[Z, np.zeros(300)]
    >>> Y = locally_linear(X, nearest_neighbors(X, 10), 2, 0, method="ltsa")
    >>> affine = np.c_[Z, np.ones(300)]
    >>> bool(np.linalg.norm(affine @ np.linalg.lstsq(affine, Y, rcond=None)[0] - Y) < 1e-8)
    True
    """
    n_samples = X.shape[0]
    M = alignment_matrix(X, neighbors, n_components, method, reg=reg)
    if eigen_solver == "dense" or (eigen_solver == "auto" and n_samples <= DENSE_AUTO_MAX_SAMPLES):
        return null_space(M, n_components, random_state, solver="dense")
    try:
        return null_space(M, n_components, random_state, solver="arpack")
    except (ArpackNoConvergence, RuntimeError) as e:
        failure = ConvergenceError if isinstance(e, ArpackNoConvergence) else SingularFactorError
        if eigen_solver == "arpack":
            raise failure(f"{method}: ARPACK failed ({e}); choose eigen_solver='dense' or raise k.") from e
        needed = alignment_memory_bytes(n_samples, neighbors.shape[1] - 1, n_components, method=method,
                                        eigen_solver="dense")
        budget = memory_budget()
        if needed > budget:
            raise SampleLimitError(
                f"{method}: ARPACK failed ({e}), and the dense eigensolver would take about {format_bytes(needed)} "
                f"at n = {n_samples}, above the memory budget of {format_bytes(budget)}. Raise k, use fewer points, "
                "or add a little noise.", n_samples, None, needed, budget=budget) from e
        # stacklevel 4: locally_linear <- the registry's fit <- embed <- the caller of embed.
        warnings.warn(f"{method}: ARPACK failed ({e}); retried with the dense eigensolver.",
                      ProcrustesLabWarning, stacklevel=4)
    try:
        return null_space(M, n_components, random_state, solver="dense")
    except (ValueError, ArithmeticError, np.linalg.LinAlgError) as e:
        raise SingularFactorError(f"{method}: the dense eigensolver failed too ({e}); raise k or add noise "
                                  "to break exact degeneracies.") from e


def hessian_neighbors_bound(n_components):
    """HLLE's bound: k must exceed ``d(d+3)/2`` (d tangent and d(d+1)/2 Hessian coordinates, plus 1)."""
    return n_components * (n_components + 3) // 2


def _hessian_message(n_neighbors, n_components):
    bound = hessian_neighbors_bound(n_components)
    return (f"HLLE needs n_neighbors > d(d+3)/2 = {bound} for d={n_components}; got {n_neighbors}. "
            "Raise k or choose LTSA.")


def _lle(X, neighbors, n_components, random_state, *, eigen_solver, reg):
    return locally_linear(X, neighbors, n_components, random_state, method="standard",
                          eigen_solver=eigen_solver, reg=reg)


def _ltsa(X, neighbors, n_components, random_state, *, eigen_solver):
    return locally_linear(X, neighbors, n_components, random_state, method="ltsa", eigen_solver=eigen_solver)


def _mlle(X, neighbors, n_components, random_state, *, eigen_solver):
    return locally_linear(X, neighbors, n_components, random_state, method="modified", eigen_solver=eigen_solver)


def _hlle(X, neighbors, n_components, random_state, *, eigen_solver):
    return locally_linear(X, neighbors, n_components, random_state, method="hessian", eigen_solver=eigen_solver)


def _memory(method):
    def memory_bytes(n_samples, n_neighbors, n_components, *, eigen_solver="auto", **_):
        return alignment_memory_bytes(n_samples, n_neighbors, n_components, method=method,
                                      eigen_solver=eigen_solver)

    return memory_bytes


def _register(name, label, fit, method, output_scale, citation, description, parameters=(EIGEN_SOLVER,), **options):
    """Register one of the four methods: normalized output, memory estimated for the chosen eigensolver."""
    register(AlgorithmSpec(
        name=name, label=label, output="normalized", output_scale=output_scale, parameters=parameters, fit=fit,
        citation=citation, description=description, memory_bytes=_memory(method),
        **{"min_neighbors": lambda n_components: n_components + 1, **options}))


_register(
    "lle", "LLE", _lle, "standard", "unit_variance", "Roweis & Saul (2000); GR Table 2",
    "Reconstructs each point from its neighbours and keeps those weights in the plane.",
    parameters=(
        Parameter("reg", "Regularisation", "float", 1e-3, low=1e-8, high=10.0, log=True,
                  help="Tikhonov term added to each local Gram matrix, relative to its trace."),
        EIGEN_SOLVER,
    ),
)
_register(
    "mlle", "MLLE", _mlle, "modified", "unit_variance", "Zhang & Wang (2007); ML Figs. 3-5",
    "LLE with several linearly independent weight vectors per point, which keeps the local geometry where "
    "LLE's single regularised weights lose it.",
)
_register(
    "hlle", "HLLE", _hlle, "hessian", "unit_norm", "Donoho & Grimes (2003); PN Figs. 7-9",
    "Hessian eigenmaps: the functions with zero local Hessian on the tangent spaces, which are the isometric "
    "coordinates up to an affine map.",
    min_neighbors=lambda n_components: hessian_neighbors_bound(n_components) + 1,
    too_few_neighbors=_hessian_message,
)
_register(
    "ltsa", "LTSA", _ltsa, "ltsa", "unit_norm", "Zhang & Zha (2004); GR Table 2",
    "Aligns local tangent-space (PCA) coordinates into one global chart.",
)
