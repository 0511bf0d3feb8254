"""Dash's background-callback managers, made to end every job: done, failed, cancelled, killed or lost.

Background jobs run on one of two Dash managers, chosen once when the app is built:

- embedded (default): :class:`~dash.DiskcacheManager`, each job a forked process of the web server,
  its hand-over (progress and output, deleted once the page has read them) in ``dash/`` under the
  cache directory;
- Celery mode (``REDIS_URL``): :class:`~dash.CeleryManager`, jobs run by ``celery -A worker worker``
  processes, the hand-over in Redis (the Celery result backend). See
  :func:`serving.celery_app.make_celery_app`.

Every job, of every kind, has a deadline (``PROCRUSTES_JOB_DEADLINE``), set by the manager around the
callback (:func:`serving.deadlines.bounded`): past it the job stops with
:class:`~serving.deadlines.JobDeadlineError`, which no ``except Exception`` inside the job swallows
and which becomes the page's message; a job that ignores it is killed (Celery's hard limit; an embedded
job's watchdog). A job whose process died (killed, out of memory), whose worker was lost, or whose
queued message a broker restart erased, is reported as no longer running within a few seconds, and its
poll answers with :data:`LOST_JOB` (:class:`_EveryJobAccountedFor`), so the page stops waiting and says
so.

Every job also takes its slots before it runs (:class:`serving.slots.JobSlots`: caps per browser
session, per client address and, embedded, per host; Celery's workers are a cap of their own). Each
poll of a job is noted (at most every :data:`POLL_NOTE_SECONDS`), so that a queued job no page asks
for gives its place up (:data:`serving.slots.UNWATCHED_SECONDS`).

The manager gets no ``cache_by``: Dash would then replay a stored *output* (stale run time and all)
while still spawning a job that races to record the hit; caching the computation (``lab.store.cache``)
keeps one cache, one key, and an exact record of hits.
"""

import contextlib
import functools
import json
import logging
import os
import pathlib
import signal
import threading
import time

import celery
import diskcache
import kombu.exceptions
import psutil
import redis.exceptions
from dash import CeleryManager, DiskcacheManager

from lab.store.stores import DISKCACHE_OPTIONS, no_fork_inside, store_for
from settings import settings

from . import deadlines
# The callbacks' own deadlines (explore, the studies) come from here too.
from .deadlines import JobDeadlineError, job_deadline
from .slots import JobSlots

__all__ = ["JobDeadlineError", "LOST_JOB", "job_deadline", "make_background_manager"]

logger = logging.getLogger(__name__)

LOST_JOB = ("The computation ended without a result: its process stopped (killed, out of memory, or its worker "
            "was lost) before it could answer. Nothing partial was kept; change a control, or run it again.")


# Seconds between two checks that a job's worker is alive (each costs a broadcast ping).
LIVENESS_SECONDS = 5.0
# A job unseen in the queue and on every worker for this long was erased (a broker restart).
VANISHED_AFTER_SECONDS = 10.0
_RUNNING = ("PENDING", "RECEIVED", "STARTED", "RETRY", "PROGRESS")
# What a liveness check raises while the broker is down or its old connection is dead.
_BROKER_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, kombu.exceptions.OperationalError,
                OSError)


# Seconds between two notes of one job's polls by one web process (a page polls every few seconds).
POLL_NOTE_SECONDS = 5.0
# A poll of a job waits on the server for news before it answers (issue 24, push instead of poll): its result
# or the props it set (a run's partial record) at once, a new progress label once the poll has waited
# PROGRESS_WAIT_SECONDS, else an empty answer after LONG_POLL_SECONDS. The page learns of a result within
# LONG_POLL_STEP of it while a poll waits, and within Dash's pause between two polls (1 s) otherwise: a 40 s job
# whose progress moves costs its page about 16 polls (one every 2.5 s), a quiet one about 10, not 40. (A pause
# of 0.25 s, tried for issue 24, left the Celery chaos tests' pages waiting for good after a worker was killed
# or Redis restarted.) At most LONG_POLL_WAITERS polls of one web process wait at once (gunicorn runs 8 threads
# a worker): the others answer at once, as plain polls.
LONG_POLL_SECONDS = 3.0
PROGRESS_WAIT_SECONDS = 1.5
LONG_POLL_STEP = 0.05
LONG_POLL_WAITERS = 4


