"""A user's uploaded file as a :class:`~datasets.registry.Dataset`: text tables and NumPy arrays.

:func:`inspect_upload` reads a file and says what it holds (an :class:`UploadTable`: column names
and kinds, row count, the arrays of an ``.npz``) so the dashboard can offer column pickers;
:func:`parse_upload` reads it the same way, takes the chosen columns and checks that they make
an embeddable point set. Both share one reader, so a file that inspects cleanly fails in
:func:`parse_upload` only on something the column choice decides (a non-numeric cell in a chosen
column, NaN values, duplicate points, ...).

Formats, chosen by the file's extension (``.csv``, ``.tsv``, ``.txt``, ``.dat``, ``.npy``,
``.npz``) and otherwise by its first bytes (a JSON object, by extension or first character, is
refused on sight: the reader parses no JSON, so no nesting can reach a recursion):

- text: UTF-8 (a byte-order mark is allowed), one point per line; values separated by tabs,
  semicolons, commas or runs of whitespace (the first of these separators found on more than
  half of the first 20 lines with content); blank lines and lines starting with ``#`` skipped;
  double quotes around a value allowed. The first line is a header when one of its cells is not
  a number while the cell below it is (or, in a one-line file, when any cell is not a number).
  Numbers use Python's ``float`` syntax (dot as decimal mark; ``nan`` and ``inf`` are read as
  such); digit-group underscores are not accepted.
- ``.npy``: one 2-D array of real numbers (integers or floats), read with
  ``numpy.load(..., allow_pickle=False)``; object arrays are refused from their header, before
  any data is read.
- ``.npz``: the array named by the ``array`` option, or the first 2-D numeric array in the file.

Every problem raises :class:`~measures.errors.DatasetError` with a message the dashboard shows as
it is. The messages are the module constants below, filled with :meth:`str.format`; their fields:

``where``, ``original``
    a place in the file: ``"line 12"`` (line number in a text file, from 1, header and blank
    lines counted) or ``"row index 11"`` (row of an array, from 0).
``column``, ``columns``
    ``column 3`` (counted from 1) followed by its header name in double quotes when the file has
    one, e.g. ``column 3 ("height")``; several are joined by ``", "``.
``rows``, ``points``, ``values``, ``header_columns``, ``width``
    a count with its noun, e.g. ``"1 row"``, ``"4 values"``, ``"3 columns"``.
``limit``, ``total``, ``line``, ``dim``
    a plain number: a bound of :class:`UploadLimits`, a product of counts, a line number, a dimension.
``place``
    where a limit was passed: ``"on line 12"``, ``"array of shape (3, 20000)"`` or ``"array 'X'
    of shape (3, 20000)"``.
``size_mb``, ``limit_mb``
    sizes in MB (2**20 bytes): the size with one decimal, the limit with up to 3 significant digits.
``arrays``
    the ``.npz`` arrays, e.g. ``'X' with shape (100, 3) and type float64, 'labels' with shape
    (100,) and type int64``.
``name``
    empty for an ``.npy`` file, `` 'X'`` (with a leading space) for an array of an ``.npz`` file.

Column indices given to the API count from 0, like Python's; messages count columns from 1
like a spreadsheet, and generated names (``"column 1"``, ...) agree with the messages.
"""

import codecs
import csv
import dataclasses
import hashlib
import io
import itertools
import math
import os
import re
import struct
import tokenize
import warnings
import zipfile
import zlib
from collections.abc import Sequence

import numpy as np

from measures.errors import DatasetError, ProcrustesLabWarning
from measures.parameters import (
    Parameter,
    check_integer,
    is_integer,
    validate_parameters,
)

from .registry import Dataset

__all__ = ["OutputFile", "UploadLimits", "UploadTable", "inspect_output", "inspect_upload", "parse_upload",
           "upload_sha256"]

_MEGABYTE = 1024 * 1024

# --- messages (module docstring: what the fields hold) ------------------------------------------

EMPTY_FILE = "The file is empty."
TOO_LARGE = ("The file is {size_mb} MB, more than the {limit_mb} MB limit: upload fewer rows or columns, "
             "or reduce the dimension with PCA first.")
BINARY_FILE = ("The file is neither text nor a NumPy array file: upload a CSV, TSV or text table of numbers, "
               "or an array saved with numpy.save (.npy) or numpy.savez (.npz).")
SPREADSHEET_FILE = ("Spreadsheet workbooks ({extension}) cannot be read: save the sheet as CSV (in Excel: "
                    "'CSV UTF-8') and upload that file.")
NOT_UTF8 = ("The file is not UTF-8 text ({detail}): save it as UTF-8 (in Excel: 'CSV UTF-8') "
            "and upload it again.")
NO_DATA_ROWS = ("The file holds no data rows, only a header, blank lines or # comments: "
                "add one row of numbers per point.")
UNCLOSED_QUOTE = ("Line {line} opens a double quote that is not closed on the same line: close the quote, "
                  "as every point must fit on one line.")
UNREADABLE_LINE = "Line {line} cannot be split into values ({reason}): check its quotes and separators."
RAGGED_HEADER = ("Line {line} has {values}, but the header has {header_columns}: "
                 "every row needs the same number of values.")
RAGGED = ("Line {line} has {values}, but line {first_line} has {expected}: "
          "every row needs the same number of values.")
TOO_MANY_ROWS = ("The file has {rows}, more than the {limit} allowed: upload a random subset of at most "
                 "{limit} rows.")
TOO_MANY_COLUMNS = ("The file has more than {limit} columns ({place}): upload at most {limit} (reduce the "
                    "dimension with PCA first, or transpose a table that holds one point per column).")
TOO_MANY_VALUES = ("The file holds {rows} of {width}, {total} values in all, more than the {limit} allowed: "
                   "upload fewer rows or columns, or reduce the dimension with PCA first.")
JSON_FILE = ("The file is JSON, not a table of points: save the points as CSV, TSV or text (one row per point), "
             "or as a NumPy .npy or .npz file.")
NON_NUMERIC = ("Line {line}, {column} holds '{text}', which is not a number: coordinate, ground-truth and "
               "output columns must hold numbers only, written with a dot as decimal mark (a column of labels "
               "can be the colour column).")
EMPTY_CELL = ("Line {line}, {column} is empty: coordinate, ground-truth and output columns need a number in "
              "every row (write nan for a missing value and drop its row with drop_nonfinite=True).")
NONFINITE = ("NaN or infinite values appear in {rows}, the first at {where}: fix or remove those rows, "
             "or drop them on upload (option drop_nonfinite=True).")
ALL_NONFINITE = ("Every row holds NaN or infinite values in the chosen columns, so dropping them leaves no "
                 "point: fix the file or choose other columns.")
TOO_FEW_POINTS = ("The data has {points}, but n_neighbors = {n_neighbors} needs at least {needed} "
                  "(n_neighbors + 2): upload more points or choose fewer neighbours.")
NO_COORDINATES = ("No coordinate column is left once the colour and ground-truth columns are set aside: "
                  "choose at least two coordinate columns.")
SINGLE_COORDINATE = ("Only one coordinate column is chosen, {column}: an embedding needs at least two, "
                     "so choose more coordinate columns.")
CONSTANT_COLUMNS = ("Some coordinate columns hold the same value in every row: {columns}. Leave them out "
                    "of the coordinates, as constant columns carry no information.")
DUPLICATE_POINTS = ("The data holds {rows} repeating an earlier row's coordinates, the first at {where} "
                    "(a copy of {original}): remove the copies, as embedding algorithms break on "
                    "duplicate points.")
MORE_COLUMNS_THAN_ROWS = ("The data has {dim} coordinate columns but only {rows}: each row must be one "
                          "point, so transpose the table if it holds one point per column, or choose "
                          "fewer columns.")
OUTPUT_AND_COLUMNS = ("Both output_columns and output give the output: choose its columns in the same file "
                      "(output_columns) or give the file that holds it (output), not both.")
OUTPUT_ROWS = ("The output file has {output_rows}, but the input has {input_rows}: the output must hold one row "
               "per input point, in the same order (blank and # comment lines do not count), so upload the "
               "output made from this very input.")
OUTPUT_TOO_FEW_COLUMNS = ("The output has {columns}: an embedding to judge needs at least two output columns, "
                          "so choose more (or check that the file holds the embedding's coordinates).")
OUTPUT_WIDER_THAN_INPUT = ("The output has {output_dim} columns but the input only {input_dim} coordinates: an "
                           "embedding has at most as many dimensions as its input (the local Procrustes measures "
                           "align the output into the input's space), so choose at most {input_dim} output "
                           "columns, or check that the input and the output are not swapped.")
OUTPUT_OVERLAP = ("The output's columns include a coordinate, {column}: the output is the embedding of the "
                  "coordinates, so leave its columns out of the coordinates.")
OUTPUT_NON_NUMERIC = ("In the output file, line {line}, {column} holds '{text}', which is not a number: output "
                      "columns must hold numbers only, written with a dot as decimal mark.")
