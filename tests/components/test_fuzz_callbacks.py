"""Forged callback requests are refused with a message, never answered 500 (issue 20, item 8).

Every callback the app registers (``app.callback_map``) is sent, through the Flask test client, the
request the page would send, with one input or state replaced by a hostile value: None, a value of
another type, a megabyte of text, 5 000 levels of nesting, a 400-digit number, NaN and infinity, a
negative or huge index, an unknown choice; then hypothesis mutates the page's own values deep inside
(seeded, bounded). Background callbacks are checked up to the request that starts their job: the
job is recorded, not run (its work is tested with the same values in ``test_server_limits``).

Every answer must be no 500, and hold no traceback, no filesystem path and no URL. A request the
entry check (:mod:`components.entry`) lets through and a callback then fails on reaches the app's
``on_error`` guard, which logs it: that must not happen in any callback (each refuses what the page
never sends itself, with its own message).
"""

import json
import logging
import re
import urllib.parse
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from dash import Input, Output, no_update

import algorithms
import app as app_module
import datasets
from components import entry, ids, pairs, point_events
from components.explore_job import compute_record
from components.jobs import compute_study
from lab import (CompareRequest, NormalizationRequest, PairRequest, RunRequest, SeedNoiseRequest, StabilityRequest,
                 SweepRequest, ViewState, YardstickRequest)
from lab.compute import catalogue
from lab.compute.pairs import PairResult
from lab.tours.presets import STEPS
from lab.view import links
from serving import managers
from serving.services import Services
from tests.strategies import mutations, run_part, states

DEFAULT_STATE = ViewState().validated().to_dict()
# Each study tab's request type, by the id of the store its button writes and its job reads.
STUDY_REQUESTS = {ids.SWEEP_REQUEST: SweepRequest, ids.COMPARE_REQUEST: CompareRequest,
                  ids.NORMALIZATION_REQUEST: NormalizationRequest, ids.PAIR_REQUEST: PairRequest,
                  ids.SEED_NOISE_REQUEST: SeedNoiseRequest, ids.STABILITY_REQUEST: StabilityRequest,
                  ids.YARDSTICK_REQUEST: YardstickRequest}


def study_request(request_type, state=DEFAULT_STATE, nonce="token-of-the-fuzz:job:1"):
    """The request store a study's button writes (components.jobs.request_study) for ``state``."""
    request = request_type.from_state(ViewState.from_dict(state)).to_dict()
    return {"request": request, "state": state, "nonce": nonce}


# Values the page itself holds, beyond the layout's initial ones, so that one forged value meets
# realistic neighbours and reaches the callbacks' deeper paths.
PAGE_VALUES = {
    (ids.VIEW_STATE, "data"): DEFAULT_STATE,
    (ids.APPLY_STATE, "data"): {"state": DEFAULT_STATE, "message": "", "nonce": "n1"},
    (ids.EXPLORE_REQUEST, "data"): {"request": run_part(DEFAULT_STATE), "nonce": "n1", "token": "t1"},
    (ids.RUN_SHOWN, "data"): {"status": "done", "cached": True, "seconds": 1.0, "n": 1600,
                              "request": RunRequest.from_state(ViewState.from_dict(DEFAULT_STATE)).to_dict(),
                              "summary": {"normalized": [0.1, 0.1]}},
    (ids.RUN_FROM_JOB, "data"): {"status": "failed", "message": "m"},
    (ids.DRAWN, "data"): {"view": "3d", "color": "normalized"},
    (ids.NEIGHBOURS, "data"): {"point": 1, "neighbours": [2, 3]},
    (ids.TOUR_REQUEST, "data"): {"name": next(iter(STEPS)), "nonce": "n1", "token": "t1"},
    (ids.TOUR_DONE, "data"): {"name": next(iter(STEPS)), "message": "m"},
    (ids.TOUR_SHOWN, "data"): {"name": "", "presentation": False},
    **{(store, "data"): {"state": DEFAULT_STATE} for store in (ids.COMPARE_STORE, ids.NORMALIZATION_STORE,
                                                               ids.PAIR_STORE, ids.STABILITY_STORE)},
    (ids.SWEEP_STORE, "data"): {"state": DEFAULT_STATE, "result": {"rows": []}},
    **{(store, "data"): study_request(request_type) for store, request_type in STUDY_REQUESTS.items()},
    (ids.SESSION, "data"): "session-of-the-fuzz",
    (ids.PAGE_TOKEN, "data"): "token-of-the-fuzz",
    **{(graph, event): {"points": [{"curveNumber": 0, "pointNumber": 3, "customdata": ["isomap", 9]}]}
       for graph in (ids.INPUT_GRAPH, ids.OUTPUT_GRAPH, ids.PAIR_A_GRAPH, ids.PAIR_B_GRAPH, ids.SWEEP_GRAPH)
       for event in ("hoverData", "clickData", "selectedData")},
}
DEEP = 5000
DEEP_MARK = "__deep__"  # replaced by 5 000 levels of nesting in the request's text (json cannot write them)
HOSTILE = [None, -1, 10**9, 10**400, 1.5, 1e308, "nan", "", "no-such-value", "x" * 2**20, True, [], [1, "a", {}],
           {}, {"a": [1]}, {"state": {"data": {"noise": 1e308}}}, DEEP_MARK, json.loads("[" * 500 + "]" * 500)]
