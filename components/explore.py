"""The explore tab: one run's headline cards, its linked input and output views, the inspector.

A new view state (:data:`ids.VIEW_STATE`) is drawn by :func:`show_state` in the same request when its
run is shown or cached; only a miss starts the background job (:func:`components.explore_job.compute_record`),
with a progress bar and a cancel button, whose records :func:`show_computed` draws: the input as soon as it is
read, the output as soon as the algorithm ends, each card as its measure is computed, then the whole run.
Either way a small record of the run (its state, request and cards) becomes :data:`ids.RUN_SHOWN`; the
arrays stay on the server, and :func:`draw_run` sends only what the views draw (a new colouring: one array
per view; a change on another tab: nothing, without reading the cache). Cancelling puts the controls back
on the run shown.
"""

import functools
import logging
import secrets

from dash import Input, Output, Patch, State, dcc, html, no_update, set_props

import measures
from lab import RunRequest, ViewState
from lab.compute import catalogue
from lab.compute.views import class_labels, coloring, explore_view, metadata_lines, neighbour_losses

from . import find, ids, point_events, yardsticks
from .cards import card, card_text
from .controls import export_buttons, graph_config
from .figures import (OUTPUT_AXES, color_update, drawn_columns, empty_figure, input_axis_names, input_figure,
                      output_figure, robust_color_range)
from .explore_patches import finish_views, input_columns, recoloured_input, rows_digest, titled
from .explore_job import (EMBEDDING_MESSAGE, EXPLORE_REQUEST, MEASURING, MEASURING_MESSAGE, compute_record, partial_of,
                          report_lost, revert_cancelled)
from .jobs import PAGE_TOKEN_STATE, job_box, job_nonce, job_options, progress_reporter
from .find import find_box
from .records import checked_record, failure_record, run_record
from .tables import NO_RESULT
from .yardsticks import yardstick_actions

__all__ = ["draw_run", "explore_tab", "register", "show_computed", "show_state"]

logger = logging.getLogger(__name__)

TIME_CARD = "time"
CARDS = (*catalogue.CARD_MEASURES, TIME_CARD)


def _cards():
    cards = [card(name, measures.spec(name).label,
                  f"{measures.spec(name).description} ({measures.spec(name).citation})", catalogue.direction_key(name))
             for name in catalogue.CARD_MEASURES]
    return [*cards, card(TIME_CARD, "Run time", "Embedding plus every measure, on the server.", yardstick=False)]


def explore_tab():
    """The tab's layout: cards, job box, message, downloads, the two views, selection line, every measure,
    inspector."""
    return html.Div([
        html.Div(_cards(), id=ids.CARDS, className="cards"),
        job_box(ids.EXPLORE_JOB),
        html.Div(id=ids.MESSAGE, className="message", role="status"),
        html.Div([
            yardstick_actions(),
            export_buttons(
                (ids.EXPORT_POINTS, "Points and measures (CSV)",
                 "Every point: index, input and output coordinates, ground truth, every local measure; the view "
                 "above."),
                (ids.EXPORT_CONFIG, "Run configuration (JSON)",
                 "The whole view and the run's request; upload it back (Data, Upload) to restore this view."),
                (ids.EXPORT_REPORT, "Report (HTML)",
                 "One file that opens offline in any browser: the linked views, a colour menu, every measure, the "
                 "notes and the provenance.")),
        ], className="result-actions"),
        html.Div([
            dcc.Graph(id=ids.INPUT_GRAPH, className="view", config=graph_config("input"),
                      figure=empty_figure("Computing the first run…")),
            dcc.Graph(id=ids.OUTPUT_GRAPH, className="view", config=graph_config("output"),
                      figure=empty_figure("Computing the first run…")),
            # Image data sets: the image of the hovered point.
            dcc.Graph(id=ids.POINT_IMAGE, className="point-image", style={"display": "none"},
                      config={"displayModeBar": False}),
        ], className="views"),
        html.Div("Hover a point to ring it in both views; select with the box or lasso tool of a 2-D view to "
                 "mark points in both; click a point to inspect its neighbourhood below.",
                 id=ids.SELECTION_TEXT, className="help selection-text", role="status"),
        find_box(),
        # Below the views, never above: the views are what the page is for (and a projector's window).
        html.Details([html.Summary("Every measure of this run"),
                      html.Div(id=ids.MEASURE_TABLE, className="measure-table")], open=True, className="measures-fold"),
        html.H3("Neighbourhood inspector"),
        html.Div("Click a point in either view.", id=ids.INSPECTOR_TEXT, className="help"),
        dcc.Graph(id=ids.INSPECTOR_GRAPH, figure=empty_figure("Click a point in either view."),
                  className="inspector", config=graph_config("inspector")),
        *[dcc.Store(id=store) for store in (ids.RUN_FROM_JOB, ids.RUN_PARTIAL, ids.RUN_SHOWN, ids.EXPLORE_REQUEST,
                                             ids.DRAWN)],
    ])


