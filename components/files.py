"""Files in and out: the upload box (data, or a saved view) and every download button.

Plain functions wired by :func:`register`; parsing is :func:`datasets.inspect_upload` /
:func:`datasets.parse_upload`, writing is :mod:`lab.view.exports`. Uploaded bytes go to this browser
session's part of the upload store (:class:`lab.UploadStore`), never anywhere else.
"""

import base64
import binascii
import functools
import secrets

import flask
from dash import Input, Output, State, ctx, dcc, no_update, set_props

import datasets
import measures
from lab import CompareRequest, RunRequest, SweepRequest, ViewState, failure_message
from lab.compute import catalogue
from lab.compute.runs import parse_uploaded
from lab.compute.studies import stored_sweep
from lab.compute.yardsticks import cached_yardsticks
from lab.view.exports import comparison_files, points_csv, read_view_file, sweep_files, view_json
from lab.view.state import stored_state

from . import ids
from .panel import algorithm_options, dataset_options
from .report import report_name, run_report
from .state_sync import upload_ref

__all__ = ["client_address", "decode_contents", "register"]

MALFORMED_CONTENTS = "The browser sent the file in an unexpected form: upload it again."


def decode_contents(contents):
    """The bytes of a ``dcc.Upload`` ``contents`` value (``"data:<type>;base64,<data>"``).

    Raises
    ------
    DatasetError
        When ``contents`` is not such a string.

    Examples
    --------
    >>> decode_contents("data:text/csv;base64,MSwyCjMsNAo=")
    b'1,2\\n3,4\\n'
    """
    header, separator, data = (contents if isinstance(contents, str) else "").partition(",")
    if not separator or not header.startswith("data:") or not header.endswith(";base64"):
        raise datasets.DatasetError(MALFORMED_CONTENTS)
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise datasets.DatasetError(MALFORMED_CONTENTS) from None


def client_address():
    """The address the request came from (the client's, when the server is told its proxies: README), or None.

    Uploads are charged to it as well as to the page's session string, which a client chooses.
    """
    return flask.request.remote_addr if flask.has_request_context() else None


def dataset_menu(upload):
    """The data-set menu: the catalogue, and this session's uploaded file once one is chosen."""
    if not upload:  # the layout's catalogue stands; new options would make the menu re-announce its value
        return no_update
    if not (isinstance(upload, dict) and isinstance(upload.get("filename"), str)):  # not a record the page wrote
        return no_update
    return dataset_options(upload)


_PICKERS = ("columns", "color", "truth", "metadata", "array")


def _pickers_hidden(message):
    """Outputs of :func:`receive_upload` for a file that cannot be read: the message, pickers hidden."""
    return {"inspected": None, "message": message, "message_class": "message error",
            "pickers": {"display": "none"}, **{name: ([], None) for name in _PICKERS}, "apply": no_update}


def receive_upload(services, contents, filename, session, state):
    """A file arrives: a saved view restores itself; a data file is kept for this session and inspected.

    The column pickers are filled from :func:`datasets.inspect_upload`; nothing is used until
    "Use this data". Every bad file gets the parser's message; the page keeps working.
    """
    try:
        with services.uploads.reading():
            return _receive(services, contents, filename, session, state)
    except Exception as error:  # a bad file, or a busy server, is a message, never a broken page
        return _pickers_hidden(failure_message(error))


def _receive(services, contents, filename, session, state):
    """:func:`receive_upload`'s work, in a reading turn; raises for a bad file."""
    content = decode_contents(contents)
    if (filename or "").lower().endswith(".json"):
        current = ViewState.from_dict(state) if state else None
        restored = read_view_file(content, upload=current.data.upload if current else None)
        return {"inspected": no_update, "pickers": no_update, **{name: (no_update, no_update) for name in _PICKERS},
                "message": f"Restored the view saved in {filename}.", "message_class": "message",
                "apply": {"state": restored.to_dict(), "message": f"Restored the view saved in {filename}.",
                          "nonce": secrets.token_hex(8)}}
    table = datasets.inspect_upload(content, filename or "upload")
    sha256 = services.uploads.for_session(session, client_address()).put(content)
    options = [{"label": name, "value": index} for index, name in enumerate(table.columns)]
    numeric, text = list(table.number_columns), table.text_columns
    header = "with a header" if table.has_header else "no header"
    return {"inspected": {"sha256": sha256, "filename": table.filename, "n_rows": table.n_rows},
            "message": f"{table.filename}: {table.n_rows} rows, {len(table.columns)} columns ({header}). Choose the "
                       "columns, then Use this data.", "message_class": "message", "pickers": {"display": "block"},
            "columns": (options, numeric), "color": (options, text[0] if text else None),
            "truth": ([options[index] for index in numeric], None), "metadata": (options, None),
            "array": ([{"label": name, "value": name} for name in table.arrays], table.array), "apply": no_update}


