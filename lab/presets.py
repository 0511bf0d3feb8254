"""Paper presets: each figure or table of the source papers as a view state, with what to look for.

A preset is a :class:`~lab.state.ViewState`: choosing one applies it as a link is applied, setting
every control. No Dash here.

GR = Goldberg & Ritov (local Procrustes), NQ = Zhang, Ren & Zhang (NIEQA), PN = Goldberg, Zakai,
Kushnir & Ritov (price of normalization), ML = Zhang & Wang (MLLE).
"""

import dataclasses

from .state import (DataChoice, DisplayChoice, MethodChoice, NormalizationChoice, ViewState)

__all__ = ["Preset", "PRESETS", "preset"]


@dataclasses.dataclass(frozen=True)
class Preset:
    """One reproducible view of a paper.

    Attributes
    ----------
    name : str
        Key, e.g. ``"gr-fig1-isomap"``.
    label : str
        Menu text, starting with the figure it reproduces.
    state : lab.state.ViewState
        The whole view, validated; what the preset does not name is at its default.
    caption : str
        What to look for, and where our numbers differ from the paper's and why.
    """

    name: str
    label: str
    state: ViewState
    caption: str


def _view(dataset, algorithm, k, *, tab="explore", color="normalized", n=None, noise=0.0, random_state=0,
          rescale="authors", refine=0, view="3d", normalization=None, **params):
    """A validated view state: every control named, so a preset never inherits the previous view's values.

    ``normalization`` is ``(shape, aspect, n, k)`` for the normalization tab (PN's presets);
    ``a_<name>`` keywords are algorithm parameters, the others the data set's.
    """
    data_params = tuple((key, value) for key, value in params.items() if not key.startswith("a_"))
    method_params = tuple((key[2:], value) for key, value in params.items() if key.startswith("a_"))
    state = ViewState(
        data=DataChoice(dataset, n, noise, random_state, data_params),
        method=MethodChoice(algorithm, k, method_params, refine, rescale),
        display=DisplayChoice(color=color, input_view=view),
        normalization=NormalizationChoice(*normalization) if normalization else NormalizationChoice(),
        tab=tab)
    return state.validated()


