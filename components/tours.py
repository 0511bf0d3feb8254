"""The papers' tours on the page: the index and presentation toggle, the step's text and claims, its figures.

A step is opened like any view: its whole state goes through :data:`ids.APPLY_STATE` (Back, Next)
or the index (a control of the view state), so every control is set and the explore run starts.
:func:`show_step` answers a step whose numbers are cached at once; otherwise a background job
computes it (:func:`lab.compute.compute` of its :class:`lab.tours.steps.StepRequest`, every run
through the result cache) and :func:`show_computed` draws it. The text and every claim are filled
from the computed values; the figures (:mod:`components.tour_figures`) draw each panel's output from the cached run.
"""

import functools
import logging
import secrets

from dash import ClientsideFunction, Input, Output, State, ctx, dcc, html, no_update


from lab import StateError, ViewState, failure_message
from lab.compute import compute
from lab.store.stores import StoreUnavailableError
from lab.tours.presets import PRESETS, STEPS, applied, locate
from lab.tours.steps import StepResult, Values

from . import ids, tour_images
from .figures import empty_figure
from .tour_figures import step_bars, step_curve, step_outputs, step_table
from .tour_images import tour_image
from .jobs import PAGE_TOKEN_STATE, job_box, job_options, progress_reporter

__all__ = ["header_controls", "index_options", "mark_ready", "register", "render_step", "show_step", "step_target",
           "tour_box", "tour_figures"]

logger = logging.getLogger(__name__)

_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["sendDataToCloud"]}
# A figure out of sight stays laid out (no display: none): Plotly cannot clear WebGL traces from an
# element that is not displayed. It then holds a blank figure.
_HIDDEN = {"height": "0px", "visibility": "hidden"}
_BLANK = empty_figure("")


def index_options(ready=()):
    """The tours' index: every step, those in ``ready`` (their numbers computed) marked ✓."""
    return [{"label": f"{entry.label}  ✓" if entry.name in ready else entry.label, "value": entry.name,
             "title": "Computed: opens at once." if entry.name in ready else "Computed when opened."}
            for entry in PRESETS]


def mark_ready(services, _token, _done):
    """The index with the steps whose numbers are in the result cache marked (on load, and after a step is
    computed): a lecturer sees which steps open at once (``python -m lab.tours prepare`` computes them all)."""
    try:
        held = services.results.holding([step.request() for step in STEPS.values()])
        return index_options({name for name, found in zip(STEPS, held) if found})
    except StoreUnavailableError:  # no marks rather than no menu; the log has the store's failure
        logger.warning("the tours' index could not read the result cache; steps shown unmarked")
        return no_update


def header_controls(shown):
    """The tours' index (the former presets menu) and the presentation toggle, in the page's header."""
    controls = shown["controls"]
    return html.Div([
        dcc.Dropdown(id=ids.TOUR_INDEX, value=controls["tour"], clearable=True, className="tour-index",
                     placeholder="Tours of the papers: reproduce a figure…", options=index_options()),
        dcc.Checklist(id=ids.PRESENTATION, value=controls["presentation"], className="presentation-toggle",
                      options=[{"label": " Presentation", "value": "on"}]),
    ], className="header-controls")


