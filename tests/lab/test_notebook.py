"""A notebook's arrays as the dashboard's data: read back exactly, measured as measures.evaluate measures them."""

import dataclasses

import numpy as np
import pytest

import datasets
import measures
from lab import RunRequest, StateError, UploadStore
from lab.compute import compute
from lab.compute import catalogue
from lab.compute.choices import UploadRef
from lab.compute.runs import parse_uploaded
from lab.store.cache import host_results
from lab.view.notebook import NotebookPage, prepare


@pytest.fixture
def roll():
    data = datasets.load("swissroll", 300, random_state=1)
    return data.X, data.truth * [1.0, 0.7]


def run_of(start):
    uploads = UploadStore(start.directory / "uploads").for_session(start.session)
    return compute(RunRequest.from_state(start.state), cache=None, uploads=uploads).result, uploads


def test_the_arrays_are_read_back_exactly_and_the_output_is_measured(roll, tmp_path):
    X, Y = roll
    start = prepare(X, Y, n_neighbors=8, directory=tmp_path)
    assert start.state.method.algorithm == catalogue.UPLOADED_OUTPUT and start.state.method.n_neighbors == 8
    assert start.search == "?algorithm=uploaded&dataset=upload&k=8"
    result, _ = run_of(start)
    np.testing.assert_array_equal(result.X, X)
    np.testing.assert_array_equal(result.Y, Y)
    evaluation = measures.evaluate(X, Y, 8)
    assert result.summary["normalized"][0] == pytest.approx(evaluation.mean["normalized"], rel=1e-12)
    assert result.summary["trustworthiness"][0] == pytest.approx(evaluation.mean["trustworthiness"], rel=1e-12)
    # The page's record names the same upload the state does.
    assert UploadRef.from_dict({key: start.upload[key] for key in start.state.data.upload.to_dict()}) == \
        start.state.data.upload
    assert (start.upload["n"], start.upload["dim"]) == (300, 3)


def test_labels_and_truth_come_along(roll, tmp_path):
    X, Y = roll
    labels = np.where(Y[:, 0] > np.median(Y[:, 0]), "outer", "inner")
    start = prepare(X, Y, labels=labels, directory=tmp_path / "labels")
    result, uploads = run_of(start)
    assert set(parse_uploaded(start.state.data.upload, uploads).upload.color_categories) == {"inner", "outer"}
    # Class labels turn the label measures on.
    codes = (labels == "outer").astype(int)
    assert result.summary["silhouette"][0] == pytest.approx(measures.silhouette(Y, codes), rel=1e-12)
    truth = datasets.load("swissroll", 300, random_state=1).truth
    start = prepare(X, Y, truth=truth, directory=tmp_path / "truth")
    result, _ = run_of(start)
    np.testing.assert_array_equal(result.truth, truth)
    assert "truth_match" in result.summary


def test_without_an_output_the_page_runs_an_algorithm(roll, tmp_path):
    X, _ = roll
    start = prepare(X, algorithm="pca", directory=tmp_path)
    assert start.state.method.algorithm == "pca"
    result, _ = run_of(start)
    assert result.summary["normalized"][0] == pytest.approx(measures.procrustes(X, result.Y, 10), rel=1e-12)


def test_bad_arrays_are_refused_with_the_parser_s_message(roll, tmp_path):
    X, Y = roll
    with pytest.raises(measures.DatasetError, match="one output row per point"):
        prepare(X, Y[:-1], directory=tmp_path)
    with pytest.raises(measures.DatasetError, match="more columns than|at most as many dimensions"):
        prepare(X[:, :2], np.c_[Y, Y[:, :1]], directory=tmp_path)
    with pytest.raises(measures.DatasetError, match="every point at one place"):
        prepare(X, np.ones_like(Y), directory=tmp_path)
    with pytest.raises(measures.DatasetError, match="NaN"):
        prepare(np.where(X > 10, np.nan, X), Y, directory=tmp_path)


# The page object a notebook reads and drives (lab.view.notebook.NotebookPage).

@pytest.fixture
def page(roll, tmp_path):
    X, Y = roll
    return NotebookPage(prepare(X, Y, n_neighbors=8, directory=tmp_path))


def test_python_reads_what_the_page_reports_and_nothing_it_cannot_show(page):
    assert page.state == page.start.state and page.selected.tolist() == [] and page.measures == {}
    shown = page.start.state.with_algorithm("isomap").validated()
    page.report_state(shown.to_dict())
    assert page.state == shown and page.link == "?algorithm=isomap&dataset=upload&k=8"
    page.report_selection([5, 2, 2, 299])
    assert page.selected.tolist() == [2, 5, 299]  # the rows, once each, in order
    for forged in ({"method": {"n_neighbors": -3}}, "text", None):
        with pytest.raises(StateError):
            page.report_state(forged)
    for forged in ([300], [-1], [1.5], [True], ["3"], [[1, 2]]):
        with pytest.raises(StateError, match="whole numbers from 0 to 299"):
            page.report_selection(forged)
    assert page.state == shown and page.selected.tolist() == [2, 5, 299]


