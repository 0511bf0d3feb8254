"""The measure registry: one :class:`MeasureSpec` per quality measure that :func:`measures.evaluate`
computes. The dashboard's cards and "colour by" menu, the sweeps' tables and the common tests read
it; adding a measure means adding its function and one entry here (and its branch in ``evaluate``).
"""

import dataclasses
import warnings

from .errors import MeasureError
from .registries import Registry

__all__ = ["MeasureSpec", "available", "spec", "specs"]


@dataclasses.dataclass(frozen=True)
class MeasureSpec:
    """Metadata of one quality measure.

    Attributes
    ----------
    name : str
        Registry key, used by ``evaluate(which=...)`` and as the key of its results.
    label : str
        Short display name, e.g. ``"R_N"``.
    per_point : bool
        Whether the measure has a value at every point (then ``evaluate`` reports mean and median,
        SPEC §0) or only one value for the whole embedding.
    needs_truth : bool
        Whether it compares with the ground truth (computed only when one is given).
    higher_is_better : bool or None
        Direction of quality: True for trustworthiness and continuity (and the other scores that
        are 1 at best), False for the error measures (0 at best); None for the collapse score,
        which has no direction (~0.5 for a faithful 2-D output, ~0 for a collapsed one, ~1 for an
        output unrelated to the truth).
    citation : str
        Where the measure is defined.
    description : str
        One sentence for the help text.
    uses_geodesics : bool
        Whether it runs Dijkstra over the kNN graph (O(n^2 log n), pivot-sampled above
        :data:`measures.geodesics.EXACT_UP_TO`) and needs that graph connected.
    uses_neighbors : bool
        Whether it needs the input's neighbour search (``evaluate`` searches X only if one does).
    needs_d_at_most_q : bool
        Whether it is defined only for outputs with at most as many columns as the input (ASIM's
        P lies on St(q, d)); the others are defined for any d (SPEC §3 note).
    needs_labels : bool
        Whether it reads class labels (``evaluate(labels=...)``; computed only when given).
    reads_output : bool
        False for the yardsticks computed from the input alone (R_PCA, GR Eq. 6, and its lower bound,
        GR Lemma 1): equal for every output at one k, they say nothing about an output.
    best : float or str or None
        The yardstick at the good end: for R_N and R_C the name of the measure whose value on this
        input no d-dimensional output can beat (``"lower_bound"``, GR Lemma 1); for the rank measures
        the best value they take by definition (1 for trustworthiness and continuity, 0 for the
        rank errors), reached by an output that keeps every neighbourhood's order; None where no
        floor is known (0 bounds stress or ASIM, but only an input that is flat reaches it).
    """

    name: str
    label: str
    per_point: bool
    needs_truth: bool
    higher_is_better: bool | None
    citation: str
    description: str
    uses_geodesics: bool = False
    uses_neighbors: bool = True
    needs_d_at_most_q: bool = False
    needs_labels: bool = False
    reads_output: bool = True
    best: float | str | None = None

    @property
    def lower_is_better(self):
        """Deprecated: ``not higher_is_better`` (None stays None). Read :attr:`higher_is_better`."""
        warnings.warn("MeasureSpec.lower_is_better is deprecated; read higher_is_better.", DeprecationWarning,
                      stacklevel=2)
        return None if self.higher_is_better is None else not self.higher_is_better


_MEASURES = Registry("measure", MeasureError)


def _measure(name, label, citation, description, *, per_point=True, needs_truth=False, higher_is_better=False,
             uses_geodesics=False, uses_neighbors=True, needs_d_at_most_q=False, needs_labels=False, reads_output=True,
             best=None):
    _MEASURES.register(MeasureSpec(name=name, label=label, per_point=per_point, needs_truth=needs_truth,
                                   higher_is_better=higher_is_better, citation=citation, description=description,
                                   uses_geodesics=uses_geodesics, uses_neighbors=uses_neighbors,
                                   needs_d_at_most_q=needs_d_at_most_q, needs_labels=needs_labels,
                                   reads_output=reads_output, best=best))


_measure("raw", "R", "GR Eq. 3", "Residual of the best rigid fit of each neighbourhood's embedding onto it.")
_measure("normalized", "R_N", "GR Eq. 4",
         "Rigid Procrustes residual relative to the neighbourhood's size; ~0 for an isometric embedding.",
         best="lower_bound")
_measure("conformal", "R_C", "GR Eq. 7",
         "As R_N, but each neighbourhood may also be rescaled (conformal maps score ~0).", best="lower_bound")
_measure("pca", "R_PCA", "GR Eq. 6", "As R_N, against the local PCA projection of the neighbourhood.",
         reads_output=False)
_measure("lower_bound", "lower bound", "GR Lemma 1",
         "Local-PCA residual: no d-dimensional output can score R_N or R_C below it.", reads_output=False)
_measure("asim", "ASIM (M_L)", "NQ Eqs. 7, 18",
         "Residual after rotation and a separate scale per output axis: blind to normalization.",
         needs_d_at_most_q=True)
_measure("nieqa_global", "M_G", "NQ Eq. 19",
         "ASIM of the landmarks' output against classical MDS of their graph geodesics.",
         per_point=False, uses_geodesics=True, needs_d_at_most_q=True)
_measure("neighbourhood_agreement", "1 − M_LC", "NQ Eq. 2 (Chen & Buja)",
         "Share of each point's k input neighbours missing from its k output neighbours.", best=0.0)
