"""The papers' tours: each figure or table of the source papers as a step (:mod:`lab.tours.steps`).

The former paper presets are steps of these tours: every preset's figure is reachable as a step,
under the preset's name where the step replaces one preset (``"pn-fig5-random-grid"``), and
:func:`preset` still finds a step by a former name. :data:`PRESETS` is the tours' index as the
page's menu lists it. No Dash here.

GR = Goldberg & Ritov (local Procrustes), NQ = Zhang, Ren & Zhang (NIEQA), PN = Goldberg, Zakai,
Kushnir & Ritov (price of normalization), ML = Zhang & Wang (MLLE); the lecture is Aamari's
"From MDS to manifold learning".

Every number a step states about our runs is filled in from them, and every qualitative claim is a
predicate checked on them (``tests/lab/test_tours.py`` computes every step). The paper's own
numbers are quoted as the paper prints them. n, k and the random state are chosen so that a
figure shows what the paper shows; where it does not, the step says so and why.
"""

import dataclasses
import itertools

from ..compute.runs import RunRequest
from ..view.state import CompareChoice, DisplayChoice, NormalizationChoice, SweepChoice, ViewState, register_tour_steps
from .steps import Claim, Panel, Published, Step, Tour

__all__ = ["FORMER_PRESETS", "PRESETS", "STEPS", "TOURS", "Preset", "applied", "locate", "preset"]


def _run(dataset, algorithm, k, *, n=None, random_state=0, noise=0.0, rescale="authors", post_refinement=0,
         **params):
    """A validated run request; ``params`` are the data set's own parameters."""
    return RunRequest.create(dataset, algorithm, n=n, noise=noise, random_state=random_state,
                             dataset_params=params or None, n_neighbors=k, post_refinement=post_refinement,
                             rescale=rescale)


def _state(request, *, color="normalized", view="3d", tab="explore", sweep=None, compare=None, normalization=None):
    """The validated view state showing ``request`` in the explore views, every other control named."""
    return ViewState(data=request.data, method=request.method, display=DisplayChoice(color=color, input_view=view),
                     sweep=SweepChoice(*sweep) if sweep else SweepChoice(),
                     compare=CompareChoice(compare) if compare else CompareChoice(),
                     normalization=NormalizationChoice(*normalization) if normalization else NormalizationChoice(),
                     tab=tab).validated()


def _step(name, title, state, text, claims, panels, **options):
    """A step whose state opens it (``state.tour`` is its name)."""
    return Step(name, title, dataclasses.replace(state, tour=name), text, tuple(claims), tuple(panels), **options)


def _increasing(values, keys, measure):
    """Whether ``measure`` increases strictly along the panels ``keys``."""
    numbers = [values[key][measure] for key in keys]
    return all(low < high for low, high in itertools.pairwise(numbers))


def _best_k(values, keys, measure):
    """k of the panel (among ``keys``) with the lowest ``measure``."""
    return min(keys, key=lambda key: values[key][measure]).rsplit("k", 1)[1]


FIVE = (("gp", "B: GP"), ("psa", "C: PSA"), ("lle", "D: LLE"), ("isomap", "E: Isomap"), ("ltsa", "F: LTSA"))

# ---------------------------------------------------------------------------------------------
# GR: Goldberg & Ritov (2009), local Procrustes.
# Random state 2: at 0 one k = 12 edge short-circuits two turns of the roll (step gr-short-circuit).
SWISS = {"n": 1600, "random_state": 2}
_fig1 = {key: _run("swissroll", key, 12, **SWISS) for key, _ in FIVE}
_short = {f"k{k}": _run("swissroll", "isomap", k, n=1600) for k in (9, 12)}
_refine = {"lle": _fig1["lle"], "scaled": _run("swissroll", "lle", 12, rescale="best_global_scale", **SWISS),
           "refined": _run("swissroll", "lle", 12, post_refinement=20, **SWISS)}
_hemisphere = {key: _run("hemisphere", key, 12, n=2500) for key, _ in FIVE}
_cylinder = {key: _run("cylinder", key, 12, n=800) for key, _ in FIVE}
GR_KS = (6, 9, 12, 15, 18)
_fig5 = {f"{series}_k{k}": _run("cylinder", "lle", k, n=800, height=height)
         for series, height in (("h1", 1.0), ("h2", 2.0)) for k in GR_KS}
GR_FIG5 = Published("GR Fig. 5", "Goldberg & Ritov (2009), caption of Fig. 5: R_C(X, Y) of LLE's outputs (B)–(F)",
                    GR_KS, (("conformal", (0.25, 0.15, 0.13, 0.19, 0.17)),))
NOISE = 0.6
_noisy = {key: _run("swissroll", key, 12, n=2500, random_state=2, noise=NOISE) for key, _ in FIVE}
TABLE_SETS = (("swissroll", "Swissroll", dict(SWISS)), ("hemisphere", "Hemisphere", {"n": 2500}),
              ("cylinder", "Cylinder", {"n": 800}))
