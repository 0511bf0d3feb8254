"""Principal component analysis: the linear baseline (isometric scale)."""

from sklearn.decomposition import PCA

from .registry import AlgorithmSpec, register

__all__ = ["pca"]


def pca(X, neighbors, n_components, random_state):
    """Project X on its top ``n_components`` principal axes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : None
        Unused: PCA is global (its registry entry says ``uses_neighbors=False``).
    n_components : int
    random_state : int or numpy.random.Generator
        Unused: the full SVD is deterministic.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        Principal coordinates, at the input's scale.
    """
    return PCA(n_components=n_components, svd_solver="full").fit_transform(X)


register(AlgorithmSpec(
    name="pca",
    label="PCA",
    output="isometric",
    output_scale="isometric",
    parameters=(),
    fit=pca,
    citation="Pearson (1901); GR Lemma 1",
    description="Linear projection on the top principal axes; exact only for flat, linearly placed data.",
    uses_neighbors=False,
    # The full SVD of the centred n x q input: the copy, U (n x min(n, q)) and the n x d scores.
    memory_bytes=lambda n_samples, n_neighbors, n_components, **_: 8 * n_samples * (n_components + 64),
))