OUTPUT_EMPTY_CELL = ("In the output file, line {line}, {column} is empty: output columns need a number in every "
                     "row (write nan for a missing value and drop its row with drop_nonfinite=True).")
OUTPUT_NONFINITE = ("NaN or infinite values appear in the output in {rows}, the first at {where}: fix or remove "
                    "those rows, or drop them on upload (option drop_nonfinite=True drops every row that is bad "
                    "in the input or in the output, from both).")
OUTPUT_COLLAPSED = ("The output puts every point at one place: its largest spread along a column, {spread:.3g}, "
                    "is at most {tolerance:.0e} times its largest value, {scale:.3g}. An embedding must keep the "
                    "points apart, so check that the right output was chosen (a collapsed run of the method that "
                    "made it cannot be judged).")
PCA_SUGGESTED = ("The data has {dim} coordinate columns, more than {limit}: consider reducing them with "
                 "PCA first, as neighbourhoods in high dimension are slow to find and dominated by noise.")
OBJECT_ARRAY = ("The array{name} holds Python objects, which are refused because loading them would "
                "execute code stored in the file (pickle): save a plain array of numbers.")
NON_NUMERIC_ARRAY = ("The array{name} holds values of type {dtype}, not real numbers: save a 2-D array of "
                     "floats or integers.")
NOT_2D = ("The array{name} has shape {shape}: save a 2-D array with one row per point and one column per "
          "coordinate.")
NPY_INVALID = ("The file is not a readable .npy file (it is damaged, truncated or not a NumPy array file): "
               "save the array again with numpy.save.")
NPZ_INVALID = ("The file is not a readable .npz file (it is damaged, truncated or not a NumPy archive): "
               "save the arrays again with numpy.savez.")
NPZ_NO_ARRAYS = "The .npz file holds no arrays: save the points with numpy.savez(file, X=points)."
NPZ_NO_NUMERIC_2D = ("The .npz file holds no 2-D array of numbers (it holds {arrays}): save the points as "
                     "one 2-D array, one row per point.")
NPZ_UNKNOWN_ARRAY = "The .npz file has no array named '{array}'; it holds {arrays}: choose one of those."
NPZ_TOO_MANY_ARRAYS = ("The .npz file holds more than {limit} arrays: save the points on their own with "
                       "numpy.save (.npy) or numpy.savez(file, X=points).")
NPZ_TOO_LARGE = ("The array{name} takes {size_mb} MB once decompressed, more than the {limit_mb} MB limit: "
                 "upload fewer rows or columns.")

# --- limits and options -----------------------------------------------------------------------

_LIMIT_PARAMETERS = (
    Parameter("max_bytes", "largest upload (bytes)", "int", 50 * _MEGABYTE, low=1,
              help="Largest file accepted, and largest array of an .npz once decompressed."),
    Parameter("max_rows", "most rows", "int", 1_000_000, low=1, help="Most points (data rows) accepted."),
    Parameter("max_columns", "most columns", "int", 10_000, low=1,
              help="Most columns accepted (all of them, whichever are chosen)."),
    Parameter("max_values", "most values", "int", 10_000_000, low=1,
              help="Most values (rows times columns) accepted: 80 MB once stored as float64."),
    Parameter("suggest_pca_above", "PCA advised above", "int", 50, low=1,
              help="More coordinate columns than this give a warning suggesting PCA first."),
)
_LIMIT_DEFAULTS = {parameter.name: parameter.default for parameter in _LIMIT_PARAMETERS}
_OPTION_PARAMETERS = (
    Parameter("drop_nonfinite", "drop NaN rows", "bool", False,
              help="Drop rows with NaN or infinite values in the chosen columns instead of refusing them."),
    Parameter("n_neighbors", "neighbours k", "int", None, low=1,
              help="When given, at least n_neighbors + 2 points are required."),
)
# An output whose largest column range is at most this fraction of its largest absolute value is
# one repeated point: float64 then holds fewer than ~10^4 distinct values across the spread, so
# the output's neighbourhoods are rounding noise (and an exactly collapsed run has range 0).
_COLLAPSE_TOLERANCE = 1e-12
_TEXT_EXTENSIONS = (".csv", ".tsv", ".txt", ".dat")
_SPREADSHEET_EXTENSIONS = (".xlsx", ".xls", ".xlsm", ".ods")
_NPY_MAGIC = b"\x93NUMPY"
# A JSON object: no table of numbers starts with "{" (a JSON array could be a header cell "[x]").
_JSON_START = re.compile(rb"(\xef\xbb\xbf)?\s*\{")
# A zip archive starts with a local file header, or with the end record when it is empty (an
# .npz written by numpy.savez with no arrays).
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
# Separators in order of precedence: a tab or semicolon file may hold commas inside values
# (decimal commas, names), while a comma file rarely holds tabs or semicolons.
_SEPARATORS = ("\t", ";", ",")
_SEPARATOR_SAMPLE_LINES = 20
# Bytes that never appear in text (control characters other than tab, newlines, form feeds).
_CONTROL_BYTES = bytes([*range(9), *range(14, 32), 127])
# Text is split into lines a segment of about this many characters at a time, and lines into
# cells a chunk of about this many cells (at least that many rows) at a time: some 5 MB of str
# objects, or 40 MB for 64 rows of 10 000 columns. The strings of all lines or all cells of a
# large file never exist at once.
_SEGMENT_CHARACTERS = 1 << 18
_CHUNK_CELLS = 1 << 16
_CHUNK_MIN_ROWS = 64
# CRLF or a lone CR, each one line end.
_CARRIAGE_RETURN = re.compile("\r\n?")
# A line without data: blank (whitespace as str.isspace knows it), or a comment.
_NO_DATA_LINE = re.compile(r"^[^\S\n]*(?:#|$)", re.MULTILINE)
# One value as the csv reader (skipinitialspace=True) reads it: spaces, then a double-quoted part
# (doubled quotes inside it) followed by anything up to the separator, or a quote left open to
# the end of the line, or no quote at all.
_CSV_FIELDS = {separator: re.compile(f' *(?:"(?:[^"]|"")*(?:"[^{separator}]*|$)|[^{separator}]*)')
               for separator in _SEPARATORS}
# How much of a bad cell, and how many column names, a message quotes.
_LONGEST_QUOTED_TEXT = 40
_LISTED_COLUMNS = 20
# Errors the zip and .npy readers raise on a damaged file; none of them can come from a sound one.
_ARCHIVE_ERRORS = (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error, NotImplementedError,
                   RuntimeError, struct.error)
# What numpy's header parser (ast.literal_eval, tokenize, a sort of the dict's keys, then
# descr_to_dtype on whatever 'descr' holds) lets escape on some damaged headers besides ValueError.
_HEADER_PARSE_ERRORS = (SyntaxError, tokenize.TokenError, TypeError, IndexError, KeyError, AttributeError)
# numpy refuses headers longer than this (numpy.lib.format's max_header_size default); the depth
# bound is ours: a plain array's header nests 2 deep, a structured one's a few more.
_NPY_HEADER_BYTES = 10_000
_NPY_HEADER_DEPTH = 16
# Most arrays an .npz may hold. zipfile builds an object per member on opening the archive, so
# they are counted from the bytes first (a 50 MB zip can list a million members).
_NPZ_MAX_MEMBERS = 1_000
# The end record of a zip archive takes 22 bytes, then a comment of at most 65 535.
_ZIP_END_RECORD_BYTES = 22


@dataclasses.dataclass(frozen=True)
class UploadLimits:
    """Bounds that keep an upload from exhausting the server, and the dimension that suggests PCA.

    Each bound is checked before the memory it bounds is taken, and each has its own message
    (module constants): the size first, the rows and columns before any cell is split into
    values, their product before the values are stored. Reading a file then takes time linear in
    its size and memory of about its size plus 8 bytes per value (measured in ``bench/uploads.py``).

    Attributes
    ----------
    max_bytes : int, default=50 MB (50 * 1024 * 1024)
        Largest file accepted (:data:`TOO_LARGE`); also the largest ``.npz`` array once
        decompressed (:data:`NPZ_TOO_LARGE`).
    max_rows : int, default=1_000_000
        Most data rows (points) accepted (:data:`TOO_MANY_ROWS`), as many as :func:`datasets.load`
        draws. A 10^6 x q upload costs 8q MB as float64 (24 MB for q = 3) and, while it is read,
        about 3 times its file (90 MB for 10^6 rows of three numbers and a label, 28 MB); within
        ``max_bytes`` such files have at most 5 or 6 columns (6.5 float64 values per row in 50 MB).
    max_columns : int, default=10_000
        Most columns accepted, chosen or not (:data:`TOO_MANY_COLUMNS`). A text line is refused as
        soon as it is seen to hold more, before it is split. 10 000 admits a 100 × 100-pixel image
        per row (the globe set's largest is 64 × 64) and any table of features we expect; past it
        a table is nearly always one point per column (transposed) or a file that is not a table,
        and every column costs the dashboard a picker entry.
    max_values : int, default=10_000_000
        Most values, rows times columns, accepted (:data:`TOO_MANY_VALUES`): at most 80 MB as
        float64. Without it the two bounds above would allow 10^9 values, and within 50 MB a text
        file of one-digit values holds 26 million of them (210 MB once stored), an int8 ``.npy``
        file 52 million (420 MB).
    suggest_pca_above : int, default=50
        More coordinate columns than this are accepted with a ``ProcrustesLabWarning`` suggesting PCA.

    Raises
    ------
    DatasetError
        If a value is not a whole number >= 1 (None means the default).
    """

    max_bytes: int = _LIMIT_DEFAULTS["max_bytes"]
    max_rows: int = _LIMIT_DEFAULTS["max_rows"]
    max_columns: int = _LIMIT_DEFAULTS["max_columns"]
    max_values: int = _LIMIT_DEFAULTS["max_values"]
    suggest_pca_above: int = _LIMIT_DEFAULTS["suggest_pca_above"]

    def __post_init__(self):
        values = validate_parameters(_LIMIT_PARAMETERS, dataclasses.asdict(self), "upload limits", DatasetError)
        for name, value in values.items():
            object.__setattr__(self, name, value)


