"""Byte stores under the result cache and the upload store: bounded waits, damage set aside.

A store maps string keys to bytes with an expiry. :class:`DiskStore` keeps them in a diskcache
folder (SQLite index plus value files) that several processes on one host may share. Every
operation waits for SQLite's lock at most ``timeout`` seconds in all, then raises
:class:`StoreUnavailableError`: a folder that turned read-only, or a lock held forever, ends a job
with a message instead of spinning. A database proven corrupt is moved aside (kept for inspection)
and the operation retried once on a fresh store.
"""

import logging
import os
import pathlib
import sqlite3
import time

import diskcache

import measures

__all__ = ["DiskStore", "StoreUnavailableError"]

logger = logging.getLogger(__name__)

_DATABASE = "cache.db"  # diskcache's SQLite file inside a store's directory
# Seconds an operation may wait for the lock, in all; each attempt waits SQLite's busy timeout.
DEFAULT_TIMEOUT = 30.0
_ATTEMPT_TIMEOUT = 1.0


class StoreUnavailableError(measures.ProcrustesLabError, RuntimeError):
    """A store that cannot be read or written now (lock held too long, folder read-only, disk full)."""


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

    Notes
    -----
    The store is opened per operation: background jobs run in forked processes (or Celery
    workers), and SQLite handles must not cross a fork.
    """

    def __init__(self, directory, *, size_limit=2**30, eviction_policy="least-recently-used",
                 timeout=DEFAULT_TIMEOUT):
        self.directory = pathlib.Path(directory)
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
                    raise StoreUnavailableError(f"The store {self.directory} cannot be used ({error}).") from error
                self._move_corrupt_store_aside(error)

    def _with_lock_deadline(self, operation, deadline):
        while True:
            try:
                with diskcache.Cache(str(self.directory), timeout=_ATTEMPT_TIMEOUT, size_limit=self.size_limit,
                                     eviction_policy=self.eviction_policy) as cache:
                    return operation(cache)
            except (diskcache.Timeout, sqlite3.OperationalError) as error:
                # A lock (diskcache's Timeout, or SQLite's "locked" while opening) is waited for until
                # the deadline; a read-only folder, a full disk or an I/O error ends the operation now.
                locked = isinstance(error, diskcache.Timeout) or "locked" in str(error)
                if not locked:
                    raise StoreUnavailableError(f"The store {self.directory} cannot be used ({error}).") from error
                if time.monotonic() >= deadline:
                    raise StoreUnavailableError(
                        f"The store {self.directory} stayed locked for {self.timeout:g} s; try again shortly.") \
                        from error
            except OSError as error:  # the folder cannot be created or written
                raise StoreUnavailableError(f"The store {self.directory} cannot be used ({error}).") from error

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

    def transact(self, operation):
        """``operation(cache)`` inside one SQLite transaction: a read-modify-write no other process splits."""
        def run(cache):
            with cache.transact():
                return operation(cache)
        return self._use(run)
