"""The papers' tours in their order, and their index: each figure or table of the source papers as a step.

Each paper's tour is its own module, written with :mod:`lab.tours.authoring` of the classes of
:mod:`lab.tours.steps`: :mod:`lab.tours.goldberg_ritov` (GR), :mod:`lab.tours.nieqa` (NQ),
:mod:`lab.tours.price_of_normalization` (PN), :mod:`lab.tours.mlle` (ML) and :mod:`lab.tours.lecture`.
Here they become :data:`TOURS`, each panel's run computing only the measures its steps read
(:func:`measured_as_read`), and :data:`STEPS`, which importing this module registers with the view state.

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

from ..compute.runs import RunRequest
from ..view.state import ViewState, register_tour_steps
from . import goldberg_ritov, lecture, mlle, nieqa, price_of_normalization

__all__ = ["FORMER_PRESETS", "PRESETS", "STEPS", "TOURS", "Preset", "applied", "locate", "preset"]


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


TOURS = measured_as_read((goldberg_ritov.TOUR, nieqa.TOUR, price_of_normalization.TOUR, mlle.TOUR, lecture.TOUR))
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
