"""The compare tab: the chosen algorithms at one k side by side, isometric outputs first, with bars and
the measures' agreement across them.

The comparison is a :class:`lab.CompareRequest` (the view state's data, k and compare settings, built as
Compare is clicked) computed by :func:`lab.compute.compute` in a background job that receives the request
(:func:`components.jobs.register_study_job`) and kept whole in the result cache; the page
keeps only the state it came from, and the figures are drawn on the server from the cached result.
"""

from dash import Input, Output, State, dcc, html

import algorithms
import measures
from lab import CompareRequest
from lab.compute import catalogue
from lab.compute.studies import runs_agreement
from lab.view.state import stored_state

from . import ids
from .controls import export_buttons, graph_config, labelled
from .figures import agreement_figure, comparison_grid, empty_figure, measure_bars
from .jobs import job_box, register_study_job

__all__ = ["compare_tab", "register"]


def compare_tab(shown):
    """The tab's layout, its controls showing ``shown``."""
    controls = shown["controls"]
    return html.Div([
        html.P("The chosen algorithms' outputs at the k set on the left, isometric ones first, each with "
               "its R_N and R_C; bars compare every measure. Normalized outputs score a high R_N by "
               "construction (their scale is fixed by a constraint, PN §2): read R_C for them.",
               className="help"),
        html.Div([
            labelled("Algorithms", dcc.Checklist(
                id=ids.COMPARE_ALGORITHMS, value=controls["compare_algorithms"], inline=True,
                options=[{"label": s.label, "value": s.name} for s in algorithms.specs()])),
            dcc.Checklist(id=ids.COMPARE_ALIGN, value=controls["compare_align"], inline=True,
                          options=[{"label": " align each output to the ground truth (display only)",
                                    "value": "align"}]),
            html.Button("Compare", id=ids.COMPARE_RUN, className="run-button"),
        ], className="compare-controls"),
        job_box(ids.COMPARE_JOB),
        html.Div(id=ids.COMPARE_MESSAGE, className="message", role="status"),
        export_buttons(
            (ids.EXPORT_COMPARE_CSV, "Comparison table (CSV)", "One row per algorithm, every measure, with the view."),
            (ids.EXPORT_COMPARE_JSON, "Comparison (JSON)", "Every algorithm's measures, the request and the view.")),
        dcc.Graph(id=ids.COMPARE_BARS, className="compare-bars", config=graph_config("comparison-measures"),
                  figure=empty_figure("Press Compare.")),
        dcc.Graph(id=ids.COMPARE_GRID, config=graph_config("comparison"), figure=empty_figure("Press Compare.")),
        dcc.Graph(id=ids.COMPARE_AGREEMENT, config=graph_config("measure_agreement"),
                  figure=empty_figure("Press Compare.")),
        dcc.Store(id=ids.COMPARE_REQUEST), dcc.Store(id=ids.COMPARE_STORE),
    ])


def keep_comparison(_request, result):
    """The comparison is kept whole in the cache: the page keeps its state, and says what was compared."""
    return {}, result.message


def draw_comparison(services, stored, session):
    """Small multiples, measure bars and the measures' agreement across the algorithms of the comparison shown."""
    if not stored:
        blank = empty_figure("Press Compare.")
        return blank, blank, blank
    try:
        request = CompareRequest.from_state(stored_state(stored))
        services.uploads.for_session(session).authorize(request.data)
        result = services.results.get(request)
    except measures.ProcrustesLabError as error:  # a store this page never wrote, or an upload not this session's
        blank = empty_figure(str(error))
        return blank, blank, blank
    panels = [panel for panel in (result.panels if result else ()) if "error" not in panel]
    if not panels:
        blank = empty_figure("No output to show: see the message above." if result else
                             "This comparison has left the cache: press Compare again.")
        return blank, blank, blank
    names, rho, runs = runs_agreement(panels)
    return (comparison_grid(panels, result.color, result.color_title),
            readable_bars(measure_bars(panels, [(name, measures.spec(name).label) for name in catalogue.CARD_MEASURES]),
                          len(panels)),
            agreement_figure([measures.spec(name).label for name in names], rho, runs, measures.MIN_SHARED_RUNS))


def readable_bars(figure, count):
    """The bar charts, readable however many algorithms: past four, bars lie horizontal, one row per
    algorithm, its name written once at the left (the charts share the order), so no label is skipped."""
    if count <= 4:
        return figure
    for trace in figure.data:
        template = trace.hovertemplate.replace("%{x}", "%{LABEL}").replace("%{y", "%{x").replace("%{LABEL}", "%{y}")
        trace.update(x=trace.y, y=trace.x, orientation="h", hovertemplate=template)
    figure.update_yaxes(autorange="reversed", showticklabels=False, gridcolor=None, rangemode=None)
    figure.update_yaxes(showticklabels=True, automargin=True, col=1)
    figure.update_xaxes(rangemode="tozero", gridcolor="#eee")
    figure.update_layout(height=140 + 24 * count, legend=dict(x=0, xanchor="left"))  # clear of the mode bar
    return figure


def register(app, services):
    """Wire the compare tab to ``app``."""
    register_study_job(app, services, ids.COMPARE_JOB, ids.COMPARE_RUN, ids.COMPARE_REQUEST, ids.COMPARE_STORE,
                       ids.COMPARE_MESSAGE, CompareRequest, keep_comparison,
                       lambda state: f"the previous comparison, {CompareRequest.from_state(state).slug()}",
                       tab="compare")
    app.callback(Output(ids.COMPARE_GRID, "figure"), Output(ids.COMPARE_BARS, "figure"),
                 Output(ids.COMPARE_AGREEMENT, "figure"), Input(ids.COMPARE_STORE, "data"), State(ids.SESSION, "data"),
                 prevent_initial_call=True)(
        lambda stored, session: draw_comparison(services, stored, session))
