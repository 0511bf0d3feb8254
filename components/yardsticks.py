"""The yardsticks of the run shown (:mod:`lab.compute.yardsticks`): each card's line and the table of every measure.

The best values come with the run (its lower bound, and the rank measures' best by definition); the
random-output values come from the yardstick study, which the button runs as a background job and
the result cache keeps. One callback draws the cards' lines and the table from the run shown and the
cached yardsticks, when a run is shown and when the job ends.
"""

import functools
import logging

from dash import Input, Output, State, dcc, html

import measures
from lab import RunRequest, YardstickRequest, failure_message
from lab.compute import catalogue
from lab.compute.yardsticks import cached_yardsticks, summary_best

from . import ids
from .jobs import job_box, register_study_job
from .records import checked_record
from .tables import NO_BETTER_THAN_RANDOM, measure_entries, measure_table_html

__all__ = ["keep_yardsticks", "measure_table", "register", "show_yardsticks",
           "yardstick_actions"]

logger = logging.getLogger(__name__)


def yardstick_actions():
    """The button, its job's box and message, and the job's store."""
    return html.Div([
        html.Button("Yardsticks: random and best values", id=ids.YARDSTICK_RUN, className="export-button",
                    title=(f"Every measure of this run on outputs that keep nothing of the input (its rows "
                           f"shuffled; a Gaussian of its scale), to place each value; runs of at most "
                           f"{catalogue.YARDSTICK_MAX_SAMPLES:,} points.")),
        job_box(ids.YARDSTICK_JOB),
        html.Div(id=ids.YARDSTICK_MESSAGE, className="message", role="status"),
        dcc.Store(id=ids.YARDSTICK_REQUEST), dcc.Store(id=ids.YARDSTICK_STORE),
    ], className="yardsticks")


def measure_table(summary, best, sticks):
    """Every measure the run computed, in registry order: label, direction, mean and median (the cards
    show six; the rest, continuity, M_t, stress and the others, are read here), then its best attainable
    value and, once computed, its random-output value; a row no better than random is marked. One Markdown
    component holding the table's HTML (:func:`components.tables.measure_table_html`)."""
    return dcc.Markdown(measure_table_html(measure_entries(summary, best, sticks).values()),
                        dangerously_allow_html=True)


def yardstick_line(name, best, sticks):
    """A card's yardsticks: its floor (R_N, R_C) or best value, and the random output's; "no better than a random
    output" when the run's value is not."""
    parts = [f"{'floor' if isinstance(measures.spec(name).best, str) else 'best'} {best[name]:.3g}"] \
        if name in best else []
    if sticks is not None and name in sticks.random:
        parts.append(f"random {sticks.random[name]:.3g}")
    if sticks is not None and sticks.verdict(name):
        return html.Span(f"{NO_BETTER_THAN_RANDOM} ({sticks.random[name]:.3g})", className="worse")
    return " · ".join(parts)


def _shown_yardsticks(services, shown, session):
    """The shown run's record, its best values (from its own summary) and its cached yardsticks (None
    until the button computed them, and above the points' cap)."""
    record = checked_record(shown)
    if record["status"] != "done":
        return record, {}, None
    request = RunRequest.from_dict(record["request"])
    services.uploads.for_session(session).authorize(request.data)
    # Above the yardsticks' cap there are none: the button's job says so when clicked.
    return record, summary_best(record["summary"]), cached_yardsticks(services.results, request)


def show_yardsticks(services, shown, _stored, session):
    """Each card's yardstick line and the table of every measure, for the run shown (after a new run, and
    when the yardstick job ends)."""
    blank = {"lines": {name: "" for name in catalogue.CARD_MEASURES}, "table": None}
    if not shown:
        return blank
    try:
        record, best, sticks = _shown_yardsticks(services, shown, session)
    except Exception as error:  # a forged record or an unreadable store: logged, the cards stay plain
        logger.warning("yardsticks not shown: %s", failure_message(error))
        return blank
    if record["status"] != "done":
        return blank
    summary = record["summary"]
    return {"lines": {name: yardstick_line(name, best, sticks) if name in summary else ""
                      for name in catalogue.CARD_MEASURES},
            "table": measure_table(summary, best, sticks)}


def keep_yardsticks(request, result):
    """The job's store (the run it placed) and message: how many measures, and which score the run no better
    than a random output."""
    worse = [measures.spec(name).label for name in result.random if result.verdict(name)]
    said = (f"Yardsticks of {request.run.describe()}: {len(result.random)} measures on {2 * result.n_draws} random "
            f"outputs in {result.seconds:.1f} s. "
            + (f"No better than a random output by {', '.join(worse)}: these measures cannot tell this run from "
               "noise." if worse else "Every measure with a direction places this run above a random output."))
    return {"run": request.run.to_dict()}, " ".join([said, *result.notes])


def register(app, services):
    """The yardstick job and the callback that draws the cards' lines and the table."""
    session = State(ids.SESSION, "data")
    register_study_job(app, services, ids.YARDSTICK_JOB, ids.YARDSTICK_RUN, ids.YARDSTICK_REQUEST, ids.YARDSTICK_STORE,
                       ids.YARDSTICK_MESSAGE, YardstickRequest, keep_yardsticks,
                       lambda state: f"the yardsticks of {RunRequest.from_state(state).describe()}, if computed")
    app.callback(output=dict(lines={name: Output(ids.card_yardstick(name), "children")
                                    for name in catalogue.CARD_MEASURES},
                             table=Output(ids.MEASURE_TABLE, "children")),
                 inputs=dict(shown=Input(ids.RUN_SHOWN, "data"), _stored=Input(ids.YARDSTICK_STORE, "data"),
                             session=session),
                 prevent_initial_call=True)(functools.partial(show_yardsticks, services))
