"""What a read file holds: its description (:class:`UploadTable`), its cells, and a second file given for the output.

:class:`UploadTable` is what :func:`~datasets.upload.inspect_upload` returns; the readers of
:mod:`.text` and :mod:`.arrays` return it with the cells it describes (:class:`_Contents`), from
which :mod:`.columns` and :mod:`.points` take the chosen columns. Also here: how a cell is read as
a number (:func:`_number`) and how messages name a column or a row.
"""

import dataclasses
from collections.abc import Sequence

import numpy as np


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
