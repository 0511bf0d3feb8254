"""Isomap: classical scaling of k-nearest-neighbour graph geodesics (isometric scale).

Built on the project's one kNN routine rather than scikit-learn's ``Isomap`` so that the measures
score exactly the graph the algorithm used (SPEC §0) and the eigensolver start is seeded.

References
----------
.. [TSL] J. B. Tenenbaum, V. de Silva and J. C. Langford, "A global geometric framework for nonlinear
   dimensionality reduction", Science 290 (2000) 2319-2323.
.. [ML] C. Aamari, lecture "From MDS to manifold learning" (classical scaling, Isomap).
"""

import numpy as np
from scipy.sparse.linalg import ArpackNoConvergence, eigsh

from measures import SolverError, all_geodesics, check_random_state, geodesic_graph, power_of_two_scaled

from .errors import ConvergenceError
from .registry import AlgorithmSpec, register

__all__ = ["classical_scaling", "dense_matrix_bytes", "isomap", "isomap_memory_bytes"]


def dense_matrix_bytes(n_samples):
    """Memory of one dense n x n float64 matrix (Isomap's geodesics, MDS's squared distances): 8 n² bytes."""
    return 8 * n_samples**2


def isomap_memory_bytes(n_samples, n_neighbors, n_components, **_):
    """Peak memory of :func:`isomap` and of classical MDS: the n x n matrix, squared and double-centred in
    place, plus ARPACK's Lanczos basis (at least 20 vectors of n) and the graph's 2 n k edges.

    At n = 20 000 this is 3.2 GB; the 3.1 GB peak measured there (PERFORMANCE.md) is the matrix.
    """
    return dense_matrix_bytes(n_samples) + 8 * n_samples * max(20, 2 * n_components + 1) \
        + 2 * 16 * n_samples * n_neighbors


def classical_scaling(squared_distances, n_components, random_state):
    """Classical (Torgerson) multidimensional scaling of a squared-distance matrix.

    Parameters
    ----------
    squared_distances : ndarray of shape (n_samples, n_samples)
        Symmetric matrix of squared distances. Overwritten (it is the largest array in play).
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds the Lanczos start vector.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        ``V_d Λ_d^{1/2}`` for the top eigenpairs of ``B = -½ H D² H``.

    Raises
    ------
    ConvergenceError
        If ARPACK does not converge.
    SolverError
        If B has fewer than ``n_components`` positive eigenvalues (distances far from
        Euclidean): such a coordinate would be imaginary.

    Notes
    -----
    Double centring is done in place: ``B_ij = -½ (D²_ij - r_i - r_j + m)`` with row means ``r`` and
    grand mean ``m`` (lecture, classical scaling).
    """
    B = squared_distances
    row_means = B.mean(axis=1)
    B -= row_means[:, None]
    B -= row_means[None, :]
    B += row_means.mean()
    B *= -0.5
    n_samples = B.shape[0]
    v0 = check_random_state(random_state).uniform(-1.0, 1.0, n_samples)
    try:
        eigenvalues, eigenvectors = eigsh(B, k=n_components, which="LA", v0=v0)
    except ArpackNoConvergence as e:
        raise ConvergenceError(f"classical scaling: ARPACK did not converge for {n_components} eigenpairs of an "
                               f"{n_samples}x{n_samples} matrix; try another k or fewer points.") from e
    order = np.argsort(eigenvalues)[::-1]
    eigenvalues, eigenvectors = eigenvalues[order], eigenvectors[:, order]
    # B always has the eigenvalue 0 (constant vector), computed as +-n eps lambda_1: a d-th eigenvalue
    # that small is that null direction or rounding, not a coordinate.
    positive = eigenvalues > n_samples * np.finfo(float).eps * max(eigenvalues[0], 0.0)
    if not positive.all():
        raise SolverError(f"classical scaling: only {int(positive.sum())} positive eigenvalue(s), "
                          f"{n_components} needed; the distances are far from Euclidean or span fewer "
                          "dimensions. Raise k or lower the output dimension.")
    return eigenvectors * np.sqrt(eigenvalues)


def isomap(X, neighbors, n_components, random_state):
    """Isomap embedding (Tenenbaum et al. 2000).

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods from :func:`measures.nearest_neighbors`, the point first.
    n_components : int
    random_state : int or numpy.random.Generator

    Returns
    -------
    ndarray of shape (n_samples, n_components)

    Notes
    -----
    Edges join each point to its k nearest neighbours, weighted by Euclidean length and taken as
    undirected; geodesics are Dijkstra shortest paths; classical scaling embeds them. Memory is
    O(n²) for the geodesic matrix: where :func:`isomap_memory_bytes` exceeds the memory budget the input is refused,
    naming Landmark Isomap (:mod:`algorithms.landmark_isomap`), which needs O(m n) for m landmarks.
    """
    # The graph of the points scaled by a power of two, as the measures scale them (measures.evaluate):
    # the same graph, bit for bit, so they read this pass's rows instead of running Dijkstra again
    # (measures.all_geodesics). Scaling by 2**e is exact, so the geodesics are those of X.
    scaled, exponent = power_of_two_scaled(np.asarray(X, dtype=float))
    geodesics = all_geodesics(geodesic_graph(scaled, neighbors, both_directions=True))
    np.ldexp(geodesics, exponent, out=geodesics)  # in place: a second n x n array was 3.2 GB at 20 000 points
    return classical_scaling(np.square(geodesics, out=geodesics), n_components, random_state)


register(AlgorithmSpec(
    name="isomap",
    label="Isomap",
    output="isometric",
    output_scale="isometric",
    parameters=(),
    fit=isomap,
    citation="Tenenbaum, de Silva & Langford (2000); GR Table 2",
    description="Classical scaling of shortest-path distances on the k-nearest-neighbour graph.",
    memory_bytes=isomap_memory_bytes,
    alternative="landmark_isomap",
))
