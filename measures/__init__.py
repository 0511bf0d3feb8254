"""Quality measures of manifold embeddings, and the numerical base the other libraries build on.

Public API: :func:`evaluate`, the one entry point that computes any subset of the measures listed in
the registry (:func:`available`, :func:`spec`) sharing neighbour searches; the measures themselves:
:func:`procrustes` (R, R_N, R_C, R_PCA; GR Eqs. 3, 4, 6, 7), :func:`procrustes_lower_bound`
(GR Lemma 1), :func:`asim` and :func:`nieqa` (NQ), :func:`neighbourhood_agreement`,
:func:`trustworthiness`, :func:`continuity`, :func:`mrre`, the co-ranking curves
:func:`coranking_curves` (Q_NX, R_NX, B_NX, LCMC at every scale) and their area :func:`auc_rnx`,
the surveys' :func:`neighbourhood_hit`, :func:`class_neighbour_preservation` (KNC) and
:func:`distance_correlation_on_a_subset` (CPD),
:func:`residual_variance`,
:func:`truth_match`, :func:`normalization_cost`, :func:`collapse_score` and :func:`is_collapsed`
(PN); the distance measures :func:`stress`, :func:`scale_normalized_stress`,
:func:`kl_divergence`, :func:`distance_spearman` (DEMaP), :func:`triplet_accuracy`; with labels
:func:`label_trust_continuity` and :func:`silhouette`; :func:`inspect_neighbourhood`, one
neighbourhood aligned as each measure aligns it; :func:`similarity_procrustes`, one point set moved
onto another by the best rotation, scale and shift (two runs, an output onto its truth), and the
global shape of an output against its truth (:func:`principal_aspect`, :func:`affine_residual`,
:func:`central_share`, :func:`short_circuits`); the per-neighbourhood kernels
(:func:`local_procrustes`, :func:`local_pca_procrustes`, :func:`local_pca_residual`,
:func:`local_asim`), the one kNN routine :func:`nearest_neighbors` (and :func:`neighbor_search`,
which switches to an approximate index for many columns), and the error hierarchy.
No module here imports dash or plotly.

Decisions (SPEC-style notes; issue 15 and 16)
---------------------------------------------
- Scale: every entry point scales X and Y by powers of two (exact) and the Procrustes kernel
  works with ``nu = nuc(Xc'Yc)/(|Xc||Yc|)`` and ``rho = |Yc|/|Xc|``
  (``R_C = 1 - nu^2``, ``R_N = R_C + (rho - nu)^2``), so no measure changes when X and Y are
  multiplied by any c in [1e-150, 1e150] (R, in squared units, by c^2).
- Coincident points: a neighbourhood is one of coincident points when its RMS spread is at most
  :data:`COINCIDENCE_TOLERANCE` (1e-12) times the largest absolute coordinate of the input
  (:func:`measures.kernels.coincident`); its normalized values are NaN, counted in
  ``Evaluation.n_undefined`` and warned about.
- Outputs with more columns than the input (d > q): R, R_N, R_C, R_PCA, the lower bound (0), the
  rank, distance and label measures are defined (GR's fit in R^d of X padded with zero columns);
  ASIM, M_L, M_G and M_t need d <= q (P on St(q, d)) and raise :class:`DimensionError`;
  ``evaluate`` leaves them out of its default set with a note.
- Ties: :func:`nearest_neighbors` orders the point itself first, then by distance, then by index
  (ZADU's stable rule, used by MRRE); trustworthiness and continuity follow scikit-learn's rule
  (numpy's default, unstable argsort of a row; its ``NearestNeighbors`` sets at a tied k-th
  distance) and equal ``sklearn.manifold.trustworthiness``.
- Collapse: :func:`collapse_score` estimates E[Var(whitened Y | t)] by successive differences
  along the long axis t; below :data:`COLLAPSE_THRESHOLD` (0.1) an output has collapsed.
- Large n: exact T and C, M_RV from at most ``PAIR_BUDGET / n`` pivot sources, M_G on a
  20 000-point subsample, pair measures on 500 random columns above 20 000 points: each
  approximation is stated in ``Evaluation.approximations``.
"""

from .agreement import MIN_SHARED_RUNS, comparable, measure_agreement
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
    all_geodesics,
    check_connected,
    geodesic_graph,
    residual_variance,
    shortest_path_counts,
)
from .global_shape import SHORT_CIRCUIT_RATIO, affine_residual, central_share, principal_aspect, short_circuits
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
from .parameters import (
    Parameter,
    check_integer,
    is_integer,
    validate_parameters,
)
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
from .benchmarks import (
    class_neighbour_preservation,
    distance_correlation_on_a_subset,
    neighbourhood_hit,
    neighbourhood_hit_values,
)
from .coranking import CorankingCurves, auc_rnx, auc_rnx_rows, auc_rnx_values, coranking_curves
from .ranks import continuity, mrre, neighbourhood_agreement, trustworthiness
from .registry import MeasureSpec, available, spec, specs
from .seeding import check_random_state, seed_int
from .similarity import SimilarityFit, similarity_procrustes
from .yardsticks import Yardsticks, best_values, random_outputs, yardsticks

__all__ = [
    "COINCIDENCE_TOLERANCE",
    "COLLAPSE_THRESHOLD",
    "MIN_SHARED_RUNS",
    "NIEQA",
    "SHORT_CIRCUIT_RATIO",
    "AsimFit",
    "CorankingCurves",
    "DatasetError",
    "DimensionError",
    "DisconnectedGraphError",
    "all_geodesics",
    "auc_rnx",
    "auc_rnx_rows",
    "auc_rnx_values",
    "class_neighbour_preservation",
    "coranking_curves",
    "distance_correlation_on_a_subset",
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
    "SimilarityFit",
    "Yardsticks",
    "SolverError",
    "affine_residual",
    "asim",
    "asim_fit",
    "available",
    "best_values",
    "centred_stack",
    "central_share",
    "check_connected",
    "check_integer",
    "check_neighbors",
    "check_pair",
    "check_points",
    "check_random_state",
    "classical_mds",
    "collapse_score",
    "comparable",
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
    "measure_agreement",
    "mrre",
    "nearest_neighbors",
    "neighbor_graph",
    "neighbor_graph_components",
    "neighbor_search",
    "neighbourhood_agreement",
    "neighbourhood_hit",
    "neighbourhood_hit_values",
    "nieqa",
    "normalization_cost",
    "power_of_two_scaled",
    "principal_aspect",
    "procrustes",
    "procrustes_lower_bound",
    "procrustes_rotation",
    "random_outputs",
    "residual_variance",
    "scale_normalized_stress",
    "seed_int",
    "shortest_path_counts",
    "short_circuits",
    "silhouette",
    "similarity_procrustes",
    "spec",
    "specs",
    "stress",
    "summarize",
    "triplet_accuracy",
    "trustworthiness",
    "truth_match",
    "validate_parameters",
    "yardsticks",
]
