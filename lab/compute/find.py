"""Find points of a run by what they are: row numbers, a per-point measure's threshold or share, a truth range.

A query is clauses joined by "and" (the rows every clause finds):

- ``row 12``, ``rows 3, 8, 10-20``: data-set rows (from 0, as the views' hover and the CSV number them);
- ``R_N > 0.5``, ``trustworthiness <= 0.9``, ``height = 3``: a per-point measure (its label or registry
  name, e.g. ``R_N`` or ``normalized``) or a ground-truth column (its label) against a number, with
  ``<``, ``<=``, ``>``, ``>=``, ``=`` or ``!=``;
- ``continuity bottom 1%``, ``R_N top 5 %``: the ``ceil(p n / 100)`` points of largest (top) or smallest
  (bottom) value among the n where it is defined, ties by row;
- an upload's metadata column (:func:`datasets.parse_upload`'s ``metadata_columns``), by its name: a
  column of numbers as a measure is (``year >= 1990 and year < 2000`` is a range), a column of texts
  by text, case aside: ``species = setosa`` (``!=``), ``name starts with ab``, ``name contains ab``; a text
  in double quotes may hold " and " (``name contains "salt and pepper"``), the quotes not part of it.

The page marks the rows found in both views (:mod:`components.find`); the link keeps the query.
"""

import math
import re

import numpy as np

import measures

from .choices import StateError

__all__ = ["FIND_MAX_CHARS", "FIND_MAX_CLAUSES", "find_rows"]

# A query is typed by hand: these bound what a forged link can ask of the server.
FIND_MAX_CHARS = 200
FIND_MAX_CLAUSES = 8

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_ROWS = re.compile(r"rows?\s+(\d+(?:\s*-\s*\d+)?(?:\s*,\s*\d+(?:\s*-\s*\d+)?)*)", re.IGNORECASE)
_COMPARISON = re.compile(rf"(.+?)\s*(<=|>=|!=|==|=|<|>)\s*({_NUMBER})")
_SHARE = re.compile(rf"(.+?)\s+(top|bottom)\s+({_NUMBER})\s*%", re.IGNORECASE)
_TEXT = re.compile(r"(.+?)\s*(!=|==|=|\s+starts\s+with\s+|\s+contains\s+)\s*(.+)", re.IGNORECASE)
# " and " that joins clauses: not inside double quotes (an even number of them follows it).
_JOIN = re.compile(r'\s+and\s+(?=(?:[^"]*"[^"]*")*[^"]*$)', re.IGNORECASE)
_OPERATORS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "=": np.equal,
              "==": np.equal, "!=": np.not_equal}


def _fields(result):
    """Each name a query may use (case and spaces aside) -> the values it reads, one per row."""
    fields = {}
    for name, values in result.local.items():
        label = measures.spec(name).label
        for alias in (name, label, f"local {label}"):
            fields[_key(alias)] = (label, values)
    for column, label in enumerate(result.truth_labels):
        fields.setdefault(_key(label), (label, result.truth[:, column]))
    for name, values in result.metadata.items():
        fields.setdefault(_key(name), (name, values))
    return fields


def _key(text):
    return " ".join(text.casefold().split())


def _field(fields, text):
    try:
        return fields[_key(text)]
    except KeyError:
        known = sorted({label for label, _ in fields.values()})
        raise StateError([f"Find: no per-point measure, truth or metadata column {text.strip()!r}; this run has "
                          f"{', '.join(known)}."]) from None


def _rows(text, n_samples):
    found = []
    for part in text.split(","):
        first, _, last = (value.strip() for value in part.partition("-"))
        low, high = int(first), int(last or first)
        if not 0 <= low <= high < n_samples:
            raise StateError([f"Find: rows run from 0 to {n_samples - 1}; got {part.strip()!r}."])
        found.append(np.arange(low, high + 1))
    return np.unique(np.concatenate(found))


def _share(values, side, percent):
    if not 0 < percent <= 100:
        raise StateError([f"Find: a share is more than 0 % and at most 100 %; got {percent:g} %."])
    defined = np.flatnonzero(~np.isnan(values))
    count = math.ceil(percent * defined.size / 100)
    # A stable sort: equal values keep row order, so ties go to the smaller rows, the same every time.
    order = defined[np.argsort(values[defined] if side == "bottom" else -values[defined], kind="stable")]
    return np.sort(order[:count])


