"""What the page's callbacks and their jobs compute and read through: the stores under the cache directory.

- :class:`Services`: the result cache (``results/``), the upload store (``uploads/``) and the job ledger
  (``jobs/``), one set per app, built by :meth:`Services.in_directory` and handed to every tab's callbacks;
- :class:`JobLedger`: which background jobs started and which ended, so the page can tell a lost job from a
  slow one.

In Celery mode the workers write the results and the web server reads them, so both must see the same
directory (or the same shared store, ``PROCRUSTES_STORE_URL``). Nothing here knows Dash.
"""

import contextlib
import dataclasses
import logging

from lab import ResultCache, UploadStore
from lab.store.cache import host_results
from lab.store.stores import StoreUnavailableError, store_for

__all__ = ["JobLedger", "Services"]

logger = logging.getLogger(__name__)


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
