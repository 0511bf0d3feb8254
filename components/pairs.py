"""The pairs tab: two runs side by side, and how stable one run is.

Run A is the explore run; run B changes its algorithm, k or random state, or is the output uploaded
with the data (:class:`lab.view.state.PairChoice`). "Compare A and B" computes a
:class:`lab.compute.pairs.PairRequest` in a background job (each run through the result cache, so a
run the explore tab showed is read, not computed), kept whole in the cache; the page keeps the state
it came from and draws on the server: A's output, B's moved onto it with each point's displacement,
the morph from A to B, the cards. Hovering or selecting a point in one view marks it in the other
(in the browser, assets/pairs.js). "Divide by A's seed spread" computes a
:class:`lab.compute.seed_noise.SeedNoiseRequest` (the pair, and A's stability study over random
states, each read from the cache when there) and paints the views by each point's displacement over
its spread, with the share beyond two spreads and the points that moved most beyond re-seeding.
Below, the stability study (a :class:`lab.compute.stability.StabilityRequest`) reruns A's algorithm
and colours the runs' consensus by each point's spread.
"""

import functools

import numpy as np
from dash import ClientsideFunction, Input, Output, State, ctx, dcc, html, no_update

import measures
from lab import StateError
from lab.compute import catalogue
from lab.compute.pairs import PairRequest, pair_coloring, selection_summary
from lab.compute.runs import display_indices
from lab.compute.seed_noise import BEYOND_SPREADS, SeedNoiseRequest
from lab.compute.stability import StabilityRequest
from lab.view.state import stored_state

from . import ids
from .tables import NO_RESULT
from .controls import labelled
from .figures import empty_figure, robust_color_range
from .figures.pairs import MORPH_SECONDS, morph_figure, pair_figures, stability_figure
from .jobs import job_box, register_study_job
from .panel import algorithm_options
from .point_events import event_points

__all__ = ["PAIR_CARDS", "SEED_NOISE_CARDS", "STABILITY_CARDS", "draw_pair", "draw_seed_noise", "draw_stability",
           "pair_cards", "pairs_tab", "register", "seed_noise_cards", "seed_noise_table", "stability_cards"]

# Points the morph animates (every frame carries them all): a seeded subsample above this.
MORPH_CAP = 3000
PAIR_CARDS = {
    "distance": ("Procrustes distance", ("Sum of squared displacements of B after its best similarity onto A, over "
                                         "A's centred size: 0 when B is A moved, turned, mirrored or scaled; "
                                         "symmetric in A and B. ↓ closer")),
    "scale": ("Scale of B onto A", "The one factor B is multiplied by to fit A (and whether it is mirrored)."),
    "local": ("Local R_C between the runs", ("Mean (median) over points of R_C of B's neighbourhood against the "
                                             "same one of A: where the two runs differ in shape. ↓ closer")),
    "normalized": ("R_N of A / of B", "Each run's own R_N against the input (mean). ↓ better"),
    "conformal": ("R_C of A / of B", "Each run's own R_C against the input (mean). ↓ better"),
}
SEED_NOISE_CARDS = {
    "beyond": (f"Beyond {BEYOND_SPREADS:g} spreads", (f"Share of the points whose displacement is more than "
                                                     f"{BEYOND_SPREADS:g} times their spread over A's reruns with "
                                                     "other random states: where B differs from A by more than "
                                                     "re-seeding A would.")),
    "ratio": ("Median displacement ÷ spread", ("Over the points: each point's displacement (a share of A's radius) "
                                               "over its seed spread (a share of the consensus's radius).")),
}
# Rows of the table of the points that moved most beyond re-seeding.
SEED_NOISE_ROWS = 10
STABILITY_CARDS = {
    "spread": ("Spread", ("Mean (median) over points of the distance of a point's aligned positions from its mean "
                          "position, as a share of the consensus's radius. ↓ stabler")),
    "consensus": ("Distance to the consensus", "Mean Procrustes distance of the runs to their consensus. ↓ stabler"),
    "runs": ("Runs", "Runs aligned (failed runs in brackets)."),
}
_HOVER_HELP = ("Hover a point to ring it in both views; select with the box or lasso tool to mark points in both and "
               "compare their displacement with every point's.")


