"""Callbacks that move files: uploads in (data or a saved run), downloads out (tables, a run, figures).

Plain functions, wired by :func:`register_file_callbacks` (called from
:func:`components.callbacks.register_callbacks`); the parsing and writing live in
:mod:`components.uploads`, :mod:`components.exports` and :func:`datasets.parse_upload`.
"""

import functools

from dash import Input, Output, State, ctx, dcc, no_update

import datasets

from . import ids
from .exports import configuration_json, points_csv, read_configuration, run_slug, table_csv, table_json
from .layout import LOCAL_COLORINGS
from .runs import SUMMARY_MEASURES, cached_run, failure_message
from .uploads import UPLOAD, decode_contents, load_upload, upload_options
from .urlstate import decode_state

__all__ = ["dataset_menu", "export_run", "export_table", "figure_configs", "receive_upload", "register_file_callbacks",
           "use_upload"]

# Graphs whose image downloads are named after the explore run, and what each name adds.
FIGURES = ((ids.INPUT_GRAPH, "input"), (ids.OUTPUT_GRAPH, "output"), (ids.INSPECTOR_GRAPH, "inspector"),
           (ids.SWEEP_GRAPH, "sweep"), (ids.COMPARE_GRID, "comparison"), (ids.COMPARE_BARS, "comparison-measures"),
           (ids.NORMALIZATION_GRID, "normalization"), (ids.NORMALIZATION_CURVE, "phi-ratio"))


def dataset_menu(upload):
    """The data-set menu: the catalogue, and this session's uploaded file once one is chosen."""
    if not upload:  # the layout's catalogue stands; new options would make the menu re-announce its value
        return no_update
    options = [{"label": entry.label, "value": entry.name} for entry in datasets.specs()]
    return [*options, {"label": f"Your file: {upload['filename']}", "value": UPLOAD}]


def _upload_failure(error):
    """Outputs of :func:`receive_upload` for a file that cannot be read: the message, pickers hidden."""
    return (None, failure_message(error), "message error", {"display": "none"}, [], None, [], None, [], None, [],
            None, no_update, no_update)


def receive_upload(uploads, contents, filename):
    """A file arrives: a saved run configuration restores its view; a data file is stored and inspected.

    The column pickers are filled from :func:`datasets.inspect_upload`; nothing is used until
    "Use this data". Every bad file gets the parser's message; the page keeps working.
    """
    try:
        content = decode_contents(contents)
        if (filename or "").lower().endswith(".json"):
            search = read_configuration(content)
            return (no_update, f"Restored the run configuration of {filename}.", "message", no_update,
                    *[no_update] * 8, search, False)
        table = datasets.inspect_upload(content, filename or "upload")
        sha256 = uploads.put(content)
    except Exception as error:  # a bad file is a message, never a broken page
        return _upload_failure(error)
    options = [{"label": name, "value": index} for index, name in enumerate(table.columns)]
    numeric = [index for index, kind in enumerate(table.kinds) if kind != "text"]
    text = [index for index, kind in enumerate(table.kinds) if kind == "text"]
    header = "with a header" if table.has_header else "no header"
    return ({"sha256": sha256, "filename": table.filename}, f"{table.filename}: {table.n_rows} rows, "
            f"{len(table.columns)} columns ({header}). Choose the columns, then Use this data.", "message",
            {"display": "block"}, options, numeric, options, text[0] if text else None,
            [option for option in options if option["value"] in numeric], None,
            [{"label": name, "value": name} for name in table.arrays], table.array, no_update, no_update)


def use_upload(uploads, _clicks, inspected, columns, color_column, truth_columns, drop, array, n_neighbors):
    """Parse the uploaded file with the chosen columns; on success it becomes this session's data set."""
    if not inspected:
        return no_update, no_update, "Upload a file first.", "message error"
    upload = {**inspected, **upload_options(columns, color_column, truth_columns, "drop" in (drop or []), array)}
    try:
        data = load_upload(uploads, upload, n_neighbors)
    except Exception as error:  # e.g. NaN rows, duplicates, a single column: the parser says which
        return no_update, no_update, failure_message(error), "message error"
    notes = " ".join(data.params["warnings"])
    dropped = data.params["dropped_rows"]
    chosen = {**upload, "n": data.X.shape[0], "dim": data.X.shape[1], "truth_labels": list(data.truth_labels)}
    message = (f"Using {upload['filename']}: {data.X.shape[0]} points in {data.X.shape[1]} dimensions"
               + (f" ({dropped} rows with NaN or infinite values dropped)" if dropped else "") + ". " + notes)
    return chosen, UPLOAD, message.strip(), "message warning" if notes else "message"


