"""The one cache key and the result cache: canonical, code-versioned, nothing partial stored."""

import pytest

from components import jobs
from components.jobs import ResultCache, cache_key


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
