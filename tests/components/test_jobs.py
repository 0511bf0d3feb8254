"""The one cache key and the result cache: canonical, code-versioned, nothing partial stored."""

import logging
import pathlib
import shutil
import signal
import sqlite3
import subprocess
import sys

import diskcache
import numpy as np
import pytest
from dash.testing.wait import until

from components import jobs
from components.jobs import ResultCache, cache_key

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_key_ignores_order_and_changes_with_content_and_code(monkeypatch):
    request = {"dataset": "swissroll", "n_neighbors": 10, "algorithm_params": {"reg": 0.001, "eigen_solver": "auto"}}
    reordered = {"algorithm_params": {"eigen_solver": "auto", "reg": 0.001}, "n_neighbors": 10, "dataset": "swissroll"}
    assert cache_key(request) == cache_key(reordered)
    assert cache_key(request) != cache_key({**request, "n_neighbors": 11})
    original = cache_key(request)
    monkeypatch.setattr(jobs, "CODE_VERSION", "another-version")
    assert cache_key(request) != original  # results never outlive the code that made them


def test_key_refuses_nan():
    with pytest.raises(ValueError):
        cache_key({"noise": float("nan")})


def test_code_version_follows_the_library_sources(tmp_path, monkeypatch):
    for package in ("datasets", "algorithms", "measures", "components"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "module.py").write_text("VALUE = 1\n")
    monkeypatch.setattr(jobs, "_ROOT", tmp_path)
    (tmp_path / "components" / "runs.py").write_text("")
    first = jobs._code_version()
    assert first == jobs._code_version() and len(first) == 16
    (tmp_path / "measures" / "module.py").write_text("VALUE = 2\n")
    assert jobs._code_version() != first
    (tmp_path / "components" / "module.py").write_text("VALUE = 2\n")  # UI code does not shape results
    (tmp_path / "measures" / "module.py").write_text("VALUE = 1\n")
    assert jobs._code_version() == first


def test_result_cache_computes_once_then_serves_from_disk(tmp_path):
    calls = []

    def compute(request):
        calls.append(request)
        return {"value": request["x"] ** 2}

    cache = ResultCache(tmp_path)
    assert cache.get_or_compute({"x": 3}, compute) == ({"value": 9}, False)
    # A second cache object on the same folder (another process, a restart) sees the entry.
    assert ResultCache(tmp_path).get_or_compute({"x": 3}, compute) == ({"value": 9}, True)
    assert len(calls) == 1
    assert cache.stats() == {"hits": 1, "computed": 1}


def test_a_failed_computation_stores_nothing(tmp_path):
    cache = ResultCache(tmp_path)

    def cancelled(request):
        raise RuntimeError("job cancelled")

    with pytest.raises(RuntimeError, match="job cancelled"):
        cache.get_or_compute({"x": 1}, cancelled)
    assert cache.get_or_compute({"x": 1}, lambda request: "done") == ("done", False)
    assert cache.stats() == {"hits": 0, "computed": 1}


# Robustness: whatever happens to the files under a running app, no partial entry is served and the
# next request recomputes. Values of this size go to diskcache's value files, not into its database.
LARGE = {"Y": np.arange(20000, dtype=float).reshape(-1, 2)}


def large_result(request):
    return {"Y": LARGE["Y"] * request["x"]}


def stored_value_files(directory):
    return sorted(pathlib.Path(directory).rglob("*.val"))


def assert_recomputed_then_cached(cache, request):
    result, cached = cache.get_or_compute(request, large_result)
    assert not cached
    np.testing.assert_array_equal(result["Y"], large_result(request)["Y"])
    again, cached = cache.get_or_compute(request, large_result)
    assert cached
    np.testing.assert_array_equal(again["Y"], result["Y"])


