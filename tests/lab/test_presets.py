"""The presets menu is the tours' index: every former preset's figure is a step, and the index opens each."""

import pytest

from lab import RunRequest, ViewState, from_query, to_query
from lab.tours.presets import FORMER_PRESETS, PRESETS, STEPS, TOURS, preset

# What each former preset showed: its data set and algorithm (its figure's run).
FORMER_RUNS = {
    "gr-fig1-isomap": ("swissroll", "isomap"), "gr-fig1-ltsa": ("swissroll", "ltsa"),
    "gr-fig1-lle": ("swissroll", "lle"), "gr-44-refined-lle": ("swissroll", "lle"),
    "gr-fig2-hemisphere": ("hemisphere", "lle"), "gr-fig3-cylinder": ("cylinder", "isomap"),
    "gr-fig5-cylinder-lle": ("cylinder", "lle"), "gr-fig6-noisy": ("swissroll", "isomap"),
    "gr-table2": ("swissroll", "isomap"), "nq-3a-rectangle": ("strip", None),
    "nq-fig2-swissroll": ("swissroll", "isomap"), "nq-fig3-swisshole": ("swisshole", "isomap"),
    "nq-fig4-gaussian": ("gaussian", "isomap"), "nq-fig6-ltsa-k": ("swissroll", "ltsa"),
    "pn-fig1-strip": ("strip", "ltsa"), "pn-fig4-grid39": ("grid", "diffusion_maps"),
    "pn-fig5-random-grid": ("strip", "laplacian"), "pn-fig7-stretched": ("swissroll", "ltsa"),
    "pn-fig8-fishbowl": ("fishbowl", "lle"), "pn-fig9-globe": ("globe", "ltsa"),
    "ml-fig3-swisshole": ("swisshole", "mlle"), "ml-fig4-peaks": ("three_peaks", "mlle"),
    "ml-fig5-digits": ("digits", "mlle"),
}


def test_every_former_preset_is_reachable_as_a_step_that_runs_its_figure():
    assert set(FORMER_PRESETS) == set(FORMER_RUNS)
    for name, (dataset, algorithm) in FORMER_RUNS.items():
        step = STEPS[FORMER_PRESETS[name]]
        runs = {(panel.request.data.dataset, panel.request.method.algorithm) for panel in step.panels}
        assert any(run[0] == dataset and algorithm in (None, run[1]) for run in runs), name
        assert preset(name).state == step.state


@pytest.mark.parametrize("entry", PRESETS, ids=[entry.name for entry in PRESETS])
def test_an_index_entry_opens_its_step_with_a_valid_state_that_survives_a_link(entry):
    assert isinstance(entry.state, ViewState) and entry.state.validated() == entry.state
    assert entry.state is STEPS[entry.name].state and entry.state.tour == entry.name
    assert from_query(to_query(entry.state)) == entry.state
    assert entry.label.split()[0] in {"GR", "NQ", "PN", "ML", "LECTURE"} and len(entry.caption) > 40
    assert RunRequest.from_state(entry.state) in [panel.request for panel in STEPS[entry.name].panels]


def test_the_index_lists_each_tour_s_steps_in_order_with_their_place():
    labels = [entry.label for entry in PRESETS]
    expected = [f"{tour.key.upper()} {index}/{len(tour.steps)} · {step.title}"
                for tour in TOURS for index, step in enumerate(tour.steps, start=1)]
    assert labels == expected
    with pytest.raises(KeyError, match="no preset 'nope'"):
        preset("nope")
