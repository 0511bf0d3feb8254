"""The normalization tab (PN): do normalized-output algorithms collapse a long shape, and does Φ say so?

The study is a :class:`lab.NormalizationRequest` (the view state's normalization settings) computed
by :func:`lab.compute.compute` in a background job and kept whole in the result cache; the page keeps the
state it came from and draws the table, the Φ ratio curve and the outputs on the server from the
cached result.
"""

from dash import Input, Output, dcc, html

import algorithms
import measures
from lab import NormalizationRequest
from lab.compute.shapes import SHAPES, NormalizationDefaults
from lab.view.state import stored_state

from . import ids
from .controls import graph_config, labelled
from .figures import comparison_grid, empty_figure, phi_ratio_figure
from .jobs import job_box, register_study_job
from .tables import number_text

__all__ = ["normalization_tab", "register"]


def normalization_tab(shown):
    """The tab's layout, its controls showing ``shown``."""
    controls = shown["controls"]
    aspect = NormalizationDefaults.aspect_parameter
    return html.Div([
        html.P("Normalized-output algorithms fix their output's covariance; on a long shape the faithful "
               "output then costs more than a curve folded along the long axis (PN §5). Φ(Y) is the cost of "
               "the faithful output, Φ(Z) that of the folded one: Φ(Y) > Φ(Z) predicts failure. The collapse "
               "score says whether the output did collapse: about 0.5 for a faithful 2-D output, near 0 for a "
               "curve.", className="help"),
        html.Div([
            labelled("Shape", dcc.Dropdown(id=ids.NORMALIZATION_SHAPE, value=controls["normalization_shape"],
                                           clearable=False,
                                           options=[{"label": s.label, "value": key} for key, s in SHAPES.items()])),
            html.Div([
                html.Label(SHAPES[controls["normalization_shape"]].aspect_label, id=ids.NORMALIZATION_ASPECT_LABEL,
                           className="control-label"),
                dcc.Slider(id=ids.NORMALIZATION_ASPECT, min=aspect.low, max=aspect.high, step=0.01,
                           value=controls["normalization_aspect"],
                           marks={a: str(a) for a in range(int(aspect.low), int(aspect.high) + 1)},
                           tooltip={"placement": "bottom", "always_visible": True}),
            ], className="control aspect-control"),
            labelled("Points n", dcc.Input(id=ids.NORMALIZATION_SIZE, type="number", step=1, debounce=True,
                                           value=controls["normalization_n"], placeholder="data set's default",
                                           className="number-input"),
                     "Empty: the data set's default size (a grid has as many points as its size)."),
            labelled("Neighbours k", dcc.Input(id=ids.NORMALIZATION_NEIGHBORS, type="number", step=1, debounce=True,
                                               value=controls["normalization_n_neighbors"], className="number-input"),
                     "For the algorithms and for Φ (PN's figures use K = 8)."),
            labelled("Algorithms", dcc.Checklist(
                id=ids.NORMALIZATION_ALGORITHMS, value=controls["normalization_algorithms"], inline=True,
                options=[{"label": s.label, "value": s.name} for s in algorithms.specs()
                         if s.output == "normalized"])),
            html.Button("Run", id=ids.NORMALIZATION_RUN, className="run-button"),
        ], className="normalization-controls"),
        job_box(ids.NORMALIZATION_JOB),
        html.Div(id=ids.NORMALIZATION_MESSAGE, className="message", role="status"),
        html.Div(id=ids.NORMALIZATION_TABLE, className="sweep-table"),
        dcc.Graph(id=ids.NORMALIZATION_CURVE, config=graph_config("phi-ratio"), figure=empty_figure("Press Run.")),
        dcc.Graph(id=ids.NORMALIZATION_GRID, config=graph_config("normalization"), figure=empty_figure("Press Run.")),
        dcc.Store(id=ids.NORMALIZATION_REQUEST), dcc.Store(id=ids.NORMALIZATION_STORE),
    ])


def keep_study(_request, result):
    """The study is kept whole in the cache: the page keeps its state, and says what was studied."""
    return {}, result.message


def _title(row):
    ratio = "" if row["ratio"] is None else f", Φ(Y)/Φ(Z) {row['ratio']:.2g}"
    return f"{row['label']}<br>collapse {row['collapse']:.2f}{ratio}"


def draw_study(services, stored):
    """The study's table (collapse, Φ(Y), Φ(Z), verdict), its Φ ratio curve and its outputs."""
    if not stored:
        blank = empty_figure("Press Run.")
        return blank, blank, None
    try:
        result = services.results.get(NormalizationRequest.from_state(stored_state(stored)))
    except measures.ProcrustesLabError as error:  # a store this page never wrote
        blank = empty_figure(str(error))
        return blank, blank, None
    rows = [row for row in (result.rows if result else ()) if "error" not in row]
    if not rows:
        blank = empty_figure("No output to show: see the message above." if result else
                             "This study has left the cache: press Run again.")
        return blank, blank, None
    header = html.Tr([html.Th(text) for text in ("algorithm", "collapse score", "Φ(Y)", "Φ(Z)", "Φ(Y)/Φ(Z)",
                                                 "verdict")])
    body = [html.Tr([html.Td(row["label"]), html.Td(f"{row['collapse']:.3f}"),
                     *[html.Td(number_text(row[key])) for key in ("phi_y", "phi_z", "ratio")],
                     html.Td(row["verdict"], className="cell-error" if (row["ratio"] or 0) > 1 else "")])
            for row in rows]
    panels = [{**row, "title": _title(row)} for row in rows]
    return (comparison_grid(panels, result.color, result.color_title),
            phi_ratio_figure(result.aspects, result.curve, result.aspect, result.aspect_label)
            if result.curve else empty_figure("Φ is written for LEM, LLE and LTSA only (PN §2)."),
            html.Table([html.Thead(header), html.Tbody(body)]))


def register(app, services):
    """Wire the normalization tab to ``app``."""
    register_study_job(app, services, ids.NORMALIZATION_JOB, ids.NORMALIZATION_RUN, ids.NORMALIZATION_REQUEST,
                       ids.NORMALIZATION_STORE, ids.NORMALIZATION_MESSAGE, NormalizationRequest, keep_study,
                       lambda state: f"the previous study, {SHAPES[state.normalization.shape].label} at "
                                     f"{state.normalization.aspect:g}", tab="normalization")
    app.callback(Output(ids.NORMALIZATION_GRID, "figure"), Output(ids.NORMALIZATION_CURVE, "figure"),
                 Output(ids.NORMALIZATION_TABLE, "children"), Input(ids.NORMALIZATION_STORE, "data"),
                 prevent_initial_call=True)(lambda stored: draw_study(services, stored))
    app.callback(Output(ids.NORMALIZATION_ASPECT_LABEL, "children"), Input(ids.NORMALIZATION_SHAPE, "value"),
                 prevent_initial_call=True)(
        lambda shape: SHAPES[shape].aspect_label if isinstance(shape, str) and shape in SHAPES else "")
