"""Files taken away carry the whole view; a saved view file restores it, and nothing else passes for one."""

import csv
import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import measures
from lab import (DataChoice, MethodChoice, ResultCache, RunRequest, StateError, SweepChoice, SweepRequest, ViewState,
                 from_query, to_query)
from lab.compute import compute
from lab.store.cache import CODE_VERSION
from lab.view.exports import NOT_A_VIEW_FILE, nesting_depth, points_csv, read_view_file, sweep_files, view_json
from tests.strategies import mutations


def read_csv(text):
    lines = text.splitlines()
    comments = [line for line in lines if line.startswith("#")]
    rows = list(csv.reader(io.StringIO("\n".join(line for line in lines if not line.startswith("#")))))
    return comments, rows[0], rows[1:]


@pytest.fixture(scope="module")
def run():
    state = ViewState(data=DataChoice("swissroll", n=200), method=MethodChoice("isomap", 8)).validated()
    request = RunRequest.from_state(state)
    return state, request, compute(request, cache=None).result


def test_points_csv_holds_every_point_and_measure_at_full_precision_below_its_view(run):
    state, request, result = run
    text, filename = points_csv(state, request, result)
    assert filename == "procrustes-lab_swissroll_n200_isomap_k8_points.csv"
    comments, header, rows = read_csv(text)
    assert CODE_VERSION in comments[0] and "numpy" in comments[0]
    assert comments[1] == f"# link: {to_query(state)}"
    assert ViewState.from_dict(json.loads(comments[2].removeprefix("# state: "))) == state
    assert header[:6] == ["point", "x1", "x2", "x3", "y1", "y2"]
    assert header[6:8] == ["truth: arc length", "truth: height"]
    table = np.array(rows, dtype=float)
    assert len(table) == 200
    np.testing.assert_array_equal(table[:, 1:4], result.X)
    np.testing.assert_array_equal(table[:, 4:6], result.Y)
    local_rn = table[:, header.index("local R_N")]
    np.testing.assert_array_equal(local_rn, result.local["normalized"])
    assert local_rn.mean() == pytest.approx(result.summary["normalized"][0], rel=1e-12)


def test_a_saved_view_reads_back_as_the_same_state(run):
    state, request, _ = run
    text, filename = view_json(state, request)
    assert filename == "procrustes-lab_swissroll_n200_isomap_k8_run.json"
    document = json.loads(text)
    assert document["request"] == request.to_dict() and document["code_version"] == CODE_VERSION
    assert read_view_file(text.encode()) == state
    assert "measures" not in document  # no result given: the view alone


def test_a_saved_view_carries_every_measure_of_its_run(run):
    state, request, result = run
    document = json.loads(view_json(state, request, result)[0])
    saved = document["measures"]
    assert set(saved) == set(result.summary) and "continuity" in saved and "stress" in saved
    for name, (mean, median) in result.summary.items():
        assert (saved[name]["mean"], saved[name]["median"]) == (mean, median)
        assert saved[name]["label"] == measures.spec(name).label
        if name in result.local:
            ordered = np.sort(result.local[name])
            n = len(ordered)
            assert saved[name]["per_point"]["min"] == ordered[0] and saved[name]["per_point"]["max"] == ordered[-1]
            # n = 200: the quartiles sit between the 50th and 51st, 150th and 151st smallest values
            assert saved[name]["per_point"]["q1"] == pytest.approx(ordered[49] + 0.75 * (ordered[50] - ordered[49]))
            assert saved[name]["per_point"]["q3"] == pytest.approx(ordered[149] + 0.25 * (ordered[150] - ordered[149]))
            assert saved[name]["per_point"]["median"] == pytest.approx(np.median(ordered)) and n == 200
        else:
            assert saved[name]["per_point"] is None
    assert saved["normalized"]["per_point"]["median"] == pytest.approx(result.summary["normalized"][1])
    assert read_view_file(json.dumps(document).encode()) == state  # the measures do not stop it loading back