def _cards_of(record):
    if record["status"] == "partial":  # the measures done so far; the others are still being computed
        return {**{name: card_text(record["summary"][name]) if name in record["summary"] else MEASURING
                   for name in catalogue.CARD_MEASURES}, TIME_CARD: MEASURING}
    if record["status"] != "done":
        return {name: NO_RESULT for name in CARDS}
    return {**{name: card_text(record["summary"].get(name)) for name in catalogue.CARD_MEASURES},
            TIME_CARD: f"{record['seconds']:.2f} s" + (" (cached)" if record["cached"] else "")}


def _unchanged():
    return {"input": no_update, "output": no_update, "cards": {name: no_update for name in CARDS},
            "message": no_update, "message_class": no_update, "drawn": no_update,
            "shown": no_update, "request": no_update}


def show_state(services, state, shown, drawn, session, token, job=None):
    """A new view state, in one request: its run shown already, only what its display changed is redrawn (a
    run still computing as well, while its ``job`` runs: what it has so far); its run cached, it is drawn at
    once (no job); otherwise the background job computes it, and the views keep the run they show until it
    arrives (:func:`show_computed`)."""
    if not state:
        return _unchanged()
    try:
        state_value = ViewState.from_dict(state)
        request = RunRequest.from_state(state_value)
        if shown and checked_record(shown)["status"] == "done" and shown["request"] == request.to_dict():
            return draw_run(services, shown, state_value.display, drawn, session)
        if (shown and shown["status"] == "partial" and shown["request"] == request.to_dict()
                and isinstance(job, dict) and job.get("request") == shown["request"]
                and not services.jobs.ended(job_nonce(job, EXPLORE_REQUEST))):
            # Its job is measuring it: redraw what it has (a new colouring), start no second job.
            loaded = partial_of(services, request, session)
            if loaded[1] is not None:
                return _still_partial(services, loaded[0], draw_run(services, shown, state_value.display, drawn,
                                                                    session, loaded=loaded))
        services.uploads.for_session(session).authorize(request.data)
        result = services.results.get(request)
    except Exception as error:  # a bad state or an unreadable store is a message, never a broken page
        return draw_run(services, failure_record(error), None, drawn, session, new=True)
    if result is None:
        # The job receives the run's request only. A fresh nonce: two equal requests in a row are two
        # jobs (Dash keys a job by its arguments).
        return {**_unchanged(), "request": {"request": request.to_dict(), "nonce": secrets.token_hex(8),
                                            "token": token}}
    record = run_record(request, result, True)
    return draw_run(services, record, state_value.display, drawn, session, loaded=(request, result), new=True)


def show_computed(services, record, state, drawn, session):
    """A job's record (a run, a failure, the report of a lost job, or a run still measuring) becomes the run
    shown, unless the view has moved on to another run since the job started."""
    if not record or not state:
        return _unchanged()
    try:
        current = ViewState.from_dict(state)
        record = checked_record(record)
        if record["status"] != "failed" and RunRequest.from_state(current).to_dict() != record["request"]:
            return _unchanged()
        loaded = (partial_of(services, RunRequest.from_dict(record["request"]), session)
                  if record["status"] == "partial" else None)
    except Exception as error:  # the current view is invalid: say why
        return draw_run(services, failure_record(error), None, drawn, session, new=True)
    if record["status"] == "partial" and loaded[1] is None:
        return _unchanged()  # its partial result is gone (the whole one replaced it): the job's record comes next
    outputs = draw_run(services, record, current.display, drawn, session, loaded=loaded, new=True)
    return _still_partial(services, loaded[0], outputs) if record["status"] == "partial" else outputs


