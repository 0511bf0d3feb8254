"""GR's tour: Goldberg & Ritov's figures and Table 2, each a step (:data:`TOUR`, the first of the five tours).

Y. Goldberg and Y. Ritov, Local Procrustes for manifold embedding: a measure of embedding quality and
embedding algorithms, Machine Learning 77 (2009) 1–25.

Figs. 1–3, 5 and 6, the refinement of §4.4 and Table 2, on our swiss roll, hemisphere and cylinder, and a
short circuit of the swiss roll. :mod:`lab.tours.presets` assembles the tours. No Dash here.
"""

from .authoring import best_k, increasing, make_step, run_request, step_state
from .steps import Claim, Panel, Published, Tour

__all__ = ["TOUR"]

FIVE = (("gp", "B: GP"), ("psa", "C: PSA"), ("lle", "D: LLE"), ("isomap", "E: Isomap"), ("ltsa", "F: LTSA"))

# Random state 2: at 0 one k = 12 edge short-circuits two turns of the roll (step gr-short-circuit).
SWISS = {"n": 1600, "random_state": 2}
_fig1 = {key: run_request("swissroll", key, 12, **SWISS) for key, _ in FIVE}
_short = {f"k{k}": run_request("swissroll", "isomap", k, n=1600) for k in (9, 12)}
_refine = {"lle": _fig1["lle"], "scaled": run_request("swissroll", "lle", 12, rescale="best_global_scale", **SWISS),
           "refined": run_request("swissroll", "lle", 12, post_refinement=20, **SWISS)}
_hemisphere = {key: run_request("hemisphere", key, 12, n=2500) for key, _ in FIVE}
_cylinder = {key: run_request("cylinder", key, 12, n=800) for key, _ in FIVE}
GR_KS = (6, 9, 12, 15, 18)
_fig5 = {f"{series}_k{k}": run_request("cylinder", "lle", k, n=800, height=height)
         for series, height in (("h1", 1.0), ("h2", 2.0)) for k in GR_KS}
GR_FIG5 = Published("GR Fig. 5", "Goldberg & Ritov (2009), caption of Fig. 5: R_C(X, Y) of LLE's outputs (B)–(F)",
                    GR_KS, (("conformal", (0.25, 0.15, 0.13, 0.19, 0.17)),))
NOISE = 0.6
_noisy = {key: run_request("swissroll", key, 12, n=2500, random_state=2, noise=NOISE) for key, _ in FIVE}
TABLE_SETS = (("swissroll", "Swissroll", dict(SWISS)), ("hemisphere", "Hemisphere", {"n": 2500}),
              ("cylinder", "Cylinder", {"n": 800}))
_table = {f"{dataset}_{key}_k{k}": run_request(dataset, key, k, **size)
          for dataset, _, size in TABLE_SETS for key, _ in FIVE for k in GR_KS}
GR_TABLE2 = {  # GR Table 2, R_N [R_C], minima over k = 6, ..., 18; and its lower bound row
    "swissroll": {"gp": "0.00 [0.00]", "psa": "0.00 [0.00]", "lle": "0.81 [0.23]", "isomap": "0.01 [0.01]",
                  "ltsa": "0.99 [0.22]", "lower_bound": "0.00"},
    "hemisphere": {"gp": "0.02 [0.01]", "psa": "0.03 [0.01]", "lle": "0.60 [0.00]", "isomap": "0.03 [0.02]",
                   "ltsa": "0.93 [0.04]", "lower_bound": "0.00"},
    "cylinder": {"gp": "0.13 [0.01]", "psa": "0.02 [0.01]", "lle": "0.73 [0.13]", "isomap": "0.34 [0.25]",
                 "ltsa": "0.59 [0.48]", "lower_bound": "0.00"},
}


def _table_minima(values):
    """Each (data set, algorithm) cell of GR Table 2: the minima over k of R_N and R_C, and where."""
    cells = {}
    for dataset, _, _ in TABLE_SETS:
        for key, _ in FIVE:
            runs = [f"{dataset}_{key}_k{k}" for k in GR_KS]
            cell = {}
            for measure in ("normalized", "conformal"):
                best = min(runs, key=lambda run: values[run][measure])
                cell[measure], cell[f"{measure}_k"] = values[best][measure], int(best.rsplit("k", 1)[1])
            cells[f"{dataset}_{key}"] = cell
        # Lemma 1's bound does not depend on the algorithm: at each k it is the same for every run.
        bound = min((values[f"{dataset}_gp_k{k}"]["lower_bound"], k) for k in GR_KS)
        cells[f"{dataset}_lower_bound"] = {"normalized": bound[0], "normalized_k": bound[1]}
    return cells


