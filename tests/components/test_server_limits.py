"""Every limit the page shows is the server's too (issue 15): what a forged request to the callback endpoint
hands the callbacks is validated before anything is allocated, and refused with the controls' message.

The callback endpoint passes a request's inputs to these functions as they are; these tests call them
with what a hand-made request could carry.
"""

import copy

import pytest

from components.explore import show_state
from components.explore_job import compute_record
from lab import StateError, SweepRequest, ViewState
from serving.services import Services
from tests.strategies import run_part


@pytest.fixture
def services(tmp_path):
    return Services.in_directory(tmp_path)


def forged(**changes):
    """The default state's dict with some settings replaced, as a client could send it."""
    state = copy.deepcopy(ViewState().validated().to_dict())
    for path, value in changes.items():
        part, field = path.split(".")
        state[part][field] = value
    return state


@pytest.mark.parametrize("changes, message", [
    ({"method.n_neighbors": 2000}, "k must lie in [3, 50]; got 2000."),
    ({"data.n": 10**9}, "n must lie in [50, 1000000]"),
    ({"data.noise": float("nan")}, "noise σ must be finite"),
    ({"data.noise": [1, 2]}, "noise σ must be a number"),
    ({"method.algorithm": "rm -rf"}, "unknown algorithm 'rm -rf'"),
    ({"normalization.shape": "hexagon"}, "normalization: shape must be one of"),
])
def test_a_forged_explore_request_is_refused_before_anything_runs(services, changes, message):
    state = forged(**changes)
    shown = show_state(services, state, None, None, "session", "token")
    assert message in shown["message"] and shown["shown"]["message"] == shown["message"]
    if all(path.split(".")[0] in ("data", "method") for path in changes):  # the run the job receives is forged too
        record = compute_record(services, {"request": run_part(state), "nonce": "n1"}, "session", lambda *args: None)
        assert record["status"] == "failed" and record["message"] == shown["message"]
    assert services.results.stats() == {"hits": 0, "computed": 0}


def test_a_forged_sweep_of_a_million_cells_is_refused(services):
    state = forged(**{"sweep.k_min": 3, "sweep.k_max": 10**6, "sweep.k_step": 1})
    with pytest.raises(StateError, match="sweep: highest k must lie in"):
        SweepRequest.from_state(ViewState.from_dict(state))
    request = {"data": state["data"], "algorithms": ["pca"], "ks": list(range(3, 10**6))}
    with pytest.raises(StateError, match="sweep: at most"):
        SweepRequest.from_dict(request)
