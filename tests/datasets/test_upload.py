"""Tests of the package datasets/upload/: every refusal's exact message, round trips of each format, and fuzzing."""

import csv
import hashlib
import io
import struct
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import datasets
from datasets import upload
from datasets.upload import UploadLimits, inspect_output, inspect_upload, parse_upload
from measures import DatasetError, ProcrustesLabWarning

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POINTS = np.array([[0.0, 0.0, 1.5], [1.0, 0.0, -2.0], [0.0, 1.0, 3.25], [1.0, 1.0, 0.0], [2.0, 0.5, 1e-3]])


def _npy(array, allow_pickle=False):
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


def _npz(compressed=False, **arrays):
    buffer = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buffer, **arrays)
    return buffer.getvalue()


def _npy_with_header(header, data=b"\0" * 48):
    """A version 1.0 .npy file with this header text (padded as numpy pads it), then ``data``."""
    encoded = header.encode("latin-1")
    encoded += b" " * (63 - (10 + len(encoded)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(encoded)) + encoded + data


def _table(points, separator=",", header=None):
    """Text of ``points`` with exact (repr) numbers, one row per line."""
    lines = [] if header is None else [separator.join(header)]
    lines += [separator.join(repr(float(value)) for value in row) for row in points]
    return ("\n".join(lines) + "\n").encode()


def _message(content, filename="points.csv", **options):
    with pytest.raises(DatasetError) as caught:
        parse_upload(content, filename, **options)
    return str(caught.value)


_PICKLE_LOADED = []


def _record_unpickling():
    _PICKLE_LOADED.append(True)
    return "unpickled"


class _Payload:
    """An object whose unpickling runs code: it calls ``_record_unpickling``."""

    def __reduce__(self):
        return _record_unpickling, ()


# --- exact messages -------------------------------------------------------------------------------

_POINTS_NPZ_LISTING = "'labels' with shape (5,) and type int64, 'names' with shape (2,) and type <U1"

BAD_UPLOADS = {
    "empty file": (b"", "points.csv", {}, upload.EMPTY_FILE),
    "blank file": (b" \n\r\n\t\n", "points.txt", {}, upload.EMPTY_FILE),
    "binary garbage": (bytes(range(256)) * 4, "points.csv", {}, upload.BINARY_FILE),
    "binary garbage without extension": (b"\x00\x01\x02garbage", "upload", {}, upload.BINARY_FILE),
    "random high bytes": (bytes(range(128, 256)) * 8, "points.dat", {}, upload.BINARY_FILE),
    "spreadsheet": (b"PK\x03\x04whatever", "points.xlsx", {}, upload.SPREADSHEET_FILE.format(extension=".xlsx")),
    "latin-1 text": ("x,y\n1,2\ncafé,3\n".encode("latin-1"), "points.csv", {},
                     upload.NOT_UTF8.format(detail="byte 0xE9 on line 3 is not valid UTF-8")),
    "utf-16 text": ("x,y\n1,2\n3,4\n".encode("utf-16"), "points.csv", {},
                    upload.NOT_UTF8.format(detail="it is UTF-16 text")),
    "header only": (b"x,y,z\n", "points.csv", {}, upload.NO_DATA_ROWS),
    "comments only": (b"# exported by hand\n\n", "points.csv", {}, upload.NO_DATA_ROWS),
    "non-numeric cell": (b"x,y\n1,2\n3,4\n5,abc\n", "points.csv", {},
                         upload.NON_NUMERIC.format(line=4, column='column 2 ("y")', text="abc")),
    "non-numeric cell without header": (b"1 2\n3 4.5.6\n7 8\n", "points.txt", {},
                                        upload.NON_NUMERIC.format(line=2, column="column 2", text="4.5.6")),
    "decimal comma": (b"x;y\n1,5;2\n3;4\n", "points.csv", {},
                      upload.NON_NUMERIC.format(line=2, column='column 1 ("x")', text="1,5")),
    "long non-numeric cell": (b"x,y\n1,2\n3," + b"z" * 100 + b"\n", "points.csv", {},
                              upload.NON_NUMERIC.format(line=3, column='column 2 ("y")', text="z" * 40 + "…")),
    "text column chosen as coordinate": (b"x,y,kind\n1,2,a\n3,4,b\n5,7,a\n", "points.csv",
                                         {"columns": ["x", "kind"]},
                                         upload.NON_NUMERIC.format(line=2, column='column 3 ("kind")', text="a")),
    "empty cell": (b"x,y\n1,2\n3,\n4,5\n", "points.csv", {},
                   upload.EMPTY_CELL.format(line=3, column='column 2 ("y")')),
    "ragged row against header": (b"a,b,c\n1,2,3\n4,5,6\n7,8,9\n1,2,3,4\n", "points.csv", {},
                                  upload.RAGGED_HEADER.format(line=5, values="4 values", header_columns="3 columns")),
    "ragged row without header": (b"\n1\t2\t3\n4\t5\n", "points.tsv", {},
                                  upload.RAGGED.format(line=3, values="2 values", first_line=2, expected=3)),
    "unclosed quote": (b'x,y\n1,"2\n3,4\n', "points.csv", {}, upload.UNCLOSED_QUOTE.format(line=2)),
    "nan and inf": (b"x,y\n1,2\n3,nan\n4,5\n-inf,6\n", "points.csv", {},
                    upload.NONFINITE.format(rows="2 rows", where="line 3")),
    "nan in an array": (_npy(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, np.nan]])), "points.npy", {},
                        upload.NONFINITE.format(rows="1 row", where="row index 2")),
    "nan everywhere, dropped": (b"x,y\n1,nan\nnan,2\n", "points.csv", {"drop_nonfinite": True},
                                upload.ALL_NONFINITE),
    "fewer than k + 2 points": (_table(POINTS[:4]), "points.csv", {"n_neighbors": 3},
                                upload.TOO_FEW_POINTS.format(points="4 points", n_neighbors=3, needed=5)),
    "single coordinate column": (b"x,y\n1,2\n3,4\n", "points.csv", {"columns": ["x"]},
                                 upload.SINGLE_COORDINATE.format(column='column 1 ("x")')),
    "single column file": (b"1\n2\n3\n", "points.csv", {}, upload.SINGLE_COORDINATE.format(column="column 1")),
    "no coordinate left": (b"x,y\n1,2\n3,4\n", "points.csv", {"truth_columns": ["x", "y"]}, upload.NO_COORDINATES),
    "constant columns": (b"x,y,z,w\n1,2,0,5\n3,4,0,5\n5,6,0,5\n7,9,0,5\n", "points.csv", {},
                         upload.CONSTANT_COLUMNS.format(columns='column 3 ("z"), column 4 ("w")')),
    "duplicate points": (b"x,y\n1,2\n3,4\n1,2\n5,6\n3,4\n1,2\n", "points.csv", {},
                         upload.DUPLICATE_POINTS.format(rows="3 rows", where="line 4", original="line 2")),
    "duplicate points, signed zero": (_npy(np.array([[0.0, 1.0], [2.0, 3.0], [-0.0, 1.0]])), "points.npy", {},
                                      upload.DUPLICATE_POINTS.format(rows="1 row", where="row index 2",
                                                                     original="row index 0")),
    "object .npy": (_npy(np.array([1, "a", None], dtype=object), allow_pickle=True), "points.npy", {},
                    upload.OBJECT_ARRAY.format(name="")),
    "object .npy without extension": (_npy(np.array([[1.0], [2.0]], dtype=object), allow_pickle=True), "upload",
                                      {}, upload.OBJECT_ARRAY.format(name="")),
    "object array chosen in .npz": (_npz(X=POINTS, extra=np.array([{}], dtype=object)), "points.npz",
                                    {"array": "extra"}, upload.OBJECT_ARRAY.format(name=" 'extra'")),
    "file over the size limit": (b"0" * (50 * 1024 * 1024 + 1), "points.csv", {},
                                 upload.TOO_LARGE.format(size_mb="50.0", limit_mb="50")),
    "file over a smaller limit": (b"1,2\n" * 300_000, "points.csv", {"limits": UploadLimits(max_bytes=1024 * 1024)},
                                  upload.TOO_LARGE.format(size_mb="1.1", limit_mb="1")),
    "more rows than allowed": (_table(POINTS), "points.csv", {"limits": UploadLimits(max_rows=4)},
                               upload.TOO_MANY_ROWS.format(rows="5 rows", limit=4)),
    "more array rows than allowed": (_npy(POINTS), "points.npy", {"limits": UploadLimits(max_rows=4)},
                                     upload.TOO_MANY_ROWS.format(rows="5 rows", limit=4)),
    ".npz without arrays": (_npz(), "points.npz", {}, upload.NPZ_NO_ARRAYS),
    ".npz without a numeric 2-D array": (_npz(labels=np.arange(5), names=np.array(["a", "b"])), "points.npz", {},
                                         upload.NPZ_NO_NUMERIC_2D.format(arrays=_POINTS_NPZ_LISTING)),
    ".npz without the array asked for": (_npz(labels=np.arange(5), names=np.array(["a", "b"])), "points.npz",
                                         {"array": "X"},
                                         upload.NPZ_UNKNOWN_ARRAY.format(array="X", arrays=_POINTS_NPZ_LISTING)),
    ".npz array too large once decompressed": (_npz(compressed=True, X=np.zeros((2000, 100))), "points.npz",
                                               {"limits": UploadLimits(max_bytes=1024 * 1024)},
                                               upload.NPZ_TOO_LARGE.format(name=" 'X'", size_mb="1.5", limit_mb="1")),
    "more columns than rows": (_npy(np.arange(15.0).reshape(3, 5) ** 2), "points.npy", {},
                               upload.MORE_COLUMNS_THAN_ROWS.format(dim=5, rows="3 rows")),
    "1-D array": (_npy(np.arange(4.0)), "points.npy", {}, upload.NOT_2D.format(name="", shape=(4,))),
    "empty array": (_npy(np.zeros((0, 3))), "points.npy", {}, upload.NOT_2D.format(name="", shape=(0, 3))),
    "text array": (_npy(np.array([["a", "b"], ["c", "d"]])), "points.npy", {},
                   upload.NON_NUMERIC_ARRAY.format(name="", dtype="<U1")),
    "complex array": (_npy(np.ones((3, 2), dtype=complex)), "points.npy", {},
                      upload.NON_NUMERIC_ARRAY.format(name="", dtype="complex128")),
    "truncated .npy": (_npy(POINTS)[:-8], "points.npy", {}, upload.NPY_INVALID),
    "text named .npy": (b"1,2\n3,4\n", "points.npy", {}, upload.NPY_INVALID),
    "truncated .npz": (_npz(X=POINTS)[:-30], "points.npz", {}, upload.NPZ_INVALID),
    "text named .npz": (b"1,2\n3,4\n", "points.npz", {}, upload.NPZ_INVALID),
    "more columns than allowed": (_table(np.arange(22.0).reshape(2, 11)), "points.csv",
                                  {"limits": UploadLimits(max_columns=10)},
                                  upload.TOO_MANY_COLUMNS.format(place="on line 1", limit=10)),
    "empty values count as columns": (b",,,,,,,,,,\n", "points.csv", {"limits": UploadLimits(max_columns=10)},
                                      upload.TOO_MANY_COLUMNS.format(place="on line 1", limit=10)),
    "a wide line after narrow ones": (b"# points\n1,2\n3,4\n" + b"5," * 30 + b"6\n7,8\n", "points.csv",
                                      {"limits": UploadLimits(max_columns=10)},
                                      upload.TOO_MANY_COLUMNS.format(place="on line 4", limit=10)),
    "a wide whitespace line": (b"1 2\n" + b"3 " * 30 + b"\n", "points.txt", {"limits": UploadLimits(max_columns=10)},
                               upload.TOO_MANY_COLUMNS.format(place="on line 2", limit=10)),
    "more array columns than allowed": (_npy(np.zeros((3, 11))), "points.npy", {"limits": UploadLimits(max_columns=10)},
                                        upload.TOO_MANY_COLUMNS.format(place="array of shape (3, 11)", limit=10)),
    "more .npz array columns than allowed": (_npz(X=np.zeros((3, 11))), "points.npz",
                                             {"limits": UploadLimits(max_columns=10)},
                                             upload.TOO_MANY_COLUMNS.format(place="array 'X' of shape (3, 11)",
                                                                            limit=10)),
    "more values than allowed": (_table(POINTS, ",", ["x", "y", "z"]), "points.csv",
                                 {"limits": UploadLimits(max_values=14)},
                                 upload.TOO_MANY_VALUES.format(rows="5 rows", width="3 columns", total=15,
                                                               limit=14)),
    "more array values than allowed": (_npy(POINTS), "points.npy", {"limits": UploadLimits(max_values=14)},
                                       upload.TOO_MANY_VALUES.format(rows="5 rows", width="3 columns", total=15,
                                                                     limit=14)),
    "json file": (b'{"dataset": "swissroll"}', "run.json", {}, upload.JSON_FILE),
    "json named as a table": (b'\xef\xbb\xbf \n {"x": [1, 2]}', "points.csv", {}, upload.JSON_FILE),
    "json sniffed": (b'{"x": [1, 2]}', "upload", {}, upload.JSON_FILE),
    ".npz of too many arrays": (_npz(**{f"a{index}": np.zeros(1) for index in range(1001)}), "points.npz", {},
                                upload.NPZ_TOO_MANY_ARRAYS.format(limit=1000)),
    ".npy whose dtype is an empty tuple": (_npy_with_header("{'descr': ((())), 'fortran_order': False, "
                                                            "'shape': (3, 2), }"), "points.npy", {},
                                           upload.NPY_INVALID),
}


