"""Tests of ``measures/processes.py``: work in forked workers or threads, in order, stopped with its caller."""

import multiprocessing
import os
import signal
import threading
import time

import numpy as np
import pytest

from measures import MeasureError
from measures.processes import WORKER_LOST, cores, ordered_map, thread_map

pytestmark = pytest.mark.skipif(cores() < 2 or "fork" not in multiprocessing.get_all_start_methods(),
                                reason="forked workers need two cores and fork")


def test_results_come_in_order_from_other_processes_and_a_closure_reaches_them():
    offset = np.arange(3.0)  # captured, never pickled: the fork hands it over

    def work(item):
        return os.getpid(), offset + item

    results = list(ordered_map(work, range(8)))
    assert [values.tolist() for _, values in results] == [[i, i + 1.0, i + 2.0] for i in range(8)]
    assert os.getpid() not in {pid for pid, _ in results}
    assert multiprocessing.active_children() == []  # the workers ended with the last result
    assert [pid for pid, _ in ordered_map(work, range(3), parallel=False)] == [os.getpid()] * 3


def test_a_caller_that_stops_stops_the_workers_at_once():
    def work(item):
        if item:
            time.sleep(600)  # a batch no one will wait for
        return item

    results = ordered_map(work, range(4))
    assert next(results) == 0
    results.close()  # a deadline or a Cancel in the caller
    assert multiprocessing.active_children() == []  # terminated, not finishing their 600 s


def test_a_worker_that_dies_is_an_error_with_a_message_not_a_hang():
    def work(item):
        if item == 2:
            os.kill(os.getpid(), signal.SIGKILL)  # out of memory, say
        return item

    with pytest.raises(MeasureError, match="stopped before it answered") as raised:
        list(ordered_map(work, range(4)))
    assert str(raised.value) == WORKER_LOST and multiprocessing.active_children() == []


def test_a_deadline_s_alarm_reaches_the_caller_while_it_waits_and_stops_the_workers():
    """A job's deadline is a SIGALRM handler in the caller (serving.deadlines): it must interrupt the wait
    for a worker's batch, and the workers must not run on."""
    class Alarm(BaseException):
        pass

    def ring(signum, frame):
        raise Alarm()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(Alarm):
            list(ordered_map(lambda item: time.sleep(600), range(2)))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert multiprocessing.active_children() == []


def test_a_worker_runs_at_most_one_item_ahead_of_a_slow_caller(tmp_path):
    """Memory stays near one result per worker: each worker's sends wait for the caller to read."""
    record = tmp_path / "started"

    def work(item):
        with open(record, "a", encoding="utf-8") as file:
            file.write(f"{item}\n")
        return np.zeros(2**20)  # 8 MB: far more than a pipe holds, so a send waits for its reader

    results = ordered_map(work, range(20))
    assert next(results).shape == (2**20,)
    time.sleep(1.0)  # a slow caller: what ran meanwhile is bounded, not the 19 other items
    started = record.read_text().split()
    assert len(started) <= 2 * cores(), started
    results.close()
    assert multiprocessing.active_children() == []


def test_workers_do_not_inherit_a_job_s_stop_and_deadline_handlers():
    """A job's SIGTERM handler raises only between native calls, and its alarm is the caller's: a worker
    keeps neither, so killing or stopping it is immediate and a deadline fires in the caller alone."""
    previous = {number: signal.signal(number, lambda signum, frame: None) for number in (signal.SIGTERM,
                                                                                           signal.SIGALRM)}
    try:
        handlers = list(ordered_map(lambda item: (signal.getsignal(signal.SIGTERM),
                                                  signal.getsignal(signal.SIGALRM)), range(2)))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    assert handlers == [(signal.SIG_DFL, signal.SIG_DFL)] * 2


def test_thread_map_keeps_the_order_on_other_threads_and_raises_what_an_item_raises():
    def work(item):
        time.sleep(0.01 * (5 - item))  # later items finish first
        return threading.current_thread().name, item * item

    results = thread_map(work, range(5))
    assert [value for _, value in results] == [0, 1, 4, 9, 16]
    assert {name for name, _ in results} <= {f"measures_{i}" for i in range(cores())} and len(
        {name for name, _ in results}) > 1
    assert {name for name, _ in thread_map(work, range(3), parallel=False)} == {threading.current_thread().name}

    def fails(item):
        if item == 2:
            raise MeasureError("item 2")
        return item

    with pytest.raises(MeasureError, match="item 2"):
        thread_map(fails, range(4))


def test_thread_map_returns_at_once_when_the_caller_is_stopped_and_starts_nothing_more():
    """A job's stop raises in the waiting thread (its signal handler): it must not wait for the queue."""
    started = []

    def work(item):
        started.append(item)
        time.sleep(0.3)
        return item

    def stop(number, frame):
        raise SystemExit("stopped")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 0.1)
    began = time.monotonic()
    try:
        with pytest.raises(SystemExit):
            thread_map(work, range(100))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - began < 5.0  # not the 100 x 0.3 s of the queue (15 s on two cores)
    time.sleep(0.4)
    assert len(started) == cores()  # the items running finished; none was started after the stop