# Every key a link may hold (lab.view.links), the legacy ones, the default data set's and algorithm's own, and one
# that is none of them.
LINK_KEYS = [*links._KEYS, "tab", "tour", "seed", "refine", "d.nope",
             *[f"d.{p.name}" for p in datasets.spec(catalogue.DEFAULT_DATASET).parameters],
             *[f"a.{p.name}" for p in algorithms.spec(catalogue.DEFAULT_ALGORITHM).parameters]]
LINK_VALUES = ["", "9" * 400, "-" + "9" * 400, "1e308", "1e309", "nan", "-inf", "-1", "1000000000", "x" * 5000, "１２",
               "[1]", "a,b,,", "no-such-value"]
LEAKS = re.compile(r"Traceback|File \"|/work/|/home/|/tmp/|/srv/|site-packages|[a-z]+://", re.I)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    started = []
    patch = pytest.MonkeyPatch()
    # Record the jobs a request starts instead of forking a process for each.
    patch.setattr(managers._DiskcacheManager, "call_job_fn",
                  lambda self, key, job_fn, args, context: started.append(key) or 0)
    dash_app = app_module.create_app(tmp_path_factory.mktemp("fuzz"))
    client = dash_app.server.test_client()
    # The first request completes Dash's callback map (53 callbacks before it, 60 after): load the page
    # first, as a browser does, so every test (and every Hypothesis example) draws from the same list.
    assert client.get("/").status_code == 200
    yield dash_app, client, started
    patch.undo()


def _components(node):
    """Every component of a layout tree (children lists and single children, tabs included)."""
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, (list, tuple)):
            pending.extend(item)
        elif hasattr(item, "to_plotly_json"):
            yield item
            pending.append(getattr(item, "children", None))


@pytest.fixture(scope="module")
def page(fuzz_app):
    """The page's values by (id, property); pattern ids by their type, as a list of (id, value)."""
    dash_app, _, _ = fuzz_app
    values, patterns = {}, {}
    for component in _components(dash_app.layout()):
        component_id = getattr(component, "id", None)
        if isinstance(component_id, dict):
            patterns.setdefault(component_id["type"], []).append(component)
        elif component_id is not None:
            values[component_id] = component
    return values, patterns


def _page_value(page, dependency):
    values, patterns = page
    component, prop = dependency["id"], dependency["property"]
    if component.startswith("{"):
        matched = patterns.get(json.loads(component)["type"], [])
        return [(item.id, item.id if prop == "id" else getattr(item, prop, None)) for item in matched]
    if (component, prop) in PAGE_VALUES:
        return PAGE_VALUES[(component, prop)]
    return getattr(values.get(component), prop, None)


def _request(key, callback, values, trigger):
    """The body the page sends for ``callback`` with flat input and state ``values``, ``trigger`` changed."""
    def dependency(declared, value):
        if declared["id"].startswith("{") and isinstance(value, list) and all(isinstance(v, tuple) for v in value):
            return [{"id": item_id, "property": declared["property"], "value": item_value}
                    for item_id, item_value in value]
        return {"id": declared["id"], "property": declared["property"], "value": value}

    declared = callback["inputs"] + callback["state"]
    flat = [dependency(d, v) for d, v in zip(declared, values)]
    outputs = callback["output"] if isinstance(callback["output"], list) else [callback["output"]]
    described = [{"id": o.component_id, "property": o.component_property} for o in outputs]
    return {"output": key, "outputs": described if isinstance(callback["output"], list) else described[0],
            "inputs": flat[:len(callback["inputs"])], "state": flat[len(callback["inputs"]):],
            "changedPropIds": [f"{trigger['id']}.{trigger['property']}"]}