@pytest.mark.parametrize(("content", "filename", "options", "expected"), BAD_UPLOADS.values(), ids=BAD_UPLOADS)
def test_bad_upload_is_refused_with_its_exact_message(content, filename, options, expected):
    assert _message(content, filename, **options) == expected


def test_messages_are_complete_sentences():
    templates = [value for name, value in vars(upload).items()
                 if name.isupper() and not name.startswith("_") and isinstance(value, str)]
    assert len(templates) >= 30
    for template in templates:
        assert template[0].isupper() and template.endswith("."), template


@pytest.mark.parametrize(("options", "expected"), [
    ({"columns": ["y", "depth"]}, ("There is no column named 'depth' (in columns); the columns are 'x', 'y', 'x', "
                                  "'kind'.")),
    ({"columns": [0, 7]}, ("A column index in columns must be an integer in [0, 3]; got 7. The file has 4 columns, "
                          "indexed from 0.")),
    ({"columns": [0, np.int8(-1)]}, ("A column index in columns must be an integer in [0, 3]; got np.int8(-1). The "
                                    "file has 4 columns, indexed from 0.")),
    ({"columns": ["x", "y"]}, "2 columns are named 'x' (in columns): choose them by index instead (0, 2)."),
    ({"columns": [0, 1, 0]}, 'Column 1 ("x") is listed twice in columns: list each column once.'),
    ({"columns": "x"}, "columns must be a list of column names or indices; got 'x'."),
    ({"columns": [0, 1.0]}, "columns must hold column names or indices; got 1.0."),
    ({"columns": [True, 1]}, "columns must hold column names or indices; got True."),
    ({"truth_columns": [0, 1, 2, 3]}, "truth_columns must name 1 to 3 columns (a chart of dimension 1 to 3); got 4."),
    ({"truth_columns": []}, "truth_columns must name 1 to 3 columns (a chart of dimension 1 to 3); got 0."),
    ({"color_column": "colour"}, ("There is no column named 'colour' (in color_column); the columns are 'x', 'y', "
                                 "'x', 'kind'.")),
    ({"n_neighbors": 0}, "parse_upload: parameter 'n_neighbors' must be >= 1; got 0."),
    ({"n_neighbors": 2.5}, "parse_upload: parameter 'n_neighbors' must be a whole number; got 2.5."),
    ({"drop_nonfinite": "yes"}, "parse_upload: parameter 'drop_nonfinite' must be True or False; got 'yes'."),
    ({"array": "X"}, ("The option array = 'X' chooses an array of an .npz file, but this file is read as text: "
                     "leave array unset.")),
    ({"array": 3}, "array must be the name of an .npz array (a string) or None; got 3."),
    ({"limits": {"max_rows": 10}}, "limits must be an UploadLimits or None; got {'max_rows': 10}."),
])
def test_bad_option_is_refused_with_its_exact_message(options, expected):
    content = b"x,y,x,kind\n0,0,1,a\n1,0,2,b\n0,1,3,a\n"
    assert _message(content, **options) == expected


