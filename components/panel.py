"""The control panel: data (with the upload box), algorithm and view controls (the tours' index is in the header).

Every control starts at the default view state's value; :mod:`components.state_sync` sets them all
from a link or a preset. Ranges come from the declarations in :mod:`lab.compute.catalogue` and the
registries, the same ones the server checks.
"""

from dash import dcc, html

import algorithms
import datasets
from lab.compute import catalogue

from . import ids
from .controls import K_MARKS, labelled

__all__ = ["algorithm_options", "control_panel", "dataset_options", "limited_upload"]


def _range(parameter):
    return f"Range: [{parameter.low}, {parameter.high}]."


def dataset_options(upload=None):
    """The data-set menu: the catalogue, and this session's uploaded file once one is chosen."""
    options = [{"label": entry.label, "value": entry.name} for entry in datasets.specs()]
    return options + ([{"label": f"Your file: {upload['filename']}", "value": catalogue.UPLOAD}] if upload else [])


def _data_controls(shown, upload=None):
    limits = datasets.UploadLimits()
    size = datasets.spec(catalogue.DEFAULT_DATASET).size_parameter
    return [
        html.H3("Data"),
        labelled("Data set", dcc.Dropdown(
            id=ids.DATASET, value=shown["controls"]["dataset"], clearable=False, options=dataset_options(upload))),
        html.Div(shown["dataset_help"], id=ids.DATASET_HELP, className="help"),
        _upload_panel(limits, upload),
        labelled("Points n", dcc.Input(id=ids.DATASET_SIZE, type="number", value=shown["controls"]["n"], step=1,
                                       debounce=True, className="number-input"),
                 f"Number of points sampled (swiss roll: [{size.low}, {size.high}]; each data set states its "
                 "range); out-of-range values get a message naming the range."),
        labelled("Noise σ", dcc.Input(id=ids.DATASET_NOISE, type="number", value=shown["controls"]["noise"],
                                      step="any", debounce=True, className="number-input"),
                 "Isotropic Gaussian noise added to the input points; finite, >= 0."),
        labelled("Random state", dcc.Input(id=ids.DATASET_RANDOM_STATE, type="number",
                                           value=shown["controls"]["random_state"], step=1, debounce=True,
                                           className="number-input"),
                 f"{catalogue.RANDOM_STATE.help} {_range(catalogue.RANDOM_STATE)}"),
        html.Div(shown["dataset_params"], id=ids.DATASET_PARAMS),
    ]


def algorithm_options(upload=None, *, kinds=True):
    """The algorithm menu: the registry's (``kinds``: with their output kind), and the output uploaded with
    this session's file if it has one."""
    options = [{"label": f"{s.label} ({s.output})" if kinds else s.label, "value": s.name} for s in algorithms.specs()]
    output = (upload or {}).get("output")
    if output:
        named = output["filename"] or "columns " + ", ".join(str(column + 1) for column in output["columns"])
        options.append({"label": f"Your uploaded output ({named})", "value": catalogue.UPLOADED_OUTPUT})
    return options


def _method_controls(shown, upload=None):
    return [
        html.H3("Algorithm"),
        labelled("Algorithm", dcc.Dropdown(
            id=ids.ALGORITHM, value=shown["controls"]["algorithm"], clearable=False,
            options=algorithm_options(upload))),
        html.Div(shown["algorithm_help"], id=ids.ALGORITHM_HELP, className="help"),
        labelled("Neighbours k", dcc.Slider(id=ids.ALGORITHM_NEIGHBORS, min=catalogue.NEIGHBORS.low,
                                            max=catalogue.NEIGHBORS.high, step=1,
                                            value=shown["controls"]["n_neighbors"], marks=K_MARKS,
                                            tooltip={"placement": "bottom", "always_visible": True}),
                 catalogue.NEIGHBORS.help),
        html.Div(shown["algorithm_params"], id=ids.ALGORITHM_PARAMS),
        labelled("Post-refinement sweeps", dcc.Input(
            id=ids.ALGORITHM_POST_REFINEMENT, type="number", value=shown["controls"]["post_refinement"], step=1,
            debounce=True, className="number-input"),
                 f"{catalogue.POST_REFINEMENT.help} {_range(catalogue.POST_REFINEMENT)}"),
        labelled("Rescale output", dcc.Dropdown(
            id=ids.ALGORITHM_RESCALE, value=shown["controls"]["rescale"], clearable=False,
            options=[{"label": catalogue.RESCALE_LABELS[key], "value": key, "title": text}
                     for key, text in algorithms.RESCALE_OPTIONS.items()]),
                 catalogue.RESCALE.help),
    ]


def _view_controls(shown):
    return [
        html.H3("View"),
        labelled("Colour by", dcc.Dropdown(id=ids.COLOR_BY, value=shown["controls"]["color"], clearable=False,
                                           options=shown["color_options"])),
        labelled("Input view", dcc.Dropdown(id=ids.INPUT_VIEW, value=shown["controls"]["input_view"], clearable=False,
                                            options=[{"label": label, "value": value}
                                                     for value, label in catalogue.INPUT_VIEWS.items()]),
                 "Plotly selects points (box or lasso, in the view's toolbar) in the plane only: project "
                 "the input on two of its drawn coordinates to select in it."),
        labelled("Figure downloads", dcc.RadioItems(id=ids.FIGURE_FORMAT, value=shown["controls"]["figure_format"],
                                                    inline=True,
                                                    options=[{"label": f" {name.upper()} ", "value": name}
                                                             for name in catalogue.FIGURE_FORMATS]),
                 "The camera button of every figure saves it in this format, named after the run."),
        dcc.Checklist(id=ids.SHOW_LANDMARKS, value=shown["controls"]["landmarks"], options=[
            {"label": " NIEQA landmarks (and their MDS configuration, aligned to the output)", "value": "show"}]),
    ]


