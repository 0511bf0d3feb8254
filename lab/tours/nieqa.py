"""NQ's tour: the figures of Zhang, Ren & Zhang's NIEQA paper, each a step (:data:`TOUR`).

P. Zhang, Y. Ren and B. Zhang, A new embedding quality assessment method for manifold learning (NIEQA),
Neurocomputing 97 (2012) 251–266.

§III-A's rectangle and Figs. 2–4, 6 and 8 (a). Their RML has no public code: it is left out of every
figure. The measures themselves are in :mod:`measures.nieqa`; :mod:`lab.tours.presets` assembles the
tours. No Dash here.
"""

from .authoring import best_k, increasing, make_step, run_request, step_state
from .steps import Claim, Panel, Tour

__all__ = ["SWISSHOLE", "TOUR"]

NQ4 = (("lle", "LLE"), ("laplacian", "LE"), ("ltsa", "LTSA"), ("isomap", "Isomap"))
_rectangle = {"x": run_request("strip", "pca", 10, n=100, length=2.0),
              "y": run_request("strip", "pca", 10, n=100, length=2.0, rescale="unit_norm")}
_nq2 = {key: run_request("swissroll", key, 10, n=1000, random_state=1) for key, _ in NQ4}
# The swiss roll with a hole of Fig. 3, with MLLE's run too: the MLLE tour and the lecture show it as well.
SWISSHOLE = {key: run_request("swisshole", key, 10, n=1000) for key, _ in (*NQ4, ("mlle", "MLLE"))}
_nq4 = {key: run_request("gaussian", key, 10, n=1000) for key, _ in NQ4}
NQ_KS = tuple(range(5, 25))
_nq8 = {f"k{k}": run_request("swissroll", "ltsa", k, n=1000, random_state=1) for k in NQ_KS}


def _nq_ranking(keys, measure):
    return lambda v: increasing(v, keys, measure)