@dataclasses.dataclass(frozen=True)
class UploadTable:
    """What an uploaded file holds, before any column is chosen (see :func:`inspect_upload`).

    Attributes
    ----------
    filename : str
        The name the file was uploaded under.
    format : {"text", "npy", "npz"}
        How it was read.
    columns : tuple of str
        Column names in file order: the header's, or ``"column 1"``, ``"column 2"``, ... where the
        file has none (arrays, header-less text, empty header cells).
    kinds : tuple of {"numeric", "text", "mixed"}
        Per column: every value is a number; no value is; or some are (a column with a typo, or
        labels that look like numbers). Only numeric columns can be coordinates or ground truth;
        any column can be the colour column.
    n_rows : int
        Number of data rows (points before any is dropped).
    sha256 : str
        :func:`upload_sha256` of the file.
    has_header : bool
        Whether the first line of a text file was read as column names.
    separator : {",", "\\t", ";", "whitespace"} or None
        The separator of a text file; None for arrays.
    arrays : tuple of str
        Names of all arrays of an ``.npz`` file, in file order (empty for other formats).
    array : str or None
        The ``.npz`` array read.
    """

    filename: str
    format: str
    columns: tuple
    kinds: tuple
    n_rows: int
    sha256: str
    has_header: bool = False
    separator: str = None
    arrays: tuple = ()
    array: str = None

    @property
    def number_columns(self):
        """Indices of the columns that hold numbers (kind ``"numeric"`` or ``"mixed"``).

        The columns a coordinate, ground-truth or output picker offers: a ``"mixed"`` column is
        offered too, so that choosing it reports its bad cell instead of hiding the column.
        """
        return tuple(index for index, kind in enumerate(self.kinds) if kind != "text")

    @property
    def text_columns(self):
        """Indices of the columns that hold no number (kind ``"text"``): labels, for the colour picker."""
        return tuple(index for index, kind in enumerate(self.kinds) if kind == "text")


@dataclasses.dataclass(frozen=True)
class OutputFile:
    """A second uploaded file that holds an embedding (the output Y) of the input's points, row for row.

    Given to :func:`parse_upload` as ``output``: row i of the output is the image of data row i
    of the input (blank and ``#`` comment lines, and a header, do not count in either file).

    Attributes
    ----------
    content : bytes
        The file's bytes (any format :func:`inspect_upload` reads).
    filename : str
        The name it was uploaded under; its extension picks the format.
    columns : list of str or int, optional
        The output's columns, by name or 0-based index; default every column that holds numbers
        (:attr:`UploadTable.number_columns`).
    array : str, optional
        For an ``.npz`` file, the array holding the output; default the first 2-D numeric one.
    """

    content: bytes
    filename: str
    columns: Sequence[str | int] | None = None
    array: str | None = None


@dataclasses.dataclass(frozen=True)
class _Contents:
    """An :class:`UploadTable` with the cells it describes.

    Attributes
    ----------
    table : UploadTable
    cells : tuple
        Per column, a float64 array of shape (n_rows,) for a numeric column, else a
        :class:`_Labels` (codes of the stripped texts of its cells).
    line_numbers : ndarray of shape (n_rows,) or None
        Line of each data row in a text file (from 1); None for arrays, whose rows are named by index.
    """

    table: UploadTable
    cells: tuple
    line_numbers: np.ndarray = None


def upload_sha256(content: bytes) -> str:
    """Hex SHA-256 digest of an upload's bytes: the file's part of the cache key.

    Examples
    --------
    >>> upload_sha256(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(_check_content(content)).hexdigest()


# --- small helpers ------------------------------------------------------------------------------

def _count(number, noun):
    """``"1 row"``, ``"3 rows"``: a count with its noun, for messages."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _check_values(n_rows, n_columns, limits):
    """Refuse a table of more than ``limits.max_values`` values (:data:`TOO_MANY_VALUES`), before it is stored."""
    if n_rows * n_columns > limits.max_values:
        raise DatasetError(TOO_MANY_VALUES.format(rows=_count(n_rows, "row"), width=_count(n_columns, "column"),
                                                  total=n_rows * n_columns, limit=limits.max_values))


def _megabytes(size, digits):
    """A byte count in MB: ``digits=".1f"`` for a size, ``".3g"`` for a limit."""
    return format(size / _MEGABYTE, digits)


def _check_content(content):
    """The upload as bytes; raise :class:`DatasetError` if it is not bytes-like."""
    if isinstance(content, (bytes, bytearray, memoryview)):
        return bytes(content)
    raise DatasetError(f"The upload content must be the file's bytes; got {type(content).__name__} "
                       "(decode a base64 upload first).")


def _column_label(table, index):
    """``column 3`` or ``column 3 ("height")``: how messages name a column."""
    label = f"column {index + 1}"
    return label if table.columns[index] == label else f'{label} ("{table.columns[index]}")'


def _where(contents, row):
    """``"line 12"`` for a text file, ``"row index 11"`` for an array: where a data row is."""
    if contents.line_numbers is None:
        return f"row index {row}"
    return f"line {contents.line_numbers[row]}"


def _number(cell):
    """``float`` of the stripped cell, or None when it is not a number (digit-group underscores refused).

    The cell is stripped first because ``str.strip`` removes more kinds of whitespace than ``float`` does.
    """
    if "_" in cell:
        return None
    try:
        return float(cell.strip())
    except ValueError:
        return None


def _column_numbers(cells, underscores):
    """The float64 values of a column chunk's cells, or None when a cell is not a number by :func:`_number`.

    Parameters
    ----------
    cells : sequence of str
        The cells as split (whitespace before a separator kept: ``float`` ignores it).
    underscores : bool
        Whether the file holds an underscore anywhere; when it does not, no cell can be a
        digit-grouped number that ``float`` would accept and :func:`_number` refuse.
    """
    # Fast path: a numeric column converts in one pass; only a failure needs the per-cell scan.
    if not underscores or "_" not in "".join(cells):
        try:
            return np.fromiter(map(float, cells), dtype=np.float64, count=len(cells))
        except ValueError:
            pass
    numbers = [_number(cell) for cell in cells]
    if any(number is None for number in numbers):
        return None
    return np.array(numbers, dtype=np.float64)


@dataclasses.dataclass(frozen=True)
class _Labels:
    """The cells of a column that is not all numbers, stored once per distinct text.

    Attributes
    ----------
    codes : ndarray of shape (n_rows,), int
        Per row, the index of its cell's stripped text in ``labels``.
    labels : tuple of str
        The distinct stripped texts, in order of first appearance (so the codes are the colour
        categories :func:`parse_upload` gives a label column).
    """

    codes: np.ndarray
    labels: tuple

    @property
    def kind(self):
        """``"text"`` when no cell is a number, else ``"mixed"``."""
        return "mixed" if any(_number(label) is not None for label in self.labels) else "text"


class _LabelEncoder:
    """Codes of a text column's cells, chunk after chunk, in order of first appearance."""

    def __init__(self):
        self.lookup = {}
        self.chunks = []

    def add(self, cells):
        lookup = self.lookup
        self.chunks.append(np.fromiter((lookup.setdefault(cell.strip(), len(lookup)) for cell in cells),
                                       dtype=np.intp, count=len(cells)))

    def labels(self):
        return _Labels(np.concatenate(self.chunks), tuple(self.lookup))


# --- text ---------------------------------------------------------------------------------------

def _count_line_breaks(content):
    """Number of line ends (CRLF, CR or LF) in ``content`` (bytes or str), counted without splitting it."""
    newline, carriage = ("\n", "\r") if isinstance(content, str) else (b"\n", b"\r")
    return content.count(newline) + content.count(carriage) - content.count(carriage + newline)


