"""Dash's disk manager without the races of a job that ends during a poll (bench/load.py found them)."""

import subprocess
import sys

import pytest

from components import managers




@pytest.fixture
def manager(tmp_path):
    return managers.make_background_manager(tmp_path)


@pytest.fixture
def sleeper():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process
    process.kill()
    process.wait()


def test_a_process_reusing_a_finished_job_s_id_is_never_stopped(manager, sleeper):
    """Process ids are reused: a late stop of a finished job must leave a new process alone."""
    import psutil

    started = psutil.Process(sleeper.pid).create_time()
    manager.handle.set(manager._started_key(sleeper.pid), started - 5.0)  # the job that had this id started earlier
    manager.terminate_job(str(sleeper.pid))
    assert sleeper.poll() is None and not manager.job_running(str(sleeper.pid))
    manager.handle.set(manager._started_key(sleeper.pid), started)  # this process is the job: it is stopped
    manager.terminate_job(str(sleeper.pid))
    assert sleeper.wait(10) is not None


def test_a_job_that_stored_its_result_and_exited_during_a_poll_reads_as_running(manager):
    """A poll reads the result (absent), then the job stores it and exits: the poll must go on."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    manager.handle.set(manager._started_key(ended.pid), 0.0)
    assert manager.get_result("key", str(ended.pid)) is manager.UNDEFINED
    manager.handle.set("key", {"answer": 42})  # written by the job between the two checks
    assert manager.job_running(str(ended.pid))
    assert manager.get_result("key", str(ended.pid)) == {"answer": 42}
    assert not manager.job_running(str(ended.pid))  # collected: the job is over


def _stuck_in_c():
    """Wait for ever on a mutex no thread will release, as a job forked with a held SQLite mutex did."""
    import threading

    lock = threading.Lock()
    lock.acquire()
    lock.acquire()


def test_an_embedded_job_stuck_where_no_alarm_reaches_ends_at_its_watchdog(monkeypatch):
    import multiprocessing
    import time

    monkeypatch.setattr(managers, "JOB_DEADLINE_SECONDS", 0.5)
    monkeypatch.setattr(managers, "WATCHDOG_GRACE_SECONDS", 0.5)
    process = multiprocessing.get_context("fork").Process(target=managers._watched, args=(_stuck_in_c,))
    started = time.monotonic()
    process.start()
    process.join(timeout=30)
    assert process.exitcode == 70 and time.monotonic() - started < 30


def test_the_hand_over_store_holds_off_forks_while_it_is_read(tmp_path, monkeypatch):
    import threading

    import diskcache

    from lab import stores

    inside = []

    def get(self, key, *args, **kwargs):  # another thread cannot take the fork lock meanwhile
        probe = threading.Thread(target=lambda: inside.append(stores._OPEN.acquire(blocking=False)))
        probe.start()
        probe.join()
        return None

    monkeypatch.setattr(diskcache.Cache, "get", get)
    manager = managers.make_background_manager(tmp_path)
    manager.handle.get("key")
    assert inside == [False]