def _still_partial(services, request, outputs):
    """``outputs`` drawing part of ``request``'s run, unless its whole result was stored meanwhile: that one is on
    its way to the page by the job's own callback, and a part drawn after it would stay (the callbacks' answers
    arrive in any order). A store that cannot say: nothing drawn, the whole run comes all the same."""
    try:
        held = services.results.holds_partial(request)
    except Exception:  # noqa: BLE001 - any store's failure; logged, the page waits for the whole run
        logger.warning("could not tell whether %s is still computing", request.slug(), exc_info=True)
        held = False
    return outputs if held else _unchanged()


def draw_run(services, record, display, drawn, session, *, loaded=None, new=False):
    """The explore outputs drawing run ``record`` in ``display``: the whole views, a colouring patched in
    (one array per view), or nothing when what the views show is unchanged.

    ``loaded`` is the run's (request, result) when already read; ``new`` makes the record the run shown
    (its cards written).
    """
    outputs = {**_unchanged(), "shown": record if new else no_update}
    # The page's record of what its views hold; another value (a forged or stale store) is nothing drawn.
    drawn = drawn if isinstance(drawn, dict) else None
    if record["status"] not in ("done", "partial"):
        blank = empty_figure("No result: see the message above.")
        return {**outputs, "input": blank, "output": blank, "cards": _cards_of(record),
                "message": record["message"],
                "message_class": "message error", "drawn": None}
    layout = {"request": record["request"], "landmarks": display.landmarks, "view": display.input_view,
              "presentation": display.presentation}
    # The next part of the run the views draw in part, or its last (the whole run): its points are drawn already,
    # its cards are new. Its last part also takes the "measuring" mark off the output's title, in a patch: redrawn
    # whole, a million points took Plotly 5 s in the page (bench/browser.py --million).
    measured = bool(drawn) and drawn.get("status") == "partial"
    finished = measured and record["status"] == "done"
    same_views = bool(drawn) and (not new or measured) and {key: drawn.get(key) for key in layout} == layout
    if same_views and not measured and drawn.get("color") == display.color:
        return outputs  # another tab's setting changed: nothing to read, nothing to draw
    try:
        request, result = loaded or point_events.shown_result(services, record, session)
    except measures.ProcrustesLabError as error:
        return {**outputs, "message": str(error), "message_class": "message error"}
    if result is None:
        return {**outputs, "message": "This run has left the cache: change a control, or reload, to compute it "
                                      "again.", "message_class": "message warning"}
    view = explore_view(request, result, display.landmarks, display.input_view, display.color)
    output_color, title, _ = coloring(result, display.color, view.output.rows)
    colors = {"input": coloring(result, display.color, view.input.rows)[0], "output": output_color}
    color_range = robust_color_range(output_color)  # every drawn point's colour sets the range
    described = bool(result.metadata)  # each point's metadata line in its hover, when the upload carries some
    classes = class_labels(result) if display.color.startswith("truth-") else None
    losses = neighbour_losses(result) if display.color == catalogue.NEIGHBOUR_LOSSES else None
    # A class legend or a loss key (and its fallback's note) is redrawn, not patched: the losses drawn, or their
    # fallback while a run measured in parts has no trustworthiness and continuity yet (then redrawn when it has).
    drawn_losses = ("drawn" if losses is not None else "fallback") if display.color == catalogue.NEIGHBOUR_LOSSES \
        else False
    # NIEQA's landmarks marked (the overlay on, and a part that has measured them): traces added, so drawn whole.
    layout.update(classes=classes is not None, losses=drawn_losses, marked=view.output.landmarks is not None,
                  color=display.color, status=record["status"], colored_by=title, embedded=bool(result.Y.shape[1]),
                  input={"data": record["request"]["data"], "rows": rows_digest(view.input.rows)},
                  output=rows_digest(view.output.rows))
    # The output arrives (its algorithm ended) in a view that waited for it: drawn whole, not recoloured; and so are
    # views whose drawn rows another part of the run changes (a subsample keeping NIEQA's landmarks).
    same_views = (same_views and drawn.get("embedded", True) == layout["embedded"]
                  and drawn.get("marked", False) == layout["marked"]
                  and all(drawn.get(key) == layout[key] for key in ("input", "output")))
    whole = _notes(view) if finished else {}  # the last part's message
    if measured and same_views and all(drawn.get(key) == layout[key]
                                       for key in ("color", "colored_by", "classes", "losses")):
        # Its colouring's measure is unchanged (R_N since the first group, or the truth): the cards alone, and the
        # last part's output title.
        return {**outputs, "cards": _cards_of(record), "drawn": layout, **whole,
                **({"output": titled(Patch(), view.output_title)} if finished else {})}
    projection = None if display.input_view == "3d" else (int(display.input_view[0]), int(display.input_view[1]))
    if same_views and drawn.get("classes") == layout["classes"] and drawn.get("losses") == layout["losses"]:
        patches = {}
        input_axes = input_axis_names(result.input_axes, projection)  # as the drawn figure names them
        for name, axes, points, show_scale in (("input", input_axes, view.input, False),
                                               ("output", OUTPUT_AXES, view.output, True)):
            if name == "output" and not layout["embedded"]:
                continue  # the output view waits for its algorithm: nothing to recolour
            patch = Patch()
            columns = (input_columns(result, view, projection) if name == "input"
                       else drawn_columns(view.output.take(result.Y), 2))
            for key, value in color_update(colors[name], color_range, title, axes, points.rows, show_scale,
                                           described, fixed_columns=columns).items():
                patch["data"][0][key] = value
            patches[name] = patch
        if finished:
            titled(patches["output"], view.output_title)
        return {**outputs, **patches, "drawn": layout, **({"cards": _cards_of(record)} if measured else {}), **whole}
    revision = record["request"]
    # Another run of the same points drawn alike (no landmark, class or loss traces on either side): the
    # input view keeps its coordinates, its camera and its trace layout, and receives its colouring.
    plain = not (display.landmarks or layout["classes"] or layout["losses"])
    same_input = (bool(drawn) and plain and drawn.get("input") == layout["input"] and
                  not (drawn.get("landmarks") or drawn.get("classes") or drawn.get("losses")) and
                  {key: drawn.get(key) for key in ("view", "presentation")} == {key: layout[key] for key in
                                                                                ("view", "presentation")})
    figures = {}
    lines = metadata_lines(result)  # joined only for a view drawn whole: a patch keeps the browser's
    if layout["embedded"]:
        figures["output"] = output_figure(
            view.output.take(result.Y), colors["output"], color_range, title, point_ids=view.output.rows,
            revision=str(revision), landmarks=view.output.landmarks, landmark_configuration=view.landmark_configuration,
            title=(view.output_title.replace("Output:", "Output (measuring…):", 1) if record["status"] == "partial"
                   else view.output_title), hover_text=None if lines is None else view.output.take(lines),
            fixed_point=True)
    if not same_input:
        figures["input"] = input_figure(view.input.take(result.drawn_X), colors["input"], color_range, title,
                                        point_ids=view.input.rows, title=view.input_title,
                                        revision=f"{revision}|{display.input_view}", landmarks=view.input.landmarks,
                                        axis_titles=result.input_axes, projection=projection,
                                        hover_text=None if lines is None else view.input.take(lines),
                                        fixed_point=True)
    finish_views(figures, {"input": view.input, "output": view.output}, classes, title, display, losses)
    for key, figure in figures.items():  # the camera saves each view under the run's name
        figure.update_layout(meta={"filename": f"procrustes-lab_{request.slug()}_{key}"})
    if not layout["embedded"]:  # the input first, while its algorithm runs
        figures["output"] = empty_figure(f"Embedding with {catalogue.method_label(request.method.algorithm)}…")
    if same_input and drawn.get("request") == record["request"] and drawn.get("colored_by") == title:
        # The same run's next part, coloured alike: the input view as drawn (a 3-D view redrawn in the
        # browser's software WebGL took seconds at 20 000 points while the job held both cores).
        figures["input"] = no_update
    elif same_input:
        figures["input"] = recoloured_input(colors["input"], color_range, title,
                                             input_axis_names(result.input_axes, projection), view,
                                             input_columns(result, view, projection), described=described,
                                             filename=f"procrustes-lab_{request.slug()}_input")
    if record["status"] == "partial":
        return {**outputs, **figures, "cards": _cards_of(record), "drawn": layout, "message_class": "message",
                "message": MEASURING_MESSAGE if layout["embedded"] else EMBEDDING_MESSAGE}
    return {**outputs, **figures, "cards": _cards_of(record), **_notes(view), "drawn": layout}


