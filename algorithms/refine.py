"""Procrustes refinement of any embedding (GR §4.4) and the global solve of GR Eq. 11.

Given the input X and an embedding Y, :func:`refine` lowers the local Procrustes measure R (GR Eq. 3)
by block-coordinate descent on

.. math::

    F(Y, A, b) = \\sum_i \\sum_{j \\in N_i} \\| x_j - A_i y_j - b_i \\|^2,
    \\qquad A_i' A_i = I_d,

alternating the Procrustes rotations ``A_i`` and translations ``b_i`` of every neighbourhood (GR Eq. 12)
with a Y-step. Each step minimizes F over its own block exactly, so R never increases (SPEC §2). The
same sparse solve embeds PSA's aligned bases (:func:`embed_from_rotations`).

References
----------
.. [GR] Y. Goldberg and Y. Ritov, "Local Procrustes for manifold embedding: a measure of embedding
   quality and embedding algorithms", Machine Learning 77 (2009) 1-25.
"""

import math
import warnings
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import csr_array, diags_array
from scipy.sparse.linalg import splu

from measures import (
    EmbeddingError,
    Parameter,
    ProcrustesLabWarning,
    SolverError,
    check_connected,
    check_points,
    local_procrustes,
    procrustes_rotation,
)
from measures.chunks import CHUNK_BYTES, chunk_slices

from .longrun import RunHooks
from .neighbors import check_neighbors
from .registry import sparse_factor_bytes

__all__ = [
    "REFINE_ITERATIONS",
    "REFINE_METHOD",
    "AlignmentSystem",
    "embed_from_rotations",
    "refine",
    "refinement_memory_bytes",
    "refinement_parameters",
    "run_refinement",
]

REFINE_ITERATIONS = Parameter(
    "refine_iterations", "Refinement iterations", "int", 20, low=0, high=1000,
    help="Procrustes refinement sweeps after the embedding (GR §4.4); each never raises R.")
REFINE_METHOD = Parameter(
    "refine_method", "Refinement Y-step", "choice", "exact", choices=("iterative", "exact"),
    help="'iterative': GR Eq. 13, each point to the mean of its neighbourhoods' fits (cheap, slow on "
         "low-frequency errors); 'exact': GR Eq. 11 by sparse conjugate gradients (removes them).")


# Largest Laplacian (stored entries) factorized for the exact Y-step: ~3.7 million for 100 000 points at
# k = 12, whose factor holds ~37 million entries (~0.5 GB). Beyond it, Jacobi-preconditioned CG.
DIRECT_MAX_NONZEROS = 8_000_000


def refinement_memory_bytes(n_samples, n_neighbors, n_components):
    """Peak memory of a refinement (:class:`AlignmentSystem` and its solve) on top of its inputs.

    The incidence matrix and its transpose (12 bytes per entry), the Laplacian built for the factorization
    (about ``0.3 n (k + 1)²`` entries, twice) and, up to :data:`DIRECT_MAX_NONZEROS` of them, its sparse LU
    factor (:func:`algorithms.registry.sparse_factor_bytes`), plus the chunked neighbourhood stacks and the
    conjugate-gradient vectors.
    """
    width = n_neighbors + 1
    nonzeros = int(0.3 * n_samples * width**2)
    factor = sparse_factor_bytes(n_samples, nonzeros, n_components) if nonzeros <= DIRECT_MAX_NONZEROS else 0
    return 2 * 12 * n_samples * width + 2 * 12 * nonzeros + factor + 8 * 8 * n_samples * n_components + CHUNK_BYTES


def refinement_parameters():
    """The registry parameters shared by every algorithm followed by refinement (GP, PSA)."""
    return (REFINE_ITERATIONS, REFINE_METHOD)


def _scatter_add(values, neighbors, out):
    """Add ``values[i, a]`` to ``out[neighbors[i, a]]`` for a stack of neighbourhoods.

    ``values`` is (c, k+1, d), ``neighbors`` (c, k+1), ``out`` (n, d). ``numpy.bincount`` per column is
    an order of magnitude faster than ``numpy.add.at`` for this many repeated indices.
    """
    flat = neighbors.ravel()
    for column in range(out.shape[1]):
        out[:, column] += np.bincount(flat, weights=values[:, :, column].ravel(), minlength=out.shape[0])


