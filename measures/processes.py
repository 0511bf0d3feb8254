"""Work split over the machine's cores: forked processes for native calls that hold the interpreter,
threads for those that release it.

SciPy's ``dijkstra`` keeps the GIL for its whole call: two threads ran at 0.92 times the speed of one
(issue 24), so the geodesic sweeps use processes (:func:`ordered_map`). The workers are forked: they
inherit the graph and the function they run, and only the items and the results cross a pipe, one
pipe per worker, or nothing but a token when they write into an array made by :func:`shared_empty`.
SciPy's ``cdist`` and numpy's ufuncs, reductions and sorts on large arrays release
it, so the pair sums and the rank sorts share the cores as threads (:func:`thread_map`), with no copy.
"""

import concurrent.futures
import mmap
import multiprocessing
import os
import signal

import numpy as np

from .errors import MeasureError

__all__ = ["PARALLEL", "WORKER_LOST", "cores", "ordered_map", "shared_empty", "thread_map"]

# Whether ordered_map and thread_map may use more than this thread (False: every call runs here, in order).
PARALLEL = True

WORKER_LOST = ("A worker process of this computation stopped before it answered (out of memory, or killed); "
               "nothing partial was kept. Use fewer points, or run it again.")

# Handlers a worker must not inherit: a job's SIGTERM handler raises SystemExit only between native calls,
# and its deadline's alarm belongs to the caller. A worker stopped is simply killed.
_RESET = (signal.SIGTERM, signal.SIGINT, signal.SIGALRM, signal.SIGUSR1)


def cores():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def shared_empty(shape, dtype=np.float64):
    """An uninitialized array whose memory the workers :func:`ordered_map` forks after it was made share:
    what they write into it the caller reads, and nothing crosses a pipe (Isomap's 3.2 GB of geodesics at
    20 000 points went through the pipes, pickled, then were copied again into the result).

    An anonymous shared mapping, freed with the last array that views it.
    """
    count = int(np.prod(shape, dtype=np.int64))
    try:
        buffer = mmap.mmap(-1, max(1, count * np.dtype(dtype).itemsize))  # MAP_SHARED | MAP_ANONYMOUS
    except OSError as error:  # ENOMEM: the error numpy's own allocation raises
        raise MemoryError(f"cannot allocate {count * np.dtype(dtype).itemsize:,} bytes of shared memory") from error
    return np.frombuffer(buffer, dtype=dtype, count=count).reshape(shape)


def _may_fork():
    """Whether this process can fork workers: a platform that forks, and not a daemonic process (whose
    children multiprocessing refuses: Celery's prefork workers, for one, run the items in order)."""
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon


def _work(function, items, writer, inherited):
    """A worker: ``function`` of each of its items, each result sent as soon as it is made.

    The pipes of the other workers, and its own reading end, are closed here, so that a reader that
    goes away (the caller died) makes the next send fail and the worker end, and a worker that dies
    ends its pipe for the caller.
    """
    for number in _RESET:
        signal.signal(number, signal.SIG_DFL)
    for connection in inherited:
        connection.close()
    try:
        for item in items:
            writer.send((True, function(item)))
    except Exception as error:  # noqa: BLE001 (the caller raises it)
        try:
            writer.send((False, error))
        except Exception:  # noqa: BLE001 (unpicklable, or the caller gone)
            writer.send((False, RuntimeError(f"{type(error).__name__}: {error}")))
    finally:
        writer.close()


def ordered_map(function, items, *, parallel=True):
    """``function(item)`` for each item, yielded in order; on every core (forked workers) when ``parallel``.

    Parameters
    ----------
    function : callable
        Any callable, closures included: the workers inherit it when they are forked. Its results
        travel back pickled, so they should be arrays (one batch of rows), not large object graphs.
    items : iterable
        Worker ``w`` of ``W`` takes items ``w, w + W, ...``, so work of even cost per item.
    parallel : bool
        The caller's judgement that the work outweighs starting the workers and the results' trip
        back (a fork each, and a copy of each result); with one core, a single item, :data:`PARALLEL`
        False or a process that cannot fork, the items run here in order anyway.

    Yields
    ------
    object
        ``function(item)``, in the order of ``items``: the same values either way.

    Raises
    ------
    MeasureError
        A worker died (out of memory, killed) before it answered: :data:`WORKER_LOST`. An exception
        of ``function`` in a worker is raised here.

    Notes
    -----
    Each worker has its own pipe, whose sends block until the caller reads: a worker runs at most
    one item ahead, so memory stays near one result per worker. The workers are killed when the
    generator is closed or the caller raises (a job's deadline, its Cancel): callers close it
    (``contextlib.closing``) rather than leave it to the garbage collector.
    """
    items = list(items)
    workers = min(cores(), len(items))
    if not (parallel and PARALLEL and workers > 1 and _may_fork()):
        for item in items:
            yield function(item)
        return
    context = multiprocessing.get_context("fork")
    pipes = [context.Pipe(duplex=False) for _ in range(workers)]  # (reader, writer) each
    processes = []
    try:
        for index, (_, writer) in enumerate(pipes):
            inherited = [end for other, pair in enumerate(pipes) for end in pair
                         if other != index or end is not writer]
            process = context.Process(target=_work, args=(function, items[index::workers], writer, inherited),
                                      daemon=True)
            process.start()
            processes.append(process)
        for _, writer in pipes:
            writer.close()  # the workers' ends: a worker that dies now reads as the end of its pipe
        for index in range(len(items)):
            try:
                made, value = pipes[index % workers][0].recv()
            except EOFError:
                raise MeasureError(WORKER_LOST) from None
            if not made:
                raise value
            yield value
    finally:
        for process in processes:
            if process.is_alive():  # done workers have exited; the others are not waited for
                process.kill()
            process.join()
        for reader, writer in pipes:
            reader.close()
            writer.close()


def thread_map(function, items, *, parallel=True):
    """``[function(item) for item in items]``, on every core (threads) when ``parallel``.

    For functions whose time is in native code that releases the interpreter (``cdist``, numpy on
    large arrays); a function that holds it gains nothing. Items are taken in order by
    ``min(cores(), len(items))`` threads.

    Parameters
    ----------
    function : callable
    items : iterable
    parallel : bool
        The caller's judgement that the work outweighs handing it to threads; with one core, one
        item or :data:`PARALLEL` False the items run here, in order.

    Returns
    -------
    list
        ``function(item)`` of each item, in the order of ``items``: the same values either way.

    Notes
    -----
    An exception in this thread while the others run (a job's deadline or stop, raised by its signal
    handler between native calls) cancels the items not started and returns at once; the items
    running finish in their threads, which own what they read.
    """
    items = list(items)
    workers = min(cores(), len(items))
    if not (parallel and PARALLEL and workers > 1):
        return [function(item) for item in items]
    pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="measures")
    try:
        results = [future.result() for future in [pool.submit(function, item) for item in items]]
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results
