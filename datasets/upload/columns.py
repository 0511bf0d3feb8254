"""Column choice: the columns :func:`~datasets.upload.parse_upload`'s options name, resolved and checked.

Columns are named by header name or 0-based index. The output is columns of the input or of a
second file, read here; its columns are checked against the coordinates. The values in the
chosen columns are :mod:`.points`'s business.
"""

from measures.errors import DatasetError
from measures.parameters import check_integer, is_integer

from .messages import (
    OUTPUT_AND_COLUMNS,
    OUTPUT_OVERLAP,
    OUTPUT_ROWS,
    OUTPUT_TOO_FEW_COLUMNS,
    OUTPUT_WIDER_THAN_INPUT,
    _count,
)
from .reader import _check_read_arguments, _read
from .tables import OutputFile, _column_label

# How many column names a message lists.
_LISTED_COLUMNS = 20


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