class _EveryJobAccountedFor:
    """What both managers add to Dash's: every job runs under its deadline, a lost job is reported, and
    a queued job that no page polls gives its place up.

    Dash answers a poll of a job that no longer runs and left no result with "no update": the page
    stops waiting and says nothing (a killed tour job was never reported). Such a job was lost,
    unless the page stopped it (its Cancel, a newer job of the same callback, its result read), which
    each manager's ``terminate_job`` remembers (``_remember_stopped``). A lost job's poll answers
    with :data:`LOST_JOB` as the job's error, which the callback's ``on_error``
    (``components.jobs.job_options``) shows.

    Each manager says where a job's last poll is noted and which job the current process runs
    (``_note_poll``, ``_read_poll``, ``_current_job``), and how a hand-over entry is read (``_handed_over``).
    """

    STOPPED_SECONDS = 24 * 3600

    def __init__(self, *args, slots, **kwargs):
        self.slots = slots  # before Dash's own set-up, which already makes the job functions
        self._polled = threading.local()  # the key the current poll read, per request thread
        self._noted = {}  # job -> when this process last noted a poll of it
        self._noting = threading.Lock()  # request threads note polls at once
        self._waiters = threading.BoundedSemaphore(LONG_POLL_WAITERS)
        super().__init__(*args, **kwargs)

    def make_job_fn(self, fn, progress, key=None):
        in_slots = self.slots.around(fn, progress, last_polled=self._last_polled)
        return super().make_job_fn(deadlines.bounded(in_slots), progress, key)

    def _polled_now(self, job):
        """Note that a page polled ``job`` now, unless this process noted it in the last :data:`POLL_NOTE_SECONDS`.

        A note is advice to the job's queue (:mod:`serving.slots`, whose watch counts the job's start as
        a poll): one that cannot be written (a store locked or down) is logged and the poll answered, as a
        lost note only brings the next one forward.
        """
        now = time.time()
        with self._noting:
            if now - self._noted.get(job, -float("inf")) < POLL_NOTE_SECONDS:
                return
            if len(self._noted) > 4096:  # the jobs of the last few minutes are enough to remember
                self._noted = {other: when for other, when in self._noted.items() if now - when < 60}
            self._noted[job] = now
        try:
            self._note_poll(job, now)
        except Exception:  # noqa: BLE001 (any store's failure: advice only, never the poll's 500)
            logger.warning("could not note a poll of background job %s", job, exc_info=True)

    def _last_polled(self):
        """In a job: its last poll's note (any value that changes with each note), or None. A note that cannot
        be read counts as a poll now: a store's blip must not drop a job a page waits for."""
        try:
            return self._read_poll(self._current_job())
        except Exception:  # noqa: BLE001
            logger.warning("could not read the poll notes of this background job", exc_info=True)
            return time.time()

    def get_progress(self, key):
        """Dash's read of the progress of ``key``'s job (before its result), once the job has news for the page
        or the poll has waited long enough (:data:`LONG_POLL_SECONDS`)."""
        if self._waiters.acquire(blocking=False):
            try:
                started = time.monotonic()
                while True:
                    waited = time.monotonic() - started
                    if waited >= LONG_POLL_SECONDS or self._news(key, progress=waited >= PROGRESS_WAIT_SECONDS):
                        break
                    time.sleep(LONG_POLL_STEP)
            finally:
                self._waiters.release()
        return super().get_progress(key)

    def _news(self, key, *, progress):
        """Whether ``key``'s job left its page its result or props it set, or (``progress``) a progress label.
        A store that cannot be read is news: the poll reads it at once, and says what it finds."""
        try:
            return (self.result_ready(key) or self._handed_over(self._make_set_props_key(key)) is not None
                    or (progress and self._handed_over(self._make_progress_key(key)) is not None))
        except Exception:  # noqa: BLE001 (any store's failure: the poll's own reads report it)
            return True

    def get_result(self, key, job):
        if job is not None:
            self._polled_now(job)
        self._polled.key = key
        result = self._collect(key, job)
        if result is self.UNDEFINED and job is not None and not self._stopped(job) and not self.job_running(job):
            logger.warning("background job %s ended without a result (killed, out of memory, or its worker lost)", job)
            return {"background_callback_error": {"msg": LOST_JOB, "tb": ""}}
        self._polled.key = key  # for Dash's own job_running after this read (the lost-job check took it)
        return result

    def job_running(self, job):
        """Whether job ``job`` runs, as this poll must see it.

        A poll reads the result (not there yet), then asks whether the job runs. A job that stores its
        result and ends in between would read as cancelled: Dash answers "no update" and the page stops
        polling with the result stored and never shown (a Celery sweep's last poll, in the suite). So a
        job whose result is ready for the key this poll read runs still, and the next poll collects it.
        """
        key, self._polled.key = getattr(self._polled, "key", None), None
        return self._running(job) or (key is not None and self.result_ready(key))

    def _collect(self, key, job):
        """Dash's reading of job ``job``'s result under ``key`` (UNDEFINED while there is none)."""
        return super().get_result(key, job)