def test_unknown_column_message_lists_at_most_twenty_names():
    content = _npy(np.arange(30.0 * 31).reshape(31, 30) ** 1.5)
    names = ", ".join(f"'column {index}'" for index in range(1, 21))
    assert _message(content, "wide.npy", columns=["x"]) == (
        f"There is no column named 'x' (in columns); the columns are {names}, ... (30 in all).")


@pytest.mark.parametrize(("limits", "expected"), [
    ({"max_rows": 0}, "upload limits: parameter 'max_rows' must be >= 1; got 0."),
    ({"max_bytes": 1.5}, "upload limits: parameter 'max_bytes' must be a whole number; got 1.5."),
    ({"suggest_pca_above": "50"}, "upload limits: parameter 'suggest_pca_above' must be a number; got '50'."),
])
def test_bad_limits_are_refused(limits, expected):
    with pytest.raises(DatasetError) as caught:
        UploadLimits(**limits)
    assert str(caught.value) == expected


def test_content_must_be_bytes():
    with pytest.raises(DatasetError, match=r"^The upload content must be the file's bytes; got str \(decode a "
                                           r"base64 upload first\)\.$"):
        parse_upload("x,y\n1,2\n", "points.csv")


def test_many_dimensions_warn_and_suggest_pca():
    X = np.random.default_rng(0).standard_normal((80, 60))
    expected = upload.PCA_SUGGESTED.format(dim=60, limit=50)
    with pytest.warns(ProcrustesLabWarning) as caught:
        data = parse_upload(_npy(X), "images.npy")
    assert [str(warning.message) for warning in caught] == [expected]
    assert caught[0].filename == __file__  # stacklevel points at the caller
    assert data.upload.warnings == (expected,)
    np.testing.assert_array_equal(data.X, X)


def test_few_dimensions_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = parse_upload(_npy(POINTS), "points.npy", limits=UploadLimits(suggest_pca_above=3))
    assert data.upload.warnings == ()


# --- pickle safety --------------------------------------------------------------------------------

@pytest.mark.parametrize("container", ["npy", "npz"])
def test_pickled_objects_are_refused_without_being_unpickled(container):
    payload = np.array([_Payload(), _Payload()], dtype=object)
    if container == "npy":
        content, options, name = _npy(payload, allow_pickle=True), {}, ""
    else:
        content, options, name = _npz(X=payload), {"array": "X"}, " 'X'"
    _PICKLE_LOADED.clear()
    assert _message(content, f"evil.{container}", **options) == upload.OBJECT_ARRAY.format(name=name)
    assert _message(content, "evil", **options) == upload.OBJECT_ARRAY.format(name=name)
    assert _PICKLE_LOADED == []
    # The payload is live: numpy with pickles allowed runs it, so the refusal above is what kept it inert.
    loaded = np.load(io.BytesIO(content), allow_pickle=True)
    loaded = loaded if container == "npy" else loaded["X"]
    assert list(loaded) == ["unpickled", "unpickled"] and _PICKLE_LOADED == [True, True]


def test_npz_skips_object_arrays_when_choosing_the_first_numeric_one():
    _PICKLE_LOADED.clear()
    data = parse_upload(_npz(meta=np.array([_Payload()], dtype=object), X=POINTS), "points.npz")
    np.testing.assert_array_equal(data.X, POINTS)
    assert data.upload.array == "X" and _PICKLE_LOADED == []


# --- round trips ----------------------------------------------------------------------------------

ROUND_TRIPS = {
    "csv with header": (_table(POINTS, ",", ["x", "y", "z"]), "points.csv"),
    "csv without header": (_table(POINTS, ","), "points.csv"),
    "tsv": (_table(POINTS, "\t", ["x", "y", "z"]), "points.tsv"),
    "semicolons": (_table(POINTS, ";", ["x", "y", "z"]), "points.csv"),
    "whitespace": (_table(POINTS, "   "), "points.txt"),
    "quoted csv from R": (b'"x","y","z"\n' + _table(POINTS, ","), "points.csv"),
    "quoted whitespace from R": (b'"x" "y" "z"\n' + _table(POINTS, " "), "points.dat"),
    "crlf, bom, comments": (b"\xef\xbb\xbf# points\r\nx,y,z\r\n\r\n" + _table(POINTS, ", ").replace(b"\n", b"\r\n"),
                            "points.csv"),
    "npy": (_npy(POINTS), "points.npy"),
    "npy fortran order": (_npy(np.asfortranarray(POINTS)), "points.npy"),
    "npy big-endian": (_npy(POINTS.astype(">f8")), "points.npy"),
    "npz": (_npz(labels=np.arange(5), X=POINTS), "points.npz"),
    "npz compressed": (_npz(compressed=True, X=POINTS), "points.npz"),
    "csv sniffed": (_table(POINTS, ","), "upload"),
    "npy sniffed": (_npy(POINTS), "upload"),
    "npz sniffed": (_npz(X=POINTS), "upload"),
}


@pytest.mark.parametrize(("content", "filename"), ROUND_TRIPS.values(), ids=ROUND_TRIPS)
def test_round_trip_recovers_the_points(content, filename):
    data = parse_upload(content, filename)
    np.testing.assert_array_equal(data.X, POINTS)
    assert data.X.dtype == np.float64 and data.upload.n == 5 and data.upload.dim == 3


def test_integer_array_is_read_as_float():
    data = parse_upload(_npy(np.array([[1, 2], [3, 5], [8, 13]], dtype=np.int16)), "points.npy")
    assert data.X.dtype == np.float64 and data.X.tolist() == [[1.0, 2.0], [3.0, 5.0], [8.0, 13.0]]


def test_npz_array_option_picks_the_array():
    other = POINTS[:, :2] * 10
    content = _npz(X=POINTS, Y=other)
    np.testing.assert_array_equal(parse_upload(content, "points.npz", array="Y").X, other)
    table = inspect_upload(content, "points.npz")
    assert table.arrays == ("X", "Y") and table.array == "X" and table.format == "npz"


# --- tables, header and separator detection ------------------------------------------------------

def test_inspect_describes_columns_for_the_pickers():
    content = b"x;y;label;note\n1;2;a;1\n3;4;b;x\n5;7;a;2\n"
    table = inspect_upload(content, "points.csv")
    assert table.columns == ("x", "y", "label", "note")
    assert table.kinds == ("numeric", "numeric", "text", "mixed")
    assert (table.n_rows, table.separator, table.has_header, table.format) == (3, ";", True, "text")
    assert table.sha256 == hashlib.sha256(content).hexdigest() == datasets.upload_sha256(content)
    assert table.arrays == () and table.array is None


def test_inspect_reports_structural_problems_as_parse_does():
    content = b"a,b\n1,2\n3\n"
    with pytest.raises(DatasetError) as caught:
        inspect_upload(content, "points.csv")
    assert str(caught.value) == _message(content)


def test_label_column_without_header_is_not_taken_for_a_header():
    data = parse_upload(b"1,2,cat\n3,4,dog\n5,7,cat\n", "points.csv", color_column=2)
    assert data.X.tolist() == [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]
    assert data.color.tolist() == [0.0, 1.0, 0.0] and data.upload.color_categories == ("cat", "dog")
    assert data.truth_labels == ("column 3",)


