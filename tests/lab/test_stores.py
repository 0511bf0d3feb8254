"""The stores every host reaches: Redis, and a host's disk in front of it (Celery across machines)."""

import errno
import gc
import os
import shutil
import subprocess
import threading

import diskcache
import numpy as np
import pytest
import redis
from dash.testing.wait import until

import datasets
from lab import ResultCache, UploadRef, UploadStore, cache_key, failure_message
from lab.store.stores import DiskStore, RedisStore, StoreUnavailableError, TieredStore, store_for
from tests.components.test_celery_browser import _free_port, _stop

from .conftest import BASE, Square, Squared, large_result


def _redis_server(*options, password=None):
    """A Redis of our own (no persistence) with ``options``: yields its URL (database 0), then stops it."""
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed; the shared stores are untested")
        pytest.skip("redis-server is not installed")
    port = _free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no", *options], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                               start_new_session=True)
    url = f"redis://{'' if password is None else f':{password}@'}127.0.0.1:{port}/0"

    def answers():
        try:
            return redis.Redis.from_url(url).ping()
        except redis.ConnectionError:
            return False

    until(answers, timeout=30)
    yield url
    _stop(process)


@pytest.fixture(scope="module")
def redis_url():
    yield from _redis_server()


def test_a_redis_store_keeps_bytes_counters_sizes_and_a_lock(redis_url):
    store = RedisStore(redis_url, "test-basic")
    store.put("a", b"x" * 1000, expire=60)
    assert store.get("a") == b"x" * 1000 and store.get("missing") is None
    assert store.touch("a", expire=120) and not store.touch("missing", expire=1)
    assert store.add("hits") == 1 and store.add("hits", 2) == 3 and store.add("hits", 0) == 3
    store.put("b", b"y" * 500)
    assert store.volume() == 1500
    store.delete("a")
    assert store.get("a") is None and store.volume() == 500
    entered = []

    def contender():
        with store.lock("index"):
            entered.append("second")

    with store.lock("index"):
        thread = threading.Thread(target=contender)
        thread.start()
        thread.join(0.3)
        entered.append("first")
    thread.join(10)
    assert entered == ["first", "second"]


def test_a_result_computed_on_one_host_is_read_on_another(redis_url, tmp_path):
    """Two hosts: each its own cache directory, one Redis. The second computes nothing."""
    worker = ResultCache(store_for(tmp_path / "worker", "results", shared_url=redis_url))
    web = ResultCache(store_for(tmp_path / "web", "results", shared_url=redis_url))
    result, cached = worker.get_or_compute(Square(3.0), large_result)
    assert not cached
    again = web.get(Square(3.0))
    np.testing.assert_array_equal(again.Y, result.Y)
    # The web host now has its own copy: Redis may lose the value and the host still answers.
    assert isinstance(web.store, TieredStore) and web.store.local.get(cache_key(Square(3.0))) is not None
    redis.Redis.from_url(redis_url).flushdb()
    np.testing.assert_array_equal(web.get(Square(3.0)).Y, result.Y)


def test_an_upload_is_private_to_its_session_on_every_host(redis_url, tmp_path):
    sender = UploadStore(store_for(tmp_path / "web", "uploads", shared_url=redis_url))
    worker = UploadStore(store_for(tmp_path / "worker", "uploads", shared_url=redis_url))
    content = b"x,y,z\n" + b"".join(f"{i},{i * i % 7},{i % 5}\n".encode() for i in range(60))
    sha = sender.put("alice", content)
    assert worker.for_session("alice").read(UploadRef(sha, "p.csv")) == content
    with pytest.raises(datasets.DatasetError, match="no longer on the server"):
        worker.for_session("mallory").read(UploadRef(sha, "p.csv"))


def test_an_unreachable_shared_store_is_a_typed_error_not_a_hang(tmp_path):
    store = TieredStore(DiskStore(tmp_path), RedisStore(f"redis://127.0.0.1:{_free_port()}/0", "gone", timeout=1))
    with pytest.raises(StoreUnavailableError, match="cannot be reached"):
        store.put("a", b"1")


def test_a_job_forked_while_another_thread_reads_the_store_can_write_it(tmp_path):
    """SQLite's lock records must not cross a fork: the fork waits for the reading thread's operation."""
    import multiprocessing
    import time

    store = DiskStore(tmp_path / "results", timeout=5)
    store.put("a", b"x" * 100_000)
    reading = threading.Event()

    def slow_reader():
        def read(cache):
            with cache.transact():  # a connection holds its lock while the main thread forks
                cache.get("a")
                reading.set()
                time.sleep(1.0)
            return True
        store._use(read)

    reader = threading.Thread(target=slow_reader)
    reader.start()
    assert reading.wait(10)
    child = multiprocessing.get_context("fork").Process(target=store.put, args=("b", b"y" * 100_000))
    child.start()
    child.join(20)
    reader.join(10)
    assert child.exitcode == 0, "the forked writer failed or hung on a lock nobody held"
    assert store.get("b") == b"y" * 100_000


# Issue 20: the page shows a store's message; the password, the URL and the folder stay in the server log.
PASSWORD = "s3cret-Pa55word"


def _assert_nothing_secret(message, *secrets_and_paths):
    assert message and message[0].isupper() and "try again" in message.lower()
    for forbidden in (PASSWORD, "redis://", "127.0.0.1", "/", *secrets_and_paths):
        assert forbidden not in message, (forbidden, message)