def _notes(view):
    """The message of a whole run: the notes of its ``view`` (a subsample drawn, a far point), or none."""
    return {"message": view.notes, "message_class": "message warning" if view.notes else "message"}


def register(app, services):
    """Wire the explore tab to ``app``, computing and reading through ``services``."""
    session = State(ids.SESSION, "data")
    def outputs(duplicate):
        return dict(
            input=Output(ids.INPUT_GRAPH, "figure", allow_duplicate=duplicate),
            output=Output(ids.OUTPUT_GRAPH, "figure", allow_duplicate=duplicate),
            cards={name: Output(ids.card_value(name), "children", allow_duplicate=duplicate) for name in CARDS},
            message=Output(ids.MESSAGE, "children", allow_duplicate=duplicate),
            message_class=Output(ids.MESSAGE, "className", allow_duplicate=duplicate),
            drawn=Output(ids.DRAWN, "data", allow_duplicate=duplicate),
            shown=Output(ids.RUN_SHOWN, "data", allow_duplicate=duplicate),
            request=Output(ids.EXPLORE_REQUEST, "data", allow_duplicate=duplicate))

    app.callback(output=outputs(False),
                 inputs=dict(state=Input(ids.VIEW_STATE, "data"), shown=State(ids.RUN_SHOWN, "data"),
                             drawn=State(ids.DRAWN, "data"), session=session, token=PAGE_TOKEN_STATE,
                             job=State(ids.EXPLORE_REQUEST, "data")),
                 prevent_initial_call=True)(functools.partial(show_state, services))

    @app.callback(Output(ids.RUN_FROM_JOB, "data"), Input(ids.EXPLORE_REQUEST, "data"), session,
                  prevent_initial_call=True, **job_options(ids.EXPLORE_JOB))
    def run_explore(set_progress, job, session_id):
        return compute_record(services, job, session_id, progress_reporter(set_progress),
                              show=lambda record: set_props(ids.RUN_PARTIAL, {"data": record}))

    for store in (ids.RUN_FROM_JOB, ids.RUN_PARTIAL):  # two callbacks: the partial one runs while the job does
        app.callback(output=outputs(True),
                     inputs=dict(record=Input(store, "data"), state=State(ids.VIEW_STATE, "data"),
                                 drawn=State(ids.DRAWN, "data"), session=session),
                     prevent_initial_call=True)(functools.partial(show_computed, services))
    job_ids = ids.job_controls(ids.EXPLORE_JOB)
    app.callback(Output(ids.APPLY_STATE, "data", allow_duplicate=True),
                 Output(ids.MESSAGE, "children", allow_duplicate=True),
                 Output(ids.OUTPUT_GRAPH, "figure", allow_duplicate=True), Input(job_ids["cancel"], "n_clicks"),
                 State(ids.RUN_SHOWN, "data"), State(ids.VIEW_STATE, "data"), State(ids.EXPLORE_REQUEST, "data"),
                 prevent_initial_call=True)(functools.partial(revert_cancelled, services))
    app.callback(Output(ids.RUN_FROM_JOB, "data", allow_duplicate=True), Input(job_ids["running"], "data"),
                 State(ids.EXPLORE_REQUEST, "data"), prevent_initial_call=True)(
        functools.partial(report_lost, services))
    point_events.register(app, services)
    yardsticks.register(app, services)
    find.register(app, services)
