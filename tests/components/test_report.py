"""The offline HTML report of an explore run (components/report.py): its numbers, its arrays, its size."""

import base64
import html.parser
import json

import numpy as np
import pytest

import measures
from components.report import REPORT_CAP, report_name, run_report, write_report
from lab import RunRequest, YardstickRequest
from lab.compute import catalogue, compute
from lab.compute.runs import RunResult, display_indices

MAX_REPORT_BYTES = 25 * 2**20


class _Document(html.parser.HTMLParser):
    """Every tag's attributes, and the text of each element with an id (scripts included: the JSON blocks)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.texts, self._open = [], {}, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._open.append(dict(attrs).get("id"))
        if self._open[-1] is not None:
            self.texts[self._open[-1]] = ""

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for element in self._open:
            if element is not None:
                self.texts[element] += data


def block(document, element_id):
    return json.loads(document.texts[element_id])


def decoded(values, dtype):
    """A column of an embedded figure: Plotly's typed-array spec (``bdata``), as numpy."""
    assert isinstance(values, dict) and values["dtype"] == np.dtype(dtype).str[1:].replace("<", ""), values
    return np.frombuffer(base64.b64decode(values["bdata"]), dtype=dtype)


@pytest.fixture(scope="module")
def small_run():
    request = RunRequest.create("swissroll", "isomap", n=400, n_neighbors=10)
    return request, compute(request, cache=None).result


def synthetic_result(n_samples, random_state=0):
    """A run's result with every local measure and two truth columns over ``n_samples`` points (random values):
    the largest report a run of that size writes, without computing one."""
    rng = np.random.default_rng(random_state)
    local = {name: rng.random(n_samples) for name, _ in catalogue.LOCAL_MEASURES}
    summary = {name: (float(values.mean()), float(np.median(values))) for name, values in local.items()}
    X = rng.normal(size=(n_samples, 3))
    return RunResult(X=X, Y=rng.normal(size=(n_samples, 2)), drawn_X=X, input_axes=("x₁", "x₂", "x₃"),
                     truth=rng.random((n_samples, 2)), truth_labels=("u", "v"), local=local, summary=summary,
                     landmarks=None, image_shape=None, notes=("a note of the run.",), seconds=1.5)


def test_the_report_holds_every_measure_of_the_run_exactly_with_its_label_and_direction(small_run):
    request, result = small_run
    document = _Document(run_report(request, result))
    record = block(document, "report-measures")
    assert list(record["measures"]) == list(result.summary)
    for name, (mean, median) in result.summary.items():
        entry = record["measures"][name]
        assert (entry["mean"], entry["median"]) == (mean, median), name
        assert entry["label"] == measures.spec(name).label
        assert entry["direction"] == {True: "↑ better", False: "↓ better", None: ""}[
            measures.spec(name).higher_is_better]
    # The table a reader sees: one row per measure, the label and the mean to four significant digits.
    table = document.texts["report-measures-table"]
    assert f"{measures.spec('normalized').label}↓ better{result.summary['normalized'][0]:.4g}" in table
    assert record["request"] == request.to_dict() and record["n_samples"] == 400
    assert set(record["packages"]) >= {"numpy", "scipy", "scikit-learn", "plotly"} and record["code_version"]
    assert json.loads(document.texts["report-provenance"])["request"] == request.to_dict()


def test_the_report_holds_the_runs_best_values_and_with_its_yardsticks_their_random_values(small_run):
    request, result = small_run
    plain = block(_Document(run_report(request, result)), "report-measures")["measures"]
    assert plain["normalized"]["best"] == result.summary["lower_bound"][0]  # the floor, GR Lemma 1
    assert plain["trustworthiness"]["best"] == 1.0 and plain["stress"]["best"] is None
    assert all(entry["random"] is None for entry in plain.values())
    sticks, _ = compute(YardstickRequest(request), cache=None)
    document = _Document(run_report(request, result, yardsticks=sticks))
    placed = block(document, "report-measures")["measures"]
    assert {name: entry["random"] for name, entry in placed.items() if entry["random"] is not None} == \
        pytest.approx(sticks.random, nan_ok=True)
    assert f"{sticks.random['trustworthiness']:.4g}" in document.texts["report-measures-table"]


def test_the_report_loads_nothing_from_anywhere(small_run):
    """No src or href, no link or style-sheet import: the two inline scripts (Plotly's, the linking) run, and
    the JSON blocks are data. Plotly's own source mentions map attributions' addresses inside its script."""
    text = run_report(*small_run)
    document = _Document(text)
    for tag, attributes in document.tags:
        assert tag not in {"link", "iframe", "img", "object", "embed", "base"}, tag
        assert not {"src", "href", "srcset", "action"} & set(attributes), (tag, attributes)
    scripts = [attributes for tag, attributes in document.tags if tag == "script"]
    assert [attributes.get("type") for attributes in scripts] == ["application/json"] * 2 + [None] * 3
    style = text[text.index("<style>"):text.index("</style>")]
    assert "url(" not in style and "@import" not in style
    # Plotly's JavaScript is there once, inline.
    assert text.count("plotly.js v") == 1