def test_text_column_is_left_out_of_default_coordinates_but_mixed_column_is_reported():
    content = b"x,y,kind,z\n1,2,a,1\n3,4,b,oops\n5,7,a,3\n"
    assert _message(content) == upload.NON_NUMERIC.format(line=3, column='column 4 ("z")', text="oops")
    data = parse_upload(content, "points.csv", columns=["x", "y"])
    assert data.upload.columns == (0, 1) and data.upload.color_column is None


def test_empty_header_cells_get_generated_names():
    table = inspect_upload(b",y\n1,2\n3,4\n", "points.csv")
    assert table.columns == ("column 1", "y")


def test_whitespace_runs_and_tabs_mix():
    # A tab on a minority of lines does not make a tab-separated file; whitespace runs separate.
    data = parse_upload(b"  1   2\n3 4   \n 5\t7\n", "points.txt")
    assert data.X.tolist() == [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]
    assert inspect_upload(b"1 2\n3 4\n", "points.txt").separator == "whitespace"


def test_separator_is_found_despite_a_ragged_line():
    content = b"a,b,c\n1,2,3\n4,5,6\n7\n"
    assert _message(content) == upload.RAGGED_HEADER.format(line=4, values="1 value", header_columns="3 columns")


def test_a_cell_is_a_number_by_one_rule_everywhere():
    # float() refuses the separator character \x1d that str.strip() removes: the fast and the
    # per-cell paths must agree, whichever cell of the column holds it.
    content = b"x,y\n0,1.5\x1d\n1,2\n3,4\n5,6.5\n"
    assert parse_upload(content, "points.csv").X.tolist() == [[0.0, 1.5], [1.0, 2.0], [3.0, 4.0], [5.0, 6.5]]
    assert inspect_upload(content, "points.csv").kinds == ("numeric", "numeric")


def test_comma_inside_quotes_is_one_value():
    table = inspect_upload(b'"height, cm",width\n1,2\n3,4\n', "points.csv")
    assert table.columns == ("height, cm", "width")


# --- the Dataset --------------------------------------------------------------------------------

def test_dataset_fields_follow_load_conventions():
    data = parse_upload(_table(POINTS, ",", ["x", "y", "z"]), "my points.csv")
    assert data.name == "upload" and data.truth is None
    assert not data.isometric and not data.conformal and data.image_shape is None
    assert "my points.csv" in data.description and "5 points in 3 dimensions" in data.description
    np.testing.assert_array_equal(data.color, POINTS[:, 0])  # first coordinate when nothing else
    assert data.truth_labels == ("x",)
    for array in (data.X, data.color):
        assert array.dtype == np.float64 and not array.flags.writeable
    with pytest.raises(ValueError):
        data.X[0, 0] = 1.0


def test_truth_and_colour_columns():
    content = b"x,y,z,u,v,c\n" + _table(np.column_stack([POINTS, POINTS[:, :2] * 2, np.arange(5.0) + 0.5]))
    with_truth = parse_upload(content, "points.csv", truth_columns=["u", "v"])
    assert with_truth.upload.columns == (0, 1, 2, 5)  # by default every numeric column not used otherwise
    with_truth = parse_upload(content, "points.csv", columns=[0, 1, 2], truth_columns=["u", "v"])
    np.testing.assert_array_equal(with_truth.truth, POINTS[:, :2] * 2)
    np.testing.assert_array_equal(with_truth.color, with_truth.truth[:, 0])
    assert with_truth.truth_labels == ("u", "v") and with_truth.truth.flags.writeable is False
    coloured = parse_upload(content, "points.csv", color_column="c", truth_columns=[3, 4])
    np.testing.assert_array_equal(coloured.X, POINTS)
    np.testing.assert_array_equal(coloured.color, np.arange(5.0) + 0.5)
    assert coloured.truth_labels == ("u", "v") and coloured.upload.color_categories is None
    assert coloured.upload.truth_columns == (3, 4) and coloured.upload.color_column == 5


def test_text_colour_codes_follow_first_appearance():
    content = b"x,y,kind\n0,0,b\n1,0,a\n0,1,b\n1,1,c\n"
    data = parse_upload(content, "points.csv", color_column="kind")
    assert data.color.tolist() == [0.0, 1.0, 0.0, 2.0]
    assert data.upload.color_categories == ("b", "a", "c") and data.truth_labels == ("kind",)


def test_drop_nonfinite_drops_and_records_rows():
    content = b"x,y\n1,2\nnan,3\n4,inf\n5,6\n7,9\n5,6\n"
    assert _message(content) == upload.NONFINITE.format(rows="2 rows", where="line 3")
    # Later messages still name the file's lines once rows are dropped.
    assert _message(content, drop_nonfinite=True) == upload.DUPLICATE_POINTS.format(
        rows="1 row", where="line 7", original="line 5")
    data = parse_upload(content[:-4], "points.csv", drop_nonfinite=True)
    assert data.X.tolist() == [[1.0, 2.0], [5.0, 6.0], [7.0, 9.0]]
    assert data.upload.dropped_rows == 2 and data.upload.n == 3
    assert "2 rows with NaN or infinite values dropped" in data.description


def test_nonfinite_truth_or_colour_rows_count_too():
    content = b"x,y,t\n1,2,0\n3,4,nan\n5,7,1\n"
    assert _message(content, truth_columns=["t"]) == upload.NONFINITE.format(rows="1 row", where="line 3")
    data = parse_upload(content, "points.csv", color_column="t", drop_nonfinite=True)
    assert data.color.tolist() == [0.0, 1.0] and data.upload.dropped_rows == 1


def test_enough_points_for_k_pass():
    data = parse_upload(_table(POINTS), "points.csv", n_neighbors=3)
    assert data.upload.n_neighbors == 3


def test_description_replays_the_dataset():
    content = _table(np.column_stack([POINTS, np.arange(5.0)]), ",", ["x", "y", "z", "t"])
    first = parse_upload(content, "points.csv", truth_columns=["t"], n_neighbors=2)
    again = parse_upload(content, "points.csv", truth_columns=["t"], n_neighbors=2)
    replayed = parse_upload(content, "points.csv", **{key: getattr(first.upload, key) for key in (
        "columns", "color_column", "truth_columns", "drop_nonfinite", "n_neighbors", "array")})
    for other in (again, replayed, parse_upload(content, "points.csv", **first.upload.parser_options())):
        for field in ("X", "truth", "color"):
            np.testing.assert_array_equal(getattr(other, field), getattr(first, field))
        assert (other.upload, other.description, other.truth_labels) == (first.upload, first.description,
                                                                         first.truth_labels)
    assert first.params == {}
    assert first.upload == datasets.UploadDescription(
        filename="points.csv", sha256=hashlib.sha256(content).hexdigest(), format="text", array=None,
        columns=(0, 1, 2), column_names=("x", "y", "z"), color_column=None, color_categories=None,
        truth_columns=(3,), output=None, drop_nonfinite=False, n_neighbors=2, dropped_rows=0, n=5, dim=3,
        warnings=())


def test_description_of_a_header_and_a_label_column():
    content = b"# measured\nx;y;z;kind\n0;0;1;dog\n1;0;2;cat\n0;1;3;dog\n1;1;5;bird\n"
    data = parse_upload(content, "pets.txt", color_column="kind", truth_columns=["z"])
    assert data.upload == datasets.UploadDescription(
        filename="pets.txt", sha256=hashlib.sha256(content).hexdigest(), format="text", array=None,
        columns=(0, 1), column_names=("x", "y"), color_column=3, color_categories=("dog", "cat", "bird"),
        truth_columns=(2,), output=None, drop_nonfinite=False, n_neighbors=None, dropped_rows=0, n=4, dim=2,
        warnings=())
    assert data.color.tolist() == [0.0, 1.0, 0.0, 2.0] and data.truth_labels == ("z",)


