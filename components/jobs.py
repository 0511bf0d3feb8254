"""Background jobs on the page: the job box, the options of a job callback, the study tabs' jobs.

The Dash managers that run the jobs are in :mod:`serving.managers`; the stores the callbacks and jobs
compute and read through (the result cache, the uploads, the job ledger) in :mod:`serving.services`.

A job receives a request, never a view state: a quick callback builds and validates the request from the
view state and writes it to the job's store, whose change starts the job (the explore tab's,
:mod:`components.explore`; each study tab's, :func:`register_study_job`), and which reads the request back,
validated again. An explore run whose result is cached is drawn without a job at all.
"""

import functools
import logging
import math
import re
import time
import weakref

from dash import Input, Output, State, dcc, html, no_update, set_props

import measures

from lab import StateError, ViewState, failure_message
from lab.compute import compute, held
from lab.view.state import stored_state
from serving.deadlines import DEADLINE_MESSAGE_START
from serving.managers import LOST_JOB, job_deadline
from serving.slots import UNWATCHED_MESSAGE_START

from . import ids

__all__ = ["LOST_JOB", "PAGE_TOKEN_STATE", "compute_study", "job_box", "job_failure_message", "job_nonce",
           "job_options", "progress_reporter", "register_job_boxes", "register_restores", "register_study_job",
           "report_job_failure", "request_study", "restore_cached", "study_job_id"]

logger = logging.getLogger(__name__)

# Dash keys a job's hand-over entry by the callback's arguments: two pages asking for the same run
# shared one entry, the first poll consumed it and the other page waited forever (bench/load.py
# found it). Every background callback therefore also reads the page's token, which its work never
# sees; results are still shared, through the result cache.
PAGE_TOKEN_STATE = State(ids.PAGE_TOKEN, "data")
# Seconds between two progress writes of one job: GP and PSA report every step, and each write
# goes to the store every job and poll shares.
PROGRESS_INTERVAL = 0.25
# The numbers of a progress label ("1,000 of 2,000 sources", "step 400, T 0.12"): what changes within a stage.
_NUMBERS = re.compile(r"\d[\d.,]*")


# The page's message for a job that failed in a way its callback could not answer (the details stay in the log).
JOB_FAILED = "The computation failed; the server log has the details. Change a control, or run it again."
# How Dash words a job's exception when it hands it to ``on_error``: its text, then the job's traceback.
_DASH_JOB_ERROR = "An error occurred inside a background callback: "


def job_box(job):
    """Progress bar, stage label and cancel button of background ``job``, hidden while idle, and the
    report of a job that ended without answering (its deadline, its loss)."""
    job_ids = ids.job_controls(job)
    return html.Div([
        html.Div([
            html.Progress(id=job_ids["progress"], value="0", max="100"),
            html.Span(id=job_ids["label"], className="job-label"),
            html.Button("Cancel", id=job_ids["cancel"], className="cancel-button", disabled=True),
            dcc.Store(id=job_ids["running"], data=False),
        ], id=job_ids["box"], className="job idle"),
        html.Div(id=job_ids["report"], className="message error", role="status"),
    ])


def job_options(job, *extra_running):
    """Background-callback options of ``job``: progress bar and label, cancel button, running flag.

    ``running=`` only sets the job's store (and ``extra_running`` outputs); :data:`SHOW_JOB_STATE`
    turns the store into UI state, so a page change mid-job cannot leave a control stuck. A job that
    ends without answering (past its deadline where its callback set none, lost, a store failing
    while the page polls it) is reported in its box by :func:`report_job_failure`, never a 500.
    """
    job_ids = ids.job_controls(job)
    return dict(
        background=True,
        on_error=functools.partial(report_job_failure, job),
        # Dash keys a job's hand-over entry by its arguments. Two triggers with equal arguments (a
        # link setting a control to the value it has) would share one entry, and the page polling the
        # second would never see the result the first poll consumed. The trigger keeps them apart.
        cache_ignore_triggered=False,
        progress=[Output(job_ids["progress"], "value"), Output(job_ids["label"], "children")],
        cancel=[Input(job_ids["cancel"], "n_clicks")],
        running=[(Output(job_ids["running"], "data"), True, False), *extra_running],
    )


def progress_reporter(set_progress, interval=PROGRESS_INTERVAL):
    """Adapt a library's ``progress(fraction, stage)`` to Dash's ``set_progress`` of the job box.

    A new stage (a label that differs in more than its numbers) is always written; within a stage, at
    most one write per ``interval`` seconds (a sweep's source counts, an annealing's steps): every write
    goes to the store all jobs share. Dropping a new stage left a long one unnamed: a run's stages up to
    its graph sweep can all fall within one interval, and its box read "sampling the data set" through
    the whole sweep.
    """
    last = {"time": -math.inf, "stage": None}

    def report(fraction, stage):
        now, kind = time.monotonic(), _NUMBERS.sub("#", stage)
        if kind == last["stage"] and now - last["time"] < interval:
            return
        last.update(time=now, stage=kind)
        set_progress((str(int(100 * fraction)), stage))

    return report


