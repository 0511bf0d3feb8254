"""Byte stores under the result cache, the upload store and the job ledger: bounded waits, damage set aside.

A store maps string keys to bytes with an expiry (``get``, ``put``, ``touch``, ``delete``, counters
with ``add``, a cross-process ``lock``, ``volume``). :class:`DiskStore` keeps them in a diskcache
folder (SQLite index plus value files) that several processes on one host may share;
:class:`RedisStore` in Redis, which every host reaches; :class:`TieredStore` puts a host's disk in
front of Redis (Celery across machines). :func:`store_for` picks one from the configuration. Every
operation waits for SQLite's lock at most ``timeout`` seconds in all, then raises
:class:`StoreUnavailableError`: a folder that turned read-only, or a lock held forever, ends a job
with a message instead of spinning. A database proven corrupt is moved aside (kept for inspection)
and the operation retried once on a fresh store.

The page shows a :class:`StoreUnavailableError`'s message, so it names the store by what it holds
("the shared result store") and says what to do; the folder, the Redis URL (with its password) and
the underlying error go to the server log only.
"""

import contextlib
import errno
import logging
import math
import os
import pathlib
import sqlite3
import threading
import time
import urllib.parse

import diskcache

import measures
from settings import settings

__all__ = ["DiskStore", "LockTakenError", "RedisStore", "StoreUnavailableError", "TieredStore", "no_fork_inside",
           "store_for"]

logger = logging.getLogger(__name__)

_DATABASE = "cache.db"  # diskcache's SQLite file inside a store's directory
# Options of every diskcache this app opens (its stores and Dash's hand-over). No memory map of the
# SQLite file (diskcache maps 64 MiB by default): a mapped page that the disk can no longer back (the
# file truncated or damaged, its filesystem gone or full) kills the reading process with SIGBUS,
# which took the web server down with a job's first poll. Unmapped, SQLite reads with read(2) and
# such a page is an error or a stale read, never a signal.
DISKCACHE_OPTIONS = {"sqlite_mmap_size": 0}
# Seconds an operation may wait for the lock, in all; each attempt waits SQLite's busy timeout.
DEFAULT_TIMEOUT = 30.0
_ATTEMPT_TIMEOUT = 1.0


# Held while this process has a store's SQLite connection open. A fork waits for it (and the child starts
# with a fresh one): SQLite's per-process lock records would otherwise cross into the child, which then
# waits for a lock nobody holds (a background job forked while a request thread read the result store
# hung for a minute on its first write).
_OPEN = threading.RLock()


def _renew_after_fork_in_child():
    global _OPEN
    _OPEN = threading.RLock()


os.register_at_fork(before=lambda: _OPEN.acquire(), after_in_parent=lambda: _OPEN.release(),
                    after_in_child=_renew_after_fork_in_child)


@contextlib.contextmanager
def no_fork_inside():
    """Hold off a fork of this process while the block runs (SQLite calls of any other on-disk store).

    A fork in the middle of another thread's SQLite call hands the child a mutex that no thread of
    the child will release: a job forked while a request thread used Dash's hand-over store hung
    for good on its first store operation.
    """
    with _OPEN:
        yield


class StoreUnavailableError(measures.ProcrustesLabError, RuntimeError):
    """A store that cannot be read or written now (lock held too long, folder read-only, disk full).

    Its message is the page's: it names the store and what to do, never a path, a URL or a password.
    """


# Human names of the stores, by prefix (the page reads them; paths and URLs stay in the log).
STORE_NAMES = {"results": "result store", "uploads": "upload store", "jobs": "job ledger"}
_TRY_AGAIN = "Try again in a few minutes; if it persists, tell the site's administrator (the server log has the cause)."


def _reason(error):
    """Why ``error`` makes a store unusable, in words that name no path: full, read-only, unreachable."""
    text = str(error).lower()
    code = getattr(error, "errno", None)
    if code in (errno.ENOSPC, errno.EDQUOT) or "full" in text or "oom" in text or "maxmemory" in text:
        return "is full"
    if code == errno.EROFS or "readonly" in text or "read-only" in text or code == errno.EACCES:
        return "is read-only at the moment"
    if isinstance(error, (ConnectionError, TimeoutError)) or "connect" in text or "timeout" in text:
        return "cannot be reached"
    return "cannot be read or written at the moment"


