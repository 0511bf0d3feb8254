"""The controls show a view state and read back the same state; a link, a preset or a file sets every control."""

import json

from dash._callback_context import context_value
from dash._utils import AttributeDict
from hypothesis import given
from plotly.utils import PlotlyJSONEncoder

from components import ids
from components.state_sync import CONTROLS, controls_from_state, state_from_controls, sync
from lab import ViewState, from_query, to_query
from lab.tours.presets import PRESETS
from tests.strategies import ROUND_TRIPS, states


def mounted(shown):
    """The values and ids of the parameter controls a state's panels mount (the ALL patterns' view)."""
    def pattern(components):
        boxes = [control.children[1] for control in components]
        values = [box.value for box in boxes]
        return values, [box.id for box in boxes]
    return pattern(shown["dataset_params"]), pattern(shown["algorithm_params"])


@ROUND_TRIPS
@given(states())
def test_state_to_controls_to_state_is_the_identity(state):
    shown = controls_from_state(state)
    dataset_params, algorithm_params = mounted(shown)
    assert state_from_controls(shown["controls"], dataset_params, algorithm_params).validated() == state


def trigger(prop_id):
    """Run ``sync`` as Dash would after ``prop_id`` changed (callback context set)."""
    def call(**arguments):
        token = context_value.set(AttributeDict(triggered_inputs=[{"prop_id": prop_id, "value": None}]))
        try:
            return sync(**arguments)
        finally:
            context_value.reset(token)
    return call


def arguments_showing(state, **changes):
    shown = controls_from_state(state)
    (dataset_values, dataset_ids), (algorithm_values, algorithm_ids) = mounted(shown)
    arguments = dict(controls=dict(shown["controls"]), dataset_params=dataset_values, dataset_param_ids=dataset_ids,
                     algorithm_params=algorithm_values, algorithm_param_ids=algorithm_ids, search="", apply=None,
                     current=state.to_dict(), upload=None)
    arguments["controls"].update(changes.pop("controls", {}))
    arguments.update(changes)
    return arguments


def test_a_preset_after_any_previous_view_sets_every_control_alike():
    before = [from_query("?dataset=cylinder&n=2500&noise=0.3&k=7&d.radius=3"), from_query("?dataset=grid&tab=sweep")]
    for entry in PRESETS:
        applied = [trigger(f"{ids.APPLY_STATE}.data")(**arguments_showing(
            previous, apply={"state": entry.state.to_dict(), "nonce": entry.name})) for previous in before]
        assert applied[0]["controls"] == applied[1]["controls"] == controls_from_state(entry.state)["controls"]
        assert ViewState.from_dict(applied[0]["state"]) == entry.state
        assert applied[0]["search"] == to_query(entry.state)


def test_choosing_a_data_set_resets_its_controls_and_keeps_the_method():
    previous = from_query("?dataset=strip&n=300&d.length=9&k=14&algorithm=lle")
    out = trigger(f"{ids.DATASET}.value")(**arguments_showing(previous, controls={"dataset": "swissroll"}))
    assert out["controls"]["n"] == 1600 and out["controls"]["n_neighbors"] == 14
    assert [control.children[1].id["owner"] for control in out["dataset_params"]] == ["swissroll"]
    assert ViewState.from_dict(out["state"]).method.algorithm == "lle"


def test_a_control_out_of_range_is_a_message_and_no_run():
    previous = ViewState().validated()
    out = trigger(f"{ids.DATASET_SIZE}.value")(**arguments_showing(previous, controls={"n": 9_000_000}))
    assert "n must lie in [50, 1000000]; got 9000000." in out["message"] and out["message_class"] == "message error"
    assert out["state"] is not None and out["state"].__class__.__name__ == "NoUpdate"  # nothing runs


def test_a_refused_link_keeps_the_view_and_says_why():
    previous = from_query("?dataset=strip&n=300")
    out = trigger(f"{ids.URL}.search")(**arguments_showing(previous, search="?k=400"))
    assert out["message"] == "Not applied: k must lie in [3, 50]; got 400."
    assert out["controls"]["dataset"] == "strip" and out["search"] == to_query(previous)


def test_every_control_is_listed_once():
    assert len({control.component for control in CONTROLS.values()}) == len(CONTROLS)
    assert json.dumps(controls_from_state(ViewState().validated())["controls"])  # plain values


def test_an_algorithm_switch_sends_only_what_it_changes():
    """issue 24: the switch left the data set's panel, its colour menus and the unchanged controls as shown."""
    previous = from_query("?dataset=strip&n=300&d.length=9&k=14&algorithm=lle&color=normalized")
    out = trigger(f"{ids.ALGORITHM}.value")(**arguments_showing(previous, controls={"algorithm": "hlle"}))
    changed = {name for name, value in out["controls"].items() if value.__class__.__name__ != "NoUpdate"}
    assert changed == {"algorithm"}
    assert all(out[key].__class__.__name__ == "NoUpdate"
               for key in ("dataset_params", "dataset_help", "color_options", "pair_color_options"))
    shown = ViewState.from_dict(out["state"])
    assert shown.method.algorithm == "hlle" and shown.data == previous.data and out["search"] == to_query(shown)
    assert json.dumps(out["algorithm_params"], cls=PlotlyJSONEncoder) == json.dumps(
        controls_from_state(shown)["algorithm_params"], cls=PlotlyJSONEncoder)
    # What the page then holds is what every control set from the new state would show.
    page = {name: previous_value if value.__class__.__name__ == "NoUpdate" else value
            for (name, value), previous_value in zip(out["controls"].items(),
                                                      controls_from_state(previous)["controls"].values())}
    assert page == controls_from_state(shown)["controls"]


def test_a_switch_that_reads_another_data_value_from_its_box_sends_the_data_side_too():
    """A data control that holds another value than the state shown (an edit the page refused, say) is read by
    the switch: the state's data changed, so the data set's panel and menus are sent again with it."""
    previous = from_query("?dataset=swissroll&n=1600&algorithm=isomap&k=10")
    out = trigger(f"{ids.ALGORITHM}.value")(**arguments_showing(previous, controls={"n": 100_000, "algorithm": "pca"}))
    shown = ViewState.from_dict(out["state"])
    assert shown.data.n == 100_000 and shown.method.algorithm == "pca"
    assert out["controls"]["n"] == 100_000 and out["dataset_params"].__class__.__name__ != "NoUpdate"