class AlignmentSystem:
    """The normal equations of GR Eq. 8 over a fixed neighbour graph: ``(sum_i H_i) Y = sum_i H_i X A_i``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods, the point first (:func:`measures.nearest_neighbors`).

    Notes
    -----
    With ``S`` the (n, n) 0/1 incidence matrix of the neighbourhoods (``S_ij = 1`` if ``j`` is in
    ``N_i``), ``m = k + 1`` and ``c_j`` the number of neighbourhoods holding ``j``,

    .. math::

        L = \\sum_i H_i = \\mathrm{diag}(c) - S' S / m,

    a graph Laplacian (weights ``(S'S)_{jl}/m`` count the neighbourhoods shared by ``j`` and ``l``): sparse,
    positive semi-definite, with the constants as null space when the graph is connected. It is applied
    as two sparse products with ``S`` rather than formed (half the memory traffic). The right-hand side
    sums to zero over the points, so the singular system is consistent; the mean of Y is fixed at 0.
    """

    def __init__(self, X, neighbors):
        self.X = X
        self.neighbors = neighbors
        n_samples, width = neighbors.shape
        rows = np.repeat(np.arange(n_samples, dtype=np.int32), width)
        self.incidence = csr_array((np.ones(rows.size), (rows, neighbors.ravel().astype(np.int32))),
                                   shape=(n_samples, n_samples))
        self.incidence_t = self.incidence.T.tocsr()
        self.counts = np.bincount(neighbors.ravel(), minlength=n_samples).astype(np.float64)
        self.width = width
        # diag(L)_j = c_j - c_j / m: the Jacobi preconditioner.
        self.diagonal = self.counts * (1.0 - 1.0 / width)
        self.x_means = self.neighbourhood_means(X)
        self._precondition = None
        self.preconditioner_name = None
        self.unconverged_solves = 0

    def apply(self, Y):
        """``L Y`` for Y of shape (n_samples, d)."""
        return self.counts[:, None] * Y - self.incidence_t @ (self.incidence @ Y) / self.width

    def neighbourhood_means(self, points):
        """``mean(points[N_i])`` for every neighbourhood, shape (n_samples, dim): one sparse product."""
        return self.incidence @ points / self.width

    def _chunks(self, dim):
        """Slices of the neighbourhood axis for stacks with ``dim`` columns in total (X's and Y's)."""
        return chunk_slices(self.neighbors.shape[0], 8 * self.width * (2 * dim + 2))

    def rhs(self, rotations):
        """``sum_i H_i X A_i`` (GR Eqs. 10-11), shape (n_samples, d)."""
        out = np.zeros((self.X.shape[0], rotations.shape[2]))
        for part in self._chunks(self.X.shape[1] + rotations.shape[2]):
            block = self.neighbors[part]
            _scatter_add((self.X[block] - self.x_means[part, None, :]) @ rotations[part], block, out)
        return out

    def procrustes_sweep(self, Y, *, add_means):
        """One A-step with the matching sums for the Y-step, in a single pass over the neighbourhoods.

        Parameters
        ----------
        Y : ndarray of shape (n_samples, d)
        add_means : bool
            False: return ``sum_i H_i X A_i`` (the rhs of GR Eq. 11). True: return the sums of
            ``mean Y_i + (x_j - mean X_i) A_i`` over the neighbourhoods holding each j, whose mean
            is GR Eq. 13 (``A_i'(x_j - b_i)`` with Eq. 12's ``b_i`` and ``A_i'A_i = I``).

        Returns
        -------
        R : float
            R(X, Y) of GR Eq. 3, as ``mean(||H X_i||^2 + ||H Y_i||^2 - 2 nuc(M_i))`` with
            ``nuc(M_i) = tr(A_i' M_i)`` at the Procrustes rotation.
        sums : ndarray of shape (n_samples, d)
        """
        y_means = self.neighbourhood_means(Y)
        out = np.zeros_like(Y)
        total = 0.0
        for part in self._chunks(self.X.shape[1] + Y.shape[1]):
            block = self.neighbors[part]
            Xc = self.X[block] - self.x_means[part, None, :]
            Yc = Y[block] - y_means[part, None, :]
            fits = Xc @ procrustes_rotation(Xc, Yc)
            total += np.einsum("nkq,nkq->", Xc, Xc) + np.einsum("nkd,nkd->", Yc, Yc) \
                - 2.0 * np.einsum("nkd,nkd->", fits, Yc)
            if add_means:
                fits += y_means[part, None, :]
            _scatter_add(fits, block, out)
        return total / Y.shape[0], out

    def _preconditioner(self):
        """The preconditioner of :meth:`solve`, built once per graph: ``r -> z`` on (n, d) arrays.

        Up to :data:`DIRECT_MAX_NONZEROS` stored entries of L, an exact one: a sparse LU factorization
        (SuperLU, minimum-degree ordering of L + L', no pivoting: L is symmetric and diagonally
        dominant) of L with the first point's row and column removed. For a consistent r this gives
        ``L z = r`` exactly (the removed equation is minus the sum of the others), so CG converges in
        one step; it costs ~3 s and ~0.5 GB once for 100 000 points at k = 12, then 0.06 s per solve.
        Above that size, Jacobi (``diag(L)``), whose CG needs O(sqrt(n)) iterations.
        """
        if self._precondition is not None:
            return self._precondition
        laplacian = (diags_array(self.counts) - (self.incidence_t @ self.incidence) / self.width).tocsc()
        if laplacian.nnz <= DIRECT_MAX_NONZEROS:
            factor = splu(laplacian[1:, 1:], permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                          options={"SymmetricMode": True})

            def exact(residual):
                out = np.zeros_like(residual)
                out[1:] = factor.solve(residual[1:])
                return out

            self.preconditioner_name, self._precondition = "sparse LU of the grounded Laplacian", exact
        else:
            self.preconditioner_name = "Jacobi"
            self._precondition = lambda residual: residual / self.diagonal[:, None]
        return self._precondition

    def solve(self, rhs, start, hooks, *, rtol=1e-10, max_iter=None):
        """Solve ``L Y = rhs`` by preconditioned conjugate gradients, all d columns at once.

        Parameters
        ----------
        rhs : ndarray of shape (n_samples, d)
            Columns summing to zero (as ``sum_i H_i X A_i`` does).
        start : ndarray of shape (n_samples, d)
            Initial guess (the current embedding: a warm start).
        hooks : RunHooks
        rtol : float
            Stop when every column's residual norm is below ``rtol`` times its right-hand side's.
        max_iter : int, optional
            Default ``max(500, 20 sqrt(n))``; with Jacobi a Laplacian's condition number grows like
            the squared graph diameter, ~n for a 2-D manifold, and CG needs about its square root.

        Returns
        -------
        ndarray of shape (n_samples, d)
            The solution with zero mean. A solve that reached ``max_iter`` first is counted in
            ``unconverged_solves``.

        Notes
        -----
        For a consistent singular PSD system CG stays in the range of L, and the quadratic
        ``Y'LY - 2 Y'rhs`` decreases at every iteration from the start (Kaasschieter 1988), so a
        solve stopped early still lowers F: refinement stays monotone at any tolerance.
        """
        precondition = self._preconditioner()
        n_samples = rhs.shape[0]
        max_iter = max(500, int(20 * math.sqrt(n_samples))) if max_iter is None else max_iter
        Y = start - start.mean(axis=0)
        residual = rhs - self.apply(Y)
        target = rtol * np.linalg.norm(rhs, axis=0)
        preconditioned = precondition(residual)
        direction = preconditioned.copy()
        rho = np.einsum("nd,nd->d", residual, preconditioned)
        for _ in range(max_iter):
            active = np.linalg.norm(residual, axis=0) > target
            if not active.any():
                break
            hooks.tick()
            product = self.apply(direction)
            curvature = np.einsum("nd,nd->d", direction, product)
            # A converged column stops moving (its curvature may be 0: no 0/0 step).
            step = np.where(active & (curvature > 0), rho / np.where(curvature > 0, curvature, 1.0), 0.0)
            Y += step * direction
            residual -= step * product
            preconditioned = precondition(residual)
            rho_next = np.einsum("nd,nd->d", residual, preconditioned)
            direction = preconditioned + np.where(rho > 0, rho_next / np.where(rho > 0, rho, 1.0), 0.0) * direction
            rho = rho_next
        else:
            self.unconverged_solves += 1
        if not np.isfinite(Y).all():
            raise SolverError("the sparse solve of GR Eq. 11 returned non-finite values; the neighbour graph "
                              "may be degenerate (duplicate points). Raise k.")
        return Y - Y.mean(axis=0)