def job_failure_message(error):
    """The page's words for a job's failure that reached Dash: its deadline, its loss, its place in the queue
    given up, a store; else a pointer to the log (a job's exception may name server paths, and Dash adds its
    traceback)."""
    said = str(error).partition(_DASH_JOB_ERROR)[2].partition("\n")[0]
    if said.startswith((DEADLINE_MESSAGE_START, UNWATCHED_MESSAGE_START)) or said == LOST_JOB:
        return said
    # Raised while the page polled, a library error is in our own words; anything else is logged.
    return failure_message(error, otherwise=JOB_FAILED, logged_as="background job failed")


def report_job_failure(job, error):
    """``on_error`` of ``job``'s callback: the failure in the job's report; its outputs keep what they show."""
    set_props(ids.job_controls(job)["report"], {"children": job_failure_message(error)})


def study_job_id(token, job, clicks):
    """The ledger's name of a study job: the page load, the study, the button's click count (the nonce of the job's
    request, :func:`request_study`: one per click, so two equal requests in a row are two jobs)."""
    return f"{token}:{job}:{clicks}"


def job_nonce(asked, what):
    """The ledger's name of the job that a request store started (the explore tab's ``{"request", "nonce",
    "token"}``, a study's ``{"request", "state", "nonce"}``); ``what`` names the store in the refusal."""
    nonce = asked.get("nonce") if isinstance(asked, dict) else None
    if not isinstance(nonce, str):
        raise StateError([f"The {what} names no job."])
    return nonce


def restore_cached(services, request_type, keep, tab, shown_tab, state, stored, session):
    """The study of ``request_type`` that the view state asks for, read from the result cache when its ``tab``
    is shown and its store is empty: a link to a Sweep, Compare, Normalization or Two runs view opens with its
    result when this server computed it (else its button computes it). ``(store, message)``, or no update.

    ``shown_tab`` is the tab just shown (the view state may not name it yet: a click shows the tab before the
    state follows). A refused upload says so; any other failure leaves the tab as it is (logged).
    """
    if shown_tab != tab or stored:
        return no_update, no_update
    try:
        view = ViewState.from_dict(state)
        request = request_type.from_state(view)
        uploads = services.uploads.authorized(session, request)
        if not held(request, services.results):
            return no_update, no_update
        # Read, not computed: a sweep's cells come from the cache (only a cell evicted between the check and this
        # read would be computed here, in the request).
        result, _ = compute(request, cache=services.results, uploads=uploads)
        kept, said = keep(request, result)
    except measures.ProcrustesLabError as error:  # a state this page never wrote, another session's upload
        return no_update, str(error)
    except Exception as error:  # noqa: BLE001 - a store that fails: the button still computes it
        return no_update, failure_message(error)
    return {"state": view.to_dict(), **kept}, f"Restored from this server's cache. {said}"


_STUDY = "study's request"  # how a refusal names a study's request store (job_nonce)


def request_study(services, job, request_type, clicks, state, session, token):
    """The button's click, answered at once: the study of ``request_type`` that view ``state`` asks for, built
    and validated (an upload this session did not send refused), for ``job``'s request store.

    Returns ``({"request", "state", "nonce"}, no_update)``, whose store starts the job; a bad state gives
    ``(no_update, its message)`` and starts none. The nonce names the job in the ledger (:func:`study_job_id`).
    """
    try:
        view = ViewState.from_dict(state)
        request = request_type.from_state(view)
        services.uploads.authorized(session, request)
    except Exception as error:  # a bad state, another session's upload, a store that failed: the message says so
        return no_update, failure_message(error)
    return ({"request": request.to_dict(), "state": view.to_dict(), "nonce": study_job_id(token, job, clicks)},
            no_update)


def compute_study(services, request_type, keep, asked, session, report):
    """The background job of a study: the request its store ``asked`` holds (``request_type.from_dict``,
    validated again), computed with :func:`lab.compute.compute` through the result cache under its deadline
    (:func:`serving.managers.job_deadline`); the job ledger knows it ran to its end.

    Returns ``(page store, message)``: the store keeps the state the request came from and what
    ``keep(request, result)`` returns, beside its message; any failure is the message, and the store keeps
    what it had.
    """
    try:
        nonce = job_nonce(asked, _STUDY)
    except StateError as error:
        return no_update, str(error)
    with services.jobs.running(nonce):
        try:
            if not isinstance(asked.get("request"), dict):
                raise StateError(["The study's request must be an object."])
            request = request_type.from_dict(asked["request"])
            view = stored_state(asked)
            uploads = services.uploads.authorized(session, request)
            with job_deadline():
                result, _ = compute(request, cache=services.results, progress=report, uploads=uploads)
            kept, said = keep(request, result)
            return {"state": view.to_dict(), **kept}, said
        except Exception as error:  # a forged request, a deadline, a store that failed: the message says so
            return no_update, failure_message(error)