def limited_upload(upload_id, message_id, limits, children):
    """An upload box that refuses a file above ``limits.max_bytes`` in the browser, with the parser's message.

    dcc.Upload drops such a file without a word; the wrapper tells assets/upload_limits.js the limit,
    the parser's message for a larger file (:data:`datasets.upload.TOO_LARGE`) and where to show it.
    Every upload box is one of these, so each says the same.
    """
    return html.Div(dcc.Upload(id=upload_id, max_size=limits.max_bytes, multiple=False, className="upload-box",
                               children=children),
                    **{"data-max-bytes": str(limits.max_bytes), "data-too-large": datasets.upload.TOO_LARGE,
                       "data-message-id": message_id})


def _output_pickers(limits):
    """The output uploaded with the input: columns of its file, or a second file (row for row)."""
    return html.Div([
        html.Div("Its output (optional): an embedding of these points made elsewhere (UMAP, t-SNE, ...), which the "
                 "page then measures instead of running an algorithm.", className="help"),
        labelled("Output columns", dcc.Dropdown(id=ids.UPLOAD_OUTPUT_COLUMNS, multi=True, placeholder="none"),
                 "Columns of this file that hold the output, at least two; they are set aside from the coordinates."),
        limited_upload(ids.UPLOAD_OUTPUT, ids.UPLOAD_OUTPUT_MESSAGE, limits,
                       html.Div([("…or drop the output's own file here (one row per point, in the same order), or "),
                                 html.A("choose it")])),
        html.Div(id=ids.UPLOAD_OUTPUT_MESSAGE, className="message", role="status"),
        labelled("Output file columns", dcc.Dropdown(id=ids.UPLOAD_OUTPUT_FILE_COLUMNS, multi=True,
                                                     placeholder="every numeric column"),
                 "The output file's columns; empty: all that hold numbers."),
        dcc.Store(id=ids.UPLOAD_OUTPUT_INSPECTED, storage_type="session"),
    ], className="upload-output")


def _upload_panel(limits, upload=None):
    picker = {"clearable": True, "placeholder": "none"}
    return html.Details([
        html.Summary("Upload your own data"),
        limited_upload(ids.UPLOAD, ids.UPLOAD_MESSAGE, limits,
                       html.Div(["Drop a file here or ", html.A("choose one")])),
        html.Div(f"CSV, TSV or whitespace-separated text (header optional), NumPy .npy or .npz; at most "
                 f"{limits.max_bytes // 2**20} MB and {limits.max_rows:,} rows. Above {limits.suggest_pca_above} "
                 "columns, consider reducing with PCA first. A view saved from this page (.json) restores that "
                 "view. The file stays on this server for a day and is visible only to this browser tab.",
                 className="help"),
        html.Div(id=ids.UPLOAD_MESSAGE, className="message", role="status"),
        html.Div([
            labelled("Coordinates", dcc.Dropdown(id=ids.UPLOAD_COLUMNS, multi=True, placeholder="numeric columns"),
                     "The columns that are the points' coordinates (at least two)."),
            labelled("Colour / label column", dcc.Dropdown(id=ids.UPLOAD_COLOR, **picker),
                     "Optional: colours the points (numbers, or text labels)."),
            labelled("Ground-truth columns", dcc.Dropdown(id=ids.UPLOAD_TRUTH, multi=True, **picker),
                     "Optional: 1-3 columns of the true intrinsic coordinates; enables M_t and the collapse score."),
            labelled("Metadata columns", dcc.Dropdown(id=ids.UPLOAD_METADATA, multi=True, **picker),
                     "Optional: up to 16 columns carried with the points, not embedded (names, dates, classes): "
                     "shown on hover and searched by Find (\"name starts with ab\", \"year >= 1990\")."),
            labelled("Array", dcc.Dropdown(id=ids.UPLOAD_ARRAY, clearable=False), "The .npz member to read."),
            dcc.Checklist(id=ids.UPLOAD_DROP, value=[], options=[
                {"label": " drop rows with NaN or infinite values (drop_nonfinite)", "value": "drop"}]),
            _output_pickers(limits),
            html.Button("Use this data", id=ids.UPLOAD_USE, className="run-button"),
        ], id=ids.UPLOAD_PICKERS, style={"display": "none"}),
        dcc.Store(id=ids.UPLOAD_FILE, storage_type="session"),
        dcc.Store(id=ids.UPLOAD_STORE, storage_type="session", data=upload),
    ], className="upload")


def control_panel(shown, upload=None):
    """The left column, its controls showing ``shown`` (:func:`components.state_sync.controls_from_state`).

    ``upload``: the session's chosen upload to start from (a notebook's arrays), else none.
    """
    return html.Div([
        *_data_controls(shown, upload),
        *_method_controls(shown, upload),
        *_view_controls(shown),
    ], className="panel")