class _CeleryManager(_EveryJobAccountedFor, CeleryManager):
    """Dash's :class:`~dash.CeleryManager`, whose jobs always end, and whose outputs do not revoke them.

    - Dash revokes the task with ``terminate=True`` right after reading its output. That output is
      written from inside the task, so the task may not have returned yet; the worker then kills the
      pool process finishing it. There is nothing to stop once the output is there; cancelling still
      terminates the job.
    - A task's state alone never ends: a started task whose worker died stays STARTED, and a queued
      one that a broker restart erased stays PENDING, for ever. :meth:`job_running` also asks whether
      the task's worker answers a ping (STARTED: the worker recorded its host) and whether a PENDING
      task is still in the queue or on a worker; a job that is neither is lost, and the page stops
      waiting.
    """

    def __init__(self, celery_app, *args, **kwargs):
        super().__init__(celery_app, *args, **kwargs)
        self._alive = {}  # worker host -> (checked at, answered)
        self._unseen = {}  # task id -> first time it was seen nowhere

    def _collect(self, key, job):
        return super()._collect(key, None)  # no revoke: see the class docstring

    def _handed_over(self, key):
        return self.handle.backend.get(key)

    def get_updated_props(self, key):
        """The props ``key``'s job set since the last poll (a run's partial record), read once. Dash 4.4's
        deletes the job's *result* key instead: the props came again at every poll, and a result stored
        between the poll's two reads was lost."""
        props_key = self._make_set_props_key(key)
        updated = self._handed_over(props_key)
        if updated is None:
            return {}
        self.clear_cache_entry(props_key)
        return json.loads(updated)

    def terminate_job(self, job):
        if job is not None:
            self._remember_stopped(job)
        super().terminate_job(job)

    def _remember_stopped(self, job):
        self.handle.backend.set(f"procrustes-job-stopped:{job}", b"1")

    def _note_poll(self, job, when):
        self.handle.backend.set(f"procrustes-job-polled:{job}", str(when).encode())

    def _read_poll(self, job):
        noted = self.handle.backend.get(f"procrustes-job-polled:{job}")
        return float(noted) if noted is not None else None

    @staticmethod
    def _current_job():
        return celery.current_task.request.id

    def _stopped(self, job):
        return self.handle.backend.get(f"procrustes-job-stopped:{job}") is not None

    def _running(self, job):
        task = self.get_task(job)
        try:
            status = task.status if task else None
        except _BROKER_DOWN:  # the result backend is restarting: still running, as far as anyone knows
            return True
        if status not in _RUNNING:
            return False
        if status == "STARTED":
            host = (task.info or {}).get("hostname") if isinstance(task.info, dict) else None
            return host is None or self._worker_alive(host)
        if status == "PENDING":
            return not self._vanished(job)
        return True

    def _worker_alive(self, host):
        checked, answered = self._alive.get(host, (-float("inf"), True))
        if time.monotonic() - checked > LIVENESS_SECONDS:
            try:
                answered = bool(self.handle.control.ping(destination=[host], timeout=1.0))
            except _BROKER_DOWN:  # a connection that died with a broker restart: ask again next poll
                return answered
            self._alive[host] = (time.monotonic(), answered)
        return answered

    def _vanished(self, job):
        """Whether PENDING task ``job`` is in no queue and on no worker, for :data:`VANISHED_AFTER_SECONDS`."""
        try:
            seen = self._queued(job) or self._on_a_worker(job)
        except _BROKER_DOWN:  # the broker is restarting: no verdict this poll
            return False
        if seen:
            self._unseen.pop(job, None)
            return False
        first = self._unseen.setdefault(job, time.monotonic())
        return time.monotonic() - first > VANISHED_AFTER_SECONDS

    def _queued(self, job):
        with self.handle.connection_for_read() as connection:
            client = connection.default_channel.client
            for message in client.lrange(self.handle.conf.task_default_queue, 0, -1):
                try:
                    if json.loads(message)["headers"]["id"] == job:
                        return True
                except (ValueError, KeyError, TypeError):
                    continue
        return False

    def _on_a_worker(self, job):
        inspect = self.handle.control.inspect(timeout=1.0)
        for listing in (inspect.active() or {}, inspect.reserved() or {}):
            if any(task.get("id") == job for tasks in listing.values() for task in tasks):
                return True
        return False