def test_description_of_an_npz_with_an_output_file():
    content = _npz(other=np.arange(3.0), points=POINTS)
    output = _output(layout="npz")
    data = parse_upload(content, "run.npz", output=output, n_neighbors=1)
    assert data.upload == datasets.UploadDescription(
        filename="run.npz", sha256=datasets.upload_sha256(content), format="npz", array="points",
        columns=(0, 1, 2), column_names=("column 1", "column 2", "column 3"), color_column=None,
        color_categories=None, truth_columns=None,
        output=datasets.OutputDescription("file", (0, 1), ("column 1", "column 2"), 2, filename="umap.npz",
                                          sha256=datasets.upload_sha256(output.content), format="npz", array="Y"),
        drop_nonfinite=False, n_neighbors=1, dropped_rows=0, n=5, dim=3, warnings=())
    assert data.output_labels == data.upload.output.column_names
    again = parse_upload(content, "run.npz", **data.upload.parser_options(output.content))
    np.testing.assert_array_equal(again.Y, data.Y)
    assert again.upload == data.upload
    with pytest.raises(DatasetError, match=r"^The output was read from 'umap\.npz': pass its bytes as "
                                           r"output_content to replay this parse\.$"):
        data.upload.parser_options()


def test_description_of_dropped_rows():
    content = b"a b c\n1 2 0\nnan 3 1\n4 5 0\n6 inf 1\n8 9 1\n"
    data = parse_upload(content, "gaps.dat", columns=["a", "b"], color_column="c", drop_nonfinite=True)
    assert data.upload == datasets.UploadDescription(
        filename="gaps.dat", sha256=hashlib.sha256(content).hexdigest(), format="text", array=None,
        columns=(0, 1), column_names=("a", "b"), color_column=2, color_categories=None, truth_columns=None,
        output=None, drop_nonfinite=True, n_neighbors=None, dropped_rows=2, n=3, dim=2, warnings=())
    assert data.X.tolist() == [[1.0, 2.0], [4.0, 5.0], [8.0, 9.0]] and data.color.tolist() == [0.0, 0.0, 1.0]


# --- property-based -------------------------------------------------------------------------------

@st.composite
def point_sets(draw):
    """Finite float64 arrays, 2..40 rows >= columns >= 2, all values distinct (so rows are too)."""
    n_columns = draw(st.integers(2, 6))
    n_rows = draw(st.integers(max(2, n_columns), 40))
    elements = st.floats(allow_nan=False, allow_infinity=False, width=64)
    return draw(hnp.arrays(np.float64, (n_rows, n_columns), elements=elements, unique=True))


@FUZZ
@given(points=point_sets(), layout=st.sampled_from(["csv", "tsv", "semicolon", "whitespace", "npy", "npz"]),
       header=st.booleans())
def test_any_point_set_round_trips_exactly(points, layout, header):
    names = [f"c{index}" for index in range(points.shape[1])] if header else None
    content, filename = {
        "csv": lambda: (_table(points, ",", names), "p.csv"),
        "tsv": lambda: (_table(points, "\t", names), "p.tsv"),
        "semicolon": lambda: (_table(points, ";", names), "p.csv"),
        "whitespace": lambda: (_table(points, " ", names), "p.txt"),
        "npy": lambda: (_npy(points), "p.npy"),
        "npz": lambda: (_npz(X=points), "p.npz"),
    }[layout]()
    data = parse_upload(content, filename)
    np.testing.assert_array_equal(data.X, points)
    assert inspect_upload(content, filename).n_rows == points.shape[0]


def _parses_or_refuses(content, filename):
    try:
        data = parse_upload(content, filename)
    except DatasetError as error:
        assert str(error) and str(error)[0].isupper()
        return
    assert data.X.ndim == 2 and np.isfinite(data.X).all()


@FUZZ
@given(content=st.binary(max_size=400),
       filename=st.sampled_from(["f.csv", "f.tsv", "f.txt", "f.npy", "f.npz", "f", "f.bin"]))
def test_arbitrary_bytes_give_a_dataset_or_a_dataset_error(content, filename):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProcrustesLabWarning)
        _parses_or_refuses(content, filename)


@FUZZ
@given(text=st.text(alphabet=st.sampled_from(list("0123456789.,;\t -+eEnaif\"#x\r\n")), max_size=300))
def test_arbitrary_tables_give_a_dataset_or_a_dataset_error(text):
    _parses_or_refuses(text.encode(), "f.csv")


_VALID_FILES = (_npy(POINTS), _npz(X=POINTS, labels=np.arange(5)), _npz(compressed=True, X=POINTS))


@FUZZ
@given(original=st.sampled_from(_VALID_FILES), data=st.data())
def test_damaged_array_files_give_a_dataset_or_a_dataset_error(original, data):
    content = bytearray(original)
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(content) - 1))
        content[position] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(1, len(content)))
    _parses_or_refuses(bytes(content[:cut]), data.draw(st.sampled_from(["f.npy", "f.npz", "f"])))


@FUZZ
@given(magic=st.sampled_from([b"\x93NUMPY", b"\x93NUMPY\x01\x00", b"PK\x03\x04", b"PK\x05\x06"]),
       rest=st.binary(max_size=300))
def test_array_signatures_followed_by_garbage_give_a_dataset_error(magic, rest):
    with pytest.raises(DatasetError):
        parse_upload(magic + rest, "upload")


@pytest.mark.parametrize("function", [parse_upload, inspect_upload])
def test_entry_points_take_options_by_keyword_only(function):
    import inspect

    signature = inspect.signature(function)
    positional = [p.name for p in signature.parameters.values() if p.kind == p.POSITIONAL_OR_KEYWORD]
    assert positional == ["content", "filename"]
    assert all(p.annotation is not p.empty for p in signature.parameters.values())
    assert signature.return_annotation is not signature.empty


# --- bounds: nothing runs away --------------------------------------------------------------------

_DEEP = 100_000


@pytest.mark.parametrize(("content", "filename", "expected"), [
    (b'{"a":' * _DEEP + b"1" + b"}" * _DEEP, "run.json", upload.JSON_FILE),
    (b"[" * _DEEP + b"]" * _DEEP, "run.json", upload.JSON_FILE),
    (b'{"a":' * _DEEP + b"1" + b"}" * _DEEP, "upload", upload.JSON_FILE),
    (b'{"a":' * _DEEP + b"1" + b"}" * _DEEP, "points.csv", upload.JSON_FILE),
    # One line whose one cell is not a number: a header, with no data below it.
    (b"[" * _DEEP + b"]" * _DEEP, "points.csv", upload.NO_DATA_ROWS),
    (b"[" * _DEEP + b"]" * _DEEP, "upload", upload.NO_DATA_ROWS),
], ids=["object.json", "array.json", "object sniffed", "object.csv", "array.csv", "array sniffed"])
def test_deeply_nested_json_is_refused_without_recursion(content, filename, expected):
    # The parser reads no JSON: a JSON object is refused on sight, anything else is read as a table.
    assert _message(content, filename) == expected
    if expected == upload.JSON_FILE:
        with pytest.raises(DatasetError, match="^The file is JSON"):
            inspect_upload(content, filename)


@pytest.mark.parametrize("depth", [17, 199, 250, 3000])
@pytest.mark.parametrize("brackets", ["()", "[]", "{}"])
def test_deeply_nested_npy_header_is_a_damaged_file_not_a_recursion(depth, brackets):
    opening, closing = brackets
    nested = opening * depth + closing * depth
    header = f"{{'descr': {nested}, 'fortran_order': False, 'shape': (3, 2), }}"
    content = _npy_with_header(header)
    assert _message(content, "points.npy") == upload.NPY_INVALID
    assert _message(_npz_of_member("X.npy", content), "points.npz") == upload.NPZ_INVALID


def test_npy_header_nested_within_the_bound_still_reads():
    # A structured dtype nests deeper than a plain one; it is refused for its type, not its depth.
    content = _npy(np.zeros(3, dtype=[("a", "<f8", (2,)), ("b", [("c", "<i4")])]))
    assert _message(content, "points.npy") == upload.NON_NUMERIC_ARRAY.format(
        name="", dtype=np.dtype([("a", "<f8", (2,)), ("b", [("c", "<i4")])]))


