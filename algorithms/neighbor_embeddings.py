"""UMAP and PaCMAP: the neighbour-embedding methods most used today, seeded and scored by the same measures.

Like t-SNE (:mod:`algorithms.tsne`) they lay out the k-nearest-neighbour graph by attraction between
neighbours and repulsion between the rest (Böhm, Berens & Kobak 2022 place the three on one spectrum):
their outputs are neither isometric nor normalized, the overall scale and the gaps between clusters
carry no meaning, and the measures to read are R_C, ASIM, trustworthiness and continuity, not R_N
(output scale ``"neighbour_embedding"``, :data:`algorithms.MEASURES_TO_READ`).

Both libraries compile their kernels with numba on first use (30-40 s in a fresh process on this
machine); numba caches the compiled code next to the installed package (or under ``NUMBA_CACHE_DIR``
when that is set, e.g. where site-packages is read-only), so later processes load it in seconds.
The modules are imported inside the fits, so ``import algorithms`` does not pay for them.

References
----------
.. [MHM18] L. McInnes, J. Healy and J. Melville, "UMAP: Uniform Manifold Approximation and Projection for
   dimension reduction", arXiv:1802.03426 (2018).
.. [WHRS21] Y. Wang, H. Huang, C. Rudin and Y. Shaposhnik, "Understanding how dimension reduction tools
   work: an empirical approach to deciphering t-SNE, UMAP, TriMAP, and PaCMAP for data visualization",
   JMLR 22 (2021) 1-73.
.. [BBK22] J. N. Böhm, P. Berens and D. Kobak, "Attraction-repulsion spectrum in neighbor embeddings",
   JMLR 23 (2022) 1-32.
"""

import logging
import os
import warnings

import numpy as np

from measures import Parameter, seed_int

from .registry import AlgorithmSpec, register

__all__ = ["pacmap", "pacmap_memory_bytes", "umap", "umap_memory_bytes"]

MIN_DIST = Parameter(
    "min_dist", "minimum distance", "float", 0.1, low=0.0, high=1.0,
    help="How tightly UMAP packs neighbours: the distance below which the output kernel is flat (0 packs "
         "clusters densely, 1 spreads them).")
UMAP_EPOCHS = Parameter(
    "n_epochs", "epochs", "int", 0, low=0, high=5_000,
    help="Optimization epochs over the graph's edges; 0 lets UMAP choose (500 below 10 000 points, 200 above).")
MN_RATIO = Parameter(
    "MN_ratio", "mid-near pairs per neighbour", "float", 0.5, low=0.0, high=5.0,
    help="PaCMAP's mid-near pairs per neighbour pair: they keep the global layout in the first phases.")
FP_RATIO = Parameter(
    "FP_ratio", "further pairs per neighbour", "float", 2.0, low=0.0, high=10.0,
    help="PaCMAP's further (repulsive) pairs per neighbour pair.")
PACMAP_ITERATIONS = Parameter(
    "num_iters", "iterations", "int", 450, low=200, high=5_000,
    help="PaCMAP's iterations: the first 100 and the next 100 are its global and balancing phases, the rest local.")


def umap_memory_bytes(n_samples, n_neighbors, n_components, **_):
    """Peak memory of :func:`umap` beyond numba's compiled code (~0.3 GB once per process): the kNN arrays,
    the fuzzy graph (COO, CSR and its transpose for the symmetrization: ~6 copies of 16 bytes per edge),
    the spectral start's eigensolve (~20 vectors of n) and the per-edge epoch schedules."""
    edges = n_samples * (n_neighbors + 1)
    return 2**28 + 6 * 16 * 2 * edges + 8 * n_samples * (20 + 4 * n_components) + 3 * 8 * 2 * edges


def pacmap_memory_bytes(n_samples, n_neighbors, n_components, *, MN_ratio=0.5, FP_ratio=2.0, **_):
    """Peak memory of :func:`pacmap` beyond numba's compiled code: faiss's HNSW index over X (n x 32 links
    and the float32 points), the candidate search of k + 50 neighbours (indices and distances), the three
    pair lists and the optimizer's n x d arrays (Adam: 4 of them)."""
    candidates = n_neighbors + 51
    pairs = int(n_samples * n_neighbors * (1 + MN_ratio + FP_ratio))
    return 2**28 + n_samples * (32 * 2 * 4 + 64 * 4) + 3 * 4 * n_samples * candidates + 8 * pairs \
        + 6 * 8 * n_samples * n_components


def _fork_safe_numba():
    """numba, its threading layer chosen to survive ``fork``, before UMAP or PaCMAP launches it.

    Jobs are forked from the process that serves the page (Dash's diskcache manager, Celery's prefork
    pool). numba's default layer on this stack is GNU OpenMP, which cannot be used again in a forked
    child: a process that had run UMAP once killed every later job it forked ("Terminating: fork()
    called from a process already using GNU OpenMP"). ``"forksafe"`` picks TBB when installed, else
    numba's own work queue. It takes effect only before the first parallel launch of the process, and
    a layer the user set in ``NUMBA_THREADING_LAYER`` is kept.
    """
    import numba

    if "NUMBA_THREADING_LAYER" not in os.environ:
        numba.config.THREADING_LAYER = "forksafe"
    return numba


