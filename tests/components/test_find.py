"""Find points on the server: the rows of the run shown, the line that says so, and what it cannot read."""

import dash
import pytest

from components.explore_job import compute_record
from components.find import find_points
from lab import RunRequest, from_query
from lab.compute import compute
from lab.compute.find import find_rows
from lab.compute.views import selection_summary
from serving.services import Services
from tests.strategies import run_part


@pytest.fixture
def shown(tmp_path):
    services = Services.in_directory(tmp_path)
    state = from_query("?dataset=swissroll&n=300&k=8&algorithm=pca").to_dict()
    record = compute_record(services, {"request": run_part(state), "nonce": "n"}, "session", lambda *args: None)
    return services, record


def test_a_query_finds_the_rows_of_the_run_shown_and_says_how_many(shown):
    services, record = shown
    result = compute(RunRequest.from_dict(record["request"]), cache=services.results).result
    found, text = find_points(services, "R_N top 10%", {"request": 1}, record, "session")
    assert found == {"rows": find_rows(result, "R_N top 10%").tolist(), "drawn": {"request": 1}, "query": "R_N top 10%"}
    assert len(found["rows"]) == 30 and text == "“R_N top 10%”: " + selection_summary(result, found["rows"])


@pytest.mark.parametrize("query, says", [("", ""), ("R_N > 99", "“R_N > 99”: no point."),
                                         ("wingspan < 2", "no per-point measure, truth or metadata column 'wingspan'")])
def test_a_blank_query_an_empty_answer_and_an_unknown_field_clear_the_marks(shown, query, says):
    services, record = shown
    found, text = find_points(services, query, None, record, "session")
    assert found["rows"] == [] and says in text


@pytest.mark.parametrize("record", [None, [1], {"status": "done"}, {"status": "failed", "message": "no run"}])
def test_a_record_the_page_did_not_write_or_a_failed_run_marks_nothing(shown, record):
    services, _ = shown
    found, text = find_points(services, "R_N > 0", None, record, "session")
    assert found is dash.no_update or found["rows"] == []


def test_a_redraw_of_the_same_run_marks_the_rows_found_without_reading_the_run_again(shown, monkeypatch):
    services, record = shown
    drawn = {"request": record["request"], "color": "normalized"}
    found, text = find_points(services, "R_N top 10%", drawn, record, "session")
    reads = []
    original = services.results.get
    monkeypatch.setattr(services.results, "get", lambda request: reads.append(request) or original(request))
    recoloured = {**drawn, "color": "conformal"}
    again, same_text = find_points(services, "R_N top 10%", recoloured, record, "session", found)
    assert again == {**found, "drawn": recoloured} and same_text is dash.no_update and reads == []
    # Another query, or another run drawn, is read again.
    other, _ = find_points(services, "R_N top 20%", recoloured, record, "session", found)
    assert len(other["rows"]) == 60 and len(reads) == 1
    elsewhere = {**drawn, "request": {"another": "run"}}
    assert find_points(services, "R_N top 10%", elsewhere, record, "session", found)[0]["rows"] == found["rows"]
    assert len(reads) == 2
