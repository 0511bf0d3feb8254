"""Bring your own embedding: a run on an uploaded output measures that output (it does not embed), with
the parser's own message for every bad output, a cache key naming the output, and links and views."""

import numpy as np
import pytest

import datasets
import measures
from datasets.upload import OUTPUT_COLLAPSED, OUTPUT_ROWS, OUTPUT_WIDER_THAN_INPUT
from lab import (
    ResultCache,
    RunRequest,
    StateError,
    UploadStore,
    ViewState,
    cache_key,
)
from lab.compute import catalogue, compute
from lab.compute.choices import DataChoice, MethodChoice, OutputRef, UploadRef
from lab.compute.pairs import PairRequest
from lab.compute.runs import parse_uploaded
from lab.compute.studies import SweepRequest
from lab.compute.views import explore_view
from lab.view.exports import points_csv
from lab.view.links import from_query, to_query
from lab.view.state import CompareChoice, PairChoice, SweepChoice

K = 8


def table(points):
    return "".join(",".join(repr(float(value)) for value in row) + "\n" for row in points).encode()


@pytest.fixture
def roll():
    """200 swiss-roll points and an embedding of them made "elsewhere" (their chart, bent a little)."""
    data = datasets.load("swissroll", 200, random_state=3)
    Y = data.truth * [1.0, 0.5] + 0.02 * data.truth[:, :1] ** 2
    return data.X, Y


@pytest.fixture
def session(tmp_path):
    return UploadStore(tmp_path / "uploads").for_session("alice")


def output_file_request(session, X, Y, **method):
    sha_input = session.put(table(X))
    sha_output = session.put(table(Y))
    upload = UploadRef(sha_input, "roll.csv", output=OutputRef(sha256=sha_output, filename="umap.csv"))
    return RunRequest(DataChoice("upload", upload=upload).validated(),
                      MethodChoice(catalogue.UPLOADED_OUTPUT, K, **method).validated())


def test_a_run_on_an_uploaded_output_file_measures_that_output(roll, session):
    X, Y = roll
    request = output_file_request(session, X, Y)
    result = compute(request, cache=None, uploads=session).result
    np.testing.assert_array_equal(result.Y, Y)  # measured as uploaded: no embedding, no sign rule
    expected, per_point = measures.procrustes(X, Y, K, per_point=True)
    assert result.summary["normalized"][0] == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(result.local["normalized"], per_point, rtol=1e-12)
    assert result.summary["trustworthiness"][0] == pytest.approx(measures.trustworthiness(X, Y, K), rel=1e-12)
    assert request.describe() == "your file roll.csv: your uploaded output (umap.csv), k = 8"


def test_output_columns_of_the_input_s_own_file_are_set_aside_from_the_coordinates(roll, session):
    X, Y = roll
    sha = session.put(b"x,y,z,u,v\n" + table(np.c_[X, Y]))
    upload = UploadRef(sha, "both.csv", output=OutputRef(columns=(3, 4)))
    data = parse_uploaded(upload, session, K)
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.Y, Y)
    result = compute(RunRequest.create("upload", catalogue.UPLOADED_OUTPUT, n_neighbors=K, upload=upload), cache=None,
                     uploads=session).result
    assert result.summary["conformal"][0] == pytest.approx(measures.procrustes(X, Y, K, variant="conformal"))
    assert upload.output.describe() == "columns 4, 5"


def test_the_best_global_scale_lowers_r_n_and_leaves_r_c_as_it_was(roll, session):
    X, Y = roll
    authors = compute(output_file_request(session, X, 7.0 * Y), cache=None, uploads=session).result
    rescaled = compute(output_file_request(session, X, 7.0 * Y, rescale="best_global_scale"), cache=None,
                       uploads=session).result
    assert rescaled.summary["normalized"][0] < authors.summary["normalized"][0]
    assert rescaled.summary["conformal"][0] == pytest.approx(authors.summary["conformal"][0], rel=1e-10)
    # GR §4.4's refinement of the uploaded output lowers R (here, R_N: it ends at the input's scale).
    refined = compute(output_file_request(session, X, Y, post_refinement=5), cache=None, uploads=session).result
    assert refined.summary["normalized"][0] < measures.procrustes(X, Y, K)


def test_the_cache_key_names_the_output_file_and_its_columns(roll, session):
    X, Y = roll
    request = output_file_request(session, X, Y)
    other_file = output_file_request(session, X, Y * 2.0)
    upload = request.data.upload
    other_columns = RunRequest(DataChoice("upload", upload=UploadRef(
        upload.sha256, upload.filename, output=OutputRef(columns=(1, 0), sha256=upload.output.sha256,
                                                         filename="umap.csv"))).validated(), request.method)
    keys = {cache_key(request), cache_key(other_file), cache_key(other_columns)}
    assert len(keys) == 3