def unavailable(name, where, error):
    """A :class:`StoreUnavailableError` for the page, the store's location and ``error`` logged.

    Parameters
    ----------
    name : str
        What the store holds ("the shared result store").
    where : str
        Its folder or redacted URL: logged, never in the message.
    error : BaseException
        The cause, logged; its text may name ``where``.
    """
    logger.error("%s (%s) cannot be used: %s: %s", name, where, type(error).__name__, error)
    return StoreUnavailableError(f"{name[0].upper()}{name[1:]} {_reason(error)}. {_TRY_AGAIN}")


class LockTakenError(StoreUnavailableError):
    """A lock that another holder kept past the wait: the store works, the lock is taken (a queue, not a failure)."""


def busy(name, where, seconds):
    """A :class:`LockTakenError` for a lock held past ``seconds`` (its name may hold a session: not shown).

    A wait of 0 (a try: a queued job looking for a free slot) is no news and is not logged.
    """
    if seconds:
        logger.warning("%s (%s) stayed locked for %g s", name, where, seconds)
    return LockTakenError(f"{name[0].upper()}{name[1:]} stayed locked for {seconds:g} s; try again shortly.")


def redacted(url):
    """``url`` without its password (for the log): ``redis://:***@host:6379/1``."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def _is_corruption(error):
    """Whether an SQLite error means a damaged database file (not a lock, a full disk, a missing folder).

    ``sqlite3.OperationalError`` (locked, I/O, cannot open, read-only) subclasses ``DatabaseError``
    but is no proof of damage; "file is not a database" and "database disk image is malformed" are
    plain ``DatabaseError``.
    """
    return isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.OperationalError)


def _database_is_corrupt(path):
    """Whether the SQLite file at ``path`` is proven damaged: it fails to open or ``PRAGMA quick_check``."""
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


@contextlib.contextmanager
def held(acquire, renew, release, *, wait, lease, default_hold, refusal):
    """A lock of a store, taken within ``wait`` seconds, held for the block: the one protocol of every store.

    Parameters
    ----------
    acquire, renew : callable
        ``acquire(hold)`` takes the lock for ``hold`` seconds unless another holds it (True if taken);
        ``renew(hold)`` extends this holder's.
    release : callable
        Lets it go (if still this holder's).
    wait : float
        Seconds to wait for it, in all.
    lease : float, optional
        Without it the lock lapses ``default_hold`` seconds after it was taken (a short critical
        section). With it, the lock lapses ``lease`` seconds after this process stops renewing it (a
        thread renews it meanwhile): a computation may hold it for minutes, and a holder that dies
        (killed, out of memory) frees it within ``lease`` seconds instead of blocking the others.
    default_hold : float
    refusal : callable
        ``refusal(wait)``: the error raised when the wait ends without the lock.
    """
    hold = lease or default_hold
    deadline, pause = time.monotonic() + wait, 0.02
    while not acquire(hold):
        if time.monotonic() > deadline:
            raise refusal(wait)
        time.sleep(pause)
        pause = min(2 * pause, 0.5)  # a long wait (another job's computation) polls the store gently
    stop = threading.Event()
    renewer = threading.Thread(target=_renew_until, args=(stop, renew, hold), daemon=True) if lease else None
    if renewer:
        renewer.start()
    try:
        yield
    finally:
        stop.set()
        if renewer:
            renewer.join()
        try:
            release()
        except StoreUnavailableError as error:  # the block's own outcome stands; the lock lapses by itself
            logger.warning("a lock could not be released and will lapse in %g s: %s", hold, error)


def _renew_until(stop, renew, hold):
    """Renew a lease every third of ``hold`` until ``stop``; a store that fails lets it lapse (logged)."""
    while not stop.wait(hold / 3):
        try:
            renew(hold)
        except StoreUnavailableError as error:
            logger.warning("a lease could not be renewed and will lapse: %s", error)
            return


class DiskStore:
    """Bytes in a diskcache folder, shared by the processes of one host.

    Parameters
    ----------
    directory : path-like
        Created if missing.
    size_limit : int
        Bytes the folder may hold; beyond it diskcache evicts by ``eviction_policy``.
    eviction_policy : str
        diskcache's policy: ``"least-recently-used"`` for results (recomputable), ``"none"`` for
        uploads (a full store refuses new files instead of evicting someone else's).
    timeout : float
        Seconds an operation may wait for the lock, in all.
    name : str
        What the store holds, for the page's messages ("the result store").

    Notes
    -----
    The store is opened per operation: background jobs run in forked processes (or Celery
    workers), and SQLite handles must not cross a fork.
    """

    def __init__(self, directory, *, size_limit=2**30, eviction_policy="least-recently-used",
                 timeout=DEFAULT_TIMEOUT, name="the cache store"):
        self.directory = pathlib.Path(directory)
        self.name = name
        self.size_limit = int(size_limit)
        self.eviction_policy = eviction_policy
        self.timeout = float(timeout)

    def _use(self, operation):
        """``operation(cache)`` with a bounded wait for the lock; a corrupt store is set aside once."""
        deadline = time.monotonic() + self.timeout
        for attempt in range(2):
            try:
                return self._with_lock_deadline(operation, deadline)
            except sqlite3.DatabaseError as error:
                if attempt or not _is_corruption(error):
                    raise unavailable(self.name, self.directory, error) from error
                self._move_corrupt_store_aside(error)

    def _with_lock_deadline(self, operation, deadline):
        while True:
            try:
                with _OPEN, diskcache.Cache(str(self.directory), timeout=_ATTEMPT_TIMEOUT, size_limit=self.size_limit,
                                            eviction_policy=self.eviction_policy, **DISKCACHE_OPTIONS) as cache:
                    return operation(cache)
            except (diskcache.Timeout, sqlite3.OperationalError) as error:
                # A lock (diskcache's Timeout, or SQLite's "locked" while opening) is waited for until
                # the deadline; a read-only folder, a full disk or an I/O error ends the operation now.
                locked = isinstance(error, diskcache.Timeout) or "locked" in str(error)
                if not locked:
                    raise unavailable(self.name, self.directory, error) from error
                if time.monotonic() >= deadline:
                    raise busy(self.name, self.directory, self.timeout) from error
            except OSError as error:  # the folder cannot be created or written
                raise unavailable(self.name, self.directory, error) from error

    def _move_corrupt_store_aside(self, error):
        """Rename the store's folder so the next use starts afresh (a second finder leaves it alone)."""
        if not _database_is_corrupt(self.directory / _DATABASE):
            return
        stamp = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        aside = self.directory.with_name(f"{self.directory.name}.corrupt-{stamp}")
        try:
            self.directory.rename(aside)
        except FileNotFoundError:  # another process moved it first
            return
        logger.warning("Store database %s is corrupt (%s); moved the store to %s and started an empty one. "
                       "Delete %s once inspected.", self.directory / _DATABASE, error, aside, aside)

    def get(self, key):
        """The bytes under ``key``, or None. A row whose value file is gone reads as None (and is dropped)."""
        def read(cache):
            value = cache.get(key, default=None)
            if value is None and key in cache:  # diskcache answers a missing value file with the default
                cache.delete(key)
            return value
        return self._use(read)

    def present(self, keys):
        """Whether each of ``keys`` holds a value (its bytes read, as :meth:`get` reads them), in one opening
        of the store: each opening costs a SQLite connection, about 20 ms."""
        return self._use(lambda cache: [cache.get(key, default=None) is not None for key in keys])

    def put(self, key, value, *, expire=None):
        """Store ``value`` (bytes) under ``key``, expiring ``expire`` seconds after its last use."""
        self._use(lambda cache: cache.set(key, bytes(value), expire=expire))

    def touch(self, key, *, expire=None):
        """Restart the expiry of ``key``; False when it is absent."""
        return self._use(lambda cache: cache.touch(key, expire=expire))

    def delete(self, key):
        """Remove ``key`` if present."""
        self._use(lambda cache: cache.delete(key))

    def add(self, key, amount=1):
        """Add ``amount`` to the integer counter ``key`` (created at 0); returns the new value."""
        return self._use(lambda cache: cache.incr(key, amount, default=0))

    def volume(self):
        """Bytes the store holds now."""
        return self._use(lambda cache: cache.volume())

    def lock(self, name, *, wait=None, lease=None):
        """Hold the lock ``name`` among every process that uses this folder (:func:`held`)."""
        token, key = os.urandom(16), f"lock:{name}"
        return held(lambda hold: self._use(lambda cache: cache.add(key, token, expire=hold)),
                    lambda hold: self._use(lambda cache: cache.get(key) == token and cache.touch(key, expire=hold)),
                    lambda: self._use(lambda cache: cache.get(key) == token and cache.delete(key)),
                    wait=self.timeout if wait is None else wait, lease=lease, default_hold=self.timeout + 1,
                    refusal=lambda waited: busy(self.name, self.directory, waited))


class RedisStore:
    """Bytes in Redis under a key prefix: the store every host reaches (Celery across machines).

    Parameters
    ----------
    url : str
        ``redis://host:port/db``.
    prefix : str
        Namespace of this store's keys (``"results"``, ``"uploads"``, ``"jobs"``).
    timeout : float
        Seconds a command may take, and a lock may be waited for.
    name : str
        What the store holds, for the page's messages ("the shared result store").

    Notes
    -----
    Redis's own memory limit and eviction policy bound it (README: ``maxmemory``); a write Redis
    refuses (out of memory, unreachable) raises :class:`StoreUnavailableError`. The sizes of the
    values are kept in a hash beside them, so :meth:`volume` can say how much the prefix holds.
    """

    def __init__(self, url, prefix, *, timeout=DEFAULT_TIMEOUT, name="the shared store"):
        import redis

        self.url, self.prefix, self.timeout, self.name = url, prefix, float(timeout), name
        self._client = redis.Redis.from_url(url, socket_timeout=self.timeout, socket_connect_timeout=self.timeout,
                                            health_check_interval=10)
        self._errors = (redis.RedisError, OSError)

    def _key(self, key):
        return f"procrustes:{self.prefix}:{key}"

    def _run(self, operation):
        try:
            return operation(self._client)
        except self._errors as error:
            raise unavailable(self.name, f"{redacted(self.url)} {self.prefix}", error) from error

    def get(self, key):
        """The bytes under ``key``, or None."""
        return self._run(lambda client: client.get(self._key(key)))

    def present(self, keys):
        """Whether each of ``keys`` holds a value, in one round trip."""
        def exists(client):
            pipeline = client.pipeline()
            for key in keys:
                pipeline.exists(self._key(key))
            return [bool(found) for found in pipeline.execute()]
        return self._run(exists)

    def put(self, key, value, *, expire=None):
        """Store ``value`` (bytes) under ``key``, expiring ``expire`` seconds after its last use."""
        value = bytes(value)

        def write(client):
            pipeline = client.pipeline()
            pipeline.set(self._key(key), value, ex=None if expire is None else int(expire))
            pipeline.hset(self._key("sizes"), key, len(value))
            pipeline.execute()

        self._run(write)

    def touch(self, key, *, expire=None):
        """Restart the expiry of ``key``; False when it is absent."""
        if expire is None:
            return bool(self._run(lambda client: client.exists(self._key(key))))
        return bool(self._run(lambda client: client.expire(self._key(key), int(expire))))

    def delete(self, key):
        """Remove ``key`` if present."""
        self._run(lambda client: client.pipeline().delete(self._key(key)).hdel(self._key("sizes"), key).execute())

    def add(self, key, amount=1):
        """Add ``amount`` to the integer counter ``key`` (created at 0); returns the new value."""
        return int(self._run(lambda client: client.incrby(self._key(key), amount)))

    def volume(self):
        """Bytes the prefix holds now (sizes of values that have not expired; expired ones are forgotten)."""
        sizes = self._run(lambda client: client.hgetall(self._key("sizes")))
        keys = [key.decode() for key in sizes]
        alive = self._run(lambda client: [client.exists(self._key(key)) for key in keys]) if keys else []
        gone = [key for key, exists in zip(keys, alive) if not exists]
        if gone:
            self._run(lambda client: client.hdel(self._key("sizes"), *gone))
        return sum(int(sizes[key.encode()]) for key, exists in zip(keys, alive) if exists)

    def lock(self, name, *, wait=None, lease=None):
        """Hold the lock ``name`` among every process that uses this store (:func:`held`)."""
        token, key = os.urandom(16), self._key(f"lock:{name}")

        def renew(hold):
            return self._run(lambda client: client.get(key) == token and client.expire(key, math.ceil(hold)))

        return held(lambda hold: self._run(lambda client: client.set(key, token, nx=True, ex=math.ceil(hold))), renew,
                    lambda: self._run(lambda client: client.get(key) == token and client.delete(key)),
                    wait=self.timeout if wait is None else wait, lease=lease, default_hold=self.timeout + 1,
                    refusal=lambda waited: busy(self.name, f"{redacted(self.url)} {self.prefix}", waited))


class TieredStore:
    """A shared store (every host's) with a local disk store in front of it (this host's copy).

    Reads come from the local copy when it has one, else from the shared store (and are copied
    locally); writes go to both. Counters, locks and the volume are the shared store's.

    A local copy whose shared entry is gone (Redis lost it, or another host dropped it as damaged)
    is written back: otherwise this host answers "cached" while every other host finds nothing,
    and a run computed here could never be drawn there.
    """

    def __init__(self, local, shared):
        self.local, self.shared = local, shared

    @property
    def directory(self):
        return self.local.directory

    def get(self, key):
        value = self.local.get(key)
        if value is None:
            value = self.shared.get(key)
            if value is not None:
                self.local.put(key, value, expire=_LOCAL_COPY_SECONDS)
        elif not self.shared.touch(key):
            self.shared.put(key, value, expire=_LOCAL_COPY_SECONDS)  # the caller's touch sets its own expiry
        return value

    def present(self, keys):
        """Held here, or else in the shared store (nothing is copied: a presence, not a read)."""
        keys = list(keys)
        found = self.local.present(keys)
        missing = [key for key, here in zip(keys, found) if not here]
        elsewhere = dict(zip(missing, self.shared.present(missing))) if missing else {}
        return [here or elsewhere[key] for key, here in zip(keys, found)]

    def put(self, key, value, *, expire=None):
        self.shared.put(key, value, expire=expire)
        self.local.put(key, value, expire=expire if expire is not None else _LOCAL_COPY_SECONDS)

    def touch(self, key, *, expire=None):
        self.local.touch(key, expire=expire)
        return self.shared.touch(key, expire=expire)

    def delete(self, key):
        self.local.delete(key)
        self.shared.delete(key)

    def add(self, key, amount=1):
        return self.shared.add(key, amount)

    def volume(self):
        return self.shared.volume()

    def lock(self, name, *, wait=None, lease=None):
        return self.shared.lock(name, wait=wait, lease=lease)


# A local copy of a shared value is kept this long after its last use.
_LOCAL_COPY_SECONDS = 24 * 3600


def store_for(directory, prefix, *, shared_url=None, **options):
    """The store of one kind of value (``prefix``): on this host's disk under ``directory/prefix``, and,
    with ``shared_url`` (``PROCRUSTES_STORE_URL``, a Redis URL), in Redis with the disk in front.

    ``options`` go to the :class:`DiskStore` (its size limit and eviction policy).
    """
    what = STORE_NAMES.get(prefix, f"{prefix} store")
    shared_url = shared_url if shared_url is not None else settings().store_url
    if not shared_url:
        return DiskStore(pathlib.Path(directory) / prefix, name=f"the {what}", **options)
    local = DiskStore(pathlib.Path(directory) / prefix, name=f"this server's copy of the {what}", **options)
    return TieredStore(local, RedisStore(shared_url, prefix, name=f"the shared {what}"))
