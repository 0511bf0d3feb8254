"""Signals held back while native code runs on threads the caller must join first.

SciPy's ``KDTree.query`` and ``query_ball_point`` with ``workers=-1`` start Python threads that
run C++ on buffers owned by the calling frame, then join them. A signal handler that raises in the
joining thread (a job's deadline or stop, Ctrl-C in a notebook) unwinds that frame while the threads still
read and write its buffers: the process dies of a segmentation fault (a Celery worker lost 1 job in
6 under a 2 s deadline, in ``traverse_checking``). :func:`signals_deferred` lets the threads finish and
delivers the signal after.
"""

import contextlib
import signal
import threading

__all__ = ["DEFERRED_SIGNALS", "signals_deferred"]

# The signals a handler may turn into an exception: Ctrl-C, an alarm (job deadlines), Celery's soft
# time limit (SIGUSR1), a stop asked of a job (SIGTERM).
DEFERRED_SIGNALS = (signal.SIGINT, signal.SIGALRM, signal.SIGUSR1, signal.SIGTERM)


@contextlib.contextmanager
def signals_deferred():
    """Hold back :data:`DEFERRED_SIGNALS` for the block, then deliver them to their own handlers.

    A signal that arrives inside the block is recorded, the handlers are restored when the block
    ends, and the signal is raised again then (``signal.raise_signal``): its handler runs, or its
    default action is taken, after the block's threads were joined. Off the main thread (where no
    Python handler runs) the block runs as it is.

    Examples
    --------
    >>> with signals_deferred():
    ...     pass
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived = []
    previous = {number: signal.signal(number, lambda number, frame: arrived.append(number))
                for number in DEFERRED_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(arrived):  # once each, in the order they came
            signal.raise_signal(number)