@pytest.mark.parametrize("damage", ["garbage", "truncated", "emptied", "deleted"])
def test_a_damaged_value_file_is_deleted_and_recomputed(tmp_path, caplog, damage):
    cache = ResultCache(tmp_path)
    cache.get_or_compute({"x": 2}, large_result)
    (value_file,) = stored_value_files(tmp_path)
    if damage == "garbage":
        value_file.write_bytes(b"\x80\x05not a pickle" * 100)
    elif damage == "truncated":
        value_file.write_bytes(value_file.read_bytes()[: value_file.stat().st_size // 2])
    elif damage == "emptied":
        value_file.write_bytes(b"")
    else:
        value_file.unlink()
    with caplog.at_level(logging.WARNING, logger="components.jobs"):
        assert cache.get({"x": 2}) is None  # never a partial or garbled result
    assert "it will be recomputed" in caplog.text
    assert_recomputed_then_cached(cache, {"x": 2})
    assert cache.stats() == {"hits": 1, "computed": 2}


@pytest.mark.parametrize("damage", ["garbage", "pages"])
def test_a_corrupt_database_is_moved_aside_and_the_store_starts_anew(tmp_path, caplog, damage):
    directory = tmp_path / "results"
    cache = ResultCache(directory)
    cache.get_or_compute({"x": 2}, large_result)
    database = directory / "cache.db"
    if damage == "garbage":  # "file is not a database"
        garbage = np.random.default_rng(0).bytes(8192)
    else:  # header intact, pages overwritten: "database disk image is malformed"
        intact = database.read_bytes()
        garbage = intact[:4096] + np.random.default_rng(0).bytes(len(intact) - 4096)
    database.write_bytes(garbage)
    with caplog.at_level(logging.WARNING, logger="components.jobs"):
        assert_recomputed_then_cached(cache, {"x": 2})
    assert "is corrupt" in caplog.text
    (aside,) = tmp_path.glob("results.corrupt-*")  # kept whole for inspection, value files included
    assert (aside / "cache.db").read_bytes() == garbage and len(stored_value_files(aside)) == 1
    assert cache.stats() == {"hits": 1, "computed": 1}
    # Another process finding the same damage later leaves the recreated store alone.
    cache._move_corrupt_store_aside(RuntimeError("already handled"))
    assert cache.get({"x": 2}) is not None and len(list(tmp_path.glob("results.corrupt-*"))) == 1


def test_a_deleted_directory_is_recreated_and_recomputed(tmp_path):
    directory = tmp_path / "results"
    cache = ResultCache(directory)
    cache.get_or_compute({"x": 2}, large_result)
    shutil.rmtree(directory)
    assert_recomputed_then_cached(cache, {"x": 2})
    assert cache.stats() == {"hits": 1, "computed": 1}


def test_a_database_error_that_is_no_corruption_propagates_untouched(tmp_path, monkeypatch):
    cache = ResultCache(tmp_path / "results")
    cache.get_or_compute({"x": 1}, large_result)

    def locked(self, *args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(diskcache.Cache, "get", locked)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        cache.get({"x": 1})
    monkeypatch.undo()
    assert not list(tmp_path.glob("results.corrupt-*")) and cache.get({"x": 1}) is not None


# A child process computing through the cache: it signals it has started, then waits to be killed.
KILLED_CHILD = """
import pathlib, sys, time
from components.jobs import ResultCache

def compute(request):
    pathlib.Path(sys.argv[2]).write_text("computing")
    time.sleep(600)
    return {"never": "stored"}

ResultCache(sys.argv[1]).get_or_compute({"x": 5}, compute)
"""


def test_a_process_killed_mid_computation_stores_nothing_and_the_next_call_recomputes(tmp_path):
    directory, started = tmp_path / "results", tmp_path / "started"
    cache = ResultCache(directory)
    cache.get_or_compute({"x": 1}, large_result)  # a store with an entry and a value file already
    child = subprocess.Popen([sys.executable, "-c", KILLED_CHILD, str(directory), str(started)], cwd=ROOT)
    try:
        until(lambda: started.exists() or child.poll() is not None, timeout=120)
        assert child.poll() is None, "the child exited before computing"
    finally:
        child.send_signal(signal.SIGKILL)  # as a cancelled Dash job or a dying worker process
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    assert cache.get({"x": 5}) is None
    assert cache.stats() == {"hits": 0, "computed": 1}
    assert cache.get_or_compute({"x": 5}, lambda request: "done") == ("done", False)
    assert cache.get_or_compute({"x": 1}, large_result)[1]  # the store the child had open is intact


@pytest.fixture
def manager(tmp_path):
    return jobs.make_background_manager(tmp_path)


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
    manager._started[sleeper.pid] = started - 5.0  # the job that had this id started earlier
    manager.terminate_job(str(sleeper.pid))
    assert sleeper.poll() is None and not manager.job_running(str(sleeper.pid))
    manager._started[sleeper.pid] = started  # this process is the job: it is stopped
    manager.terminate_job(str(sleeper.pid))
    assert sleeper.wait(10) is not None


def test_a_job_that_stored_its_result_and_exited_during_a_poll_reads_as_running(manager):
    """A poll reads the result (absent), then the job stores it and exits: the poll must go on."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    manager._started[ended.pid] = 0.0
    assert manager.get_result("key", str(ended.pid)) is manager.UNDEFINED
    manager.handle.set("key", {"answer": 42})  # written by the job between the two checks
    assert manager.job_running(str(ended.pid))
    assert manager.get_result("key", str(ended.pid)) == {"answer": 42}
    assert not manager.job_running(str(ended.pid))  # collected: the job is over