def register_study_job(app, services, job, button, asked, store, message, request_type, keep, describe, tab=None):
    """The study of ``request_type`` that the view state asks for, computed by background ``job`` when ``button``
    is clicked.

    The click is answered at once (:func:`request_study`): a bad state's message, or the request written to
    the ``asked`` store, whose change starts the job (:func:`compute_study`); ``keep(request, result)`` returns
    what the page's ``store`` keeps beside the state, and ``message`` what the job says. The button is disabled
    while the job runs. Cancelling says so, and what the page still shows: ``describe(stored state)``. A job that
    stops running without having ended (:class:`serving.services.JobLedger`) is reported lost. With ``tab``,
    showing that tab restores the study from the cache (:func:`restore_cached`, wired by :func:`register_restores`).
    """
    app.callback(Output(asked, "data"), Output(message, "children", allow_duplicate=True), Input(button, "n_clicks"),
                 State(ids.VIEW_STATE, "data"), State(ids.SESSION, "data"), PAGE_TOKEN_STATE,
                 prevent_initial_call=True)(functools.partial(request_study, services, job, request_type))

    @app.callback(Output(store, "data"), Output(message, "children"), Input(asked, "data"),
                  State(ids.SESSION, "data"),
                  prevent_initial_call=True, **job_options(job, (Output(button, "disabled"), True, False)))
    def run_job(set_progress, job_request, session):
        return compute_study(services, request_type, keep, job_request, session, progress_reporter(set_progress))

    def say_cancelled(_cancels, stored, job_request):
        try:
            services.jobs.set_status(job_nonce(job_request, _STUDY), "cancelled")
        except StateError:  # a store this page never wrote: no job of it to mark
            pass
        try:
            shown = describe(stored_state(stored)) if stored else "nothing has finished yet"
        except measures.ProcrustesLabError:  # a store this page never wrote: nothing to name
            shown = "nothing"
        return f"Cancelled. Shown: {shown}."

    def say_lost(running, job_request):
        try:
            if running or not job_request or services.jobs.ended(job_nonce(job_request, _STUDY)):
                return no_update
        except StateError:  # a store this page never wrote: no job of it to report
            return no_update
        return LOST_JOB

    job_ids = ids.job_controls(job)
    app.callback(Output(message, "children", allow_duplicate=True), Input(job_ids["cancel"], "n_clicks"),
                 State(store, "data"), State(asked, "data"), prevent_initial_call=True)(say_cancelled)
    app.callback(Output(message, "children", allow_duplicate=True), Input(job_ids["running"], "data"),
                 State(asked, "data"), prevent_initial_call=True)(say_lost)
    if tab is not None:
        _RESTORABLE.setdefault(app, []).append((tab, request_type, keep, store, message))


# The studies each app restores from the cache when their tab is shown (register_study_job's ``tab``).
_RESTORABLE = weakref.WeakKeyDictionary()


def register_restores(app, services):
    """One callback for every study :func:`register_study_job` registered with a tab: showing a tab restores its
    studies (:func:`restore_cached`). One request, not one per study: the view-state sync sets the tabs' value
    again with every view state (six requests, 7 KB, on each run switch)."""
    studies = _RESTORABLE.get(app, [])

    def restore_studies(shown_tab, state, session, *stored):
        answers = [restore_cached(services, request_type, keep, tab, shown_tab, state, kept, session)
                   for (tab, request_type, keep, _, _), kept in zip(studies, stored)]
        return [value for answer in answers for value in answer]

    app.callback(*[output for _, _, _, store, message in studies
                   for output in (Output(store, "data", allow_duplicate=True),
                                  Output(message, "children", allow_duplicate=True))],
                 Input(ids.TABS, "value"), State(ids.VIEW_STATE, "data"), State(ids.SESSION, "data"),
                 *[State(store, "data") for _, _, _, store, _ in studies], prevent_initial_call=True)(restore_studies)


# A job's box from its running flag, in the browser: a pure function of one boolean needs no round trip
# (nine on every page load, two a job). The layout draws the idle state (job_box), so no initial call.
SHOW_JOB_STATE = """function (running) {
    return [running ? "job running" : "job idle", !running, running ? "" : window.dash_clientside.no_update];
}"""


def register_job_boxes(app):
    """Each job's box shows, and its cancel button is enabled, while its job runs; a new run clears its report."""
    for job in ids.JOBS:
        job_ids = ids.job_controls(job)
        app.clientside_callback(SHOW_JOB_STATE, Output(job_ids["box"], "className"),
                                Output(job_ids["cancel"], "disabled"), Output(job_ids["report"], "children"),
                                Input(job_ids["running"], "data"), prevent_initial_call=True)
