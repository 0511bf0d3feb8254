"""The study interface's common suite: every request type the lab computes, held to one contract.

Each kind in :data:`lab.compute.REQUESTS` round-trips ``to_dict`` / ``from_dict`` (through JSON), keeps its
cache key across processes, computes the same result twice and reads it back from the cache, stores
nothing when cancelled, and refuses a bad field with a :class:`lab.StateError`. A new request type
without an example here fails :func:`test_every_request_type_has_an_example`.
"""

import dataclasses
import json
import subprocess
import sys
import types

import numpy as np
import pytest

from lab import (CompareRequest, DataChoice, MethodChoice, NormalizationRequest, PairRequest, ResultCache, RunRequest,
                 SeedNoiseRequest, StabilityRequest, StateError, SweepRequest, UploadStore, YardstickRequest,
                 cache_key)
from lab.compute import REQUESTS, compute, request_from_dict
from lab.compute.normalization import PhiCurveRequest
from lab.store.serialization import decode, encode
from lab.tours.steps import StepRequest

DATA = DataChoice("strip", 120, params=(("length", 3.0),)).validated()
RUN = RunRequest(DATA, MethodChoice("pca", 6).validated())
NORMALIZATION = NormalizationRequest.from_dict({"shape": "strip", "aspect": 2.0, "n": 150, "n_neighbors": 8,
                                                "algorithms": ["ltsa"]})

# One small request of every kind, and a field of its dict that must be refused.
EXAMPLES = {
    "run": (RUN, lambda values: values["method"].update(n_neighbors=10**6)),
    "sweep": (SweepRequest(DATA, ("pca", "isomap"), (6, 8)), lambda values: values.update(ks=[1])),
    "compare": (CompareRequest(DATA, 6, ("pca", "isomap"), True), lambda values: values.update(n_neighbors=0)),
    "pair": (PairRequest(RUN, RunRequest(DATA, MethodChoice("isomap", 6).validated())),
             lambda values: values["b"]["data"].update(n=121)),  # B on other points than A
    "stability": (StabilityRequest(DATA, MethodChoice("pca", 6).validated(), "subsamples", 3, 0.8),
                  lambda values: values.update(n_runs=0)),
    "seed_noise": (SeedNoiseRequest(PairRequest(RUN, RunRequest(DATA, MethodChoice("isomap", 6).validated())), 2),
                   lambda values: values.update(n_runs=0)),
    "normalization": (NORMALIZATION, lambda values: values.update(shape="hexagon")),
    "phi_ratio_curve": (PhiCurveRequest.of_study(NORMALIZATION), lambda values: values.update(algorithms=["pca"])),
    "yardsticks": (YardstickRequest(RUN), lambda values: values.update(n_draws=99)),
    "tour_step": (StepRequest("a-step", ("pca", "isomap"),
                              (RUN, RunRequest(DATA, MethodChoice("isomap", 6).validated()))),
                  lambda values: values.update(panels=[])),
}


class Cancelled(Exception):
    """What a job's Cancel raises through its progress callable."""


# How a result was obtained, not what it is: its time, and how many of its runs were computed or read.
PROVENANCE = {"seconds", "computed", "cached"}


