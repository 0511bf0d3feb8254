"""A notebook's arrays as the dashboard's data: read back exactly, measured as measures.evaluate measures them."""

import numpy as np
import pytest

import datasets
import measures
from lab import RunRequest, UploadStore
from lab.compute import compute
from lab.compute import catalogue
from lab.compute.choices import UploadRef
from lab.compute.runs import parse_uploaded
from lab.view.notebook import prepare


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