def tour_box():
    """The open step: its tour and place, Back / Next / Close, its title, text and claims (hidden without one)."""
    return html.Aside([
        html.Div([
            html.Span(id=ids.TOUR_NAME, className="tour-name"),
            html.Span(id=ids.TOUR_POSITION, className="tour-position"),
            # The keys a presenter's clicker sends (assets/tour_keys.js presses the button).
            html.Button("◀ Back", id=ids.TOUR_BACK, className="tour-button", **{"data-keys": "ArrowLeft PageUp"}),
            html.Button("Next ▶", id=ids.TOUR_NEXT, className="tour-button", **{"data-keys": "ArrowRight PageDown"}),
            html.Button("Close", id=ids.TOUR_CLOSE, className="tour-button close", **{"data-keys": "Escape"}),
            html.Button("Slide ⤓", id=ids.TOUR_SLIDE, className="tour-button",
                        title="Download the step as a 1920 × 1080 slide: its title, claims, figure and link "
                              "(PNG, or SVG with the figure-download setting)."),
        ], className="tour-bar"),
        html.H2(id=ids.TOUR_STEP_TITLE, className="tour-step-title"),
        # The claims first: on a projector they are what the audience reads; the text folds below them.
        html.Ul(id=ids.TOUR_CLAIMS, className="tour-claims"),
        html.Div(id=ids.TOUR_TEXT, className="tour-text"),
        job_box(ids.TOUR_JOB),
        *[dcc.Store(id=store) for store in (ids.TOUR_REQUEST, ids.TOUR_DONE, ids.TOUR_SHOWN)],
    ], id=ids.TOUR_BOX, className="tour hidden")


def tour_figures():
    """The open step's figure (the paper's panels, recomputed) with its curve or its bars, or its table beside
    the paper's."""
    return html.Section([
        dcc.Graph(id=ids.TOUR_FIGURE, className="tour-figure", config=_CONFIG, style=_HIDDEN,
                  figure=empty_figure("")),
        tour_image(),
        dcc.Graph(id=ids.TOUR_CURVE, className="tour-curve", config=_CONFIG, style=_HIDDEN, figure=empty_figure("")),
        html.Div(id=ids.TOUR_TABLE, className="tour-table"),
    ], id=ids.TOUR_FIGURES, className="tour-figures hidden")


def step_target(name, direction):
    """The step ``direction`` (-1 back, +1 next) of ``name`` in its tour, or None past either end."""
    tour, index = locate(name)
    target = index + direction
    return tour.steps[target].name if 0 <= target < len(tour.steps) else None


def _header(name):
    tour, index = locate(name)
    return {"name": tour.title, "position": f"step {index + 1} of {len(tour.steps)}",
            "back_disabled": index == 0, "next_disabled": index == len(tour.steps) - 1,
            "step_title": STEPS[name].title}


# A claim's mark and class: it holds, it does not, or it waits for the step's numbers (None).
_MARKS = {True: ("✓", "claim holds"), False: ("✗", "claim fails"), None: ("…", "claim pending")}


def _claims(step, checked):
    """The step's claims from ``(text, holds)`` pairs, each marked (:data:`_MARKS`), an identity labelled so."""
    return [html.Li([html.Span(_MARKS[holds][0], className="claim-mark"),
                     html.Span([html.Span("check of the code: ", className="claim-kind") if claim.identity else None,
                                text])], className=_MARKS[holds][1])
            for claim, (text, holds) in zip(step.claims, checked, strict=True)]


def _text(text, presentation, notice=""):
    """The step's text behind a "more" fold, closed on a projector (the claims above say the gist).

    A ``notice`` (the runs that failed) stays in sight, above the fold.
    """
    fold = html.Details([html.Summary("more: what to see and why"), html.Div(text)], open=not presentation,
                        className="tour-more")
    return [html.P(notice, className="tour-notice"), fold] if notice else fold


def render_step(services, step, result, presentation):
    """Every output of the step's box and figures for a computed ``result`` (a :class:`lab.tours.steps.StepResult`)."""
    text, checked = step.render(result)
    failed = "; ".join(f"{key}: {message}" for key, message in result.errors.items())
    notice = f"Failed runs: {failed}" if failed else ""
    values = step.panel_values(result)
    figure_style = curve_style = _HIDDEN
    figure, curve, table = _BLANK, no_update, None
    if step.chart == "table":
        table = step_table(step, values)
    else:
        figure, figure_style = step_outputs(services, step, values, presentation), {}
        # The curve or the bars (a step has one of them) in the one graph under the figure.
        if step.curve:
            curve, curve_style = step_curve(step, values, presentation), {}
        elif step.bars:
            curve, curve_style = step_bars(step, values, presentation), {}
    return {"text": _text(text, presentation, notice), "claims": _claims(step, checked), "figure": figure,
            "figure_style": figure_style, "curve": curve, "curve_style": curve_style, "table": table}


