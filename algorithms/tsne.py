"""t-SNE, seeded, in two implementations: openTSNE (FFT-accelerated) and scikit-learn's.

t-SNE keeps neighbourhood *probabilities*, not distances or a normalized quadratic form: its output
scale has no meaning, and only R_C (per-neighbourhood scale), ASIM and rank-based measures are fair to
it (output scale ``"neighbour_embedding"``).

``"tsne"`` is openTSNE [PSZ19]: its FFT-interpolated repulsion [LLS19] costs O(n) per iteration where
scikit-learn's Barnes-Hut costs O(n log n). Both on one thread, swiss roll, k = 12, the same
trustworthiness (0.9998 at 5 000, 0.9999 at 20 000) and R_C (0.111 vs 0.105, 0.146 vs 0.144),
openTSNE took 14.3 s vs 16.9 s at 5 000, 91 s vs 92 s at 20 000 (bench/neighbor_embeddings.py; 20 vs
38 s and 98 vs 120 s in a more loaded run) and 199 s vs 324 s at 50 000: the gap grows with n, at
about 1.5 times scikit-learn's memory (0.61 vs 0.40 GB peak RSS at 50 000). ``"tsne_sklearn"`` keeps
scikit-learn's: the lighter one, the reference most readers know, and the only one here with the
exact gradient, which d > 3 needs.

References
----------
.. [MH] L. van der Maaten and G. Hinton, "Visualizing data using t-SNE", JMLR 9 (2008) 2579-2605.
.. [vdM] L. van der Maaten, "Accelerating t-SNE using tree-based algorithms", JMLR 15 (2014)
   3221-3245 (the Barnes-Hut approximation used for d <= 3).
.. [LLS19] G. C. Linderman, M. Rachh, J. G. Hoskins, S. Steinerberger and Y. Kluger, "Fast
   interpolation-based t-SNE for improved visualization of single-cell RNA-seq data", Nature Methods 16
   (2019) 243-245.
.. [PSZ19] P. G. Poličar, M. Stražar and B. Zupan, "openTSNE: a modular Python library for t-SNE
   dimensionality reduction and embedding", J. Stat. Softw. 109 (2024); bioRxiv 731877 (2019).
"""

import numpy as np
from sklearn.manifold import TSNE
from threadpoolctl import threadpool_limits

from measures import EmbeddingError, Parameter, seed_int

from .registry import AlgorithmSpec, register

__all__ = ["opentsne", "opentsne_memory_bytes", "tsne", "tsne_memory_bytes"]

# openTSNE's repulsion: Barnes-Hut in at most 3 output dimensions, FFT interpolation in at most 2.
_OPENTSNE_MAX_COMPONENTS = 3
_FFT_MAX_COMPONENTS = 2
# Early exaggeration lasts this many iterations in both implementations (their defaults).
EXAGGERATION_ITERATIONS = 250

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
        t-SNE's coordinates as the optimizer leaves them (output scale ``"neighbour_embedding"``).

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
    _check_perplexity(perplexity, X.shape[0])
    method = "barnes_hut" if n_components <= _BARNES_HUT_MAX_COMPONENTS else "exact"
    estimator = TSNE(n_components=n_components, perplexity=perplexity, early_exaggeration=early_exaggeration,
                     max_iter=max_iter, learning_rate="auto", init="pca", method=method,
                     random_state=seed_int(random_state))
    with threadpool_limits(limits=1, user_api="openmp"):
        return estimator.fit_transform(X)


PERPLEXITY = Parameter("perplexity", "perplexity", "float", 30.0, low=2.0, high=200.0,
                       help="Effective number of neighbours of each point (must stay below n).")
EARLY_EXAGGERATION = Parameter("early_exaggeration", "early exaggeration", "float", 12.0, low=1.0, high=100.0,
                               help="How tightly clusters form in the first 250 iterations.")
MAX_ITER = Parameter("max_iter", "iterations", "int", 1000, low=250, high=10_000,
                     help="Gradient-descent iterations; the first 250 are exaggerated.")
TSNE_PARAMETERS = (PERPLEXITY, EARLY_EXAGGERATION, MAX_ITER)


def _check_perplexity(perplexity, n_samples):
    if perplexity >= n_samples:
        raise EmbeddingError(f"t-SNE needs perplexity < n = {n_samples}; got {perplexity:g}. Lower the perplexity "
                             "or use more points.")