def embed_from_rotations(X, neighbors, rotations, start=None, *, hooks=None, system=None):
    """The embedding minimizing R(X, Y | A_1..A_n) for given rotations (GR Eqs. 8 and 11).

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
    rotations : ndarray of shape (n_samples, q, d)
        ``A_i`` with orthonormal columns (PSA's aligned bases ``P_i O_i``).
    start : ndarray of shape (n_samples, d), optional
        Warm start for conjugate gradients (zeros otherwise).
    hooks : RunHooks, optional
    system : AlignmentSystem, optional
        The system of ``(X, neighbors)`` when the caller has it (its factorization is reused).

    Returns
    -------
    ndarray of shape (n_samples, d)
        ``Y = (sum_i H_i)^+ sum_i H_i X A_i``, centred.

    Notes
    -----
    GR Eq. 10 prints the gradient with both signs swapped relative to Eq. 8's ``X - Y A_i'``; setting
    the gradient of Eq. 8 to zero gives ``(sum_i H_i) Y = sum_i H_i X A_i`` (SPEC §2), solved by sparse
    conjugate gradients instead of the generalized inverse (GR end of §4.2); the preconditioner is a
    sparse LU factor of the grounded Laplacian, so CG converges in a step or two
    (:meth:`AlignmentSystem.solve`).

    Examples
    --------
    The tangent bases of a flat strip, exactly aligned, give back the strip up to a translation:

    >>> import numpy as np
    >>> from measures import nearest_neighbors
    >>> Z = np.random.default_rng(0).uniform(size=(200, 2)) * [4.0, 1.0]
    >>> X = np.c_[Z, np.zeros(200)]
    >>> A = np.broadcast_to(np.eye(3)[:, :2], (200, 3, 2))
    >>> Y = embed_from_rotations(X, nearest_neighbors(X, 8), A)
    >>> bool(np.allclose(Y, Z - Z.mean(axis=0), atol=1e-6))
    True
    """
    system = AlignmentSystem(X, neighbors) if system is None else system
    rhs = system.rhs(rotations)
    start = np.zeros_like(rhs) if start is None else start
    return system.solve(rhs, start, hooks if hooks is not None else RunHooks())


