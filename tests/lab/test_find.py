"""Find points: each clause against the run's own arrays, the shares counted by hand, the refusals by name."""

import math

import numpy as np
import pytest

from lab import RunRequest, StateError, ViewState, from_query, to_query
from lab.compute import compute
from lab.compute.find import FIND_MAX_CHARS, FIND_MAX_CLAUSES, find_rows


@pytest.fixture(scope="module")
def run():
    return compute(RunRequest.create("swissroll", "lle", n=500, n_neighbors=8), cache=None).result


@pytest.mark.parametrize("query, mask", [
    ("R_N > 0.5", lambda r: r.local["normalized"] > 0.5),
    ("normalized<=0.2", lambda r: r.local["normalized"] <= 0.2),
    ("local R_C >= 0.1", lambda r: r.local["conformal"] >= 0.1),
    ("Trustworthiness != 1", lambda r: r.local["trustworthiness"] != 1),
    ("R_N > 0.3 and continuity < 0.99", lambda r: (r.local["normalized"] > 0.3) & (r.local["continuity"] < 0.99)),
])
def test_a_comparison_finds_the_rows_where_it_holds(run, query, mask):
    np.testing.assert_array_equal(find_rows(run, query), np.flatnonzero(mask(run)))


def test_a_truth_column_is_read_by_its_label(run):
    label = run.truth_labels[0]
    np.testing.assert_array_equal(find_rows(run, f"{label.upper()} < 3"), np.flatnonzero(run.truth[:, 0] < 3))


@pytest.mark.parametrize("percent", [1, 5, 12.5, 100])
def test_a_share_is_the_ceil_p_n_over_100_largest_or_smallest(run, percent):
    values = run.local["normalized"]
    top, bottom = find_rows(run, f"R_N top {percent}%"), find_rows(run, f"R_N bottom {percent} %")
    count = math.ceil(percent * np.isfinite(values).sum() / 100)
    assert len(top) == len(bottom) == count
    rest = np.setdiff1d(np.flatnonzero(np.isfinite(values)), top)
    assert not len(rest) or values[top].min() >= values[rest].max()
    rest = np.setdiff1d(np.flatnonzero(np.isfinite(values)), bottom)
    assert not len(rest) or values[bottom].max() <= values[rest].min()


def test_rows_and_ranges_are_rows_of_the_data_set(run):
    assert find_rows(run, "rows 3, 10-12, 3").tolist() == [3, 10, 11, 12]
    assert find_rows(run, "row 499").tolist() == [499]
    assert find_rows(run, "  ").tolist() == []


@pytest.mark.parametrize("query, says", [
    ("height of the roll > 2", "no per-point measure, truth or metadata column 'height of the roll'; this run has"),
    ("rows 498-500", "rows run from 0 to 499"),
    ("R_N top 0%", "more than 0 %"),
    ("R_N top 101%", "at most 100 %"),
    ("R_N is large", "cannot read 'R_N is large'"),
    ("x" * (FIND_MAX_CHARS + 1), f"at most {FIND_MAX_CHARS} characters"),
    (" and ".join(["R_N > 0"] * (FIND_MAX_CLAUSES + 1)), f"at most {FIND_MAX_CLAUSES} clauses"),
    (["R_N > 0"], "at most"),
])
def test_what_it_cannot_read_is_refused_with_a_message_naming_it(run, query, says):
    with pytest.raises(StateError, match=None) as refused:
        find_rows(run, query)
    assert says in str(refused.value)


def test_the_link_keeps_the_query_and_the_view_state_bounds_it():
    state = from_query("?find=R_N%20top%201%25")
    assert state.display.find == "R_N top 1%"
    assert from_query(to_query(state)).display.find == "R_N top 1%"
    with pytest.raises(StateError, match="find must be text"):
        ViewState.from_dict({**ViewState().to_dict(), "display": {**ViewState().display.to_dict(), "find": 3}})


