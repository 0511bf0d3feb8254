"""Background jobs on the page: the job box, the options of a job callback, the services jobs use.

The Dash managers that run the jobs are in :mod:`serving.managers`. Computed results live in
:class:`lab.ResultCache` under ``results/`` in the cache directory (``PROCRUSTES_CACHE_DIR``, default
``./cache``), uploads in :class:`lab.UploadStore` under ``uploads/`` and the job ledger under ``jobs/``;
:class:`Services` carries them to the callbacks. In Celery mode the workers write the results and the
web server reads them, so both must see the same directory.

A request whose result is cached is answered without a job at all (see :mod:`components.explore`).
"""

import contextlib
import dataclasses
import functools
import logging
import math
import re
import time
import weakref

from dash import Input, Output, State, dcc, html, no_update, set_props

import measures

from lab import ResultCache, UploadStore, ViewState, failure_message
from lab.compute import compute, held
from lab.store.cache import host_results
from lab.store.stores import StoreUnavailableError, store_for
from lab.view.state import stored_state
from serving.deadlines import DEADLINE_MESSAGE_START
from serving.managers import LOST_JOB, job_deadline
from serving.slots import UNWATCHED_MESSAGE_START

from . import ids

__all__ = ["LOST_JOB", "JobLedger", "PAGE_TOKEN_STATE", "Services", "job_box", "job_failure_message",
           "job_options", "progress_reporter", "register_job_boxes", "register_study_job", "report_job_failure",
           "register_restores", "restore_cached", "study_job_id"]

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


class JobLedger:
    """Which background jobs started and which ended, so the page can tell a lost job from a slow one.

    A job's status (:meth:`set_status`) is ``running`` when it starts and ``done`` when it ends (its
    result or its failure message is then on its way to the page); the page's Cancel sets ``cancelled``. When the page
    learns that a job no longer runs but its entry is still ``running`` (or missing), the job was
    lost: its process died (killed, out of memory), or its worker or queued message vanished.

    The ledger only tells a lost job from a slow one; it never stops one. A ledger that cannot be
    written (its store full, read-only, unreachable) is logged and the job goes on, and one that
    cannot be read gives no verdict: the page reports no loss on no evidence (and so never covers a
    result that did arrive); the manager's own check still reports a job that ended without a result
    (:class:`serving.managers._EveryJobAccountedFor`).

    Parameters
    ----------
    store : lab.store.stores.DiskStore
        Shared by the web processes and the job processes (Celery workers included).
    """

    EXPIRE_SECONDS = 24 * 3600

    def __init__(self, store):
        self.store = store

    def set_status(self, job, status):
        """Set ``job``'s status ("running", "done" or "cancelled"); logged, not raised, if the ledger fails."""
        try:
            self.store.put(f"job:{job}", status.encode(), expire=self.EXPIRE_SECONDS)
        except StoreUnavailableError as error:
            logger.warning("job %s: could not set its status %r (%s)", job, status, error)

    def ended(self, job):
        """Whether ``job`` is done, or was cancelled from the page; True (no verdict) if the ledger fails."""
        try:
            return self.store.get(f"job:{job}") in (b"done", b"cancelled")
        except StoreUnavailableError as error:
            logger.warning("job %s: the ledger cannot say whether it ended (%s)", job, error)
            return True

    @contextlib.contextmanager
    def running(self, job):
        """Set ``job`` running for the block and done after it (a killed process never gets there)."""
        self.set_status(job, "running")
        try:
            yield
        finally:
            self.set_status(job, "done")


@dataclasses.dataclass(frozen=True)
class Services:
    """What the callbacks compute and read through: the result cache, the upload store, the job ledger."""

    results: ResultCache
    uploads: UploadStore
    jobs: JobLedger

    @classmethod
    def in_directory(cls, directory, shared_url=None):
        """The stores under ``directory`` (``results/``, ``uploads/``, ``jobs/``), shared by web and jobs.

        With ``shared_url`` (default ``$PROCRUSTES_STORE_URL``), a Redis every host reaches holds them
        and the directory is this host's copy (:func:`lab.store.stores.store_for`).
        """
        def store(prefix, **options):
            return store_for(directory, prefix, shared_url=shared_url, **options)

        return cls(host_results(directory, shared_url=shared_url),
                   UploadStore(store("uploads", eviction_policy="none", size_limit=UploadStore.DEFAULT_BYTES)),
                   JobLedger(store("jobs", size_limit=2**26)))


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
    """The ledger's name of a study job: the page load, the study, the button's click count."""
    return f"{token}:{job}:{clicks}"


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


def register_study_job(app, services, job, button, store, message, request_type, keep, describe, tab=None):
    """A background job started by ``button``: the study of ``request_type`` the current view state asks for.

    The job receives the request (``request_type.from_state`` of the state, validated) and computes it
    with :func:`lab.compute.compute` through the result cache, under its deadline
    (:func:`serving.managers.job_deadline`); ``keep(request, result)`` returns what the page's
    store keeps beside the state and the message. Any failure becomes the message and the store
    keeps what it had. The button is disabled while the job runs. Cancelling says so, and what the
    page still shows: ``describe(stored)``. A job that stops running without having ended
    (:class:`JobLedger`) is reported lost. With ``tab``, showing that tab restores the study from the cache
    (:func:`restore_cached`, wired by :func:`register_restores`).
    """
    @app.callback(Output(store, "data"), Output(message, "children"), Input(button, "n_clicks"),
                  State(ids.VIEW_STATE, "data"), State(ids.SESSION, "data"), PAGE_TOKEN_STATE,
                  prevent_initial_call=True, **job_options(job, (Output(button, "disabled"), True, False)))
    def run_job(set_progress, clicks, state, session, token):
        with services.jobs.running(study_job_id(token, job, clicks)):
            try:
                view = ViewState.from_dict(state)
                request = request_type.from_state(view)
                uploads = services.uploads.authorized(session, request)
                with job_deadline():
                    result, _ = compute(request, cache=services.results, progress=progress_reporter(set_progress),
                                        uploads=uploads)
                kept, said = keep(request, result)
                return {"state": view.to_dict(), **kept}, said
            except Exception as error:  # a bad state, a deadline, a store that failed: the message says so
                return no_update, failure_message(error)

    def say_cancelled(_cancels, stored, clicks, token):
        services.jobs.set_status(study_job_id(token, job, clicks), "cancelled")
        try:
            shown = describe(stored_state(stored)) if stored else "nothing has finished yet"
        except measures.ProcrustesLabError:  # a store this page never wrote: nothing to name
            shown = "nothing"
        return f"Cancelled. Shown: {shown}."

    def say_lost(running, clicks, token):
        if running or not clicks or services.jobs.ended(study_job_id(token, job, clicks)):
            return no_update
        return LOST_JOB

    job_ids = ids.job_controls(job)
    app.callback(Output(message, "children", allow_duplicate=True), Input(job_ids["cancel"], "n_clicks"),
                 State(store, "data"), State(button, "n_clicks"), PAGE_TOKEN_STATE,
                 prevent_initial_call=True)(say_cancelled)
    if tab is not None:
        _RESTORABLE.setdefault(app, []).append((tab, request_type, keep, store, message))

    app.callback(Output(message, "children", allow_duplicate=True), Input(job_ids["running"], "data"),
                 State(button, "n_clicks"), PAGE_TOKEN_STATE, prevent_initial_call=True)(say_lost)


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
