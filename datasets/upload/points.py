"""From the chosen columns to a :class:`~datasets.registry.Dataset`: their values and the checks on them.

A cell that is not a number is reported where it is (:data:`~.messages.NON_NUMERIC`); rows with
NaN or infinite values are refused or dropped; constant columns and duplicate points are refused,
as embedding algorithms break on them; an output may repeat points (an embedding may map two
points to one place) but not be one point.
"""

import dataclasses

import numpy as np

from measures.errors import DatasetError

from ..registry import Dataset
from .description import OutputDescription, UploadDescription
from .messages import (
    ALL_NONFINITE,
    CONSTANT_COLUMNS,
    DUPLICATE_POINTS,
    EMPTY_CELL,
    MORE_COLUMNS_THAN_ROWS,
    NON_NUMERIC,
    NONFINITE,
    OUTPUT_COLLAPSED,
    OUTPUT_EMPTY_CELL,
    OUTPUT_NON_NUMERIC,
    OUTPUT_NONFINITE,
    TOO_FEW_POINTS,
    _count,
)
from .tables import _column_label, _number, _where

# How much of a bad cell a message quotes.
_LONGEST_QUOTED_TEXT = 40
# An output whose largest column range is at most this fraction of its largest absolute value is
# one repeated point: float64 then holds fewer than ~10^4 distinct values across the spread, so
# the output's neighbourhoods are rounding noise (and an exactly collapsed run has range 0).
_COLLAPSE_TOLERANCE = 1e-12
# Most characters an upload's text metadata columns hold together as fixed-width arrays (each column: its rows
# times its longest text), 64 MB as numpy's 4-byte characters; a hover line joins them once more.
MAX_METADATA_CHARACTERS = 16 * 2**20


@dataclasses.dataclass(frozen=True)
class _Points:
    """The values of the chosen columns, row for row.

    Attributes
    ----------
    X : ndarray of shape (n_rows, n_coordinates)
        The coordinates.
    color : ndarray of shape (n_rows,)
        The colouring: the colour column's numbers or label codes, else the first truth column,
        else the first coordinate.
    color_categories : list of str or None
        The labels the codes of a text colour column stand for; None for a numeric colouring.
    truth : ndarray of shape (n_rows, n_truth) or None
        The ground-truth columns.
    Y : ndarray of shape (n_rows, n_output) or None
        The output.
    metadata : dict of str to ndarray of shape (n_rows,)
        The metadata columns by name: float64 for a numeric column, else text (``str``).
    """

    X: np.ndarray
    color: np.ndarray
    color_categories: list | None
    truth: np.ndarray | None
    Y: np.ndarray | None
    metadata: dict = dataclasses.field(default_factory=dict)

    def rows(self, keep):
        """These points at the rows the boolean mask ``keep`` keeps."""
        return dataclasses.replace(self, X=self.X[keep], color=self.color[keep],
                                   truth=None if self.truth is None else self.truth[keep],
                                   Y=None if self.Y is None else self.Y[keep],
                                   metadata={name: values[keep] for name, values in self.metadata.items()})


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


def _check_output_spread(Y):
    """Refuse an output that is one repeated point, relative to its own scale (:data:`OUTPUT_COLLAPSED`)."""
    spread = float(np.max(np.ptp(Y, axis=0)))
    scale = float(np.max(np.abs(Y)))
    if spread <= _COLLAPSE_TOLERANCE * scale:
        raise DatasetError(OUTPUT_COLLAPSED.format(spread=spread, tolerance=_COLLAPSE_TOLERANCE, scale=scale))


