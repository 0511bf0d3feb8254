"""The result cache and its one key: computed runs and studies, kept on disk across restarts.

A request (a run, a sweep, a comparison, a normalization study) is a frozen value with
``to_dict()`` and a ``KIND``; its result type turns itself into plain values and arrays
(:mod:`lab.store.serialization`). :func:`cache_key` hashes the request's canonical JSON with
:data:`CODE_VERSION`, the hash of every source file that produces a cached value (:data:`SOURCES`:
``datasets/``, ``algorithms/``, ``measures/`` and the computing modules of ``lab/``, not its tours'
texts, links or files) and of the versions of the packages that shape a result: results survive
restarts but never outlive the code that made them. A sweep's (algorithm, k) cell
is the explore run of the same request, so the two share one entry.

Entries are written once, whole, after the computation returns; a cancelled, failed or killed
computation stores nothing. Every entry carries a checksum verified on read: an entry that fails it
(bytes overwritten, truncated) or does not decode is deleted, logged and computed again.
"""

import hashlib
import importlib.metadata
import json
import logging
import pathlib

from settings import settings

from .serialization import CorruptEntryError, decode, encode
from .stores import DiskStore, store_for

__all__ = ["CODE_VERSION", "ResultCache", "cache_directory", "cache_key", "code_version", "host_results",
           "package_versions", "results_bytes"]

logger = logging.getLogger(__name__)

_ROOT = pathlib.Path(__file__).resolve().parents[2]
# The code that computes a cached value: the libraries, and the modules of lab/ that describe, compute or
# encode a run or a study. components/ only draws, and the rest of lab/ (PRESENTATION_MODULES) words and
# links what was computed: editing a tour's sentence or a link key must not discard every result.
SOURCES = ("datasets", "algorithms", "measures", "lab/compute/catalogue.py", "lab/compute/choices.py",
           "lab/compute/normalization.py", "lab/compute/pairs.py", "lab/compute/runs.py", "lab/compute/shapes.py",
           "lab/compute/seed_noise.py", "lab/compute/stability.py", "lab/compute/studies.py", "lab/compute/study.py",
           "lab/compute/yardsticks.py", "lab/store/serialization.py", "lab/tours/steps.py", "lab/view/state.py")
# lab/'s other modules: storage, the key itself, the tours' texts and claims, links, files, what the views draw,
# the command line (it caches through the computing modules) and its judging of files, the find box's queries,
# and the rooms' docstrings.
PRESENTATION_MODULES = ("lab/__init__.py", "lab/__main__.py", "lab/compute/__init__.py", "lab/compute/commands.py",
                        "lab/compute/find.py", "lab/compute/judge.py", "lab/compute/views.py", "lab/store/__init__.py",
                        "lab/store/cache.py", "lab/store/stores.py", "lab/store/uploads.py", "lab/tours/__init__.py",
                        "lab/tours/__main__.py", "lab/tours/authoring.py", "lab/tours/goldberg_ritov.py",
                        "lab/tours/lecture.py", "lab/tours/mlle.py", "lab/tours/nieqa.py", "lab/tours/prepare.py",
                        "lab/tours/presets.py", "lab/tours/price_of_normalization.py", "lab/view/__init__.py",
                        "lab/view/exports.py", "lab/view/links.py", "lab/view/notebook.py")
# Installed packages whose versions shape results (a missing optional one is recorded as absent).
RESULT_PACKAGES = ("numpy", "scipy", "scikit-learn", "threadpoolctl")
# Results are kept a week after their last use; the code version invalidates them sooner.
EXPIRE_SECONDS = 7 * 24 * 3600
# A partial result (a run's input or embedding before its measures) is kept until the run ends, or this long.
PARTIAL_EXPIRE_SECONDS = 3600
# A computation's lock lapses this long after its holder stops renewing it (its process died).
COMPUTE_LEASE_SECONDS = 6.0
# How long a request waits for an identical one's computation: longer than any job may run, since the
# waiting job's own deadline (PROCRUSTES_JOB_DEADLINE) is what bounds it.
COMPUTE_WAIT_SECONDS = 24 * 3600.0