def _output_choice(output_columns, output_inspected, output_file_columns):
    """The output part of an upload record: columns of the input's file, a second file, or None."""
    if output_inspected:
        return {"columns": sorted(output_file_columns) if output_file_columns else None,
                "sha256": output_inspected["sha256"], "filename": output_inspected["filename"],
                "array": output_inspected.get("array")}
    if output_columns:
        return {"columns": sorted(output_columns), "sha256": None, "filename": None, "array": None}
    return None


def use_upload(services, _clicks, inspected, columns, color_column, truth_columns, drop, array, n_neighbors, state,
               session, output_columns=None, output_inspected=None, output_file_columns=None, metadata_columns=None):
    """Parse the uploaded file with the chosen columns (and output); on success it becomes this session's data set.

    The output's columns of the same file and the metadata columns are set aside from the chosen
    coordinates; with an output file, its rows must match the input's (the parser's message says otherwise).
    """
    if not inspected:
        return no_update, no_update, "Upload a file first.", "message error"
    set_aside = set(metadata_columns or []) | (set(output_columns or []) if not output_inspected else set())
    options = {"columns": sorted(set(columns) - set_aside) if columns else None, "color_column": color_column,
               "truth_columns": list(truth_columns) if truth_columns else None,
               "metadata_columns": list(metadata_columns) if metadata_columns else None,
               "drop_nonfinite": "drop" in (drop or []), "array": array}
    chosen = {**inspected, **options, "output": _output_choice(output_columns, output_inspected, output_file_columns)}
    try:
        uploads = services.uploads.for_session(session)
        if output_columns and output_inspected:  # both: the parser's own message says to choose one
            datasets.parse_upload(uploads.read(upload_ref(chosen)), chosen["filename"], output_columns=output_columns,
                                  output=datasets.OutputFile(b"", output_inspected["filename"]), **options)
        with services.uploads.reading():
            data = parse_uploaded(upload_ref(chosen), uploads, n_neighbors)
        current = ViewState.from_dict(state) if state else ViewState().validated()
        applied = current.with_dataset(catalogue.UPLOAD, upload_ref(chosen)).validated()
    except Exception as error:  # e.g. NaN rows, duplicates, a single column: the parser says which
        return no_update, no_update, failure_message(error), "message error"
    notes = " ".join(data.upload.warnings)
    dropped = data.upload.dropped_rows
    record = {**chosen, "n": data.X.shape[0], "dim": data.X.shape[1], "truth_labels": list(data.truth_labels)}
    message = (f"Using {chosen['filename']}: {data.X.shape[0]} points in {data.X.shape[1]} dimensions"
               + (f" ({dropped} rows with NaN or infinite values dropped)" if dropped else "") + ". "
               + (f"With its {data.Y.shape[1]}-dimensional output ({upload_ref(chosen).output.describe()}), "
                  "measured as uploaded. " if data.Y is not None else "") + notes)
    return (record, {"state": applied.to_dict(), "message": "", "nonce": secrets.token_hex(8)}, message.strip(),
            "message warning" if notes else "message")


def receive_output(services, contents, filename, session, inspected):
    """The output's own file arrives: checked against the input's rows, kept for this session, its columns offered."""
    if not inspected or "n_rows" not in inspected:
        return None, "Upload the input file first, then its output.", "message error", []
    try:
        content = decode_contents(contents)
        table = datasets.inspect_output(content, filename or "output", n_rows=inspected["n_rows"])
        sha256 = services.uploads.for_session(session, client_address()).put(content)
    except Exception as error:  # a bad output file is a message (e.g. a row count that is not the input's)
        return None, failure_message(error), "message error", []
    options = [{"label": table.columns[index], "value": index} for index in table.number_columns]
    message = (f"{table.filename}: {table.n_rows} rows, {len(table.number_columns)} numeric columns, the output of "
               f"{inspected['filename']}. Use this data to measure it.")
    return {"sha256": sha256, "filename": table.filename, "array": table.array}, message, "message", options