def export_run(results, _points_clicks, _config_clicks, run, search):
    """Download the explore run: every point with every local measure (CSV), or its configuration (JSON)."""
    if not run:
        return no_update
    if ctx.triggered_id == ids.EXPORT_CONFIG:
        text, filename = configuration_json(run["request"], decode_state(search))
        return dcc.send_string(text, filename)
    result = cached_run(results, run)
    if result is None:  # evicted from the cache since it was drawn: nothing to write until it is run again
        return no_update
    text, filename = points_csv(result, run["request"], dict(LOCAL_COLORINGS))
    return dcc.send_string(text, filename)


def export_table(stem, csv_button, _csv_clicks, _json_clicks, stored):
    """Download a sweep's cells or a comparison's panels as CSV or JSON."""
    rows = stored if isinstance(stored, list) else (stored or {}).get("panels")
    if not rows:
        return no_update
    if ctx.triggered_id == csv_button:
        text, filename = table_csv(rows, SUMMARY_MEASURES, stem)
    else:
        text, filename = table_json(rows, stem)
    return dcc.send_string(text, filename)


def figure_configs(run, image_format):
    """Every graph's mode bar: the camera saves ``image_format`` under a name that says what it shows."""
    stem = f"procrustes-lab_{run_slug(run['request'])}" if run else "procrustes-lab"
    return [{"displaylogo": False, "toImageButtonOptions": {"format": image_format, "filename": f"{stem}_{view}",
                                                             "scale": 2 if image_format == "png" else 1}}
            for _, view in FIGURES]


def register_file_callbacks(app, results, uploads):
    """Wire the upload box, the download buttons and the figures' image names to ``app``."""
    app.callback(Output(ids.DATASET, "options"), Input(ids.UPLOAD_STORE, "data"))(dataset_menu)
    app.callback(
        Output(ids.UPLOAD_FILE, "data"),
        Output(ids.UPLOAD_MESSAGE, "children"),
        Output(ids.UPLOAD_MESSAGE, "className"),
        Output(ids.UPLOAD_PICKERS, "style"),
        Output(ids.UPLOAD_COLUMNS, "options"),
        Output(ids.UPLOAD_COLUMNS, "value"),
        Output(ids.UPLOAD_COLOR, "options"),
        Output(ids.UPLOAD_COLOR, "value"),
        Output(ids.UPLOAD_TRUTH, "options"),
        Output(ids.UPLOAD_TRUTH, "value"),
        Output(ids.UPLOAD_ARRAY, "options"),
        Output(ids.UPLOAD_ARRAY, "value"),
        Output(ids.URL, "search", allow_duplicate=True),
        Output(ids.LINK_APPLIED, "data", allow_duplicate=True),
        Input(ids.UPLOAD, "contents"),
        State(ids.UPLOAD, "filename"),
        prevent_initial_call=True,
    )(functools.partial(receive_upload, uploads))
    app.callback(
        Output(ids.UPLOAD_STORE, "data"),
        Output(ids.DATASET, "value", allow_duplicate=True),
        Output(ids.UPLOAD_MESSAGE, "children", allow_duplicate=True),
        Output(ids.UPLOAD_MESSAGE, "className", allow_duplicate=True),
        Input(ids.UPLOAD_USE, "n_clicks"),
        State(ids.UPLOAD_FILE, "data"),
        State(ids.UPLOAD_COLUMNS, "value"),
        State(ids.UPLOAD_COLOR, "value"),
        State(ids.UPLOAD_TRUTH, "value"),
        State(ids.UPLOAD_DROP, "value"),
        State(ids.UPLOAD_ARRAY, "value"),
        State(ids.ALGORITHM_NEIGHBORS, "value"),
        prevent_initial_call=True,
    )(functools.partial(use_upload, uploads))
    app.callback(
        Output(ids.DOWNLOAD, "data"),
        Input(ids.EXPORT_POINTS, "n_clicks"),
        Input(ids.EXPORT_CONFIG, "n_clicks"),
        State(ids.RESULT_REQUEST, "data"),
        State(ids.URL, "search"),
        prevent_initial_call=True,
    )(functools.partial(export_run, results))
    for csv_button, json_button, store, stem in (
            (ids.EXPORT_SWEEP_CSV, ids.EXPORT_SWEEP_JSON, ids.SWEEP_STORE, "sweep"),
            (ids.EXPORT_COMPARE_CSV, ids.EXPORT_COMPARE_JSON, ids.COMPARE_STORE, "comparison")):
        app.callback(
            Output(ids.DOWNLOAD, "data", allow_duplicate=True),
            Input(csv_button, "n_clicks"),
            Input(json_button, "n_clicks"),
            State(store, "data"),
            prevent_initial_call=True,
        )(functools.partial(export_table, stem, csv_button))
    app.callback(
        *[Output(graph, "config") for graph, _ in FIGURES],
        Input(ids.RESULT_REQUEST, "data"),
        Input(ids.FIGURE_FORMAT, "value"),
    )(figure_configs)
