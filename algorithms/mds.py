"""Classical multidimensional scaling of Euclidean distances (isometric scale).

References
----------
.. [T] W. S. Torgerson, "Multidimensional scaling: I. Theory and method", Psychometrika 17 (1952)
   401-419.
.. [ML] C. Aamari, lecture "From MDS to manifold learning": classical scaling and its relation to PCA.
"""

from scipy.spatial.distance import cdist

from .isomap import classical_scaling, isomap_memory_bytes
from .registry import AlgorithmSpec, register

__all__ = ["classical_mds"]


def classical_mds(X, neighbors, n_components, random_state):
    """Classical (Torgerson) scaling of the squared Euclidean distances between all points.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : None
        Unused: MDS is global (its registry entry says ``uses_neighbors=False``).
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds ARPACK's start vector.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        ``V_d Λ_d^{1/2}`` for the top eigenpairs of ``B = -½ H D² H``.

    Notes
    -----
    For Euclidean distances ``B = H X X' H``, whose top eigenvectors scaled by ``√λ`` are the
    principal component scores: classical MDS of a point cloud is PCA, computed from the n x n
    distance matrix instead of the q x q covariance (lecture). It is offered as the lecture's
    baseline and the first step of Isomap; its O(n²) memory is held against the memory budget
    (:func:`algorithms.isomap.isomap_memory_bytes`).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.decomposition import PCA
    >>> X = np.random.default_rng(0).standard_normal((50, 3)) * [3.0, 2.0, 0.5]
    >>> Y = classical_mds(X, None, 2, 0)
    >>> bool(np.allclose(np.abs(Y), np.abs(PCA(2).fit_transform(X)), atol=1e-8))
    True
    """
    return classical_scaling(cdist(X, X, "sqeuclidean"), n_components, random_state)


register(AlgorithmSpec(
    name="mds",
    label="Classical MDS",
    output="isometric",
    output_scale="isometric",
    parameters=(),
    fit=classical_mds,
    citation="Torgerson (1952); lecture (classical scaling)",
    description="Classical scaling of all pairwise Euclidean distances; for a point cloud it equals PCA.",
    uses_neighbors=False,
    memory_bytes=isomap_memory_bytes,
    alternative="pca",
))