@pytest.fixture(scope="module")
def full_redis_url():
    """A Redis with a password and a 2 MB memory limit that refuses writes past it (noeviction)."""
    yield from _redis_server("--requirepass", PASSWORD, "--maxmemory", "2mb", "--maxmemory-policy", "noeviction",
                             password=PASSWORD)


def test_a_full_or_unreachable_shared_store_names_no_password_url_or_path(full_redis_url, tmp_path, caplog):
    uploads = UploadStore(store_for(tmp_path / "web", "uploads", shared_url=full_redis_url))
    with pytest.raises(StoreUnavailableError) as full:
        for index in range(20):  # 20 files of 512 kB: Redis refuses one past its 2 MB
            uploads.put(f"session-{index}", os.urandom(2**19))
    assert "The shared upload store is full" in failure_message(full.value)
    _assert_nothing_secret(failure_message(full.value), str(tmp_path))
    gone = f"redis://:{PASSWORD}@127.0.0.1:{_free_port()}/1"
    results = ResultCache(store_for(tmp_path / "web", "results", shared_url=gone))
    results.store.shared.timeout = 1
    results.store.shared._client.connection_pool.connection_kwargs.update(socket_connect_timeout=1)
    with pytest.raises(StoreUnavailableError) as unreachable:
        results.get_or_compute(Square(1.0), large_result)
    assert "The shared result store cannot be reached" in failure_message(unreachable.value)
    _assert_nothing_secret(failure_message(unreachable.value), str(tmp_path))
    assert PASSWORD not in caplog.text and ":***@127.0.0.1" in caplog.text  # the log says where, redacted


@pytest.fixture
def small_filesystem(tmp_path):
    """A 320 kB tmpfs of our own (root only): a disk that fills, and that can turn read-only."""
    mount = tmp_path / "mount"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=320k", "tmpfs", str(mount)],
                      capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (not root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=True)


def test_a_full_disk_store_names_no_path(small_filesystem):
    cache = ResultCache(store_for(small_filesystem, "results"))
    cache.get_or_compute(Square(0.0), lambda request: Squared(BASE[:10] * 0))  # the database exists
    with pytest.raises(StoreUnavailableError) as full:  # 320 kB of 20 000 floats: the disk fills
        cache.get_or_compute(Square(1.0), large_result)
    assert "The result store is full" in failure_message(full.value)
    _assert_nothing_secret(failure_message(full.value), str(small_filesystem), "results", "cache.db")


def test_a_store_whose_disk_turns_read_only_names_no_path(small_filesystem):
    uploads = UploadStore(store_for(small_filesystem, "uploads"))
    uploads.put("alice", b"1,2\n3,4\n")
    gc.collect()  # no SQLite handle left open: the remount would find the disk busy
    subprocess.run(["mount", "-o", "remount,ro", str(small_filesystem)], check=True)
    with pytest.raises(StoreUnavailableError) as read_only:
        uploads.put("alice", b"5,6\n7,8\n")
    assert failure_message(read_only.value).startswith("The upload store ")  # SQLite: "unable to open"
    _assert_nothing_secret(failure_message(read_only.value), str(small_filesystem), "uploads")


def test_a_disk_that_fills_mid_write_is_a_message_without_the_path(tmp_path, monkeypatch):
    """Without root (no tmpfs), the full disk is a write that fails with ENOSPC."""
    cache = ResultCache(store_for(tmp_path, "results"))

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "results" / "ab" / "cd.val"))

    monkeypatch.setattr(diskcache.Disk, "store", disk_full)
    with pytest.raises(StoreUnavailableError) as full:
        cache.get_or_compute(Square(1.0), large_result)
    assert failure_message(full.value).startswith("The result store is full.")
    _assert_nothing_secret(failure_message(full.value), str(tmp_path))


def test_a_local_copy_whose_shared_entry_is_gone_is_written_back(redis_url, tmp_path):
    """A worker answered "(cached)" from its own copy while the web host found nothing in Redis (issue 20)."""
    worker = ResultCache(store_for(tmp_path / "worker", "results", shared_url=redis_url))
    web = ResultCache(store_for(tmp_path / "web", "results", shared_url=redis_url))
    result, _ = worker.get_or_compute(Square(7.0), large_result)
    web.store.shared.delete(cache_key(Square(7.0)))  # dropped by another host (damaged there), or lost by Redis
    assert web.get(Square(7.0)) is None
    again, cached = worker.get_or_compute(Square(7.0), large_result)
    assert cached
    np.testing.assert_array_equal(web.get(Square(7.0)).Y, result.Y)  # the web host can draw it now


def test_presence_is_read_in_one_opening_and_a_tiered_store_asks_the_shared_one_for_what_it_lacks(redis_url, tmp_path,
                                                                                                  monkeypatch):
    local, shared = DiskStore(tmp_path / "here"), RedisStore(redis_url, "test-present")
    local.put("a", b"1")
    shared.put("b", b"2")
    assert local.present(["a", "b", "c"]) == [True, False, False]
    assert shared.present(["a", "b", "c"]) == [False, True, False] and shared.present([]) == []
    opened = []
    monkeypatch.setattr(local, "_use", lambda operation, use=local._use: opened.append(1) or use(operation))
    assert TieredStore(local, shared).present(["a", "b", "c"]) == [True, True, False]
    assert len(opened) == 1 and local.get("b") is None  # one opening; a presence copies nothing here
    cache = ResultCache(local)
    cache.get_or_compute(Square(2.0), large_result)
    assert cache.holding([Square(1.0), Square(2.0)]) == [False, True] and cache.holds(Square(2.0))