def opentsne_memory_bytes(n_samples, n_neighbors, n_components, *, perplexity=30.0, **_):
    """Peak memory of openTSNE: its 3 perplexity exact neighbours (indices, distances, P: ~5 copies of 16
    bytes per entry), the FFT grid (at most a few MB in 2-D) and the optimizer's n x d arrays."""
    neighbors = min(n_samples - 1, int(3 * perplexity + 1))
    return 5 * 16 * n_samples * neighbors + 8 * n_samples * 64 + 64 * 2**20


def opentsne(X, neighbors, n_components, random_state, *, perplexity, early_exaggeration, max_iter):
    """Embed X with openTSNE's ``TSNE``: exact neighbours, PCA start, FFT repulsion for d <= 2 from n = 10 000.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : None
        Unused: t-SNE finds its own ``3 × perplexity`` neighbours (``uses_neighbors=False``).
    n_components : int
        At most 3 (openTSNE's repulsion approximations); ``"tsne_sklearn"`` has the exact gradient.
    random_state : int or numpy.random.Generator
        One integer drawn from it seeds openTSNE (PCA start's signs and jitter, the optimizer).
    perplexity, early_exaggeration, max_iter
        As for scikit-learn's (:func:`tsne`); ``max_iter`` counts the 250 exaggerated iterations.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        openTSNE's coordinates as the optimizer leaves them (output scale ``"neighbour_embedding"``).

    Raises
    ------
    EmbeddingError
        ``perplexity >= n_samples``, or more than 3 output dimensions.

    Notes
    -----
    ``neighbors="exact"`` (a ball tree; openTSNE's default switches to approximate Annoy search above
    1 000 points) makes the affinities a function of X alone. ``negative_gradient_method`` is
    openTSNE's ``"auto"`` (Barnes-Hut below 10 000 points, FFT interpolation above) where it applies,
    Barnes-Hut for d = 3. Each point's gradient is summed by one thread, so the output does not
    depend on the thread count (identical for 1 and 2 threads on the swiss roll); the run uses one
    (``n_jobs=1``) for the reason scikit-learn's does (:func:`tsne`): under load on this two-core
    machine 3 000 points took 25-31 s on 2 threads and 6-9 s on 1.
    """
    import openTSNE

    n_samples = X.shape[0]
    _check_perplexity(perplexity, n_samples)
    if n_components > _OPENTSNE_MAX_COMPONENTS:
        raise EmbeddingError(f"openTSNE embeds in at most {_OPENTSNE_MAX_COMPONENTS} dimensions; got n_components = "
                             f"{n_components}. Choose 'tsne_sklearn' (exact gradient) or lower the output dimension.")
    method = "auto" if n_components <= _FFT_MAX_COMPONENTS else "bh"
    estimator = openTSNE.TSNE(
        n_components=n_components, perplexity=perplexity, early_exaggeration=early_exaggeration,
        early_exaggeration_iter=EXAGGERATION_ITERATIONS, n_iter=max_iter - EXAGGERATION_ITERATIONS,
        learning_rate="auto", initialization="pca", neighbors="exact", negative_gradient_method=method, n_jobs=1,
        random_state=seed_int(random_state), verbose=False)
    return np.asarray(estimator.fit(X), dtype=np.float64)


register(AlgorithmSpec(
    name="tsne",
    label="t-SNE",
    output="neighbour_embedding",
    output_scale="neighbour_embedding",
    parameters=TSNE_PARAMETERS,
    fit=opentsne,
    citation="van der Maaten & Hinton (2008); openTSNE (Poličar et al.), FFT of Linderman et al. (2019)",
    description="Matches neighbour probabilities with a heavy-tailed kernel: clusters and local order, not "
                "distances or shapes.",
    uses_neighbors=False,
    memory_bytes=opentsne_memory_bytes,
))
register(AlgorithmSpec(
    name="tsne_sklearn",
    label="t-SNE (scikit-learn)",
    output="neighbour_embedding",
    output_scale="neighbour_embedding",
    parameters=TSNE_PARAMETERS,
    fit=tsne,
    citation="van der Maaten & Hinton (2008); scikit-learn's TSNE (Barnes-Hut, van der Maaten 2014)",
    description="scikit-learn's t-SNE: Barnes-Hut repulsion up to 3 dimensions, the exact gradient above.",
    uses_neighbors=False,
    memory_bytes=tsne_memory_bytes,
))