def _cards(cards):
    return [html.Div([html.Div(title, className="card-title"),
                      html.Div(NO_RESULT, id=ids.pair_card_value(name), className="card-value")],
                     className="card", title=help_text) for name, (title, help_text) in cards.items()]


def _number_input(component, value, parameter, help_text, label):
    """A field for one of ``parameter``'s integers, wide enough for its largest and the placeholder beside
    Dash's two stepper buttons (in a flex row it shrinks to about 30 px of text otherwise)."""
    width = max(len(str(parameter.high)), len("same as A"))
    return labelled(label, dcc.Input(id=component, type="number", value=value, step=1, debounce=True,
                                     placeholder="same as A", className="number-input",
                                     style={"width": f"calc({width}ch + 6rem)"}), help_text)


def pairs_tab(shown, upload=None):
    """The tab's layout, its controls showing ``shown`` (``upload``: the session's chosen upload to start from)."""
    controls = shown["controls"]
    return html.Div([
        html.P("Run A is the run of the explore tab. Run B changes its algorithm, k or random state (empty: A's), or "
               "is the output uploaded with your data. B is moved onto A by the best rotation or reflection, scale "
               "and shift (orthogonal Procrustes with scale); each point's displacement, and R_C of each "
               "neighbourhood of B against the same one of A, show where the two differ.", className="help"),
        html.Div([
            labelled("Run B's algorithm", dcc.Dropdown(id=ids.PAIR_ALGORITHM, value=controls["pair_algorithm"],
                                                       clearable=True, placeholder="same as A",
                                                       options=algorithm_options(upload))),
            _number_input(ids.PAIR_NEIGHBORS, controls["pair_n_neighbors"], catalogue.NEIGHBORS,
                          catalogue.NEIGHBORS.help, "B's k"),
            _number_input(ids.PAIR_RANDOM_STATE, controls["pair_random_state"], catalogue.RANDOM_STATE,
                          "Seeds B's algorithm only: B embeds the same points as A.", "B's random state"),
            labelled("Colour by", dcc.Dropdown(id=ids.PAIR_COLOR, value=controls["pair_color"], clearable=False,
                                               options=shown["pair_color_options"])),
            dcc.Checklist(id=ids.PAIR_SEGMENTS, value=controls["pair_segments"],
                          options=[{"label": " displacement segments", "value": "show"}]),
            html.Button("Compare A and B", id=ids.PAIR_RUN, className="run-button"),
        ], className="compare-controls"),
        job_box(ids.PAIR_JOB),
        html.Div(id=ids.PAIR_MESSAGE, className="message", role="status"),
        html.Div(_cards(PAIR_CARDS), id=ids.PAIR_CARDS, className="cards"),
        html.Div([dcc.Graph(id=graph, className="view", config={"displaylogo": False},
                            figure=empty_figure("Press Compare A and B.")) for graph in (ids.PAIR_A_GRAPH,
                                                                                      ids.PAIR_B_GRAPH)],
                 className="views"),
        html.Div(_HOVER_HELP, id=ids.PAIR_SELECTION_TEXT, className="help selection-text", role="status"),
        html.H3("Differences against seed noise"),
        html.P("Is a displacement more than re-seeding A would cause? Reruns A's algorithm over random states (as "
               "many as the stability study's runs; read from the cache when done), and divides each point's "
               "displacement (a share of A's radius) by its spread over the reruns (a share of their consensus's "
               "radius); the views are coloured by the ratio. B that is only A re-seeded already sits near 1.5 "
               "(two runs differ by about √2 times a point's spread).", className="help"),
        html.Div(html.Button("Divide by A's seed spread", id=ids.SEED_NOISE_RUN, className="run-button"),
                 className="compare-controls"),
        job_box(ids.SEED_NOISE_JOB),
        html.Div(id=ids.SEED_NOISE_MESSAGE, className="message", role="status"),
        html.Div(_cards(SEED_NOISE_CARDS), id=ids.SEED_NOISE_CARDS, className="cards"),
        html.Div(id=ids.SEED_NOISE_TABLE, className="measure-table"),
        dcc.Graph(id=ids.PAIR_MORPH_GRAPH, config={"displaylogo": False},
                  figure=empty_figure("Press Compare A and B.")),
        labelled("Morph speed", dcc.RadioItems(
            id=ids.PAIR_MORPH_SPEED, value="normal", inline=True, className="morph-speed",
            options=[{"label": f" {name} ({seconds:g} s) ", "value": name}
                     for name, seconds in MORPH_SECONDS.items()])),
        html.H3("Stability of run A"),
        html.P("Reruns A's algorithm over random states (the same points) or over random subsamples of the points, "
               "aligns the runs to their consensus (generalized Procrustes) and colours each point by how far its "
               "places spread: an unstable region shows as such.", className="help"),
        html.Div([
            labelled("Reruns over", dcc.RadioItems(id=ids.STABILITY_MODE, value=controls["stability_mode"], inline=True,
                                                   options=[{"label": f" {label} ", "value": value}
                                                            for value, label in catalogue.STABILITY_MODES.items()])),
            labelled("Runs", dcc.Input(id=ids.STABILITY_RUNS, type="number", value=controls["stability_n_runs"],
                                       step=1, debounce=True, className="number-input"), catalogue.STABILITY_RUNS.help),
            labelled("Subsample fraction", dcc.Input(id=ids.STABILITY_FRACTION, type="number", step="any",
                                                     value=controls["stability_fraction"], debounce=True,
                                                     className="number-input"), catalogue.SUBSAMPLE_FRACTION.help),
            html.Button("Study stability", id=ids.STABILITY_RUN, className="run-button"),
        ], className="compare-controls"),
        job_box(ids.STABILITY_JOB),
        html.Div(id=ids.STABILITY_MESSAGE, className="message", role="status"),
        html.Div(_cards(STABILITY_CARDS), id=ids.STABILITY_CARDS, className="cards"),
        dcc.Graph(id=ids.STABILITY_GRAPH, className="view", config={"displaylogo": False},
                  figure=empty_figure("Press Study stability.")),
        *[dcc.Store(id=store) for store in (ids.PAIR_REQUEST, ids.PAIR_STORE, ids.STABILITY_REQUEST,
                                            ids.STABILITY_STORE, ids.SEED_NOISE_REQUEST, ids.SEED_NOISE_STORE)],
    ])


