"""Background work and caching: the Dash background-callback manager and the one cache key.

Background jobs run on one of two Dash managers, chosen once when the app is built:

- embedded (default): :class:`~dash.DiskcacheManager`, each job a forked process of the web
  server, its hand-over (progress and output, deleted once the page has read them) in ``dash/``
  under the cache directory;
- Celery mode (``REDIS_URL``): :class:`~dash.CeleryManager`, jobs run by ``celery -A worker worker``
  processes, the hand-over in Redis (the Celery result backend). See :func:`make_celery_app`.

Computed runs live in :class:`ResultCache` under ``results/`` in the cache directory
(``PROCRUSTES_CACHE_DIR``, default ``./cache``), keyed by :func:`cache_key` (request plus code
version) and shared by the explore view and the sweeps: a sweep's (algorithm, k) cell is the explore
run of the same request. Results survive restarts but never outlive the code that made them. In
Celery mode the workers write the results and the web server reads them (the hovered point's
image), so both must see the same directory: one host, or a volume all of them mount. Results stay on
disk rather than in Redis: a run holds its input and output arrays (megabytes for an image data
set) and is kept a week, which Redis would hold in memory; the hand-over Dash keeps in Redis is a
few kilobytes of JSON, deleted once read.

The manager gets no ``cache_by``: Dash would then replay a stored *output* (stale run time and all)
while still spawning a job that races to record the hit; caching the computation instead keeps one
cache, one key, and an exact record of hits. Nothing a cancelled, failed or killed job half-wrote is
kept: an entry is written once, whole, after the computation returns (diskcache writes the value
file, then inserts its row in one transaction). An entry that cannot be read back (a value file
deleted, truncated or overwritten) is deleted and recomputed; a store whose SQLite database is
corrupt is moved aside and started anew. Both are logged as warnings.
"""

import hashlib
import importlib.metadata
import json
import logging
import os
import pathlib
import sqlite3
import threading
import time

import diskcache
import psutil
from celery import Celery
from dash import CeleryManager, DiskcacheManager

__all__ = ["CODE_VERSION", "ResultCache", "cache_directory", "cache_key", "make_background_manager",
           "make_celery_app"]

logger = logging.getLogger(__name__)

_ROOT = pathlib.Path(__file__).resolve().parents[1]
_LIBRARIES = ("datasets", "algorithms", "measures")
_PACKAGES = ("numpy", "scipy", "scikit-learn", "dash", "plotly")
# Results are kept a week after their last use; the code version invalidates them sooner.
EXPIRE_SECONDS = 7 * 24 * 3600
_DATABASE = "cache.db"  # diskcache's SQLite file inside a store's directory