NQ_STEPS = (
    make_step("nq-3a-rectangle", "NQ §III-A (Fig. 1): a rectangle and its normalized embedding",
          step_state(_rectangle["y"], color="asim"),
          "NQ normalize 100 points of a 2 × 1 rectangle so that each output coordinate has unit norm (YY' = I): "
          "Y is X rotated and scaled per axis, nothing else. ASIM, which allows exactly a rotation and a scale "
          "per axis, is {y.asim:.1e}: the neighbourhoods are intact up to those scales. R_N, which allows a "
          "rotation only, reads {y.normalized:.2f}; NQ's M_P is 0.81. Not reproduced: a normalized output's R_N "
          "depends on the input's size against the output's unit norm, and NQ do not give their rectangle's "
          "sample. The neighbourhoods change: on average "
          "{y.neighbourhood_agreement:.0%} of each point's 10 nearest neighbours are no longer among its 10 "
          "nearest in Y (1 − M_LC; NQ: 4 of 10 at the origin). The figure marks the point nearest the centre: "
          "its 10 nearest input neighbours (rings) and its 10 nearest output neighbours (crosses). The input "
          "itself (PCA at its own scale) scores R_N {x.normalized:.1e}.",
          [Claim("ASIM forgives the normalization: {y.asim:.1e} (below 1e-8).", lambda v: abs(v.y.asim) < 1e-8,
                 identity=True),
           Claim("R_N does not: {y.normalized:.2f} (above 0.5).", lambda v: v.y.normalized > 0.5),
           Claim("Not reproduced: our R_N ({y.normalized:.2f}) is more than 0.1 from NQ's M_P, 0.81.",
                 lambda v: abs(v.y.normalized - 0.81) > 0.1),
           Claim("Normalization changes the neighbourhoods: 1 − M_LC = {y.neighbourhood_agreement:.2f} (above 0.1), "
                 "against {x.neighbourhood_agreement:.1e} for the input itself.",
                 lambda v: v.y.neighbourhood_agreement > 0.1 and v.x.neighbourhood_agreement < 1e-9)],
          [Panel("x", "X: the rectangle (PCA)", _rectangle["x"]),
           Panel("y", "Y: normalized, YY' = I", _rectangle["y"])], reproduced="partly",
          captions=("normalized", "asim"), marked=True),
    make_step("nq-fig2-swissroll", "NQ Fig. 2: a swiss roll, LLE, LE, LTSA and Isomap at k = 10",
          step_state(_nq2["isomap"], color="truth-0"),
          "A 1000-point swiss roll at k = 10 (NQ Fig. 2; random state 1). M_L (mean ASIM) ranks LTSA "
          "({ltsa.asim:.3f}) best, then Isomap ({isomap.asim:.3f}), LLE ({lle.asim:.3f}) and LE "
          "({laplacian.asim:.3f}), the order of M_t, the match with the truth ({ltsa.truth_match:.4f}, "
          "{isomap.truth_match:.4f}, {lle.truth_match:.3f}, {laplacian.truth_match:.3f}). R_N (NQ's M_P) calls "
          "the normalized outputs bad whatever their quality: LTSA {ltsa.normalized:.2f}, LLE "
          "{lle.normalized:.2f}. M_G, the landmarks' global shape, flags LLE ({lle.nieqa_global:.3f}) against "
          "LTSA ({ltsa.nieqa_global:.4f}) and Isomap ({isomap.nieqa_global:.4f}).",
          [Claim("M_L ranks LTSA < Isomap < LLE < LE.", _nq_ranking(("ltsa", "isomap", "lle", "laplacian"), "asim")),
           Claim("M_t ranks them in the same order.",
                 _nq_ranking(("ltsa", "isomap", "lle", "laplacian"), "truth_match")),
           Claim("R_N reports false high values for the normalized LTSA and LLE (above 0.8) and a low one for "
                 "Isomap ({isomap.normalized:.3f}).",
                 lambda v: min(v.ltsa.normalized, v.lle.normalized) > 0.8 and v.isomap.normalized < 0.1),
           Claim("M_G says LLE's global shape is worse than LTSA's and Isomap's.",
                 lambda v: v.lle.nieqa_global > max(v.ltsa.nieqa_global, v.isomap.nieqa_global))],
          [Panel(key, label, _nq2[key]) for key, label in NQ4], captions=("asim", "truth_match"),
          bars=("asim", "nieqa_global", "truth_match")),
    make_step("nq-fig3-swisshole", "NQ Fig. 3: a swiss roll with a hole, LLE, LE, LTSA and Isomap at k = 10",
          step_state(SWISSHOLE["ltsa"], color="truth-0"),
          "A 1000-point swiss roll with a rectangular hole, k = 10 (NQ Fig. 3). LTSA recovers the chart, hole "
          "included (M_t {ltsa.truth_match:.4f}); LLE distorts the global shape (M_t {lle.truth_match:.3f}); LE "
          "fails (M_t {laplacian.truth_match:.3f}). M_L ranks them as M_t does: {ltsa.asim:.3f}, "
          "{isomap.asim:.3f}, {lle.asim:.3f}, {laplacian.asim:.3f}. NQ found Isomap failing too; ours bends "
          "around the hole (its graph geodesics detour) with M_t {isomap.truth_match:.3f}, worse than LTSA, "
          "better than LLE: that part is not reproduced. NQ leave M_G out here, shortest paths around a hole "
          "not being geodesics.",
          [Claim("LTSA keeps the hole: it matches the truth up to axis scales (M_t {ltsa.truth_match:.4f} < 0.005).",
                 lambda v: v.ltsa.truth_match < 0.005),
           Claim("M_L ranks LTSA < Isomap < LLE < LE, and M_t in the same order.",
                 lambda v: increasing(v, ("ltsa", "isomap", "lle", "laplacian"), "asim")
                 and increasing(v, ("ltsa", "isomap", "lle", "laplacian"), "truth_match")),
           Claim("R_N (M_P) still calls LTSA's output bad ({ltsa.normalized:.2f} > 0.8).",
                 lambda v: v.ltsa.normalized > 0.8),
           Claim("Not reproduced: Isomap does better than LLE here (M_t {isomap.truth_match:.3f} < "
                 "{lle.truth_match:.3f}).", lambda v: v.isomap.truth_match < v.lle.truth_match)],
          [Panel(key, label, SWISSHOLE[key]) for key, label in NQ4], reproduced="partly",
          captions=("asim", "truth_match"),
          # No M_G bars, as in NQ's Fig. 3 (§V-A): around the hole the graph's shortest paths detour and are no
          # geodesics, so the landmarks' MDS reference M_G compares against is itself distorted.
          bars=("asim", "truth_match")),
    make_step("nq-fig4-gaussian", "NQ Fig. 4: a Gaussian bump, LLE, LE, LTSA and Isomap at k = 10",
          step_state(_nq4["isomap"], color="truth-0"),
          "1000 points of the Gaussian surface (u ~ N(0, I), height e^(−|u|²/2)/2π), k = 10 (NQ Fig. 4). LLE and "
          "Isomap recover the chart (M_t {lle.truth_match:.4f}, {isomap.truth_match:.4f}), LE does not "
          "({laplacian.truth_match:.3f}). On this nearly isotropic surface R_C (NQ's M_P^c) agrees: "
          "{lle.conformal:.3f}, {isomap.conformal:.3f} against {laplacian.conformal:.3f}. LTSA recovers the chart "
          "too (M_t {ltsa.truth_match:.1e}), as in NQ, but its output is normalized: R_N {ltsa.normalized:.2f} "
          "calls it a failure, ASIM {ltsa.asim:.4f} does not.",
          [Claim("LLE and Isomap recover the chart (M_t below 0.01), LE does not (above 0.05).",
                 lambda v: max(v.lle.truth_match, v.isomap.truth_match) < 0.01 and v.laplacian.truth_match > 0.05),
           Claim("R_C separates them alike: below 0.05 for LLE and Isomap, above 0.2 for LE.",
                 lambda v: max(v.lle.conformal, v.isomap.conformal) < 0.05 and v.laplacian.conformal > 0.2),
           Claim("LTSA recovers the chart too (M_t below 0.01), and only the normalization-blind measure says so: "
                 "ASIM below 0.01, R_N above 0.5.",
                 lambda v: v.ltsa.truth_match < 0.01 and v.ltsa.asim < 0.01 and v.ltsa.normalized > 0.5)],
          [Panel(key, label, _nq4[key]) for key, label in NQ4], captions=("truth_match", "conformal")),
    make_step("nq-fig6-ltsa-k", "NQ Figs. 6, 8 (a): LTSA on a swiss roll for k = 5 … 24, M_L picks k",
          step_state(_nq8["k10"], color="truth-0", sweep=(("ltsa",), 5, 24, 1, "asim")),
          "LTSA on the 1000-point swiss roll of Fig. 2 for k = 5, 6, …, 24 (NQ Figs. 6 and 8 (a)); NQ found "
          "high-quality embeddings for k between 6 and 15. Ours: M_G, NIEQA's global measure, is below 0.05 for "
          "k = {step.global_good} and above {step.global_worst_from_16:.2f} for every k from 16, where LTSA folds "
          "the roll (M_t above {step.truth_from_16:.2f}). M_L, the local one, is lowest at k = {step.best} "
          "({step.best_asim:.4f}) but stays below 0.05 at k = 21 and 22 ({k21.asim:.3f}, {k22.asim:.3f}), where "
          "the output is folded: locally right, globally wrong. NIEQA reads the two together. The Sweep tab is "
          "set to this sweep.",
          [Claim("M_G is below 0.05 at every k from 6 to 15 and above 0.3 at every k from 16: NQ's range 6–15.",
                 lambda v: all(v[f"k{k}"].nieqa_global < 0.05 for k in range(6, 16))
                 and all(v[f"k{k}"].nieqa_global > 0.3 for k in range(16, 25))),
           Claim("M_L alone misses a global failure: at k = 21 it is below 0.05 while M_t is above 0.3.",
                 lambda v: v.k21.asim < 0.05 and v.k21.truth_match > 0.3),
           Claim("Where M_L and M_G are both below 0.05, the output matches the truth (M_t below 0.06).",
                 lambda v: all(v[key].truth_match < 0.06 for key in _nq8
                               if v[key].asim < 0.05 and v[key].nieqa_global < 0.05)),
           Claim("M_L's best k ({step.best}) is below the range's upper end, 15 (our k = 5 embeds well too).",
                 lambda v: v.step.best <= 15 and v.k5.nieqa_global < 0.05)],
          [Panel(key, f"k = {key[1:]}", request, "LTSA") for key, request in _nq8.items()],
          outputs=("k5", "k7", "k10", "k15", "k16", "k22"), curve=("asim", "nieqa_global", "truth_match"),
          derive=lambda v: {"global_good": ", ".join(key[1:] for key in _nq8 if v[key].nieqa_global < 0.05),
                            "global_worst_from_16": min(v[f"k{k}"].nieqa_global for k in range(16, 25)),
                            "truth_from_16": min(v[f"k{k}"].truth_match for k in range(16, 25)),
                            "best": int(best_k(v, list(_nq8), "asim")),
                            "best_asim": min(v[key].asim for key in _nq8)}, captions=("asim", "nieqa_global")),
)


TOUR = Tour("nq", "Zhang, Ren & Zhang: NIEQA", "P. Zhang, Y. Ren and B. Zhang, A new embedding quality assessment "
            "method for manifold learning (NIEQA), Neurocomputing 97 (2012) 251–266.", NQ_STEPS)