def keep_pair(_request, result):
    """The pair is kept whole in the cache: the page keeps its state, and names both runs."""
    return {}, f"A: {result.label_a}. B: {result.label_b}."


def _stored_result(services, stored, session, request_type):
    """The cached result of the study a store names (None if it left the cache), read for this session only."""
    request = request_type.from_state(stored_state(stored))
    services.uploads.for_session(session).authorize(request.data)
    return services.results.get(request)


def _pair(mean_a, mean_b):
    return f"{mean_a:.4g} / {mean_b:.4g}" if None not in (mean_a, mean_b) else NO_RESULT


def pair_cards(result):
    """The text of each card of a pair (:data:`PAIR_CARDS`)."""
    local = result.local_conformal
    return {
        "distance": f"{result.distance:.4g}",
        "scale": f"{result.scale:.4g}" + (", mirrored" if result.reflection else ""),
        "local": f"{np.nanmean(local):.4g} (median {np.nanmedian(local):.4g})",
        **{name: _pair(result.summary_a.get(name, (None,))[0], result.summary_b.get(name, (None,))[0])
           for name in ("normalized", "conformal")},
    }


def _seed_noise_of(services, stored, seed_stored, session):
    """The seed-noise result of the pair a store names, if the seed-noise store holds that pair's and it is cached."""
    if not seed_stored:
        return None
    request = SeedNoiseRequest.from_state(stored_state(seed_stored))
    if request.pair != PairRequest.from_state(stored_state(stored)):
        return None
    return _stored_result(services, seed_stored, session, SeedNoiseRequest)