def _pending(step, presentation):
    """The step's text and claims before its numbers are computed: each of ours a dash (the paper's, known,
    quoted), no claim checked.

    A predicate needs our numbers; on none it would only say "does not hold" (or fail), so the claims'
    texts are shown marked pending instead.
    """
    known = Values(step.paper_values())
    claims = _claims(step, [(known.fill(claim.text), None) for claim in step.claims])
    return {"text": _text(known.fill(step.text), presentation), "claims": claims, "figure": _BLANK,
            "figure_style": _HIDDEN, "curve": no_update, "curve_style": _HIDDEN, "table": None}


_HIDE = {"box_class": "tour hidden", "figures_class": "tour-figures hidden", "name": "", "position": "",
         "back_disabled": True, "next_disabled": True, "step_title": "", "text": "", "claims": [], "figure": _BLANK,
         "figure_style": _HIDDEN, "curve": no_update, "curve_style": _HIDDEN, "table": None}


def _view(state):
    """The validated view state the page's store holds, or None for none or one the page did not write.

    Only the server writes the view-state store: a forged one is refused where it is applied
    (:mod:`components.state_sync` says so on the page), and the tour box keeps what it shows.
    """
    try:
        return ViewState.from_dict(state) if state else None
    except StateError:
        return None


def show_step(services, state, shown, token):
    """A new view state: open its tour step (cached: drawn at once; else computed by the job), or close the box."""
    view = _view(state)
    if view is None:
        return {**{key: no_update for key in _HIDE}, "request": no_update, "shown": no_update}
    key = {"name": view.tour, "presentation": view.display.presentation}
    if shown == key:
        return {**{name: no_update for name in _HIDE}, "request": no_update, "shown": no_update}
    if not view.tour:
        return {**_HIDE, "request": no_update, "shown": key}
    step = STEPS[view.tour]
    opened = {**_header(view.tour), "box_class": "tour", "figures_class": "tour-figures", "shown": key}
    result = services.results.get(step.request())
    if result is not None:
        return {**opened, **render_step(services, step, result, view.display.presentation), "request": no_update}
    # A fresh nonce: reopening a step whose job was cancelled starts a new job.
    request = {"name": view.tour, "nonce": secrets.token_hex(8), "token": token}
    return {**opened, **_pending(step, view.display.presentation), "request": request}


def compute_step(services, request, report):
    """The job: compute a step (every run through the cache); its values travel back, its arrays stay."""
    name = request.get("name") if isinstance(request, dict) else None
    if not isinstance(name, str) or name not in STEPS:  # the page asks only for steps it opened
        return {"name": "", "message": "The step asked for is not one of the tours'."}
    try:
        result, _ = compute(STEPS[name].request(), cache=services.results, progress=report)
    except Exception as error:  # a store that failed: the step's text says so (a bug, only that it is logged)
        return {"name": name, "message": f"The step could not be computed: {failure_message(error)}"}
    return {"name": name, "result": result.to_value()}


def show_computed(services, done, state):
    """The job's step, drawn if it is still the open one."""
    view = _view(state)
    if not isinstance(done, dict) or view is None or not view.tour or view.tour != done.get("name"):
        return {key: no_update for key in ("text", "claims", "figure", "figure_style", "curve", "curve_style", "table")}
    step = STEPS[view.tour]
    try:
        result = StepResult.from_value(done["result"])
    except (KeyError, TypeError, ValueError, AttributeError):  # the job's message, or a value no job wrote
        message = done.get("message")
        return {**_pending(step, view.display.presentation),
                "text": message if isinstance(message, str) else "The step's numbers could not be read: reopen it."}
    return render_step(services, step, result, view.display.presentation)


