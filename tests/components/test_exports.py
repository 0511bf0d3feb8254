"""Downloads and uploads without a browser: what is written reads back exactly."""

import csv
import doctest
import io
import json
import re

import numpy as np
import pytest

import algorithms
import components.uploads
import datasets
import measures
from components.exports import NOT_A_CONFIGURATION, configuration_json, points_csv, read_configuration, table_csv
from components.jobs import cache_key
from components.runs import LOCAL_MEASURES, SUMMARY_MEASURES, compute_run, make_request
from components.uploads import UPLOAD, UPLOAD_GONE, UploadStore, load_upload, upload_options
from components.urlstate import encode_state


def read_csv(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


@pytest.fixture(scope="module")
def run():
    request = make_request("swissroll", 200, 0.0, 0, {}, "isomap", 8, {})
    return request, compute_run(request)


def test_points_csv_holds_every_point_and_measure_at_full_precision(run):
    request, result = run
    text, filename = points_csv(result, request, dict(LOCAL_MEASURES))
    assert filename == "procrustes-lab_swissroll_isomap_k8_points.csv"
    header, rows = read_csv(text)
    assert header[:6] == ["point", "x1", "x2", "x3", "y1", "y2"]
    assert header[6:8] == ["truth: arc length", "truth: height"]
    table = np.array(rows, dtype=float)
    assert len(table) == 200
    np.testing.assert_array_equal(table[:, 1:4], result["X"])
    np.testing.assert_array_equal(table[:, 4:6], result["Y"])
    local_rn = table[:, header.index(dict(LOCAL_MEASURES)["normalized"])]
    np.testing.assert_array_equal(local_rn, result["local"]["normalized"])
    assert local_rn.mean() == pytest.approx(result["summary"]["normalized"][0], rel=1e-12)


def test_image_points_are_written_as_their_drawn_principal_components():
    request = make_request("digits", None, 0.0, 0, {}, "pca", 8, {})
    result = compute_run(request)
    header, rows = read_csv(points_csv(result, request, dict(LOCAL_MEASURES))[0])
    assert header[1:4] == ["PC1", "PC2", "PC3"] and len(rows) == result["X"].shape[0]


def test_a_configuration_reads_back_as_the_view_it_saved(run):
    request, _ = run
    view = {"dataset": "swissroll", "n": 200, "algorithm": "isomap", "k": 8, "d.stretch": 1.0, "noise": None}
    text, filename = configuration_json(request, view)
    assert filename.endswith("_run.json") and json.loads(text)["request"] == request
    assert read_configuration(text.encode()) == encode_state(view)


@pytest.mark.parametrize("content", [b"", b"\xff\xfe", b"[1, 2]", b'{"view": {"k": 8}}',
                                     b'{"format": "procrustes-lab-run/1", "view": {"k": [8]}}'])
def test_anything_else_is_not_a_configuration(content):
    with pytest.raises(measures.DatasetError) as raised:
        read_configuration(content)
    assert str(raised.value) == NOT_A_CONFIGURATION


def test_sweep_table_csv_has_mean_and_median_of_each_measure_and_the_failures():
    rows = [{"label": "Isomap", "k": 6, "summary": {"normalized": [0.1, 0.05]}, "seconds": 1.5},
            {"label": "LTSA", "k": 3, "error": "disconnected"}]
    header, body = read_csv(table_csv(rows, SUMMARY_MEASURES, "sweep")[0])
    assert header[:4] == ["algorithm", "k", "R_N mean", "R_N median"] and header[-1] == "error"
    assert body[0][:4] == ["Isomap", "6", "0.1", "0.05"] and body[1][-1] == "disconnected"


def test_upload_store_keeps_bytes_by_hash_and_says_when_they_are_gone(tmp_path):
    store = UploadStore(tmp_path)
    key = store.put(b"1,2\n3,4\n")
    assert key == datasets.upload_sha256(b"1,2\n3,4\n") and store.get(key) == b"1,2\n3,4\n"
    with pytest.raises(measures.DatasetError, match=re.escape(UPLOAD_GONE)):
        store.get("0" * 64)
    assert doctest.testmod(components.uploads).failed == 0


def test_an_uploaded_file_runs_like_its_points_and_its_content_is_in_the_key(tmp_path):
    data = datasets.load("swissroll", 300)
    content = "\n".join(",".join(repr(float(v)) for v in row) for row in data.X).encode()
    store = UploadStore(tmp_path)
    upload = {"sha256": store.put(content), "filename": "roll.csv", **upload_options(None, None, None, False, None)}
    request = make_request(UPLOAD, 1600, 0.5, 0, {"stretch": 2.0}, "isomap", 10, {}, upload=upload)
    assert (request["n"], request["noise"], request["dataset_params"]) == (None, 0.0, {})  # the file is the sample
    result = compute_run(request, uploads=store)
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    np.testing.assert_array_equal(result["X"], data.X)
    assert result["summary"]["normalized"][0] == pytest.approx(measures.procrustes(data.X, Y, 10), rel=1e-9)
    other = {**upload, "sha256": store.put(content + b"\n0,0,1")}
    assert cache_key(request) != cache_key(make_request(UPLOAD, None, 0.0, 0, {}, "isomap", 10, {}, upload=other))
    assert load_upload(store, upload).X.shape == (300, 3)
    with pytest.raises(measures.DatasetError, match="No uploaded file is chosen"):
        make_request(UPLOAD, None, 0.0, 0, {}, "isomap", 10, {})


def test_every_figure_saves_in_the_chosen_format_under_the_run_s_name(run):
    from components.file_callbacks import FIGURES, figure_configs

    request, _ = run
    configs = figure_configs({"request": request}, "svg")
    assert len(configs) == len(FIGURES)
    names = [config["toImageButtonOptions"]["filename"] for config in configs]
    assert names[:2] == ["procrustes-lab_swissroll_isomap_k8_input", "procrustes-lab_swissroll_isomap_k8_output"]
    assert {config["toImageButtonOptions"]["format"] for config in configs} == {"svg"}
    assert figure_configs(None, "png")[0]["toImageButtonOptions"] == {"format": "png", "filename": "procrustes-lab_input",
                                                                      "scale": 2}
