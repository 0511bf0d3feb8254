"""Uploaded files: private to their session, within a quota, never evicted to make room."""

import numpy as np
import pytest

import datasets
from lab import DataChoice, UploadRef, UploadStore, RunRequest
from lab.compute import compute
from lab.store.uploads import UPLOAD_GONE

CSV = "x,y,z\n" + "\n".join(f"{a:.6f},{b:.6f},{a * b:.6f}" for a, b in np.random.default_rng(0).uniform(size=(80, 2)))


def test_a_file_is_readable_only_by_the_session_that_sent_it(tmp_path):
    store = UploadStore(tmp_path)
    sha = store.put("alice", CSV.encode())
    assert store.read("alice", sha) == CSV.encode()
    with pytest.raises(datasets.DatasetError, match="no longer on the server"):
        store.read("mallory", sha)  # knowing the hash is not enough
    reference = DataChoice("upload", upload=UploadRef(sha, "points.csv"))
    store.for_session("alice").authorize(reference)
    with pytest.raises(datasets.DatasetError) as refused:
        store.for_session("mallory").authorize(reference)
    assert str(refused.value) == UPLOAD_GONE


def test_a_run_reads_the_file_through_its_session(tmp_path):
    store = UploadStore(tmp_path)
    sha = store.put("alice", CSV.encode())
    request = RunRequest.create("upload", "pca", n_neighbors=6, upload=UploadRef(sha, "points.csv"))
    result = compute(request, cache=None, uploads=store.for_session("alice")).result
    np.testing.assert_allclose(result.X, datasets.parse_upload(CSV.encode(), "points.csv").X)
    with pytest.raises(datasets.DatasetError, match="no longer on the server"):
        compute(request, cache=None, uploads=store.for_session("mallory")).result


def test_a_session_quota_refuses_without_evicting(tmp_path):
    store = UploadStore(tmp_path, session_quota=3000)
    first = store.put("alice", b"a" * 2000)
    with pytest.raises(datasets.DatasetError, match="each session may keep"):
        store.put("alice", b"b" * 2000)
    assert store.put("alice", b"a" * 2000) == first  # the same file again costs nothing
    store.put("bob", b"b" * 2000)  # another session has its own quota
    assert store.read("alice", first) == b"a" * 2000


def test_a_full_store_refuses_new_files_instead_of_evicting_someone_else_s(tmp_path):
    store = UploadStore(tmp_path, size_limit=300_000, session_quota=10**9)
    victim = store.put("victim", b"v" * 100_000)
    store.put("attacker", b"1" * 100_000)
    with pytest.raises(datasets.DatasetError, match="space for uploads is full"):
        for i in range(10):
            store.put("attacker", bytes([i]) * 100_000)
    assert store.read("victim", victim) == b"v" * 100_000


def test_a_damaged_upload_reads_as_gone(tmp_path):
    store = UploadStore(tmp_path)
    sha = store.put("alice", b"z" * 100_000)
    (value_file,) = list(tmp_path.rglob("*.val"))
    content = value_file.read_bytes()
    value_file.write_bytes(content[:500] + b"!" + content[501:])
    with pytest.raises(datasets.DatasetError, match="no longer on the server"):
        store.read("alice", sha)


def test_an_uploaded_file_runs_like_its_points_and_its_content_is_in_the_key(tmp_path):
    from lab import cache_key
    import algorithms
    import measures

    data = datasets.load("swissroll", 300)
    content = "\n".join(",".join(repr(float(v)) for v in row) for row in data.X).encode()
    store = UploadStore(tmp_path)
    sha = store.put("alice", content)
    request = RunRequest.create("upload", "isomap", n=1600, noise=0.5, dataset_params={"stretch": 2.0},
                                upload=UploadRef(sha, "roll.csv"))
    assert (request.data.n, request.data.noise, request.data.params) == (None, 0.0, ())  # the file is the sample
    result = compute(request, cache=None, uploads=store.for_session("alice")).result
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    np.testing.assert_array_equal(result.X, data.X)
    assert result.summary["normalized"][0] == pytest.approx(measures.procrustes(data.X, Y, 10), rel=1e-9)
    longer = UploadRef(store.put("alice", content + b"\n0,0,1"), "roll.csv")
    other = RunRequest.create("upload", "isomap", upload=longer)
    assert cache_key(request) != cache_key(other)


def test_only_a_few_uploads_are_read_at_once_and_a_late_one_is_told_to_wait(tmp_path):
    import threading

    from lab.store.uploads import UPLOAD_BUSY

    store = UploadStore(tmp_path, reading_slots=1)
    inside, release = threading.Event(), threading.Event()

    def reader():
        with store.reading():
            inside.set()
            release.wait(30)

    first = threading.Thread(target=reader)
    first.start()
    assert inside.wait(30)
    with pytest.raises(datasets.DatasetError) as busy:
        with store.reading(wait=0.2):
            pass
    assert str(busy.value) == UPLOAD_BUSY.format(slots=1)
    release.set()
    first.join(30)
    with store.reading(wait=1):  # the turn came back
        pass


def test_a_client_inventing_session_strings_meets_its_address_quota(tmp_path):
    """A new session string was a new quota: 1.16 GB in 109 s from one client (issue 20)."""
    from lab.store.uploads import UPLOAD_CLIENT_QUOTA

    store = UploadStore(tmp_path, session_quota=3000, client_quota=5000)
    store.put("session-1", b"a" * 2000, client="203.0.113.7")
    store.put("session-2", b"b" * 2000, client="203.0.113.7")
    store.put("session-2", b"b" * 2000, client="203.0.113.7")  # the same file again costs nothing
    with pytest.raises(datasets.DatasetError) as refused:
        store.put("session-3", b"c" * 2000, client="203.0.113.7")
    assert str(refused.value) == UPLOAD_CLIENT_QUOTA.format(used_mb=4000 / 2**20, size_mb=2000 / 2**20,
                                                             quota_mb=5000 / 2**20)
    assert not store.holds("session-3", datasets.upload_sha256(b"c" * 2000))  # nothing kept, no session charged
    store.put("session-3", b"c" * 2000, client="198.51.100.2")  # another address has its own quota
