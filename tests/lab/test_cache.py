"""The one cache key and the result cache: canonical, code-versioned, checksummed, nothing partial stored."""

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

from lab import RunRequest, ResultCache, cache_key
import lab.store.cache
from lab.store.cache import code_version
from lab.store.stores import DiskStore, StoreUnavailableError

from .conftest import Square, large_result

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_key_ignores_omitted_defaults_and_changes_with_content_and_code(monkeypatch):
    request = RunRequest.create("swissroll", "lle", n_neighbors=10)
    named = RunRequest.create("swissroll", "lle", n_neighbors=10, algorithm_params={"reg": 1e-3})
    assert cache_key(request) == cache_key(named)
    assert cache_key(request) != cache_key(RunRequest.create("swissroll", "lle", n_neighbors=11))
    original = cache_key(request)
    monkeypatch.setattr(lab.store.cache, "CODE_VERSION", "another-version")
    assert cache_key(request) != original  # results never outlive the code that made them


def test_key_refuses_nan():
    with pytest.raises(ValueError):
        cache_key(Square(float("nan")))


def _checkout(tmp_path):
    """A copy of the sources the code version reads, and of lab/'s other modules and components/."""
    for source in (*lab.store.cache.SOURCES, *lab.store.cache.PRESENTATION_MODULES, "components"):
        target = tmp_path / source
        if (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / source, target)
    return tmp_path


def _edited(path, old, new):
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def test_a_kernel_edit_changes_the_key_and_a_caption_or_a_drawing_edit_keeps_it(tmp_path):
    """Issue 21: the code version covers exactly the code that produces a cached value."""
    root = _checkout(tmp_path)
    first = code_version(root)
    assert first == code_version(root) == lab.store.cache.CODE_VERSION and len(first) == 16
    # A tour's sentence, a step's derived value, a link key, a figure: no result changes.
    _edited(root / "lab" / "tours" / "price_of_normalization.py", "PN Theorem 4.1", "PN's Theorem 4.1")
    _edited(root / "lab" / "tours" / "price_of_normalization.py", "derive=lambda v:", "derive=lambda values:")
    _edited(root / "lab" / "view" / "links.py", '"""', '"""A link. ')
    (root / "components" / "figures" / "tours.py").write_text("# redrawn\n")
    assert code_version(root) == first
    # The kernel every local measure uses, a study's code, a data set, the step's own numbers: all change it.
    for path, old, new in (("measures/procrustes.py", "def procrustes_rotation", "def _unused():\n    pass\n\n\n"
                            "def procrustes_rotation"),
                           ("lab/compute/normalization.py", '"""', '"""Changed. '),
                           ("datasets/surfaces.py", '"""', '"""X. '),
                           ("lab/tours/steps.py", "def run_values", "def _x():\n    pass\n\n\ndef run_values")):
        original = (root / path).read_text()
        _edited(root / path, old, new)
        assert code_version(root) != first, path
        (root / path).write_text(original)
    assert code_version(root) == first


def test_every_module_of_lab_is_either_hashed_or_declared_presentation():
    """A new module of lab/ must be placed on one side: hashed (it shapes results) or not (it words them)."""
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "lab").rglob("*.py")}
    hashed = {source for source in lab.store.cache.SOURCES if source.startswith("lab/")}
    assert not hashed & set(lab.store.cache.PRESENTATION_MODULES)
    assert modules == hashed | set(lab.store.cache.PRESENTATION_MODULES)
    # Every module a request's computation imports is hashed (the cached values' code).
    for source in ("lab/compute/runs.py", "lab/compute/choices.py", "lab/compute/studies.py",
                   "lab/compute/normalization.py", "lab/compute/shapes.py", "lab/compute/pairs.py",
                   "lab/compute/stability.py", "lab/tours/steps.py", "lab/store/serialization.py"):
        assert source in hashed, source


def test_result_cache_computes_once_then_serves_from_disk(tmp_path):
    calls = []

    def compute(request):
        calls.append(request)
        return large_result(request)

    cache = ResultCache(tmp_path)
    result, cached = cache.get_or_compute(Square(3.0), compute)
    assert not cached
    # A second cache object on the same folder (another process, a restart) sees the entry.
    again, cached = ResultCache(tmp_path).get_or_compute(Square(3.0), compute)
    assert cached and np.array_equal(again.Y, result.Y) and len(calls) == 1
    assert cache.stats() == {"hits": 1, "computed": 1}


