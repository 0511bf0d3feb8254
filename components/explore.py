"""The explore tab: one run's headline cards, its linked input and output views, the inspector.

A new view state (:data:`ids.VIEW_STATE`) asks for a run. :func:`resolve` answers a cached run in the
request itself; only a miss starts the background job (:func:`compute_record`), with a progress bar
and a cancel button. Either way a small record of the run (its state, request and cards) reaches
:data:`ids.RUN_SHOWN`; the arrays stay on the server, and :func:`show_run` sends only what the views
draw (a new colouring: one array per view). Cancelling puts the controls back on the run shown.
"""

import functools
import secrets

from dash import ClientsideFunction, Input, Output, Patch, State, dcc, html, no_update

import measures
from lab import RunRequest, ViewState, catalogue, compute_run, failure_message
from lab.tours import class_labels
from lab.views import coloring, explore_view

from . import ids, point_events
from .controls import export_buttons
from .figures import OUTPUT_AXES, color_update, empty_figure, input_figure, output_figure, robust_color_range
from .figures.marks import color_by_class, neighbour_traces, presentation_style
from .jobs import LOST_JOB, PAGE_TOKEN_STATE, job_box, job_options, progress_reporter
from .managers import job_deadline

__all__ = ["compute_record", "direction_key", "explore_tab", "register", "resolve", "show_run"]

NO_RESULT = "—"
TIME_CARD = "time"
CARDS = (*catalogue.CARD_MEASURES, TIME_CARD)


def direction_key(measure):
    """Which end of a measure is good, from its registry entry: "↓ better", "↑ better", or nothing."""
    higher = measures.spec(measure).higher_is_better
    return "" if higher is None else ("↑ better" if higher else "↓ better")


def _card(measure, title, help_text, key=""):
    return html.Div([html.Div([title, html.Span(key, className="card-key")], className="card-title"),
                     html.Div("…", id=ids.card_value(measure), className="card-value")],
                    className="card", title=help_text)


def _cards():
    cards = [_card(name, measures.spec(name).label,
                   f"{measures.spec(name).description} ({measures.spec(name).citation})", direction_key(name))
             for name in catalogue.CARD_MEASURES]
    return [*cards, _card(TIME_CARD, "Run time", "Embedding plus every measure, on the server.")]


def explore_tab():
    """The tab's layout: cards, job box, message, downloads, the two views, selection line, inspector."""
    return html.Div([
        html.Div(_cards(), id=ids.CARDS, className="cards"),
        job_box(ids.EXPLORE_JOB),
        html.Div(id=ids.MESSAGE, className="message", role="status"),
        export_buttons(
            (ids.EXPORT_POINTS, "Points and measures (CSV)",
             "Every point: index, input and output coordinates, ground truth, every local measure; the view above."),
            (ids.EXPORT_CONFIG, "Run configuration (JSON)",
             "The whole view and the run's request; upload it back (Data, Upload) to restore this view.")),
        html.Div([
            dcc.Graph(id=ids.INPUT_GRAPH, className="view", config={"displaylogo": False},
                      figure=empty_figure("Computing the first run…")),
            dcc.Graph(id=ids.OUTPUT_GRAPH, className="view", config={"displaylogo": False},
                      figure=empty_figure("Computing the first run…")),
            # Image data sets: the image of the hovered point.
            dcc.Graph(id=ids.POINT_IMAGE, className="point-image", style={"display": "none"},
                      config={"displayModeBar": False}),
        ], className="views"),
        html.Div("Hover a point to ring it in both views; select with the box or lasso tool of a 2-D view to "
                 "mark points in both; click a point to inspect its neighbourhood below.",
                 id=ids.SELECTION_TEXT, className="help selection-text", role="status"),
        html.H3("Neighbourhood inspector"),
        html.Div("Click a point in either view.", id=ids.INSPECTOR_TEXT, className="help"),
        dcc.Graph(id=ids.INSPECTOR_GRAPH, figure=empty_figure("Click a point in either view."),
                  className="inspector", config={"displaylogo": False}),
        *[dcc.Store(id=store) for store in (ids.RUN_FROM_CACHE, ids.RUN_FROM_JOB, ids.RUN_SHOWN, ids.EXPLORE_REQUEST,
                                            ids.DRAWN)],
    ])


def _record(state, request, result, cached):
    """What the page keeps of a run: its view state, request, cards and notes (no arrays)."""
    return {"status": "done", "state": state.to_dict(), "request": request.to_dict(), "cached": cached,
            "seconds": float(result.seconds), "n": int(result.n_samples),
            "summary": {name: list(pair) for name, pair in result.summary.items()}}


def _failure(state_dict, error):
    return {"status": "failed", "state": state_dict, "message": failure_message(error)}


