"""Work split over the machine's cores in forked processes, for native calls that hold the interpreter.

SciPy's ``dijkstra`` keeps the GIL for its whole call: two threads ran at 0.92 times the speed of one
(issue 24), so the geodesic sweeps use processes. The workers are forked: they inherit the graph and
the function they run, and only the items and the results cross a pipe.
"""

import concurrent.futures
import multiprocessing
import os
import threading

from .errors import MeasureError

__all__ = ["PARALLEL", "cores", "ordered_map"]

# Whether ordered_map may use processes at all (False: every call runs here, in order).
PARALLEL = True

WORKER_LOST = ("A worker process of this computation stopped before it answered (out of memory, or killed); "
               "nothing partial was kept. Use fewer points, or run it again.")

_task = None  # in a worker: the function it runs, handed over by the fork, never pickled
_starting = threading.Lock()  # one pool's workers at a time, so each knows its own processes


def cores():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _hand_over(function):
    global _task
    _task = function


def _run(item):
    return _task(item)


def _may_fork():
    """Whether this process can fork workers: a platform that forks, and not a daemonic process (whose
    children multiprocessing refuses)."""
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon


def ordered_map(function, items, *, parallel=True):
    """``function(item)`` for each item, yielded in order; on every core (forked workers) when ``parallel``.

    Parameters
    ----------
    function : callable
        Any callable, closures included: the workers inherit it when they are forked. Its results
        travel back pickled, so they should be arrays (one batch of rows), not large object graphs.
    items : iterable
        Picklable (batches of indices).
    parallel : bool
        The caller's judgement that the work outweighs a pool's start and the results' transfer
        (about 0.1 s and a copy of each result); with one core, a single item, :data:`PARALLEL`
        False or a process that cannot fork, the items run here in order anyway.

    Yields
    ------
    object
        ``function(item)``, in the order of ``items``: the same values either way.

    Raises
    ------
    MeasureError
        A worker died (out of memory, killed) before it answered: :data:`WORKER_LOST`.

    Notes
    -----
    The workers are stopped when the generator is closed or the caller raises (a job's deadline,
    its Cancel), and when the last result is read.
    """
    items = list(items)
    workers = min(cores(), len(items))
    if not (parallel and PARALLEL and workers > 1 and _may_fork()):
        for item in items:
            yield function(item)
        return
    executor = concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                                      initializer=_hand_over, initargs=(function,))
    with _starting:
        before = set(multiprocessing.active_children())
        futures = [executor.submit(_run, items[0])]  # a fork context starts every worker at the first submit
        ours = [process for process in multiprocessing.active_children() if process not in before]
    finished = False
    try:
        futures += [executor.submit(_run, item) for item in items[1:]]
        for future in futures:
            try:
                yield future.result()
            except concurrent.futures.process.BrokenProcessPool:
                raise MeasureError(WORKER_LOST) from None
        finished = True
    finally:
        if not finished:  # stopped at once: a deadline or a Cancel must not wait for their batches
            for process in ours:
                if process.is_alive():
                    process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)
