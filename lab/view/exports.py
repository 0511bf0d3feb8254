"""Files a user takes away, and the view files they bring back (no Dash).

Every writer returns ``(text, filename)``, and every file carries what made it: the view state
(:meth:`lab.view.state.ViewState.to_dict`, which restores the view when the file is uploaded back), its
link, the code version and the versions of the packages that shape results. CSV files hold them in
``#`` comment lines above the table (``pandas.read_csv(path, comment="#")`` reads the table). File
names say what the file holds: ``procrustes-lab_swissroll_n1600_isomap_k10_points.csv``,
``procrustes-lab_swissroll_n1600_sweep_k6-18.csv``.
"""

import csv
import io
import json
import urllib.parse

import numpy as np

import measures

from ..compute import catalogue
from ..store.cache import CODE_VERSION, package_versions
from .links import from_query, to_query
from .state import ViewState

__all__ = ["NOT_A_VIEW_FILE", "VIEW_FORMAT", "comparison_files", "measure_summaries", "nesting_depth", "points_csv",
           "provenance", "read_view_file", "sweep_files", "view_json"]

VIEW_FORMAT = "procrustes-lab-view/2"
_LEGACY_FORMAT = "procrustes-lab-run/1"  # flat view dicts, as links held them
NOT_A_VIEW_FILE = ("The .json file is not a view saved by Procrustes Lab (a JSON object with \"format\": "
                   f"\"{VIEW_FORMAT}\" and a \"state\" object): save one with the Run configuration button.")
# A saved view is a few kilobytes, nested four deep: anything much larger, or deeper, is not one.
# The depth is measured on the parsed document (a parser, not a scan of characters, knows what is
# inside a string); nesting past the parser's recursion limit is refused by the parser itself.
MAX_VIEW_FILE_BYTES = 2**20
MAX_VIEW_FILE_DEPTH = 16
# Above this many input dimensions (image data sets) the points file holds the drawn principal
# components instead of every pixel.
MAX_EXPORTED_INPUT_DIMENSIONS = 10
_PACKAGES = ("numpy", "scipy", "scikit-learn", "threadpoolctl", "dash", "plotly")


def provenance():
    """What made a file: the code version and the package versions."""
    return {"code_version": CODE_VERSION, "packages": package_versions(_PACKAGES)}


def _document(state, **content):
    return {"format": VIEW_FORMAT, "state": state.to_dict(), "link": to_query(state), **provenance(), **content}


def _csv(state, header, rows):
    """A CSV table below ``#`` lines holding the view state, its link and the provenance."""
    buffer = io.StringIO()
    context = provenance()
    buffer.write(f"# Procrustes Lab, code version {context['code_version']}; "
                 + ", ".join(f"{name} {version}" for name, version in context["packages"].items()) + "\n")
    buffer.write(f"# link: {to_query(state)}\n")
    buffer.write(f"# state: {json.dumps(state.to_dict(), sort_keys=True)}\n")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _number(value):
    """Full precision (``repr``), NaN as ``nan``, None as an empty cell."""
    return "" if value is None else repr(float(value))


def view_json(state, request=None, result=None):
    """A view file: the state (uploading it back restores the view, and with it the run).

    Parameters
    ----------
    state : lab.view.state.ViewState
    request : lab.compute.runs.RunRequest, optional
        The explore run it shows, recorded for reference.
    result : lab.compute.runs.RunResult, optional
        That run's result: every measure it computed is written beside the state
        (:func:`measure_summaries`).
    """
    content = {} if request is None else {"request": request.to_dict()}
    if result is not None:
        content["measures"] = measure_summaries(result)
    document = _document(state, **content)
    slug = request.slug() if request is not None else state.data.dataset
    return json.dumps(document, indent=2, sort_keys=True), f"procrustes-lab_{slug}_run.json"


def measure_summaries(result):
    """Every measure a run computed: its label, mean and median, and for a per-point measure the five-number
    summary of its per-point values (min, quartiles, max), so a reader sees the spread the mean hides.

    Parameters
    ----------
    result : lab.compute.runs.RunResult

    Returns
    -------
    dict
        ``{name: {"label", "mean", "median", "per_point"}}``; ``per_point`` is None for a
        global measure, the mean and median None for a measure not computed.
    """
    summaries = {}
    for name, (mean, median) in result.summary.items():
        values = result.local.get(name)
        quantiles = None if values is None else np.percentile(values, [0, 25, 50, 75, 100])
        summaries[name] = {
            "label": measures.spec(name).label, "mean": mean, "median": median,
            "per_point": None if quantiles is None else dict(zip(("min", "q1", "median", "q3", "max"),
                                                                  quantiles.tolist()))}
    return summaries


def nesting_depth(value):
    """How deep lists and dicts nest in a parsed JSON ``value`` (a scalar: 0), measured without recursion.

    Examples
    --------
    >>> nesting_depth({"state": {"data": {"params": {}}}}), nesting_depth([[1], 2]), nesting_depth("[[")
    (4, 2, 0)
    """
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in children)
    return deepest


