"""Every background job's deadline: an alarm no handler inside the job can swallow, and its message.

A job may run ``settings().job_deadline`` seconds (``PROCRUSTES_JOB_DEADLINE``, 20 minutes by default).
:func:`job_deadline` stops it there with :class:`JobDeadlineError`; :func:`bounded` puts every
background callback under it (the managers of :mod:`serving.managers` apply it to each job, of
every kind), and a callback may set its own, nested, to turn the stop into its own message.
"""

import contextlib
import functools
import signal
import threading
import time

from celery.exceptions import SoftTimeLimitExceeded

import measures
from settings import settings

__all__ = ["ANSWER_GRACE_SECONDS", "DEADLINE_MESSAGE_START", "JobDeadlineError", "KILL_GRACE_SECONDS",
           "SOFT_LIMIT_DELAY_SECONDS", "bounded", "job_deadline"]

# A job that ignores its deadline this many seconds is killed.
KILL_GRACE_SECONDS = 60
# Seconds a job that caught its deadline (JobDeadlineError) has to answer with it before the enclosing
# deadline stops it too; Celery's soft limit, its backstop, comes later still.
ANSWER_GRACE_SECONDS = 3.0
# Celery's soft limit comes this long after a job's own alarm (the same stop, if the alarm was missed).
SOFT_LIMIT_DELAY_SECONDS = 5


class JobDeadlineError(measures.ProcrustesLabError, RuntimeError):
    """A background job ran past its deadline and was stopped; nothing it computed was kept."""

    def __init__(self, seconds=None):
        seconds = settings().job_deadline if seconds is None else seconds
        super().__init__(f"{DEADLINE_MESSAGE_START} {seconds:g} s (PROCRUSTES_JOB_DEADLINE); "
                         "nothing partial was kept. Use fewer points or a faster algorithm.")


DEADLINE_MESSAGE_START = "The computation was stopped at its deadline of"


class _DeadlinePassed(BaseException):
    """The deadline's signal inside a job: no ``except Exception`` can swallow it.

    A sweep's cell, a comparison's algorithm and a tour's panel each catch ``Exception`` so that one
    failure does not hide the others; a deadline raised as an ``Exception`` was caught there, and the
    job went on to the next cell (a sweep with a 5 s deadline ran 68 s). Like ``KeyboardInterrupt``
    it passes them, and :func:`job_deadline` turns it into :class:`JobDeadlineError` at its edge.
    """


@contextlib.contextmanager
def job_deadline(seconds=None):
    """Stop this job with :class:`JobDeadlineError` once it has run ``seconds`` (default ``settings().job_deadline``).

    An alarm raises :class:`_DeadlinePassed` wherever the job is, and so does Celery's soft time
    limit (its ``SIGUSR1``, which would raise Celery's own ``SoftTimeLimitExceeded``, an ``Exception``);
    both reach this block's edge past any ``except Exception``. Blocks nest: an inner one never
    outlives the outer deadline, and the outer alarm is set again when it ends. Off the main thread
    no signal can be set, and the caller's process deadline applies (Celery's soft limit, the
    embedded watchdog).
    """
    seconds = settings().job_deadline if seconds is None else seconds
    if threading.current_thread() is not threading.main_thread():
        try:
            yield
        except SoftTimeLimitExceeded:
            raise JobDeadlineError(seconds) from None
        return

    def expired(signum, frame):
        raise _DeadlinePassed()

    started = time.monotonic()
    previous = {number: signal.signal(number, expired) for number in (signal.SIGALRM, signal.SIGUSR1)}
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    if 0 < outer < seconds:  # an enclosing deadline comes first: keep it
        signal.setitimer(signal.ITIMER_REAL, outer)
    try:
        yield
    except (_DeadlinePassed, SoftTimeLimitExceeded):
        raise JobDeadlineError(seconds) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in previous.items():
            signal.signal(number, handler)
        if outer:  # the enclosing block's alarm, for what remains of it
            remaining = outer - (time.monotonic() - started)
            # Both deadlines passed together (the same setting): this block's caller is now turning its
            # JobDeadlineError into the page's message, and gets a moment to send it.
            signal.setitimer(signal.ITIMER_REAL, remaining if remaining > 0 else ANSWER_GRACE_SECONDS)


def bounded(function):
    """``function`` (a background callback) run under :func:`job_deadline`, whatever its kind.

    Every job gets its deadline here (the managers wrap each background callback), including those
    whose callbacks set none (the tours'); a callback that sets its own turns the deadline into its
    message, and this edge lets :class:`JobDeadlineError` through to Dash, which hands it to the page
    (``components.jobs``'s ``on_error``).
    """
    @functools.wraps(function)
    def bounded(*args, **kwargs):
        with job_deadline():
            return function(*args, **kwargs)

    return bounded
