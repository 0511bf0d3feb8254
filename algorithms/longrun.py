"""Progress reports and cancellation for long-running algorithms (GP, PSA, refinement).

Library code knows nothing of Dash: a caller passes a plain ``progress(fraction, info)`` callable and a
``should_stop()`` hook (STYLE, background work). :class:`RunHooks` rate-limits both, so a hot loop may
call :meth:`RunHooks.tick` as often as it likes; ``should_stop`` is asked at least every
:data:`CHECK_SECONDS` of work, and a stop raises :class:`Cancelled`, so no partial result escapes.
"""

import time

from measures.errors import ProcrustesLabError

__all__ = ["CHECK_SECONDS", "Cancelled", "RunHooks"]

# Asking should_stop every 0.05 s keeps a cancel well inside the 0.2 s the dashboard needs, while a
# hook that reads a file or a cache (Dash's background manager) is not called thousands of times.
CHECK_SECONDS = 0.05


class Cancelled(ProcrustesLabError, RuntimeError):
    """A long-running algorithm was stopped by its ``should_stop`` hook; it returns no result."""


class RunHooks:
    """Rate-limited ``progress`` and ``should_stop`` hooks of one run.

    Parameters
    ----------
    progress : callable or None
        ``progress(fraction, info)`` with ``fraction`` in [0, 1] and ``info`` a dict (its keys depend on
        the algorithm: ``stage``, ``step``, ``temperature``, ``energy``, ``acceptance``, ``R`` ...).
        Called at most every :data:`CHECK_SECONDS` from :meth:`tick`, and on every :meth:`report`.
    should_stop : callable or None
        ``should_stop() -> bool``; when it returns True the next check raises :class:`Cancelled`.
    label : str
        Algorithm name for the cancel message.
    span : tuple of float, default=(0.0, 1.0)
        The part of the whole run's progress bar this stage fills (see :meth:`stage`).

    Examples
    --------
    >>> hooks = RunHooks(should_stop=lambda: True, label="psa")
    >>> hooks.check()
    Traceback (most recent call last):
    ...
    algorithms.longrun.Cancelled: psa was cancelled; no result was produced.
    """

    def __init__(self, progress=None, should_stop=None, label="algorithm", span=(0.0, 1.0), _clock=None):
        self.progress = progress
        self.should_stop = should_stop
        self.label = label
        self.span = span
        # One clock per run, shared by its stages, so a stage change does not reset the interval.
        self._clock = _clock if _clock is not None else [time.perf_counter()]

    def stage(self, start, stop):
        """Hooks for a sub-stage whose own fractions 0..1 fill ``start..stop`` of this stage."""
        low, high = self.span
        return RunHooks(self.progress, self.should_stop, self.label,
                        (low + (high - low) * start, low + (high - low) * stop), self._clock)

    def check(self):
        """Ask ``should_stop`` now; raise :class:`Cancelled` if it says so."""
        self._clock[0] = time.perf_counter()
        if self.should_stop is not None and self.should_stop():
            raise Cancelled(f"{self.label} was cancelled; no result was produced.")

    def due(self):
        """Whether :data:`CHECK_SECONDS` have passed since the last check (one clock read)."""
        return time.perf_counter() - self._clock[0] >= CHECK_SECONDS

    def tick(self, fraction=None, info=None):
        """Check for a stop and report progress if the interval has passed; otherwise do nothing.

        ``info`` may be a callable returning the dict, so a caller builds it only when it is sent.
        """
        if self.due():
            self.report(fraction, info)

    def report(self, fraction, info):
        """Check for a stop and report progress now (stage boundaries, the final state)."""
        self.check()
        if self.progress is not None and fraction is not None:
            low, high = self.span
            fraction = low + (high - low) * min(max(float(fraction), 0.0), 1.0)
            self.progress(fraction, info() if callable(info) else dict(info or {}))
