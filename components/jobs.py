"""Background work: Dash's background-callback managers, the job box and the services jobs use.

Background jobs run on one of two Dash managers, chosen once when the app is built:

- embedded (default): :class:`~dash.DiskcacheManager`, each job a forked process of the web
  server, its hand-over (progress and output, deleted once the page has read them) in ``dash/``
  under the cache directory;
- Celery mode (``REDIS_URL``): :class:`~dash.CeleryManager`, jobs run by ``celery -A worker worker``
  processes, the hand-over in Redis (the Celery result backend). See :func:`make_celery_app`.

Computed results live in :class:`lab.ResultCache` under ``results/`` in the cache directory
(``PROCRUSTES_CACHE_DIR``, default ``./cache``) and uploads in :class:`lab.UploadStore` under
``uploads/``; :class:`Services` carries both to the callbacks. In Celery mode the workers write the
results and the web server reads them, so both must see the same directory.

The manager gets no ``cache_by``: Dash would then replay a stored *output* (stale run time and all)
while still spawning a job that races to record the hit; caching the computation (``lab.cache``)
keeps one cache, one key, and an exact record of hits. A request whose result is cached is answered
without a job at all (see :mod:`components.explore`).
"""

import dataclasses
import math
import os
import pathlib
import threading
import time

import diskcache
import psutil
from celery import Celery
from dash import CeleryManager, DiskcacheManager, Input, Output, State, dcc, html, no_update

from lab import ResultCache, UploadStore, ViewState, failure_message

from . import ids

__all__ = ["PAGE_TOKEN_STATE", "Services", "cache_directory", "job_box", "job_options", "make_background_manager",
           "make_celery_app", "progress_reporter", "register_job_boxes", "register_study_job", "show_job_state"]

_ROOT = pathlib.Path(__file__).resolve().parents[1]
# Dash keys a job's hand-over entry by the callback's arguments: two pages asking for the same run
# shared one entry, the first poll consumed it and the other page waited forever (bench/load.py
# found it). Every background callback therefore also reads the page's token, which its work never
# sees; results are still shared, through the result cache.
PAGE_TOKEN_STATE = State(ids.PAGE_TOKEN, "data")
# Seconds between two progress writes of one job: GP and PSA report every step, and each write
# goes to the store every job and poll shares.
PROGRESS_INTERVAL = 0.25


def cache_directory(path=None):
    """The cache directory: ``path``, else ``$PROCRUSTES_CACHE_DIR``, else ``./cache`` in the repository."""
    return pathlib.Path(path or os.environ.get("PROCRUSTES_CACHE_DIR") or _ROOT / "cache")


@dataclasses.dataclass(frozen=True)
class Services:
    """What the callbacks compute and read through: the result cache and the upload store."""

    results: ResultCache
    uploads: UploadStore

    @classmethod
    def in_directory(cls, directory):
        """Both stores under ``directory`` (``results/`` and ``uploads/``), shared by web and job processes."""
        directory = pathlib.Path(directory)
        return cls(ResultCache(directory / "results"), UploadStore(directory / "uploads"))


def job_box(job):
    """Progress bar, stage label and cancel button of background ``job``, hidden while idle."""
    job_ids = ids.job_controls(job)
    return html.Div([
        html.Progress(id=job_ids["progress"], value="0", max="100"),
        html.Span(id=job_ids["label"], className="job-label"),
        html.Button("Cancel", id=job_ids["cancel"], className="cancel-button"),
        dcc.Store(id=job_ids["running"], data=False),
    ], id=job_ids["box"], className="job idle")