def test_set_view_changes_link_keys_of_the_view_shown_and_refuses_what_the_page_would(page):
    assert page.orders_after(0) == []
    shown = page.set_view(algorithm="lle", k=12, color="asim")
    assert (shown.method.algorithm, shown.method.n_neighbors, shown.display.color) == ("lle", 12, "asim")
    assert shown.data == page.start.state.data  # the arrays stay the data set
    assert page.orders_after(0) == [(1, "view", shown.to_dict())]
    # Keys Python cannot spell as names, and lists.
    shown = page.set_view({"d.noise": 0.0}, **{"compare.algorithms": ["pca", "isomap"]})
    assert shown.compare.algorithms == ("pca", "isomap")
    whole = page.start.state.with_algorithm("pca").validated()
    assert page.set_view(whole) == whole
    assert [kind for _, kind, _ in page.orders_after(0)] == ["view"]  # the latest view only
    for changes in ({"k": 0}, {"algorithm": "no-such"}, {"nope": 1}):
        with pytest.raises(StateError):
            page.set_view(**changes)
    with pytest.raises(TypeError):
        page.set_view(whole, k=3)


def test_select_orders_rows_of_the_data_shown_and_the_latest_of_each_kind_goes_to_the_page(page):
    page.set_view(algorithm="pca")
    rows = page.select(np.array([7, 3]))
    assert rows.tolist() == [3, 7] and page.selected.tolist() == [3, 7]
    assert [(number, kind) for number, kind, _ in page.orders_after(0)] == [(1, "view"), (2, "select")]
    # Asked after set_view, before the page shows it: the selection is of the run Python asked for.
    pca = RunRequest.from_state(page.start.state.with_algorithm("pca").validated()).to_dict()
    assert page.orders_after(1) == [(2, "select", {"rows": [3, 7], "request": pca})]
    assert page.orders_after(2) == []
    with pytest.raises(StateError, match="from 0 to 299"):
        page.select([300])
    # Once a page received the view, a selection is of the run the page shows (here the user moved on).
    page.handed(1)
    page.report_state(page.start.state.with_algorithm("isomap").validated().to_dict())
    page.select([4])
    assert page.orders_after(2)[0][2]["request"] == RunRequest.from_state(page.state).to_dict()
    # On a data set the user chose in the page, rows are that data set's.
    page.report_state(page.start.state.with_dataset("swissroll", None).validated().to_dict())
    assert page.select([1599]).tolist() == [1599]
    # A finite set at its default size has no n before its run: the page checks the rows when it marks them.
    page.report_state(page.start.state.with_dataset("digits", None).validated().to_dict())
    assert page.state.data.n is None and page.select([5000]).tolist() == [5000]
    with pytest.raises(StateError, match="whole numbers from 0[.]"):
        page.select([-1])


def test_set_view_keeps_the_file_the_page_shows_and_prepare_refuses_columns_of_other_lengths(page, roll, tmp_path):
    other = dataclasses.replace(page.start.state.data.upload, filename="other.csv")
    page.report_state(page.start.state.with_dataset(catalogue.UPLOAD, other).validated().to_dict())
    assert page.set_view(k=12).data.upload == other
    X, Y = roll
    with pytest.raises(measures.DatasetError, match="name has 40 values for 300 points"):
        prepare(X, Y, directory=tmp_path, metadata={"name": np.arange(40)})
    with pytest.raises(measures.DatasetError, match="labels has 299 values"):
        prepare(X, Y, directory=tmp_path, labels=np.arange(299))


def test_the_measures_are_the_shown_run_s_once_it_is_computed(page, roll):
    X, Y = roll
    request = RunRequest.from_state(page.state)
    compute(request, cache=host_results(page.start.directory),
            uploads=UploadStore(page.start.directory / "uploads").for_session(page.start.session))
    np.testing.assert_allclose(page.measures["normalized"], measures.evaluate(X, Y, 8).per_point["normalized"],
                               rtol=1e-12)
    assert page.result().n_samples == len(X)


def test_no_metadata_columns_is_one_reference_whether_written_none_or_empty(page):
    """An upload without metadata columns names the same run (one cache key) however a request spells it."""
    from lab.compute.choices import UploadRef

    values = page.start.state.data.upload.to_dict()
    assert UploadRef.from_dict({**values, "metadata_columns": []}) == UploadRef.from_dict(
        {**values, "metadata_columns": None}) == page.start.state.data.upload
