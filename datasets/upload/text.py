"""Text tables: decoding, separator and header detection, and the bounded CSV reader.

:func:`_read_text` reads a text upload (the format is described in :mod:`datasets.upload`) into a
:class:`~.tables._Contents` without ever holding the strings of all its lines or cells at once:
the lines are found a segment of text at a time, and split and converted a chunk of rows at a
time, every limit checked before the memory it bounds is taken.
"""

import codecs
import csv
import itertools
import re

import numpy as np

from measures.errors import DatasetError

from .limits import _check_values
from .messages import (
    BINARY_FILE,
    EMPTY_FILE,
    NO_DATA_ROWS,
    NOT_UTF8,
    RAGGED,
    RAGGED_HEADER,
    TOO_MANY_COLUMNS,
    TOO_MANY_ROWS,
    UNCLOSED_QUOTE,
    UNREADABLE_LINE,
    _count,
)
from .tables import UploadTable, _Contents, _Labels, _number

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