def _npz_of_member(name, data):
    buffer = io.BytesIO()
    import zipfile

    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


def test_npz_members_are_counted_before_the_archive_is_opened(monkeypatch):
    content = _npz(**{f"a{index}": np.zeros(1) for index in range(1001)})
    assert upload.arrays._zip_entry_count(content[:-10], 1000) == 0  # no end record: zipfile says it is damaged
    assert upload.arrays._zip_entry_count(b"junk" + content, 5) == 6  # data before the archive, counting stops early
    opened = []
    monkeypatch.setattr(upload.arrays.zipfile, "ZipFile", lambda *args, **kwargs: opened.append(args))
    assert _message(content, "points.npz") == upload.NPZ_TOO_MANY_ARRAYS.format(limit=1000)
    assert opened == []


def _traced_peak(function):
    """Peak bytes ``function()`` allocates (tracemalloc) beyond what existed before it; the error it raised."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        try:
            function()
        except DatasetError as error:
            raised = error
        else:
            raised = None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before, raised


_WIDE_ROW = b",".join([b"12"] * 250) + b"\n"


@pytest.mark.parametrize(("content", "limits", "message"), [
    # 4 000 rows of 250 two-digit values: 1 000 000 cells, some 60 MB as split strings.
    (_WIDE_ROW * 4000, UploadLimits(max_values=100_000),
     upload.TOO_MANY_VALUES.format(rows="4000 rows", width="250 columns", total=1_000_000, limit=100_000)),
    (_WIDE_ROW * 4000, UploadLimits(max_rows=1000), upload.TOO_MANY_ROWS.format(rows="4000 rows", limit=1000)),
    # One line of 500 000 values after narrow ones: refused before it is split.
    (b"1,2\n" * 100 + b",".join([b"12"] * 500_000) + b"\n", UploadLimits(max_columns=10_000),
     upload.TOO_MANY_COLUMNS.format(place="on line 101", limit=10_000)),
    (b'"a",' + b",".join([b"12"] * 500_000) + b"\n", UploadLimits(max_columns=10_000),
     upload.TOO_MANY_COLUMNS.format(place="on line 1", limit=10_000)),
])
def test_limits_are_checked_before_cells_are_split(content, limits, message):
    peak, error = _traced_peak(lambda: inspect_upload(content, "points.csv", limits=limits))
    assert str(error) == message
    # The decoded text and its lines take about twice the file; splitting it would take 20 times.
    assert peak < 4 * len(content)


@pytest.mark.slow  # over 10 s on 2 busy cores: CI runs it, the fast command does not
def test_reading_memory_grows_like_the_file_not_like_its_cells():
    def table(rows):
        return b"x,y,z,label\n" + b"".join(b"%d.25,%d.5,%d,c%d\n" % (i, i, -i, i % 7) for i in range(rows))

    small, large = table(50_000), table(200_000)
    peaks = [_traced_peak(lambda content=content: inspect_upload(content, "points.csv", limits=UploadLimits(
        max_rows=200_000)))[0] for content in (small, large)]
    # Each further byte of file costs the text (1), its values and line numbers (about 1.5 here):
    # splitting every cell at once cost about 24 bytes per byte (1 GB for a 46 MB file).
    assert (peaks[1] - peaks[0]) / (len(large) - len(small)) < 6


@FUZZ
@given(cells=st.lists(st.sampled_from(['"', ",", ";", "\t", "a", " ", "1", '""', "x,y"]), max_size=40),
       separator=st.sampled_from([",", ";", "\t"]), limit=st.integers(1, 25))
def test_wide_line_test_agrees_with_the_csv_reader(cells, separator, limit):
    line = "".join(cells)
    rows = list(csv.reader([line], delimiter=separator, skipinitialspace=True))
    assert upload.text._is_too_wide(line, separator, limit) == (len(rows[0]) > limit if rows else False)


@st.composite
def mixed_tables(draw):
    """A table of numeric, label and mixed columns (a mixed one may turn late), with its expected parse."""
    n_rows = draw(st.integers(1, 30))
    # A numeric first column makes the header line a header; two or more columns, comma-separated.
    kinds = ["numeric", *draw(st.lists(st.sampled_from(["numeric", "text", "mixed"]), min_size=1, max_size=4))]
    columns, expected = [], []
    for position, kind in enumerate(kinds):
        numbers = draw(hnp.arrays(np.float64, n_rows, elements=st.floats(-1e6, 1e6, allow_nan=False)))
        cells = [repr(float(value)) for value in numbers]
        if kind == "text":
            cells = [draw(st.sampled_from(["a", "b", "cat", "x y"])) for _ in range(n_rows)]
        elif kind == "mixed":
            cells[draw(st.integers(0, n_rows - 1))] = "oops"
            kind = "mixed" if n_rows > 1 else "text"  # (a column of one "oops" has no number)
        columns.append(cells)
        expected.append(numbers if kind == "numeric" else cells)
        kinds[position] = kind
    lines = [",".join(f'"{cell}"' if " " in cell else cell for cell in row) for row in zip(*columns)]
    blank_lines = draw(st.lists(st.integers(0, n_rows), max_size=3))
    for position in sorted(blank_lines, reverse=True):
        lines.insert(position, draw(st.sampled_from(["", "  ", "# note"])))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = ending.join(["h" + ",h".join(map(str, range(len(kinds))))] + lines) + ending
    return text.encode(), kinds, expected


@FUZZ
@given(table=mixed_tables(), chunk=st.integers(1, 12), segment=st.integers(1, 40))
def test_reading_does_not_depend_on_chunk_or_segment_size(table, chunk, segment):
    content, kinds, expected = table
    whole = upload.reader._read(content, "t.csv", UploadLimits(), None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(upload.text, "_CHUNK_CELLS", chunk)
        patch.setattr(upload.text, "_SEGMENT_CHARACTERS", segment)
        chunked = upload.reader._read(content, "t.csv", UploadLimits(), None)
    for contents in (whole, chunked):
        assert contents.table.kinds == tuple(kinds)
        for cells, kind, values in zip(contents.cells, kinds, expected):
            if kind == "numeric":
                np.testing.assert_array_equal(cells, values)
            else:
                assert [cells.labels[code] for code in cells.codes] == values
                assert list(cells.labels) == list(dict.fromkeys(values))  # codes in order of first appearance
    np.testing.assert_array_equal(whole.line_numbers, chunked.line_numbers)


def test_a_late_non_number_is_reported_at_its_line_whatever_the_chunk(monkeypatch):
    content = b"x,y\n" + b"".join(b"%d,%d\n" % (i, i * i) for i in range(50)) + b"7,oops\n8,9\n"
    monkeypatch.setattr(upload.text, "_CHUNK_CELLS", 10)
    assert _message(content) == upload.NON_NUMERIC.format(line=52, column='column 2 ("y")', text="oops")
    assert inspect_upload(content, "t.csv").kinds == ("numeric", "mixed")


def test_columns_chosen_by_name_among_thousands():
    X = np.random.default_rng(1).standard_normal((6, 5000))
    names = [f"c{index}" for index in range(5000)]
    content = _table(X, ",", names)
    chosen = names[::-1][:4]
    data = parse_upload(content, "wide.csv", columns=chosen)
    np.testing.assert_array_equal(data.X, X[:, [4999, 4998, 4997, 4996]])
    assert data.upload.columns == (4999, 4998, 4997, 4996) and data.upload.column_names == tuple(chosen)
    # Every column by name, once each: the duplicate test sees the repeat at the very end.
    assert _message(content, "wide.csv", columns=[*names, "c7"]) == 'Column 8 ("c7") is listed twice in columns: ' \
                                                                     "list each column once."


# --- an output (embedding) beside the input ---------------------------------------------------------

EMBEDDING = np.array([[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0], [2.5, 1.0], [0.0, -0.5]])
INPUT_WITH_OUTPUT = _table(np.column_stack([POINTS, EMBEDDING]), ",", ["x", "y", "z", "u", "v"])


def _output(array=EMBEDDING, layout="csv", **options):
    """An :class:`OutputFile` of ``array`` in a layout: csv with header, whitespace text, npy or npz."""
    content, filename = {
        "csv": lambda: (_table(array, ",", [f"e{index}" for index in range(array.shape[1])]), "umap.csv"),
        "text": lambda: (_table(array, " "), "umap.txt"),
        "npy": lambda: (_npy(array), "umap.npy"),
        "npz": lambda: (_npz(Y=array), "umap.npz"),
    }[layout]()
    return datasets.OutputFile(content, filename, **options)


OUTPUT_FAILURES = {
    "a row fewer": ({"columns": [0, 1, 2], "output": _output(EMBEDDING[:4])},
                    upload.OUTPUT_ROWS.format(output_rows="4 rows", input_rows="5 rows")),
    "a row more, in an array": ({"columns": [0, 1, 2], "output": _output(np.vstack([EMBEDDING, [[9.0, 9.0]]]), "npy")},
                                upload.OUTPUT_ROWS.format(output_rows="6 rows", input_rows="5 rows")),
    "one output column": ({"output_columns": ["u"]}, upload.OUTPUT_TOO_FEW_COLUMNS.format(columns="1 column")),
    "an output file of labels only": ({"columns": [0, 1, 2], "output": datasets.OutputFile(
        b"a\nb\nc\nd\ne\n", "labels.csv")}, upload.OUTPUT_TOO_FEW_COLUMNS.format(columns="0 columns")),
    "wider than the input": ({"columns": ["x", "y"], "output_columns": ["z", "u", "v"]},
                             upload.OUTPUT_WIDER_THAN_INPUT.format(output_dim=3, input_dim=2)),
    "an output file wider than the input": ({"columns": [0, 1], "output": _output(np.column_stack(
        [EMBEDDING, EMBEDDING[:, 0] ** 2]), "npy")}, upload.OUTPUT_WIDER_THAN_INPUT.format(output_dim=3, input_dim=2)),
    "output among the coordinates": ({"columns": ["x", "y", "z", "v"], "output_columns": ["u", "v"]},
                                     upload.OUTPUT_OVERLAP.format(column='column 5 ("v")')),
    "both kinds of output": ({"output_columns": ["u", "v"], "output": _output()}, upload.OUTPUT_AND_COLUMNS),
    "not an OutputFile": ({"output": b"0,1\n"}, ("output must be an OutputFile (the output file's content, filename, "
                                               "columns, array) or None; got bytes.")),
    "a word in the output file": ({"columns": [0, 1, 2], "output": datasets.OutputFile(
        b"a,b\n1,2\n3,4\n5,x7\n7,8\n9,10\n", "umap.csv")},
        upload.OUTPUT_NON_NUMERIC.format(line=4, column='column 2 ("b")', text="x7")),
    "an empty cell in the output file": ({"columns": [0, 1, 2], "output": datasets.OutputFile(
        b"1,2\n3,4\n5,6\n,8\n9,10\n", "umap.csv")}, upload.OUTPUT_EMPTY_CELL.format(line=4, column="column 1")),
    "a bad option of the output file": ({"columns": [0, 1, 2], "output": _output(columns=["e0", "e9"])},
                                        ("There is no column named 'e9' (in output.columns); the columns are 'e0', "
                                        "'e1'.")),
    "an output file that is not a table": ({"columns": [0, 1, 2], "output": datasets.OutputFile(b"{}", "u.json")},
                                           upload.JSON_FILE),
}


def _with_output_value(row, column, value):
    """INPUT_WITH_OUTPUT's text with one output value replaced."""
    values = np.column_stack([POINTS, EMBEDDING])
    values[row, column] = value
    return _table(values, ",", ["x", "y", "z", "u", "v"])


