"""Download names and formats, and the upload box's decoding, without a browser."""

import doctest

import components.files
from components.files import FIGURES, figure_configs
from lab import RunRequest, ViewState, from_query


def test_every_figure_saves_in_the_chosen_format_under_the_run_s_name():
    state = from_query("?dataset=swissroll&n=200&k=8&format=svg")
    shown = {"status": "done", "request": RunRequest.from_state(state).to_dict()}
    configs = figure_configs(shown, state.to_dict(), None)
    assert len(configs) == len(FIGURES)
    names = [config["toImageButtonOptions"]["filename"] for config in configs]
    stem = "procrustes-lab_swissroll_n200_isomap_k8"
    assert names[:2] == [f"{stem}_input", f"{stem}_output"]
    assert all("sendDataToCloud" in config["modeBarButtonsToRemove"] for config in configs)
    png = figure_configs(None, ViewState().validated().to_dict(), None)[0]
    assert png["toImageButtonOptions"] == {"filename": "procrustes-lab_input"}
    # An unchanged config is not sent again (a new config redraws the graph), nor is one for a new
    # format: the browser applies the format when the camera is pressed (assets/linked_views.js).
    assert figure_configs(None, ViewState().validated().to_dict(), png)[0].__class__.__name__ == "NoUpdate"
    assert figure_configs(None, from_query("?format=svg").to_dict(), png)[0].__class__.__name__ == "NoUpdate"


def test_doctests():
    assert doctest.testmod(components.files).failed == 0