class _DiskcacheManager(_EveryJobAccountedFor, DiskcacheManager):
    """Dash's :class:`~dash.DiskcacheManager`, without three races of a job that ends during a poll.

    Each lost a finished job's result under the load test of ``bench/load.py``:

    - Dash checks that the job's process exists, then opens it: a job exiting in between raised
      ``psutil.NoSuchProcess`` out of the poll (HTTP 500).
    - A poll reads the result (not there yet), then asks whether the job runs: a job that stores
      its result and exits in between read as cancelled, and the page got nothing. Such a job is
      reported as running, so the next poll collects the result (:meth:`_EveryJobAccountedFor.job_running`,
      which the Celery manager shares: a task that stores its result and succeeds in between is the same race).
    - A job is its process id, and ids are reused (32 768 of them here): a late stop of a finished
      job could kill a new job that got its id. A process is taken for the job only if it started
      when the job did.
    """

    def __init__(self, cache, *, slots):
        super().__init__(cache, slots=slots)

    # A job's process start time, in the hand-over store: another web process (gunicorn's workers)
    # may answer the page's next poll.
    @staticmethod
    def _started_key(job):
        return f"procrustes-job-started:{int(job)}"

    def _handed_over(self, key):
        return self.handle.get(key)

    def call_job_fn(self, key, job_fn, args, context):
        job = super().call_job_fn(key, functools.partial(_watched, job_fn), args, context)
        try:
            self.handle.set(self._started_key(job), psutil.Process(job).create_time(), expire=24 * 3600)
        except psutil.NoSuchProcess:  # already done: nothing of it to stop
            pass
        return job

    def _is_current(self, job):
        """Whether process ``job`` is the job started under that id (not a later process reusing it)."""
        try:
            return psutil.Process(job).create_time() == self.handle.get(self._started_key(job))
        except psutil.NoSuchProcess:
            return False

    def terminate_job(self, job):
        """Stop job ``job`` (the page's Cancel, or a newer job of its callback): asked first, then killed.

        Asked (SIGTERM), the job ends through its ``finally`` blocks (:func:`_watched`), so its slots
        are free at once; one still in C code after :data:`STOP_GRACE_SECONDS` is killed as Dash kills
        it, and its slots lapse with their lease (:data:`serving.slots.SLOT_LEASE_SECONDS`).
        """
        if job is None:
            return
        self._remember_stopped(job)
        if self._is_current(int(job)):
            try:
                process = psutil.Process(int(job))
                process.terminate()
                process.wait(STOP_GRACE_SECONDS)
            except (psutil.NoSuchProcess, psutil.TimeoutExpired):
                pass
        if self._is_current(int(job)):
            try:
                super().terminate_job(job)
            except psutil.NoSuchProcess:
                pass
        self.handle.delete(self._started_key(job))

    def _remember_stopped(self, job):
        self.handle.set(f"procrustes-job-stopped:{job}", True, expire=self.STOPPED_SECONDS)

    # The page's job id is the process id, in the query string (text).
    def _note_poll(self, job, when):  # no retry: a poll does not wait for the store's lock (logged instead)
        self.handle.set(f"procrustes-job-polled:{int(job)}", when, expire=3600, retry=False)

    def _read_poll(self, job):
        return self.handle.get(f"procrustes-job-polled:{int(job)}")

    @staticmethod
    def _current_job():
        return os.getpid()

    def _stopped(self, job):
        return self.handle.get(f"procrustes-job-stopped:{job}") is not None

    def _running(self, job):
        return self._is_current(int(job)) and DiskcacheManager.job_running(self, job)


# Seconds past the job deadline after which an embedded job's process ends itself, whatever it is doing.
WATCHDOG_GRACE_SECONDS = 60.0
# Seconds an embedded job the page stops has to end by itself (its slots let go) before it is killed.
STOP_GRACE_SECONDS = 1.0


