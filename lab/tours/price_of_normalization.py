"""PN's tour: the figures of Goldberg, Zakai, Kushnir & Ritov's price of normalization, each a step (:data:`TOUR`).

Y. Goldberg, A. Zakai, D. Kushnir and Y. Ritov, Manifold learning: the price of normalization, JMLR 9
(2008) 1909–1939.

Figs. 1 and 4–9, and LEM's Φ(Y)/Φ(Z) along a strip's length (§4–6); K = 8 throughout, as PN. The
normalization study itself is :mod:`lab.compute.normalization`; :mod:`lab.tours.presets` assembles the
tours. No Dash here.
"""

from .authoring import increasing, make_step, run_request, step_state
from .steps import Claim, Panel, Tour

__all__ = ["TOUR"]

SIX = (("laplacian", "LEM"), ("diffusion_maps", "DFM"), ("lle", "LLE"), ("ltsa", "LTSA"), ("hlle", "HLLE"),
       ("isomap", "Isomap"))
NORMALIZED4 = ("laplacian", "diffusion_maps", "lle", "ltsa")
_strip = {"clean": run_request("strip", "ltsa", 8, n=1000, length=6.0),
          "noisy": run_request("strip", "ltsa", 8, n=1000, length=6.0, thickness=0.01)}
_grid = {f"{key}_{rows}": run_request("grid", key, 8, half_width=40, half_height=(rows - 1) // 2)
         for key in ("laplacian", "diffusion_maps") for rows in (41, 39)}
# Random state 1: at 0 LEM's output at 81/39 is only half collapsed (score 0.12); PN's sample is theirs.
_random_grid = {f"{key}_{rows}": run_request("strip", key, 8, n=3000, random_state=1, length=81 / rows)
                for key in ("laplacian", "diffusion_maps") for rows in (41, 39)}
_stretched = {f"{key}_{factor:g}": run_request(dataset, key, 8, n=n, stretch=factor)
              for dataset, n, factors in (("swissroll", 1600, (1.0, 3.0)),) for factor in factors for key, _ in SIX}
_fishbowl = {f"{key}_{factor:g}": run_request("fishbowl", key, 8, n=2400, stretch=factor)
             for factor in (1.0, 4.0) for key, _ in SIX}
_globe = {f"{key}_{rows}": run_request("globe", key, 8, elevation_rows=rows) for rows in (30, 10) for key, _ in SIX}
# The rows of PN Figs. 7–9: each input's name, written once above its row's input panel.
_STRETCHED_INPUTS, _FISHBOWL_INPUTS, _GLOBE_INPUTS = (("swiss roll", "stretched × 3"), ("fishbowl", "stretched × 4"),
                                                      ("30 × 30", "30 × 10"))
PHI_LENGTHS = (1.5, 2.0, 3.0, 4.0, 6.0)


def _length_key(length):
    """A panel key for a strip's length, usable in a template: ``L1_5`` for 1.5."""
    return f"L{length:g}".replace(".", "_")


_phi = {_length_key(length): run_request("strip", "laplacian", 8, n=1000, length=length) for length in PHI_LENGTHS}


def _pair_panels(runs, pairs, suffixes):
    """Panels A1, B1, … then A2, B2, …: each algorithm of ``pairs`` on each variant (a row of the figure,
    named once by its input's panel, as PN name their rows: seven titles that each repeat "stretched × 4"
    ran into one another at 1280 × 720)."""
    return [Panel(f"{key}_{suffix}", f"{chr(65 + index)}{row}: {label}", runs[f"{key}_{suffix}"])
            for row, suffix in enumerate(suffixes, start=1)
            for index, (key, label) in enumerate(pairs)]


PN_STEPS = (
    make_step("pn-fig1-strip", "PN Fig. 1 (A–D): LTSA on a 6 × 1 strip, clean and with normal noise",
          step_state(_strip["clean"], color="truth-0"),
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
    make_step("pn-fig4-grid39", "PN Fig. 4 (A–D): LEM and DFM on 81 × 41 and 81 × 39 grids",
          step_state(_grid["diffusion_maps_39"], color="truth-1"),
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
    make_step("pn-fig5-random-grid", "PN Fig. 5 (A–F): 3000 random points at aspect 81/41 and 81/39",
          step_state(_random_grid["laplacian_39"], color="truth-1", tab="normalization",
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
    make_step("pn-fig7-stretched", "PN Figs. 6 (A), 7: a swiss roll and the same stretched × 3, six algorithms",
          step_state(_stretched["ltsa_3"], color="truth-0"),
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
          _pair_panels(_stretched, SIX, ("1", "3")), inputs=_STRETCHED_INPUTS,
          reproduced="partly", captions=("collapse",)),
    make_step("pn-fig8-fishbowl", "PN Figs. 6 (B), 8: a fishbowl and the same stretched × 4, six algorithms",
          step_state(_fishbowl["ltsa_4"], color="truth-0"),
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
          _pair_panels(_fishbowl, SIX, ("1", "4")), inputs=_FISHBOWL_INPUTS,
          reproduced="partly", captions=("input_collapse",)),
    make_step("pn-fig9-globe", "PN Figs. 6 (C), 9: globe images, the 30 × 30 array and the 30 × 10 strip",
          step_state(_globe["ltsa_10"], color="truth-0"),
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
          _pair_panels(_globe, SIX, ("30", "10")), inputs=_GLOBE_INPUTS, reproduced="partly",
          derive=lambda v: {"lowest_30": min(v[f"{key}_30"].collapse for key, _ in SIX)}, captions=("collapse",)),
    make_step("pn-phi-curve", "PN §4–6: LEM's Φ(Y)/Φ(Z) along the strip's length",
          step_state(_phi["L6"], color="truth-0", tab="explore", normalization=("strip", 6.0, 1000, 8)),
          "LEM on 1000 points of strips [0, L] × [0, 1], K = 8. PN's necessary condition for success, Φ(Y) ≤ "
          "Φ(Z), fails from L = {step.first_failing:g}: Φ(Y)/Φ(Z) = {L1_5.phi_ratio:.2f}, {L2.phi_ratio:.2f}, "
          "{L3.phi_ratio:.2f}, {L4.phi_ratio:.2f}, {L6.phi_ratio:.2f} for L = 1.5, 2, 3, 4, 6 (on the regular grid "
          "the switch is exactly at 2; a random sample's edges blur it). The outputs follow: collapse score "
          "{L1_5.collapse:.2f} at L = 1.5, {L6.collapse:.3f} at L = 6. The Normalization tab is set to the 6 × 1 "
          "strip with all four normalized algorithms: press Run there for the curve over every aspect.",
          [Claim("Φ(Y)/Φ(Z) grows with L.", lambda v: increasing(v, list(_phi), "phi_ratio")),
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


TOUR = Tour("pn", "Goldberg, Zakai, Kushnir & Ritov: the price of normalization", "Y. Goldberg, A. Zakai, D. "
            "Kushnir and Y. Ritov, Manifold learning: the price of normalization, JMLR 9 (2008) 1909–1939.", PN_STEPS)
