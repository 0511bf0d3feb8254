"""ML's tour: the figures of Zhang & Wang's MLLE paper, each a step (:data:`TOUR`).

Z. Zhang and J. Wang, MLLE: modified locally linear embedding using multiple weights, NIPS 19 (2007).

Figs. 3–5: the swiss roll with a hole of the NIEQA tour (:mod:`lab.tours.nieqa`), three peaks, handwritten
digits. The algorithm itself is in :mod:`algorithms.locally_linear`; :mod:`lab.tours.presets` assembles
the tours. No Dash here.
"""

from .authoring import make_step, run_request, step_state
from .nieqa import SWISSHOLE
from .steps import Claim, Panel, Tour

__all__ = ["TOUR"]

_peaks = {key: run_request("three_peaks", key, 12, n=1225) for key in ("ltsa", "mlle")}
_digits = {key: run_request("digits", key, 12, classes="2-5") for key in ("lle", "mlle")}

ML_STEPS = (
    make_step("ml-fig3-swisshole", "ML Fig. 3: a swiss roll with a hole, Isomap, LTSA, LLE and MLLE at k = 10",
          step_state(SWISSHOLE["mlle"], color="truth-0"),
          "The 1000-point swiss roll with a hole of NQ Fig. 3, k = 10 (ML Fig. 3). LTSA and MLLE recover the "
          "chart, hole included, up to a scale per axis (M_t {ltsa.truth_match:.4f}, {mlle.truth_match:.4f}). "
          "Isomap's geodesics detour around the hole: it dilates the hole and warps the rest (M_t "
          "{isomap.truth_match:.4f}). LLE distorts the chart strongly (M_t {lle.truth_match:.3f}). Only R_C and "
          "ASIM read the normalized outputs fairly: MLLE's R_N is {mlle.normalized:.2f}, its ASIM {mlle.asim:.4f}.",
          [Claim("LTSA and MLLE recover the chart (M_t below 0.005).",
                 lambda v: max(v.ltsa.truth_match, v.mlle.truth_match) < 0.005),
           Claim("Isomap distorts it more (M_t {isomap.truth_match:.4f}, over twice LTSA's and MLLE's)…",
                 lambda v: v.isomap.truth_match > 2 * max(v.ltsa.truth_match, v.mlle.truth_match)),
           Claim("…and LLE most (M_t {lle.truth_match:.3f}, above Isomap's).",
                 lambda v: v.lle.truth_match > v.isomap.truth_match)],
          [Panel("isomap", "Isomap", SWISSHOLE["isomap"]), Panel("ltsa", "LTSA", SWISSHOLE["ltsa"]),
           Panel("lle", "LLE", SWISSHOLE["lle"]), Panel("mlle", "MLLE", SWISSHOLE["mlle"])],
          captions=("truth_match", "normalized")),
    make_step("ml-fig4-peaks", "ML Fig. 4: three peaks, LTSA and MLLE at k = 12",
          step_state(_peaks["mlle"], color="truth-0"),
          "1225 points of the three-peak surface over [−1.5, 1.5]², k = 12 (ML Fig. 4). MLLE recovers the "
          "generating parameters up to an affine map (M_t {mlle.truth_match:.4f}, affine residual "
          "{mlle.affine:.4f}); LTSA deforms them near the peaks, where the curvature changes fast (M_t "
          "{ltsa.truth_match:.3f}). Both outputs are normalized, yet MLLE's R_N is only {mlle.normalized:.3f}: "
          "the square's own spread (standard deviation 0.87 per axis) is close to MLLE's unit variance, while "
          "LTSA's unit-norm output scores {ltsa.normalized:.2f}. R_N of a normalized output measures its scale "
          "as much as its shape.",
          [Claim("MLLE recovers the parameters (M_t {mlle.truth_match:.4f} < 0.005).",
                 lambda v: v.mlle.truth_match < 0.005),
           Claim("LTSA deforms them (M_t {ltsa.truth_match:.3f}, over 5 times MLLE's).",
                 lambda v: v.ltsa.truth_match > 5 * v.mlle.truth_match),
           Claim("MLLE's R_N is low (below 0.1) and LTSA's high (above 0.8): their output scales, not their "
                 "shapes, decide.", lambda v: v.mlle.normalized < 0.1 and v.ltsa.normalized > 0.8)],
          [Panel("ltsa", "LTSA", _peaks["ltsa"]), Panel("mlle", "MLLE", _peaks["mlle"])],
          captions=("truth_match", "normalized")),
    make_step("ml-fig5-digits", "ML Fig. 5: handwritten digits 2–5, LLE and MLLE",
          step_state(_digits["mlle"], color="truth-0"),
          "The {mlle.n:d} handwritten 2s to 5s of scikit-learn's digits (8 × 8 pixels; ML used 4400 USPS digits "
          "of 16 × 16, not redistributable here), k = 12. MLLE separates the classes a little better than LLE: "
          "silhouette of the classes in the output {mlle.silhouette:.3f} against {lle.silhouette:.3f} (1 is "
          "perfectly separated clusters). Not reproduced: the difference is much smaller than in ML's figure, "
          "where LLE mixes the classes; our images are coarser and fewer. Hover a point of the explore view below "
          "to see its digit; the legend names the classes.",
          [Claim("MLLE's classes are better separated than LLE's (silhouette {mlle.silhouette:.3f} > "
                 "{lle.silhouette:.3f}).", lambda v: v.mlle.silhouette > v.lle.silhouette),
           Claim("Not reproduced: LLE keeps the classes apart too (silhouette {lle.silhouette:.2f} above 0.5), "
                 "within 0.1 of MLLE's.",
                 lambda v: v.lle.silhouette > 0.5 and v.mlle.silhouette - v.lle.silhouette < 0.1)],
          [Panel("lle", "LLE", _digits["lle"]), Panel("mlle", "MLLE", _digits["mlle"])], show_input=False,
          reproduced="partly", captions=("silhouette",)),
)


TOUR = Tour("ml", "Zhang & Wang: MLLE", "Z. Zhang and J. Wang, MLLE: modified locally linear embedding using "
            "multiple weights, NIPS 19 (2007).", ML_STEPS)