def _mean_raw_procrustes(X, Y, neighbors):
    """R(X, Y) of GR Eq. 3 (mean of the rigid Procrustes statistic) and the R-optimal global scale."""
    local = local_procrustes(X, Y, neighbors)
    scale_denominator = local.output_sq_norm.sum()
    scale = local.nuclear_norm.sum() / scale_denominator if scale_denominator > 0 else 1.0
    return float(local.raw.mean()), float(scale)


def refine(X: ArrayLike, Y: ArrayLike, neighbors: int | ArrayLike, *,
           refine_iterations: int = REFINE_ITERATIONS.default, refine_method: str = REFINE_METHOD.default,
           rescale: bool = True, tol: float = 0.0,
           progress: Callable[[float, dict], None] | None = None,
           should_stop: Callable[[], bool] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Lower the local Procrustes measure R of an embedding by GR §4.4's block-coordinate descent.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        Input points.
    Y : array-like of shape (n_samples, d)
        Any embedding of X (from any algorithm, at any scale).
    neighbors : int or ndarray of shape (n_samples, k + 1)
        k, or the neighbourhoods of :func:`measures.nearest_neighbors` (so the graph an algorithm used
        is reused; SPEC §0).
    refine_iterations : int, default=20
        Number of (A-step, Y-step) sweeps, in ``[0, 1000]``.
    refine_method : {"exact", "iterative"}, default="exact"
        Y-step: ``"iterative"`` is GR Eq. 13, ``"exact"`` solves GR Eq. 11 for the current rotations
        by sparse conjugate gradients.
    rescale : bool, default=True
        First multiply Y by the one factor ``c = sum nuc(M_i) / sum ||H Y_i||^2`` minimizing R(X, cY):
        a normalized output (LLE, LTSA) then starts at the input's scale. It never raises R either.
    tol : float, default=0.0
        Stop early once an iteration lowers R by less than ``tol`` times its value.
    progress : callable, optional
        ``progress(fraction, info)``, ``info = {"stage": "refine", "step", "R"}``.
    should_stop : callable, optional
        Checked at least every 0.05 s; returning True raises :class:`algorithms.longrun.Cancelled`.

    Returns
    -------
    Y : ndarray of shape (n_samples, d)
        The refined embedding (centred when ``refine_method="exact"``).
    trace : ndarray of shape (n_done + 1,)
        R (GR Eq. 3, the mean rigid Procrustes statistic) of the input and after each iteration;
        non-increasing.

    Raises
    ------
    EmbeddingError
        Mismatched rows, NaN/inf, a bad ``neighbors``, ``refine_iterations`` or ``refine_method``.
    DisconnectedGraphError
        ``refine_method="exact"`` on a neighbour graph of several components.
    Cancelled
        ``should_stop`` returned True.

    Notes
    -----
    A-step (GR Eq. 12): ``A_i`` is the Procrustes rotation of ``H Y_i`` onto ``H X_i``
    (:func:`measures.procrustes_rotation`, batched) and ``b_i = mean X_i - A_i mean Y_i``; then ``F = n R(X, Y)``.
    Y-step, iterative (Eq. 13):

    .. math::

        y_j = \\frac{1}{|\\{i: j \\in N_i\\}|} \\sum_{i: j \\in N_i} A_i'(x_j - b_i),

    the exact minimizer of F over Y for fixed ``A_i, b_i``. Exact: minimize over Y and the ``b_i``
    together, ``(sum_i H_i) Y = sum_i H_i X A_i`` (Eq. 11). Either way F cannot rise, and the next
    A-step lowers it to ``n R`` again, so the trace is monotone. Local sweeps damp only
    high-frequency errors (SPEC §2: 300 iterations leave LLE's swiss roll at R_N ~ 0.15); the exact
    step removes global bends in one solve.

    Examples
    --------
    A flat strip embedded with a bend is straightened, and R never rises:

    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(300, 2)) * [3.0, 1.0]
    >>> X = np.c_[Z, np.zeros(300)]
    >>> bent = np.c_[Z[:, 0], Z[:, 1] + 0.3 * Z[:, 0] ** 2]
    >>> Y, trace = refine(X, bent, 8, refine_iterations=5)
    >>> bool(np.all(np.diff(trace) <= 1e-12 * trace[0]) and trace[-1] < 0.01 * trace[0])
    True
    """
    X = check_points(X, "X", error=EmbeddingError)
    Y = check_points(Y, "Y", error=EmbeddingError)
    if X.shape[0] != Y.shape[0]:
        raise EmbeddingError(f"X and Y must have the same number of rows (points); got X {X.shape} and Y {Y.shape}.")
    if Y.shape[1] > X.shape[1]:
        raise EmbeddingError(f"the embedding cannot have more columns than the input: Y {Y.shape}, X {X.shape}.")
    refine_iterations = REFINE_ITERATIONS.check(refine_iterations, "refine", EmbeddingError)
    refine_method = REFINE_METHOD.check(refine_method, "refine", EmbeddingError)
    neighbors = check_neighbors(X, neighbors)
    if refine_method == "exact" and refine_iterations > 0:
        check_connected(neighbors, "the exact Y-step cannot place them relative to each other",
                        "Raise k, or use refine_method='iterative'.")
    hooks = RunHooks(progress, should_stop, "refine")
    return run_refinement(X, Y, neighbors, refine_iterations, refine_method, hooks, rescale=rescale, tol=tol)


def run_refinement(X, Y, neighbors, refine_iterations, refine_method, hooks, *, rescale=True, tol=0.0, system=None):
    """:func:`refine` on input already checked, for the algorithms that end with a refinement (GP, PSA).

    Parameters
    ----------
    X, Y, neighbors, refine_iterations, refine_method, rescale, tol
        As for :func:`refine`, but trusted: float64 arrays of matching rows, a neighbour array of
        :func:`measures.nearest_neighbors`, a connected graph for ``refine_method="exact"``.
    hooks : algorithms.longrun.RunHooks
        Progress and cancellation of the caller's run (a stage of it).
    system : AlignmentSystem, optional
        The system of ``(X, neighbors)`` when the caller has built it (PSA's GR Eq. 11 solve): its
        factorization is reused.

    Returns
    -------
    Y, trace
        As for :func:`refine`.
    """
    system = AlignmentSystem(X, neighbors) if system is None else system
    Y = np.array(Y, dtype=np.float64)
    value, scale = _mean_raw_procrustes(X, Y, neighbors)
    trace = [value]
    if rescale and refine_iterations > 0 and scale > 0:
        Y *= scale
    for iteration in range(refine_iterations):
        # The sweep's A-step scores the current Y: R of the previous iteration's result, for free.
        value, sums = system.procrustes_sweep(Y, add_means=refine_method == "iterative")
        if iteration > 0:
            trace.append(value)
            if tol > 0 and trace[-2] - value < tol * trace[-2]:
                break
        hooks.report(iteration / refine_iterations, {"stage": "refine", "step": iteration, "R": value})
        Y = sums / system.counts[:, None] if refine_method == "iterative" else system.solve(sums, Y, hooks)
    else:
        if refine_iterations:
            trace.append(_mean_raw_procrustes(X, Y, neighbors)[0])
    if system.unconverged_solves:
        warnings.warn(f"refine: {system.unconverged_solves} exact Y-step(s) stopped at the iteration limit of "
                      f"conjugate gradients ({system.preconditioner_name} preconditioner); R still did not rise, but "
                      "more iterations are needed for the exact step's full effect.",
                      ProcrustesLabWarning, stacklevel=3)
    if refine_iterations:
        hooks.report(1.0, {"stage": "refine", "step": len(trace) - 1, "R": trace[-1]})
    return Y, np.array(trace)