def test_the_views_are_the_page_s_figures_with_float32_arrays_and_every_colouring_embedded_once(small_run):
    request, result = small_run
    data = block(_Document(run_report(request, result)), "report-data")
    figures = data["figures"]
    assert figures["input"]["data"][0]["type"] == "scatter3d" and figures["output"]["data"][0]["type"] == "scattergl"
    np.testing.assert_array_equal(decoded(figures["output"]["data"][0]["x"], "<f4"), result.Y[:, 0].astype(np.float32))
    np.testing.assert_array_equal(decoded(figures["input"]["data"][0]["z"], "<f4"),
                                  result.drawn_X[:, 2].astype(np.float32))
    assert figures["output"]["layout"]["title"]["text"].startswith("Output: Isomap, k = 10")
    offered = [key for key, _ in catalogue.color_choices(result.truth_labels)
               if key.startswith("truth-") or key in result.local]
    assert list(data["colorings"]) == offered and len(offered) == len(result.local) + result.truth.shape[1]
    for name, values in result.local.items():
        for view in ("input", "output"):
            np.testing.assert_array_equal(decoded(data["colorings"][name][view]["marker"]["color"], "<f4"),
                                          values.astype(np.float32))
    np.testing.assert_array_equal(decoded(data["colorings"]["truth-1"]["output"]["marker"]["color"], "<f4"),
                                  result.truth[:, 1].astype(np.float32))
    # The first colouring shown is local R_N, the page's default; another is chosen by name.
    shown = figures["output"]["data"][0]["marker"]["color"]
    assert shown == data["colorings"]["normalized"]["output"]["marker"]["color"]
    chosen = block(_Document(run_report(request, result, color="truth-0")), "report-data")
    assert chosen["figures"]["input"]["data"][0]["marker"] == chosen["colorings"]["truth-0"]["input"]["marker"]


def test_a_100_000_point_run_is_drawn_whole_in_the_output_and_stays_under_25_mb():
    request = RunRequest.create("swissroll", "pca", n=100_000, n_neighbors=10)
    result = synthetic_result(100_000)
    text = run_report(request, result)
    assert len(text.encode("utf-8")) < MAX_REPORT_BYTES
    document = _Document(text)
    output = block(document, "report-data")["figures"]["output"]["data"][0]
    assert len(decoded(output["y"], "<f4")) == 100_000 and "customdata" not in output
    # The 3-D input view draws the page's level of detail, and says so; every measure is over every point.
    record = block(document, "report-measures")
    assert [note for note in record["notes"] if "output view" in note] == []
    assert any(f"The input view draws {catalogue.DISPLAY_CAP_3D:,} of the 100,000 points" in note
               for note in record["notes"])
    assert record["notes"][0] == "a note of the run."
    assert {name: (entry["mean"], entry["median"]) for name, entry in record["measures"].items()} == result.summary


def test_above_the_cap_both_views_draw_the_same_seeded_subsample_and_the_report_says_so():
    n_samples = REPORT_CAP + 20_000
    request = RunRequest.create("swissroll", "pca", n=n_samples, n_neighbors=10)
    result = synthetic_result(n_samples)
    text = run_report(request, result)
    assert text == run_report(request, result)  # seeded: the same file twice
    document = _Document(text)
    output = block(document, "report-data")["figures"]["output"]["data"][0]
    rows = display_indices(n_samples, cap=REPORT_CAP)
    np.testing.assert_array_equal(decoded(output["customdata"], "<i4"), rows)
    np.testing.assert_array_equal(decoded(output["x"], "<f4"), result.Y[rows, 0].astype(np.float32))
    note = f"The output view draws {REPORT_CAP:,} of the {n_samples:,} points (a seeded random subsample"
    assert any(entry.startswith(note) for entry in block(document, "report-measures")["notes"])
    assert note in document.texts["report-notes"]
    assert len(text.encode("utf-8")) < MAX_REPORT_BYTES


def test_write_report_writes_the_text_and_names_the_file_after_the_run(small_run, tmp_path):
    request, result = small_run
    path = write_report(tmp_path / report_name(request), request, result)
    assert path.name == "procrustes-lab_swissroll_n400_isomap_k10_report.html"
    assert path.read_text(encoding="utf-8") == run_report(request, result)


def test_text_that_would_end_a_script_element_stays_inside_the_json_block():
    import dataclasses

    request = RunRequest.create("swissroll", "pca", n=300, n_neighbors=10)
    note = "a note </script><script>alert(1)</script> <!-- with markup"
    result = dataclasses.replace(synthetic_result(300), notes=(note,))
    text = run_report(request, result)
    document = _Document(text)
    assert block(document, "report-measures")["notes"][0] == note
    assert [tag for tag, _ in document.tags].count("script") == 5  # the two blocks and the three scripts
    assert note in document.texts["report-notes"]  # shown as text, escaped