_measure("trustworthiness", "trustworthiness", "Venna & Kaski (2001)",
         "Are the output's neighbours neighbours in the input? Penalized by their input rank.", higher_is_better=True,
         best=1.0)
_measure("continuity", "continuity", "Venna & Kaski (2001)",
         "Are the input's neighbours kept together in the output? Penalized by their output rank.",
         higher_is_better=True, best=1.0)
_measure("residual_variance", "M_RV", "NQ Eq. 3 (Tenenbaum et al. 2000)",
         "1 − ρ² between kNN-graph geodesics and output distances.", per_point=False, uses_geodesics=True)
_measure("truth_match", "M_t", "NQ Table III", "ASIM of the whole embedding against the ground truth.",
         per_point=False, needs_truth=True, uses_neighbors=False)
_measure("collapse", "collapse score", "PN §4-5 (SPEC §3)",
         "Share of the whitened output's variance across the truth's long axis: ~0.5 faithful, ~0 collapsed.",
         per_point=False, needs_truth=True, higher_is_better=None, uses_neighbors=False)

# Issue 14: the distance and cluster measures peers report (ZADU's definitions where it has them).
_measure("stress", "stress", "Kruskal (1964); ZADU",
         "Normalized stress, sqrt(Σ(dX − dY)² / Σ dX²) over all pairs; changes with the output's scale.",
         uses_neighbors=False)
_measure("scale_normalized_stress", "SNS", "Smelser, Miller & Kobourov (2024)",
         "Stress after the one uniform scale of the output that minimizes it: comparable across scales.",
         uses_neighbors=False)
_measure("kl_divergence", "KL (density)", "ZADU (Jeon et al. 2023), σ = 0.1",
         "KL divergence between the input's and the output's Gaussian point densities.", per_point=False,
         uses_neighbors=False)
_measure("distance_spearman", "DEMaP ρ", "Moon et al. (2019), PHATE",
         "Spearman ρ between kNN-graph geodesic distances and output distances.", per_point=False,
         higher_is_better=True, uses_geodesics=True)
_measure("mrre_false", "MRRE (false)", "Lee & Verleysen (2009)",
         "Mean relative rank error of the output's neighbours, ranked in the input (intrusions).", best=0.0)
_measure("mrre_missing", "MRRE (missing)", "Lee & Verleysen (2009)",
         "Mean relative rank error of the input's neighbours, ranked in the output (extrusions).", best=0.0)
# Issue 22: the co-ranking area and the measures of the surveys that rank methods ([EMK], [KB] in
# measures.benchmarks). KNN is 1 − M_LC above at the run's k; their best values are None: 1 needs every
# distance's order kept, which no d-dimensional output of a curved input reaches.
_measure("auc_rnx", "AUC R_NX", "Lee, Peluffo-Ordóñez & Verleysen (2015), Eq. 14",
         "Area under R_NX(K) over every scale K on a log axis (each point's own area): 1 keeps every "
         "neighbourhood at every scale, ~0 random.", higher_is_better=True, uses_neighbors=False)
_measure("shepard", "Shepard ρ", "Espadoto et al. (2021)",
         "Spearman ρ between the input's and the output's Euclidean distances over all pairs (the Shepard "
         "diagram's correlation).", per_point=False, higher_is_better=True, uses_neighbors=False)
_measure("cpd", "CPD", "Kobak & Berens (2019)",
         "Spearman ρ of the pairwise distances of 1 000 seeded random points, input against output.",
         per_point=False, higher_is_better=True, uses_neighbors=False)
_measure("triplet_accuracy", "triplet accuracy", "Wang et al. (2021), PaCMAP",
         "Share of random triplets whose two distances the output orders as the input does.",
         higher_is_better=True, uses_neighbors=False)
_measure("label_trustworthiness", "label-T", "Jeon et al. (2024)",
         "Do classes apart in the input stay apart in the output? (distance consistency per class pair).",
         per_point=False, higher_is_better=True, uses_neighbors=False, needs_labels=True)
_measure("label_continuity", "label-C", "Jeon et al. (2024)",
         "Are classes that mix in the input not pulled apart in the output? (distance consistency).",
         per_point=False, higher_is_better=True, uses_neighbors=False, needs_labels=True)
_measure("neighbourhood_hit", "NH", "Espadoto et al. (2021)",
         "Share of each point's k nearest output points (itself one of them) that carry its label.",
         higher_is_better=True, uses_neighbors=False, needs_labels=True, best=1.0)
_measure("class_neighbour_preservation", "KNC", "Kobak & Berens (2019)",
         "Share of each class mean's 4 nearest class means (fewer with fewer classes) kept in the output.",
         per_point=False, higher_is_better=True, uses_neighbors=False, needs_labels=True)
_measure("silhouette", "silhouette", "Rousseeuw (1987)",
         "How well the output keeps the labelled classes apart: (b − a) / max(a, b) per point.",
         higher_is_better=True, uses_neighbors=False, needs_labels=True)


def spec(name):
    """The :class:`MeasureSpec` registered as ``name``; MeasureError listing the names otherwise."""
    return _MEASURES.spec(name)


def specs():
    """All registered measure specs, in display order."""
    return _MEASURES.specs()


def available():
    """Names of all registered measures, in display order."""
    return _MEASURES.available()
