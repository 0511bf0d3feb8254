"""Browser tests of judging an embedding made elsewhere: a point set and its UMAP output (computed here with
umap-learn, outside the app) uploaded as two files, or as columns of one, or handed over from a notebook;
the page's R_N card and per-point values equal ``measures`` on the same arrays.

Run with ``python -m pytest --headless``.
"""

import numpy as np
import pytest
import umap  # umap-learn, pinned in requirements.txt with the UMAP algorithm (issue 14)

import datasets
import measures
from components import ids
from notebook import notebook_app

from .test_app_browser import (
    WAIT,
    browser_array,
    carried,
    card_mean,
    severe_logs,
    wait_for_output_title,
)
from .test_pairs_browser import start_job
from .test_upload_browser import open_upload_panel, upload_file

K = 10


@pytest.fixture(scope="module")
def roll_and_umap():
    """500 swiss-roll points and UMAP's embedding of them, made outside the app."""
    X = datasets.load("swissroll", 500, random_state=4).X
    Y = umap.UMAP(n_neighbors=15, random_state=0).fit_transform(X).astype(np.float64)
    return X, Y


def write_table(path, points, header):
    path.write_text(",".join(header) + "\n" + "".join(",".join(repr(float(v)) for v in row) + "\n" for row in points))
    return path


def upload_output_file(dash_duo, path):
    dash_duo.find_element(f"#{ids.UPLOAD_OUTPUT}").find_element("css selector", "input[type=file]").send_keys(str(path))


def assert_page_measures(dash_duo, X, Y):
    """The R_N and R_C cards, and every point's local R_N the output view is coloured by, are measures' values."""
    wait_for_output_title(dash_duo, "Output: your uploaded output, k = 10 (as uploaded)")
    rn, per_point = measures.procrustes(X, Y, K, per_point=True)
    assert card_mean(dash_duo, "normalized") == pytest.approx(rn, rel=5e-4)
    assert card_mean(dash_duo, "conformal") == pytest.approx(measures.procrustes(X, Y, K, variant="conformal"),
                                                             rel=5e-4)
    assert card_mean(dash_duo, "trustworthiness") == pytest.approx(measures.trustworthiness(X, Y, K), rel=5e-4)
    np.testing.assert_array_equal(browser_array(dash_duo, ids.OUTPUT_GRAPH, "data[0].marker.color"),
                                  carried(per_point))
    np.testing.assert_array_equal(browser_array(dash_duo, ids.OUTPUT_GRAPH, "data[0].x"), carried(Y[:, 0]))


def test_a_point_set_and_its_umap_output_in_two_files_are_judged_as_measures_judges_them(dash_duo, tmp_path, mouse_at,
                                                                                        roll_and_umap):
    X, Y = roll_and_umap
    points = write_table(tmp_path / "roll.csv", X, ["x", "y", "z"])
    output = write_table(tmp_path / "umap.csv", Y, ["umap1", "umap2"])
    open_upload_panel(dash_duo, tmp_path)
    upload_file(dash_duo, points)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "roll.csv: 500 rows", timeout=WAIT)
    upload_output_file(dash_duo, output)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_OUTPUT_MESSAGE}", "umap.csv: 500 rows, 2 numeric columns",
                                    timeout=WAIT)
    start_job(dash_duo, ids.UPLOAD_USE)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "With its 2-dimensional output (umap.csv)",
                                    timeout=WAIT)
    assert_page_measures(dash_duo, X, Y)
    # The inspector opens a point's neighbourhood of the uploaded output, with its local values.
    mouse_at(ids.OUTPUT_GRAPH, *Y[42], ("mousemove", "mousedown", "mouseup", "click"))
    dash_duo.wait_for_contains_text(f"#{ids.INSPECTOR_TEXT}", "input neighbours", timeout=WAIT)
    text = dash_duo.find_element(f"#{ids.INSPECTOR_TEXT}").text
    clicked = int(text.split()[1])
    _, per_point = measures.procrustes(X, Y, K, per_point=True)
    assert f"local R_N {per_point[clicked]:.4f}" in text
    assert "Your uploaded output (umap.csv)" in dash_duo.find_element(f"#{ids.ALGORITHM}").text
    assert "algorithm=uploaded" in dash_duo.driver.current_url
    assert severe_logs(dash_duo) == []


def test_an_output_of_other_rows_is_refused_and_output_columns_of_the_same_file_are_measured(dash_duo, tmp_path,
                                                                                           choose, roll_and_umap):
    X, Y = roll_and_umap
    points = write_table(tmp_path / "roll.csv", X, ["x", "y", "z"])
    short = write_table(tmp_path / "short.csv", Y[:-3], ["u", "v"])
    with pytest.raises(datasets.DatasetError) as expected:
        datasets.inspect_output(short.read_bytes(), "short.csv", n_rows=500)
    open_upload_panel(dash_duo, tmp_path)
    upload_file(dash_duo, points)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "roll.csv: 500 rows", timeout=WAIT)
    upload_output_file(dash_duo, short)
    dash_duo.wait_for_text_to_equal(f"#{ids.UPLOAD_OUTPUT_MESSAGE}", str(expected.value), timeout=WAIT)
    assert "The output file has 497 rows, but the input has 500 rows" in str(expected.value)

    # One file holding the points and their output: the output's columns are measured and set aside.
    both = write_table(tmp_path / "both.csv", np.c_[X, Y], ["x", "y", "z", "umap1", "umap2"])
    upload_file(dash_duo, both)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "both.csv: 500 rows, 5 columns", timeout=WAIT)
    choose(ids.UPLOAD_OUTPUT_COLUMNS, 3)
    choose(ids.UPLOAD_OUTPUT_COLUMNS, 4)
    start_job(dash_duo, ids.UPLOAD_USE)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "500 points in 3 dimensions. With its 2-dimensional "
                                    "output (columns 4, 5)", timeout=WAIT)
    assert_page_measures(dash_duo, X, Y)
    assert severe_logs(dash_duo) == []


def test_a_notebook_s_arrays_open_the_dashboard_on_their_output(dash_duo, tmp_path, roll_and_umap):
    X, Y = roll_and_umap
    dash_duo.start_server(notebook_app(X, Y, cache_dir=tmp_path)[1])
    assert_page_measures(dash_duo, X, Y)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "Input: your file notebook.npy, n = 500",
                                    timeout=WAIT)
    assert severe_logs(dash_duo) == []
