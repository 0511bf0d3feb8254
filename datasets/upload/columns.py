"""Column choice: the columns :func:`~datasets.upload.parse_upload`'s options name, resolved and checked.

Columns are named by header name or 0-based index; :func:`_choose_columns` resolves the ground
truth, the colour, the output (columns of the input, or of a second file read here) and the
coordinates, in that order, and checks the output's columns against the coordinates. The values
in those columns are :mod:`.points`'s business.
"""

import dataclasses

from measures.errors import DatasetError
from measures.parameters import check_integer, is_integer

from .messages import (
    NO_COORDINATES,
    OUTPUT_AND_COLUMNS,
    OUTPUT_OVERLAP,
    OUTPUT_ROWS,
    OUTPUT_TOO_FEW_COLUMNS,
    OUTPUT_WIDER_THAN_INPUT,
    SINGLE_COORDINATE,
    _count,
)
from .reader import _check_read_arguments, _read
from .tables import OutputFile, _Contents, _column_label

# How many column names a message lists.
_LISTED_COLUMNS = 20
# Most metadata columns an upload carries: each is kept with every run of it, and searched by find.
MAX_METADATA_COLUMNS = 16


@dataclasses.dataclass(frozen=True)
class _Output:
    """Where the output (the embedding to judge) is, once its columns are resolved.

    Attributes
    ----------
    contents : _Contents
        The input's own contents when the output is columns of the input file, else the output file's.
    columns : list of int
        0-based indices of the output's columns in ``contents``.
    in_input : bool
        Whether the output is columns of the input file.
    """

    contents: _Contents
    columns: list
    in_input: bool


@dataclasses.dataclass(frozen=True)
class _Choice:
    """The columns :func:`~datasets.upload.parse_upload` takes, as 0-based indices of the input.

    Attributes
    ----------
    coordinates : list of int
        At least two.
    color : int or None
        The colour column, if one was chosen.
    truth : list of int or None
        1 to 3 ground-truth columns, if chosen.
    output : _Output or None
        The output, if one was given.
    metadata : list of int
        Columns carried with the points (text or numbers), not embedded; empty when none were chosen.
    """

    coordinates: list
    color: int | None
    truth: list | None
    output: _Output | None
    metadata: list = dataclasses.field(default_factory=list)


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


def _check_output_rows(table, n_rows):
    """Refuse an output table whose row count is not the input's (:data:`OUTPUT_ROWS`)."""
    if table.n_rows != n_rows:
        raise DatasetError(OUTPUT_ROWS.format(output_rows=_count(table.n_rows, "row"),
                                              input_rows=_count(n_rows, "row")))


def _choose_columns(contents, columns, color_column, truth_columns, output_columns, output, limits,
                    metadata_columns=None):
    """The columns that :func:`~datasets.upload.parse_upload`'s options (same names) choose in the input ``contents``.

    They are resolved in the order truth, colour, output, metadata, coordinates (the default
    coordinates leave out the others), which also decides the message a request with several
    problems gets; then the output's columns are checked against the coordinates.

    Returns
    -------
    _Choice
    """
    table = contents.table
    by_name = _columns_by_name(table)
    truth = None if truth_columns is None else _truth_indices(table, by_name, truth_columns)
    color = None if color_column is None else _column_index(table, by_name, color_column, "color_column")
    chosen_output = _resolve_output(table, by_name, contents, output_columns, output, limits)
    output_in_input = chosen_output is not None and chosen_output.in_input
    metadata = [] if metadata_columns is None else _metadata_indices(table, by_name, metadata_columns)
    set_aside = {color, *(truth or ()), *(chosen_output.columns if output_in_input else ()), *metadata}
    coordinates = _coordinate_indices(table, by_name, columns, set_aside)
    if chosen_output is not None:
        _check_output_columns(table, coordinates, chosen_output.columns, chosen_output.in_input)
    return _Choice(coordinates, color, truth, chosen_output, metadata)


def _metadata_indices(table, by_name, metadata_columns):
    """The indices of the metadata columns: at most :data:`MAX_METADATA_COLUMNS`, each once."""
    if isinstance(metadata_columns, (list, tuple)) and len(metadata_columns) > MAX_METADATA_COLUMNS:
        raise DatasetError(f"metadata_columns names at most {MAX_METADATA_COLUMNS} columns; "
                           f"got {len(metadata_columns)}.")
    return _column_indices(table, by_name, metadata_columns, "metadata_columns")


def _truth_indices(table, by_name, truth_columns):
    """The indices of the ground-truth columns: 1 to 3 of them, a chart of dimension 1 to 3."""
    truth = _column_indices(table, by_name, truth_columns, "truth_columns")
    if not 1 <= len(truth) <= 3:
        raise DatasetError(f"truth_columns must name 1 to 3 columns (a chart of dimension 1 to 3); "
                           f"got {len(truth)}.")
    return truth


def _coordinate_indices(table, by_name, columns, set_aside):
    """The coordinate columns ``columns`` names, by default every number column not in ``set_aside``; at least two."""
    if columns is None:
        coordinates = [index for index in table.number_columns if index not in set_aside]
    else:
        coordinates = _column_indices(table, by_name, columns, "columns")
    if not coordinates:
        raise DatasetError(NO_COORDINATES)
    if len(coordinates) == 1:
        raise DatasetError(SINGLE_COORDINATE.format(column=_column_label(table, coordinates[0])))
    return coordinates


def _resolve_output(table, by_name, contents, output_columns, output, limits):
    """The :class:`_Output` that ``output_columns`` (of the input) or ``output`` (a second file) gives, or None."""
    if output_columns is not None and output is not None:
        raise DatasetError(OUTPUT_AND_COLUMNS)
    if output_columns is not None:
        indices = _column_indices(table, by_name, output_columns, "output_columns")
        return _Output(contents, indices, in_input=True)
    if output is None:
        return None
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
    return _Output(output_contents, indices, in_input=False)


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