def _cell(dataset, key, measure="normalized"):
    return lambda v: v.step[f"{dataset}_{key}"][measure]


GR_STEPS = (
    make_step("gr-fig1", "GR Fig. 1 (A–F): a swiss roll, five algorithms at k = 12",
          step_state(_fig1["isomap"], color="truth-0"),
          "A 1600-point swiss roll embedded at k = 12, as in GR's Fig. 1 (colour: arc length along the roll). GP, "
          "PSA and Isomap return the unrolled rectangle at its own scale: R_N {gp.normalized:.4f}, "
          "{psa.normalized:.4f}, {isomap.normalized:.3f}. LLE and LTSA return it normalized, one scale per axis "
          "(unit variance, unit norm): the shape looks right but its proportions have changed, and R_N says so "
          "(LLE {lle.normalized:.2f}, LTSA {ltsa.normalized:.3f}); R_C, which forgives each neighbourhood one "
          "scale, reads {lle.conformal:.2f} and {ltsa.conformal:.2f}.",
          [Claim("GP, PSA and Isomap keep the proportions of the unrolled roll: shape residual against the truth "
                 "{gp.shape:.1e}, {psa.shape:.1e}, {isomap.shape:.1e} (below 0.01).",
                 lambda v: max(v.gp.shape, v.psa.shape, v.isomap.shape) < 0.01),
           Claim("LLE and LTSA change them: shape residual {lle.shape:.2f} and {ltsa.shape:.2f} (above 0.2).",
                 lambda v: min(v.lle.shape, v.ltsa.shape) > 0.2),
           Claim("GP and PSA, built to minimize R, score a lower R_N than Isomap ({gp.normalized:.4f}, "
                 "{psa.normalized:.4f} < {isomap.normalized:.3f}).",
                 lambda v: max(v.gp.normalized, v.psa.normalized) < v.isomap.normalized),
           Claim("LLE's R_N is GR's 0.81 to within 0.05 ({lle.normalized:.3f}) and LTSA's is GR's 0.99 to within "
                 "0.02 ({ltsa.normalized:.3f}): a normalized output's R_N is set by its scale.",
                 lambda v: abs(v.lle.normalized - 0.81) < 0.05 and abs(v.ltsa.normalized - 0.99) < 0.02),
           Claim("No kNN edge short-circuits this roll at k = 12 ({isomap.short_circuits} edges join two turns).",
                 lambda v: v.isomap.short_circuits == 0)],
          [Panel(key, label, _fig1[key]) for key, label in FIVE]),
    make_step("gr-short-circuit", "A short circuit: the same roll drawn with random state 0, Isomap at k = 12 and 9",
          step_state(_short["k12"]),
          "At random state 0, {k12.short_circuits} kNN edge(s) at k = 12 join two turns of the roll: their ends "
          "lie over 3 times farther apart along the roll than in space. Isomap's graph geodesics take the "
          "shortcut and its output folds: R_N {k12.normalized:.3f} (median {k12.normalized_median:.3f}), shape "
          "residual {k12.shape:.2f}. Click a point in the bright region to draw its k neighbours in both views: "
          "the short-circuit edge is a long chord across the output. At k = 9 no edge short-circuits and Isomap "
          "unrolls the roll: R_N {k9.normalized:.3f}, shape residual {k9.shape:.1e}.",
          [Claim("At k = 12 an edge short-circuits the roll ({k12.short_circuits} of them).",
                 lambda v: v.k12.short_circuits >= 1),
           Claim("At k = 9 none does ({k9.short_circuits}).", lambda v: v.k9.short_circuits == 0),
           Claim("The short circuit costs the output its proportions: shape residual {k12.shape:.2f} at k = 12 "
                 "against {k9.shape:.1e} at k = 9, and R_N {k12.normalized:.3f} against {k9.normalized:.3f}.",
                 lambda v: v.k12.shape > 0.2 and v.k9.shape < 0.01 and v.k12.normalized > v.k9.normalized)],
          [Panel("k12", "Isomap, k = 12", _short["k12"]), Panel("k9", "Isomap, k = 9", _short["k9"])]),
    make_step("gr-44-refined-lle", "GR §4.4: LLE followed by Procrustes refinement",
          step_state(_refine["refined"]),
          "LLE's output has the roll's shape up to its normalization. One scale for the whole output (the one "
          "best for R_N) takes R_N from {lle.normalized:.3f} to {scaled.normalized:.3f}: a single scale cannot "
          "undo a different scale per axis. Twenty sweeps of GR's refinement (§4.4, Eqs. 12–13) move every "
          "point and reach R_N {refined.normalized:.4f}. R_C ignores the output's global scale: "
          "{lle.conformal:.6f} before the rescaling, {scaled.conformal:.6f} after.",
          [Claim("Refinement brings R_N below 0.05 ({refined.normalized:.4f}).", lambda v: v.refined.normalized < 0.05),
           Claim("Rescaling alone helps less: {refined.normalized:.4f} < {scaled.normalized:.3f} < "
                 "{lle.normalized:.3f}.", lambda v: increasing(v, ("refined", "scaled", "lle"), "normalized")),
           Claim("R_C is the same before and after the global rescaling (to 1e-9).",
                 lambda v: abs(v.lle.conformal - v.scaled.conformal) < 1e-9, identity=True)],
          [Panel("lle", "LLE (unit variance)", _refine["lle"]), Panel("scaled", "LLE, best global scale",
                                                                       _refine["scaled"]),
           Panel("refined", "LLE + 20 refinement sweeps", _refine["refined"])]),
    make_step("gr-fig2-hemisphere", "GR Fig. 2 (A–F): a hemisphere, five algorithms at k = 12",
          step_state(_hemisphere["lle"]),
          "A 2500-point hemisphere at k = 12 (GR Fig. 2). No chart of a hemisphere keeps every distance, yet "
          "every algorithm embeds it: R_C, which allows each neighbourhood its own scale, is GP {gp.conformal:.3f}, "
          "PSA {psa.conformal:.3f}, LLE {lle.conformal:.3f}, Isomap {isomap.conformal:.3f}, LTSA "
          "{ltsa.conformal:.3f}. The isometric outputs keep R_N low as well ({gp.normalized:.3f}, "
          "{psa.normalized:.3f}, {isomap.normalized:.3f}); the normalized ones pay for their scale (LLE "
          "{lle.normalized:.2f}, LTSA {ltsa.normalized:.2f}). The lower bound, what no planar output can beat at "
          "this k, is {gp.lower_bound:.4f}.",
          [Claim("Every output's R_C is below 0.07.",
                 lambda v: max(v[key].conformal for key, _ in FIVE) < 0.07),
           Claim("The isometric outputs' (GP, PSA, Isomap) R_N is below 0.06.",
                 lambda v: max(v.gp.normalized, v.psa.normalized, v.isomap.normalized) < 0.06),
           Claim("The normalized outputs' R_N is set by their scale: LLE {lle.normalized:.2f} (> 0.3), LTSA "
                 "{ltsa.normalized:.2f} (> 0.9).", lambda v: v.lle.normalized > 0.3 and v.ltsa.normalized > 0.9),
           Claim("Lemma 1 holds for every output: lower bound ≤ R_C ≤ R_N.",
                 lambda v: all(v[key].lower_bound <= v[key].conformal <= v[key].normalized for key, _ in FIVE),
                 identity=True)],
          [Panel(key, label, _hemisphere[key]) for key, label in FIVE]),
    make_step("gr-fig3-cylinder", "GR Fig. 3 (A–F): a cylinder, five algorithms at k = 12",
          step_state(_cylinder["isomap"], color="truth-0"),
          "An 800-point cylinder of radius 1 and height 1 (GR do not give theirs) at k = 12. A cylinder has no "
          "faithful planar embedding. GR found its ring with PSA, Isomap and LLE, and its width with PSA and LLE "
          "only. Ours: Isomap draws the ring (central share {isomap.central_share:.3f}: its centre is empty) but "
          "loses the width (collapse score {isomap.collapse:.3f}). GP returns a sheet with no ring: right in most "
          "neighbourhoods, so its R_N ({gp.normalized:.3f}) is the lowest of the five, yet wrong globally, GR's "
          "point that R is a local measure (on GR's own cylinder PSA scores lower, Table 2: PSA 0.02, GP 0.13). "
          "On our cylinder neither PSA nor LLE finds the ring (central share {psa.central_share:.2f}, "
          "{lle.central_share:.2f}): that part of the figure is not reproduced.",
          [Claim("Isomap finds the ring: {isomap.central_share:.3f} of its points lie near its centre (below 0.02).",
                 lambda v: v.isomap.central_share < 0.02),
           Claim("…but not the width: its output is a curve (collapse score {isomap.collapse:.3f} < 0.1).",
                 lambda v: v.isomap.collapse < 0.1),
           Claim("GP scores the lowest R_N ({gp.normalized:.3f}) without finding the ring (central share "
                 "{gp.central_share:.2f} > 0.05).",
                 lambda v: v.gp.normalized == min(v[key].normalized for key, _ in FIVE) and v.gp.central_share > 0.05),
           Claim("Not reproduced: PSA and LLE do not find the ring here (central share {psa.central_share:.2f} and "
                 "{lle.central_share:.2f}, above 0.05).",
                 lambda v: min(v.psa.central_share, v.lle.central_share) > 0.05)],
          [Panel(key, label, _cylinder[key]) for key, label in FIVE], reproduced="partly"),
    make_step("gr-fig5-cylinder-lle", "GR Fig. 5 (B–F): LLE on the cylinder for k = 6 … 18, R_C picks k",
          step_state(_fig5["h1_k12"], tab="explore", sweep=(("lle",), 6, 18, 3, "conformal")),
          "GR Fig. 5: LLE on the cylinder for k = 6, 9, …, 18; GR's R_C are {published.conformal[6]:.2f}, "
          "{published.conformal[9]:.2f}, {published.conformal[12]:.2f}, {published.conformal[15]:.2f}, "
          "{published.conformal[18]:.2f}, smallest at k = {published.conformal_argmin} (the dashed line). Ours on "
          "the 1 × 1 cylinder: {h1_k6.conformal:.3f}, {h1_k9.conformal:.3f}, "
          "{h1_k12.conformal:.3f}, {h1_k15.conformal:.3f}, {h1_k18.conformal:.3f}, smallest at k = "
          "{step.best_h1}; on a cylinder twice as tall: {h2_k6.conformal:.3f}, {h2_k9.conformal:.3f}, "
          "{h2_k12.conformal:.3f}, {h2_k15.conformal:.3f}, {h2_k18.conformal:.3f}, smallest at k = "
          "{step.best_h2}. Which k is best depends on the cylinder's proportions, which GR do not give: their "
          "dip at k = {published.conformal_argmin} is not reproduced. The Sweep tab is set to run this sweep over "
          "more algorithms.",
          [Claim("Not reproduced: our R_C is smallest at k = {step.best_h1}, not at GR's k = "
                 "{published.conformal_argmin}.", lambda v: v.step.best_h1 != v.published.conformal_argmin),
           Claim("On the taller cylinder the best k moves (to {step.best_h2}).",
                 lambda v: v.step.best_h2 != v.step.best_h1),
           Claim("At every k LLE's R_C stays within GR's range of values, 0.1 to 0.3.",
                 lambda v: all(0.1 < v[key].conformal < 0.3 for key in _fig5))],
          [Panel(key, f"k = {key.rsplit('k', 1)[1]}", request, "radius 1, height 1" if key.startswith("h1")
                 else "radius 1, height 2") for key, request in _fig5.items()],
          reproduced="no", outputs=tuple(key for key in _fig5 if key.startswith("h1")), curve=("conformal",),
          published=GR_FIG5,
          derive=lambda v: {series: int(best_k(v, [key for key in _fig5 if key.startswith(series[-2:])],
                                                "conformal")) for series in ("best_h1", "best_h2")},
          captions=("conformal",)),
    make_step("gr-fig6-noisy", "GR Fig. 6 (A–F): a noisy swiss roll, five algorithms at k = 12",
          step_state(_noisy["isomap"], color="truth-0"),
          "A 2500-point swiss roll with isotropic noise σ = 0.6 (GR do not give theirs), k = 12 (GR Fig. 6). "
          "Noise thickens the roll: the local-PCA lower bound rises to {gp.lower_bound:.3f}, and no output scores "
          "R_N below it. GP and PSA, built on local PCA and Procrustes fits, still recover the roll's chart (M_t "
          "{gp.truth_match:.3f}, {psa.truth_match:.3f}). Isomap does not (M_t {isomap.truth_match:.2f}), nor "
          "LLE ({lle.truth_match:.3f}), and LTSA collapses (collapse score {ltsa.collapse:.3f}): only GP and PSA "
          "succeed, as in GR.",
          [Claim("GP and PSA recover the chart: M_t below 0.05 ({gp.truth_match:.3f}, {psa.truth_match:.3f}).",
                 lambda v: max(v.gp.truth_match, v.psa.truth_match) < 0.05),
           Claim("Isomap does not: M_t {isomap.truth_match:.2f}, over 3 times GP's and PSA's.",
                 lambda v: v.isomap.truth_match > 3 * max(v.gp.truth_match, v.psa.truth_match)),
           Claim("LTSA collapses onto a curve (collapse score {ltsa.collapse:.3f} < 0.1).",
                 lambda v: v.ltsa.collapse < 0.1),
           Claim("Only GP and PSA keep M_t below 0.05.",
                 lambda v: all(v[key].truth_match > 0.05 for key in ("isomap", "lle", "ltsa"))),
           Claim("Every R_N is above the lower bound ({gp.lower_bound:.3f}).",
                 lambda v: all(v[key].normalized >= v[key].lower_bound for key, _ in FIVE), identity=True)],
          [Panel(key, label, _noisy[key]) for key, label in FIVE], captions=("truth_match", "normalized")),
    make_step("gr-table2", "GR Table 2: R_N [R_C], minima over k = 6 … 18, ours beside GR's",
          step_state(_fig1["isomap"], compare=("gp", "psa", "lle", "isomap", "ltsa")),
          "Each cell: the minimum over k = 6, 9, …, 18 of R_N and, separately, of R_C (and the k where each is "
          "reached), ours above GR's. Our samples: a 1600-point roll (random state 2), a 2500-point hemisphere "
          "and an 800-point cylinder of radius 1 and height 1 (random state 0). The swiss roll column "
          "reproduces, normalized outputs included: LLE {step.swissroll_lle.normalized:.2f} (GR 0.81), LTSA "
          "{step.swissroll_ltsa.normalized:.3f} (GR 0.99). Differences: a normalized output's R_N depends on the "
          "input's size against the output's unit variance or norm, so it moves with the data's units (LLE on the "
          "unit hemisphere: {step.hemisphere_lle.normalized:.2f}, GR 0.60); GR's cylinder proportions are not "
          "given and ours is short (its column does not reproduce, see Fig. 3: LLE "
          "{step.cylinder_lle.normalized:.2f} against GR's 0.73); Isomap's roll minimum is "
          "{step.swissroll_isomap.normalized:.3f} against GR's 0.01 "
          "(our roll is uniform in the angle, not in arc length). GR's Faces and Twos columns are not "
          "reproduced: those image sets are not redistributable (the digits and globe sets stand in elsewhere).",
          [Claim("LLE's and LTSA's swiss-roll R_N reproduce GR's 0.81 and 0.99 to within 0.05 ("
                 "{step.swissroll_lle.normalized:.3f}, {step.swissroll_ltsa.normalized:.3f}).",
                 lambda v: abs(_cell("swissroll", "lle")(v) - 0.81) < 0.05
                 and abs(_cell("swissroll", "ltsa")(v) - 0.99) < 0.05),
           Claim("On the swiss roll and the hemisphere, GP or PSA scores the lowest R_N, as in GR.",
                 lambda v: all(min(_cell(d, "gp")(v), _cell(d, "psa")(v)) < min(_cell(d, key)(v) for key in
                                                                               ("lle", "isomap", "ltsa"))
                               for d in ("swissroll", "hemisphere"))),
           Claim("Isometric outputs of the roll and the hemisphere score R_N below 0.06 and LTSA's above 0.9, "
                 "as in GR.",
                 lambda v: all(_cell(d, key)(v) < 0.06 for d in ("swissroll", "hemisphere")
                               for key in ("gp", "psa", "isomap"))
                 and all(_cell(d, "ltsa")(v) > 0.9 for d in ("swissroll", "hemisphere"))),
           Claim("Not reproduced: on our cylinder LLE's R_N ({step.cylinder_lle.normalized:.2f}) is far from GR's "
                 "0.73 (more than 0.5 away).", lambda v: abs(_cell("cylinder", "lle")(v) - 0.73) > 0.5),
           Claim("The lower bound is about 0 for all three (below 0.01), as in GR.",
                 lambda v: all(v.step[f"{d}_lower_bound"].normalized < 0.01 for d, _, _ in TABLE_SETS))],
          [Panel(f"{dataset}_{key}_k{k}", f"{label}, {dataset}, k = {k}", _table[f"{dataset}_{key}_k{k}"])
           for dataset, _, _ in TABLE_SETS for key, label in FIVE for k in GR_KS],
          reproduced="partly", chart="table", show_input=False,
          rows=(*((key, label.split(": ")[1]) for key, label in FIVE), ("lower_bound", "Lower bound")),
          columns=tuple((dataset, label) for dataset, label, _ in TABLE_SETS),
          paper=tuple((f"{dataset}_{row}", text) for dataset, cells in GR_TABLE2.items()
                      for row, text in cells.items()),
          derive=_table_minima, reads=("lower_bound",)),
)


TOUR = Tour("gr", "Goldberg & Ritov: local Procrustes", "Y. Goldberg and Y. Ritov, Local Procrustes for manifold "
            "embedding: a measure of embedding quality and embedding algorithms, Machine Learning 77 (2009) 1–25.",
            GR_STEPS)
