"""Callbacks of the explore view. Each one reads inputs, calls the libraries, calls a figure builder.

The functions stay plain (testable without a server); :func:`register_callbacks` wires them to an
app. Dash's global ``dash.callback`` registry would hand them to the first app only, and the browser
tests build one app per test.
"""

import logging
import time
import warnings

import numpy as np
from dash import ALL, ClientsideFunction, Input, Output, State, html

import algorithms
import datasets
import measures

from . import ids
from .controls import parameter_controls, read_parameter_values
from .figures import empty_figure, input_figure, output_figure, point_columns, robust_color_range
from .layout import CARD_MEASURES, LOCAL_COLORINGS, color_options

logger = logging.getLogger(__name__)

CARD_OUTPUTS = [Output(ids.card_value(measure), "children") for measure, _, _ in CARD_MEASURES]
NO_RESULT = "—"

_CALLBACKS = []


def _wired(*dependencies, **options):
    """Record ``function`` with its Dash dependencies for :func:`register_callbacks`; return it unchanged."""
    def record(function):
        _CALLBACKS.append((function, dependencies, options))
        return function
    return record


def register_callbacks(app):
    """Wire every callback of this module to ``app``, and the browser-side linked hover."""
    for function, dependencies, options in _CALLBACKS:
        app.callback(*dependencies, **options)(function)
    # Ringing the hovered point in both views runs in the browser (assets/linked_hover.js): a hover
    # should not wait for the server, and only the marker trace changes.
    app.clientside_callback(
        ClientsideFunction(namespace="procrustes", function_name="markHovered"),
        Output(ids.INPUT_GRAPH, "figure", allow_duplicate=True),
        Output(ids.OUTPUT_GRAPH, "figure", allow_duplicate=True),
        Input(ids.INPUT_GRAPH, "hoverData"),
        Input(ids.OUTPUT_GRAPH, "hoverData"),
        State(ids.INPUT_GRAPH, "figure"),
        State(ids.OUTPUT_GRAPH, "figure"),
        prevent_initial_call=True,
    )


@_wired(
    Output(ids.DATASET_PARAMS, "children"),
    Output(ids.DATASET_HELP, "children"),
    Output(ids.DATASET_SIZE, "value"),
    Output(ids.COLOR_BY, "options"),
    Output(ids.COLOR_BY, "value"),
    Input(ids.DATASET, "value"),
    State(ids.COLOR_BY, "value"),
    prevent_initial_call=True,
)
def show_dataset_controls(name, color_by):
    """Swap in the chosen data set's own controls, sample size and intrinsic colourings."""
    entry = datasets.spec(name)
    controls = parameter_controls(entry.parameters, lambda parameter: ids.dataset_param(name, parameter))
    options = color_options(entry)
    # Keep a local-measure colouring; an intrinsic one names the previous set's coordinates.
    keep = color_by in {value for value, _ in LOCAL_COLORINGS}
    return (controls, f"{entry.description} ({entry.citation})", entry.default_n,
            options, color_by if keep else options[0]["value"])


@_wired(
    Output(ids.ALGORITHM_PARAMS, "children"),
    Output(ids.ALGORITHM_HELP, "children"),
    Input(ids.ALGORITHM, "value"),
    prevent_initial_call=True,
)
def show_algorithm_controls(name):
    """Swap in the chosen algorithm's own controls and its description."""
    entry = algorithms.spec(name)
    controls = parameter_controls(entry.parameters, lambda parameter: ids.algorithm_param(name, parameter))
    scale = algorithms.OUTPUT_SCALES[entry.output_scale]
    return controls, f"{entry.description} Output: {entry.output}, {scale}. ({entry.citation})"


def _format(summary):
    mean, median, _ = summary
    return [html.Span(f"{mean:.4f}", className="card-mean"), html.Span(f"median {median:.4f}", className="card-median")]