def _send(client, body):
    text = json.dumps(body)
    text = text.replace(json.dumps(DEEP_MARK), "[" * DEEP + "]" * DEEP)
    return client.post("/_dash-update-component", data=text, content_type="application/json")


def _server_callbacks(dash_app):
    return sorted((key, callback) for key, callback in dash_app.callback_map.items() if "callback" in callback)


def _name(callback):
    """The registered function's name and module (a partial's function; a lambda names its first output)."""
    function = callback["callback"].__wrapped__
    function = getattr(function, "func", function)
    name = function.__name__
    if name == "<lambda>":
        output = callback["output"][0] if isinstance(callback["output"], list) else callback["output"]
        name = f"<lambda> to {output.component_id}"
    return name, function.__module__


class Outcome:
    """What the fuzz saw: answers by status, and which callbacks reached the on_error guard."""

    def __init__(self):
        self.statuses, self.guarded, self.sent = {}, {}, 0

    def check(self, response, callback, records, what):
        self.sent += 1
        self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
        text = response.get_data(as_text=True)
        assert response.status_code != 500, f"{what}: 500"
        leak = LEAKS.search(text)
        assert leak is None, f"{what}: the answer shows {leak.group(0)!r}"
        failures = [record for record in records
                    if record.name == entry.logger.name and record.levelno >= logging.ERROR]
        if failures:
            name, module = _name(callback)
            assert response.get_json()["sideUpdate"][ids.STATE_MESSAGE]["children"], what
            self.guarded.setdefault((module, name), what)


def _fuzz_one(client, callback, key, values, index, value, caplog, outcome):
    declared = callback["inputs"] + callback["state"]
    changed = list(values)
    changed[index] = value
    trigger = declared[index] if index < len(callback["inputs"]) else declared[0]
    caplog.clear()
    response = _send(client, _request(key, callback, changed, trigger))
    what = f"{_name(callback)[0]} with {declared[index]['id']}.{declared[index]['property']} = {str(value)[:60]!r}"
    outcome.check(response, callback, caplog.records, what)
    return response


def _fuzz_every_value(client, callbacks, page, caplog):
    """Each of ``callbacks`` sent the page's values with each one in turn replaced by each :data:`HOSTILE` value."""
    outcome = Outcome()
    caplog.set_level(logging.INFO, logger=entry.logger.name)
    for key, callback in callbacks:
        declared = callback["inputs"] + callback["state"]
        values = [_page_value(page, d) for d in declared]
        for index in range(len(declared)):
            for value in HOSTILE:
                _fuzz_one(client, callback, key, values, index, value, caplog, outcome)
    assert not outcome.guarded, f"callbacks failed behind the guard: {outcome.guarded}"
    return outcome


@pytest.mark.slow  # over 10 s on 2 busy cores: CI runs it, the fast command does not
def test_every_callback_refuses_hostile_values_without_a_500(fuzz_app, page, caplog):
    dash_app, client, started = fuzz_app
    callbacks = _server_callbacks(dash_app)
    assert len(callbacks) >= 50  # every tab's callbacks are registered
    outcome = _fuzz_every_value(client, callbacks, page, caplog)
    print(f"\n{outcome.sent} requests, statuses {outcome.statuses}, {len(started)} jobs started; guarded: "
          f"{outcome.guarded}")