def draw_pair(services, stored, color, segments, speed, session, seed_stored=None):
    """A's view and B's (aligned, with displacements), the morph and the cards of the pair shown; coloured by
    the displacement over A's seed spread, when chosen and computed for this pair."""
    blank = {"a": empty_figure("Press Compare A and B."), "b": empty_figure("Press Compare A and B."),
             "morph": empty_figure("Press Compare A and B."), "cards": {name: NO_RESULT for name in PAIR_CARDS}}
    if not stored:
        return blank
    try:
        result = _stored_result(services, stored, session, PairRequest)
        seed_noise = (_seed_noise_of(services, stored, seed_stored, session)
                      if color == catalogue.SEED_NOISE_COLOR else None)
    except measures.ProcrustesLabError as error:
        return {**blank, "a": empty_figure(str(error))}
    if result is None:
        return {**blank, "a": empty_figure("This pair has left the cache: press Compare A and B again.")}
    rows = display_indices(result.n_samples)
    chosen = slice(None) if rows is None else rows
    values, title = pair_coloring(result, color, rows, seed_noise)
    color_range = robust_color_range(values)
    revision = str(stored["state"])
    a, b = pair_figures(result.A[chosen], result.aligned[chosen], values, color_range, title, point_ids=rows,
                        titles=(f"A: {result.label_a}", f"B onto A: {result.label_b}"),
                        segments="show" in (segments or []), revision=revision)
    moving = display_indices(result.n_samples, cap=MORPH_CAP)
    moved = slice(None) if moving is None else moving
    morph_values, _ = pair_coloring(result, color, moving, seed_noise)
    morph = morph_figure(result.A[moved], result.aligned[moved], morph_values, color_range, title,
                         speed=speed if isinstance(speed, str) and speed in MORPH_SECONDS else "normal",
                         title="A → B: press ▶" + ("" if moving is None else f" ({len(moving)} points drawn)"))
    return {"a": a, "b": b, "morph": morph, "cards": pair_cards(result)}


def summarize_selection(services, a_selection, b_selection, stored, session):
    """The selected points' mean displacement and local values beside every point's."""
    selection = a_selection if ctx.triggered_id == ids.PAIR_A_GRAPH else b_selection
    if not selection or not stored:
        return _HOVER_HELP
    try:
        result = _stored_result(services, stored, session, PairRequest)
    except measures.ProcrustesLabError as error:  # e.g. the session's upload expired
        return str(error)
    if result is None:
        return "Compare A and B again to summarize a selection."
    rows = display_indices(result.n_samples)
    try:
        drawn = event_points(selection, result.n_samples if rows is None else len(rows))
    except StateError as error:
        return str(error)
    return selection_summary(result, np.asarray(drawn, dtype=int) if rows is None else rows[drawn])


def keep_seed_noise(request, result):
    """The result is kept whole in the cache: the page keeps its state, and says what was divided by what."""
    said = f"A: {result.label_a}. B: {result.label_b}. A's spread over {len(result.random_states)} random states."
    return {}, " ".join([said, *result.notes])


def _ratio_text(value):
    return "∞" if value == np.inf else f"{value:.3g}"


def seed_noise_cards(result):
    """The text of each card of a pair's displacements against A's seed spread (:data:`SEED_NOISE_CARDS`)."""
    return {"beyond": f"{100 * result.beyond:.1f} %", "ratio": _ratio_text(result.median_ratio)}


def seed_noise_table(result, count=SEED_NOISE_ROWS):
    """What moved most beyond re-seeding: a line saying how to read it (or that A is deterministic) and the table."""
    if result.deterministic:
        said = ("Run A's algorithm is deterministic: every difference is beyond re-seeding (its reruns over random "
                "states move no point more than rounding). The views show the displacement over A's radius.")
    else:
        said = (f"The {count} points that moved most beyond re-seeding: a ratio of 1 is a displacement as large as "
                "the point's spread over A's reruns.")
    header = html.Tr([html.Th(name, className="number") for name in
                      ("row", "displacement ÷ A's radius", "seed spread", "ratio")])
    body = [html.Tr([html.Td(text, className="number") for text in
                     (str(row), f"{result.displacement[row]:.3g}", f"{result.spread[row]:.3g}",
                      _ratio_text(result.ratio[row]))])
            for row in result.ranked(count).tolist()]
    return [html.P(said, className="help"), html.Table([html.Thead(header), html.Tbody(body)])]