def _same(a, b):
    """Whether two results' values are equal, arrays exactly, provenance aside (:data:`PROVENANCE`)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a if key not in PROVENANCE)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b, equal_nan=True)
    return a == b or (a != a and b != b)  # NaN == NaN here


def test_every_request_type_has_an_example():
    assert set(REQUESTS) == set(EXAMPLES)
    for kind, request_type in REQUESTS.items():
        assert request_type.KIND == kind and isinstance(EXAMPLES[kind][0], request_type)
        assert "RESULT" in vars(request_type), f"{kind}: the result type is declared in the class body"


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_a_request_round_trips_through_json(kind):
    request = EXAMPLES[kind][0]
    values = json.loads(json.dumps(request.to_dict()))
    assert type(request).from_dict(values) == request
    assert request_from_dict(kind, values) == request
    assert cache_key(request_from_dict(kind, values)) == cache_key(request)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_a_bad_field_is_refused_with_a_message(kind):
    request, spoil = EXAMPLES[kind]
    values = json.loads(json.dumps(request.to_dict()))
    spoil(values)
    with pytest.raises(StateError) as refused:
        request_from_dict(kind, values)
    assert str(refused.value)
    for hostile in ("x" * 100, [], None, {"data": [1] * 1000}):
        with pytest.raises(StateError):
            request_from_dict(kind, hostile)


def test_an_unknown_kind_is_refused():
    with pytest.raises(StateError, match="Unknown request kind"):
        request_from_dict("rm -rf", {})


def test_cache_keys_are_the_same_in_another_process():
    """The key hashes canonical JSON and the code, nothing of the process (no hash seeds, no ids)."""
    script = ("import json, sys\nfrom lab import cache_key\nfrom lab.compute import request_from_dict\n"
              "dicts = json.load(sys.stdin)\n"
              "print(json.dumps({kind: cache_key(request_from_dict(kind, values)) for kind, values in dicts.items()}))")
    dicts = {kind: request.to_dict() for kind, (request, _) in EXAMPLES.items()}
    answer = subprocess.run([sys.executable, "-c", script], input=json.dumps(dicts), capture_output=True, text=True,
                            check=True, env={"PYTHONHASHSEED": "12345", "PATH": ""}, cwd=".")
    assert json.loads(answer.stdout) == {kind: cache_key(request) for kind, (request, _) in EXAMPLES.items()}


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_the_same_request_gives_the_same_result_and_the_cache_returns_it(kind, tmp_path):
    request = EXAMPLES[kind][0]
    first, cached = compute(request, cache=None)
    again, _ = compute(request, cache=None)
    assert not cached and _same(decode(encode(first.to_value())), decode(encode(again.to_value())))
    cache = ResultCache(tmp_path)
    stored, cached = compute(request, cache=cache)
    read, read_cached = compute(request, cache=cache)
    assert not cached and _same(first.to_value(), stored.to_value())
    keeps = getattr(stored, "cacheable", True)  # a sweep is kept cell by cell, its counts not
    assert read_cached == keeps and _same(read.to_value(), stored.to_value())
    assert isinstance(stored, type(request).RESULT)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_a_cancelled_computation_stores_nothing_and_the_next_one_completes(kind, tmp_path):
    request = EXAMPLES[kind][0]
    cache = ResultCache(tmp_path)
    calls = []

    def cancel_on_the_second_report(fraction, stage):
        calls.append(stage)
        if len(calls) == 2:
            raise Cancelled(stage)

    with pytest.raises(Cancelled):
        compute(request, cache=cache, progress=cancel_on_the_second_report)
    assert cache.get(request) is None
    result, cached = compute(request, cache=cache)
    assert not cached and isinstance(result, type(request).RESULT)


def test_registering_an_incomplete_request_type_is_refused():
    from lab.compute.study import register

    @dataclasses.dataclass(frozen=True)
    class Half:
        KIND = "half"

        def to_dict(self):
            return {}

    with pytest.raises(TypeError, match="lacks RESULT, from_dict, _compute"):
        register(Half)
    with pytest.raises(TypeError, match="Two request types"):
        register(type("Other", (RunRequest,), {}))


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_every_request_names_its_data_for_the_upload_check(kind, tmp_path):
    """:meth:`lab.UploadStore.authorized` fails closed: a kind must show its data or declare it reads none."""
    request = EXAMPLES[kind][0]
    assert hasattr(request, "data") != getattr(type(request), "READS_NO_UPLOAD", False)
    UploadStore(tmp_path).authorized("a-session", request)  # the catalogue's data: nothing to refuse


def test_a_request_kind_that_hides_its_data_is_stopped_by_the_upload_check(tmp_path):
    hidden = types.SimpleNamespace(run=RUN)
    with pytest.raises(TypeError, match="READS_NO_UPLOAD"):
        UploadStore(tmp_path).authorized("a-session", hidden)
