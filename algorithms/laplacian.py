"""Laplacian eigenmaps on the project's kNN graph (unit-variance output).

References
----------
.. [BN] M. Belkin and P. Niyogi, "Laplacian eigenmaps for dimensionality reduction and data
   representation", Neural Computation 15 (2003) 1373-1396.
"""

from sklearn.manifold import spectral_embedding

from measures import neighbor_graph, seed_int

from .registry import AlgorithmSpec, register, sparse_factor_bytes

__all__ = ["graph_solver_memory_bytes", "laplacian_eigenmaps"]


def graph_solver_memory_bytes(n_samples, n_neighbors, n_components, **_):
    """Peak memory of a shift-invert eigensolve on the symmetrised kNN graph (Laplacian eigenmaps, diffusion
    maps): a few sparse copies of the graph's ~2 n k entries (12 bytes each), the LU factor
    (:func:`algorithms.registry.sparse_factor_bytes`, doubled: scikit-learn's ``spectral_embedding``
    lets SuperLU pivot, with its default COLAMD ordering) and ARPACK's Lanczos basis."""
    nonzeros = 2 * n_samples * (n_neighbors + 1)
    return 6 * 12 * nonzeros + 2 * sparse_factor_bytes(n_samples, nonzeros, n_components) \
        + 8 * n_samples * max(20, 2 * n_components + 3)


def laplacian_eigenmaps(X, neighbors, n_components, random_state):
    """Laplacian eigenmaps with 0/1 weights on the symmetrised kNN graph (PN §2's LEM).

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods from :func:`measures.nearest_neighbors`, the point first.
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds the eigensolver's start vector.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        The non-trivial eigenvectors of the normalized graph Laplacian after scikit-learn's
        ``spectral_embedding``; the registry entry rescales them to unit variance (SPEC §2).

    Notes
    -----
    ``w_ij = 1`` when j is among the k nearest neighbours of i or i among those of j. The graph is
    built by :func:`measures.nearest_neighbors`, so it is the one the measures use (scikit-learn's
    own ``affinity="nearest_neighbors"`` counts the point among its k neighbours).
    """
    adjacency = neighbor_graph(neighbors)
    weights = adjacency.maximum(adjacency.T)
    return spectral_embedding(weights, n_components=n_components, eigen_solver="arpack",
                              random_state=seed_int(random_state), drop_first=True)


register(AlgorithmSpec(
    name="laplacian",
    label="Laplacian eigenmaps",
    output="normalized",
    output_scale="unit_variance",
    parameters=(),
    fit=laplacian_eigenmaps,
    citation="Belkin & Niyogi (2003); PN §2",
    description="Smoothest non-constant functions on the neighbour graph; normalizes its output.",
    memory_bytes=graph_solver_memory_bytes,
))