def _code_version():
    """Hash of the library sources, the run pipeline and the package versions that shape a result."""
    digest = hashlib.sha256()
    sources = sorted(p for name in _LIBRARIES for p in (_ROOT / name).rglob("*.py"))
    for path in [*sources, _ROOT / "components" / "runs.py"]:
        digest.update(path.relative_to(_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    for package in _PACKAGES:
        digest.update(f"{package}=={importlib.metadata.version(package)}".encode())
    return digest.hexdigest()[:16]


CODE_VERSION = _code_version()


def cache_directory(path=None):
    """The cache directory: ``path``, else ``$PROCRUSTES_CACHE_DIR``, else ``./cache`` in the repository."""
    return pathlib.Path(path or os.environ.get("PROCRUSTES_CACHE_DIR") or _ROOT / "cache")


def cache_key(request):
    """The one cache key: a hash of the canonical JSON of ``request`` and the code version.

    ``request`` holds everything that determines the result (data set and its parameters, seed,
    algorithm and its parameters, k, ...); UI-only values such as button clicks never enter it.

    Examples
    --------
    >>> cache_key({"k": 10, "algorithm": "isomap"}) == cache_key({"algorithm": "isomap", "k": 10})
    True
    """
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(f"{CODE_VERSION}:{canonical}".encode()).hexdigest()


def _is_corruption(error):
    """Whether an SQLite error means a damaged database file (not a lock, a full disk, a missing folder).

    ``sqlite3.OperationalError`` (locked, I/O, cannot open) subclasses ``DatabaseError`` but is no
    proof of damage; "file is not a database" and "database disk image is malformed" are plain
    ``DatabaseError``.
    """
    return isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.OperationalError)


def _database_is_corrupt(path):
    """Whether the SQLite file at ``path`` is proven damaged: it fails to open or ``PRAGMA quick_check``.

    A missing file (another process moved it aside) or an inconclusive error (a lock) is no proof.
    """
    if not path.exists():
        return False
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            return connection.execute("PRAGMA quick_check").fetchone() != ("ok",)
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        return _is_corruption(error)


class ResultCache:
    """Computed results on disk, keyed by :func:`cache_key`, with hit and computation counters.

    Parameters
    ----------
    directory : path-like
        Folder of the diskcache store (created if missing); several processes may share it, on one
        host or a volume they all mount.

    Notes
    -----
    The store is opened per use: a background job runs in a forked process (or a Celery worker),
    and SQLite handles must not cross a fork. Each use survives the store being damaged under it:

    - a value that cannot be read back (its file deleted, truncated or overwritten) is deleted with
      a warning and counts as a miss, so the request is computed again;
    - a corrupt SQLite database makes the whole store move aside, to a sibling folder
      ``<directory>.corrupt-<time>-<pid>`` kept for inspection (delete it to reclaim the space),
      with a warning; the use is retried once on a new, empty store;
    - a deleted directory is created anew by the next use.
    """

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)

    def _use(self, operation):
        """``operation(cache)`` on the open store; a corrupt store is moved aside and the call retried once."""
        for attempt in range(2):
            try:
                with diskcache.Cache(str(self.directory)) as cache:
                    return operation(cache)
            except sqlite3.DatabaseError as error:
                if attempt or not _is_corruption(error):
                    raise
                self._move_corrupt_store_aside(error)

    def _move_corrupt_store_aside(self, error):
        """Rename the store's folder (database and value files together) so the next use starts afresh.

        Two processes may find the same damage: the database is checked again just before the
        rename, so the second one leaves the store the first one recreated alone. (A narrow race
        remains in which a just-recreated store is moved aside too; it costs recomputations only.)
        """
        if not _database_is_corrupt(self.directory / _DATABASE):
            return
        stamp = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        aside = self.directory.with_name(f"{self.directory.name}.corrupt-{stamp}")
        try:
            self.directory.rename(aside)
        except FileNotFoundError:  # another process moved it first
            return
        logger.warning("Result cache database %s is corrupt (%s); moved the store to %s and started an empty "
                       "one: results will be recomputed. Delete %s once inspected.",
                       self.directory / _DATABASE, error, aside, aside)

    def _read(self, cache, key):
        """The value under ``key``, or None if absent or unreadable (an unreadable entry is deleted)."""
        try:
            value = cache.get(key, default=None, retry=True)
        except sqlite3.Error:
            raise  # the database itself: handled by _use
        except Exception as error:  # noqa: BLE001 - unpickling damaged bytes may raise almost any type
            # (the pickle docs name UnpicklingError, EOFError, AttributeError, ImportError, IndexError
            # "and others"); whatever it is, the entry is useless and the request is computed again.
            logger.warning("Result cache entry %s in %s is unreadable (%s: %s); deleted, it will be recomputed.",
                           key, self.directory, type(error).__name__, error)
            cache.delete(key, retry=True)
            return None
        if value is None and key in cache:
            # diskcache answers a missing value file with the default but keeps the row.
            logger.warning("Result cache entry %s in %s lost its value file; deleted, it will be recomputed.",
                           key, self.directory)
            cache.delete(key, retry=True)
        return value

    def get_or_compute(self, request, compute):
        """The cached result of ``request``, or ``compute(request)`` stored under its key.

        Returns
        -------
        result : object
        cached : bool
            Whether the result came from disk.

        An exception from ``compute`` (bad input, a cancelled job) propagates and stores nothing, as
        does a process killed during ``compute``: the entry is written only after it returns.
        """
        key = cache_key(request)

        def read(cache):
            result = self._read(cache, key)
            if result is not None:
                cache.incr("stats:hits", retry=True)
                cache.touch(key, expire=EXPIRE_SECONDS, retry=True)
            return result

        result = self._use(read)
        if result is not None:
            return result, True
        result = compute(request)

        def write(cache):
            cache.set(key, result, expire=EXPIRE_SECONDS, retry=True)
            cache.incr("stats:computed", retry=True)

        self._use(write)
        return result, False

    def get(self, request):
        """The cached result of ``request``, or None (nothing is computed)."""
        key = cache_key(request)
        return self._use(lambda cache: self._read(cache, key))

    def stats(self):
        """``{"hits": int, "computed": int}``: how often a request was served from disk or computed."""
        return self._use(lambda cache: {"hits": cache.get("stats:hits", 0), "computed": cache.get("stats:computed", 0)})


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