def test_a_failed_computation_stores_nothing(tmp_path):
    cache = ResultCache(tmp_path)

    def cancelled(request):
        raise RuntimeError("job cancelled")

    with pytest.raises(RuntimeError, match="job cancelled"):
        cache.get_or_compute(Square(1.0), cancelled)
    assert not cache.get_or_compute(Square(1.0), large_result)[1]
    assert cache.stats() == {"hits": 0, "computed": 1}


def stored_value_files(directory):
    return sorted(pathlib.Path(directory).rglob("*.val"))


def assert_recomputed_then_cached(cache, request):
    result, cached = cache.get_or_compute(request, large_result)
    assert not cached
    np.testing.assert_array_equal(result.Y, large_result(request).Y)
    again, cached = cache.get_or_compute(request, large_result)
    assert cached
    np.testing.assert_array_equal(again.Y, result.Y)


@pytest.mark.parametrize("damage", ["64 bytes overwritten", "garbage", "truncated", "emptied", "deleted"])
def test_a_damaged_value_file_is_never_served_and_is_recomputed(tmp_path, caplog, damage):
    cache = ResultCache(tmp_path)
    cache.get_or_compute(Square(2.0), large_result)
    (value_file,) = stored_value_files(tmp_path)
    content = value_file.read_bytes()
    if damage == "64 bytes overwritten":  # inside the numbers: still a valid archive, wrong values
        middle = len(content) // 2
        value_file.write_bytes(content[:middle] + bytes(64) + content[middle + 64:])
    elif damage == "garbage":
        value_file.write_bytes(b"\x80\x05not a pickle" * 100)
    elif damage == "truncated":
        value_file.write_bytes(content[: len(content) // 2])
    elif damage == "emptied":
        value_file.write_bytes(b"")
    else:
        value_file.unlink()
    with caplog.at_level(logging.WARNING, logger="lab.store.cache"):
        assert cache.get(Square(2.0)) is None  # never a partial or garbled result
    if damage != "deleted":
        assert "it will be computed again" in caplog.text
    assert_recomputed_then_cached(cache, Square(2.0))


@pytest.mark.parametrize("damage", ["garbage", "pages"])
def test_a_corrupt_database_is_moved_aside_and_the_store_starts_anew(tmp_path, caplog, damage):
    directory = tmp_path / "results"
    cache = ResultCache(directory)
    cache.get_or_compute(Square(2.0), large_result)
    database = directory / "cache.db"
    if damage == "garbage":  # "file is not a database"
        garbage = np.random.default_rng(0).bytes(8192)
    else:  # header intact, pages overwritten: "database disk image is malformed"
        intact = database.read_bytes()
        garbage = intact[:4096] + np.random.default_rng(0).bytes(len(intact) - 4096)
    database.write_bytes(garbage)
    with caplog.at_level(logging.WARNING, logger="lab.store.stores"):
        assert_recomputed_then_cached(cache, Square(2.0))
    assert "is corrupt" in caplog.text
    (aside,) = tmp_path.glob("results.corrupt-*")  # kept whole for inspection, value files included
    assert (aside / "cache.db").read_bytes() == garbage and len(stored_value_files(aside)) == 1
    # Another process finding the same damage later leaves the recreated store alone.
    cache.store._move_corrupt_store_aside(RuntimeError("already handled"))
    assert cache.get(Square(2.0)) is not None and len(list(tmp_path.glob("results.corrupt-*"))) == 1


def test_a_deleted_directory_is_recreated_and_recomputed(tmp_path):
    directory = tmp_path / "results"
    cache = ResultCache(directory)
    cache.get_or_compute(Square(2.0), large_result)
    shutil.rmtree(directory)
    assert_recomputed_then_cached(cache, Square(2.0))


def test_a_lock_held_too_long_ends_in_a_typed_error_not_a_spin(tmp_path, monkeypatch):
    """Issue 15: no lock retry is unbounded; a store that stays locked says so within its timeout."""
    store = DiskStore(tmp_path / "results", timeout=0.5)
    cache = ResultCache(store)
    cache.get_or_compute(Square(1.0), large_result)
    attempts = []

    def locked(self, *args, **kwargs):
        attempts.append(1)
        raise diskcache.Timeout("database is locked")

    monkeypatch.setattr(diskcache.Cache, "get", locked)
    with pytest.raises(StoreUnavailableError, match="The cache store stayed locked for 0.5 s"):
        cache.get(Square(1.0))
    assert 1 <= len(attempts) < 1000
    monkeypatch.undo()
    assert not list(tmp_path.glob("results.corrupt-*")) and cache.get(Square(1.0)) is not None


def test_a_read_only_store_is_a_message_not_a_hang(tmp_path, monkeypatch):
    cache = ResultCache(tmp_path / "results")

    def read_only(self, *args, **kwargs):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(diskcache.Cache, "set", read_only)
    with pytest.raises(StoreUnavailableError, match="The result store is read-only"):
        cache.get_or_compute(Square(1.0), large_result)


# A child process computing through the cache: it signals it has started, then waits to be killed.
KILLED_CHILD = """
import pathlib, sys, time
from lab import ResultCache
from tests.lab.conftest import Square

def compute(request):
    pathlib.Path(sys.argv[2]).write_text("computing")
    time.sleep(600)

ResultCache(sys.argv[1]).get_or_compute(Square(5.0), compute)
"""


@pytest.mark.slow  # over 10 s on 2 busy cores: CI runs it, the fast command does not
def test_a_process_killed_mid_computation_stores_nothing_and_the_next_call_recomputes(tmp_path):
    directory, started = tmp_path / "results", tmp_path / "started"
    cache = ResultCache(directory)
    cache.get_or_compute(Square(1.0), large_result)  # a store with an entry and a value file already
    child = subprocess.Popen([sys.executable, "-c", KILLED_CHILD, str(directory), str(started)], cwd=ROOT)
    try:
        until(lambda: started.exists() or child.poll() is not None, timeout=120)
        assert child.poll() is None, "the child exited before computing"
    finally:
        child.send_signal(signal.SIGKILL)  # as a cancelled Dash job or a dying worker process
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    assert cache.get(Square(5.0)) is None
    assert not cache.get_or_compute(Square(5.0), large_result)[1]
    assert cache.get_or_compute(Square(1.0), large_result)[1]  # the store the child had open is intact


def test_identical_requests_share_one_computation(tmp_path):
    """Four identical requests were four computations (issue 20): the later ones wait and read the first's."""
    import threading
    import time

    cache = ResultCache(DiskStore(tmp_path / "results"))
    computed = []

    def slow(request):
        computed.append(request)
        time.sleep(1.0)
        return large_result(request)

    answers = []
    threads = [threading.Thread(target=lambda: answers.append(cache.get_or_compute(Square(3.0), slow)[1]))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(computed) == 1 and sorted(answers) == [False, True, True, True]
    assert cache.stats() == {"hits": 3, "computed": 1}


def test_partial_results_live_in_the_shared_store_never_a_hosts_copy(tmp_path):
    """A tiered store (this host's disk, then every host's store) copies what it reads: a run's first part stayed
    on the web host while the job's later parts went to the shared store, and came back after the whole result."""
    from lab.compute import compute
    from lab.store.stores import TieredStore

    local, shared = DiskStore(tmp_path / "host"), DiskStore(tmp_path / "shared")
    cache = ResultCache(TieredStore(local, shared))
    request = RunRequest.create("strip", "pca", n=200)
    parts = []
    compute(request, cache=None, partial=parts.append)
    cache.put_partial(request, parts[0])
    assert cache.get_partial(request).Y.shape[1] == 0
    cache.put_partial(request, parts[1])
    assert cache.get_partial(request).Y.shape[1] == 2 and cache.holds_partial(request)
    assert local.get(f"partial:{cache_key(request)}") is None  # never copied to this host
    compute(request, cache=cache)  # the whole result replaces it
    assert not cache.holds_partial(request) and cache.get_partial(request) is None


def test_a_computation_that_fails_drops_its_partial_result(tmp_path):
    """A run refused after its input was published (Isomap over its memory budget) left its first part in the
    cache, and the page drew that part over the failure's message."""
    from lab.compute import compute

    cache = ResultCache(tmp_path)
    request = RunRequest.create("swissroll", "isomap", n=30000)
    with pytest.raises(Exception, match="memory budget"):
        compute(request, cache=cache, partial=lambda result: cache.put_partial(request, result))
    assert not cache.holds_partial(request)
