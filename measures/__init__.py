"""Quality measures of manifold embeddings, and the numerical base the other libraries build on.

Public API: :func:`procrustes` (R, R_N, R_C; GR Eqs. 3, 4, 7), :func:`procrustes_lower_bound`
(GR Lemma 1), the per-neighbourhood kernels :func:`local_procrustes` and
:func:`local_pca_residual`, the one kNN routine :func:`nearest_neighbors`, and the error hierarchy.
No module here imports dash or plotly.
"""

from .errors import (
    DatasetError,
    DisconnectedGraphError,
    EmbeddingError,
    MeasureError,
    ProcrustesLabError,
    ProcrustesLabWarning,
    SeedError,
    SolverError,
)
from .neighbors import check_points, nearest_neighbors, neighbor_graph, neighbor_graph_components
from .parameters import Parameter, validate_parameters
from .procrustes import (
    LocalProcrustes,
    local_pca_residual,
    local_procrustes,
    local_rotations,
    procrustes,
    procrustes_rotation,
    procrustes_lower_bound,
    summarize,
)
from .seeding import check_random_state, seed_int

__all__ = [
    "DatasetError",
    "DisconnectedGraphError",
    "EmbeddingError",
    "LocalProcrustes",
    "MeasureError",
    "Parameter",
    "ProcrustesLabError",
    "ProcrustesLabWarning",
    "SeedError",
    "SolverError",
    "check_points",
    "check_random_state",
    "local_pca_residual",
    "local_procrustes",
    "local_rotations",
    "nearest_neighbors",
    "neighbor_graph",
    "neighbor_graph_components",
    "procrustes",
    "procrustes_lower_bound",
    "procrustes_rotation",
    "seed_int",
    "summarize",
    "validate_parameters",
]