def _chosen_values(contents, choice):
    """The :class:`_Points` of the columns ``choice`` (a :class:`~.columns._Choice`) takes from ``contents``.

    The coordinates are read first, then the truth, then the output, so that the first cell that
    is not a number is reported in that order.
    """
    X = _numeric_columns(contents, choice.coordinates)
    truth = None if choice.truth is None else _numeric_columns(contents, choice.truth)
    Y = None
    output = choice.output
    if output is not None:
        Y = (_numeric_columns(output.contents, output.columns) if output.in_input else
             _numeric_columns(output.contents, output.columns, OUTPUT_NON_NUMERIC, OUTPUT_EMPTY_CELL))
    if choice.color is None:
        color, categories = (X if truth is None else truth)[:, 0].copy(), None
    elif isinstance(contents.cells[choice.color], np.ndarray):
        color, categories = contents.cells[choice.color].copy(), None
    else:
        labels = contents.cells[choice.color]
        color, categories = labels.codes.astype(np.float64), list(labels.labels)
    metadata, characters = {}, 0
    for index in choice.metadata:
        values = _metadata_values(contents, index)
        # Counted before the column is laid out in memory: a text column takes rows x its longest text.
        characters += values.size * (values.itemsize // 4 if values.dtype.kind == "U" else 0)
        if characters > MAX_METADATA_CHARACTERS:
            raise DatasetError(f"The metadata columns hold more than {MAX_METADATA_CHARACTERS:,} characters, each "
                               f"text counted as its column's longest (at {_column_label(contents.table, index)}): "
                               "shorten their texts or carry fewer columns.")
        metadata[contents.table.columns[index]] = values
    return _Points(X, color, categories, truth, Y, metadata)


def _metadata_values(contents, index):
    """A metadata column's values: its numbers (an empty cell NaN; no measure reads them), or its texts as a
    fixed-width ``str`` array, every text padded to the longest."""
    cells = contents.cells[index]
    if isinstance(cells, np.ndarray):
        return cells.astype(np.float64, copy=True)
    numbers = [np.nan if not label else _number(label) for label in cells.labels]
    if None not in numbers:
        return np.asarray(numbers, dtype=np.float64)[cells.codes]
    longest = max(map(len, cells.labels), default=0)
    if longest * len(cells.codes) > MAX_METADATA_CHARACTERS:  # refused before the padded array is made
        raise DatasetError(f"The metadata {_column_label(contents.table, index)} holds texts of up to {longest} "
                           f"characters on {len(cells.codes):,} rows: more than the {MAX_METADATA_CHARACTERS:,} "
                           "characters the metadata columns may carry (each text counts as its column's longest). "
                           "Shorten its texts or leave it out.")
    return np.asarray(cells.labels, dtype=str)[cells.codes]


def _drop_nonfinite(points, contents, output, drop):
    """Refuse, or drop when ``drop`` is true, the rows with NaN or infinite values in the input or the output.

    Parameters
    ----------
    points : _Points
    contents : _Contents
        The input's, whose line numbers name the rows in messages.
    output : _Output or None
        Where the output is, to name its bad row.
    drop : bool
        The ``drop_nonfinite`` option.

    Returns
    -------
    points : _Points
        Without the dropped rows.
    contents : _Contents
        With the line numbers of the rows kept.
    dropped : int
        How many rows were dropped.
    """
    used = [points.X, points.color[:, None]] + ([] if points.truth is None else [points.truth])
    finite = np.all([np.isfinite(values).all(axis=1) for values in used], axis=0)
    finite_output = np.ones_like(finite) if points.Y is None else np.isfinite(points.Y).all(axis=1)
    keep = finite & finite_output
    dropped = int(keep.size - keep.sum())
    if not dropped:
        return points, contents, 0
    if not drop:
        if not finite.all():
            raise DatasetError(NONFINITE.format(rows=_count(int(np.sum(~finite)), "row"),
                                                where=_where(contents, np.flatnonzero(~finite)[0])))
        where = _where(output.contents, np.flatnonzero(~finite_output)[0])
        if not output.in_input:
            where += " of the output file"
        raise DatasetError(OUTPUT_NONFINITE.format(rows=_count(int(np.sum(~finite_output)), "row"), where=where))
    if dropped == keep.size:
        raise DatasetError(ALL_NONFINITE)
    line_numbers = None if contents.line_numbers is None else contents.line_numbers[keep]
    return points.rows(keep), dataclasses.replace(contents, line_numbers=line_numbers), dropped


def _check_points(points, contents, coordinates, n_neighbors):
    """Refuse points too few or too degenerate to embed, or an output that is one point.

    ``coordinates`` are the coordinates' column indices and ``n_neighbors`` the option (None: no
    bound), for the messages and the bound of :data:`TOO_FEW_POINTS`.
    """
    n_points, dim = points.X.shape
    if dim > n_points:
        raise DatasetError(MORE_COLUMNS_THAN_ROWS.format(dim=dim, rows=_count(n_points, "row")))
    if n_neighbors is not None and n_points < n_neighbors + 2:
        raise DatasetError(TOO_FEW_POINTS.format(points=_count(n_points, "point"), n_neighbors=n_neighbors,
                                                 needed=n_neighbors + 2))
    _check_embeddable(points.X, contents, coordinates)
    if points.Y is not None:
        _check_output_spread(points.Y)


def _dataset(table, choice, points, dropped, options, given_warnings):
    """The :class:`~datasets.registry.Dataset` of checked points, as :func:`~datasets.upload.parse_upload` returns it.

    Parameters
    ----------
    table : UploadTable
        The input's.
    choice : _Choice
    points : _Points
    dropped : int
        How many rows were dropped for NaN or infinite values.
    options : dict
        ``drop_nonfinite`` and ``n_neighbors`` as validated.
    given_warnings : list of str
        The messages of the warnings given.
    """
    n_points, dim = points.X.shape
    output = None if choice.output is None else _output_description(choice.output)
    if choice.truth is not None:
        truth_labels = tuple(table.columns[index] for index in choice.truth)
    else:
        truth_labels = (table.columns[choice.coordinates[0] if choice.color is None else choice.color],)
    description = f"Uploaded file '{table.filename}': {_count(n_points, 'point')} in {dim} dimensions"
    if output is not None:
        source = "its columns" if output.source == "columns" else f"'{output.filename}'"
        description += f", with a {output.dim}-dimensional output from {source}"
    if dropped:
        description += f" ({_count(dropped, 'row')} with NaN or infinite values dropped)"
    upload = UploadDescription(
        filename=table.filename, sha256=table.sha256, format=table.format, array=table.array,
        columns=tuple(choice.coordinates), column_names=tuple(table.columns[i] for i in choice.coordinates),
        color_column=choice.color,
        color_categories=None if points.color_categories is None else tuple(points.color_categories),
        truth_columns=None if choice.truth is None else tuple(choice.truth), output=output,
        drop_nonfinite=options["drop_nonfinite"], n_neighbors=options["n_neighbors"], dropped_rows=dropped,
        n=n_points, dim=dim, warnings=tuple(given_warnings), metadata_columns=tuple(choice.metadata))
    return Dataset(
        X=np.ascontiguousarray(points.X),
        truth=None if points.truth is None else np.ascontiguousarray(points.truth),
        color=points.color,
        name="upload",
        description=description + ".",
        isometric=False,
        # Everything an upload's parse read and chose is in ``upload``; params are the registry's
        # declared parameters, of which an upload has none.
        params={},
        conformal=False,
        truth_labels=truth_labels,
        image_shape=None,
        Y=None if points.Y is None else np.ascontiguousarray(points.Y),
        output_labels=() if output is None else output.column_names,
        upload=upload,
        metadata=points.metadata,
    )


def _output_description(output):
    """The :class:`OutputDescription` of a resolved :class:`~.columns._Output`."""
    names = tuple(output.contents.table.columns[index] for index in output.columns)
    if output.in_input:
        return OutputDescription("columns", tuple(output.columns), names, len(output.columns))
    table = output.contents.table
    return OutputDescription("file", tuple(output.columns), names, len(output.columns), filename=table.filename,
                             sha256=table.sha256, format=table.format, array=table.array)