def package_versions(packages=RESULT_PACKAGES):
    """``{package: version}`` of the installed ``packages`` (``"absent"`` when one is not installed)."""
    versions = {}
    for package in packages:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "absent"
    return versions


def code_version(root=_ROOT, sources=SOURCES):
    """Hash of the ``sources`` under ``root`` (folders: every ``.py`` file below them) and of :func:`package_versions`.

    Parameters
    ----------
    root : path-like
        The checkout (the tests hash a modified copy of it).
    sources : sequence of str
        Folders and files relative to ``root`` (:data:`SOURCES`).

    Returns
    -------
    str
        16 hex digits; equal for equal sources and package versions.
    """
    root = pathlib.Path(root)
    digest = hashlib.sha256()
    paths = (root / source for source in sources)
    for path in sorted(p for path in paths for p in (path.rglob("*.py") if path.is_dir() else [path])):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    for package, version in package_versions().items():
        digest.update(f"{package}=={version}".encode())
    return digest.hexdigest()[:16]


CODE_VERSION = code_version()


def cache_key(request):
    """The one cache key: a hash of the request's kind, its canonical JSON and the code version.

    Parameters
    ----------
    request : object
        With a ``KIND`` (str) and ``to_dict()`` holding everything that determines the result;
        UI-only values (button clicks, the colouring) never enter it.

    Returns
    -------
    str
        64 hex digits.
    """
    canonical = json.dumps(request.to_dict(), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(f"{CODE_VERSION}:{request.KIND}:{canonical}".encode()).hexdigest()


def _partial_key(request):
    """Where a partial result of ``request`` is kept, beside (never as) its result."""
    return f"partial:{cache_key(request)}"


def cache_directory(path=None):
    """The cache directory: ``path``, else ``PROCRUSTES_CACHE_DIR`` (``./cache`` in the repository).

    The dashboard's background jobs, its result cache and its uploads live there (one folder per kind).
    """
    return pathlib.Path(path or settings().cache_dir)


def results_bytes():
    """Bytes this host's result store may hold, least recently used runs out first (``PROCRUSTES_CACHE_GB``)."""
    return int(settings().cache_gb * 2**30)


def host_results(directory=None, *, shared_url=None):
    """The result cache the dashboard computes into: ``results/`` under :func:`cache_directory`, shared
    across hosts through ``shared_url`` (default ``PROCRUSTES_STORE_URL``; see :func:`lab.store.stores.store_for`).

    The page, its jobs and ``python -m lab.tours prepare`` open it alike, so a run computed by one
    is read by the others.
    """
    return ResultCache(store_for(cache_directory(directory), "results", shared_url=shared_url,
                                 size_limit=results_bytes()))


class ResultCache:
    """Computed results keyed by :func:`cache_key`, with hit and computation counters.

    Parameters
    ----------
    store : DiskStore or path-like
        Where the bytes live; a path makes a :class:`~lab.store.stores.DiskStore` there.

    Notes
    -----
    A request type names its result type as ``RESULT``, which provides ``to_value()`` and
    ``from_value(value)``.
    """

    def __init__(self, store):
        self.store = store if hasattr(store, "get") else DiskStore(store, name="the result store")
        # Partial results change while a job runs on any host: never a host's copy (a tiered store's local side
        # kept a run's first part, and wrote it back to the shared side after the whole result replaced it).
        self._partials = getattr(self.store, "shared", self.store)

    @property
    def directory(self):
        """The disk folder of the store (local stores only)."""
        return self.store.directory

    def _read(self, key, result_type, store=None):
        """The decoded entry under ``key`` (in ``store``, by default the cache's), or None; a damaged entry is
        deleted (logged) and reads as None."""
        store = self.store if store is None else store
        stored = store.get(key)
        if stored is None:
            return None
        try:
            return result_type.from_value(decode(stored))
        except (CorruptEntryError, KeyError, TypeError, ValueError) as error:
            logger.warning("Result cache entry %s is damaged (%s); deleted, it will be computed again.", key, error)
            store.delete(key)
            return None

    def get(self, request):
        """The cached result of ``request``, or None (nothing is computed)."""
        key = cache_key(request)
        result = self._read(key, request.RESULT)
        if result is not None:
            self.store.touch(key, expire=EXPIRE_SECONDS)
        return result

    def holds(self, request):
        """Whether ``request``'s result is in the cache, without decoding it or renewing its expiry."""
        return self.holding([request])[0]

    def holding(self, requests):
        """Whether each of ``requests`` has its result in the cache (a list), without decoding them or renewing
        their expiry. For small entries (a tour step's numbers): the store reads the entries' bytes, in one
        opening (the tours' index asks for all 29 steps at every page load: 0.6 s one by one).
        """
        return self.store.present([cache_key(request) for request in requests])

    def get_or_compute(self, request, compute):
        """The cached result of ``request``, or ``compute(request)`` stored under its key.

        Returns
        -------
        result : object
        cached : bool
            Whether the result came from the store.

        An exception from ``compute`` (bad input, a cancelled job) propagates and stores nothing, as
        does a process killed during ``compute``: the entry is written only after it returns. A result
        whose ``cacheable`` attribute is False (a study with a failed part) is returned, not kept.

        Identical requests share one computation: the first takes the key's lock (a lease, renewed
        while it computes, lapsing :data:`COMPUTE_LEASE_SECONDS` after its process dies) and the
        others wait for it, then read its result (four identical requests were four computations).
        A waiter is bounded by its own job's deadline.
        """
        result = self._hit(request)
        if result is not None:
            return result, True
        with self.store.lock(f"computing:{cache_key(request)}", wait=COMPUTE_WAIT_SECONDS,
                             lease=COMPUTE_LEASE_SECONDS):
            result = self._hit(request)  # computed by the holder while this one waited
            if result is not None:
                return result, True
            try:
                result = compute(request)
                if getattr(result, "cacheable", True):
                    self.store.put(cache_key(request), encode(result.to_value()), expire=EXPIRE_SECONDS)
            finally:  # whole, failed or stopped: no part of it is drawn any more (a late one covered a failure)
                self.drop_partial(request)
        self.store.add("stats:computed")
        return result, False

    def put_partial(self, request, result):
        """Keep ``result``, a part of ``request``'s (:func:`lab.compute.study.compute`'s ``partial``), for the
        page that draws it while the rest is computed; the whole result replaces it (:meth:`get_or_compute`)."""
        self._partials.put(_partial_key(request), encode(result.to_value()), expire=PARTIAL_EXPIRE_SECONDS)

    def get_partial(self, request):
        """The latest partial result of ``request`` being computed, or None."""
        return self._read(_partial_key(request), request.RESULT, self._partials)

    def drop_partial(self, request):
        """Forget the partial result of ``request``: its computation ended (whole, failed, stopped, or its process
        lost), and no part of it is to be drawn any more."""
        self._partials.delete(_partial_key(request))

    def holds_partial(self, request):
        """Whether a partial result of ``request`` is kept: False once the whole result replaced it."""
        return self._partials.present([_partial_key(request)])[0]

    def _hit(self, request):
        """The cached result of ``request``, counted as a hit, or None."""
        result = self.get(request)
        if result is not None:
            self.store.add("stats:hits")
        return result

    def stats(self):
        """``{"hits": int, "computed": int}``: how often a request was served from the store or computed."""
        return {"hits": self.store.add("stats:hits", 0), "computed": self.store.add("stats:computed", 0)}
