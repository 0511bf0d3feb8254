"""Browser tests of bringing one's own data: upload, column choice, bad files, a saved configuration.

Run with ``python -m pytest --headless``. Files go through the page's file input as a user's do;
the expected messages come from ``datasets.parse_upload`` itself, so page and API say the same.
"""

import re

import numpy as np
import pytest

import algorithms
import datasets
import measures
from app import create_app
from components import ids
from lab import DataChoice, MethodChoice, RunRequest, ViewState
from lab.view.exports import view_json

from .test_app_browser import WAIT, card_mean, carried, severe_logs, wait_for_output_title


def upload_file(dash_duo, path):
    dash_duo.find_element(f"#{ids.UPLOAD}").find_element("css selector", "input[type=file]").send_keys(str(path))


def open_upload_panel(dash_duo, tmp_path):
    dash_duo.start_server(create_app(tmp_path / "cache"))
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    dash_duo.find_element(".upload summary").click()


def api_message(content, filename, **options):
    with pytest.raises(datasets.DatasetError) as raised:
        datasets.parse_upload(content, filename, **options)
    return str(raised.value)


def test_an_uploaded_table_is_embedded_and_measured_like_its_points(dash_duo, tmp_path):
    data = datasets.load("swissroll", 400)
    labels = np.where(data.truth[:, 0] > np.median(data.truth[:, 0]), "outer", "inner")
    path = tmp_path / "my roll.csv"
    path.write_text("x,y,z,part\n" + "".join(f"{x!r},{y!r},{z!r},{label}\n"
                                              for (x, y, z), label in zip(data.X.tolist(), labels)))
    open_upload_panel(dash_duo, tmp_path)
    upload_file(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "my roll.csv: 400 rows, 4 columns (with a header)",
                                    timeout=WAIT)
    dash_duo.find_element(f"#{ids.UPLOAD_USE}").click()
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "Using my roll.csv: 400 points in 3 dimensions",
                                    timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "Input: your file my roll.csv, n = 400",
                                    timeout=WAIT)
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    assert card_mean(dash_duo, "normalized") == pytest.approx(measures.procrustes(data.X, Y, 10), abs=6e-5)
    assert "Your file: my roll.csv" in dash_duo.find_element(f"#{ids.DATASET}").text
    assert severe_logs(dash_duo) == []


# In a browser: a binary file, a pickled array (refused unread) and a message that comes only at "Use
# this data"; the parser's every other message (Latin-1 text, a ragged row, a single column, ...) is
# checked without a browser (tests/datasets/test_upload.py), each browser round costing about 30 s of CI.
BAD_FILES = [
    ("garbage.bin", bytes(range(256)) * 4, "inspect"),
    ("objects.npy", None, "inspect"),
    ("nan.csv", b"x,y,z\n1,2,3\nnan,5,6\n7,8,9\n1,5,2\n3,3,1\n", "use"),
]


def test_bad_files_get_the_parser_s_messages_and_the_app_keeps_working(dash_duo, tmp_path, choose):
    """One session meets each bad file in turn (a browser session costs ~15 s of CI): each gets the
    parser's message, the page keeps the run it had, and the next run still comes."""
    open_upload_panel(dash_duo, tmp_path)
    for (name, content, when), (algorithm, label) in zip(BAD_FILES, (("pca", "PCA"), ("ltsa", "LTSA"),
                                                                      ("isomap", "Isomap"))):
        path = tmp_path / name
        if content is None:  # a pickled object array: refused without being unpickled
            np.save(path, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
            content = path.read_bytes()
        else:
            path.write_bytes(content)
        expected = api_message(content, name) if when == "inspect" else api_message(content, name, n_neighbors=10)
        shown = card_mean(dash_duo, "normalized")
        upload_file(dash_duo, path)
        if when == "use":
            dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "Use this data", timeout=WAIT)
            dash_duo.find_element(f"#{ids.UPLOAD_USE}").click()
        dash_duo.wait_for_text_to_equal(f"#{ids.UPLOAD_MESSAGE}", expected, timeout=WAIT)
        # The page still serves the run it had, and a new one.
        assert card_mean(dash_duo, "normalized") == shown, name
        choose(ids.ALGORITHM, algorithm)
        wait_for_output_title(dash_duo, f"{label}, k = 10")
        assert severe_logs(dash_duo) == [], name


def test_a_saved_view_restores_the_run_in_a_fresh_session(dash_duo, tmp_path):
    state = ViewState(data=DataChoice("strip", n=500, params=(("length", 3.0),)),
                      method=MethodChoice("ltsa", 12)).validated()
    text, filename = view_json(state, RunRequest.from_state(state))
    path = tmp_path / filename
    path.write_text(text)
    open_upload_panel(dash_duo, tmp_path)
    upload_file(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", f"Restored the view saved in {filename}",
                                    timeout=WAIT)
    wait_for_output_title(dash_duo, "LTSA, k = 12")
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "Strip", timeout=WAIT)
    data = datasets.load("strip", 500, length=3.0)
    Y = algorithms.embed("ltsa", data.X, n_neighbors=12)
    assert card_mean(dash_duo, "normalized") == pytest.approx(measures.procrustes(data.X, Y, 12), abs=6e-5)
    assert dash_duo.find_element(f"#{ids.DATASET_SIZE}").get_attribute("value") == "500"
    assert "d.length=3.0" in dash_duo.driver.current_url and "algorithm=ltsa" in dash_duo.driver.current_url
    assert severe_logs(dash_duo) == []


