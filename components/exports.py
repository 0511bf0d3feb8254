"""Downloads: a run's points and measures, its configuration, sweep and comparison tables (no Dash).

Every builder returns ``(text, filename)``. File names say what the file holds
(``procrustes-lab_swissroll_isomap_k10_points.csv``); a run configuration is JSON that the page's
upload box turns back into the same view (:func:`read_configuration`).
"""

import csv
import io
import json

import numpy as np

import measures

from .jobs import CODE_VERSION
from .urlstate import encode_state

__all__ = ["CONFIGURATION_FORMAT", "configuration_json", "points_csv", "read_configuration", "run_slug",
           "table_csv", "table_json"]

CONFIGURATION_FORMAT = "procrustes-lab-run/1"
NOT_A_CONFIGURATION = ("The .json file is not a run configuration saved by Procrustes Lab (a JSON object with "
                       "\"format\": \"procrustes-lab-run/1\" and a \"view\" object): save one with the Run "
                       "configuration button.")
# Above this many input dimensions (image data sets) the points file holds the drawn principal
# components instead of every pixel.
MAX_EXPORTED_INPUT_DIMENSIONS = 10


def run_slug(request):
    """``<data set>_<algorithm>_k<k>``, the stem of a run's file names."""
    return f"{request['dataset']}_{request['algorithm']}_k{request['n_neighbors']}"


def _csv(header, rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _number(value):
    """Full precision (``repr``), NaN as ``nan``, None as an empty cell."""
    return "" if value is None else repr(float(value))


def points_csv(result, request, local_labels):
    """One row per point: index, input and output coordinates, ground truth, every local measure.

    Parameters
    ----------
    result : dict
        A full run from :func:`components.runs.compute_run` (every point, not the drawn subsample).
    request : dict
        Its request (for the file name).
    local_labels : dict of str to str
        Local measure key -> column name.

    Returns
    -------
    (str, str)
        CSV text and file name. Inputs of more than :data:`MAX_EXPORTED_INPUT_DIMENSIONS`
        dimensions are written as their drawn principal components.
    """
    X = result["X"] if result["X"].shape[1] <= MAX_EXPORTED_INPUT_DIMENSIONS else result["drawn_X"]
    input_names = ([f"x{i + 1}" for i in range(X.shape[1])] if X is result["X"]
                   else list(result["input_axes"]))
    columns = {"point": np.arange(len(X)), **{name: X[:, i] for i, name in enumerate(input_names)},
               **{f"y{i + 1}": result["Y"][:, i] for i in range(result["Y"].shape[1])},
               **{f"truth: {label}": result["truth"][:, i] for i, label in enumerate(result["truth_labels"])},
               **{local_labels[key]: values for key, values in result["local"].items()}}
    names = list(columns)
    rows = zip(*[[str(v) for v in values] if name == "point" else [_number(v) for v in values]
                 for name, values in columns.items()])
    return _csv(names, rows), f"procrustes-lab_{run_slug(request)}_points.csv"


def configuration_json(request, view):
    """A run's full configuration: the request that computed it and the page's view state.

    Uploading it back (:func:`read_configuration`) restores the view, and with it the run; the
    code version says which code computed the numbers.
    """
    document = {"format": CONFIGURATION_FORMAT, "code_version": CODE_VERSION, "request": request,
                "view": {key: value for key, value in view.items() if value is not None}}
    return json.dumps(document, indent=2, sort_keys=True), f"procrustes-lab_{run_slug(request)}_run.json"


def read_configuration(content):
    """The URL query (``?dataset=...``) of a saved run configuration's view.

    Raises
    ------
    DatasetError
        When ``content`` is not a configuration :func:`configuration_json` wrote.
    """
    try:
        document = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise measures.DatasetError(NOT_A_CONFIGURATION) from None
    if not isinstance(document, dict) or document.get("format") != CONFIGURATION_FORMAT:
        raise measures.DatasetError(NOT_A_CONFIGURATION)
    view = document.get("view")
    if not isinstance(view, dict) or not all(isinstance(key, str) and isinstance(value, (str, int, float))
                                             for key, value in view.items()):
        raise measures.DatasetError(NOT_A_CONFIGURATION)
    return encode_state(view)


def table_csv(rows, measure_labels, stem):
    """Sweep cells or comparison panels as CSV: their keys, then each measure's mean and median.

    Parameters
    ----------
    rows : list of dict
        Each with ``label`` (algorithm), optionally ``k`` and ``output``, ``summary`` (measure ->
        [mean, median]) and ``seconds``, or ``error`` for a failed cell.
    measure_labels : sequence of (key, label)
    stem : str
        File name stem.
    """
    keys = [key for key in ("k", "output") if any(key in row for row in rows)]
    header = ["algorithm", *keys, *[f"{label} {part}" for _, label in measure_labels for part in ("mean", "median")],
              "seconds", "error"]
    body = []
    for row in rows:
        summary = row.get("summary", {})
        values = [value for key, _ in measure_labels for value in summary.get(key, [None, None])]
        body.append([row["label"], *[row.get(key, "") for key in keys], *[_number(v) for v in values],
                     _number(row.get("seconds")), row.get("error", "")])
    return _csv(header, body), f"procrustes-lab_{stem}.csv"


def table_json(rows, stem):
    """Sweep cells or comparison panels as JSON (coordinates left out), with the code version."""
    kept = [{key: value for key, value in row.items() if key != "Y"} for row in rows]
    return (json.dumps({"code_version": CODE_VERSION, "rows": kept}, indent=2, allow_nan=True),
            f"procrustes-lab_{stem}.json")