@pytest.mark.parametrize("bad, message", [
    (lambda Y: Y[:-1], OUTPUT_ROWS.split(":")[0].format(output_rows="199 rows", input_rows="200 rows")),
    (lambda Y: np.where(np.arange(200)[:, None] == 7, np.nan, Y), "NaN or infinite values appear in the output"),
    (lambda Y: np.c_[Y, Y, Y], OUTPUT_WIDER_THAN_INPUT.format(output_dim=6, input_dim=3)[:60]),
    (lambda Y: np.full_like(Y, 3.5), OUTPUT_COLLAPSED.split(":")[0]),
])
def test_a_bad_output_gets_the_parser_s_own_message(roll, session, bad, message):
    X, Y = roll
    with pytest.raises(datasets.DatasetError) as raised:
        compute(output_file_request(session, X, bad(Y)), cache=None, uploads=session).result
    assert message in str(raised.value)


def test_the_output_file_must_be_this_session_s_own(roll, tmp_path):
    X, Y = roll
    store = UploadStore(tmp_path / "uploads")
    alice, mallory = store.for_session("alice"), store.for_session("mallory")
    request = output_file_request(alice, X, Y)
    mallory.put(table(X))  # mallory holds the same input, but not alice's output
    alice.authorize(request.data)
    with pytest.raises(datasets.DatasetError, match="no longer on the server"):
        mallory.authorize(request.data)


def test_measuring_an_uploaded_output_needs_data_that_carries_one():
    with pytest.raises(StateError, match="the data carries none"):
        RunRequest.create("swissroll", catalogue.UPLOADED_OUTPUT)
    with pytest.raises(StateError, match="the data carries none"):
        ViewState(method=MethodChoice(catalogue.UPLOADED_OUTPUT)).validated()
    with pytest.raises(StateError, match="no parameters"):
        MethodChoice(catalogue.UPLOADED_OUTPUT, params=(("reg", 1.0),)).validated()


def test_choosing_an_upload_with_an_output_shows_that_output_and_leaving_it_goes_back_to_an_algorithm():
    upload = UploadRef("a" * 64, "roll.csv", output=OutputRef(sha256="b" * 64, filename="umap.csv"))
    state = ViewState(pair=PairChoice(catalogue.UPLOADED_OUTPUT))
    with pytest.raises(StateError):
        state.validated()  # run B cannot be an output the data does not carry
    chosen = ViewState().validated().with_dataset(catalogue.UPLOAD, upload).validated()
    assert chosen.method.algorithm == catalogue.UPLOADED_OUTPUT
    paired = chosen.replace(pair=PairChoice(catalogue.UPLOADED_OUTPUT)).validated()
    left = paired.with_dataset("strip").validated()
    assert left.method.algorithm == catalogue.DEFAULT_ALGORITHM
    assert left.pair.algorithm == catalogue.PAIR_DEFAULT_ALGORITHM
    # A link names the method; the page supplies its own upload (with its output).
    assert "algorithm=uploaded" in to_query(chosen)
    assert from_query(to_query(chosen), upload=upload) == chosen
    assert ViewState.from_dict(chosen.to_dict()) == chosen


def test_views_exports_and_pairs_work_on_an_uploaded_output(roll, session, tmp_path):
    X, Y = roll
    request = output_file_request(session, X, Y)
    state = ViewState(data=request.data, method=request.method, pair=PairChoice("isomap")).validated()
    result = compute(request, cache=None, uploads=session).result
    view = explore_view(request, result, False)
    assert view.output_title == "Output: your uploaded output, k = 8 (as uploaded)"
    text, name = points_csv(state, request, result)
    assert name == "procrustes-lab_upload_uploaded_k8_points.csv"
    first_row = [line for line in text.splitlines() if not line.startswith("#")][1].split(",")
    assert [float(value) for value in first_row[4:6]] == Y[0].tolist()
    pair = compute(PairRequest.from_state(state), cache=ResultCache(tmp_path / "results"), uploads=session).result
    assert pair.label_a.endswith("your uploaded output (umap.csv), k = 8")
    assert 0 < pair.distance < 1


def test_a_k_sweep_measures_the_uploaded_output_at_each_k(roll, session, tmp_path):
    X, Y = roll
    data = output_file_request(session, X, Y).data
    state = ViewState(data=data, method=MethodChoice(catalogue.UPLOADED_OUTPUT, K),
                      sweep=SweepChoice((catalogue.UPLOADED_OUTPUT, "pca"), 6, 12, 3)).validated()
    assert state.sweep.algorithms == ("pca", catalogue.UPLOADED_OUTPUT)
    result = compute(SweepRequest.from_state(state), cache=ResultCache(tmp_path / "results"), uploads=session).result
    rows = {(row["algorithm"], row["k"]): row for row in result.rows}
    assert result.failed == 0
    for k in (6, 9, 12):
        row = rows[(catalogue.UPLOADED_OUTPUT, k)]
        assert row["label"] == "your uploaded output"
        assert row["summary"]["normalized"][0] == pytest.approx(measures.procrustes(X, Y, k), rel=1e-12)
    # Without an output the data cannot be swept as one; choosing other data drops it from the sweep.
    with pytest.raises(StateError, match="sweep: your uploaded output"):
        state.replace(data=DataChoice("strip"), method=MethodChoice("pca")).validated()
    assert state.with_dataset("strip").validated().sweep.algorithms == ("pca",)
    with pytest.raises(StateError, match="compare: the comparison runs algorithms"):
        state.replace(compare=CompareChoice((catalogue.UPLOADED_OUTPUT,))).validated()