def forget_output(_inspected):
    """A new input file: its output's columns are among its own, and a previous output file no longer applies."""
    return None, "", []


def algorithm_menus(upload):
    """The algorithm menus (explore, run B, the sweep): the registry, and this session's uploaded output if any.

    A sweep of the uploaded output measures it at each k; the comparison runs algorithms only.
    """
    if not upload:  # the layout's catalogue stands; new options would make the menu re-announce its value
        return no_update, no_update, no_update
    options = algorithm_options(upload)
    return options, options, algorithm_options(upload, kinds=False)


def _shown_view(shown, state):
    """The view of the run shown: its data and method, with the current display and tabs."""
    current, shown_run = ViewState.from_dict(state), RunRequest.from_dict(shown.get("request"))
    return current.replace(data=shown_run.data, method=shown_run.method)


def _refused(message, error):
    """No download; the refusal (another session's file, an unreadable store) in the tab's ``message``."""
    set_props(message, {"children": failure_message(error), "className": "message error"})
    return no_update


def export_run(services, _points_clicks, _config_clicks, _report_clicks, shown, state, session):
    """Download the shown run: every point with every local measure (CSV), its view and measures (JSON), or
    its offline report in the current colouring (HTML, :func:`components.report.run_report`)."""
    if not isinstance(shown, dict) or shown.get("status") != "done" or not state:
        return no_update
    try:
        view = _shown_view(shown, state)
        request = RunRequest.from_state(view)
        services.uploads.authorized(session, request)
        result = services.results.get(request)
        if ctx.triggered_id == ids.EXPORT_CONFIG:  # a run that left the cache still saves its view, without measures
            return dcc.send_string(*view_json(view, request, result))
    except measures.ProcrustesLabError as error:
        return _refused(ids.MESSAGE, error)
    if result is None:  # left the cache since it was drawn: nothing to write until it is run again
        return no_update
    if ctx.triggered_id == ids.EXPORT_REPORT:  # with the run's yardsticks when the page computed them
        return dcc.send_string(run_report(request, result, color=view.display.color,
                                          yardsticks=cached_yardsticks(services.results, request)),
                               report_name(request))
    return dcc.send_string(*points_csv(view, request, result))


def export_sweep(_csv_clicks, _json_clicks, stored):
    """Download the sweep shown: one row per algorithm and k, with its view state (CSV or JSON)."""
    if not stored:
        return no_update
    try:
        result, state = stored_sweep(stored), stored_state(stored)
    except measures.ProcrustesLabError as error:
        return _refused(ids.SWEEP_MESSAGE, error)
    files = sweep_files(state, SweepRequest.from_state(state), result)
    return dcc.send_string(*files["csv" if ctx.triggered_id == ids.EXPORT_SWEEP_CSV else "json"])


def export_comparison(services, _csv_clicks, _json_clicks, stored, session):
    """Download the comparison shown: one row per algorithm, with its view state (CSV or JSON)."""
    if not stored:
        return no_update
    try:
        state = stored_state(stored)
        request = CompareRequest.from_state(state)
        services.uploads.authorized(session, request)
        result = services.results.get(request)
    except measures.ProcrustesLabError as error:
        return _refused(ids.COMPARE_MESSAGE, error)
    if result is None:
        return no_update
    files = comparison_files(state, request, result)
    return dcc.send_string(*files["csv" if ctx.triggered_id == ids.EXPORT_COMPARE_CSV else "json"])