def umap(X, neighbors, n_components, random_state, *, min_dist, n_epochs):
    """Embed X with umap-learn's ``UMAP`` on the project's kNN graph.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        From :func:`measures.nearest_neighbors`: handed to UMAP as its ``precomputed_knn`` (with the
        Euclidean distances), so UMAP's fuzzy graph is built on exactly the graph the measures score,
        and no approximate (NN-descent) search runs. UMAP's ``n_neighbors`` counts the point itself,
        as this array does: it is k + 1.
    n_components : int
    random_state : int or numpy.random.Generator
        One integer drawn from it is UMAP's ``random_state`` (spectral start, edge sampling).
    min_dist : float
    n_epochs : int
        0 for UMAP's own choice.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        UMAP's coordinates (output scale ``"neighbour_embedding"``).

    Notes
    -----
    With a ``random_state`` UMAP runs its optimizer on one thread (its documented reproducibility mode;
    it says so in a warning, silenced here), so the output is a function of X, k and the seed. Its
    default metric (Euclidean), spread (1) and spectral initialisation are kept. A disconnected graph is
    allowed: UMAP lays out each component separately (the entry's ``requires_connected`` is False).
    """
    _fork_safe_numba()
    import umap as umap_learn

    distances = np.linalg.norm(X[neighbors] - X[:, None, :], axis=2)
    estimator = umap_learn.UMAP(n_neighbors=neighbors.shape[1], n_components=n_components, min_dist=min_dist,
                                n_epochs=n_epochs or None, random_state=seed_int(random_state),
                                precomputed_knn=(neighbors, distances, None), transform_mode="embedding")
    with warnings.catch_warnings():
        # "n_jobs value 1 overridden to 1 by setting random_state": the single thread is the point.
        warnings.filterwarnings("ignore", message=r".*overridden to 1 by setting random_state", category=UserWarning)
        # precomputed_knn without a search index only disables transform(), which is not used.
        warnings.filterwarnings("ignore", message=r".*precomputed_knn.*", category=UserWarning)
        return np.asarray(estimator.fit_transform(X), dtype=np.float64)


def pacmap(X, neighbors, n_components, random_state, *, MN_ratio, FP_ratio, num_iters, n_neighbors):
    """Embed X with the ``pacmap`` package's ``PaCMAP`` [WHRS21].

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : None
        Unused: PaCMAP picks its neighbour pairs itself, the k of k + 50 candidates with the smallest
        distances scaled by local density (``uses_neighbors=False``; the measures still use the exact kNN
        graph of k).
    n_components : int
    random_state : int or numpy.random.Generator
        One integer drawn from it is PaCMAP's ``random_state``.
    MN_ratio, FP_ratio, num_iters
        PaCMAP's parameters of the same names.
    n_neighbors : int
        k, passed as PaCMAP's ``n_neighbors`` (neighbour pairs per point, the point excluded, as here).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        PaCMAP's coordinates (output scale ``"neighbour_embedding"``).

    Notes
    -----
    With a ``random_state`` PaCMAP seeds its pair sampling point by point and builds faiss's HNSW index
    on one thread (faiss's thread count is set to 1, process-wide, by the package). Its numba kernels
    are parallel loops in which each point's pairs and gradient belong to one thread, so the output does
    not depend on the thread count (identical for 1 and 2 threads on the swiss roll); they run on one
    thread here (``numba.set_num_threads(1)`` for the call, restored after): on this shared two-core
    machine under load a parallel loop waits at every barrier for a descheduled thread, and 3 000 points
    took 2.9-3.3 s on 2 threads against 0.3-0.6 s on 1. Inputs with more than 100 columns are first
    reduced to 100 by PCA (``apply_pca``, PaCMAP's default).
    """
    numba = _fork_safe_numba()
    import pacmap as pacmap_package

    # PaCMAP logs "random state is set to ..." for every seeded estimator; the seed is ours, so say nothing.
    package_logger = logging.getLogger("pacmap")
    level = package_logger.level
    package_logger.setLevel(logging.ERROR)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # this thread's numba kernels only (numba's setting is thread-local)
    try:
        # num_iters: (global phase, balancing phase, local phase) iterations; ours counts all three.
        estimator = pacmap_package.PaCMAP(
            n_components=n_components, n_neighbors=n_neighbors, MN_ratio=MN_ratio, FP_ratio=FP_ratio,
            num_iters=(100, 100, num_iters - 200), random_state=seed_int(random_state), verbose=False)
        return np.asarray(estimator.fit_transform(X, init="pca"), dtype=np.float64)
    finally:
        numba.set_num_threads(threads)
        package_logger.setLevel(level)


register(AlgorithmSpec(
    name="umap",
    label="UMAP",
    output="neighbour_embedding",
    output_scale="neighbour_embedding",
    parameters=(MIN_DIST, UMAP_EPOCHS),
    fit=umap,
    citation="McInnes, Healy & Melville (2018); umap-learn",
    description="Lays out a fuzzy k-nearest-neighbour graph by attraction along its edges and sampled "
                "repulsion: clusters and local order, not distances.",
    requires_connected=False,
    memory_bytes=umap_memory_bytes,
))
register(AlgorithmSpec(
    name="pacmap",
    label="PaCMAP",
    output="neighbour_embedding",
    output_scale="neighbour_embedding",
    parameters=(MN_RATIO, FP_RATIO, PACMAP_ITERATIONS),
    fit=pacmap,
    citation="Wang, Huang, Rudin & Shaposhnik (2021); pacmap",
    description="Attracts neighbour and mid-near pairs and repels further pairs, in phases that set the "
                "global layout first: clusters and their arrangement, not distances.",
    uses_neighbors=False,
    memory_bytes=pacmap_memory_bytes,
    takes_n_neighbors=True,
))