def navigate(_back, _next, _close, state):
    """Back, Next or Close: the neighbouring step's whole state (the presentation mode kept), or no tour."""
    trigger = ctx.triggered_id
    view = _view(state)
    if view is None or not view.tour:
        return no_update
    if trigger == ids.TOUR_CLOSE:
        target = view.replace(tour="")
    else:
        name = step_target(view.tour, -1 if trigger == ids.TOUR_BACK else 1)
        if name is None:
            return no_update
        target = applied(name, view)
    return {"state": target.to_dict(), "message": "", "nonce": secrets.token_hex(8)}


_OUTPUTS = {"text": Output(ids.TOUR_TEXT, "children"), "claims": Output(ids.TOUR_CLAIMS, "children"),
            "figure": Output(ids.TOUR_FIGURE, "figure"), "figure_style": Output(ids.TOUR_FIGURE, "style"),
            "curve": Output(ids.TOUR_CURVE, "figure"), "curve_style": Output(ids.TOUR_CURVE, "style"),
            "table": Output(ids.TOUR_TABLE, "children")}


def register(app, services):
    """Wire the tour's box: open and draw steps, compute them in the background, Back / Next / Close."""
    app.callback(
        output={**_OUTPUTS, "box_class": Output(ids.TOUR_BOX, "className"),
                "figures_class": Output(ids.TOUR_FIGURES, "className"), "name": Output(ids.TOUR_NAME, "children"),
                "position": Output(ids.TOUR_POSITION, "children"),
                "back_disabled": Output(ids.TOUR_BACK, "disabled"), "next_disabled": Output(ids.TOUR_NEXT, "disabled"),
                "step_title": Output(ids.TOUR_STEP_TITLE, "children"), "request": Output(ids.TOUR_REQUEST, "data"),
                "shown": Output(ids.TOUR_SHOWN, "data")},
        inputs=dict(state=Input(ids.VIEW_STATE, "data"), shown=State(ids.TOUR_SHOWN, "data"), token=PAGE_TOKEN_STATE),
        prevent_initial_call=True,
    )(functools.partial(show_step, services))

    @app.callback(Output(ids.TOUR_DONE, "data"), Input(ids.TOUR_REQUEST, "data"), prevent_initial_call=True,
                  **job_options(ids.TOUR_JOB))
    def run_step(set_progress, request):
        return compute_step(services, request, progress_reporter(set_progress))

    app.callback(output={key: Output(output.component_id, output.component_property, allow_duplicate=True)
                         for key, output in _OUTPUTS.items()},
                 inputs=dict(done=Input(ids.TOUR_DONE, "data"), state=State(ids.VIEW_STATE, "data")),
                 prevent_initial_call=True)(functools.partial(show_computed, services))
    app.callback(Output(ids.TOUR_INDEX, "options"), Input(ids.PAGE_TOKEN, "data"), Input(ids.TOUR_DONE, "data"))(
        functools.partial(mark_ready, services))
    # The step as a slide, drawn and saved in the browser from the figure shown (assets/tour_slide.js).
    app.clientside_callback(ClientsideFunction(namespace="procrustesTours", function_name="slide"),
                            Input(ids.TOUR_SLIDE, "n_clicks"), State(ids.VIEW_STATE, "data"),
                            prevent_initial_call=True)
    # Presentation mode is a class on the page (assets/style.css), set in the browser.
    app.clientside_callback(ClientsideFunction(namespace="procrustes", function_name="presentation"),
                            Input(ids.VIEW_STATE, "data"))
    tour_images.register(app, services)
    app.callback(Output(ids.APPLY_STATE, "data", allow_duplicate=True), Input(ids.TOUR_BACK, "n_clicks"),
                 Input(ids.TOUR_NEXT, "n_clicks"), Input(ids.TOUR_CLOSE, "n_clicks"), State(ids.VIEW_STATE, "data"),
                 prevent_initial_call=True)(navigate)