def register(app, services):
    """Wire the upload box, the download buttons and the figures' image names to ``app``."""
    session = State(ids.SESSION, "data")
    app.callback(Output(ids.DATASET, "options"), Input(ids.UPLOAD_STORE, "data"))(dataset_menu)
    app.callback(Output(ids.ALGORITHM, "options"), Output(ids.PAIR_ALGORITHM, "options"),
                 Output(ids.SWEEP_ALGORITHMS, "options"), Input(ids.UPLOAD_STORE, "data"))(algorithm_menus)
    app.callback(Output(ids.UPLOAD_OUTPUT_INSPECTED, "data"), Output(ids.UPLOAD_OUTPUT_MESSAGE, "children"),
                 Output(ids.UPLOAD_OUTPUT_MESSAGE, "className"), Output(ids.UPLOAD_OUTPUT_FILE_COLUMNS, "options"),
                 Input(ids.UPLOAD_OUTPUT, "contents"), State(ids.UPLOAD_OUTPUT, "filename"), session,
                 State(ids.UPLOAD_FILE, "data"), prevent_initial_call=True)(functools.partial(receive_output, services))
    app.callback(Output(ids.UPLOAD_OUTPUT_INSPECTED, "data", allow_duplicate=True),
                 Output(ids.UPLOAD_OUTPUT_MESSAGE, "children", allow_duplicate=True),
                 Output(ids.UPLOAD_OUTPUT_FILE_COLUMNS, "options", allow_duplicate=True),
                 Input(ids.UPLOAD_FILE, "data"), prevent_initial_call=True)(forget_output)
    app.callback(Output(ids.UPLOAD_OUTPUT_COLUMNS, "options"), Output(ids.UPLOAD_OUTPUT_COLUMNS, "value"),
                 Input(ids.UPLOAD_COLUMNS, "options"), prevent_initial_call=True)(lambda options: (options, None))
    app.callback(
        output=dict(inspected=Output(ids.UPLOAD_FILE, "data"), message=Output(ids.UPLOAD_MESSAGE, "children"),
                    message_class=Output(ids.UPLOAD_MESSAGE, "className"),
                    pickers=Output(ids.UPLOAD_PICKERS, "style"),
                    columns=(Output(ids.UPLOAD_COLUMNS, "options"), Output(ids.UPLOAD_COLUMNS, "value")),
                    color=(Output(ids.UPLOAD_COLOR, "options"), Output(ids.UPLOAD_COLOR, "value")),
                    truth=(Output(ids.UPLOAD_TRUTH, "options"), Output(ids.UPLOAD_TRUTH, "value")),
                    metadata=(Output(ids.UPLOAD_METADATA, "options"), Output(ids.UPLOAD_METADATA, "value")),
                    array=(Output(ids.UPLOAD_ARRAY, "options"), Output(ids.UPLOAD_ARRAY, "value")),
                    apply=Output(ids.APPLY_STATE, "data", allow_duplicate=True)),
        inputs=dict(contents=Input(ids.UPLOAD, "contents"), filename=State(ids.UPLOAD, "filename"), session=session,
                    state=State(ids.VIEW_STATE, "data")),
        prevent_initial_call=True,
    )(functools.partial(receive_upload, services))
    app.callback(
        Output(ids.UPLOAD_STORE, "data"),
        Output(ids.APPLY_STATE, "data", allow_duplicate=True),
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
        State(ids.VIEW_STATE, "data"),
        session,
        State(ids.UPLOAD_OUTPUT_COLUMNS, "value"),
        State(ids.UPLOAD_OUTPUT_INSPECTED, "data"),
        State(ids.UPLOAD_OUTPUT_FILE_COLUMNS, "value"),
        State(ids.UPLOAD_METADATA, "value"),
        prevent_initial_call=True,
    )(functools.partial(use_upload, services))
    app.callback(Output(ids.DOWNLOAD, "data"), Input(ids.EXPORT_POINTS, "n_clicks"),
                 Input(ids.EXPORT_CONFIG, "n_clicks"), Input(ids.EXPORT_REPORT, "n_clicks"),
                 State(ids.RUN_SHOWN, "data"), State(ids.VIEW_STATE, "data"), session,
                 prevent_initial_call=True)(functools.partial(export_run, services))
    app.callback(Output(ids.DOWNLOAD, "data", allow_duplicate=True), Input(ids.EXPORT_SWEEP_CSV, "n_clicks"),
                 Input(ids.EXPORT_SWEEP_JSON, "n_clicks"), State(ids.SWEEP_STORE, "data"),
                 prevent_initial_call=True)(export_sweep)
    app.callback(Output(ids.DOWNLOAD, "data", allow_duplicate=True), Input(ids.EXPORT_COMPARE_CSV, "n_clicks"),
                 Input(ids.EXPORT_COMPARE_JSON, "n_clicks"), State(ids.COMPARE_STORE, "data"), session,
                 prevent_initial_call=True)(functools.partial(export_comparison, services))