@settings(max_examples=300, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_values_forged_deep_inside_the_pages_own_are_refused_without_a_500(fuzz_app, page, caplog, data):
    """Hypothesis replaces one place inside one of the page's values (a field of the view state, a
    point of a selection) with any JSON value: the same answers as above."""
    dash_app, client, _ = fuzz_app
    caplog.set_level(logging.INFO, logger=entry.logger.name)
    key, callback = data.draw(st.sampled_from(_server_callbacks(dash_app)), label="callback")
    declared = callback["inputs"] + callback["state"]
    values = [_page_value(page, d) for d in declared]
    index = data.draw(st.integers(0, len(declared) - 1), label="argument")
    value = data.draw(mutations(values[index]), label="value")
    outcome = Outcome()
    _fuzz_one(client, callback, key, values, index, value, caplog, outcome)
    assert not outcome.guarded, f"a callback failed behind the guard: {outcome.guarded}"


def test_every_link_key_with_a_hostile_value_is_refused_with_a_message(fuzz_app, page, caplog):
    """The address bar is an input too: every key of a link (lab.view.links), each with a value no control holds
    (tests/lab/test_links.py gives :func:`lab.view.links.from_query` every key with every such value)."""
    dash_app, client, _ = fuzz_app
    caplog.set_level(logging.INFO, logger=entry.logger.name)
    (key, callback), = [(key, callback) for key, callback in _server_callbacks(dash_app)
                        if _name(callback) == ("sync", "components.state_sync")]
    declared = callback["inputs"] + callback["state"]
    index = next(i for i, d in enumerate(declared) if (d["id"], d["property"]) == (ids.URL, "search"))
    values = [_page_value(page, d) for d in declared]
    outcome = Outcome()
    for position, link_key in enumerate(LINK_KEYS):
        for text in [LINK_VALUES[position % len(LINK_VALUES)]]:
            search = "?" + urllib.parse.urlencode({link_key: text})
            response = _fuzz_one(client, callback, key, values, index, search, caplog, outcome)
            answer = response.get_json()
            assert ids.STATE_MESSAGE in answer["response"], f"{search[:80]}: {answer}"
            shown = answer["response"][ids.STATE_MESSAGE]["children"]
            assert shown.startswith("Not applied:") or shown == "", f"{search[:80]}: {shown[:200]}"
    assert not outcome.guarded
    assert outcome.statuses == {200: len(LINK_KEYS)}


@pytest.mark.parametrize("job", [None, "x" * 100, 10**400, [], {}, {"nonce": 5}, {"nonce": "n1", "request": "x"},
                                 {"nonce": "n1", "request": {"data": {"noise": 1e308}}},
                                 {"nonce": "n1", "request": {"data": [1] * 10**5, "method": {"n_neighbors": 10**400}}}])
def test_the_explore_job_refuses_a_forged_request_with_a_message(tmp_path, job):
    """The job's own request is not fuzzed above (jobs are recorded, not run): it is given the same values here."""
    record = compute_record(Services.in_directory(tmp_path), job, "session", lambda *args: None)
    assert record["status"] == "failed" and record["message"] and not LEAKS.search(record["message"])


VALID_SWEEP = study_request(SweepRequest)


@pytest.mark.parametrize("asked", [
    None, "x" * 100, 10**400, [], {}, {"nonce": 5}, {"nonce": "n1"}, {"nonce": "n1", "request": "x"},
    {**VALID_SWEEP, "request": [1] * 10**5}, {**VALID_SWEEP, "request": {}},
    {**VALID_SWEEP, "request": {**VALID_SWEEP["request"], "ks": list(range(3, 10**6))}},
    {**VALID_SWEEP, "request": {"data": {"noise": 1e308}, "algorithms": ["pca"], "ks": [10**400]}},
    {**VALID_SWEEP, "state": None}, {**VALID_SWEEP, "state": {"data": {"n": 10**9}}},
    {**VALID_SWEEP, "request": study_request(CompareRequest)["request"]},
])
def test_a_study_job_refuses_a_forged_request_with_a_message(tmp_path, asked):
    """The study jobs' own request stores are not fuzzed above (jobs are recorded, not run): they get these here.
    The message is the refusal's own, never the log's pointer to an internal error."""
    stored, message = compute_study(Services.in_directory(tmp_path), SweepRequest, lambda *args: ({}, "kept"), asked,
                                    "session", lambda *args: None)
    assert stored is no_update and message and not LEAKS.search(message) and "Internal error" not in message


@pytest.mark.parametrize("store", sorted(STUDY_REQUESTS))
def test_each_study_job_reads_the_request_its_button_writes(fuzz_app, store):
    """Each study's button writes its store with the request its job rebuilds (the request type's from_dict)."""
    dash_app, _, _ = fuzz_app
    clicked, = [callback for _, callback in _server_callbacks(dash_app)
                if _name(callback)[0] == "request_study" and callback["output"][0].component_id == store]
    asked, said = clicked["callback"].__wrapped__(1, DEFAULT_STATE, "session", "token")
    assert said is no_update and asked == study_request(STUDY_REQUESTS[store], nonce=asked["nonce"])
    assert STUDY_REQUESTS[store].from_dict(asked["request"]).to_dict() == asked["request"]
    starts = [callback for _, callback in _server_callbacks(dash_app)
              if callback["background"] and callback["inputs"] == [{"id": store, "property": "data"}]]
    assert len(starts) == 1


def test_the_pages_own_requests_pass_the_entry_check(fuzz_app, page):
    """The entry check refuses nothing the page sends: each callback's request with the page's values."""
    dash_app, _, _ = fuzz_app
    for key, callback in _server_callbacks(dash_app):
        declared = callback["inputs"] + callback["state"]
        entry.check_request(_request(key, callback, [_page_value(page, d) for d in declared], declared[0]),
                            dash_app.callback_map)


@settings(max_examples=60, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=states())
def test_every_valid_view_state_passes_the_entry_check(fuzz_app, page, state):
    dash_app, _, _ = fuzz_app
    key, callback = next((key, callback) for key, callback in _server_callbacks(dash_app)
                         if _name(callback) == ("show_state", "components.explore"))
    declared = callback["inputs"] + callback["state"]
    values = [state.to_dict() if (d["id"], d["property"]) == (ids.VIEW_STATE, "data") else _page_value(page, d)
              for d in declared]
    entry.check_request(_request(key, callback, values, declared[0]), dash_app.callback_map)


@pytest.mark.parametrize("failure, shown", [
    (lambda clicks: {}["a secret key"], entry.CALLBACK_FAILED),
    (lambda clicks: ViewState.from_dict({"a": 1}), "the view has no setting 'a'"),
], ids=["a bug", "a typed error"])
def test_a_failure_behind_the_entry_check_is_logged_whole_and_shown_as_a_short_message(tmp_path, caplog, failure,
                                                                                       shown):
    """The on_error guard (components.entry.report_failure): the traceback goes to the log, the page's state
    message shows a typed error's own message or else the generic one, the answer names no bug nor file."""
    dash_app = app_module.create_app(tmp_path)
    dash_app.callback(Output(ids.TOUR_NAME, "children", allow_duplicate=True), Input(ids.TOUR_CLOSE, "n_clicks"),
                      prevent_initial_call=True)(failure)
    key = next(key for key in dash_app.callback_map if key.startswith(f"{ids.TOUR_NAME}.children@"))
    callback = dash_app.callback_map[key]
    caplog.set_level(logging.INFO, logger=entry.logger.name)
    response = _send(dash_app.server.test_client(), _request(key, callback, [1], callback["inputs"][0]))
    assert response.status_code == 200
    assert shown in response.get_json()["sideUpdate"][ids.STATE_MESSAGE]["children"]
    assert "secret" not in response.get_data(as_text=True) and not LEAKS.search(response.get_data(as_text=True))
    logged, = [record for record in caplog.records if record.name == entry.logger.name]
    assert logged.levelno == logging.ERROR and logged.exc_info[1] is not None


def test_a_forged_value_is_refused_in_the_page_message_naming_what_was_wrong(fuzz_app, page):
    dash_app, client, _ = fuzz_app
    key, callback = next((key, callback) for key, callback in _server_callbacks(dash_app)
                         if _name(callback) == ("export_run", "components.files"))
    declared = callback["inputs"] + callback["state"]
    values = [_page_value(page, d) for d in declared]
    response = _send(client, _request(key, callback, ["x", *values[1:]], declared[0]))
    message = response.get_json()["sideUpdate"][ids.STATE_MESSAGE]["children"]
    assert message == entry.REFUSED.format(reason=f"{ids.EXPORT_POINTS}.n_clicks must be a count; got a str.")


def test_a_selection_naming_a_point_no_view_draws_is_refused_by_name(monkeypatch):
    """A pair selection index of 10^9 raised IndexError; an explore click past the drawn points too."""
    points = np.zeros((3, 2))
    result = PairResult(points, points, np.array([0.0, 1.0, 2.0]), np.zeros(3), np.zeros(3), 0.5, 1.0, False, points,
                        ("u", "v"), {}, {}, "A", "B")
    monkeypatch.setattr(pairs, "_stored_result", lambda *args: result)
    monkeypatch.setattr(pairs, "ctx", SimpleNamespace(triggered_id=ids.PAIR_A_GRAPH))
    forged = {"points": [{"curveNumber": 0, "pointNumber": 10**9}]}
    assert (pairs.summarize_selection(None, forged, None, {"state": {}}, "session")
            == "The event names point 1000000000; the view draws 3 points.")
    chosen = {"points": [{"curveNumber": 0, "pointNumber": 2}, {"curveNumber": 1, "pointNumber": 10**9}]}
    assert pairs.summarize_selection(None, chosen, None, {"state": {}}, "session").startswith("1 point selected")
    run = SimpleNamespace(n_samples=3, landmarks=None, image_shape=None)
    monkeypatch.setattr(point_events, "done_result", lambda *args: (None, run))
    monkeypatch.setattr(point_events, "ctx", SimpleNamespace(triggered_id=ids.OUTPUT_GRAPH))
    figure, text, neighbours = point_events.inspect(None, None, {"points": [{"curveNumber": 0, "pointNumber": 3}]},
                                                    None, None, "session")
    assert text == "The event names point 3; the view draws 3 points." and neighbours is None


@pytest.mark.parametrize("forge", [
    lambda body: [body], lambda body: "text", lambda body: 10**400, lambda body: {**body, "output": ["a"]},
    lambda body: {**body, "output": None}, lambda body: {**body, "output": "no-such.output"},
    lambda body: {**body, "output": {"id": 1}}, lambda body: {**body, "inputs": {"a": 1}},
    lambda body: {**body, "inputs": []}, lambda body: {**body, "state": None}, lambda body: {**body, "outputs": None},
    lambda body: {**body, "outputs": [{"id": ids.TABS, "property": "value"}]},
    lambda body: {**body, "changedPropIds": "view-tabs.value"}, lambda body: {key: 1 for key in body},
])
def test_a_body_of_another_shape_is_refused_with_400_or_a_message(fuzz_app, page, forge):
    dash_app, client, _ = fuzz_app
    key, callback = next((key, callback) for key, callback in _server_callbacks(dash_app)
                         if _name(callback) == ("export_run", "components.files"))
    declared = callback["inputs"] + callback["state"]
    body = forge(_request(key, callback, [_page_value(page, d) for d in declared], declared[0]))
    response = _send(client, body)
    assert response.status_code in (200, 400) and not LEAKS.search(response.get_data(as_text=True))
    if response.status_code == 200:
        assert response.get_json()["sideUpdate"][ids.STATE_MESSAGE]["children"].startswith("A request to the server")


def test_a_body_that_is_not_json_or_nested_past_the_parser_is_refused_with_400(fuzz_app):
    _, client, _ = fuzz_app
    for data in (b"{", b"\xff", b"[" * 100_000 + b"]" * 100_000, b'{"output": NaN}'):
        response = client.post("/_dash-update-component", data=data, content_type="application/json")
        assert response.status_code == 400 and response.get_data(as_text=True) == entry.MALFORMED


@pytest.mark.parametrize("query", ["cacheKey=forged&job=1", "cacheKey=" + "x" * 5000 + "&job=-1", "oldJob=1&oldJob=2",
                                   "cacheKey=a.b.c&job=" + "9" * 400])
def test_a_background_poll_with_forged_handles_reads_and_ends_nothing(fuzz_app, page, query):
    """Polls carry the job's handles in the query; forged ones (Dash signs the real ones) get no result."""
    dash_app, client, _ = fuzz_app
    for key, callback in _server_callbacks(dash_app):
        if callback["background"]:
            declared = callback["inputs"] + callback["state"]
            body = _request(key, callback, [_page_value(page, d) for d in declared], declared[0])
            response = client.post(f"/_dash-update-component?{query}", json=body)
            assert response.status_code in (200, 204) and not LEAKS.search(response.get_data(as_text=True))


@pytest.fixture(scope="module")
def notebook_fuzz_app(tmp_path_factory):
    """A notebook's app (its page answers the kernel), with Python's orders waiting: a view, then a selection."""
    from notebook import notebook_app

    data = datasets.load("swissroll", n=300)
    page, dash_app = notebook_app(data.X, data.truth, cache_dir=tmp_path_factory.mktemp("notebook-fuzz"))
    page.set_view(algorithm="pca")
    page.select([1, 2, 3])
    client = dash_app.server.test_client()
    assert client.get("/").status_code == 200
    return dash_app, client, page


def test_the_notebook_link_s_callbacks_refuse_hostile_values_without_a_500(notebook_fuzz_app, caplog):
    dash_app, client, page = notebook_fuzz_app
    values = {component.id: component for component in _components(dash_app.layout())
              if isinstance(getattr(component, "id", None), str)}
    callbacks = [(key, callback) for key, callback in _server_callbacks(dash_app)
                 if _name(callback)[1] == "components.notebook_link"]
    assert len(callbacks) == 3
    _fuzz_every_value(client, callbacks, (values, {}), caplog)
    # Only what a page can show reached Python: a valid view state, rows of its data.
    assert page.state == page.state.validated()
    assert all(0 <= row < 1600 for row in page.selected.tolist())
