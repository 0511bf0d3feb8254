"""Manifold-embedding algorithms behind one registry and one entry point, :func:`embed`.

Each algorithm returns its authors' output scale and says which in its registry entry (SPEC §2):
isometric (PCA, Isomap) or normalized (LLE: unit variance; LTSA: unit norm; Laplacian eigenmaps:
unit variance). No module here imports dash or plotly.
"""

from measures.errors import DisconnectedGraphError, EmbeddingError, SolverError

# Importing the algorithm modules registers them, in this (display) order.
from . import pca, isomap, locally_linear, laplacian  # noqa: F401  isort: skip
from .embedding import embed
from .registry import OUTPUT_SCALES, AlgorithmSpec, available, spec, specs

__all__ = [
    "AlgorithmSpec",
    "DisconnectedGraphError",
    "EmbeddingError",
    "OUTPUT_SCALES",
    "SolverError",
    "available",
    "embed",
    "spec",
    "specs",
]
