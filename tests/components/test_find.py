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


def test_a_notebook_s_selection_is_kept_through_redraws_of_its_run_and_delivered_only_to_it(shown, tmp_path):
    """components.notebook_link: Python's rows are marked once the run they select in is shown, kept while that run
    is redrawn (a blank find box does not clear them), and refused by the page when out of its range."""
    from components import notebook_link
    from lab import ViewState
    from lab.view.notebook import NotebookPage, prepare

    services, record = shown
    drawn = {"request": record["request"], "color": "normalized"}
    selection = {"rows": [1, 2], "drawn": drawn, "query": "", "from": notebook_link.NOTEBOOK}
    recoloured = {**drawn, "color": "conformal"}
    assert find_points(services, "", recoloured, record, "session", selection) == (
        {**selection, "drawn": recoloured}, dash.no_update)
    elsewhere = {**drawn, "request": {"another": "run"}}
    assert find_points(services, "", elsewhere, record, "session", selection)[0]["rows"] == []

    page = NotebookPage(prepare(*shown_data(), directory=tmp_path))
    state = ViewState.from_dict(from_query("?dataset=swissroll&n=300&k=8&algorithm=pca").to_dict())
    page.report_state(state.to_dict())
    page.select([5, 6])
    apply, found, text, seen = notebook_link.deliver_orders(services, page, 1, {"order": 0}, record, drawn, "session")
    assert apply is dash.no_update and found["rows"] == [5, 6] and found["from"] == notebook_link.NOTEBOOK
    assert seen == {"order": 1} and text.startswith("From the notebook: 2 points selected")
    # Asked for another run (a view set after it, not shown yet): it waits.
    page.set_view(k=9)
    page.select([7])
    apply, *_ = notebook_link.deliver_orders(services, page, 2, {"order": 1}, record, drawn, "session")
    assert apply["state"]["method"]["n_neighbors"] == 9
    with pytest.raises(dash.exceptions.PreventUpdate):
        notebook_link.deliver_orders(services, page, 3, {"order": 2}, record, drawn, "session")


def shown_data():
    import datasets

    data = datasets.load("swissroll", n=300)
    return data.X, None