def test_a_data_or_output_file_above_the_size_limit_is_refused_with_the_parser_s_message(dash_duo, tmp_path):
    """dcc.Upload drops such a file silently; the page must say why nothing happened, in either box."""
    limit = datasets.UploadLimits().max_bytes
    path = tmp_path / "huge.csv"
    with open(path, "wb") as output:
        output.truncate(limit + 5 * 2**20)  # 55 MB: above the limit
    open_upload_panel(dash_duo, tmp_path)
    upload_file(dash_duo, path)
    expected = datasets.upload.TOO_LARGE.format(size_mb=f"{path.stat().st_size / 2**20:.1f}",
                                                limit_mb=format(limit / 2**20, ".3g"))
    dash_duo.wait_for_text_to_equal(f"#{ids.UPLOAD_MESSAGE}", expected, timeout=WAIT)

    # The output's own box dropped such a file without a word (issue 20); it says what the data box says.
    points = tmp_path / "points.csv"
    points.write_text("x,y,z\n" + "".join(f"{i},{i * i % 7},{i % 5}\n" for i in range(60)))
    upload_file(dash_duo, points)  # the output's box shows once its input is read
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "points.csv: 60 rows", timeout=WAIT)
    dash_duo.find_element(f"#{ids.UPLOAD_OUTPUT}").find_element("css selector", "input[type=file]").send_keys(str(path))
    dash_duo.wait_for_text_to_equal(f"#{ids.UPLOAD_OUTPUT_MESSAGE}", expected, timeout=WAIT)
    assert severe_logs(dash_duo) == []


def test_a_search_of_uploaded_metadata_and_a_measure_filter_mark_the_same_rows_in_both_views_and_survive_a_link(
        dash_duo, tmp_path, choose, mouse_at):
    """Issue 23: a name column (text) and a year column (numbers) carried as metadata; a search by prefix joined to
    an R_N filter, then a numeric range, marks the rows the library's numbers say, in both views; the link opens
    them again."""
    from dash.testing.wait import until
    from selenium.webdriver.common.keys import Keys

    from .test_explore_browser import marked, marked_count, sorted_rows

    data = datasets.load("swissroll", 400)
    names = np.where(np.arange(400) % 3 == 0, "Alpha-", "beta-").astype(object) + np.arange(400).astype(str)
    years = 1990 + np.arange(400) % 20
    path = tmp_path / "catalogue.csv"
    parts = np.where(data.truth[:, 0] > np.median(data.truth[:, 0]), "outer", "inner")  # the colour / label column
    path.write_text("x,y,z,part,name,year\n" + "".join(
        f"{x!r},{y!r},{z!r},{part},{name},{year}\n" for (x, y, z), part, name, year
        in zip(data.X.tolist(), parts, names, years)))
    open_upload_panel(dash_duo, tmp_path)
    upload_file(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "catalogue.csv: 400 rows, 6 columns", timeout=WAIT)
    choose(ids.UPLOAD_METADATA, 4)
    choose(ids.UPLOAD_METADATA, 5)
    dash_duo.find_element(f"#{ids.UPLOAD_USE}").click()
    # The year is metadata, not a coordinate: three dimensions.
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "Using catalogue.csv: 400 points in 3 dimensions",
                                    timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "your file catalogue.csv", timeout=WAIT)
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    _, local = measures.procrustes(data.X, Y, 10, per_point=True)
    threshold = float(np.round(np.median(local), 4))
    X_drawn, Y_drawn = carried(data.X), carried(Y)  # as the views draw them (16-bit fixed point)

    def marks_rows(rows):
        until(lambda: marked_count(dash_duo, ids.OUTPUT_GRAPH) == len(rows), timeout=WAIT)
        np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.OUTPUT_GRAPH, "xy")), sorted_rows(Y_drawn[rows]))
        np.testing.assert_array_equal(sorted_rows(marked(dash_duo, ids.INPUT_GRAPH, "xyz")), sorted_rows(X_drawn[rows]))

    # A hovered point shows its metadata, from the run's own columns.
    def hovered():
        label = dash_duo.driver.execute_script(
            f"const l = document.querySelector('#{ids.OUTPUT_GRAPH} .hoverlayer .hovertext');"
            "return l ? l.textContent : '';")
        return label if label.startswith("point ") else None

    mouse_at(ids.OUTPUT_GRAPH, *Y[42])
    label = until(hovered, timeout=WAIT)
    row = int(re.match(r"point (\d+)", label).group(1))  # the label's lines run together in its text
    assert f"name: {names[row]} · year: {years[row]}" in label, label

    box = dash_duo.find_element(f"#{ids.FIND}")
    query = f"name starts with alpha and R_N > {threshold}"
    box.send_keys(query + "\n")
    found = np.flatnonzero((np.arange(400) % 3 == 0) & (local > threshold))
    assert 10 < len(found) < 200
    dash_duo.wait_for_contains_text(f"#{ids.FIND_TEXT}", f"{len(found)} points selected", timeout=WAIT)
    marks_rows(found)

    # A numeric range of the year column.
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("year >= 1995 and year < 1998\n")
    in_range = np.flatnonzero((years >= 1995) & (years < 1998))
    dash_duo.wait_for_contains_text(f"#{ids.FIND_TEXT}", f"{len(in_range)} points selected", timeout=WAIT)
    marks_rows(in_range)

    # The first query's link, opened again in this tab (its session keeps the file): the same rows marked.
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(query + "\n")
    dash_duo.wait_for_contains_text(f"#{ids.FIND_TEXT}", f"{len(found)} points selected", timeout=WAIT)
    until(lambda: "find=name" in dash_duo.driver.current_url, timeout=WAIT)
    link = dash_duo.driver.current_url
    dash_duo.driver.get("about:blank")
    dash_duo.wait_for_page(link, timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.FIND_TEXT}", f"{len(found)} points selected", timeout=WAIT)
    marks_rows(found)
    assert dash_duo.find_element(f"#{ids.FIND}").get_attribute("value") == query
    assert severe_logs(dash_duo) == []
