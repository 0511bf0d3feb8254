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
it is: the constants of :mod:`.messages`, importable from here (``datasets.upload.TOO_LARGE``),
where their fields are described.

The modules, each importing only those listed before it: :mod:`.messages` (the messages and how
their fields are written), :mod:`.limits` (:class:`UploadLimits` and :func:`parse_upload`'s
options), :mod:`.tables` (:class:`UploadTable`, :class:`OutputFile` and the cells of a read
file), :mod:`.description` (:class:`UploadDescription` and :class:`OutputDescription`: what a parse
read and chose), :mod:`.text` (decoding, separators, the bounded CSV reader), :mod:`.arrays` (``.npy``,
``.npz`` and zip safety), :mod:`.reader` (format detection, the one reader both entry points
share, :func:`upload_sha256`), :mod:`.columns` (column choice, the output's columns) and
:mod:`.points` (the chosen values and the checks that they can be embedded); this one holds the
entry points.
"""

import warnings
from collections.abc import Sequence

from measures.errors import DatasetError, ProcrustesLabWarning
from measures.parameters import check_integer, validate_parameters

from ..registry import Dataset
from .columns import _check_output_rows, _choose_columns
from .description import OutputDescription, UploadDescription
from .limits import _OPTION_PARAMETERS, UploadLimits
from .messages import (  # noqa: F401  the messages are this package's public constants, as they were upload.py's
    ALL_NONFINITE,
    BINARY_FILE,
    CONSTANT_COLUMNS,
    DUPLICATE_POINTS,
    EMPTY_CELL,
    EMPTY_FILE,
    JSON_FILE,
    MORE_COLUMNS_THAN_ROWS,
    NO_COORDINATES,
    NO_DATA_ROWS,
    NON_NUMERIC,
    NON_NUMERIC_ARRAY,
    NONFINITE,
    NOT_2D,
    NOT_UTF8,
    NPY_INVALID,
    NPZ_INVALID,
    NPZ_NO_ARRAYS,
    NPZ_NO_NUMERIC_2D,
    NPZ_TOO_LARGE,
    NPZ_TOO_MANY_ARRAYS,
    NPZ_UNKNOWN_ARRAY,
    OBJECT_ARRAY,
    OUTPUT_AND_COLUMNS,
    OUTPUT_COLLAPSED,
    OUTPUT_EMPTY_CELL,
    OUTPUT_NON_NUMERIC,
    OUTPUT_NONFINITE,
    OUTPUT_OVERLAP,
    OUTPUT_ROWS,
    OUTPUT_TOO_FEW_COLUMNS,
    OUTPUT_WIDER_THAN_INPUT,
    PCA_SUGGESTED,
    RAGGED,
    RAGGED_HEADER,
    SINGLE_COORDINATE,
    SPREADSHEET_FILE,
    TOO_FEW_POINTS,
    TOO_LARGE,
    TOO_MANY_COLUMNS,
    TOO_MANY_ROWS,
    TOO_MANY_VALUES,
    UNCLOSED_QUOTE,
    UNREADABLE_LINE,
    _count,
)
from .points import _check_points, _chosen_values, _dataset, _drop_nonfinite
from .reader import _check_read_arguments, _read, upload_sha256
from .tables import OutputFile, UploadTable

__all__ = ["OutputDescription", "OutputFile", "UploadDescription", "UploadLimits", "UploadTable", "inspect_output",
           "inspect_upload", "parse_upload", "upload_sha256"]


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
        package's constants (:mod:`.messages`).

    Examples
    --------
    >>> table = inspect_upload(b"x,y,kind\\n0,1,a\\n1,0,b\\n", "points.csv")
    >>> table.columns, table.kinds, table.n_rows, table.separator
    (('x', 'y', 'kind'), ('numeric', 'numeric', 'text'), 2, ',')
    """
    content, limits = _check_read_arguments(content, filename, limits, array)
    return _read(content, filename, limits, array).table


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


def parse_upload(content: bytes, filename: str, *, columns: Sequence[str | int] | None = None,
                 color_column: str | int | None = None, truth_columns: Sequence[str | int] | None = None,
                 output_columns: Sequence[str | int] | None = None, output: OutputFile | None = None,
                 drop_nonfinite: bool = False, n_neighbors: int | None = None, array: str | None = None,
                 limits: UploadLimits | None = None,
                 metadata_columns: Sequence[str | int] | None = None) -> Dataset:
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
        order of first appearance (labels in ``upload.color_categories``).
    truth_columns : list of str or int, optional
        1 to 3 numeric columns holding a ground-truth chart of the points.
    metadata_columns : list of str or int, optional
        Up to 16 columns carried with the points and not embedded (names, dates, classes...): a
        column of numbers as float64, any other as text (together at most 16 million characters,
        each text counted as its column's longest). They are the result's ``metadata``, by column name.
    output_columns : list of str or int, optional
        Columns of the same file that hold an embedding of the points (the output Y, e.g. UMAP's
        two coordinates written beside the input's): at least 2, at most as many as the
        coordinates, none of them a coordinate.
    output : OutputFile, optional
        A second file that holds the embedding instead, one row per data row of this one, in
        the same order. Give ``output_columns`` or ``output``, not both.
    drop_nonfinite : bool, default=False
        Drop the rows with NaN or infinite values in the chosen columns of the input or of the
        output, from both, instead of refusing them; how many is recorded in ``upload.dropped_rows``.
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
        ``isometric`` and ``conformal`` False (unknown); ``params`` empty (an upload has no
        declared parameters). ``upload`` is an :class:`UploadDescription` of what was read and
        chosen: the file (``filename``, ``sha256``, ``format``, ``array``), the options as
        resolved (``columns``, ``color_column``, ``truth_columns`` as 0-based indices,
        ``drop_nonfinite``, ``n_neighbors``), the coordinates' ``column_names``,
        ``color_categories``, ``dropped_rows``, ``n``, ``dim``, ``warnings`` and ``output`` (an
        :class:`OutputDescription`, or None). Passing ``upload.parser_options()`` back (with the
        output file's bytes, if the output came from one) gives the same data.

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
        that is one repeated point (:data:`OUTPUT_COLLAPSED`). The messages are this package's
        constants (:mod:`.messages`).

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
    >>> data.upload.columns, data.upload.color_categories
    ((0, 1), ('a', 'b'))

    An embedding beside its input, in the same file or in a second one:

    >>> table = b"x,y,z,u,v\\n0,0,1,0.1,0.2\\n1,0,2,0.9,0.1\\n0,1,3,0.2,0.8\\n"
    >>> data = parse_upload(table, "run.csv", output_columns=["u", "v"])
    >>> data.X.shape, data.Y.tolist()[0], data.output_labels, data.upload.output.source
    ((3, 3), [0.1, 0.2], ('u', 'v'), 'columns')
    >>> import numpy as np
    >>> second = OutputFile(b"0.1 0.2\\n0.9 0.1\\n0.2 0.8\\n", "umap.txt")
    >>> bool(np.array_equal(parse_upload(table, "run.csv", columns=[0, 1, 2], output=second).Y, data.Y))
    True
    """
    content, limits = _check_read_arguments(content, filename, limits, array)
    options = validate_parameters(_OPTION_PARAMETERS, {"drop_nonfinite": drop_nonfinite, "n_neighbors": n_neighbors},
                                  "parse_upload", DatasetError)
    contents = _read(content, filename, limits, array)
    choice = _choose_columns(contents, columns, color_column, truth_columns, output_columns, output, limits,
                             metadata_columns)
    points = _chosen_values(contents, choice)
    points, contents, dropped = _drop_nonfinite(points, contents, choice.output, options["drop_nonfinite"])
    _check_points(points, contents, choice.coordinates, options["n_neighbors"])
    given_warnings = []
    dim = points.X.shape[1]
    if dim > limits.suggest_pca_above:
        given_warnings.append(PCA_SUGGESTED.format(dim=dim, limit=limits.suggest_pca_above))
        # Warned here, not in a helper, so that stacklevel=2 names the caller of parse_upload.
        warnings.warn(given_warnings[-1], ProcrustesLabWarning, stacklevel=2)
    return _dataset(contents.table, choice, points, dropped, options, given_warnings)