_table = {f"{dataset}_{key}_k{k}": _run(dataset, key, k, **size)
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
    _step("gr-fig1", "GR Fig. 1 (A–F): a swiss roll, five algorithms at k = 12",
          _state(_fig1["isomap"], color="truth-0"),
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
    _step("gr-short-circuit", "A short circuit: the same roll drawn with random state 0, Isomap at k = 12 and 9",
          _state(_short["k12"]),
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
    _step("gr-44-refined-lle", "GR §4.4: LLE followed by Procrustes refinement",
          _state(_refine["refined"]),
          "LLE's output has the roll's shape up to its normalization. One scale for the whole output (the one "
          "best for R_N) takes R_N from {lle.normalized:.3f} to {scaled.normalized:.3f}: a single scale cannot "
          "undo a different scale per axis. Twenty sweeps of GR's refinement (§4.4, Eqs. 12–13) move every "
          "point and reach R_N {refined.normalized:.4f}. R_C ignores the output's global scale: "
          "{lle.conformal:.6f} before the rescaling, {scaled.conformal:.6f} after.",
          [Claim("Refinement brings R_N below 0.05 ({refined.normalized:.4f}).", lambda v: v.refined.normalized < 0.05),
           Claim("Rescaling alone helps less: {refined.normalized:.4f} < {scaled.normalized:.3f} < "
                 "{lle.normalized:.3f}.", lambda v: _increasing(v, ("refined", "scaled", "lle"), "normalized")),
           Claim("R_C is the same before and after the global rescaling (to 1e-9).",
                 lambda v: abs(v.lle.conformal - v.scaled.conformal) < 1e-9, identity=True)],
          [Panel("lle", "LLE (unit variance)", _refine["lle"]), Panel("scaled", "LLE, best global scale",
                                                                       _refine["scaled"]),
           Panel("refined", "LLE + 20 refinement sweeps", _refine["refined"])]),
    _step("gr-fig2-hemisphere", "GR Fig. 2 (A–F): a hemisphere, five algorithms at k = 12",
          _state(_hemisphere["lle"]),
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
    _step("gr-fig3-cylinder", "GR Fig. 3 (A–F): a cylinder, five algorithms at k = 12",
          _state(_cylinder["isomap"], color="truth-0"),
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
    _step("gr-fig5-cylinder-lle", "GR Fig. 5 (B–F): LLE on the cylinder for k = 6 … 18, R_C picks k",
          _state(_fig5["h1_k12"], tab="explore", sweep=(("lle",), 6, 18, 3, "conformal")),
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
          derive=lambda v: {series: int(_best_k(v, [key for key in _fig5 if key.startswith(series[-2:])],
                                                "conformal")) for series in ("best_h1", "best_h2")},
          captions=("conformal",)),
    _step("gr-fig6-noisy", "GR Fig. 6 (A–F): a noisy swiss roll, five algorithms at k = 12",
          _state(_noisy["isomap"], color="truth-0"),
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
    _step("gr-table2", "GR Table 2: R_N [R_C], minima over k = 6 … 18, ours beside GR's",
          _state(_fig1["isomap"], compare=("gp", "psa", "lle", "isomap", "ltsa")),
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

# ---------------------------------------------------------------------------------------------
# NQ: Zhang, Ren & Zhang, NIEQA. Their RML has no public code: it is left out of every figure.
NQ4 = (("lle", "LLE"), ("laplacian", "LE"), ("ltsa", "LTSA"), ("isomap", "Isomap"))
_rectangle = {"x": _run("strip", "pca", 10, n=100, length=2.0),
              "y": _run("strip", "pca", 10, n=100, length=2.0, rescale="unit_norm")}
_nq2 = {key: _run("swissroll", key, 10, n=1000, random_state=1) for key, _ in NQ4}
_nq3 = {key: _run("swisshole", key, 10, n=1000) for key, _ in (*NQ4, ("mlle", "MLLE"))}
_nq4 = {key: _run("gaussian", key, 10, n=1000) for key, _ in NQ4}
NQ_KS = tuple(range(5, 25))
_nq8 = {f"k{k}": _run("swissroll", "ltsa", k, n=1000, random_state=1) for k in NQ_KS}


def _nq_ranking(keys, measure):
    return lambda v: _increasing(v, keys, measure)


NQ_STEPS = (
    _step("nq-3a-rectangle", "NQ §III-A (Fig. 1): a rectangle and its normalized embedding",
          _state(_rectangle["y"], color="asim"),
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
    _step("nq-fig2-swissroll", "NQ Fig. 2: a swiss roll, LLE, LE, LTSA and Isomap at k = 10",
          _state(_nq2["isomap"], color="truth-0"),
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
    _step("nq-fig3-swisshole", "NQ Fig. 3: a swiss roll with a hole, LLE, LE, LTSA and Isomap at k = 10",
          _state(_nq3["ltsa"], color="truth-0"),
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
                 lambda v: _increasing(v, ("ltsa", "isomap", "lle", "laplacian"), "asim")
                 and _increasing(v, ("ltsa", "isomap", "lle", "laplacian"), "truth_match")),
           Claim("R_N (M_P) still calls LTSA's output bad ({ltsa.normalized:.2f} > 0.8).",
                 lambda v: v.ltsa.normalized > 0.8),
           Claim("Not reproduced: Isomap does better than LLE here (M_t {isomap.truth_match:.3f} < "
                 "{lle.truth_match:.3f}).", lambda v: v.isomap.truth_match < v.lle.truth_match)],
          [Panel(key, label, _nq3[key]) for key, label in NQ4], reproduced="partly", captions=("asim", "truth_match"),
          # No M_G bars, as in NQ's Fig. 3 (§V-A): around the hole the graph's shortest paths detour and are no
          # geodesics, so the landmarks' MDS reference M_G compares against is itself distorted.
          bars=("asim", "truth_match")),
    _step("nq-fig4-gaussian", "NQ Fig. 4: a Gaussian bump, LLE, LE, LTSA and Isomap at k = 10",
          _state(_nq4["isomap"], color="truth-0"),
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
    _step("nq-fig6-ltsa-k", "NQ Figs. 6, 8 (a): LTSA on a swiss roll for k = 5 … 24, M_L picks k",
          _state(_nq8["k10"], color="truth-0", sweep=(("ltsa",), 5, 24, 1, "asim")),
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
                            "best": int(_best_k(v, list(_nq8), "asim")),
                            "best_asim": min(v[key].asim for key in _nq8)}, captions=("asim", "nieqa_global")),
)

# ---------------------------------------------------------------------------------------------
# PN: Goldberg, Zakai, Kushnir & Ritov, the price of normalization. K = 8 throughout, as PN.
SIX = (("laplacian", "LEM"), ("diffusion_maps", "DFM"), ("lle", "LLE"), ("ltsa", "LTSA"), ("hlle", "HLLE"),
       ("isomap", "Isomap"))
NORMALIZED4 = ("laplacian", "diffusion_maps", "lle", "ltsa")
_strip = {"clean": _run("strip", "ltsa", 8, n=1000, length=6.0),
          "noisy": _run("strip", "ltsa", 8, n=1000, length=6.0, thickness=0.01)}
_grid = {f"{key}_{rows}": _run("grid", key, 8, half_width=40, half_height=(rows - 1) // 2)
         for key in ("laplacian", "diffusion_maps") for rows in (41, 39)}
# Random state 1: at 0 LEM's output at 81/39 is only half collapsed (score 0.12); PN's sample is theirs.
_random_grid = {f"{key}_{rows}": _run("strip", key, 8, n=3000, random_state=1, length=81 / rows)
                for key in ("laplacian", "diffusion_maps") for rows in (41, 39)}
_stretched = {f"{key}_{factor:g}": _run(dataset, key, 8, n=n, stretch=factor)
              for dataset, n, factors in (("swissroll", 1600, (1.0, 3.0)),) for factor in factors for key, _ in SIX}
_fishbowl = {f"{key}_{factor:g}": _run("fishbowl", key, 8, n=2400, stretch=factor)
             for factor in (1.0, 4.0) for key, _ in SIX}
_globe = {f"{key}_{rows}": _run("globe", key, 8, elevation_rows=rows) for rows in (30, 10) for key, _ in SIX}
# The rows of PN Figs. 7–9: each input's name (its outputs' labels end with it).
_STRETCHED_INPUTS, _FISHBOWL_INPUTS, _GLOBE_INPUTS = (("swiss roll", "stretched × 3"), ("fishbowl", "stretched × 4"),
                                                      ("30 × 30", "30 × 10"))
PHI_LENGTHS = (1.5, 2.0, 3.0, 4.0, 6.0)


def _length_key(length):
    """A panel key for a strip's length, usable in a template: ``L1_5`` for 1.5."""
    return f"L{length:g}".replace(".", "_")


_phi = {_length_key(length): _run("strip", "laplacian", 8, n=1000, length=length) for length in PHI_LENGTHS}


def _pair_panels(runs, pairs, suffixes, names):
    """Panels A1, B1, … then A2, B2, …: each algorithm of ``pairs`` on each variant."""
    return [Panel(f"{key}_{suffix}", f"{chr(65 + index)}{row}: {label}, {name}", runs[f"{key}_{suffix}"])
            for row, (suffix, name) in enumerate(zip(suffixes, names), start=1)
            for index, (key, label) in enumerate(pairs)]


PN_STEPS = (
    _step("pn-fig1-strip", "PN Fig. 1 (A–D): LTSA on a 6 × 1 strip, clean and with normal noise",
          _state(_strip["clean"], color="truth-0"),
          "1000 points of the strip [0, 6] × [0, 1], K = 8 (PN Fig. 1). On the clean strip LTSA returns an affine "
          "image of it (affine residual {clean.affine:.1e}): normalization has rescaled and sheared the strip, so "
          "distances are lost, and so are neighbourhoods ({clean.neighbourhood_agreement:.0%} of each point's 8 "
          "nearest neighbours are no longer its nearest in the output; PN Fig. 1 E, F, marked here for the point "
          "nearest the strip's centre: rings its input neighbours, crosses its output ones) — PN still call this a "
          "success. With Gaussian noise of variance 1e-4 normal to the strip, LTSA prefers a curve: collapse "
          "score {noisy.collapse:.4f} (clean: {clean.collapse:.2f}), PN's Fig. 1 D.",
          [Claim("The clean output is an affine image of the strip (affine residual {clean.affine:.1e} < 1e-6).",
                 lambda v: v.clean.affine < 1e-6),
           Claim("…yet it loses neighbourhoods: 1 − M_LC = {clean.neighbourhood_agreement:.2f} (above 0.2).",
                 lambda v: v.clean.neighbourhood_agreement > 0.2),
           Claim("With noise of variance 1e-4 the output collapses onto a curve (collapse score "
                 "{noisy.collapse:.4f} < 0.1; clean {clean.collapse:.2f} > 0.3).",
                 lambda v: v.noisy.collapse < 0.1 and v.clean.collapse > 0.3)],
          [Panel("clean", "B: LTSA, clean strip", _strip["clean"]),
           Panel("noisy", "D: LTSA, noise of variance 1e-4", _strip["noisy"])],
          captions=("collapse", "neighbourhood_agreement"), marked=True),
    _step("pn-fig4-grid39", "PN Fig. 4 (A–D): LEM and DFM on 81 × 41 and 81 × 39 grids",
          _state(_grid["diffusion_maps_39"], color="truth-1"),
          "The integer grids of 81 × 41 and 81 × 39 points, K = 8 (PN Fig. 4). PN Theorem 4.1: past aspect 2 the "
          "normalized grid costs LEM more than a curve, Φ(Y) > Φ(Z). LEM's Φ(Y)/Φ(Z) is {laplacian_41.phi_ratio:.3f} "
          "on 81 × 41 and {laplacian_39.phi_ratio:.3f} on 81 × 39, and the outputs follow: collapse score "
          "{laplacian_41.collapse:.2f} against {laplacian_39.collapse:.1e} for LEM, {diffusion_maps_41.collapse:.2f} "
          "against {diffusion_maps_39.collapse:.1e} for diffusion maps (DFM, whose kernel PN's argument covers "
          "too). Colour: the short coordinate j, which a collapsed output folds onto the long one.",
          [Claim("LEM's Φ(Y)/Φ(Z) crosses 1 between the two grids ({laplacian_41.phi_ratio:.3f} < 1 < "
                 "{laplacian_39.phi_ratio:.3f}): the switch is at aspect 2.",
                 lambda v: v.laplacian_41.phi_ratio < 1 < v.laplacian_39.phi_ratio),
           Claim("LEM and DFM keep both dimensions of the 81 × 41 grid (collapse score above 0.3)…",
                 lambda v: min(v.laplacian_41.collapse, v.diffusion_maps_41.collapse) > 0.3),
           Claim("…and collapse the 81 × 39 grid onto a curve (below 0.1).",
                 lambda v: max(v.laplacian_39.collapse, v.diffusion_maps_39.collapse) < 0.1)],
          [Panel("laplacian_41", "A: LEM, 81 × 41", _grid["laplacian_41"]),
           Panel("laplacian_39", "B: LEM, 81 × 39", _grid["laplacian_39"]),
           Panel("diffusion_maps_41", "C: DFM, 81 × 41", _grid["diffusion_maps_41"]),
           Panel("diffusion_maps_39", "D: DFM, 81 × 39", _grid["diffusion_maps_39"])],
          captions=("collapse", "phi_ratio")),
    _step("pn-fig5-random-grid", "PN Fig. 5 (A–F): 3000 random points at aspect 81/41 and 81/39",
          _state(_random_grid["laplacian_39"], color="truth-1", tab="normalization",
                 normalization=("strip", 2.08, 3000, 8)),
          "3000 uniform points of the rectangles [0, 81/41] × [0, 1] and [0, 81/39] × [0, 1] (PN's [0, 81] × [0, "
          "41] and [0, 81] × [0, 39], scaled; random state 1), K = 8 (PN Fig. 5). Extremely similar inputs, "
          "sharply different outputs: LEM's collapse score falls from {laplacian_41.collapse:.2f} to "
          "{laplacian_39.collapse:.3f}, DFM's from {diffusion_maps_41.collapse:.2f} to "
          "{diffusion_maps_39.collapse:.3f}, as LEM's Φ(Y)/Φ(Z) passes 1 ({laplacian_41.phi_ratio:.3f}, "
          "{laplacian_39.phi_ratio:.3f}). The Normalization tab is set to the 81/39 rectangle at random state 0 "
          "(its study's): press Run there for all four normalized algorithms and the Φ curve.",
          [Claim("At 81/41 LEM and DFM keep both dimensions (collapse score above 0.3).",
                 lambda v: min(v.laplacian_41.collapse, v.diffusion_maps_41.collapse) > 0.3),
           Claim("At 81/39 both collapse (below 0.1).",
                 lambda v: max(v.laplacian_39.collapse, v.diffusion_maps_39.collapse) < 0.1),
           Claim("LEM's Φ(Y)/Φ(Z) is at most 1 at 81/41 and above 1 at 81/39 ({laplacian_41.phi_ratio:.3f}, "
                 "{laplacian_39.phi_ratio:.3f}).",
                 lambda v: v.laplacian_41.phi_ratio <= 1 < v.laplacian_39.phi_ratio)],
          [Panel("laplacian_41", "B: LEM, 81/41", _random_grid["laplacian_41"]),
           Panel("diffusion_maps_41", "C: DFM, 81/41", _random_grid["diffusion_maps_41"]),
           Panel("laplacian_39", "E: LEM, 81/39", _random_grid["laplacian_39"]),
           Panel("diffusion_maps_39", "F: DFM, 81/39", _random_grid["diffusion_maps_39"])],
          captions=("collapse", "phi_ratio")),
    _step("pn-fig7-stretched", "PN Figs. 6 (A), 7: a swiss roll and the same stretched × 3, six algorithms",
          _state(_stretched["ltsa_3"], color="truth-0"),
          "The 1600-point swiss roll and the same roll with its first coordinate stretched by 3, K = 8 (PN Fig. "
          "7). On the stretched roll every normalized-output algorithm collapses: collapse scores LEM "
          "{laplacian_3.collapse:.3f}, DFM {diffusion_maps_3.collapse:.3f}, LLE {lle_3.collapse:.3f}, LTSA "
          "{ltsa_3.collapse:.3f}. On the plain roll LTSA does not ({ltsa_1.collapse:.2f}), but LEM and DFM "
          "already do ({laplacian_1.collapse:.3f}, {diffusion_maps_1.collapse:.3f}): the unrolled roll is "
          "{laplacian_1.truth_aspect:.1f} times longer than wide, past their aspect limit of about 2. Not "
          "reproduced: PN's HLLE collapses the stretched roll, ours keeps both dimensions (collapse score "
          "{hlle_3.collapse:.2f}). PN ran the authors' Matlab code with a correction they do not give; ours "
          "solves for the Hessian null space with a sparse eigensolver.",
          [Claim("On the stretched roll LEM, DFM, LLE and LTSA collapse (collapse score below 0.1).",
                 lambda v: max(v[f"{key}_3"].collapse for key in NORMALIZED4) < 0.1),
           Claim("On the plain roll LTSA keeps both dimensions (above 0.3)…", lambda v: v.ltsa_1.collapse > 0.3),
           Claim("…while LEM and DFM collapse it already (below 0.1; the roll's aspect "
                 "{laplacian_1.truth_aspect:.1f} > 2).",
                 lambda v: max(v.laplacian_1.collapse, v.diffusion_maps_1.collapse) < 0.1
                 and v.laplacian_1.truth_aspect > 2),
           Claim("Isomap keeps the plain roll's two dimensions (collapse score {isomap_1.collapse:.2f} > 0.3).",
                 lambda v: v.isomap_1.collapse > 0.3),
           Claim("Not reproduced: our HLLE keeps both dimensions of the stretched roll (collapse score above 0.1).",
                 lambda v: v.hlle_3.collapse > 0.1)],
          _pair_panels(_stretched, SIX, ("1", "3"), _STRETCHED_INPUTS), inputs=_STRETCHED_INPUTS,
          reproduced="partly", captions=("collapse",)),
    _step("pn-fig8-fishbowl", "PN Figs. 6 (B), 8: a fishbowl and the same stretched × 4, six algorithms",
          _state(_fishbowl["ltsa_4"], color="truth-0"),
          "2400 points of a sphere without its top cap, and the same stretched × 4 along its first coordinate, K "
          "= 8 (PN Fig. 8). The bowl's truth chart is round, so its collapse is measured along the stretched "
          "input's own long axis. Stretched, LEM, DFM and LTSA fold the bowl onto a curve (scores "
          "{laplacian_4.input_collapse:.3f}, {diffusion_maps_4.input_collapse:.3f}, {ltsa_4.input_collapse:.3f}); "
          "unstretched they do not ({laplacian_1.input_collapse:.2f}, {diffusion_maps_1.input_collapse:.2f}, "
          "{ltsa_1.input_collapse:.2f}). Isomap keeps both dimensions ({isomap_4.input_collapse:.2f}). Not "
          "reproduced: our LLE does not collapse the stretched bowl ({lle_4.input_collapse:.2f}).",
          [Claim("Stretched × 4, LEM, DFM and LTSA collapse (below 0.1)…",
                 lambda v: max(v[f"{key}_4"].input_collapse for key in ("laplacian", "diffusion_maps", "ltsa")) < 0.1),
           Claim("…and unstretched they do not (above 0.3).",
                 lambda v: min(v[f"{key}_1"].input_collapse for key in ("laplacian", "diffusion_maps", "ltsa")) > 0.3),
           Claim("Isomap keeps the stretched bowl two-dimensional (above 0.3).",
                 lambda v: v.isomap_4.input_collapse > 0.3),
           Claim("Not reproduced: LLE does not collapse it (above 0.1).", lambda v: v.lle_4.input_collapse > 0.1)],
          _pair_panels(_fishbowl, SIX, ("1", "4"), _FISHBOWL_INPUTS), inputs=_FISHBOWL_INPUTS,
          reproduced="partly", captions=("input_collapse",)),
    _step("pn-fig9-globe", "PN Figs. 6 (C), 9: globe images, the 30 × 30 array and the 30 × 10 strip",
          _state(_globe["ltsa_10"], color="truth-0"),
          "Rendered images of a textured globe turned through 90° of azimuth and 90° (30 × 30) or 30° (30 × 10) of "
          "elevation, 32 × 32 pixels (our stand-in for PN's photographs of Hamm et al.), K = 8 (PN Fig. 9). The "
          "images form a two-dimensional manifold in pixel space, chart (azimuth, elevation). On the square "
          "array every algorithm keeps both angles (collapse scores from {step.lowest_30:.2f}); on the 3:1 strip "
          "LEM and DFM fold it onto the azimuth ({laplacian_10.collapse:.3f}, {diffusion_maps_10.collapse:.3f}), "
          "while LLE, LTSA and Isomap keep both ({lle_10.collapse:.2f}, {ltsa_10.collapse:.2f}, "
          "{isomap_10.collapse:.2f}). PN report that all normalized-output algorithms collapse such long inputs: "
          "for LLE and LTSA on our globe strip that is not reproduced. Hover a point of the explore view below to "
          "see its image.",
          [Claim("On the 30 × 30 array no algorithm collapses (collapse score above 0.3).",
                 lambda v: v.step.lowest_30 > 0.3),
           Claim("On the 30 × 10 strip LEM and DFM collapse (below 0.1).",
                 lambda v: max(v.laplacian_10.collapse, v.diffusion_maps_10.collapse) < 0.1),
           Claim("Not reproduced: LLE and LTSA keep the strip two-dimensional (above 0.3).",
                 lambda v: min(v.lle_10.collapse, v.ltsa_10.collapse) > 0.3)],
          _pair_panels(_globe, SIX, ("30", "10"), _GLOBE_INPUTS), inputs=_GLOBE_INPUTS, reproduced="partly",
          derive=lambda v: {"lowest_30": min(v[f"{key}_30"].collapse for key, _ in SIX)}, captions=("collapse",)),
    _step("pn-phi-curve", "PN §4–6: LEM's Φ(Y)/Φ(Z) along the strip's length",
          _state(_phi["L6"], color="truth-0", tab="explore", normalization=("strip", 6.0, 1000, 8)),
          "LEM on 1000 points of strips [0, L] × [0, 1], K = 8. PN's necessary condition for success, Φ(Y) ≤ "
          "Φ(Z), fails from L = {step.first_failing:g}: Φ(Y)/Φ(Z) = {L1_5.phi_ratio:.2f}, {L2.phi_ratio:.2f}, "
          "{L3.phi_ratio:.2f}, {L4.phi_ratio:.2f}, {L6.phi_ratio:.2f} for L = 1.5, 2, 3, 4, 6 (on the regular grid "
          "the switch is exactly at 2; a random sample's edges blur it). The outputs follow: collapse score "
          "{L1_5.collapse:.2f} at L = 1.5, {L6.collapse:.3f} at L = 6. The Normalization tab is set to the 6 × 1 "
          "strip with all four normalized algorithms: press Run there for the curve over every aspect.",
          [Claim("Φ(Y)/Φ(Z) grows with L.", lambda v: _increasing(v, list(_phi), "phi_ratio")),
           Claim("It is below 1 at L = 1.5 and above 1 at L = 6.",
                 lambda v: v.L1_5.phi_ratio < 1 < v.L6.phi_ratio),
           Claim("LEM keeps both dimensions at L = 1.5 (collapse score above 0.3) and collapses at L = 6 (below "
                 "0.1).", lambda v: v.L1_5.collapse > 0.3 and v.L6.collapse < 0.1)],
          [Panel(_length_key(length), f"LEM, L = {length:g}", _phi[_length_key(length)], "LEM")
           for length in PHI_LENGTHS],
          curve=("phi_ratio", "collapse"), curve_x="length",
          derive=lambda v: {"first_failing": min((length for length in PHI_LENGTHS
                                                  if v[_length_key(length)].phi_ratio > 1), default=0.0)},
          captions=("phi_ratio", "collapse")),
)

# ---------------------------------------------------------------------------------------------
# ML: Zhang & Wang, MLLE.
_peaks = {key: _run("three_peaks", key, 12, n=1225) for key in ("ltsa", "mlle")}
_digits = {key: _run("digits", key, 12, classes="2-5") for key in ("lle", "mlle")}

ML_STEPS = (
    _step("ml-fig3-swisshole", "ML Fig. 3: a swiss roll with a hole, Isomap, LTSA, LLE and MLLE at k = 10",
          _state(_nq3["mlle"], color="truth-0"),
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
          [Panel("isomap", "Isomap", _nq3["isomap"]), Panel("ltsa", "LTSA", _nq3["ltsa"]),
           Panel("lle", "LLE", _nq3["lle"]), Panel("mlle", "MLLE", _nq3["mlle"])],
          captions=("truth_match", "normalized")),
    _step("ml-fig4-peaks", "ML Fig. 4: three peaks, LTSA and MLLE at k = 12",
          _state(_peaks["mlle"], color="truth-0"),
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
    _step("ml-fig5-digits", "ML Fig. 5: handwritten digits 2–5, LLE and MLLE",
          _state(_digits["mlle"], color="truth-0"),
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

# ---------------------------------------------------------------------------------------------
# The lecture: Aamari, "Dimension reduction and manifold learning: from MDS to dimension reduction".
LECTURE_SWISS = {"n": 1600, "random_state": 2}
_classical = {key: _run("swissroll", key, 10, **LECTURE_SWISS) for key in ("pca", "mds")}
_plane = {"strip": _run("strip", "pca", 10, n=1000, length=6.0), "roll": _classical["pca"]}
_isomap = {"isomap": _run("swissroll", "isomap", 10, **LECTURE_SWISS), "pca": _classical["pca"]}
LECTURE_KS = (5, 7, 9, 11, 12, 13, 15)
_bandwidth = {f"k{k}": _run("swissroll", "isomap", k, n=1600) for k in LECTURE_KS}
_convex = {"roll": _run("swissroll", "isomap", 10, n=1000), "hole": _nq3["isomap"]}
_lle = {"lle": _run("swissroll", "lle", 10, **LECTURE_SWISS), "isomap": _isomap["isomap"]}

LECTURE_STEPS = (
    _step("lecture-classical-scaling", "Classical scaling of Euclidean distances is PCA",
          _state(_classical["mds"], color="truth-0"),
          "Classical scaling double-centres the squared distances, −½HΔ²H = XX', and keeps the top eigenvectors "
          "scaled by √λ: with Euclidean distances that is Y = US, exactly PCA's XV. On the 1600-point swiss roll "
          "both outputs are the same up to signs: R_N {mds.normalized:.6f} and {pca.normalized:.6f}, R_C "
          "{mds.conformal:.6f} and {pca.conformal:.6f}. Neither unrolls the roll: a linear map cannot "
          "(shape residual against the unrolled truth {pca.shape:.2f}).",
          [Claim("MDS and PCA give the same output up to an isometry: R_N, R_C and shape residual agree to 1e-9.",
                 lambda v: all(abs(v.mds[name] - v.pca[name]) < 1e-9 for name in ("normalized", "conformal", "shape")),
                 identity=True),
           Claim("Neither unrolls the roll (shape residual {pca.shape:.2f} > 0.5).", lambda v: v.pca.shape > 0.5)],
          [Panel("pca", "PCA", _classical["pca"]), Panel("mds", "classical MDS", _classical["mds"])],
          captions=("normalized", "shape")),
    _step("lecture-pca-plane", "PCA recovers points on a plane exactly, not a curved surface",
          _state(_plane["strip"], color="truth-0"),
          "PCA is exact when the points lie on a d-plane: on a 6 × 1 strip placed in R³, R_N is {strip.normalized:.1e} "
          "and the output is the strip itself (shape residual {strip.shape:.1e}). On the swiss roll the best "
          "plane projects the turns onto each other: R_N {roll.normalized:.2f}, and the output keeps nothing of "
          "the unrolled rectangle's proportions (shape residual {roll.shape:.2f}). The lower bound, "
          "{roll.lower_bound:.4f}, only says that no planar output scores below it, not that one reaches it.",
          [Claim("On the plane PCA is exact (R_N and shape residual below 1e-12).",
                 lambda v: max(v.strip.normalized, v.strip.shape) < 1e-12),
           Claim("On the roll it is not: R_N {roll.normalized:.2f} > 0.2 and shape residual {roll.shape:.2f} > 0.5.",
                 lambda v: v.roll.normalized > 0.2 and v.roll.shape > 0.5)],
          [Panel("strip", "PCA of a strip", _plane["strip"]), Panel("roll", "PCA of a swiss roll", _plane["roll"])],
          captions=("normalized", "shape")),
    _step("lecture-isomap", "Isomap: graph geodesics, then classical scaling",
          _state(_isomap["isomap"], color="truth-0"),
          "Isomap replaces Euclidean distances by shortest paths in the k-nearest-neighbour graph (k = 10), which "
          "approximate geodesics, then applies classical scaling. The swiss roll is isometric to a rectangle, a "
          "convex set: Isomap unrolls it (shape residual {isomap.shape:.1e}, R_N {isomap.normalized:.3f}) where "
          "classical scaling of the Euclidean distances (PCA) could not ({pca.shape:.2f}, {pca.normalized:.2f}).",
          [Claim("Isomap keeps the rectangle's proportions (shape residual below 0.01).",
                 lambda v: v.isomap.shape < 0.01),
           Claim("It beats PCA on every count: R_N, R_C and M_t.",
                 lambda v: all(v.isomap[name] < v.pca[name] for name in ("normalized", "conformal", "truth_match")))],
          [Panel("pca", "classical scaling of Euclidean distances", _isomap["pca"]),
           Panel("isomap", "Isomap (graph geodesics), k = 10", _isomap["isomap"])], captions=("normalized", "shape"),
          reads=("conformal", "truth_match")),
    _step("lecture-isomap-k", "Isomap's bandwidth: k too small, k too large",
          _state(_bandwidth["k12"]),
          "Isomap on a 1600-point roll (random state 0) for k = 5 … 15. Small k: the graph's paths zigzag and "
          "overestimate geodesics (R_N {k5.normalized:.3f} at k = 5). Larger k: smoother paths, lower R_N "
          "({k11.normalized:.3f} at k = 11), until an edge jumps between two turns, from k = {step.first_short} "
          "({k12.short_circuits} edge at k = 12, {k15.short_circuits} at k = 15), and the output folds (R_N "
          "{k12.normalized:.3f}, shape residual {k12.shape:.2f}). Click a bright point to see its neighbours "
          "across the gap.",
          [Claim("R_N falls as k grows while no edge short-circuits.",
                 lambda v: _increasing(v, [f"k{k}" for k in reversed(LECTURE_KS) if v[f"k{k}"].short_circuits == 0],
                                       "normalized")),
           Claim("The first short circuit, at k = {step.first_short}, more than doubles R_N over the k before it.",
                 lambda v: v[f"k{v.step.first_short}"].normalized > 2 * v[
                     f"k{LECTURE_KS[LECTURE_KS.index(v.step.first_short) - 1]}"].normalized),
           Claim("The fold costs the proportions: shape residual at k = 12 {k12.shape:.2f} > 0.2.",
                 lambda v: v.k12.shape > 0.2)],
          [Panel(key, f"Isomap, k = {key[1:]}", request, "Isomap") for key, request in _bandwidth.items()],
          outputs=("k5", "k11", "k12"), curve=("normalized", "short_circuits"),
          derive=lambda v: {"first_short": min((k for k in LECTURE_KS if v[f"k{k}"].short_circuits > 0),
                                               default=0)}, captions=("normalized", "short_circuits")),
    _step("lecture-isomap-hole", "Isomap needs a convex chart: a swiss roll with a hole",
          _state(_convex["hole"], color="truth-0"),
          "Isomap is exact in the limit only when the manifold is isometric to a convex set. Cut a hole in the "
          "roll's rectangle: shortest paths detour around it, longer than the straight chart distances, and "
          "classical scaling dilates the hole and bends the rest. On 1000 points at k = 10 the shape residual "
          "grows from {roll.shape:.1e} (plain roll) to {hole.shape:.1e} (with the hole).",
          [Claim("The hole costs Isomap over 5 times its shape residual.", lambda v: v.hole.shape > 5 * v.roll.shape)],
          [Panel("roll", "Isomap, swiss roll", _convex["roll"]), Panel("hole", "Isomap, with a hole", _convex["hole"])],
          captions=("shape", "normalized")),
    _step("lecture-lle", "LLE: barycentric weights, a normalized output",
          _state(_lle["lle"], color="truth-0"),
          "LLE writes each point as an affine combination of its k = 10 neighbours, then finds the output that "
          "keeps those weights, under the constraint of unit variance per coordinate: it sets its own scale. "
          "Its output keeps the points' order along the roll but is no rescaled copy of the chart: the "
          "{lle.truth_aspect:.1f}:1 rectangle comes out with aspect {lle.aspect:.1f}, fanned (its short side "
          "stretched at one end; shape residual {lle.shape:.2f}). Locally it is right up to a scale per axis "
          "(ASIM {lle.asim:.3f}), but R_N, which allows no scale, reads {lle.normalized:.2f} against Isomap's "
          "{isomap.normalized:.3f}.",
          [Claim("LLE's output does not keep the chart's proportions: shape residual {lle.shape:.2f} > 0.2, aspect "
                 "{lle.aspect:.1f}, under half the chart's {lle.truth_aspect:.1f}.",
                 lambda v: v.lle.shape > 0.2 and v.lle.aspect < v.lle.truth_aspect / 2),
           Claim("Yet its R_N is above 0.7, ten times Isomap's.",
                 lambda v: v.lle.normalized > 0.7 and v.lle.normalized > 10 * v.isomap.normalized)],
          [Panel("lle", "LLE, k = 10", _lle["lle"]), Panel("isomap", "Isomap, k = 10", _lle["isomap"])],
          captions=("normalized", "asim")),
)

def measured_as_read(tours):
    """``tours`` with each panel's run computing only the measures its steps read (:meth:`Step.measures_read`).

    A run Explore opens (a step's own view) keeps every measure: the page shows them all, and the
    step then reads the run the page computed. A run several steps share computes what any of them
    reads, so it stays one computation. The measures no step reads (trustworthiness, DEMaP, KL, …) were
    most of a cold step's time: GR Table 2's 75 runs read R_N and R_C only.
    """
    steps = [step for tour in tours for step in tour.steps]
    opened = {RunRequest.from_state(step.state) for step in steps}
    read = {}
    for step in steps:
        for panel in step.panels:
            read.setdefault(panel.request, set()).update(step.measures_read())

    def narrowed(step):
        return dataclasses.replace(step, panels=tuple(
            panel if panel.request in opened else dataclasses.replace(panel, request=panel.request.measuring(
                read[panel.request])) for panel in step.panels))

    return tuple(dataclasses.replace(tour, steps=tuple(narrowed(step) for step in tour.steps)) for tour in tours)


# ---------------------------------------------------------------------------------------------
TOURS = measured_as_read((
    Tour("gr", "Goldberg & Ritov: local Procrustes", "Y. Goldberg and Y. Ritov, Local Procrustes for manifold "
         "embedding: a measure of embedding quality and embedding algorithms, Machine Learning 77 (2009) 1–25.",
         GR_STEPS),
    Tour("nq", "Zhang, Ren & Zhang: NIEQA", "P. Zhang, Y. Ren and B. Zhang, A new embedding quality assessment "
         "method for manifold learning (NIEQA), Neurocomputing 97 (2012) 251–266.", NQ_STEPS),
    Tour("pn", "Goldberg, Zakai, Kushnir & Ritov: the price of normalization", "Y. Goldberg, A. Zakai, D. "
         "Kushnir and Y. Ritov, Manifold learning: the price of normalization, JMLR 9 (2008) 1909–1939.", PN_STEPS),
    Tour("ml", "Zhang & Wang: MLLE", "Z. Zhang and J. Wang, MLLE: modified locally linear embedding using "
         "multiple weights, NIPS 19 (2007).", ML_STEPS),
    Tour("lecture", "Aamari: from MDS to manifold learning", "E. Aamari, Dimension reduction and manifold learning: "
         "from MDS to dimension reduction (lecture, Master MASH, Dauphine PSL).", LECTURE_STEPS),
))
STEPS = {step.name: step for tour in TOURS for step in tour.steps}
# The view states may name these steps (a link, a file, the tours' index), and a link opens from the step's state.
register_tour_steps({name: step.state for name, step in STEPS.items()})

# Former preset name -> the step that shows its figure now.
FORMER_PRESETS = {
    "gr-fig1-isomap": "gr-fig1", "gr-fig1-ltsa": "gr-fig1", "gr-fig1-lle": "gr-fig1",
    "gr-44-refined-lle": "gr-44-refined-lle", "gr-fig2-hemisphere": "gr-fig2-hemisphere",
    "gr-fig3-cylinder": "gr-fig3-cylinder", "gr-fig5-cylinder-lle": "gr-fig5-cylinder-lle",
    "gr-fig6-noisy": "gr-fig6-noisy", "gr-table2": "gr-table2", "nq-3a-rectangle": "nq-3a-rectangle",
    "nq-fig2-swissroll": "nq-fig2-swissroll", "nq-fig3-swisshole": "nq-fig3-swisshole",
    "nq-fig4-gaussian": "nq-fig4-gaussian", "nq-fig6-ltsa-k": "nq-fig6-ltsa-k", "pn-fig1-strip": "pn-fig1-strip",
    "pn-fig4-grid39": "pn-fig4-grid39", "pn-fig5-random-grid": "pn-fig5-random-grid",
    "pn-fig7-stretched": "pn-fig7-stretched", "pn-fig8-fishbowl": "pn-fig8-fishbowl", "pn-fig9-globe": "pn-fig9-globe",
    "ml-fig3-swisshole": "ml-fig3-swisshole", "ml-fig4-peaks": "ml-fig4-peaks", "ml-fig5-digits": "ml-fig5-digits",
}


def locate(name):
    """``(tour, index)`` of step ``name`` (a KeyError naming the steps if there is none)."""
    for tour in TOURS:
        for index, step in enumerate(tour.steps):
            if step.name == name:
                return tour, index
    raise KeyError(f"no tour step {name!r}; steps: {', '.join(STEPS)}")


def applied(name, current=None):
    """The view state that opens step ``name`` from the view ``current``.

    The step's state, except the presentation mode and the image format of ``current``: a
    lecturer's projector setting survives Next and Back.
    """
    if name not in STEPS:
        locate(name)  # a KeyError naming the steps
    state = STEPS[name].state
    if current is None:
        return state
    display = dataclasses.replace(state.display, presentation=current.display.presentation,
                                  figure_format=current.display.figure_format)
    return state.replace(display=display)


@dataclasses.dataclass(frozen=True)
class Preset:
    """One entry of the tours' index: a step's name, its menu label, its state and its text (a template).

    Attributes
    ----------
    name : str
    label : str
        ``"GR 1/8 · GR Fig. 1 (A–F): …"``: the paper, the step's place in its tour, its title.
    state : lab.view.state.ViewState
    caption : str
        The step's text template (the page fills it from the computed step).
    """

    name: str
    label: str
    state: ViewState
    caption: str


PRESETS = tuple(Preset(step.name, f"{tour.key.upper()} {index}/{len(tour.steps)} · {step.title}", step.state,
                       step.text)
                for tour in TOURS for index, step in enumerate(tour.steps, start=1))
_BY_NAME = {entry.name: entry for entry in PRESETS}


def preset(name):
    """The index entry of step ``name``, or of the step that replaced former preset ``name``."""
    try:
        return _BY_NAME[FORMER_PRESETS.get(name, name)]
    except KeyError:
        raise KeyError(f"no preset {name!r}; presets: {', '.join(_BY_NAME)}") from None
