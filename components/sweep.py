"""The sweep tab: each chosen algorithm's measures against k, its best k starred, a table, and which
measures rank the sweep's runs alike.

The sweep is a :class:`lab.SweepRequest` (the view state's data and sweep settings, built and checked
as Run sweep is clicked) computed by :func:`lab.compute.compute` in a background job that receives the
request (:func:`components.jobs.register_study_job`); every cell goes through the result cache, so a
repeated sweep is read from disk. The page keeps the sweep's rows with the state they were computed from (for
the table, the plot and the downloads).
"""

import secrets

from dash import Input, Output, State, dcc, html, no_update

import algorithms
import measures
from lab import MethodChoice, StateError, SweepRequest, ViewState
from lab.compute import catalogue
from lab.compute.studies import best_cells, runs_agreement, stored_sweep, sweep_yardsticks

from . import ids
from .tables import NO_RESULT
from .controls import K_MARKS, export_buttons, graph_config, labelled
from .figures import agreement_figure, empty_figure, sweep_figure
from .jobs import job_box, register_study_job

__all__ = ["register", "sweep_tab"]

_AGREEMENT_PENDING = "Run a sweep to see which measures rank its runs alike."


def sweep_tab(shown):
    """The tab's layout, its controls showing ``shown`` (:func:`components.state_sync.controls_from_state`)."""
    controls = shown["controls"]
    return html.Div([
        html.P("Quality against the algorithm's own k on the data set chosen on the left; each cell is "
               "cached, so a repeated sweep is instant. Click a point to open that embedding.", className="help"),
        html.Div([
            labelled("Algorithms", dcc.Checklist(
                id=ids.SWEEP_ALGORITHMS, value=controls["sweep_algorithms"], inline=True,
                options=[{"label": s.label, "value": s.name} for s in algorithms.specs()])),
            labelled("k from … to", dcc.RangeSlider(id=ids.SWEEP_K_RANGE, min=catalogue.NEIGHBORS.low,
                                                   max=catalogue.NEIGHBORS.high, step=1,
                                                   value=controls["sweep_k_range"],
                                                   # No tooltips: the slider's own fields show both ends, and
                                                   # tooltips below the thumbs hid the marks between them.
                                                   marks=K_MARKS)),
            labelled("step", dcc.Input(id=ids.SWEEP_K_STEP, type="number", value=controls["sweep_k_step"], step=1,
                                       debounce=True, className="number-input"),
                     f"At most {catalogue.MAX_SWEEP_CELLS} runs (algorithms × values of k) per sweep."),
            labelled("Plot", html.Div([
                dcc.Dropdown(id=ids.SWEEP_MEASURE, value=controls["sweep_measure"], clearable=False,
                             options=[{"label": label, "value": key} for key, label in catalogue.SUMMARY_MEASURES]),
                dcc.Checklist(id=ids.SWEEP_LOG, value=controls["sweep_log"], inline=True,
                              options=[{"label": " log scale", "value": "log"}]),
                html.Span(dcc.Checklist(id=ids.SWEEP_YARDSTICKS, value=controls["sweep_yardsticks"], inline=True,
                                        options=[{"label": " random-output band", "value": "yardsticks"}]),
                          title=("Each cell's measures on outputs that keep nothing of the input, drawn as a band: "
                                 "about three times the sweep's time on a first run; at most "
                                 f"{catalogue.YARDSTICK_MAX_SAMPLES:,} points."))])),
            html.Button("Run sweep", id=ids.SWEEP_RUN, className="run-button"),
        ], className="sweep-controls"),
        job_box(ids.SWEEP_JOB),
        html.Div(id=ids.SWEEP_MESSAGE, className="message", role="status"),
        export_buttons(
            (ids.EXPORT_SWEEP_CSV, "Sweep table (CSV)", "One row per algorithm and k, every measure, with the view."),
            (ids.EXPORT_SWEEP_JSON, "Sweep (JSON)", "The cells, the sweep's request and its view state.")),
        dcc.Graph(id=ids.SWEEP_GRAPH, className="sweep-view", config=graph_config("sweep"),
                  figure=empty_figure("Run a sweep to see quality against k.")),
        html.Div(id=ids.SWEEP_TABLE, className="sweep-table"),
        dcc.Graph(id=ids.SWEEP_AGREEMENT, className="sweep-agreement", config=graph_config("measure_agreement"),
                  figure=empty_figure(_AGREEMENT_PENDING)),
        dcc.Store(id=ids.SWEEP_REQUEST), dcc.Store(id=ids.SWEEP_STORE),
    ])


