"""Every paper preset is a valid, complete view state."""

import pytest

import algorithms
import datasets
from components.normalization import ASPECT_RANGE, SHAPES
from components.presets import PRESETS, preset
from components.runs import make_request
from components.urlstate import decode_state, encode_state, owned_parameters


@pytest.mark.parametrize("entry", PRESETS, ids=[p.name for p in PRESETS])
def test_preset_is_a_valid_request_that_survives_the_url(entry):
    state = entry.state
    assert {"dataset", "algorithm", "k", "rescale", "color", "tab"} <= set(state)
    assert state["dataset"] in datasets.available() and state["algorithm"] in algorithms.available()
    # The libraries accept every value (ranges, choices), as the dashboard will pass them.
    make_request(state["dataset"], state["n"], state["noise"], state["seed"], owned_parameters(state, "d"),
                 state["algorithm"], state["k"], owned_parameters(state, "a"), state["rescale"], state["refine"])
    colors = {f"truth-{i}" for i in range(len(datasets.spec(state["dataset"]).truth_labels))}
    assert state["color"] in colors | {"normalized", "conformal", "lower_bound", "pca", "asim"}
    assert decode_state(encode_state(state)) == {key: value for key, value in state.items() if value is not None}
    assert entry.label.split(":")[0].split()[0] in {"GR", "NQ", "PN", "ML"} and len(entry.caption) > 40
    if "norm.shape" in state:  # the normalization tab's controls, within their ranges
        assert state["norm.shape"] in SHAPES and ASPECT_RANGE[0] <= state["norm.aspect"] <= ASPECT_RANGE[1]
        assert state["norm.k"] >= 3 and state["norm.n"] >= 100


def test_presets_cover_each_paper_and_have_unique_names():
    assert len({p.name for p in PRESETS}) == len(PRESETS)
    assert {p.label.split()[0] for p in PRESETS} == {"GR", "NQ", "PN", "ML"}
    with pytest.raises(KeyError, match="no preset 'nope'"):
        preset("nope")