def draw_seed_noise(services, seed_stored, session):
    """The cards and the table of the seed-noise result shown."""
    empty = {name: NO_RESULT for name in SEED_NOISE_CARDS}
    if not seed_stored:
        return {"cards": empty, "table": None}
    try:
        result = _stored_result(services, seed_stored, session, SeedNoiseRequest)
    except measures.ProcrustesLabError as error:
        return {"cards": empty, "table": str(error)}
    if result is None:
        return {"cards": empty, "table": "This result has left the cache: press Divide by A's seed spread again."}
    return {"cards": seed_noise_cards(result), "table": seed_noise_table(result)}


def show_seed_noise(seed_stored, stored):
    """Once computed, the views show the seed noise's pair (computed with it) coloured by the ratio."""
    if not seed_stored:
        return no_update, no_update
    try:
        pair = PairRequest.from_state(stored_state(seed_stored))
    except measures.ProcrustesLabError:  # a store this page never wrote: nothing to show
        return no_update, no_update
    try:
        same = bool(stored) and PairRequest.from_state(stored_state(stored)) == pair
    except measures.ProcrustesLabError:  # the pair store is not one this page wrote: show the seed noise's pair
        same = False
    return (no_update if same else {"state": seed_stored["state"]}), catalogue.SEED_NOISE_COLOR


def keep_stability(request, result):
    """The study is kept whole in the cache: the page keeps its state, and says what was rerun."""
    return {}, " ".join([f"{request.describe()}.", *result.notes])


def stability_cards(result):
    """The text of each card of a stability study (:data:`STABILITY_CARDS`)."""
    summary = result.summary
    return {"spread": f"{summary['mean spread']:.4g} (median {summary['median spread']:.4g})",
            "consensus": f"{summary['mean distance']:.4g}",
            "runs": f"{len(result.random_states)}" + (f" ({result.failed} failed)" if result.failed else "")}


def draw_stability(services, stored, session):
    """The consensus coloured by spread, and the cards, of the stability study shown."""
    empty_cards = {name: NO_RESULT for name in STABILITY_CARDS}
    if not stored:
        return {"figure": empty_figure("Press Study stability."), "cards": empty_cards}
    try:
        result = _stored_result(services, stored, session, StabilityRequest)
    except measures.ProcrustesLabError as error:
        return {"figure": empty_figure(str(error)), "cards": empty_cards}
    if result is None:
        return {"figure": empty_figure("This study has left the cache: press Study stability again."),
                "cards": empty_cards}
    rows = display_indices(len(result.spread))
    chosen = slice(None) if rows is None else rows
    request = StabilityRequest.from_state(stored_state(stored))
    figure = stability_figure(result.consensus[chosen], result.spread[chosen], robust_color_range(result.spread),
                              point_ids=rows, title=f"Consensus of {request.describe()}")
    return {"figure": figure, "cards": stability_cards(result)}