def resolve(services, state, shown, session, token):
    """A new view state: answer a cached run at once, or hand the request to the background job."""
    if not state:
        return {"cached": no_update, "request": no_update}
    try:
        state_value = ViewState.from_dict(state)
        request = RunRequest.from_state(state_value)
        if shown and shown.get("request") == request.to_dict():  # the view's display changed, not its run
            return {"cached": no_update, "request": no_update}
        services.uploads.for_session(session).authorize(request.data)
        result = services.results.get(request)
    except Exception as error:  # a bad state or an unreadable store is a message, never a broken page
        return {"cached": _failure(state, error), "request": no_update}
    if result is not None:
        return {"cached": _record(state_value, request, result, True), "request": no_update}
    # A fresh nonce: two equal requests in a row are two jobs (Dash keys a job by its arguments).
    return {"cached": no_update, "request": {"state": state, "nonce": secrets.token_hex(8), "token": token}}


def compute_record(services, job, session, report):
    """The background job: compute (or read) the requested run, under its deadline; any failure becomes
    the record's message. The job ledger knows it ran to its end."""
    with services.jobs.running(job["nonce"]):
        try:
            state = ViewState.from_dict(job["state"])
            request = RunRequest.from_state(state)
            uploads = services.uploads.for_session(session)
            uploads.authorize(request.data)
            with job_deadline():
                result, cached = services.results.get_or_compute(
                    request, lambda run: compute_run(run, report, uploads=uploads))
        except Exception as error:  # every failure is the page's message; the server keeps serving
            return _failure(job.get("state"), error)
        return _record(state, request, result, cached)


def report_lost(services, running, job):
    """A job that stopped running without having ended was lost: the page says so, and waits no more."""
    if running or not job or services.jobs.ended(job["nonce"]):
        return no_update
    return {"status": "failed", "state": job["state"], "message": LOST_JOB}


def _card_text(pair):
    """A card's mean (the value of a global measure) with the median beneath, SPEC §0."""
    mean, median = (list(pair) + [None, None])[:2] if pair else (None, None)
    if mean is None:  # not computed (a quadratic measure on a large input; the message says so)
        return [html.Span(NO_RESULT, className="card-mean"), html.Span("not computed", className="card-median")]
    # Four significant digits: GP's R_N of 2e-5 must not read as 0.0000.
    return [html.Span(f"{mean:.4g}", className="card-mean"),
            html.Span("" if median is None else f"median {median:.4g}", className="card-median")]


def _cards_of(record):
    if record["status"] != "done":
        return {name: NO_RESULT for name in CARDS}
    return {**{name: _card_text(record["summary"].get(name)) for name in catalogue.CARD_MEASURES},
            TIME_CARD: f"{record['seconds']:.2f} s" + (" (cached)" if record["cached"] else "")}


def show_run(services, shown, state, drawn, session):
    """Draw the shown run in the view's display settings; a colouring alone is patched in."""
    unchanged = {"input": no_update, "output": no_update, "cards": {name: no_update for name in CARDS},
                 "message": no_update, "message_class": no_update, "drawn": no_update}
    if not shown or not state:
        return unchanged
    if shown["status"] != "done":
        blank = empty_figure("No result: see the message above.")
        return {"input": blank, "output": blank, "cards": _cards_of(shown), "message": shown["message"],
                "message_class": "message error", "drawn": None}
    display = ViewState.from_dict(state).display
    layout = {"request": shown["request"], "landmarks": display.landmarks, "view": display.input_view,
              "presentation": display.presentation}
    try:
        request, result = point_events.shown_result(services, shown, session)
    except measures.ProcrustesLabError as error:
        return {**unchanged, "message": str(error), "message_class": "message error"}
    if result is None:
        return {**unchanged, "message": "This run has left the cache: change a control, or reload, to compute it "
                                        "again.", "message_class": "message warning"}
    view = explore_view(request, result, display.landmarks, display.input_view)
    output_color, title, _ = coloring(result, display.color, view.output.rows)
    colors = {"input": coloring(result, display.color, view.input.rows)[0], "output": output_color}
    color_range = robust_color_range(output_color)  # every drawn point's colour sets the range
    classes = class_labels(result) if display.color.startswith("truth-") else None
    layout["classes"] = classes is not None  # a class colouring has a legend, not a colour bar: redrawn
    if drawn and {key: drawn.get(key) for key in layout} == layout:
        if drawn.get("color") == display.color:
            return unchanged
        patches = {}
        for name, axes, points, show_scale in (("input", result.input_axes, view.input, False),
                                               ("output", OUTPUT_AXES, view.output, True)):
            patch = Patch()
            for key, value in color_update(colors[name], color_range, title, axes, points.rows, show_scale).items():
                patch["data"][0][key] = value
            patches[name] = patch
        return {**unchanged, **patches, "drawn": {**layout, "color": display.color}}
    revision = shown["request"]
    projection = None if display.input_view == "3d" else (int(display.input_view[0]), int(display.input_view[1]))
    figures = {
        "input": input_figure(view.input.take(result.drawn_X), colors["input"], color_range, title,
                              point_ids=view.input.rows, title=view.input_title,
                              revision=f"{revision}|{display.input_view}", landmarks=view.input.landmarks,
                              axis_titles=result.input_axes, projection=projection),
        "output": output_figure(view.output.take(result.Y), colors["output"], color_range, title,
                                point_ids=view.output.rows, title=view.output_title, revision=str(revision),
                                landmarks=view.output.landmarks, landmark_configuration=view.landmark_configuration),
    }
    _finish(figures, {"input": view.input, "output": view.output}, classes, title, display)
    return {**figures, "cards": _cards_of(shown), "message": view.notes,
            "message_class": "message warning" if view.notes else "message",
            "drawn": {**layout, "color": display.color}}


