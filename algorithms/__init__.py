"""Manifold-embedding algorithms behind one registry and one entry point, :func:`embed`.

Each algorithm returns its authors' output scale and says which in its registry entry (SPEC §2):
isometric (PCA, classical MDS, Isomap), normalized (LLE, MLLE, Laplacian eigenmaps: unit variance;
LTSA, HLLE: unit norm; diffusion maps: diffusion coordinates) or t-SNE's own. ``embed(...,
output_scale=...)`` rescales any of them uniformly (:data:`RESCALE_OPTIONS`). Failures a user can
act on are typed (:mod:`algorithms.errors`). No module here imports dash or plotly.
"""

from measures.errors import DisconnectedGraphError, EmbeddingError, SolverError

# Importing the algorithm modules registers them, in this (display) order.
from . import pca, isomap, mds, locally_linear, laplacian, diffusion_maps, tsne  # noqa: F401  isort: skip
from .embedding import embed
from .errors import (
    ConvergenceError,
    DuplicatePointsError,
    SampleLimitError,
    SingularFactorError,
    TooFewNeighborsError,
)
from .registry import OUTPUT_SCALES, OUTPUTS, RESCALE_OPTIONS, AlgorithmSpec, available, spec, specs

__all__ = [
    "AlgorithmSpec",
    "ConvergenceError",
    "DisconnectedGraphError",
    "DuplicatePointsError",
    "EmbeddingError",
    "OUTPUTS",
    "OUTPUT_SCALES",
    "RESCALE_OPTIONS",
    "SampleLimitError",
    "SingularFactorError",
    "SolverError",
    "TooFewNeighborsError",
    "available",
    "embed",
    "spec",
    "specs",
]
