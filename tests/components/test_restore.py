"""A link to a study's tab opens with its result when this server holds it (issue 19 item 8): read from the
result cache, never computed in the request; otherwise the tab waits for its button, as before."""

import dash
import pytest

from components import jobs
from components.compare import keep_comparison
from components.sweep import keep_sweep
from lab import CompareRequest, SweepRequest, from_query
from lab.compute import compute
from serving.services import Services

SWEEP = "?tab=sweep&dataset=swissroll&n=300&sweep.algorithms=pca,isomap&sweep.k_min=6&sweep.k_max=8&sweep.k_step=2"
COMPARE = "?tab=compare&dataset=swissroll&n=300&compare.algorithms=pca,ltsa"


@pytest.fixture
def services(tmp_path):
    return Services.in_directory(tmp_path)


def restore(services, request_type, keep, tab, shown_tab, link, stored=None):
    state = from_query(link).to_dict()
    return jobs.restore_cached(services, request_type, keep, tab, shown_tab, state, stored, "session")


def test_a_sweep_whose_cells_are_cached_is_restored_with_the_rows_its_button_computes(services):
    assert restore(services, SweepRequest, keep_sweep, "sweep", "sweep", SWEEP) == (dash.no_update, dash.no_update)
    computed = compute(SweepRequest.from_state(from_query(SWEEP)), cache=services.results).result
    before = services.results.stats()
    stored, message = restore(services, SweepRequest, keep_sweep, "sweep", "sweep", SWEEP)
    assert stored["result"]["rows"] == list(computed.rows) and len(computed.rows) == 4
    assert stored["state"] == from_query(SWEEP).to_dict()
    assert message.startswith("Restored from this server's cache.")
    assert "4 runs: 0 computed, 4 from the cache" in message
    after = services.results.stats()
    assert after["hits"] == before["hits"] + 4  # every cell read, none computed in the request


def test_a_sweep_missing_a_cell_waits_for_its_button(services):
    request = SweepRequest.from_state(from_query(SWEEP))
    compute(request.parts()[0], cache=services.results)  # one of its four runs
    assert restore(services, SweepRequest, keep_sweep, "sweep", "sweep", SWEEP) == (dash.no_update, dash.no_update)
    assert services.results.stats()["computed"] == 1


def test_a_comparison_kept_whole_is_restored_only_on_its_own_tab_and_into_an_empty_store(services):
    compute(CompareRequest.from_state(from_query(COMPARE)), cache=services.results)
    stored, message = restore(services, CompareRequest, keep_comparison, "compare", "compare", COMPARE)
    assert stored["state"]["compare"]["algorithms"] == ["pca", "ltsa"] and message.startswith("Restored")
    assert restore(services, CompareRequest, keep_comparison, "compare", "sweep", COMPARE) == (dash.no_update,) * 2
    assert restore(services, CompareRequest, keep_comparison, "compare", "compare", COMPARE,
                   stored={"state": {}}) == (dash.no_update,) * 2


@pytest.mark.parametrize("state", [None, 7, "text", {"data": {"n": "many"}}, {"sweep": [1] * 100}])
def test_a_forged_state_is_a_message_never_an_error(services, state):
    stored, message = jobs.restore_cached(services, SweepRequest, keep_sweep, "sweep", "sweep", state, None, "s")
    assert stored is dash.no_update and isinstance(message, str) and message
