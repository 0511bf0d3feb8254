"""One study interface: every request the lab computes, one registry of their kinds, one :func:`compute`.

A request (a run, a sweep, a comparison, a pair, a stability or normalization study, a tour step)
is a frozen value that says everything its result depends on. Its class declares, in its body,

- ``KIND``: the registry's name of the request type and part of its cache key (:func:`lab.store.cache.cache_key`);
- ``RESULT``: its result type, with ``to_value()`` and ``from_value(value)`` (:mod:`lab.store.serialization`);

and provides ``to_dict()`` (plain JSON values: the canonical form the cache key hashes),
``from_dict(values)`` (the same request back, validated again: a browser or a file may send anything)
and ``_compute(*, cache, progress, uploads)``, the computation itself, which only :func:`compute`
calls. :func:`register` checks all of it when the class is defined.

A study computes its runs through :func:`compute` too, so a run shared by a sweep, a comparison, a
tour step and the explore view is computed once.
"""

import inspect
import typing

from .choices import StateError

__all__ = ["Computed", "REQUESTS", "compute", "held", "register", "request_from_dict"]

# Kind -> request type, filled as the request modules are imported (``import lab`` imports them all).
REQUESTS = {}


class Computed(typing.NamedTuple):
    """What :func:`compute` returns: the result, and whether it was read from the cache."""

    result: object
    cached: bool


def register(request_type):
    """Class decorator: add ``request_type`` to :data:`REQUESTS` under its ``KIND``, once it has the whole interface.

    Raises
    ------
    TypeError
        When the class lacks a part of the interface, or another type has its kind.
    """
    missing = [name for name in ("KIND", "RESULT", "to_dict", "from_dict", "_compute")
               if not hasattr(request_type, name)]
    missing += [f"RESULT.{name}" for name in ("to_value", "from_value")
                if hasattr(request_type, "RESULT") and not hasattr(request_type.RESULT, name)]
    if missing:
        raise TypeError(f"{request_type.__name__} lacks {', '.join(missing)} of the study interface.")
    if REQUESTS.get(request_type.KIND, request_type) is not request_type:
        raise TypeError(f"Two request types are of kind {request_type.KIND!r}.")
    REQUESTS[request_type.KIND] = request_type
    return request_type


def _silent(fraction, stage):
    """The progress of a computation nobody watches."""


def compute(request, *, cache, progress=None, uploads=None, partial=None):
    """The result of ``request``: read from ``cache``, or computed and kept there.

    Parameters
    ----------
    request : object
        An instance of a type in :data:`REQUESTS`.
    cache : lab.store.cache.ResultCache or None
        Where results are read and kept; the runs a study computes go through it too. None
        computes everything and keeps nothing (a notebook's one-off run).
    progress : callable, optional
        ``progress(fraction, stage)``, fraction in [0, 1]; an exception it raises (a cancelled job)
        stops the computation, and nothing is kept.
    uploads : lab.store.uploads.SessionUploads, optional
        Where a request naming an uploaded file reads it.
    partial : callable, optional
        ``partial(result)``, called with partial results of the request's type as its parts are done,
        when it is computed (not when it is read from the cache). Only the kinds whose ``_compute``
        takes ``partial`` publish them: a run (its input, its embedding, then its measures group by group).

    Returns
    -------
    Computed
        ``(result, cached)``; identical requests computing at once share one computation
        (:meth:`lab.store.cache.ResultCache.get_or_compute`).

    Examples
    --------
    >>> from lab import RunRequest
    >>> result, cached = compute(RunRequest.create("strip", "pca", n=200), cache=None)
    >>> round(result.summary["normalized"][0], 6), cached
    (0.0, False)
    """
    report = progress or _silent
    options = {}
    if partial is not None:
        if "partial" not in inspect.signature(type(request)._compute).parameters:
            raise TypeError(f"A {request.KIND} request publishes no partial results.")
        options["partial"] = partial

    def work(chosen):
        return chosen._compute(cache=cache, progress=report, uploads=uploads, **options)

    if cache is None:
        return Computed(work(request), False)
    return Computed(*cache.get_or_compute(request, work))


def held(request, cache):
    """Whether ``cache`` holds all that computing ``request`` reads, so that :func:`compute` only reads: its result,
    or, for a study that is never kept whole (a sweep), every request its ``parts()`` names.

    Examples
    --------
    >>> import tempfile
    >>> from lab import ResultCache, RunRequest
    >>> cache = ResultCache(tempfile.mkdtemp())
    >>> request = RunRequest.create("strip", "pca", n=200)
    >>> held(request, cache), held(request, cache) or compute(request, cache=cache).cached, held(request, cache)
    (False, False, True)
    """
    if cache.holds(request):
        return True
    parts = getattr(request, "parts", None)
    # One part at a time, up to the first missing: a page on the sweep tab asks at every view state, and the
    # store reads each entry it is asked about (25 runs of 20 000 points are 75 MB).
    return parts is not None and all(cache.holds(part) for part in parts())


def request_from_dict(kind, values):
    """The request of type ``kind`` that ``values`` (its ``to_dict()``) describes, validated.

    Raises
    ------
    lab.compute.choices.StateError
        An unknown kind, or a field out of its declared range.
    """
    if not isinstance(kind, str) or kind not in REQUESTS:
        raise StateError([f"Unknown request kind {kind!r}; known: {', '.join(sorted(REQUESTS))}."])
    if not isinstance(values, dict):
        raise StateError([f"A {kind} request must be an object; got {type(values).__name__}."])
    return REQUESTS[kind].from_dict(values)
