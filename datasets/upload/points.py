"""From the chosen columns to points: their values, and the checks that they can be embedded and the output judged.

A cell that is not a number is reported where it is (:data:`~.messages.NON_NUMERIC`); constant
columns and duplicate points are refused, as embedding algorithms break on them; an output may
repeat points (an embedding may map two points to one place) but not be one point.
"""

import numpy as np

from measures.errors import DatasetError

from .messages import (
    CONSTANT_COLUMNS,
    DUPLICATE_POINTS,
    EMPTY_CELL,
    NON_NUMERIC,
    OUTPUT_COLLAPSED,
    _count,
)
from .tables import _column_label, _number, _where

# How much of a bad cell a message quotes.
_LONGEST_QUOTED_TEXT = 40


# An output whose largest column range is at most this fraction of its largest absolute value is
# one repeated point: float64 then holds fewer than ~10^4 distinct values across the spread, so
# the output's neighbourhoods are rounding noise (and an exactly collapsed run has range 0).
_COLLAPSE_TOLERANCE = 1e-12


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
