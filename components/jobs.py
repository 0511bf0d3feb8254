"""Background work and caching: the Dash background-callback manager and the one cache key.

Two disk stores live under one directory (``PROCRUSTES_CACHE_DIR``, default ``./cache``):

- ``dash/``: Dash's :class:`~dash.DiskcacheManager` hand-over store (a job's progress and output,
  deleted once the page has read them).
- ``results/``: :class:`ResultCache`, computed runs keyed by :func:`cache_key` (request plus code
  version), shared by the explore view and the sweeps: a sweep's (algorithm, k) cell is the explore
  run of the same request. Results survive restarts but never outlive the code that made them.

The manager gets no ``cache_by``: Dash would then replay a stored *output* (stale run time and all)
while still spawning a job that races to record the hit; caching the computation instead keeps one
cache, one key, and an exact record of hits. Nothing a cancelled or failed job half-wrote is kept:
an entry is written once, whole, after the computation returns (diskcache writes are atomic).
"""

import hashlib
import importlib.metadata
import json
import os
import pathlib

import diskcache
from dash import DiskcacheManager

__all__ = ["CODE_VERSION", "ResultCache", "cache_directory", "cache_key", "make_background_manager"]

_ROOT = pathlib.Path(__file__).resolve().parents[1]
_LIBRARIES = ("datasets", "algorithms", "measures")
_PACKAGES = ("numpy", "scipy", "scikit-learn", "dash", "plotly")
# Results are kept a week after their last use; the code version invalidates them sooner.
EXPIRE_SECONDS = 7 * 24 * 3600


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


class ResultCache:
    """Computed results on disk, keyed by :func:`cache_key`, with hit and computation counters.

    Parameters
    ----------
    directory : path-like
        Folder of the diskcache store (created if missing); several processes may share it.
    """

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)

    def _open(self):
        # Opened per use: a background job runs in a forked process, and SQLite handles must not
        # cross a fork.
        return diskcache.Cache(str(self.directory))

    def get_or_compute(self, request, compute):
        """The cached result of ``request``, or ``compute(request)`` stored under its key.

        Returns
        -------
        result : object
        cached : bool
            Whether the result came from disk.

        An exception from ``compute`` (bad input, a cancelled job) propagates and stores nothing.
        """
        key = cache_key(request)
        with self._open() as cache:
            result = cache.get(key, default=None, retry=True)
            if result is not None:
                cache.incr("stats:hits", retry=True)
                cache.touch(key, expire=EXPIRE_SECONDS, retry=True)
                return result, True
        result = compute(request)
        with self._open() as cache:
            cache.set(key, result, expire=EXPIRE_SECONDS, retry=True)
            cache.incr("stats:computed", retry=True)
        return result, False

    def get(self, request):
        """The cached result of ``request``, or None (nothing is computed)."""
        with self._open() as cache:
            return cache.get(cache_key(request), default=None, retry=True)

    def stats(self):
        """``{"hits": int, "computed": int}``: how often a request was served from disk or computed."""
        with self._open() as cache:
            return {"hits": cache.get("stats:hits", 0), "computed": cache.get("stats:computed", 0)}


def make_background_manager(directory):
    """Dash's disk-backed background manager (job hand-over only; see the module docstring)."""
    return DiskcacheManager(diskcache.Cache(str(pathlib.Path(directory) / "dash")))
