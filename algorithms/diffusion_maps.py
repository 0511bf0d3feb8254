"""Diffusion maps on the project's kNN graph (our implementation; SPEC §2).

scikit-learn has no diffusion maps. This one uses the shared kNN graph (SPEC §0), so the measures
score the graph the method used, and a seeded ARPACK start, so a seed fixes the output.

References
----------
.. [CL] R. R. Coifman and S. Lafon, "Diffusion maps", Applied and Computational Harmonic Analysis 21
   (2006) 5-30.
.. [PN] Y. Goldberg, A. Zakai, D. Kushnir and Y. Ritov, "Manifold learning: the price of
   normalization", JMLR 9 (2008) 1909-1939, Eq. 1 (the α-normalised kernel) and §4.3.
"""

import numpy as np
from scipy.sparse import diags_array, identity
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import ArpackNoConvergence, eigsh

from measures import DisconnectedGraphError, Parameter, SolverError, check_random_state, neighbor_graph

from .errors import ConvergenceError
from .laplacian import graph_solver_memory_bytes
from .registry import AlgorithmSpec, register

__all__ = ["SHIFT", "diffusion_kernel", "diffusion_maps"]

# Shift-invert ARPACK looks for eigenvalues of the Markov matrix near 1 + SHIFT, just above its top
# eigenvalue 1 (scikit-learn's spectral embedding shifts the Laplacian by the same -1e-5, after
# A. Knyazev): close enough to separate the crowded top eigenvalues, far enough from singular.
SHIFT = 1e-5


def diffusion_kernel(X, neighbors, epsilon):
    """The Gaussian kernel on the symmetrised kNN graph, self-loops included.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        From :func:`measures.nearest_neighbors`, the point first.
    epsilon : float
        Kernel width ε > 0, or 0 for the default: the median over points of the squared distance
        to the k-th neighbour.

    Returns
    -------
    kernel : scipy.sparse.csr_array of shape (n_samples, n_samples)
        ``K_ij = exp(-||x_i - x_j||² / ε)`` where j is among the k nearest neighbours of i or i
        among those of j, ``K_ii = 1``, and 0 elsewhere; symmetric.
    epsilon : float
        The width used.
    """
    offsets = X[neighbors[:, 1:]] - X[:, None, :]  # (n, k, q)
    squared = np.einsum("nkq,nkq->nk", offsets, offsets)
    if epsilon == 0.0:
        epsilon = float(np.median(squared[:, -1]))
    weights = neighbor_graph(neighbors, np.exp(-squared / epsilon))
    # The two directions of an edge carry the same weight, so the maximum is the union of both.
    return (weights.maximum(weights.T) + identity(X.shape[0], format="csr")).tocsr(), epsilon


