"""Every callback that reads an upload, a run of one, or exports one refuses another session's reference (issue 20).

Session "alice" uploads a file and computes a run and a sweep of it (so they sit in the result
cache, keyed by the file's hash alone). Session "mallory" then sends each callback alice's
reference, as a forged request would: each must answer with the refusal (:data:`lab.store.uploads.UPLOAD_GONE`)
and nothing of alice's results. A callback added later that reads the page session must be listed here.
"""

import json

import numpy as np
import pytest
from dash import no_update
from dash._callback_context import context_value
from dash._utils import AttributeDict

from app import create_app
from components import ids
from lab import (CompareRequest, MethodChoice, PairRequest, SeedNoiseRequest, StabilityRequest, SweepChoice,
                 SweepRequest, UploadRef, ViewState, YardstickRequest)
from lab.compute import catalogue
from lab.store.uploads import UPLOAD_GONE
from serving.services import Services
from tests.strategies import run_part

CSV = ("x,y,z\n" + "\n".join(f"{a:.6f},{b:.6f},{a * b:.6f}"
                             for a, b in np.random.default_rng(1).uniform(size=(80, 2)))).encode()
# Callbacks that read the session only to keep what it sends (a session writes only its own files).
WRITES_ONLY = {"upload-inspected#receive_upload", "upload-output-inspected#receive_output",
               "upload-chosen#use_upload"}
# The normalization study's data are the catalogue's shapes: no upload to authorize.
NO_UPLOAD = {"normalization-request#request_study", "normalization-store#run_job"}


def _name(key, function):
    """``first output id#function name``: e.g. ``download#export_run``."""
    first = key.lstrip(".").split("...")[0].split("@")[0].rsplit(".", 1)[0]
    return f"{first}#{getattr(function, 'func', function).__name__}"


def session_callbacks(app):
    """``{name: function}`` of every callback that reads the page session, as registered."""
    found = {}
    for key, value in app.callback_map.items():
        read = [item["id"] for item in value["inputs"] + value.get("state", [])]
        if ids.SESSION in read:
            function = value["callback"].__wrapped__
            found[_name(key, function)] = function
    return found


def _triggered(prop_id, function, *arguments):
    """``function(*arguments)`` as Dash runs it after ``prop_id`` changed: its outputs and the props it set."""
    context = AttributeDict(triggered_inputs=[{"prop_id": prop_id, "value": 1}], updated_props={})
    token = context_value.set(context)
    try:
        return function(*arguments), context.updated_props
    finally:
        context_value.reset(token)


def _page_text(answer):
    """Everything a callback's answer would show (figures as their JSON)."""
    return json.dumps(answer, default=lambda value: value.to_plotly_json() if hasattr(value, "to_plotly_json")
                      else repr(value))


def _progress(*_):
    pass


def _study_job(request_type):
    """A study's job called as mallory with a request store naming the study of alice's state (a forged store)."""
    def run(f, state, record):
        request = request_type.from_state(ViewState.from_dict(state)).to_dict()
        return f(_progress, {"request": request, "state": state, "nonce": "mallory-1"}, "mallory")
    return run


def _study_click(f, state, record):
    """A study's button clicked as mallory with alice's state: refused at once, no job started."""
    return f(1, state, "mallory", "page")


@pytest.fixture(scope="module")
def alice(tmp_path_factory):
    """The app's session callbacks, alice's state naming her upload, and her run's record (run and sweep cached)."""
    directory = tmp_path_factory.mktemp("authorization")
    callbacks = session_callbacks(create_app(directory))
    sha = Services.in_directory(directory).uploads.put("alice", CSV)
    state = ViewState().with_dataset(catalogue.UPLOAD, UploadRef(sha, "points.csv")).validated()
    state = state.replace(method=MethodChoice("pca", 6),
                          sweep=SweepChoice(algorithms=("pca",), k_min=6, k_max=7, k_step=1)).validated().to_dict()
    # In a callback's context, as Dash runs it: the job hands the page its partial records through set_props.
    record, partial_records = _triggered("explore-request.data", callbacks["explore-run-computed#run_explore"],
                                         _progress, {"request": run_part(state), "nonce": "alice-1"}, "alice")
    assert partial_records[ids.RUN_PARTIAL]["data"]["status"] == "partial"
    assert record["status"] == "done", record
    asked, said = callbacks["sweep-request#request_study"](1, state, "alice", "page")
    assert said is no_update and asked["request"] == SweepRequest.from_state(ViewState.from_dict(state)).to_dict()
    stored, message = callbacks["sweep-store#run_job"](_progress, asked, "alice")
    assert stored["result"]["rows"] and "error" not in stored["result"]["rows"][0], message
    return callbacks, state, record


