"""Manifold-embedding algorithms behind one registry and one entry point, :func:`embed`.

Each algorithm returns its authors' output scale and says which in its registry entry (SPEC §2):
isometric (PCA, classical MDS, Isomap, and Landmark Isomap for samples too large for Isomap),
normalized (LLE, MLLE, Laplacian eigenmaps: unit variance; LTSA, HLLE: unit norm; diffusion maps:
diffusion coordinates), or a neighbour embedding's own coordinates (t-SNE through openTSNE or
scikit-learn, UMAP, PaCMAP: read R_C, not R_N; :data:`MEASURES_TO_READ`). Memory is estimated per
method and solver and held against :func:`memory_budget`. ``embed(..., rescale=...)`` rescales any of them
uniformly (:data:`RESCALE_OPTIONS`). Failures a user can act on are typed (:mod:`algorithms.errors`).
The Procrustes algorithms of GR §4, greedy Procrustes (``gp``) and Procrustes subspace alignment
(``psa``), minimize R directly; :func:`refine` (GR §4.4) improves any embedding, and both are also
scikit-learn estimators. No module here imports dash or plotly.
"""

from measures.errors import DisconnectedGraphError, EmbeddingError, SolverError

# Importing the algorithm modules registers them, in this (display) order.
from . import (  # noqa: F401  isort: skip
    pca, isomap, landmark_isomap, mds, locally_linear, laplacian, diffusion_maps, tsne, neighbor_embeddings, gp,
    psa,
)
from .embedding import embed
from .errors import (
    ConvergenceError,
    DuplicatePointsError,
    SampleLimitError,
    SingularFactorError,
    TooFewNeighborsError,
)
from .longrun import Cancelled
from .procrustes_estimators import GreedyProcrustes, ProcrustesSubspaceAlignment
from .refine import refine
from .registry import (
    MEASURES_TO_READ,
    OUTPUT_SCALES,
    OUTPUTS,
    RESCALE_OPTIONS,
    AlgorithmSpec,
    available,
    memory_budget,
    spec,
    specs,
)

__all__ = [
    "MEASURES_TO_READ",
    "OUTPUTS",
    "OUTPUT_SCALES",
    "RESCALE_OPTIONS",
    "AlgorithmSpec",
    "Cancelled",
    "ConvergenceError",
    "DisconnectedGraphError",
    "DuplicatePointsError",
    "EmbeddingError",
    "GreedyProcrustes",
    "ProcrustesSubspaceAlignment",
    "SampleLimitError",
    "SingularFactorError",
    "SolverError",
    "TooFewNeighborsError",
    "available",
    "embed",
    "memory_budget",
    "refine",
    "spec",
    "specs",
]