@pytest.fixture(scope="module")
def metadata_run(tmp_path_factory):
    """A run of an upload with two metadata columns: a name (text) and a year (numbers, one empty)."""
    import datasets
    from lab import UploadStore
    from lab.compute.choices import DataChoice, MethodChoice, UploadRef

    data = datasets.load("swissroll", n=300)
    years = [str(1990 + row % 20) if row != 7 else "" for row in range(300)]
    names = [("Alpha-" if row % 3 == 0 else "beta ") + str(row) for row in range(300)]
    text = "x,y,z,name,year\n" + "".join(f"{x!r},{y!r},{z!r},{name},{year}\n" for (x, y, z), name, year
                                         in zip(data.X.tolist(), names, years))
    uploads = UploadStore(tmp_path_factory.mktemp("metadata") / "uploads").for_session("s" * 24)
    upload = UploadRef(uploads.put(text.encode()), "metadata.csv", metadata_columns=(3, 4))
    state = ViewState(data=DataChoice("upload", upload=upload), method=MethodChoice("pca", 8)).validated()
    result = compute(RunRequest.from_state(state), cache=None, uploads=uploads).result
    return result, np.array(names), np.array([float(year) if year else np.nan for year in years])


def test_an_upload_s_metadata_is_found_by_text_prefix_substring_and_numeric_range(metadata_run):
    result, names, years = metadata_run
    np.testing.assert_array_equal(result.metadata["name"], names)
    np.testing.assert_array_equal(result.metadata["year"], years)
    lower = np.char.lower(names)
    cases = {
        "name = ALPHA-9": lower == "alpha-9",
        "Name != alpha-9": lower != "alpha-9",
        "name starts with beta": np.char.startswith(lower, "beta"),
        "name contains a-1": np.char.find(lower, "a-1") >= 0,
        "year >= 1995 and year < 2000": (years >= 1995) & (years < 2000),  # the empty year (NaN) matches nothing
        "year = 1990 and name starts with alpha": (years == 1990) & np.char.startswith(lower, "alpha"),
        "R_N top 10% and name contains beta": np.isin(np.arange(300), find_rows(result, "R_N top 10%"))
        & (np.char.find(lower, "beta") >= 0),
    }
    for query, mask in cases.items():
        np.testing.assert_array_equal(find_rows(result, query), np.flatnonzero(mask), err_msg=query)
    assert 0 < len(find_rows(result, "name starts with beta")) < 300 and 7 not in find_rows(result, "year > 0")
    # A text holding what reads as a comparison is still text.
    np.testing.assert_array_equal(find_rows(result, "name contains <5"), [])
    np.testing.assert_array_equal(find_rows(result, "name = beta =1"), [])


def test_metadata_survives_the_result_cache_whatever_its_columns_are_named(metadata_run, tmp_path):
    """A column's name is the user's: the store's own markers (``__array__``, ``__tuple__``) are names too."""
    import dataclasses

    from lab.compute.runs import RunResult
    from lab.store.serialization import decode, encode

    result = metadata_run[0]
    for names in (("__array__",), ("__tuple__",), ("name", "year")):
        named = dataclasses.replace(result, metadata={name: values for name, values
                                                      in zip(names, result.metadata.values())})
        back = RunResult.from_value(decode(encode(named.to_value())))
        assert list(back.metadata) == list(names)
        for name in names:
            np.testing.assert_array_equal(back.metadata[name], named.metadata[name])


@pytest.mark.parametrize("query, says", [
    ("year starts with 19", "year holds numbers"),
    ("name > 3", "cannot read 'name > 3'"),
    ("nickname = x", "this run has"),
    ("name top 5%", "name holds texts: a share"),
])
def test_a_metadata_clause_that_does_not_fit_its_column_is_refused_by_name(metadata_run, query, says):
    with pytest.raises(StateError, match=says):
        find_rows(metadata_run[0], query)


def test_a_quoted_text_may_hold_and_and_the_quotes_are_not_part_of_it():
    """A metadata text with " and " in it was split into two clauses: in double quotes it is one text."""
    import types

    names = np.array(["salt and pepper", "salt", "pepper and salt", 'say "hi"'])
    run = types.SimpleNamespace(n_samples=4, local={"normalized": np.array([0.1, 0.2, 0.3, 0.4])}, truth=None,
                                truth_labels=(), metadata={"name": names})
    assert find_rows(run, 'name = "salt and pepper"').tolist() == [0]
    assert find_rows(run, 'name contains "and" and R_N > 0.2').tolist() == [2]
    assert find_rows(run, 'name contains " and "').tolist() == [0, 2]
    assert find_rows(run, 'name = say "hi"').tolist() == [3]  # quotes inside a text are kept
    assert find_rows(run, 'name starts with "salt"').tolist() == [0, 1]