def diffusion_maps(X, neighbors, n_components, random_state, *, epsilon, alpha, diffusion_time):
    """Diffusion map of X: top non-trivial eigenvectors of the α-normalised Markov matrix, scaled by λ^t.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        From :func:`measures.nearest_neighbors`, the point first.
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds ARPACK's start vector.
    epsilon : float
        Kernel width ε (0: the median squared distance to the k-th neighbour).
    alpha : float
        Density normalisation α in [0, 1]: 0 is the normalised graph Laplacian, ½ the
        Fokker-Planck operator, 1 (the default, PN's) the Laplace-Beltrami operator whatever the
        sampling density.
    diffusion_time : float
        t >= 0: the coordinates are scaled by λ^t (t = 0 gives the bare eigenvectors ψ).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        ``(λ_1^t ψ_1, ..., λ_d^t ψ_d)``, the diffusion coordinates (the authors' scale, "diffusion").

    Raises
    ------
    DisconnectedGraphError
        If kernel weights underflow to 0 so that the weighted graph falls apart (ε far too small).
    ConvergenceError
        If ARPACK does not converge.
    SolverError
        If fewer than ``n_components`` non-trivial eigenvalues are positive.

    Notes
    -----
    With the kernel K of :func:`diffusion_kernel` (CL §2.1, PN Eq. 1):

    .. math::

        q_i = \\sum_j K_{ij}, \\quad \\tilde K = Q^{-\\alpha} K Q^{-\\alpha}, \\quad
        d_i = \\sum_j \\tilde K_{ij}, \\quad P = D^{-1} \\tilde K .

    P is similar to the symmetric ``S = D^{-1/2} K̃ D^{-1/2}``, whose top d + 1 eigenpairs
    ``(λ_j, v_j)`` ARPACK finds (shift-invert about ``1 + SHIFT``); the right eigenvectors of P are
    ``ψ_j = v_j / sqrt(π)`` with the stationary distribution ``π = d / Σd``, so ``ψ_0 = 1``
    (dropped) and ``Σ_i π_i ψ_j(i)² = 1`` (CL's normalisation). Euclidean distance between the
    coordinates ``λ^t ψ`` is the diffusion distance at time t (CL Theorem 2). Everything is
    sparse: the kernel takes O(nk) memory, its LU factors (SuperLU, fill-reducing order) a few
    times more.
    """
    kernel, epsilon = diffusion_kernel(X, neighbors, epsilon)
    n_samples = X.shape[0]
    # Weights below ~1e-308 underflow to 0: with ε tiny against the neighbour distances the graph
    # the kernel really carries can fall apart though the kNN graph is connected.
    carried = kernel.copy()
    carried.eliminate_zeros()  # scipy's graph routines count stored zeros as edges
    n_parts, _ = connected_components(carried, directed=False)
    if n_parts > 1:
        raise DisconnectedGraphError(
            f"diffusion maps: with ε = {epsilon:.3g} the kernel weights of some kNN edges underflow to 0 and the "
            f"weighted graph has {n_parts} connected components; raise ε (or set it to 0 for the default).",
            n_parts)
    degree = np.asarray(kernel.sum(axis=1)).ravel()
    density_power = degree ** -alpha
    normalized = diags_array(density_power) @ kernel @ diags_array(density_power)
    markov_degree = np.asarray(normalized.sum(axis=1)).ravel()
    inverse_root = 1.0 / np.sqrt(markov_degree)
    symmetric = (diags_array(inverse_root) @ normalized @ diags_array(inverse_root)).tocsr()
    v0 = check_random_state(random_state).uniform(-1.0, 1.0, n_samples)
    try:
        # The top eigenvalues of S (all lie in [-1, 1], the first is 1) crowd near 1 as n grows, so
        # plain Lanczos on them needs ever more iterations (95 s at n = 50 000 on the swiss roll).
        # Shift-invert about σ = 1 + SHIFT spreads them: ARPACK iterates with (S - σI)^-1, whose
        # eigenvalues 1/(λ - σ) are far apart near λ = 1 (1 s at n = 50 000, same eigenpairs to 1e-10).
        # S - σI is negative definite, so its sparse LU exists; σ = 1 itself would be singular.
        eigenvalues, eigenvectors = eigsh(symmetric, k=n_components + 1, sigma=1.0 + SHIFT, which="LM", v0=v0)
    except ArpackNoConvergence as e:
        raise ConvergenceError(
            f"diffusion maps: ARPACK did not converge for the top {n_components + 1} eigenpairs of the "
            f"{n_samples}x{n_samples} Markov matrix (its leading eigenvalues crowd near 1 when ε is small against "
            "the data's extent); raise ε or k, or use fewer points.") from e
    order = np.argsort(eigenvalues)[::-1]
    eigenvalues, eigenvectors = eigenvalues[order], eigenvectors[:, order]
    if not (eigenvalues[1:] > 0).all():
        raise SolverError(f"diffusion maps: only {int((eigenvalues[1:] > 0).sum())} positive non-trivial "
                          f"eigenvalue(s), {n_components} needed; raise ε or k, or lower the output dimension.")
    stationary = markov_degree / markov_degree.sum()
    right_vectors = eigenvectors[:, 1:] / np.sqrt(stationary)[:, None]
    return right_vectors * eigenvalues[1:] ** diffusion_time


register(AlgorithmSpec(
    name="diffusion_maps",
    label="Diffusion maps",
    output="normalized",
    output_scale="diffusion",
    parameters=(
        Parameter("epsilon", "kernel width ε", "float", 0.0, low=0.0,
                  help="Width ε of the kernel exp(-|x_i - x_j|²/ε) on the kNN graph; 0 picks the median squared "
                       "distance to the k-th neighbour."),
        Parameter("alpha", "density normalisation α", "float", 1.0, low=0.0, high=1.0,
                  help="0: graph Laplacian; 1/2: Fokker-Planck; 1: Laplace-Beltrami, free of the sampling "
                       "density (PN use 1)."),
        Parameter("diffusion_time", "diffusion time t", "float", 1.0, low=0.0, high=100.0,
                  help="Coordinates are the eigenvectors scaled by λ^t; larger t shrinks the fine ones."),
    ),
    fit=diffusion_maps,
    citation="Coifman & Lafon (2006); PN Eq. 1, Figs. 4, 5, 7-9",
    description="Eigenvectors of a random walk on the Gaussian-weighted kNN graph, normalised against the "
                "sampling density; Euclidean distance in the output is diffusion distance.",
    memory_bytes=graph_solver_memory_bytes,
))