def job_options(job, *extra_running):
    """Background-callback options of ``job``: progress bar and label, cancel button, running flag.

    ``running=`` only sets the job's store (and ``extra_running`` outputs); :func:`show_job_state`
    turns the store into UI state, so a page change mid-job cannot leave a control stuck.
    """
    job_ids = ids.job_controls(job)
    return dict(
        background=True,
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

    At most one write per ``interval`` seconds: every write goes to the store all jobs share.
    """
    last = [-math.inf]

    def report(fraction, stage):
        now = time.monotonic()
        if now - last[0] < interval:
            return
        last[0] = now
        set_progress((str(int(100 * fraction)), stage))

    return report


def show_job_state(running):
    """Show a job's progress box and enable its cancel button only while it runs."""
    return ("job running" if running else "job idle"), not running


def register_study_job(app, job, button, store, message, work, describe):
    """A background job started by ``button`` on the current view state, and what its Cancel says.

    ``work(state, session, report)`` (the state validated) returns ``(stored, message)``; any
    failure becomes the message and the store keeps what it had. The button is disabled while the
    job runs. Cancelling says so, and what the page still shows: ``describe(stored)``.
    """
    @app.callback(Output(store, "data"), Output(message, "children"), Input(button, "n_clicks"),
                  State(ids.VIEW_STATE, "data"), State(ids.SESSION, "data"), PAGE_TOKEN_STATE,
                  prevent_initial_call=True, **job_options(job, (Output(button, "disabled"), True, False)))
    def run_job(set_progress, _clicks, state, session, _token):
        try:
            return work(ViewState.from_dict(state), session, progress_reporter(set_progress))
        except Exception as error:  # a bad state or a store that failed: the message line says so
            return no_update, failure_message(error)

    def say_cancelled(_clicks, stored):
        shown = describe(ViewState.from_dict(stored["state"])) if stored else "nothing has finished yet"
        return f"Cancelled. Shown: {shown}."

    app.callback(Output(message, "children", allow_duplicate=True), Input(ids.job_controls(job)["cancel"], "n_clicks"),
                 State(store, "data"), prevent_initial_call=True)(say_cancelled)


def register_job_boxes(app):
    """Each job's box shows while its job runs (an ordinary callback on the job's running store)."""
    for job in ids.JOBS:
        job_ids = ids.job_controls(job)
        app.callback(Output(job_ids["box"], "className"), Output(job_ids["cancel"], "disabled"),
                     Input(job_ids["running"], "data"))(show_job_state)


def make_celery_app(redis_url=None):
    """The Celery app of Celery mode: broker and result backend both on Redis.

    The web server (``python app.py --backend celery``) and the workers (``celery -A worker worker``)
    each build it the same way, from the same ``REDIS_URL``.

    Parameters
    ----------
    redis_url : str, optional
        ``redis://host:port/db``; default ``$REDIS_URL``.

    Raises
    ------
    ValueError
        If no URL is given and ``REDIS_URL`` is not set.
    """
    redis_url = redis_url or os.environ.get("REDIS_URL")
    if not redis_url:
        raise ValueError("Celery mode needs a Redis server: set REDIS_URL (e.g. redis://127.0.0.1:6379/0), "
                         "or run without --backend celery for the embedded manager.")
    celery_app = Celery("procrustes_lab", broker=redis_url, backend=redis_url)
    celery_app.conf.update(
        # A job is minutes of CPU: a worker takes the next one only when it is free, so a queued job
        # never waits behind a long one while another worker idles.
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
    )
    return celery_app


class _CeleryManager(CeleryManager):
    """Dash's :class:`~dash.CeleryManager`, except that fetching a job's output does not revoke the job.

    Dash revokes the task with ``terminate=True`` right after reading its output. That output is
    written from inside the task, so the task may not have returned yet; the worker then kills the
    pool process finishing it (a lost process, and an error in the worker log, for nothing). There
    is nothing to stop once the output is there; cancelling still terminates the job.
    """

    def get_result(self, key, job):
        return super().get_result(key, None)


class _DiskcacheManager(DiskcacheManager):
    """Dash's :class:`~dash.DiskcacheManager`, without three races of a job that ends during a poll.

    Each lost a finished job's result under the load test of ``bench/load.py``:

    - Dash checks that the job's process exists, then opens it: a job exiting in between raised
      ``psutil.NoSuchProcess`` out of the poll (HTTP 500).
    - A poll reads the result (not there yet), then asks whether the job runs: a job that stores
      its result and exits in between read as cancelled, and the page got nothing. Such a job is
      reported as running, so the next poll collects the result.
    - A job is its process id, and ids are reused (32 768 of them here): a late stop of a finished
      job could kill a new job that got its id. A process is taken for the job only if it started
      when the job did.
    """

    def __init__(self, cache):
        super().__init__(cache)
        self._polled = threading.local()  # the key the current poll read, per request thread
        self._started = {}  # job id -> its process's start time

    def call_job_fn(self, key, job_fn, args, context):
        job = super().call_job_fn(key, job_fn, args, context)
        try:
            self._started[job] = psutil.Process(job).create_time()
        except psutil.NoSuchProcess:  # already done: nothing of it to stop
            pass
        return job

    def _is_current(self, job):
        """Whether process ``job`` is the job started under that id (not a later process reusing it)."""
        try:
            return psutil.Process(job).create_time() == self._started.get(job)
        except psutil.NoSuchProcess:
            return False

    def terminate_job(self, job):
        if job is None:
            return
        if self._is_current(int(job)):
            try:
                super().terminate_job(job)
            except psutil.NoSuchProcess:
                pass
        self._started.pop(int(job), None)

    def get_result(self, key, job):
        self._polled.key = key
        return super().get_result(key, job)

    def job_running(self, job):
        key, self._polled.key = getattr(self._polled, "key", None), None
        running = self._is_current(int(job)) and super().job_running(job)
        return running or (key is not None and self.result_ready(key))


class _HandoverCache(diskcache.Cache):
    """Dash's hand-over store (one SQLite database), whose writes wait for the lock instead of giving up.

    A job writes its result once, with Dash's ``cache.set(key, value)``: under 20 concurrent jobs
    that write timed out on the contended lock (``diskcache.Timeout``, the result lost, the page
    left waiting). ``retry=True`` retries until the lock is free.
    """

    def set(self, key, value, expire=None, read=False, tag=None, retry=True):
        return super().set(key, value, expire=expire, read=read, tag=tag, retry=retry)


def make_background_manager(directory, celery_app=None):
    """Dash's background manager: on ``celery_app`` (Celery mode) or, by default, on disk under ``directory``.

    Job hand-over only (see the module docstring): no ``cache_by``.
    """
    if celery_app is not None:
        return _CeleryManager(celery_app)
    return _DiskcacheManager(_HandoverCache(str(pathlib.Path(directory) / "dash")))
