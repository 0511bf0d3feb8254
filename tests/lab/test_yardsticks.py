"""A run's yardsticks as a study: the values of measures.yardsticks on the run's output, its limits on the server."""

import numpy as np
import pytest

import measures
from lab import DataChoice, MethodChoice, ResultCache, RunRequest, StateError, YardstickRequest
from lab.compute import compute
from lab.compute.catalogue import YARDSTICK_MAX_SAMPLES


def test_a_runs_yardsticks_are_measures_yardsticks_of_its_output_with_its_seed(tmp_path):
    cache = ResultCache(tmp_path)
    run = RunRequest.create("swissroll", "isomap", n=400, n_neighbors=8, random_state=3)
    sticks, cached = compute(YardstickRequest(run), cache=cache)
    result, run_cached = compute(run, cache=cache)
    assert not cached and run_cached  # the study computed the run through the cache
    names = [name for name in result.summary]
    direct = measures.yardsticks(result.X, result.Y, 8, names, random_state=3, truth=result.truth)
    assert sticks.random == pytest.approx(dict(direct.random), nan_ok=True)
    assert sticks.best["normalized"] == result.summary["lower_bound"][0]
    assert set(sticks.random) == {name for name in names if measures.spec(name).reads_output}
    # Isomap on the roll beats a random output on every measure with a direction but the scale-bound
    # stress, which the output's units alone can put above a random output's (SPEC §3).
    assert sticks.values == {name: result.summary[name][0] for name in names}
    beaten = [name for name in sticks.random if sticks.verdict(name)]
    assert beaten == [] or set(beaten) <= {"stress", "kl_divergence"}


def test_a_run_above_the_cap_is_refused_before_anything_is_computed(tmp_path):
    run = RunRequest.create("swissroll", "pca", n=YARDSTICK_MAX_SAMPLES + 1)
    with pytest.raises(StateError, match=f"at most {YARDSTICK_MAX_SAMPLES:,} points"):
        YardstickRequest(run)


@pytest.mark.parametrize("values", [None, [], {"run": "x"}, {"run": RunRequest.create().to_dict(), "n_draws": 0},
                                    {"run": RunRequest.create().to_dict(), "n_draws": [1] * 10**4},
                                    {"run": {**RunRequest.create().to_dict(), "measures": ["normalized"]}}])
def test_hostile_requests_are_refused_with_a_state_error(values):
    with pytest.raises(StateError):
        YardstickRequest.from_dict(values)


def test_the_verdict_reads_the_measures_direction():
    run = RunRequest(DataChoice("strip", 120).validated(), MethodChoice("pca", 6).validated())
    sticks, _ = compute(YardstickRequest(run), cache=None)
    assert sticks.verdict("trustworthiness", 0.3) is True and sticks.verdict("trustworthiness", 0.99) is False
    assert sticks.verdict("trustworthiness") is False  # PCA of a flat strip keeps its neighbours
    assert sticks.verdict("collapse", 0.5) is None  # no direction
    assert not np.isnan(sticks.random["trustworthiness"])


def test_doctests():
    import doctest

    import lab.compute.yardsticks

    assert doctest.testmod(lab.compute.yardsticks).failed == 0
