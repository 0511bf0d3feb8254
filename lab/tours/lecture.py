"""The lecture's tour: Aamari's lecture from classical scaling to LLE, each point a step (:data:`TOUR`).

E. Aamari, Dimension reduction and manifold learning: from MDS to dimension reduction (lecture, Master
MASH, Dauphine PSL).

Classical scaling and PCA, Isomap (its bandwidth, a hole in its chart: the swiss roll with a hole of
:mod:`lab.tours.nieqa`) and LLE, the last of the five tours (:mod:`lab.tours.presets`). No Dash here.
"""

from .authoring import increasing, make_step, run_request, step_state
from .nieqa import SWISSHOLE
from .steps import Claim, Panel, Tour

__all__ = ["TOUR"]

LECTURE_SWISS = {"n": 1600, "random_state": 2}
_classical = {key: run_request("swissroll", key, 10, **LECTURE_SWISS) for key in ("pca", "mds")}
_plane = {"strip": run_request("strip", "pca", 10, n=1000, length=6.0), "roll": _classical["pca"]}
_isomap = {"isomap": run_request("swissroll", "isomap", 10, **LECTURE_SWISS), "pca": _classical["pca"]}
LECTURE_KS = (5, 7, 9, 11, 12, 13, 15)
_bandwidth = {f"k{k}": run_request("swissroll", "isomap", k, n=1600) for k in LECTURE_KS}
_convex = {"roll": run_request("swissroll", "isomap", 10, n=1000), "hole": SWISSHOLE["isomap"]}
_lle = {"lle": run_request("swissroll", "lle", 10, **LECTURE_SWISS), "isomap": _isomap["isomap"]}

LECTURE_STEPS = (
    make_step("lecture-classical-scaling", "Classical scaling of Euclidean distances is PCA",
          step_state(_classical["mds"], color="truth-0"),
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
    make_step("lecture-pca-plane", "PCA recovers points on a plane exactly, not a curved surface",
          step_state(_plane["strip"], color="truth-0"),
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
    make_step("lecture-isomap", "Isomap: graph geodesics, then classical scaling",
          step_state(_isomap["isomap"], color="truth-0"),
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
    make_step("lecture-isomap-k", "Isomap's bandwidth: k too small, k too large",
          step_state(_bandwidth["k12"]),
          "Isomap on a 1600-point roll (random state 0) for k = 5 … 15. Small k: the graph's paths zigzag and "
          "overestimate geodesics (R_N {k5.normalized:.3f} at k = 5). Larger k: smoother paths, lower R_N "
          "({k11.normalized:.3f} at k = 11), until an edge jumps between two turns, from k = {step.first_short} "
          "({k12.short_circuits} edge at k = 12, {k15.short_circuits} at k = 15), and the output folds (R_N "
          "{k12.normalized:.3f}, shape residual {k12.shape:.2f}). Click a bright point to see its neighbours "
          "across the gap.",
          [Claim("R_N falls as k grows while no edge short-circuits.",
                 lambda v: increasing(v, [f"k{k}" for k in reversed(LECTURE_KS) if v[f"k{k}"].short_circuits == 0],
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
    make_step("lecture-isomap-hole", "Isomap needs a convex chart: a swiss roll with a hole",
          step_state(_convex["hole"], color="truth-0"),
          "Isomap is exact in the limit only when the manifold is isometric to a convex set. Cut a hole in the "
          "roll's rectangle: shortest paths detour around it, longer than the straight chart distances, and "
          "classical scaling dilates the hole and bends the rest. On 1000 points at k = 10 the shape residual "
          "grows from {roll.shape:.1e} (plain roll) to {hole.shape:.1e} (with the hole).",
          [Claim("The hole costs Isomap over 5 times its shape residual.", lambda v: v.hole.shape > 5 * v.roll.shape)],
          [Panel("roll", "Isomap, swiss roll", _convex["roll"]), Panel("hole", "Isomap, with a hole", _convex["hole"])],
          captions=("shape", "normalized")),
    make_step("lecture-lle", "LLE: barycentric weights, a normalized output",
          step_state(_lle["lle"], color="truth-0"),
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


TOUR = Tour("lecture", "Aamari: from MDS to manifold learning", "E. Aamari, Dimension reduction and manifold "
            "learning: from MDS to dimension reduction (lecture, Master MASH, Dauphine PSL).", LECTURE_STEPS)
