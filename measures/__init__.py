"""Quality measures of manifold embeddings, and the numerical base the other libraries build on.

Public API: :func:`evaluate`, the one entry point that computes any subset of the measures listed in
the registry (:func:`available`, :func:`spec`) sharing neighbour searches; the measures themselves:
:func:`procrustes` (R, R_N, R_C, R_PCA; GR Eqs. 3, 4, 6, 7), :func:`procrustes_lower_bound`
(GR Lemma 1), :func:`asim` and :func:`nieqa` (NQ), :func:`neighbourhood_agreement`,
:func:`trustworthiness`, :func:`continuity`, :func:`residual_variance`, :func:`truth_match`,
:func:`normalization_cost` and :func:`collapse_score` (PN); :func:`inspect_neighbourhood`, one
neighbourhood aligned as each measure aligns it; the per-neighbourhood kernels
(:func:`local_procrustes`, :func:`local_pca_procrustes`, :func:`local_pca_residual`,
:func:`local_asim`), the one kNN routine :func:`nearest_neighbors`, and the error hierarchy.
No module here imports dash or plotly.
"""

from .asim import AsimFit, asim, asim_fit, local_asim, truth_match
from .distances import (
    distance_spearman,
    kl_divergence,
    scale_normalized_stress,
    stress,
    triplet_accuracy,
)
from .errors import (
    DatasetError,
    DimensionError,
    DisconnectedGraphError,
    EmbeddingError,
    MeasureError,
    ProcrustesLabError,
    ProcrustesLabWarning,
    SeedError,
    SolverError,
)
from .evaluation import Evaluation, evaluate
from .geodesics import (
    check_connected,
    geodesic_graph,
    residual_variance,
    shortest_path_counts,
)
from .inspection import NeighbourhoodView, inspect_neighbourhood
from .kernels import COINCIDENCE_TOLERANCE, centred_stack
from .labels import label_trust_continuity, silhouette
from .neighbors import (
    NeighborSearch,
    check_neighbors,
    check_pair,
    check_points,
    nearest_neighbors,
    neighbor_graph,
    neighbor_graph_components,
    neighbor_search,
    power_of_two_scaled,
)
from .nieqa import NIEQA, classical_mds, nieqa
from .normalization import (
    COLLAPSE_THRESHOLD,
    NormalizationCost,
    collapse_score,
    is_collapsed,
    normalization_cost,
)
from .parameters import Parameter, check_integer, is_integer, validate_parameters
from .procrustes import (
    LocalProcrustes,
    local_pca_procrustes,
    local_pca_residual,
    local_procrustes,
    local_rotations,
    procrustes,
    procrustes_lower_bound,
    procrustes_rotation,
    summarize,
)
from .ranks import continuity, mrre, neighbourhood_agreement, trustworthiness
from .registry import MeasureSpec, available, spec, specs
from .seeding import check_random_state, seed_int

__all__ = [
    "COINCIDENCE_TOLERANCE",
    "COLLAPSE_THRESHOLD",
    "NIEQA",
    "AsimFit",
    "DatasetError",
    "DimensionError",
    "DisconnectedGraphError",
    "EmbeddingError",
    "Evaluation",
    "LocalProcrustes",
    "MeasureError",
    "MeasureSpec",
    "NeighborSearch",
    "NeighbourhoodView",
    "NormalizationCost",
    "Parameter",
    "ProcrustesLabError",
    "ProcrustesLabWarning",
    "SeedError",
    "SolverError",
    "asim",
    "asim_fit",
    "available",
    "centred_stack",
    "check_connected",
    "check_integer",
    "check_neighbors",
    "check_pair",
    "check_points",
    "check_random_state",
    "classical_mds",
    "collapse_score",
    "continuity",
    "distance_spearman",
    "evaluate",
    "geodesic_graph",
    "inspect_neighbourhood",
    "is_collapsed",
    "is_integer",
    "kl_divergence",
    "label_trust_continuity",
    "local_asim",
    "local_pca_procrustes",
    "local_pca_residual",
    "local_procrustes",
    "local_rotations",
    "mrre",
    "nearest_neighbors",
    "neighbor_graph",
    "neighbor_graph_components",
    "neighbor_search",
    "neighbourhood_agreement",
    "nieqa",
    "normalization_cost",
    "power_of_two_scaled",
    "procrustes",
    "procrustes_lower_bound",
    "procrustes_rotation",
    "residual_variance",
    "scale_normalized_stress",
    "seed_int",
    "shortest_path_counts",
    "silhouette",
    "spec",
    "specs",
    "stress",
    "summarize",
    "triplet_accuracy",
    "trustworthiness",
    "truth_match",
    "validate_parameters",
]