def register(app, services):
    """Wire the pairs tab to ``app``."""
    session = State(ids.SESSION, "data")
    register_study_job(app, services, ids.PAIR_JOB, ids.PAIR_RUN, ids.PAIR_REQUEST, ids.PAIR_STORE, ids.PAIR_MESSAGE,
                       PairRequest, keep_pair,
                       lambda state: f"the previous pair, {PairRequest.from_state(state).slug()}", tab=ids.TAB_PAIRS)
    register_study_job(app, services, ids.SEED_NOISE_JOB, ids.SEED_NOISE_RUN, ids.SEED_NOISE_REQUEST,
                       ids.SEED_NOISE_STORE, ids.SEED_NOISE_MESSAGE, SeedNoiseRequest, keep_seed_noise,
                       lambda state: f"the previous result, {SeedNoiseRequest.from_state(state).slug()}",
                       tab=ids.TAB_PAIRS)
    register_study_job(app, services, ids.STABILITY_JOB, ids.STABILITY_RUN, ids.STABILITY_REQUEST, ids.STABILITY_STORE,
                       ids.STABILITY_MESSAGE, StabilityRequest, keep_stability,
                       lambda state: f"the previous study, {StabilityRequest.from_state(state).describe()}",
                       tab=ids.TAB_PAIRS)
    app.callback(
        output=dict(a=Output(ids.PAIR_A_GRAPH, "figure"), b=Output(ids.PAIR_B_GRAPH, "figure"),
                    morph=Output(ids.PAIR_MORPH_GRAPH, "figure"),
                    cards={name: Output(ids.pair_card_value(name), "children") for name in PAIR_CARDS}),
        inputs=dict(stored=Input(ids.PAIR_STORE, "data"), color=Input(ids.PAIR_COLOR, "value"),
                    segments=Input(ids.PAIR_SEGMENTS, "value"), speed=State(ids.PAIR_MORPH_SPEED, "value"),
                    session=session, seed_stored=Input(ids.SEED_NOISE_STORE, "data")),
        prevent_initial_call=True,
    )(functools.partial(draw_pair, services))
    app.callback(output=dict(cards={name: Output(ids.pair_card_value(name), "children") for name in SEED_NOISE_CARDS},
                             table=Output(ids.SEED_NOISE_TABLE, "children")),
                 inputs=dict(seed_stored=Input(ids.SEED_NOISE_STORE, "data"), session=session),
                 prevent_initial_call=True)(functools.partial(draw_seed_noise, services))
    app.callback(Output(ids.PAIR_STORE, "data", allow_duplicate=True), Output(ids.PAIR_COLOR, "value",
                                                                               allow_duplicate=True),
                 Input(ids.SEED_NOISE_STORE, "data"), State(ids.PAIR_STORE, "data"),
                 prevent_initial_call=True)(show_seed_noise)
    app.callback(output=dict(figure=Output(ids.STABILITY_GRAPH, "figure"),
                             cards={name: Output(ids.pair_card_value(name), "children") for name in STABILITY_CARDS}),
                 inputs=dict(stored=Input(ids.STABILITY_STORE, "data"), session=session),
                 prevent_initial_call=True)(functools.partial(draw_stability, services))
    app.callback(Output(ids.PAIR_SELECTION_TEXT, "children"), Input(ids.PAIR_A_GRAPH, "selectedData"),
                 Input(ids.PAIR_B_GRAPH, "selectedData"), State(ids.PAIR_STORE, "data"), session,
                 prevent_initial_call=True)(functools.partial(summarize_selection, services))
    # The morph's frames are in the browser: its speed is set there (assets/pairs.js).
    app.clientside_callback(ClientsideFunction(namespace="procrustesPairs", function_name="setMorphSpeed"),
                            Output(ids.PAIR_MORPH_GRAPH, "figure", allow_duplicate=True),
                            Input(ids.PAIR_MORPH_SPEED, "value"), State(ids.PAIR_MORPH_GRAPH, "figure"),
                            prevent_initial_call=True)
    # Hover and selection marks in both views run in the browser (assets/pairs.js), as in explore.
    for function_name, event in (("markHovered", "hoverData"), ("markSelected", "selectedData")):
        app.clientside_callback(
            ClientsideFunction(namespace="procrustesPairs", function_name=function_name),
            Output(ids.PAIR_A_GRAPH, "figure", allow_duplicate=True),
            Output(ids.PAIR_B_GRAPH, "figure", allow_duplicate=True),
            Input(ids.PAIR_A_GRAPH, event), Input(ids.PAIR_B_GRAPH, event),
            State(ids.PAIR_A_GRAPH, "figure"), State(ids.PAIR_B_GRAPH, "figure"),
            prevent_initial_call=True,
        )
