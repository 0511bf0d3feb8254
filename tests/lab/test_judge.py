"""``python -m lab evaluate``: embeddings made elsewhere, judged from their files (issue 23)."""

import csv
import io
import json
import subprocess
import sys

import numpy as np
import pytest

import algorithms
import datasets
import measures
from lab import ResultCache, RunRequest, YardstickRequest
from lab.compute import compute
from lab.compute.commands import main
from lab.compute.runs import run_measures

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
OUTPUTS = ("isomap", "ltsa", "pca", "laplacian", "lle")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A 400-point roll with its truth in two columns, and a folder of five embeddings of it and one bad file."""
    folder = tmp_path_factory.mktemp("judge")
    data = datasets.load("swissroll", 400)
    np.savetxt(folder / "roll.csv", np.column_stack([data.X, data.truth]), delimiter=",", header="x,y,z,t1,t2",
               comments="")
    (folder / "outputs").mkdir()
    for name in OUTPUTS:
        np.savetxt(folder / "outputs" / f"{name}.csv", algorithms.embed(name, data.X, n_neighbors=10), delimiter=",")
    (folder / "outputs" / "short.csv").write_text("1,2\n3,4\n")
    return folder


def judged(argv):
    out = io.StringIO()
    status = main(argv, stdout=out)
    return status, out.getvalue()


def test_a_folder_of_five_embeddings_gets_the_values_of_measures_evaluate_and_a_bad_file_its_message(files, capsys):
    status, text = judged(["evaluate", str(files / "roll.csv"), str(files / "outputs"), "-k", "10", "--truth", "t1,t2"])
    assert status == 1  # one file refused, the others judged
    rows = {row["output"]: row for row in csv.DictReader(io.StringIO(text))}
    assert set(rows) == {f"{name}.csv" for name in OUTPUTS} | {"short.csv"}
    assert "has 2 rows, but the input has 400 rows" in rows["short.csv"]["error"]
    assert "short.csv: The output file has 2 rows" in capsys.readouterr().err
    table = np.loadtxt(files / "roll.csv", delimiter=",", skiprows=1)
    X, truth = table[:, :3], table[:, 3:]
    for name in OUTPUTS:
        Y = np.loadtxt(files / "outputs" / f"{name}.csv", delimiter=",")
        data = datasets.parse_upload((files / "roll.csv").read_bytes(), "roll.csv", truth_columns=["t1", "t2"],
                                     output=datasets.OutputFile((files / "outputs" / f"{name}.csv").read_bytes(),
                                                                "y.csv"))
        which, labels = run_measures(data, data.Y)
        expected = measures.evaluate(X, Y, 10, truth=truth, which=which, labels=labels)
        row = rows[f"{name}.csv"]
        assert row["error"] == "" and int(row["k"]) == 10
        for measure in expected.measures:  # exactly: the CSV holds each float's repr
            assert float(row[measure]) == pytest.approx(expected.mean[measure], rel=0, abs=0, nan_ok=True), measure
        assert "truth_match" in expected.measures and "collapse" in expected.measures


def test_json_holds_the_same_values_as_csv(files):
    arguments = ["evaluate", str(files / "roll.csv"), str(files / "outputs" / "isomap.csv"), "-k", "10",
                 "--measures", "normalized,trustworthiness"]
    status, text = judged(arguments)
    (csv_row,) = csv.DictReader(io.StringIO(text))
    status_json, text_json = judged([*arguments, "--format", "json"])
    (json_row,) = json.loads(text_json)
    assert status == status_json == 0
    assert set(json_row) == {"output", "error", "k", "normalized", "normalized median", "trustworthiness",
                             "trustworthiness median", "notes"}
    assert all(float(csv_row[key]) == json_row[key] for key in ("normalized", "trustworthiness"))


@pytest.mark.parametrize("arguments, says", [
    (["-k", "10", "--measures", "normalised"], "unknown measure normalised"),
    ([], "-k/--n-neighbors"),
    (["-k", "10", "--truth", "t1"], None),  # accepted: a one-column truth (its measures' notes say why not)
])
def test_usage_errors_exit_2_naming_the_fault(files, capsys, arguments, says):
    argv = ["evaluate", str(files / "roll.csv"), str(files / "outputs" / "pca.csv"), *arguments]
    if says is None:
        status, text = judged(argv)
        (row,) = csv.DictReader(io.StringIO(text))
        assert status == 0 and "collapse score not computed: the collapse score needs a truth of >= 2" in row["notes"]
        return
    with pytest.raises(SystemExit) as stopped:
        judged(argv)
    assert stopped.value.code == 2 and says in capsys.readouterr().err


def test_the_command_line_runs_as_python_m_lab_and_names_a_missing_file_without_its_folder(files):
    done = subprocess.run([sys.executable, "-m", "lab", "evaluate", str(files / "roll.csv"),
                           str(files / "missing.csv"), "-k", "10"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2 and "'missing.csv'" in done.stderr and str(files) not in done.stderr


# ------------------------------------------------------------------ python -m lab run


def test_a_run_is_computed_into_the_page_s_cache_with_the_page_s_numbers_and_read_back_the_second_time(tmp_path,
                                                                                                     capsys):
    argv = ["run", "strip", "ltsa", "-k", "8", "--n", "300", "--data-param", "length=3", "--cache-dir", str(tmp_path)]
    status, text = judged(argv)
    assert status == 0, capsys.readouterr().err
    row = next(csv.DictReader(io.StringIO(text)))
    request = RunRequest.create("strip", "ltsa", n=300, n_neighbors=8, dataset_params={"length": 3.0})
    expected = compute(request, cache=None).result
    assert (row["dataset"], row["algorithm"], row["k"], row["n"], row["cached"]) == ("strip", "ltsa", "8", "300",
                                                                                      "False")
    for name, (mean, median) in expected.summary.items():  # the page's run, exactly (floats written by repr)
        assert float(row[name]) == mean or (mean is None and row[name] == "nan"), name
        if median is not None:
            assert float(row[f"{name} median"]) == median, name
    # The page's own result cache holds it now: the page opens it at once, and a second call reads it.
    assert ResultCache(tmp_path / "results").holds(request)
    err = capsys.readouterr().err
    assert "computed into the result cache" in err and "measuring" in err  # the progress, on standard error
    status, text = judged([*argv, "--format", "json"])
    assert status == 0 and json.loads(text)[0]["cached"] is True


@pytest.mark.parametrize("arguments, says", [
    (["--n", "1000000000"], "n must lie in"),
    (["--data-param", "length=-4"], "length"),
    (["--algorithm-param", "nonsense"], "NAME=VALUE"),
])
def test_a_bad_value_exits_1_with_the_page_s_message_and_no_traceback(tmp_path, capsys, arguments, says):
    status, text = judged(["run", "strip", "pca", "-k", "8", "--cache-dir", str(tmp_path), *arguments])
    err = capsys.readouterr().err
    assert status == 1 and text == "" and says in err and "Traceback" not in err
    assert str(tmp_path) not in err  # no server path in a message


def test_an_unknown_algorithm_exits_1_naming_the_available_ones(tmp_path, capsys):
    assert judged(["run", "strip", "umapp", "-k", "8", "--cache-dir", str(tmp_path)])[0] == 1
    assert "isomap" in capsys.readouterr().err


def _report_measures(path):
    """The measures block of a report file (components/report.py's #report-measures)."""
    text = path.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="report-measures">')
    return json.loads(text[text.index(">", start) + 1:text.index("</script>", start)])


def test_run_report_writes_the_run_s_offline_report_with_the_row_s_numbers(tmp_path, capsys):
    from components.report import write_report

    path = tmp_path / "strip.html"
    argv = ["run", "strip", "pca", "-k", "8", "--n", "300", "--cache-dir", str(tmp_path), "--report", str(path)]
    out = io.StringIO()
    assert main(argv, stdout=out, write_report=write_report) == 0, capsys.readouterr().err
    row = next(csv.DictReader(io.StringIO(out.getvalue())))
    record = _report_measures(path)
    assert record["request"] == RunRequest.create("strip", "pca", n=300, n_neighbors=8).to_dict()
    for name, entry in record["measures"].items():  # the report's numbers are the row's, exactly
        assert entry["mean"] == float(row[name]) or (entry["mean"] is None and row[name] == "nan"), name
    assert f"report written to {path}" in capsys.readouterr().err


def test_run_report_without_a_writer_is_a_usage_error_and_an_unwritable_file_exits_1(tmp_path, capsys):
    from components.report import write_report

    argv = ["run", "strip", "pca", "-k", "8", "--n", "300", "--cache-dir", str(tmp_path)]
    with pytest.raises(SystemExit) as stopped:  # the library's main draws nothing with plotly by itself
        main([*argv, "--report", str(tmp_path / "r.html")])
    assert stopped.value.code == 2 and "--report needs a report writer" in capsys.readouterr().err
    assert not (tmp_path / "results").exists()  # refused before anything is computed
    status = main([*argv, "--report", str(tmp_path / "missing" / "r.html")], stdout=io.StringIO(),
                  write_report=write_report)
    err = capsys.readouterr().err
    assert status == 1 and "cannot write the report" in err and "Traceback" not in err


def test_python_m_lab_run_report_writes_the_report_through_the_front_door(tmp_path):
    path = tmp_path / "roll.html"
    done = subprocess.run([sys.executable, "-m", "lab", "run", "swissroll", "pca", "-k", "10", "--n", "500",
                           "--cache-dir", str(tmp_path), "--report", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = _report_measures(path)
    assert record["n_samples"] == 500 and record["request"]["method"]["algorithm"] == "pca"
    assert record["measures"]["normalized"]["label"] == measures.spec("normalized").label


def test_evaluate_report_writes_each_judged_output_s_report_with_its_row_s_numbers_and_the_bad_file_none(
        files, tmp_path, capsys):
    """``evaluate --report DIR``: one offline report per judged output (the page's report of the same two
    files uploaded: "your file ..., your uploaded output"), whose measures are the row's, exactly; the
    refused file gets a row with its message and no report."""
    from components.report import write_report

    out = io.StringIO()
    np.save(tmp_path / "isomap.npy", np.loadtxt(files / "outputs" / "isomap.csv", delimiter=","))
    outputs = [str(files / "outputs" / name) for name in ("isomap.csv", "short.csv")] + [str(tmp_path / "isomap.npy")]
    argv = ["evaluate", str(files / "roll.csv"), *outputs, "-k", "10", "--truth", "t1,t2",
            "--report", str(tmp_path / "reports")]
    assert main(argv, stdout=out, write_report=write_report) == 1  # the short file is refused
    rows = {row["output"]: row for row in csv.DictReader(io.StringIO(out.getvalue()))}
    assert rows["isomap.csv"]["report"] == "isomap_report.html" and rows["short.csv"]["report"] == ""
    assert rows["isomap.npy"]["report"] == "isomap-2_report.html"  # one name, two files: a report each
    assert sorted(path.name for path in (tmp_path / "reports").iterdir()) == ["isomap-2_report.html",
                                                                              "isomap_report.html"]
    record = _report_measures(tmp_path / "reports" / "isomap_report.html")
    assert record["request"]["method"]["algorithm"] == "uploaded" and record["n_samples"] == 400
    upload = record["request"]["data"]["upload"]
    assert (upload["filename"], upload["truth_columns"], upload["output"]["filename"]) == ("roll.csv", [3, 4],
                                                                                           "isomap.csv")
    for name, entry in record["measures"].items():  # the report's numbers are the row's, exactly
        assert entry["mean"] == float(rows["isomap.csv"][name]) or (entry["mean"] is None
                                                                    and rows["isomap.csv"][name] == "nan"), name
    assert f"report written to {tmp_path / 'reports' / 'isomap_report.html'}" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:  # without a writer (the library's main): a usage error, at once
        main(argv)
    assert stopped.value.code == 2
    # --measures: the report holds the row's measures only.
    assert main([*argv[:3], "-k", "10", "--measures", "normalized,trustworthiness", "--report",
                 str(tmp_path / "chosen")], stdout=io.StringIO(), write_report=write_report) == 0
    assert set(_report_measures(tmp_path / "chosen" / "isomap_report.html")["measures"]) == {"normalized",
                                                                                              "trustworthiness"}


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_is_a_bar_redrawn_in_place_on_a_terminal_and_a_line_per_stage_in_a_file():
    from lab.compute.commands import PROGRESS_WIDTH, _progress

    reports = [(0.0, "loading the data"), (0.1, "searching the neighbours"), (0.4, "embedding with LTSA"),
               (0.4, "embedding with LTSA"), (1.0, "measuring: done")]
    terminal, log = _Terminal(), io.StringIO()
    for stream in (terminal, log):
        progress = _progress(stream)
        for fraction, stage in reports:
            progress(fraction, stage)
        progress.finish()
    # On a terminal: one line, each report drawn over the last after a carriage return, a newline at the end.
    drawn = terminal.getvalue()
    assert drawn.count("\n") == 1 and drawn.endswith("\n") and drawn.count("\r") == len(reports)
    frames = drawn.rstrip("\n").split("\r")[1:]
    assert frames[2].rstrip() == f"[{'#' * round(0.4 * PROGRESS_WIDTH)}{'.' * (PROGRESS_WIDTH - 12)}]  40.0 %  " \
                                 "embedding with LTSA"
    assert frames[-1].startswith("[" + "#" * PROGRESS_WIDTH + "] 100.0 %")
    # Each frame covers the longer one before it: no tail of "searching the neighbours" is left on the line.
    assert all(len(frame) >= len(before.rstrip()) for before, frame in zip(frames, frames[1:]))
    # In a file or a pipe: a plain line each time the stage changes, no carriage return.
    assert log.getvalue().splitlines() == ["  0.0 %  loading the data", " 10.0 %  searching the neighbours",
                                           " 40.0 %  embedding with LTSA", "100.0 %  measuring: done"]


def test_evaluate_yardsticks_are_measures_yardsticks_of_each_output(files):
    status, text = judged(["evaluate", str(files / "roll.csv"), str(files / "outputs" / "pca.csv"),
                           str(files / "outputs" / "isomap.csv"), "-k", "10", "--yardsticks"])
    assert status == 0
    rows = {row["output"]: row for row in csv.DictReader(io.StringIO(text))}
    X = np.loadtxt(files / "roll.csv", delimiter=",", skiprows=1)
    for name in ("pca", "isomap"):
        Y = np.loadtxt(files / "outputs" / f"{name}.csv", delimiter=",")
        row = rows[f"{name}.csv"]
        names = [measure for measure in measures.available() if measure in row]
        expected = measures.yardsticks(X, Y, 10, names)
        for measure, value in expected.random.items():
            assert float(row[f"{measure} random"]) == pytest.approx(value, rel=0, abs=0, nan_ok=True), measure
        assert float(row["normalized best"]) == float(row["lower_bound"])  # the floor, GR Lemma 1
        assert float(row["trustworthiness best"]) == 1.0 and "lower_bound random" not in row


def test_run_yardsticks_go_through_the_page_s_cache(tmp_path, capsys):
    argv = ["run", "swissroll", "pca", "-k", "8", "--n", "300", "--cache-dir", str(tmp_path), "--yardsticks"]
    status, text = judged(argv)
    assert status == 0, capsys.readouterr().err
    row = next(csv.DictReader(io.StringIO(text)))
    request = YardstickRequest(RunRequest.create("swissroll", "pca", n=300, n_neighbors=8))
    sticks, cached = compute(request, cache=ResultCache(tmp_path / "results"))
    assert cached  # the page's Yardsticks button then shows them at once
    assert {name: float(row[f"{name} random"]) for name in sticks.random} == pytest.approx(sticks.random, nan_ok=True)
    assert float(row["conformal best"]) == sticks.best["conformal"]
    too_many = ["run", "swissroll", "pca", "-k", "8", "--n", "10001", "--cache-dir", str(tmp_path), "--yardsticks"]
    assert judged(too_many)[0] == 1 and "at most 10,000 points" in capsys.readouterr().err