CLICK = {"points": [{"curveNumber": 0, "pointNumber": 0}]}
# Each callback called as mallory with alice's state, run record or stored study: what the page is given.
FORGED = {
    "view-input-graph#show_state": lambda f, state, record: f(state, None, None, "mallory", "page"),
    "view-input-graph#show_computed": lambda f, state, record: f(record, state, None, "mallory"),
    "explore-run-computed#run_explore": lambda f, state, record: f(
        _progress, {"request": run_part(state), "nonce": "mallory-1"}, "mallory"),
    "sweep-request#request_study": _study_click,
    "sweep-store#run_job": _study_job(SweepRequest),
    "compare-request#request_study": _study_click,
    "compare-store#run_job": _study_job(CompareRequest),
    "compare-grid#<lambda>": lambda f, state, record: f({"state": state}, "mallory"),
    "pair-request#request_study": _study_click,
    "pair-store#run_job": _study_job(PairRequest),
    "pair-a-graph#draw_pair": lambda f, state, record: f({"state": state}, None, None, None, "mallory"),
    "pair-selection-text#summarize_selection": lambda f, state, record: _triggered(
        f"{ids.PAIR_A_GRAPH}.selectedData", f, CLICK, None, {"state": state}, "mallory"),
    "stability-request#request_study": _study_click,
    "stability-store#run_job": _study_job(StabilityRequest),
    "stability-graph#draw_stability": lambda f, state, record: f({"state": state}, "mallory"),
    "download#export_run": lambda f, state, record: _triggered(
        f"{ids.EXPORT_POINTS}.n_clicks", f, 1, None, None, record, state, "mallory"),
    "yardstick-request#request_study": _study_click,
    "yardstick-store#run_job": _study_job(YardstickRequest),
    "view-find-rows#find_points": lambda f, state, record: f("R_N > 0", None, record, "mallory"),
    "seed-noise-request#request_study": _study_click,
    "seed-noise-store#run_job": _study_job(SeedNoiseRequest),
    "pair-card-beyond-value#draw_seed_noise": lambda f, state, record: f({"state": state}, "mallory"),
    "download#export_comparison": lambda f, state, record: _triggered(
        f"{ids.EXPORT_COMPARE_CSV}.n_clicks", f, 1, None, {"state": state}, "mallory"),
    # A study's tab shown on a link: alice's sweep is cached (her cells); the other studies are refused before
    # the cache is read (the normalization study reads no upload: see its own entry).
    "sweep-store#restore_studies": lambda f, state, record: f("sweep", state, "mallory", *[None] * 6),
}
# The point events of a run (hover image, inspector, selection) show nothing of it instead; they say
# nothing of the refusal either (components/point_events.py: done_result reads it as "not cached").
SAYS_NOT_CACHED = {
    "view-point-image#show_point_image": lambda f, state, record: _triggered(
        f"{ids.INPUT_GRAPH}.hoverData", f, CLICK, None, record, None, "mallory"),
    "inspector-graph#inspect": lambda f, state, record: _triggered(
        f"{ids.INPUT_GRAPH}.clickData", f, CLICK, None, record, None, "mallory"),
    "view-selection-text#summarize_selection": lambda f, state, record: _triggered(
        f"{ids.INPUT_GRAPH}.selectedData", f, CLICK, None, record, None, "mallory"),
}


# The cards' yardstick lines and the table of every measure are blank for a run the session may not read (the
# explore callbacks already say why).
SHOWS_NOTHING = {"card-normalized-yardstick#show_yardsticks": lambda f, state, record: f(record, None, "mallory")}


def test_every_callback_reading_the_session_is_forged_here(alice):
    callbacks, _, _ = alice
    assert set(callbacks) == set(FORGED) | set(SAYS_NOT_CACHED) | set(SHOWS_NOTHING) | WRITES_ONLY | NO_UPLOAD


@pytest.mark.parametrize("name", sorted(SHOWS_NOTHING))
def test_a_forged_reference_shows_no_number_of_another_sessions_run(alice, name):
    callbacks, state, record = alice
    assert callbacks[name](record, None, "alice")["table"] is not None  # alice reads her own run's table
    answer = SHOWS_NOTHING[name](callbacks[name], state, record)
    assert answer == {"lines": {name: "" for name in catalogue.CARD_MEASURES}, "table": None}


@pytest.mark.parametrize("name", sorted(FORGED))
def test_a_forged_reference_to_another_sessions_upload_is_refused_with_a_message(alice, name):
    callbacks, state, record = alice
    answer = FORGED[name](callbacks[name], state, record)
    assert UPLOAD_GONE in _page_text(answer), answer


@pytest.mark.parametrize("name", sorted(SAYS_NOT_CACHED))
def test_a_forged_reference_shows_no_point_of_another_sessions_run(alice, name):
    callbacks, state, record = alice
    outputs, _ = SAYS_NOT_CACHED[name](callbacks[name], state, record)
    assert all(output is no_update or "again" in str(output) or "no longer cached" in str(output)
               for output in (outputs if isinstance(outputs, tuple) else (outputs,))), outputs


@pytest.mark.parametrize("name", sorted(name for name in FORGED if name.endswith("#request_study")))
def test_a_study_of_another_sessions_upload_is_refused_at_the_click_and_starts_no_job(alice, name):
    callbacks, state, _ = alice
    asked, said = callbacks[name](1, state, "mallory", "page")
    assert asked is no_update and said == UPLOAD_GONE


def test_a_forged_partial_record_of_another_sessions_run_is_refused_with_a_message(alice):
    """A run still measuring is read as a whole one is: this session's uploads only (issue 24's partial runs)."""
    callbacks, state, record = alice
    answer = callbacks["view-input-graph#show_computed"]({**record, "status": "partial"}, state, None, "mallory")
    assert UPLOAD_GONE in _page_text(answer), answer


@pytest.mark.parametrize("tab", ["compare", ids.TAB_PAIRS])
def test_each_study_s_restore_refuses_another_sessions_upload(alice, tab):
    callbacks, state, _ = alice
    answer = callbacks["sweep-store#restore_studies"](tab, state, "mallory", *[None] * 6)
    assert UPLOAD_GONE in _page_text(answer) and not any(isinstance(value, dict) for value in answer), answer