@_wired(
    Output(ids.RESULT_STORE, "data"),
    Output(ids.MESSAGE, "children"),
    Output(ids.MESSAGE, "className"),
    *CARD_OUTPUTS,
    Input(ids.DATASET, "value"),
    Input(ids.DATASET_SIZE, "value"),
    Input(ids.DATASET_NOISE, "value"),
    Input(ids.DATASET_SEED, "value"),
    Input({"type": "dataset-param", "owner": ALL, "index": ALL}, "value"),
    State({"type": "dataset-param", "owner": ALL, "index": ALL}, "id"),
    Input(ids.ALGORITHM, "value"),
    Input(ids.ALGORITHM_NEIGHBORS, "value"),
    Input({"type": "algorithm-param", "owner": ALL, "index": ALL}, "value"),
    State({"type": "algorithm-param", "owner": ALL, "index": ALL}, "id"),
)
def run(dataset, size, noise, seed, dataset_values, dataset_ids, algorithm, n_neighbors, algorithm_values,
        algorithm_ids):
    """Sample the data set, embed it, and measure the embedding on the same kNN graph."""
    started = time.perf_counter()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", measures.ProcrustesLabWarning)
            data = datasets.load(dataset, size, noise=noise, seed=0 if seed is None else seed,
                                 **read_parameter_values(dataset, datasets.spec(dataset).parameters,
                                                         dataset_ids, dataset_values))
            Y = algorithms.embed(algorithm, data.X, n_neighbors=n_neighbors, seed=data.params["seed"],
                                 **read_parameter_values(algorithm, algorithms.spec(algorithm).parameters,
                                                         algorithm_ids, algorithm_values))
            neighbors = measures.nearest_neighbors(data.X, n_neighbors)
            local = measures.local_procrustes(data.X, Y, neighbors)
            lower_bound = measures.local_pca_residual(data.X, neighbors, Y.shape[1])
            summaries = [measures.summarize(values, label) for values, label in
                         ((local.normalized, "R_N"), (local.conformal, "R_C"), (lower_bound, "lower bound"))]
    except measures.ProcrustesLabError as error:
        return None, str(error), "message error", *[NO_RESULT] * len(CARD_MEASURES)
    except Exception as error:  # a bug, not bad input: keep the server up and the detail in the log
        logger.exception("run failed")
        return (None, f"Internal error ({type(error).__name__}); the server log has the details.",
                "message error", *[NO_RESULT] * len(CARD_MEASURES))
    elapsed = time.perf_counter() - started
    entry = algorithms.spec(algorithm)
    result = {
        "X": data.X, "Y": Y, "truth": data.truth if data.truth is not None else data.color[:, None],
        "truth_labels": list(datasets.spec(dataset).truth_labels),
        "local": {"normalized": local.normalized, "conformal": local.conformal, "lower_bound": lower_bound},
        "input_title": f"Input: {datasets.spec(dataset).label}, n = {data.X.shape[0]}",
        "output_title": f"Output: {entry.label}, k = {n_neighbors} ({entry.output_scale.replace('_', ' ')})",
        "revision": f"{dataset}|{size}|{noise}|{seed}|{algorithm}|{n_neighbors}",
    }
    notes = " ".join(str(w.message) for w in caught if issubclass(w.category, measures.ProcrustesLabWarning))
    return (result, notes, "message warning" if notes else "message",
            *[_format(s) for s in summaries], f"{elapsed:.2f} s")


@_wired(
    Output(ids.INPUT_GRAPH, "figure"),
    Output(ids.OUTPUT_GRAPH, "figure"),
    Input(ids.RESULT_STORE, "data"),
    Input(ids.COLOR_BY, "value"),
)
def draw(result, color_by):
    """Draw both views in one colouring on one robust colour range."""
    if not result:
        blank = empty_figure("No result: see the message above.")
        return blank, blank
    X, Y = np.asarray(result["X"], dtype=float), np.asarray(result["Y"], dtype=float)
    local = {key: np.asarray(values, dtype=float) for key, values in result["local"].items()}
    local_labels = dict(LOCAL_COLORINGS)
    if color_by in local:
        color, title = local[color_by], local_labels[color_by]
    else:
        column = int(color_by.rsplit("-", 1)[1])
        color, title = np.asarray(result["truth"], dtype=float)[:, column], result["truth_labels"][column]
    columns = point_columns(X, Y, {title: color, **{local_labels[k]: v for k, v in local.items()}})
    color_range = robust_color_range(color)
    bar_title = f"{title} (2–98% range)" if color_by in local else title
    return (input_figure(color, color_range, bar_title, columns, result["input_title"], result["revision"]),
            output_figure(color, color_range, bar_title, columns, result["output_title"], result["revision"]))