def _decode(content):
    """The text of an upload, or :class:`DatasetError` saying it is binary or not UTF-8."""
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise DatasetError(NOT_UTF8.format(detail="it is UTF-16 text"))
    control = len(content) - len(content.translate(None, _CONTROL_BYTES))
    # A stray control character in a text table is reported as a bad cell later; many of them, or
    # any NUL (which no text encoding we could read contains), mean a binary file.
    if b"\x00" in content or control > 0.05 * len(content):
        raise DatasetError(BINARY_FILE)
    content = content.removeprefix(codecs.BOM_UTF8)
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        # Latin-1 or cp1252 text has mostly ASCII bytes; random bytes are half non-ASCII.
        non_ascii = len(content) - len(content.translate(None, bytes(range(128, 256))))
        if non_ascii > 0.3 * len(content):
            raise DatasetError(BINARY_FILE) from error
        line = _count_line_breaks(content[:error.start]) + 1
        detail = f"byte 0x{content[error.start]:02X} on line {line} is not valid UTF-8"
        raise DatasetError(NOT_UTF8.format(detail=detail)) from error


def _detect_separator(lines):
    """The first of tab, semicolon, comma found on more than half of ``lines``; else ``"whitespace"``."""
    for separator in _SEPARATORS:
        if 2 * sum(separator in line for line in lines) > len(lines):
            return separator
    return "whitespace"


def _unquote(token):
    """A whitespace-separated token without the double quotes around it (R's ``write.table``)."""
    return token[1:-1] if len(token) >= 2 and token[0] == token[-1] == '"' else token


def _split_lines(lines, line_numbers, separator):
    """Each line's cells; :class:`DatasetError` on a quote that runs past its line.

    Cells keep the whitespace before a separator (``float`` ignores it; it is stripped from names
    and labels when a column turns out not to be numeric), so that numbers are not copied twice.
    """
    if separator == "whitespace":
        return [[_unquote(token) for token in line.split()] if '"' in line else line.split() for line in lines]
    reader = csv.reader(lines, delimiter=separator, skipinitialspace=True)
    rows = []
    try:
        for row in reader:
            # The reader joins the next line to a field whose quote is still open.
            if reader.line_num != len(rows) + 1:
                raise DatasetError(UNCLOSED_QUOTE.format(line=line_numbers[len(rows)]))
            rows.append(row)
    except csv.Error as error:
        raise DatasetError(UNREADABLE_LINE.format(line=line_numbers[len(rows)], reason=error)) from error
    if len(rows) != len(lines):
        raise DatasetError(UNCLOSED_QUOTE.format(line=line_numbers[len(rows)]))
    return rows


def _has_header(first, second):
    """Whether ``first`` names columns: a cell of it is not a number above one that is.

    With a single row (``second`` None), any cell that is not a number makes it a header.
    """
    if second is None:
        return any(_number(cell) is None for cell in first)
    return any(_number(cell) is None and _number(below) is not None for cell, below in zip(first, second))


def _content_segments(text):
    """``(line numbers, lines)`` of the lines of ``text`` that hold data, a segment of the text at a time.

    Lines end with LF (the reader turns CRLF and CR into LF first) and are numbered from 1; blank
    lines and lines whose first non-blank character is ``#`` hold no data. The text is split a
    segment of about ``_SEGMENT_CHARACTERS`` at a time: a list of all the lines of a file of short
    lines would take tens of bytes per line (1.5 GB for 50 MB of ``"1\\n"``), and the reader
    passes over the lines more than once instead of keeping them. A segment without a blank or
    comment line (most) is taken whole, without a test per line.
    """
    position, number = 0, 1
    while position < len(text):
        end = text.find("\n", position + _SEGMENT_CHARACTERS)
        if end < 0:  # the last segment, without the empty line after a final line break
            end = len(text) - 1 if text.endswith("\n") else len(text)
        segment = text[position:end]
        lines = segment.split("\n")
        if _NO_DATA_LINE.search(segment) is None:
            yield range(number, number + len(lines)), lines
        else:
            kept = [offset for offset, line in enumerate(lines)
                    if line and not line.isspace() and not line.lstrip().startswith("#")]
            yield [number + offset for offset in kept], [lines[offset] for offset in kept]
        number += len(lines)
        position = end + 1


def _line_chunks(text, skip, rows):
    """``(line numbers, lines)`` of the data lines of ``text`` after the first ``skip``, ``rows`` at a time."""
    numbers, lines = [], []
    for segment_numbers, segment_lines in _content_segments(text):
        numbers.extend(segment_numbers)
        lines.extend(segment_lines)
        if skip:
            dropped = min(skip, len(lines))
            del numbers[:dropped], lines[:dropped]
            skip -= dropped
        while len(lines) >= rows:
            yield numbers[:rows], lines[:rows]
            del numbers[:rows], lines[:rows]
    if lines:
        yield numbers, lines


def _is_too_wide(line, separator, limit):
    """Whether ``line`` holds more than ``limit`` values, found without splitting it into all of them.

    A separated line holds at most one value more than its separators (empty values included),
    so one shorter than ``limit`` characters cannot. A longer one is settled by counting its
    separators when it has no double quote, else by walking at most ``limit + 1`` values as the
    csv reader splits them; whitespace-separated text has at most ``limit + 1`` tokens split off.
    """
    if len(line) < limit:
        return False
    if separator == "whitespace":
        return len(line.split(None, limit)) > limit
    if line.count(separator) < limit:
        return False
    if '"' not in line:
        return True
    field = _CSV_FIELDS[separator]
    position, values = 0, 0
    while values <= limit:
        position = field.match(line, position).end()
        values += 1
        if position >= len(line):
            break
        position += 1  # the separator the field stopped at
    return values > limit


def _check_line_widths(lines, numbers, separator, limit):
    """Refuse, before splitting them, lines with more than ``limit`` values (:data:`TOO_MANY_COLUMNS`)."""
    if max(map(len, lines), default=0) < limit:  # the common case, decided in C
        return
    for line, number in zip(lines, numbers):
        if _is_too_wide(line, separator, limit):
            raise DatasetError(TOO_MANY_COLUMNS.format(place=f"on line {number}", limit=limit))


def _ragged_row(rows, numbers, width, has_header, first_line):
    """The :data:`RAGGED` or :data:`RAGGED_HEADER` error of the first row of ``rows`` not ``width`` long."""
    position = next(position for position, row in enumerate(rows) if len(row) != width)
    values = _count(len(rows[position]), "value")
    if has_header:
        return DatasetError(RAGGED_HEADER.format(line=numbers[position], values=values,
                                                 header_columns=_count(width, "column")))
    return DatasetError(RAGGED.format(line=numbers[position], values=values, first_line=first_line, expected=width))


def _read_text(content, filename, sha256, limits):
    """Read a text table: separator, header, one row per point, every row as long as the first.

    Every limit is checked before the memory it bounds is taken: the rows are counted and the
    first line's columns checked before any cell is split, their product before the values are
    stored. The lines are then split and converted a chunk of rows at a time into one float64
    array of (columns, rows), so that neither the strings of all lines nor those of all cells
    ever exist at once; a column that turns out not to be numbers is kept as codes of its
    distinct texts (:class:`_Labels`). Memory: the text, 8 bytes per value and per row (its line
    number), and one chunk.
    """
    text = _decode(content)
    if not text or text.isspace():
        raise DatasetError(EMPTY_FILE)
    if "\r" in text:
        text = _CARRIAGE_RETURN.sub("\n", text)  # one copy of the text, where two replaces made two
    first_numbers, first_lines = next(_line_chunks(text, 0, _SEPARATOR_SAMPLE_LINES), ([], []))
    if not first_lines:
        raise DatasetError(NO_DATA_ROWS)
    separator = _detect_separator(first_lines)
    _check_line_widths(first_lines[:2], first_numbers, separator, limits.max_columns)
    first_rows = _split_lines(first_lines[:2], first_numbers, separator)
    width = len(first_rows[0])
    has_header = _has_header(first_rows[0], first_rows[1] if len(first_rows) > 1 else None)
    n_rows = sum(len(lines) for _, lines in _content_segments(text)) - has_header
    if n_rows == 0:
        raise DatasetError(NO_DATA_ROWS)
    if n_rows > limits.max_rows:
        raise DatasetError(TOO_MANY_ROWS.format(rows=_count(n_rows, "row"), limit=limits.max_rows))
    _check_values(n_rows, width, limits)
    header = first_rows[0] if has_header else [""] * width
    names = tuple(name.strip() or f"column {index + 1}" for index, name in enumerate(header))
    cells, line_numbers = _parse_cells(text, has_header, n_rows, separator, width, first_numbers[0], limits)
    kinds = tuple("numeric" if isinstance(column, np.ndarray) else column.kind for column in cells)
    table = UploadTable(filename=filename, format="text", columns=names, kinds=kinds, n_rows=n_rows,
                        sha256=sha256, has_header=has_header, separator=separator)
    return _Contents(table, cells, line_numbers)