def _clause(clause, n_samples, fields):
    if match := _ROWS.fullmatch(clause):
        return _rows(match.group(1), n_samples)
    if match := _SHARE.fullmatch(clause):
        label, values = _field(fields, match.group(1))
        if values.dtype.kind != "f":
            raise StateError([f"Find: {label} holds texts: a share (top, bottom) ranks numbers."])
        return _share(values, match.group(2).lower(), float(match.group(3)))
    comparison, text = _COMPARISON.fullmatch(clause), _TEXT.fullmatch(clause)
    # A comparison of a number column; else a text clause (its text may hold "<5" or "=1"): each by its field.
    numeric = comparison and fields.get(_key(comparison.group(1)), (None, np.empty(0, "U")))[1].dtype.kind == "f"
    if numeric:
        _, values = _field(fields, comparison.group(1))
        with np.errstate(invalid="ignore"):  # NaN (an undefined point) matches no comparison
            return np.flatnonzero(_OPERATORS[comparison.group(2)](values, float(comparison.group(3))))
    if text and (_key(text.group(1)) in fields or not comparison):
        label, values = _field(fields, text.group(1))
        if values.dtype.kind != "U":
            raise StateError([f"Find: {label} holds numbers: compare it with <, <=, >, >=, = or != and a number."])
        return _texts(values, " ".join(text.group(2).casefold().split()), _unquoted(text.group(3).strip()))
    if comparison:
        _field(fields, comparison.group(1))  # names what this run has
    raise StateError([f"Find: cannot read {clause!r}. Write e.g. \"R_N > 0.5\", \"continuity bottom 1%\", "
                      "\"rows 3, 10-20\", \"name starts with ab\", joined by \"and\"."])


def _unquoted(text):
    """``text`` without the double quotes around it, if it has a pair there."""
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _texts(values, how, text):
    """The rows whose text ``how`` (``=``, ``!=``, ``starts with``, ``contains``) ``text``, case aside."""
    folded, text = np.char.lower(values), text.lower()
    if how in ("=", "=="):
        return np.flatnonzero(folded == text)
    if how == "!=":
        return np.flatnonzero(folded != text)
    if how == "starts with":
        return np.flatnonzero(np.char.startswith(folded, text))
    return np.flatnonzero(np.char.find(folded, text) >= 0)


def find_rows(result, query):
    """The data-set rows of ``result`` that every clause of ``query`` finds (sorted).

    Parameters
    ----------
    result : lab.compute.runs.RunResult
    query : str
        Clauses joined by "and" (the module's grammar); blank finds nothing.

    Returns
    -------
    ndarray of int

    Raises
    ------
    StateError
        Naming what it cannot read: a clause, a field (with the run's fields), a row out of range.

    Examples
    --------
    >>> import types
    >>> run = types.SimpleNamespace(n_samples=5, local={"normalized": np.array([0.1, 0.9, 0.5, np.nan, 0.7])},
    ...                             truth=np.arange(5.0)[:, None], truth_labels=("t",),
    ...                             metadata={"name": np.array(["ab", "b", "Abc", "c", "a"])})
    >>> find_rows(run, "R_N > 0.6").tolist(), find_rows(run, "r_n top 50% and t >= 2").tolist()
    ([1, 4], [4])
    >>> find_rows(run, "rows 0, 2-3").tolist(), find_rows(run, "name starts with AB").tolist()
    ([0, 2, 3], [0, 2])
    """
    if not isinstance(query, str) or len(query) > FIND_MAX_CHARS:
        raise StateError([f"Find: a query of at most {FIND_MAX_CHARS} characters."])
    clauses = [clause.strip() for clause in _JOIN.split(query.strip()) if clause.strip()]
    if len(clauses) > FIND_MAX_CLAUSES:
        raise StateError([f"Find: at most {FIND_MAX_CLAUSES} clauses joined by \"and\"; got {len(clauses)}."])
    fields = _fields(result)
    rows = None
    for clause in clauses:
        found = _clause(clause, result.n_samples, fields)
        rows = found if rows is None else np.intersect1d(rows, found)
    return np.array([], dtype=int) if rows is None else rows.astype(int)