@pytest.mark.parametrize(("options", "expected"), OUTPUT_FAILURES.values(), ids=OUTPUT_FAILURES)
def test_bad_output_is_refused_with_its_exact_message(options, expected):
    assert _message(INPUT_WITH_OUTPUT, "points.csv", **options) == expected


@pytest.mark.parametrize(("layout", "where"), [("csv", "line 4 of the output file"),
                                               ("npy", "row index 2 of the output file")])
def test_nonfinite_output_is_refused_and_located(layout, where):
    embedding = EMBEDDING.copy()
    embedding[2, 1] = np.inf
    embedding[4, 0] = np.nan
    assert _message(INPUT_WITH_OUTPUT, "points.csv", columns=[0, 1, 2], output=_output(embedding, layout)) == \
        upload.OUTPUT_NONFINITE.format(rows="2 rows", where=where)
    assert _message(_with_output_value(1, 4, np.nan), "points.csv", output_columns=["u", "v"]) == \
        upload.OUTPUT_NONFINITE.format(rows="1 row", where="line 3")


def test_drop_nonfinite_drops_a_row_bad_in_either_from_both():
    values = np.column_stack([POINTS, EMBEDDING])
    values[1, 0] = np.nan  # bad in the input only
    values[3, 4] = -np.inf  # bad in the output only
    content = _table(values, ",", ["x", "y", "z", "u", "v"])
    # The input's rows are reported first, and counted alone.
    assert _message(content, output_columns=["u", "v"]) == upload.NONFINITE.format(rows="1 row", where="line 3")
    data = parse_upload(content, "points.csv", output_columns=["u", "v"], drop_nonfinite=True)
    kept = [0, 2, 4]
    np.testing.assert_array_equal(data.X, POINTS[kept])
    np.testing.assert_array_equal(data.Y, EMBEDDING[kept])
    assert data.upload.dropped_rows == 2 and data.upload.n == 3
    # Rows bad only in a second file are dropped from the input too, row for row.
    embedding = EMBEDDING.copy()
    embedding[0, 1] = np.nan
    data = parse_upload(_table(POINTS), "points.csv", output=_output(embedding, "npz"), drop_nonfinite=True)
    np.testing.assert_array_equal(data.X, POINTS[1:])
    np.testing.assert_array_equal(data.Y, EMBEDDING[1:])
    everything_bad = EMBEDDING.copy()
    everything_bad[:, 0] = np.nan
    assert _message(_table(POINTS), output=_output(everything_bad, "npy"), drop_nonfinite=True) == upload.ALL_NONFINITE


@pytest.mark.parametrize("offset", [0.0, 1e6, -3e12])
def test_one_repeated_point_is_refused_relative_to_the_outputs_scale(offset):
    repeated = np.full_like(EMBEDDING, 2.5) + offset
    message = _message(_table(POINTS), output=_output(repeated, "npy"))
    assert message == upload.OUTPUT_COLLAPSED.format(spread=0.0, tolerance=1e-12, scale=abs(2.5 + offset))
    if offset:
        # Spread far below the rounding of values at this offset: one point, however distinct the floats.
        jitter = offset + EMBEDDING * abs(offset) * 1e-13
        spread, scale = np.ptp(jitter, axis=0).max(), np.abs(jitter).max()
        assert _message(_table(POINTS), output=_output(jitter, "npy")) == upload.OUTPUT_COLLAPSED.format(
            spread=spread, tolerance=1e-12, scale=scale)


@pytest.mark.parametrize("scale", [1e-150, 1e-8, 1.0, 1e150])
def test_an_output_of_any_scale_is_accepted(scale):
    data = parse_upload(_table(POINTS), "points.csv", output=_output(EMBEDDING * scale, "npy"))
    np.testing.assert_array_equal(data.Y, EMBEDDING * scale)


def test_duplicate_output_points_are_allowed():
    embedding = EMBEDDING.copy()
    embedding[3] = embedding[0]
    np.testing.assert_array_equal(parse_upload(_table(POINTS), "p.csv", output=_output(embedding, "npy")).Y, embedding)


