"""The upload box's decoding, without a browser."""

import doctest

import components.files
from tests.strategies import run_part


def test_doctests():
    assert doctest.testmod(components.files).failed == 0


def _with_parents(component, parent=None):
    """Every component of a layout tree with its parent."""
    yield component, parent
    children = getattr(component, "children", None)
    for child in children if isinstance(children, (list, tuple)) else [children]:
        if hasattr(child, "to_plotly_json"):
            yield from _with_parents(child, component)


def test_every_upload_box_refuses_a_large_file_with_the_parser_s_message():
    """The output box dropped files over 50 MB without a word while the data box named the limit (issue 20)."""
    from dash import dcc

    import datasets
    from components import ids
    from components.layout import make_layout

    boxes = {upload.id: parent for upload, parent in _with_parents(make_layout()) if isinstance(upload, dcc.Upload)}
    assert set(boxes) == {ids.UPLOAD, ids.UPLOAD_OUTPUT}
    messages = {ids.UPLOAD: ids.UPLOAD_MESSAGE, ids.UPLOAD_OUTPUT: ids.UPLOAD_OUTPUT_MESSAGE}
    for upload_id, wrapper in boxes.items():
        settings = wrapper.to_plotly_json()["props"]
        assert settings["data-max-bytes"] == str(datasets.UploadLimits().max_bytes)
        assert settings["data-too-large"] == datasets.upload.TOO_LARGE
        assert settings["data-message-id"] == messages[upload_id]


def shown_run_download(tmp_path, button, query):
    """``(services, record, download)``: the run of link ``query`` computed as the page's job does, then the
    explore download ``button`` (an id of components/ids.py) clicked under it."""
    from dash._callback_context import context_value
    from dash._utils import AttributeDict

    from components import ids
    from components.explore_job import compute_record
    from lab import from_query
    from serving.services import Services

    services = Services.in_directory(tmp_path)
    state = from_query(query).to_dict()
    record = compute_record(services, {"request": run_part(state), "nonce": "n"}, "session", lambda *args: None)
    token = context_value.set(AttributeDict(triggered_inputs=[{"prop_id": f"{button}.n_clicks", "value": 1}],
                                            updated_props={}))
    clicks = [1 if button == name else None for name in (ids.EXPORT_POINTS, ids.EXPORT_CONFIG, ids.EXPORT_REPORT)]
    try:
        return services, record, components.files.export_run(services, *clicks, record, state, "session")
    finally:
        context_value.reset(token)


def test_the_run_configuration_download_carries_the_shown_run_s_measures(tmp_path):
    """The Run configuration button writes every measure of the run shown, as the result cache holds it."""
    import json

    from components import ids
    from lab import RunRequest

    services, record, download = shown_run_download(tmp_path, ids.EXPORT_CONFIG,
                                                    "?dataset=swissroll&n=300&k=8&algorithm=pca")
    saved = json.loads(download["content"])["measures"]
    result = services.results.get(RunRequest.from_dict(record["request"]))
    assert {name: [saved[name]["mean"], saved[name]["median"]] for name in saved} == record["summary"]
    assert saved["continuity"]["per_point"]["max"] == result.local["continuity"].max()


def test_the_report_download_is_the_shown_run_s_report_in_the_view_s_colouring(tmp_path):
    """The Report button writes :func:`components.report.run_report` of the run shown, opened on the view's colour."""
    from components import ids
    from components.report import run_report
    from lab import RunRequest

    services, record, download = shown_run_download(tmp_path, ids.EXPORT_REPORT,
                                                    "?dataset=swissroll&n=300&k=8&algorithm=pca&color=truth-1")
    request = RunRequest.from_dict(record["request"])
    assert download["filename"] == "procrustes-lab_swissroll_n300_pca_k8_report.html"
    assert download["content"] == run_report(request, services.results.get(request), color="truth-1")
    assert '<option value="truth-1" selected>' in download["content"]
