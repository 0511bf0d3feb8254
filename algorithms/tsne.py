"""t-SNE from scikit-learn, seeded: the familiar reference, scored by the same measures.

t-SNE keeps neighbourhood *probabilities*, not distances or a normalized quadratic form: its output
scale has no meaning, and only R_C (per-neighbourhood scale) and rank-based measures are fair to it.

References
----------
.. [MH] L. van der Maaten and G. Hinton, "Visualizing data using t-SNE", JMLR 9 (2008) 2579-2605.
.. [vdM] L. van der Maaten, "Accelerating t-SNE using tree-based algorithms", JMLR 15 (2014)
   3221-3245 (the Barnes-Hut approximation used for d <= 3).
"""

from sklearn.manifold import TSNE
from threadpoolctl import threadpool_limits

from measures import EmbeddingError, Parameter, seed_int

from .registry import AlgorithmSpec, register

__all__ = ["tsne", "tsne_memory_bytes"]

# scikit-learn's Barnes-Hut gradient works in at most 3 output dimensions; above, the exact O(n²) one.
_BARNES_HUT_MAX_COMPONENTS = 3


def tsne_memory_bytes(n_samples, n_neighbors, n_components, *, perplexity=30.0, **_):
    """Peak memory of scikit-learn's t-SNE: Barnes-Hut keeps the 3 perplexity nearest neighbours of each point
    (distances, conditional and joint probabilities, symmetrized: ~6 sparse copies of 16 bytes per entry)
    and its tree; the exact gradient (d > 3) holds n x n matrices (P, Q and the gradient's distances)."""
    neighbors = min(n_samples - 1, int(3 * perplexity + 1))
    if n_components > _BARNES_HUT_MAX_COMPONENTS:
        return 4 * 8 * n_samples**2
    return 6 * 16 * n_samples * neighbors + 8 * n_samples * 64


def tsne(X, neighbors, n_components, random_state, *, perplexity, early_exaggeration, max_iter):
    """Embed X with ``sklearn.manifold.TSNE``, its random start seeded from ``random_state``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : None
        Unused: t-SNE finds its own ``3 × perplexity`` neighbours (its registry entry says
        ``uses_neighbors=False``); k only sets the graph the measures score it on.
    n_components : int
    random_state : int or numpy.random.Generator
        One integer drawn from it is scikit-learn's ``random_state`` (PCA start and optimizer).
    perplexity : float
        Effective number of neighbours of each point's Gaussian (van der Maaten: 5-50).
    early_exaggeration : float
        Factor on the attractive forces in the first 250 iterations.
    max_iter : int
        Gradient-descent iterations (at least 250).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        t-SNE's coordinates as the optimizer leaves them (output scale ``"tsne"``).

    Raises
    ------
    EmbeddingError
        If ``perplexity >= n_samples``.

    Notes
    -----
    PCA initialisation and ``learning_rate="auto"`` (scikit-learn's defaults, and the choices that
    make t-SNE keep more global structure); Barnes-Hut for ``d <= 3``, the exact gradient above.

    The optimizer runs on one OpenMP thread. scikit-learn's gradient synchronises its threads at
    each of ~1000 iterations, and on a loaded machine every barrier waits for a descheduled thread:
    400 swiss-roll points took 10.5 s on 2 threads and 0.9 s on 1 at load average 4 on 2 cores,
    with identical output (the per-point forces do not depend on the thread count).
    """
    n_samples = X.shape[0]
    if perplexity >= n_samples:
        raise EmbeddingError(f"t-SNE needs perplexity < n = {n_samples}; got {perplexity:g}. Lower the perplexity "
                             "or use more points.")
    method = "barnes_hut" if n_components <= _BARNES_HUT_MAX_COMPONENTS else "exact"
    estimator = TSNE(n_components=n_components, perplexity=perplexity, early_exaggeration=early_exaggeration,
                     max_iter=max_iter, learning_rate="auto", init="pca", method=method, random_state=seed_int(random_state))
    with threadpool_limits(limits=1, user_api="openmp"):
        return estimator.fit_transform(X)


register(AlgorithmSpec(
    name="tsne",
    label="t-SNE",
    output="probabilistic",
    output_scale="tsne",
    parameters=(
        Parameter("perplexity", "perplexity", "float", 30.0, low=2.0, high=200.0,
                  help="Effective number of neighbours of each point (must stay below n)."),
        Parameter("early_exaggeration", "early exaggeration", "float", 12.0, low=1.0, high=100.0,
                  help="How tightly clusters form in the first 250 iterations."),
        Parameter("max_iter", "iterations", "int", 1000, low=250, high=10_000,
                  help="Gradient-descent iterations; the first 250 are exaggerated."),
    ),
    fit=tsne,
    citation="van der Maaten & Hinton (2008); scikit-learn's TSNE",
    description="Matches neighbour probabilities with a heavy-tailed kernel: clusters and local order, not "
                "distances or shapes.",
    uses_neighbors=False,
    memory_bytes=tsne_memory_bytes,
))