def _finish(figures, drawn, classes, title, display):
    """The views' additions, in place: a class legend, the neighbour traces, presentation type."""
    for key, figure in figures.items():
        three_d = key == "input" and display.input_view == "3d"
        if classes is not None:
            color_by_class(figure, drawn[key].take(classes), title, legend=key == "output")
        figure.add_traces(neighbour_traces(three_d))
        if display.presentation:
            presentation_style(figure, three_d=three_d)


def revert_cancelled(services, _clicks, shown, state, job):
    """Cancel: the controls go back to the run the views show, and say so."""
    if job:
        services.jobs.record(job["nonce"], "cancelled")
    if not shown or shown.get("status") != "done" or not state:
        return no_update
    current, previous = ViewState.from_dict(state), ViewState.from_dict(shown["state"])
    restored = current.replace(data=previous.data, method=previous.method)
    request = RunRequest.from_state(previous)
    return {"state": restored.to_dict(), "nonce": secrets.token_hex(8),
            "message": f"Cancelled. The views show the previous run: {request.describe()}."}


def register(app, services):
    """Wire the explore tab to ``app``, computing and reading through ``services``."""
    session = State(ids.SESSION, "data")
    app.callback(
        output=dict(cached=Output(ids.RUN_FROM_CACHE, "data"), request=Output(ids.EXPLORE_REQUEST, "data")),
        inputs=dict(state=Input(ids.VIEW_STATE, "data"), shown=State(ids.RUN_SHOWN, "data"), session=session,
                    token=PAGE_TOKEN_STATE),
        prevent_initial_call=True,
    )(functools.partial(resolve, services))

    @app.callback(Output(ids.RUN_FROM_JOB, "data"), Input(ids.EXPLORE_REQUEST, "data"), session,
                  prevent_initial_call=True, **job_options(ids.EXPLORE_JOB))
    def run_explore(set_progress, job, session_id):
        return compute_record(services, job, session_id, progress_reporter(set_progress))

    # The run shown is whichever arrived last, from the cache or from a job (in the browser: no round trip).
    app.clientside_callback(ClientsideFunction(namespace="procrustes", function_name="latestRun"),
                            Output(ids.RUN_SHOWN, "data"), Input(ids.RUN_FROM_CACHE, "data"),
                            Input(ids.RUN_FROM_JOB, "data"), prevent_initial_call=True)
    app.callback(
        output=dict(input=Output(ids.INPUT_GRAPH, "figure"), output=Output(ids.OUTPUT_GRAPH, "figure"),
                    cards={name: Output(ids.card_value(name), "children") for name in CARDS},
                    message=Output(ids.MESSAGE, "children"), message_class=Output(ids.MESSAGE, "className"),
                    drawn=Output(ids.DRAWN, "data")),
        inputs=dict(shown=Input(ids.RUN_SHOWN, "data"), state=Input(ids.VIEW_STATE, "data"),
                    drawn=State(ids.DRAWN, "data"), session=session),
        prevent_initial_call=True,
    )(functools.partial(show_run, services))
    job_ids = ids.job_controls(ids.EXPLORE_JOB)
    app.callback(Output(ids.APPLY_STATE, "data", allow_duplicate=True), Input(job_ids["cancel"], "n_clicks"),
                 State(ids.RUN_SHOWN, "data"), State(ids.VIEW_STATE, "data"), State(ids.EXPLORE_REQUEST, "data"),
                 prevent_initial_call=True)(functools.partial(revert_cancelled, services))
    app.callback(Output(ids.RUN_FROM_JOB, "data", allow_duplicate=True), Input(job_ids["running"], "data"),
                 State(ids.EXPLORE_REQUEST, "data"), prevent_initial_call=True)(
        functools.partial(report_lost, services))
    point_events.register(app, services)