def _parse_cells(text, has_header, n_rows, separator, width, first_line, limits):
    """The columns of the data lines of ``text``, and the line number of each data row.

    Returns
    -------
    cells : tuple
        Per column, a float64 array of shape (n_rows,), or :class:`_Labels` for a column not all numbers.
    line_numbers : ndarray of shape (n_rows,), int

    Notes
    -----
    Chunks of about ``_CHUNK_CELLS`` cells (at least ``_CHUNK_MIN_ROWS`` rows) are split and
    converted in turn. A column whose first non-number is in a later chunk than the first (a typo
    deep in the file) has lost the text of its earlier cells; those columns alone are encoded again,
    in a second pass over the lines.
    """
    values = np.empty((width, n_rows))  # row j: column j, contiguous
    line_numbers = np.empty(n_rows, dtype=np.int64)
    encoders = {}  # column -> _LabelEncoder, for the columns seen not to be numbers in the first chunk
    late = set()  # columns first seen not to be numbers in a later chunk
    step = max(_CHUNK_MIN_ROWS, _CHUNK_CELLS // width)
    has_underscores = "_" in text
    start = 0
    for numbers, lines in _line_chunks(text, has_header, step):
        chunk = slice(start, start + len(lines))
        line_numbers[chunk] = numbers
        rows = _split_chunk(lines, numbers, separator, width, has_header, first_line, limits)
        # float accepts digit-group underscores and _number does not: only chunks without one take
        # the fast paths (one test of the whole text first, as most files hold none).
        underscores = has_underscores and any("_" in line for line in lines)
        start = chunk.stop
        if not encoders and not late and not underscores:
            try:  # the whole chunk in one conversion, when every cell is a number
                flat = np.fromiter(map(float, itertools.chain.from_iterable(rows)), dtype=np.float64,
                                   count=len(rows) * width)
                values[:, chunk] = flat.reshape(len(rows), width).T
                continue
            except ValueError:
                pass
        for column, column_cells in enumerate(zip(*rows)):
            if column in encoders:
                encoders[column].add(column_cells)
            elif column not in late:
                numbers_of_column = _column_numbers(column_cells, underscores)
                if numbers_of_column is not None:
                    values[column, chunk] = numbers_of_column
                elif chunk.start == 0:
                    encoders[column] = _LabelEncoder()
                    encoders[column].add(column_cells)
                else:
                    late.add(column)
    if late:
        late_encoders = {column: _LabelEncoder() for column in sorted(late)}
        for numbers, lines in _line_chunks(text, has_header, step):
            rows = _split_lines(lines, numbers, separator)
            for column, encoder in late_encoders.items():
                encoder.add([row[column] for row in rows])
        encoders.update(late_encoders)
    cells = tuple(encoders[column].labels() if column in encoders else values[column] for column in range(width))
    return cells, line_numbers


def _split_chunk(lines, numbers, separator, width, has_header, first_line, limits):
    """The cells of a chunk of data lines, each checked to hold ``width`` values."""
    _check_line_widths(lines, numbers, separator, limits.max_columns)
    rows = _split_lines(lines, numbers, separator)
    if any(len(row) != width for row in rows):
        raise _ragged_row(rows, numbers, width, has_header, first_line)
    return rows


# --- NumPy arrays ---------------------------------------------------------------------------------

def _array_header(stream):
    """``(shape, dtype, data_offset)`` from the header of the .npy data ``stream`` starts with.

    Only the header is read (numpy parses it with ``ast.literal_eval``), so the shape and type can
    be checked before any data is: an object array is refused unread, and a shape larger than
    the bytes present is caught before numpy allocates for it. The header's text is checked first
    to be no longer than numpy's own bound and nested at most ``_NPY_HEADER_DEPTH`` deep (numpy's
    plain arrays nest 2 deep), so that no header reaches the parser's recursion.

    Raises
    ------
    ValueError
        If the stream does not start with a valid .npy header.
    """
    version = np.lib.format.read_magic(stream)
    # Format 3.0 differs from 2.0 only in encoding field names as UTF-8; structured arrays are
    # refused anyway, so the 2.0 reader serves both (read_array rejects unknown versions later).
    read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    start = stream.tell()
    length_format = "<H" if version == (1, 0) else "<I"
    length_bytes = stream.read(struct.calcsize(length_format))
    if len(length_bytes) != struct.calcsize(length_format):
        raise ValueError("the .npy header is truncated")
    (length,) = struct.unpack(length_format, length_bytes)
    if length > _NPY_HEADER_BYTES:
        raise ValueError(f"the .npy header takes {length} bytes, more than {_NPY_HEADER_BYTES}")
    if _nesting_depth(stream.read(length)) > _NPY_HEADER_DEPTH:
        raise ValueError(f"the .npy header is nested more than {_NPY_HEADER_DEPTH} deep")
    stream.seek(start)
    try:
        shape, _, dtype = read_header(stream)
    except _HEADER_PARSE_ERRORS as error:
        raise ValueError(f"cannot parse the .npy header: {error}") from error
    return shape, dtype, stream.tell()


def _nesting_depth(text):
    """How deep brackets nest in ``text`` (bytes), quoted strings left out: ``b"{'a': (1, [2])}"`` -> 3."""
    depth = deepest = 0
    quote = None
    for character in text.decode("latin-1"):
        if quote is not None:
            if character == quote:
                quote = None
        elif character in "'\"":
            quote = character
        elif character in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in ")]}":
            depth -= 1
    return deepest


def _describe_arrays(headers):
    """``'X' with shape (100, 3) and type float64, ...``: the arrays of an .npz, for messages."""
    return ", ".join(f"'{name}' with shape {shape} and type {dtype}" for name, (shape, dtype, _) in headers.items())


def _is_numeric_2d(shape, dtype):
    """Whether an array of this header can hold points: 2-D, integers or real floats."""
    return len(shape) == 2 and dtype.kind in "iuf"


def _check_array_header(shape, dtype, name, limits):
    """Refuse an array by its header: objects, non-numbers, not 2-D or empty, too many rows, columns or values."""
    if dtype.hasobject:
        raise DatasetError(OBJECT_ARRAY.format(name=name))
    if dtype.kind not in "iuf":
        raise DatasetError(NON_NUMERIC_ARRAY.format(name=name, dtype=dtype))
    if len(shape) != 2 or 0 in shape:
        raise DatasetError(NOT_2D.format(name=name, shape=shape))
    if shape[0] > limits.max_rows:
        raise DatasetError(TOO_MANY_ROWS.format(rows=_count(shape[0], "row"), limit=limits.max_rows))
    if shape[1] > limits.max_columns:
        raise DatasetError(TOO_MANY_COLUMNS.format(place=f"array{name} of shape {shape}", limit=limits.max_columns))
    _check_values(shape[0], shape[1], limits)


def _load_array(open_stream, size, name, limits, invalid_message):
    """Check the header of the .npy data ``open_stream()`` gives, then load it without pickle.

    Parameters
    ----------
    open_stream : callable
        Returns a new binary stream at the start of the .npy data each time it is called.
    size : int
        Number of bytes the stream holds.
    name : str
        How messages name the array (``""`` or ``" 'X'"``).
    limits : UploadLimits
    invalid_message : str
        Message for a damaged file (:data:`NPY_INVALID` or :data:`NPZ_INVALID`).

    Returns
    -------
    ndarray of shape (n_rows, n_columns), float64
    """
    try:
        with open_stream() as stream:
            shape, dtype, offset = _array_header(stream)
        _check_array_header(shape, dtype, name, limits)
        if math.prod(shape) * dtype.itemsize > size - offset:
            raise DatasetError(invalid_message)
        with open_stream() as stream:
            array = np.load(stream, allow_pickle=False)
    except DatasetError:
        raise  # a ValueError too, but already the message to show
    except _ARCHIVE_ERRORS as error:
        raise DatasetError(invalid_message) from error
    return np.asarray(array, dtype=np.float64)


def _array_contents(points, filename, sha256, file_format, arrays=(), array=None):
    """The :class:`_Contents` of a loaded 2-D float64 array."""
    names = tuple(f"column {index + 1}" for index in range(points.shape[1]))
    table = UploadTable(filename=filename, format=file_format, columns=names, kinds=("numeric",) * len(names),
                        n_rows=points.shape[0], sha256=sha256, arrays=arrays, array=array)
    return _Contents(table, tuple(points.T))


def _read_npy(content, filename, sha256, limits):
    """Read a .npy file: one 2-D numeric array."""
    points = _load_array(lambda: io.BytesIO(content), len(content), "", limits, NPY_INVALID)
    return _array_contents(points, filename, sha256, "npy")


def _zip_entry_count(content, most):
    """How many entries a zip archive's central directory lists, counted up to ``most + 1``.

    ``zipfile`` makes an object of every entry when it opens an archive (and a 50 MB archive can
    list a million), so they are counted first, from the bytes: the end record gives the
    directory's size, the directory ends where the end record (or zip64's) starts, and each entry
    gives its own length. Returns 0 when there is no end record to start from (then ``zipfile``
    refuses the archive itself).
    """
    end = content.rfind(b"PK\x05\x06", max(0, len(content) - _ZIP_END_RECORD_BYTES - 0xFFFF))
    if end < 0 or len(content) < end + _ZIP_END_RECORD_BYTES:
        return 0
    (size,) = struct.unpack_from("<I", content, end + 12)
    directory_end = end
    locator = end - 20  # a zip64 archive keeps its real sizes in a record the locator points to
    if locator >= 0 and content.startswith(b"PK\x06\x07", locator):
        (record,) = struct.unpack_from("<Q", content, locator + 8)
        if record + 56 <= len(content) and content.startswith(b"PK\x06\x06", record):
            (size,) = struct.unpack_from("<Q", content, record + 40)
            directory_end = record
    position, count = directory_end - size, 0
    while count <= most and position >= 0 and content.startswith(b"PK\x01\x02", position) \
            and position + 46 <= len(content):
        name, extra, comment = struct.unpack_from("<HHH", content, position + 28)
        position += 46 + name + extra + comment
        count += 1
    return count


def _read_npz(content, filename, sha256, limits, array):
    """Read the array ``array`` of a .npz file, or its first 2-D numeric array when ``array`` is None."""
    if _zip_entry_count(content, _NPZ_MAX_MEMBERS) > _NPZ_MAX_MEMBERS:
        raise DatasetError(NPZ_TOO_MANY_ARRAYS.format(limit=_NPZ_MAX_MEMBERS))
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            if len(archive.infolist()) > _NPZ_MAX_MEMBERS:  # counted by zipfile's rules, should ours differ
                raise DatasetError(NPZ_TOO_MANY_ARRAYS.format(limit=_NPZ_MAX_MEMBERS))
            members = {info.filename[:-len(".npy")]: info for info in archive.infolist()
                       if info.filename.endswith(".npy")}
            if len(members) != sum(info.filename.endswith(".npy") for info in archive.infolist()):
                # Two members of one name: numpy would read one while we checked the other.
                raise DatasetError(NPZ_INVALID)
            if not members:
                raise DatasetError(NPZ_NO_ARRAYS)
            headers = {}
            for member_name, info in members.items():
                with archive.open(info) as stream:
                    headers[member_name] = _array_header(stream)
            if array is None:
                array = next((member_name for member_name, (shape, dtype, _) in headers.items()
                              if _is_numeric_2d(shape, dtype)), None)
                if array is None:
                    raise DatasetError(NPZ_NO_NUMERIC_2D.format(arrays=_describe_arrays(headers)))
            elif array not in members:
                raise DatasetError(NPZ_UNKNOWN_ARRAY.format(array=array, arrays=_describe_arrays(headers)))
            info = members[array]
            if info.file_size > limits.max_bytes:
                raise DatasetError(NPZ_TOO_LARGE.format(name=f" '{array}'", size_mb=_megabytes(info.file_size, ".1f"),
                                                        limit_mb=_megabytes(limits.max_bytes, ".3g")))
            points = _load_array(lambda: archive.open(info), info.file_size, f" '{array}'", limits, NPZ_INVALID)
    except DatasetError:
        raise  # a ValueError too, but already the message to show
    except _ARCHIVE_ERRORS as error:
        raise DatasetError(NPZ_INVALID) from error
    return _array_contents(points, filename, sha256, "npz", arrays=tuple(members), array=array)


# --- the shared reader ---------------------------------------------------------------------------

def _file_format(content, filename):
    """``"text"``, ``"npy"`` or ``"npz"``: by extension, else by the file's first bytes."""
    extension = os.path.splitext(filename)[1].lower()
    if extension in _SPREADSHEET_EXTENSIONS:
        raise DatasetError(SPREADSHEET_FILE.format(extension=extension))
    if extension == ".json" or _JSON_START.match(content):
        raise DatasetError(JSON_FILE)
    if extension in _TEXT_EXTENSIONS:
        return "text"
    if extension in (".npy", ".npz"):
        return extension[1:]
    if content.startswith(_NPY_MAGIC):
        return "npy"
    if content.startswith(_ZIP_MAGICS):
        return "npz"
    return "text"


def _read(content, filename, limits, array):
    """The one reader behind :func:`inspect_upload` and :func:`parse_upload` (arguments checked)."""
    if len(content) > limits.max_bytes:
        raise DatasetError(TOO_LARGE.format(size_mb=_megabytes(len(content), ".1f"),
                                            limit_mb=_megabytes(limits.max_bytes, ".3g")))
    if not content:
        raise DatasetError(EMPTY_FILE)
    file_format = _file_format(content, filename)
    if array is not None and file_format != "npz":
        raise DatasetError(f"The option array = '{array}' chooses an array of an .npz file, but this file is "
                           f"read as {file_format}: leave array unset.")
    sha256 = upload_sha256(content)
    if file_format == "npy":
        return _read_npy(content, filename, sha256, limits)
    if file_format == "npz":
        return _read_npz(content, filename, sha256, limits, array)
    return _read_text(content, filename, sha256, limits)


def _check_read_arguments(content, filename, limits, array):
    """Check the arguments :func:`_read` takes; return ``(content, limits)`` with defaults filled in."""
    content = _check_content(content)
    if not isinstance(filename, str):
        raise DatasetError(f"The file name must be a string; got {filename!r}.")
    if limits is None:
        limits = UploadLimits()
    elif not isinstance(limits, UploadLimits):
        raise DatasetError(f"limits must be an UploadLimits or None; got {limits!r}.")
    if array is not None and not isinstance(array, str):
        raise DatasetError(f"array must be the name of an .npz array (a string) or None; got {array!r}.")
    return content, limits


def inspect_upload(content: bytes, filename: str, *, array: str | None = None,
                   limits: UploadLimits | None = None) -> UploadTable:
    """Read an uploaded file and say what it holds, for the column pickers.

    Parameters
    ----------
    content : bytes
        The file's bytes.
    filename : str
        The name it was uploaded under; its extension picks the format.
    array : str, optional
        For an ``.npz`` file, the array to describe; default the first 2-D numeric one.
    limits : UploadLimits, optional
        Size bounds; default ``UploadLimits()``.

    Returns
    -------
    UploadTable

    Raises
    ------
    DatasetError
        On a file that cannot be read whatever columns are chosen: empty, too large, binary, not
        UTF-8, JSON, ragged rows, more rows, columns or values than ``limits`` allow, an object
        array, an .npz without a usable array or of too many arrays. The messages are this
        module's constants.

    Examples
    --------
    >>> table = inspect_upload(b"x,y,kind\\n0,1,a\\n1,0,b\\n", "points.csv")
    >>> table.columns, table.kinds, table.n_rows, table.separator
    (('x', 'y', 'kind'), ('numeric', 'numeric', 'text'), 2, ',')
    """
    content, limits = _check_read_arguments(content, filename, limits, array)
    return _read(content, filename, limits, array).table


def _check_output_rows(table, n_rows):
    """Refuse an output table whose row count is not the input's (:data:`OUTPUT_ROWS`)."""
    if table.n_rows != n_rows:
        raise DatasetError(OUTPUT_ROWS.format(output_rows=_count(table.n_rows, "row"),
                                              input_rows=_count(n_rows, "row")))


def inspect_output(content: bytes, filename: str, *, n_rows: int, array: str | None = None,
                   limits: UploadLimits | None = None) -> UploadTable:
    """Read a file meant to hold the output (an embedding) of an uploaded input, for the output pickers.

    :func:`inspect_upload`, then the checks that need no column choice: one row per input row,
    and at least two columns that hold numbers. :func:`parse_upload` with
    ``output=OutputFile(...)`` makes them again, with the rest.

    Parameters
    ----------
    content : bytes
        The output file's bytes.
    filename : str
        The name it was uploaded under.
    n_rows : int
        The input's data rows (:attr:`UploadTable.n_rows` of the input).
    array : str, optional
        For an ``.npz`` file, the array to describe.
    limits : UploadLimits, optional
        Default ``UploadLimits()``.

    Returns
    -------
    UploadTable

    Raises
    ------
    DatasetError
        On what :func:`inspect_upload` refuses, :data:`OUTPUT_ROWS` and :data:`OUTPUT_TOO_FEW_COLUMNS`.

    Examples
    --------
    >>> inspect_output(b"u,v\\n0,1\\n2,3\\n", "umap.csv", n_rows=2).number_columns
    (0, 1)
    >>> inspect_output(b"u,v\\n0,1\\n", "umap.csv", n_rows=2)
    Traceback (most recent call last):
    ...
    measures.errors.DatasetError: The output file has 1 row, but the input has 2 rows: ...
    """
    n_rows = check_integer(n_rows, "n_rows", 1, error=DatasetError, hint="Give the input table's n_rows.")
    table = inspect_upload(content, filename, array=array, limits=limits)
    _check_output_rows(table, n_rows)
    if len(table.number_columns) < 2:
        raise DatasetError(OUTPUT_TOO_FEW_COLUMNS.format(columns=_count(len(table.number_columns), "numeric column")))
    return table


# --- from a table to a Dataset -------------------------------------------------------------------

def _columns_by_name(table):
    """``{name: [indices]}`` of a table's columns, built once so that each name is found in constant time."""
    by_name = {}
    for index, name in enumerate(table.columns):
        by_name.setdefault(name, []).append(index)
    return by_name


def _column_index(table, by_name, key, option):
    """The 0-based index of the column ``key`` (a name or an index) names (``by_name``: :func:`_columns_by_name`)."""
    if is_integer(key):
        return check_integer(key, f"A column index in {option}", 0, len(table.columns) - 1, error=DatasetError,
                             hint=f"The file has {_count(len(table.columns), 'column')}, indexed from 0.")
    if isinstance(key, str):
        matches = by_name.get(key, [])
        if len(matches) == 1:
            return matches[0]
        if not matches:
            names = ", ".join(f"'{name}'" for name in table.columns[:_LISTED_COLUMNS])
            if len(table.columns) > _LISTED_COLUMNS:
                names += f", ... ({len(table.columns)} in all)"
            raise DatasetError(f"There is no column named '{key}' (in {option}); the columns are {names}.")
        raise DatasetError(f"{len(matches)} columns are named '{key}' (in {option}): choose them by index "
                           f"instead ({', '.join(map(str, matches))}).")
    raise DatasetError(f"{option} must hold column names or indices; got {key!r}.")


def _column_indices(table, by_name, keys, option):
    """The indices of a list of column names or indices, each listed once."""
    if not isinstance(keys, (list, tuple)):
        raise DatasetError(f"{option} must be a list of column names or indices; got {keys!r}.")
    indices, seen = [], set()
    for key in keys:
        index = _column_index(table, by_name, key, option)
        if index in seen:
            label = _column_label(table, index)
            raise DatasetError(f"{label[0].upper()}{label[1:]} is listed twice in {option}: list each column once.")
        seen.add(index)
        indices.append(index)
    return indices


def _numeric_columns(contents, indices, non_numeric=NON_NUMERIC, empty=EMPTY_CELL):
    """The float64 values of coordinate, truth or output columns, shape (n_rows, len(indices)).

    A message naming the first cell that is not a number otherwise (``non_numeric`` or ``empty``,
    with fields ``line``, ``column`` and ``text``).
    """
    for index in indices:
        cells = contents.cells[index]
        if isinstance(cells, np.ndarray):
            continue
        not_numbers = np.array([_number(label) is None for label in cells.labels])
        row = np.flatnonzero(not_numbers[cells.codes])[0]
        text = cells.labels[cells.codes[row]]
        line = contents.line_numbers[row]
        column = _column_label(contents.table, index)
        if not text:
            raise DatasetError(empty.format(line=line, column=column))
        if len(text) > _LONGEST_QUOTED_TEXT:
            text = text[:_LONGEST_QUOTED_TEXT] + "…"
        raise DatasetError(non_numeric.format(line=line, column=column, text=text))
    return np.column_stack([contents.cells[index] for index in indices])


def _check_embeddable(X, contents, coordinates):
    """Refuse a point set embedding algorithms cannot use: constant columns, duplicate points."""
    constant = np.flatnonzero((X == X[0]).all(axis=0))
    if constant.size:
        labels = ", ".join(_column_label(contents.table, coordinates[index]) for index in constant)
        raise DatasetError(CONSTANT_COLUMNS.format(columns=labels))
    # np.unique sorts by value, so -0.0 and 0.0 count as one coordinate, as they are one point.
    _, first, inverse = np.unique(X, axis=0, return_index=True, return_inverse=True)
    original = first[inverse]
    repeats = np.flatnonzero(original != np.arange(X.shape[0]))
    if repeats.size:
        raise DatasetError(DUPLICATE_POINTS.format(rows=_count(repeats.size, "row"),
                                                   where=_where(contents, repeats[0]),
                                                   original=_where(contents, original[repeats[0]])))


def _resolve_output(table, by_name, contents, output_columns, output, limits):
    """The output's contents, column indices, and how ``params`` records it, or Nones without an output."""
    if output_columns is not None and output is not None:
        raise DatasetError(OUTPUT_AND_COLUMNS)
    if output_columns is not None:
        indices = _column_indices(table, by_name, output_columns, "output_columns")
        return contents, indices, {"source": "columns"}
    if output is None:
        return None, None, None
    if not isinstance(output, OutputFile):
        raise DatasetError(f"output must be an OutputFile (the output file's content, filename, columns, array) "
                           f"or None; got {type(output).__name__}.")
    content, _ = _check_read_arguments(output.content, output.filename, limits, output.array)
    output_contents = _read(content, output.filename, limits, output.array)
    output_table = output_contents.table
    _check_output_rows(output_table, table.n_rows)
    if output.columns is None:
        indices = list(output_table.number_columns)
    else:
        indices = _column_indices(output_table, _columns_by_name(output_table), output.columns, "output.columns")
    record = {"source": "file", "filename": output.filename, "sha256": output_table.sha256,
              "format": output_table.format, "array": output_table.array}
    return output_contents, indices, record


def _check_output_columns(table, coordinates, output, output_in_input):
    """Refuse an output of fewer than 2 columns, wider than the input, or sharing columns with the coordinates."""
    if len(output) < 2:
        raise DatasetError(OUTPUT_TOO_FEW_COLUMNS.format(columns=_count(len(output), "column")))
    if output_in_input:
        shared = set(output).intersection(coordinates)
        if shared:
            raise DatasetError(OUTPUT_OVERLAP.format(column=_column_label(table, min(shared))))
    if len(output) > len(coordinates):
        raise DatasetError(OUTPUT_WIDER_THAN_INPUT.format(output_dim=len(output), input_dim=len(coordinates)))


def _check_output_spread(Y):
    """Refuse an output that is one repeated point, relative to its own scale (:data:`OUTPUT_COLLAPSED`)."""
    spread = float(np.max(np.ptp(Y, axis=0)))
    scale = float(np.max(np.abs(Y)))
    if spread <= _COLLAPSE_TOLERANCE * scale:
        raise DatasetError(OUTPUT_COLLAPSED.format(spread=spread, tolerance=_COLLAPSE_TOLERANCE, scale=scale))


def parse_upload(content: bytes, filename: str, *, columns: Sequence[str | int] | None = None,
                 color_column: str | int | None = None, truth_columns: Sequence[str | int] | None = None,
                 output_columns: Sequence[str | int] | None = None, output: OutputFile | None = None,
                 drop_nonfinite: bool = False, n_neighbors: int | None = None, array: str | None = None,
                 limits: UploadLimits | None = None) -> Dataset:
    """Read an uploaded file as a :class:`~datasets.registry.Dataset` of points to embed, or to judge an embedding of.

    Parameters
    ----------
    content : bytes
        The file's bytes.
    filename : str
        The name it was uploaded under; its extension picks the format (see the module notes).
    columns : list of str or int, optional
        The coordinate columns, by name or 0-based index; default every column not chosen as
        colour, truth or output whose kind (:attr:`UploadTable.kinds`) is not ``"text"`` (a
        ``"mixed"`` column is included, so a typo in a number is reported, never silently left out).
    color_column : str or int, optional
        A column to colour the points by: its numbers, or for text labels the codes 0..m-1 in
        order of first appearance (labels in ``params["color_categories"]``).
    truth_columns : list of str or int, optional
        1 to 3 numeric columns holding a ground-truth chart of the points.
    output_columns : list of str or int, optional
        Columns of the same file that hold an embedding of the points (the output Y, e.g. UMAP's
        two coordinates written beside the input's): at least 2, at most as many as the
        coordinates, none of them a coordinate.
    output : OutputFile, optional
        A second file that holds the embedding instead, one row per data row of this one, in
        the same order. Give ``output_columns`` or ``output``, not both.
    drop_nonfinite : bool, default=False
        Drop the rows with NaN or infinite values in the chosen columns of the input or of the
        output, from both, instead of refusing them; how many is recorded in ``params["dropped_rows"]``.
    n_neighbors : int, optional
        When given, require at least ``n_neighbors + 2`` points.
    array : str, optional
        For an ``.npz`` file, the array holding the points; default the first 2-D numeric one.
    limits : UploadLimits, optional
        Size bounds and the PCA suggestion threshold, for both files; default ``UploadLimits()``.

    Returns
    -------
    Dataset
        ``name`` ``"upload"``; ``X`` the coordinates (float64, read-only); ``truth`` the truth
        columns or None; ``Y`` the output (float64, read-only, row for row with X) or None;
        ``output_labels`` the output columns' names; ``color`` the colour column, else the first
        truth column, else the first coordinate; ``truth_labels`` the truth columns' names, else
        the colouring's name (as :func:`~datasets.registry.load` does for a set without truth);
        ``isometric`` and ``conformal`` False (unknown). ``params`` holds ``n``, ``dim``,
        ``filename``, ``sha256``, ``format``, the options as resolved (``columns``,
        ``color_column``, ``truth_columns`` as 0-based indices, ``array``, ``drop_nonfinite``,
        ``n_neighbors``), ``column_names`` of the coordinates, ``dropped_rows``,
        ``color_categories`` (None for a numeric colouring), ``warnings`` (the messages of the
        warnings given) and ``output``: None, or a dict of ``source`` (``"columns"`` or
        ``"file"``), ``columns`` (0-based indices in the file that holds it), ``column_names``,
        ``dim``, and for a file its ``filename``, ``sha256``, ``format`` and ``array``. Passing the
        options back (``output_columns=params["output"]["columns"]``, or an :class:`OutputFile`
        of the same file with ``columns`` and ``array`` from there) gives the same data.

    Raises
    ------
    DatasetError
        On every problem :func:`inspect_upload` reports (of either file), on a bad option, and
        on a non-numeric or empty cell in a chosen column, NaN or infinite values (unless
        dropped), fewer than ``n_neighbors + 2`` points, fewer than two coordinate columns,
        more coordinate columns than points, constant coordinate columns and duplicate points;
        for an output, on a row count other than the input's (:data:`OUTPUT_ROWS`), fewer than 2
        columns (:data:`OUTPUT_TOO_FEW_COLUMNS`), more columns than the input's coordinates
        (:data:`OUTPUT_WIDER_THAN_INPUT`), a column that is also a coordinate
        (:data:`OUTPUT_OVERLAP`), NaN or infinite values (:data:`OUTPUT_NONFINITE`) and an output
        that is one repeated point (:data:`OUTPUT_COLLAPSED`). The messages are this module's constants.

    Warns
    -----
    ProcrustesLabWarning
        With :data:`PCA_SUGGESTED` when there are more than ``limits.suggest_pca_above`` coordinate columns.

    Notes
    -----
    The input's checks come first, then the output's, each in the order column choice, cell
    values, finiteness, then the point set as a whole; a row dropped for NaN leaves both. Duplicate
    output points are allowed (an embedding may map two points to one place; the neighbourhoods
    are the input's, SPEC §0), but not an output that is one point: its spread along every column
    at most ``1e-12`` of its largest absolute value, whatever its scale or offset.

    Examples
    --------
    A header is detected, the label column is left out of the coordinates and colours the points:

    >>> data = parse_upload(b"x,y,kind\\n0,0,a\\n1,0,b\\n0,1,a\\n", "points.csv", color_column="kind")
    >>> data.X.tolist(), data.color.tolist(), data.truth_labels
    ([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [0.0, 1.0, 0.0], ('kind',))
    >>> data.params["columns"], data.params["color_categories"]
    ([0, 1], ['a', 'b'])

    An embedding beside its input, in the same file or in a second one:

    >>> table = b"x,y,z,u,v\\n0,0,1,0.1,0.2\\n1,0,2,0.9,0.1\\n0,1,3,0.2,0.8\\n"
    >>> data = parse_upload(table, "run.csv", output_columns=["u", "v"])
    >>> data.X.shape, data.Y.tolist()[0], data.output_labels, data.params["output"]["source"]
    ((3, 3), [0.1, 0.2], ('u', 'v'), 'columns')
    >>> second = OutputFile(b"0.1 0.2\\n0.9 0.1\\n0.2 0.8\\n", "umap.txt")
    >>> bool(np.array_equal(parse_upload(table, "run.csv", columns=[0, 1, 2], output=second).Y, data.Y))
    True
    """
    content, limits = _check_read_arguments(content, filename, limits, array)
    options = validate_parameters(_OPTION_PARAMETERS, {"drop_nonfinite": drop_nonfinite, "n_neighbors": n_neighbors},
                                  "parse_upload", DatasetError)
    contents = _read(content, filename, limits, array)
    table = contents.table

    by_name = _columns_by_name(table)
    truth = None
    if truth_columns is not None:
        truth = _column_indices(table, by_name, truth_columns, "truth_columns")
        if not 1 <= len(truth) <= 3:
            raise DatasetError(f"truth_columns must name 1 to 3 columns (a chart of dimension 1 to 3); "
                               f"got {len(truth)}.")
    color = None if color_column is None else _column_index(table, by_name, color_column, "color_column")
    output_contents, output_indices, output_record = _resolve_output(table, by_name, contents, output_columns,
                                                                     output, limits)
    output_in_input = output_contents is contents
    if columns is None:
        set_aside = {color, *(truth or ()), *(output_indices if output_in_input else ())}
        coordinates = [index for index in table.number_columns if index not in set_aside]
    else:
        coordinates = _column_indices(table, by_name, columns, "columns")
    if not coordinates:
        raise DatasetError(NO_COORDINATES)
    if len(coordinates) == 1:
        raise DatasetError(SINGLE_COORDINATE.format(column=_column_label(table, coordinates[0])))
    if output_contents is not None:
        _check_output_columns(table, coordinates, output_indices, output_in_input)

    X = _numeric_columns(contents, coordinates)
    truth_values = None if truth is None else _numeric_columns(contents, truth)
    Y = None
    if output_contents is not None:
        Y = (_numeric_columns(output_contents, output_indices) if output_in_input else
             _numeric_columns(output_contents, output_indices, OUTPUT_NON_NUMERIC, OUTPUT_EMPTY_CELL))
    categories = None
    if color is None:
        color_values = (X if truth_values is None else truth_values)[:, 0].copy()
    elif isinstance(contents.cells[color], np.ndarray):
        color_values = contents.cells[color].copy()
    else:
        color_values = contents.cells[color].codes.astype(np.float64)
        categories = list(contents.cells[color].labels)

    used = [X, color_values[:, None]] + ([] if truth_values is None else [truth_values])
    finite = np.all([np.isfinite(values).all(axis=1) for values in used], axis=0)
    finite_output = np.ones_like(finite) if Y is None else np.isfinite(Y).all(axis=1)
    keep = finite & finite_output
    dropped = int(keep.size - keep.sum())
    if dropped:
        if not options["drop_nonfinite"]:
            if not finite.all():
                raise DatasetError(NONFINITE.format(rows=_count(int(np.sum(~finite)), "row"),
                                                    where=_where(contents, np.flatnonzero(~finite)[0])))
            where = _where(output_contents, np.flatnonzero(~finite_output)[0])
            if not output_in_input:
                where += " of the output file"
            raise DatasetError(OUTPUT_NONFINITE.format(rows=_count(int(np.sum(~finite_output)), "row"), where=where))
        if dropped == keep.size:
            raise DatasetError(ALL_NONFINITE)
        X, color_values = X[keep], color_values[keep]
        truth_values = None if truth_values is None else truth_values[keep]
        Y = None if Y is None else Y[keep]
        line_numbers = None if contents.line_numbers is None else contents.line_numbers[keep]
        contents = dataclasses.replace(contents, line_numbers=line_numbers)
    n_points, dim = X.shape
    if dim > n_points:
        raise DatasetError(MORE_COLUMNS_THAN_ROWS.format(dim=dim, rows=_count(n_points, "row")))
    k = options["n_neighbors"]
    if k is not None and n_points < k + 2:
        raise DatasetError(TOO_FEW_POINTS.format(points=_count(n_points, "point"), n_neighbors=k, needed=k + 2))
    _check_embeddable(X, contents, coordinates)
    if Y is not None:
        _check_output_spread(Y)

    given_warnings = []
    if dim > limits.suggest_pca_above:
        given_warnings.append(PCA_SUGGESTED.format(dim=dim, limit=limits.suggest_pca_above))
        warnings.warn(given_warnings[-1], ProcrustesLabWarning, stacklevel=2)

    if truth is not None:
        truth_labels = tuple(table.columns[index] for index in truth)
    else:
        truth_labels = (table.columns[coordinates[0] if color is None else color],)
    output_labels = () if Y is None else tuple(output_contents.table.columns[index] for index in output_indices)
    description = f"Uploaded file '{filename}': {_count(n_points, 'point')} in {dim} dimensions"
    if Y is not None:
        source = "its columns" if output_in_input else f"'{output_record['filename']}'"
        description += f", with a {Y.shape[1]}-dimensional output from {source}"
    if dropped:
        description += f" ({_count(dropped, 'row')} with NaN or infinite values dropped)"
    if output_record is not None:
        output_record = {**output_record, "columns": output_indices, "column_names": list(output_labels),
                         "dim": len(output_indices)}
    return Dataset(
        X=np.ascontiguousarray(X),
        truth=None if truth_values is None else np.ascontiguousarray(truth_values),
        color=color_values,
        name="upload",
        description=description + ".",
        isometric=False,
        params={"n": n_points, "dim": dim, "filename": filename, "sha256": table.sha256, "format": table.format,
                "array": table.array, "columns": coordinates, "column_names": [table.columns[i] for i in coordinates],
                "color_column": color, "truth_columns": truth, "drop_nonfinite": options["drop_nonfinite"],
                "n_neighbors": k, "dropped_rows": dropped, "color_categories": categories,
                "warnings": given_warnings, "output": output_record},
        conformal=False,
        truth_labels=truth_labels,
        image_shape=None,
        Y=None if Y is None else np.ascontiguousarray(Y),
        output_labels=output_labels,
    )