def _stopped_by_the_page(signum, frame):
    """SIGTERM in a job: end it through its ``finally`` blocks, past any ``except Exception`` inside it."""
    raise SystemExit(128 + signum)


def _watched(job_fn, *args):
    """Run an embedded job under a watchdog thread that ends its process a minute past the deadline.

    The deadline's alarm (:func:`job_deadline`) is a Python exception: it cannot reach a job stuck in
    C code, such as a mutex held across the fork. The watchdog's ``os._exit`` ends the process
    anyway, and the page reports the job lost instead of polling it for ever. A job the page stops
    (:meth:`_DiskcacheManager.terminate_job`) is asked first: SIGTERM ends it with its slots released,
    where a kill left them taken until their lease lapsed (a replaced job held its session's slot 6 s).
    The job runs :data:`JOB_NICENESS` below the web server.
    """
    signal.signal(signal.SIGTERM, _stopped_by_the_page)
    # Below the web server: its answers (a partial run drawn, another page's cached switch) do not queue
    # behind the job's cores; an idle machine gives the job every cycle all the same.
    os.nice(JOB_NICENESS)
    watchdog = threading.Timer(settings().job_deadline + WATCHDOG_GRACE_SECONDS, os._exit, args=(70,))
    watchdog.daemon = True
    watchdog.start()
    try:
        return job_fn(*args)
    finally:
        watchdog.cancel()


# How much lower an embedded job's CPU priority is than the web server's (os.nice; 19 is the lowest).
JOB_NICENESS = 10
# Seconds a hand-over write waits for the store's lock, in all.
HANDOVER_LOCK_SECONDS = 60.0


class _HandoverCache(diskcache.Cache):
    """Dash's hand-over store (one SQLite database), whose writes wait for the lock, for a while,
    and whose calls are never split by a fork.

    A job writes its result once, with Dash's ``cache.set(key, value)``: under 20 concurrent jobs
    that write timed out on the contended lock (``diskcache.Timeout``, the result lost, the page
    left waiting). A write now retries for :data:`HANDOVER_LOCK_SECONDS`, then raises: a store that
    stays locked (or turned read-only, which raises at once) ends the job instead of spinning, and
    the page reports the job lost.

    Every SQLite call holds off a fork of the process (:func:`lab.store.stores.no_fork_inside`): request
    threads use this store while others fork jobs, and a job forked in the middle of such a call
    inherited a held SQLite mutex and hung on its first store operation.
    """

    def set(self, key, value, expire=None, read=False, tag=None, retry=True):
        deadline = time.monotonic() + HANDOVER_LOCK_SECONDS
        while True:
            try:
                with no_fork_inside():
                    return super().set(key, value, expire=expire, read=read, tag=tag, retry=False)
            except diskcache.Timeout:
                if not retry or time.monotonic() > deadline:
                    raise

    def get(self, *args, **kwargs):
        with no_fork_inside():
            return super().get(*args, **kwargs)

    def add(self, *args, **kwargs):
        with no_fork_inside():
            return super().add(*args, **kwargs)

    def delete(self, *args, **kwargs):
        with no_fork_inside():
            return super().delete(*args, **kwargs)

    def touch(self, *args, **kwargs):
        with no_fork_inside():
            return super().touch(*args, **kwargs)

    @contextlib.contextmanager
    def transact(self, retry=False):
        with no_fork_inside(), super().transact(retry=retry) as connection:
            yield connection


def make_background_manager(directory, celery_app=None):
    """Dash's background manager: on ``celery_app`` (Celery mode) or, by default, on disk under ``directory``.

    Job hand-over only (see the module docstring): no ``cache_by``. The job slots (:class:`JobSlots`) are
    locks of the job ledger's store (shared by every host with ``PROCRUSTES_STORE_URL``); the embedded
    manager's server slots stay on this host's disk.
    """
    configured = settings()
    session_slots = store_for(directory, "jobs", size_limit=2**26)
    if celery_app is not None:
        return _CeleryManager(celery_app, slots=JobSlots(session_slots, configured.jobs_per_session,
                                                         per_address=configured.jobs_per_address))
    server_slots = store_for(directory, "jobs", shared_url="", size_limit=2**26)
    return _DiskcacheManager(_HandoverCache(str(pathlib.Path(directory) / "dash"), **DISKCACHE_OPTIONS),
                             slots=JobSlots(session_slots, configured.jobs_per_session, server_slots,
                                            configured.jobs_per_server, configured.jobs_per_address))