def read_view_file(content, *, upload=None):
    """The validated view state a saved view file holds.

    Parameters
    ----------
    content : bytes
    upload : lab.compute.choices.UploadRef, optional
        This session's uploaded file, for a view of an uploaded data set.

    Raises
    ------
    DatasetError
        When ``content`` is not a view file (:data:`NOT_A_VIEW_FILE`), too large or nested too deep.
    StateError
        When it is one, but a value is out of range (the message names each).
    """
    if len(content) > MAX_VIEW_FILE_BYTES:
        raise measures.DatasetError(NOT_A_VIEW_FILE)
    try:
        text = bytes(content).decode("utf-8")
    except UnicodeDecodeError:
        raise measures.DatasetError(NOT_A_VIEW_FILE) from None
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):  # nested past the parser's own limit: not a view file either
        raise measures.DatasetError(NOT_A_VIEW_FILE) from None
    if not isinstance(document, dict) or nesting_depth(document) > MAX_VIEW_FILE_DEPTH:
        raise measures.DatasetError(NOT_A_VIEW_FILE)
    if document.get("format") == _LEGACY_FORMAT and isinstance(document.get("view"), dict):
        view = document["view"]
        if not all(isinstance(value, (str, int, float)) for value in view.values()):
            raise measures.DatasetError(NOT_A_VIEW_FILE)
        return from_query(urllib.parse.urlencode(view), upload=upload)
    if document.get("format") != VIEW_FORMAT or not isinstance(document.get("state"), dict):
        raise measures.DatasetError(NOT_A_VIEW_FILE)
    state = document["state"]
    data = state.get("data")
    if isinstance(data, dict) and data.get("dataset") == catalogue.UPLOAD:
        state = {**state, "data": {**data, "upload": None if upload is None else upload.to_dict()}}
    return ViewState.from_dict(state)


def points_csv(state, request, result):
    """One row per point: index, input and output coordinates, ground truth, every local measure.

    Parameters
    ----------
    state : lab.view.state.ViewState
        The view the run belongs to (written above the table).
    request : lab.compute.runs.RunRequest
    result : lab.compute.runs.RunResult
        Every point, not the drawn subsample. Inputs of more than
        :data:`MAX_EXPORTED_INPUT_DIMENSIONS` dimensions are written as their drawn principal
        components.
    """
    wide = result.X.shape[1] > MAX_EXPORTED_INPUT_DIMENSIONS
    X = result.drawn_X if wide else result.X
    input_names = list(result.input_axes) if wide else [f"x{i + 1}" for i in range(X.shape[1])]
    labels = dict(catalogue.LOCAL_MEASURES)
    columns = {"point": np.arange(len(X)), **{name: X[:, i] for i, name in enumerate(input_names)},
               **{f"y{i + 1}": result.Y[:, i] for i in range(result.Y.shape[1])},
               **{f"truth: {label}": result.truth[:, i] for i, label in enumerate(result.truth_labels)},
               **{f"local {labels[key]}": values for key, values in result.local.items()}}
    rows = zip(*[[str(v) for v in values] if name == "point" else [_number(v) for v in values]
                 for name, values in columns.items()])
    return _csv(state, list(columns), rows), f"procrustes-lab_{request.slug()}_points.csv"


def _measure_columns(rows):
    """Header cells and per-row cells of every summary measure (mean and median), then seconds and error."""
    header = [f"{label} {part}" for _, label in catalogue.SUMMARY_MEASURES for part in ("mean", "median")]
    cells = [[_number(value) for key, _ in catalogue.SUMMARY_MEASURES
              for value in row.get("summary", {}).get(key, [None, None])]
             + [_number(row.get("seconds")), row.get("error", "")] for row in rows]
    return header + ["seconds", "error"], cells


def sweep_files(state, request, result):
    """The sweep as ``{"csv": (text, name), "json": (text, name)}``: one row per algorithm and k."""
    header, cells = _measure_columns(result.rows)
    body = [[row["label"], row["k"], *cell] for row, cell in zip(result.rows, cells)]
    stem = f"procrustes-lab_{request.slug()}"
    document = _document(state, request=request.to_dict(), rows=list(result.rows))
    return {"csv": (_csv(state, ["algorithm", "k", *header], body), f"{stem}.csv"),
            "json": (json.dumps(document, indent=2, allow_nan=True), f"{stem}.json")}


def comparison_files(state, request, result):
    """The comparison as ``{"csv": ..., "json": ...}``: one row per algorithm (coordinates left out)."""
    panels = [{key: value for key, value in panel.items() if key != "Y"} for panel in result.panels]
    header, cells = _measure_columns(panels)
    body = [[panel["label"], panel["output"], *cell] for panel, cell in zip(panels, cells)]
    stem = f"procrustes-lab_{request.slug()}"
    document = _document(state, request=request.to_dict(), rows=panels)
    return {"csv": (_csv(state, ["algorithm", "output", *header], body), f"{stem}.csv"),
            "json": (json.dumps(document, indent=2, allow_nan=True), f"{stem}.json")}