def test_output_columns_leave_the_default_coordinates():
    data = parse_upload(INPUT_WITH_OUTPUT, "points.csv", output_columns=["u", "v"], color_column="z")
    np.testing.assert_array_equal(data.X, POINTS[:, :2])
    np.testing.assert_array_equal(data.Y, EMBEDDING)
    assert data.upload.columns == (0, 1) and data.output_labels == ("u", "v")
    assert data.upload.output == datasets.OutputDescription("columns", (3, 4), ("u", "v"), 2)
    assert not data.Y.flags.writeable and data.Y.dtype == np.float64
    assert "with a 2-dimensional output from its columns" in data.description


def test_output_file_rows_match_data_rows_not_lines():
    # Comments, blank lines and a header shift lines, not rows.
    text = b"# UMAP of points.csv\n\ne0 e1\n" + b"\n".join(
        b" ".join(repr(float(value)).encode() for value in row) + (b"\n# --" if index == 2 else b"")
        for index, row in enumerate(EMBEDDING)) + b"\n"
    data = parse_upload(_table(POINTS, ",", ["x", "y", "z"]), "points.csv", output=datasets.OutputFile(text, "u.txt"))
    np.testing.assert_array_equal(data.Y, EMBEDDING)
    assert data.output_labels == ("e0", "e1")


def test_output_description_replays_the_dataset():
    for options in ({"output_columns": ["v", "u"]}, {"columns": ["x", "y", "z"], "output": _output(layout="npz")}):
        first = parse_upload(INPUT_WITH_OUTPUT, "points.csv", **options)
        output = first.upload.output
        if output.source == "columns":
            replay = {"output_columns": list(output.columns)}
        else:
            replay = {"output": datasets.OutputFile(options["output"].content, output.filename,
                                                    columns=list(output.columns), array=output.array)}
        again = parse_upload(INPUT_WITH_OUTPUT, "points.csv", columns=list(first.upload.columns), **replay)
        np.testing.assert_array_equal(again.Y, first.Y)
        np.testing.assert_array_equal(again.X, first.X)
        assert again.upload == first.upload
    assert first.upload.output == datasets.OutputDescription(
        "file", (0, 1), ("column 1", "column 2"), 2, filename="umap.npz",
        sha256=datasets.upload_sha256(options["output"].content), format="npz", array="Y")


def test_inspect_output_reports_what_the_pickers_need():
    table = inspect_output(_output(layout="csv").content, "umap.csv", n_rows=5)
    assert table.columns == ("e0", "e1") and table.number_columns == (0, 1) and table.text_columns == ()
    assert inspect_upload(INPUT_WITH_OUTPUT, "points.csv").number_columns == (0, 1, 2, 3, 4)
    with pytest.raises(DatasetError) as caught:
        inspect_output(_output(layout="csv").content, "umap.csv", n_rows=6)
    assert str(caught.value) == upload.OUTPUT_ROWS.format(output_rows="5 rows", input_rows="6 rows")
    with pytest.raises(DatasetError) as caught:
        inspect_output(b"e0,kind\n1,a\n2,b\n", "umap.csv", n_rows=2)
    assert str(caught.value) == upload.OUTPUT_TOO_FEW_COLUMNS.format(columns="1 numeric column")
    with pytest.raises(DatasetError, match=r"^n_rows must be an integer >= 1; got 2\.0\. Give the input table's "
                                           r"n_rows\.$"):
        inspect_output(b"1,2\n3,4\n", "umap.csv", n_rows=2.0)


@st.composite
def embedded_point_sets(draw):
    """An input (n, q) and an output (n, d), 2 <= d <= q, distinct values, the output not collapsed."""
    points = draw(point_sets())
    n_rows, n_columns = points.shape
    n_output = draw(st.integers(2, n_columns))
    elements = st.floats(-1e12, 1e12, allow_nan=False)
    embedding = draw(hnp.arrays(np.float64, (n_rows, n_output), elements=elements, unique=True))
    return points, embedding


@FUZZ
@given(sets=embedded_point_sets(), layout=st.sampled_from(["same file", "csv", "text", "npy", "npz"]))
def test_any_input_and_output_round_trip_exactly(sets, layout):
    points, embedding = sets
    if layout == "same file":
        names = [f"x{index}" for index in range(points.shape[1])] + [f"y{index}" for index in range(embedding.shape[1])]
        content = _table(np.column_stack([points, embedding]), ",", names)
        data = parse_upload(content, "p.csv", output_columns=names[points.shape[1]:])
    else:
        data = parse_upload(_npy(points), "p.npy", output=_output(embedding, layout))
    np.testing.assert_array_equal(data.X, points)
    np.testing.assert_array_equal(data.Y, embedding)
    assert data.upload.output.dim == embedding.shape[1]


# Metadata columns: carried with the points, never embedded.

METADATA_TABLE = (b"x,y,z,name,year,score\n0,0,1,ab,1990,1.5\n1,0,2,cd,2001,nan\n0,1,3,ab,,2\n2,2,5,e,1995,x\n"
                  b"3,1,nan,f,1999,3\n")


def test_metadata_columns_come_along_row_for_row_as_numbers_or_texts_and_are_not_coordinates():
    data = parse_upload(METADATA_TABLE, "points.csv", metadata_columns=["name", 4, "score"], drop_nonfinite=True)
    assert data.upload.columns == (0, 1, 2) and data.upload.metadata_columns == (3, 4, 5)
    # The row with a NaN coordinate is dropped from the metadata too; an empty year is NaN; a column with a
    # word among its numbers is text.
    assert data.metadata["name"].tolist() == ["ab", "cd", "ab", "e"]
    np.testing.assert_array_equal(data.metadata["year"], [1990, 2001, np.nan, 1995])
    assert data.metadata["score"].tolist() == ["1.5", "nan", "2", "x"]
    assert not data.metadata["name"].flags.writeable
    # The description replays the parse, metadata included.
    again = parse_upload(METADATA_TABLE, "points.csv", **data.upload.parser_options())
    assert again.metadata.keys() == data.metadata.keys()
    for name, values in data.metadata.items():
        np.testing.assert_array_equal(again.metadata[name], values)
    assert parse_upload(METADATA_TABLE, "points.csv", drop_nonfinite=True, columns=[0, 1, 2]).metadata == {}


def test_metadata_columns_are_bounded_in_number_and_in_characters(monkeypatch):
    wide = b",".join(b"c%d" % i for i in range(20)) + b"\n" + b"\n".join(
        b",".join(b"%d" % (row * 31 + column * column) for column in range(20)) for row in range(25)) + b"\n"
    with pytest.raises(DatasetError, match="at most 16 columns; got 17"):
        parse_upload(wide, "wide.csv", columns=[0, 1], metadata_columns=list(range(2, 19)))
    with pytest.raises(DatasetError, match="listed twice in metadata_columns"):
        parse_upload(METADATA_TABLE, "points.csv", metadata_columns=["name", 3])
    # Together: two text columns of 5 rows × 2 characters are 20 characters.
    monkeypatch.setattr(upload.points, "MAX_METADATA_CHARACTERS", 15)
    with pytest.raises(DatasetError, match=r'more than 15 characters.*\(at column 7 \("kind"\)\)'):
        parse_upload(METADATA_TABLE.replace(b"score\n", b"score,kind\n").replace(b"1.5\n", b"1.5,aa\n")
                     .replace(b"nan\n", b"nan,bb\n").replace(b",2\n", b",2,aa\n").replace(b",x\n", b",x,cc\n")
                     .replace(b",3\n", b",3,dd\n"), "points.csv", columns=[0, 1, 2], metadata_columns=["name", "kind"],
                     drop_nonfinite=True)
    monkeypatch.setattr(upload.points, "MAX_METADATA_CHARACTERS", 9)  # 5 rows × the longest text, 2 characters
    with pytest.raises(DatasetError, match=r'metadata column 4 \("name"\) holds texts of up to 2 characters on 5 rows'):
        parse_upload(METADATA_TABLE, "points.csv", columns=[0, 1, 2], metadata_columns=["name"], drop_nonfinite=True)