def test_a_view_saved_by_the_previous_format_still_opens():
    legacy = {"format": "procrustes-lab-run/1", "request": {},
              "view": {"dataset": "strip", "n": 300, "algorithm": "lle", "k": 9, "d.length": 4.5, "seed": 2,
                       "refine": 3}}
    state = read_view_file(json.dumps(legacy).encode())
    assert (state.data.dataset, state.data.n, state.data.random_state, state.method.n_neighbors) == ("strip", 300, 2, 9)
    assert state.method.post_refinement == 3  # its old keys are read by the link layer, the one place they are


def test_a_view_file_keeps_the_refinement_it_was_saved_with():
    state = from_query("?dataset=strip&algorithm=lle&k=9&post_refinement=4")
    text, _ = view_json(state)
    assert read_view_file(text.encode()).method.post_refinement == 4


@pytest.mark.parametrize("content", [b"", b"\xff\xfe", b"[1, 2]", b'{"view": {"k": 8}}',
                                     b'{"format": "procrustes-lab-run/1", "view": {"k": [8]}}',
                                     b'{"format": "procrustes-lab-view/2", "state": ' + b"[" * 100000 + b"]" * 100000
                                     + b"}", b" " * (2**20 + 1)],
                         ids=["empty", "binary", "list", "no format", "legacy list", "deeply nested", "too large"])
def test_anything_else_is_not_a_view_file(content):
    with pytest.raises(measures.DatasetError) as raised:
        read_view_file(content)
    assert str(raised.value) == NOT_A_VIEW_FILE


@pytest.mark.parametrize("content", [
    # An escaped quote once made the character scan think the nesting was inside a string.
    b'{"format": "procrustes-lab-view/2", "note": "\\"", "state": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    b'{"format": "procrustes-lab-view/2", "state": {"data": ' + b'{"a": ' * 20 + b"1" + b"}" * 20 + b"}}",
], ids=["escaped quote, 5000 levels", "20 levels of objects"])
def test_nesting_is_measured_by_the_parser(content):
    with pytest.raises(measures.DatasetError) as raised:
        read_view_file(content)
    assert str(raised.value) == NOT_A_VIEW_FILE


def test_nesting_depth_counts_lists_and_objects_not_text():
    assert nesting_depth({"a": "[[[[{{{{", "b": [[{}]]}) == 4
    assert nesting_depth([[[]] * 3]) == 3 and nesting_depth(7) == 0


SAVED = {"format": "procrustes-lab-view/2", "state": ViewState().validated().to_dict()}


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(data=st.data())
def test_a_saved_view_changed_anywhere_restores_or_is_refused_with_a_message(data):
    """Any place of a saved view (a setting, a part, the whole state) replaced by any JSON value."""
    document = data.draw(mutations(SAVED))
    try:
        restored = read_view_file(json.dumps(document).encode())
    except (measures.DatasetError, StateError) as error:
        assert str(error)
    else:
        assert restored == restored.validated()


def test_a_view_file_out_of_range_is_refused_with_the_bound():
    document = {"format": "procrustes-lab-view/2", "state": {"method": {"n_neighbors": 400}}}
    with pytest.raises(StateError, match="k must lie in"):
        read_view_file(json.dumps(document).encode())


def test_sweep_files_carry_the_view_and_are_named_after_it(tmp_path):
    state = ViewState(data=DataChoice("swissroll", n=200), sweep=SweepChoice(("pca", "hlle"), 3, 6, 3)).validated()
    request = SweepRequest.from_state(state)
    result = compute(request, cache=ResultCache(tmp_path)).result
    files = sweep_files(state, request, result)
    text, name = files["csv"]
    assert name == "procrustes-lab_swissroll_n200_sweep_k3-6.csv"
    comments, header, body = read_csv(text)
    assert header[:4] == ["algorithm", "k", "R_N mean", "R_N median"] and header[-1] == "error"
    assert [row[:2] for row in body] == [["PCA", "3"], ["PCA", "6"], ["HLLE", "3"], ["HLLE", "6"]]
    assert "HLLE needs" in body[2][-1] and body[0][2] == repr(result.rows[0]["summary"]["normalized"][0])
    document = json.loads(files["json"][0])
    assert ViewState.from_dict(document["state"]) == state and document["request"] == request.to_dict()
    assert files["json"][1] == "procrustes-lab_swissroll_n200_sweep_k3-6.json"