PRESETS = (
    Preset("gr-fig1-isomap", "GR Fig. 1 (E): swiss roll, Isomap, k = 12",
           _view("swissroll", "isomap", 12, n=1600),
           "Isomap keeps the roll's proportions, yet R_N is about 0.25, not GR's 0.01: one k = 12 edge "
           "jumps between two turns of the roll (the yellow points). Lower k to 9 and it drops to 0.11."),
    Preset("gr-fig1-ltsa", "GR Fig. 1 (F): swiss roll, LTSA, k = 12",
           _view("swissroll", "ltsa", 12, n=1600),
           "A visually perfect rectangle with R_N = 0.99: LTSA's unit-norm output (GR Table 2). R_C, which "
           "forgives each neighbourhood a scale, is 0.24; set 'Rescale output' to best global scale to see "
           "how much of R_N is scale alone."),
    Preset("gr-fig1-lle", "GR Fig. 1 (D): swiss roll, LLE, k = 12",
           _view("swissroll", "lle", 12, n=1600),
           "LLE's unit-variance output scores R_N = 0.81 (GR Table 2): the same affine-exact shape costs less "
           "R_N at unit variance than at unit norm."),
    Preset("gr-44-refined-lle", "GR §4.4: LLE followed by Procrustes refinement",
           _view("swissroll", "lle", 12, n=1600, refine=20),
           "20 refinement sweeps take LLE's unit-variance output from R_N 0.81 to about 0.02: the shape was "
           "right, the normalization was not. Set the refinement to 0 to compare."),
    Preset("gr-fig2-hemisphere", "GR Fig. 2: hemisphere, LLE, k = 12",
           _view("hemisphere", "lle", 12, n=2500),
           "No chart of a hemisphere is isometric: every method distorts the rim. Colour by the lower bound "
           "to see where the surface is locally curved at this k."),
    Preset("gr-fig3-cylinder", "GR Fig. 3: cylinder, Isomap, k = 12",
           _view("cylinder", "isomap", 12, n=800),
           "A cylinder has no embedding in the plane: Isomap keeps the ring but not the width (GR: R_N 0.34)."),
    Preset("gr-fig5-cylinder-lle", "GR Fig. 5: cylinder, LLE over k (Sweep tab)",
           _view("cylinder", "lle", 12, n=800, tab="sweep"),
           "Tick LLE, plot R_C and press Run sweep: GR found R_C = 0.25, 0.15, 0.13, 0.19, 0.17 for "
           "k = 6 … 18, smallest at k = 12."),
    Preset("gr-fig6-noisy", "GR Fig. 6: noisy swiss roll, Isomap",
           _view("swissroll", "isomap", 12, n=2500, noise=0.5),
           "Noise (σ = 0.5 here; GR do not state theirs) thickens the roll; the lower bound rises with it, "
           "and graph-based methods short-circuit between turns."),
    Preset("gr-table2", "GR Table 2: swiss roll, all methods at k = 12 (Compare tab)",
           _view("swissroll", "isomap", 12, n=1600, tab="compare"),
           "Press Compare: isometric outputs (PCA, Isomap) against normalized ones (LLE, LTSA, Laplacian "
           "eigenmaps). GR Table 2 lists R_N [R_C]: LLE 0.81 [0.23], Isomap 0.01 [0.01], LTSA 0.99 [0.22]."),
    Preset("nq-3a-rectangle", "NQ §III-A: a rectangle and its normalized embedding",
           _view("strip", "ltsa", 8, n=100, color="asim", length=2.0),
           "LTSA returns the rectangle rescaled per axis: ASIM (colour) is about 0 everywhere while R_N is "
           "near 1. ASIM forgives per-axis scaling; R_N does not."),
    Preset("nq-fig2-swissroll", "NQ Fig. 2: swiss roll, methods compared (Compare tab)",
           _view("swissroll", "isomap", 10, n=1000, tab="compare"),
           "Press Compare (NQ ran LLE, LE, LTSA, Isomap and RML; tick those) and read the ASIM (M_L) and M_G "
           "bars: they rank LTSA and Isomap best and LE worst, as M_t does, while R_N calls every normalized "
           "output bad (NQ Figs. 2h-n)."),
    Preset("nq-fig3-swisshole", "NQ Fig. 3: swiss roll with a hole, methods compared (Compare tab)",
           _view("swisshole", "isomap", 10, n=1000, tab="compare"),
           "Press Compare and read M_L (ASIM): LTSA keeps the hole, Isomap bends around it (geodesics detour) "
           "and LE fails. NQ leave M_G out here: shortest paths around the hole are not geodesics."),
    Preset("nq-fig4-gaussian", "NQ Fig. 4: gaussian bump, methods compared (Compare tab)",
           _view("gaussian", "isomap", 10, n=1000, tab="compare"),
           "Press Compare: all but LE recover the bump's chart. On this isotropic surface R_C also ranks the "
           "outputs sensibly, as NQ found for M_P^c; on the swiss roll it does not."),
    Preset("nq-fig6-ltsa-k", "NQ Figs. 6, 8(a): choosing LTSA's k (Sweep tab)",
           _view("swisshole", "ltsa", 10, n=1000, tab="sweep"),
           "Tick LTSA, plot ASIM (M_L) and press Run sweep: M_L picks the k at which LTSA unrolls the set."),
    Preset("pn-fig1-strip", "PN Fig. 1: a strip, Laplacian eigenmaps (Normalization tab)",
           _view("strip", "laplacian", 10, n=1000, color="truth-0", length=6.0, tab="normalization",
                 normalization=("strip", 6.0, 1000, 8)),
           "Press Run: LEM and diffusion maps fold the 6 × 1 strip into a curve (collapse score near 0) and "
           "Φ(Y) > Φ(Z) predicts it; the Φ ratio curve crosses 1 near L = 2 (PN §6.1). LTSA keeps the "
           "rectangle. Explore shows LEM's output coloured by u."),
    Preset("pn-fig4-grid39", "PN Fig. 4 (D): 81 × 39 grid, diffusion maps",
           _view("grid", "diffusion_maps", 8, color="truth-1", half_width=40, half_height=19),
           "Just past aspect 2 the second coordinate is a function of the first: the grid collapses to a "
           "curve. Set half height 20 (81 × 41) and it stays two-dimensional."),
    Preset("pn-fig5-random-grid", "PN Fig. 5: 3000 random points, 81 × 39 against 81 × 41 (Normalization tab)",
           _view("strip", "laplacian", 8, n=3000, color="truth-1", length=81 / 39, tab="normalization",
                 normalization=("strip", 2.08, 3000, 8)),
           "Press Run: at aspect 81/39 LEM's Φ(Y)/Φ(Z) is 1.07 and its output collapses (score about 0.12). "
           "Set the aspect to 1.98 (81/41) and run again: the ratio drops just below 1 and the output "
           "stays two-dimensional (score about 0.27), the sharp change PN show."),
    Preset("pn-fig7-stretched", "PN Figs. 6 (A), 7: swiss roll stretched × 3, LTSA",
           _view("swissroll", "ltsa", 12, n=1600, color="truth-0", stretch=3.0,
                 normalization=("swissroll", 3.0, 1600, 12)),
           "Stretching the first input coordinate makes the roll longer than wide in places: LTSA's output "
           "folds where normalization costs more than unrolling."),
    Preset("pn-fig8-fishbowl", "PN Figs. 6 (B), 8: fishbowl stretched × 4, LLE",
           _view("fishbowl", "lle", 12, n=2400, color="truth-0", stretch=4.0,
                 normalization=("fishbowl", 4.0, 2400, 12)),
           "A sphere without its top cap: normalized methods squash the bowl's rim onto its bottom."),
    Preset("pn-fig9-globe", "PN Fig. 9: globe images (30 × 10 strip), LTSA",
           _view("globe", "ltsa", 8, color="truth-0", elevation_rows=10),
           "Images of a rotating globe form a 2-D manifold in pixel space; on the 30 × 10 strip (our "
           "rendered stand-in for PN's globe) the normalized output loses the aspect ratio. Hover a point "
           "to see its image."),
    Preset("ml-fig3-swisshole", "ML Fig. 3: swiss roll with a hole, MLLE",
           _view("swisshole", "mlle", 12, n=1000),
           "MLLE's multiple weights keep the hole's shape where LLE distorts it; compare both on R_C."),
    Preset("ml-fig4-peaks", "ML Fig. 4: three peaks, MLLE",
           _view("three_peaks", "mlle", 12, n=1225, color="truth-0"),
           "The flanks of the peaks are stretched (not isometric), so R_N stays high even for a good output."),
    Preset("ml-fig5-digits", "ML Fig. 5: handwritten digits 2–5, MLLE",
           _view("digits", "mlle", 12, color="truth-0", classes="2-5"),
           "Classes separate in the output; hover a point to see its digit."),
)

_BY_NAME = {entry.name: entry for entry in PRESETS}


def preset(name):
    """The preset called ``name`` (KeyError names the choices)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no preset {name!r}; presets: {', '.join(_BY_NAME)}") from None