def keep_sweep(_request, result):
    """The page keeps the sweep's rows beside its state (its cells are runs in the result cache)."""
    return {"result": result.to_value()}, result.message


def _summary_text(pair):
    """"mean / median" of a per-point measure, the value of a global one, a dash if not computed."""
    mean, median = pair
    if mean is None:
        return NO_RESULT
    return f"{mean:.4g}" if median is None else f"{mean:.4g} / {median:.4g}"


def draw_sweep(stored, state):
    """The sweep's curves, each algorithm's best k starred in the measure's own direction, its table, and
    the measures' agreement across its runs (:func:`lab.compute.studies.runs_agreement`).

    Only while the sweep tab shows: the view state changes with every run the explore tab opens, and a
    hidden tab's figures would be rebuilt and sent for nothing; opening the tab (a view state) draws them.
    """
    try:
        view = ViewState.from_dict(state) if state else None
        if view is not None and view.tab != "sweep":
            return no_update, no_update, no_update
        if not stored or view is None:
            return empty_figure("Run a sweep to see quality against k."), None, empty_figure(_AGREEMENT_PENDING)
        result = stored_sweep(stored)
    except StateError as error:
        return empty_figure(str(error)), None, empty_figure(_AGREEMENT_PENDING)
    rows = result.rows
    measure, log_scale = view.sweep.measure, view.sweep.log_scale
    labels = {name: measures.spec(name).label for name in catalogue.CARD_MEASURES}
    header = html.Tr([html.Th("algorithm"), html.Th("k"), *[html.Th(label) for label in labels.values()],
                      html.Th("seconds")])
    body = []
    for row in rows:
        if "error" in row:
            cells = [html.Td(row["error"], colSpan=len(labels) + 1, className="cell-error")]
        else:
            cells = [*[html.Td(_summary_text(row["summary"][key])) for key in labels],
                     html.Td(f"{row['seconds']:.2f}")]
        body.append(html.Tr([html.Td(row["label"]), html.Td(row["k"]), *cells]))
    figure = sweep_figure(rows, measure, dict(catalogue.SUMMARY_MEASURES)[measure], best_cells(rows, measure),
                          sweep_yardsticks(rows, measure))
    if log_scale:  # measures spanning decades (GP's R_N of 1e-4 beside LTSA's 0.99); values <= 0 are not drawn
        figure.update_yaxes(type="log")
    names, rho, runs = runs_agreement(rows)
    agreement = agreement_figure([measures.spec(name).label for name in names], rho, runs, measures.MIN_SHARED_RUNS)
    return figure, html.Table([html.Thead(header), html.Tbody(body)]), agreement


def open_sweep_point(click, state):
    """Clicking a sweep curve opens that algorithm and k in the explore tab (a whole state, applied)."""
    points = click.get("points") if isinstance(click, dict) else None
    point = points[0] if isinstance(points, list) and points and isinstance(points[0], dict) else {}
    cell = point.get("customdata")
    if not (isinstance(cell, list) and len(cell) == 2) or not state:  # the curves carry [algorithm, k]
        return no_update
    algorithm, k = cell
    # The cell's run: the algorithm's defaults at that k, as the sweep computed it (a cache hit).
    try:
        opened = ViewState.from_dict(state).replace(method=MethodChoice(algorithm, k), tab="explore").validated()
    except StateError:  # a cell no curve of this page holds, or a view the page did not write
        return no_update
    return {"state": opened.to_dict(), "message": "", "nonce": secrets.token_hex(8)}


def describe(state):
    """The sweep a state asks for, in a few words."""
    request = SweepRequest.from_state(state)
    return (f"the previous sweep, {request.data.label()}, k {min(request.ks)}–{max(request.ks)}, "
            f"{len(request.algorithms)} algorithms")


def register(app, services):
    """Wire the sweep tab to ``app``."""
    register_study_job(app, services, ids.SWEEP_JOB, ids.SWEEP_RUN, ids.SWEEP_REQUEST, ids.SWEEP_STORE,
                       ids.SWEEP_MESSAGE, SweepRequest, keep_sweep, describe, tab="sweep")
    app.callback(Output(ids.SWEEP_GRAPH, "figure"), Output(ids.SWEEP_TABLE, "children"),
                 Output(ids.SWEEP_AGREEMENT, "figure"),
                 Input(ids.SWEEP_STORE, "data"), Input(ids.VIEW_STATE, "data"))(draw_sweep)
    app.callback(Output(ids.APPLY_STATE, "data", allow_duplicate=True), Input(ids.SWEEP_GRAPH, "clickData"),
                 State(ids.VIEW_STATE, "data"), prevent_initial_call=True)(open_sweep_point)
