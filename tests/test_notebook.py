"""notebook.py without a browser: the offline report of the run the page opens on (notebook.write_report)."""

import json

import numpy as np
import pytest

import datasets
import measures
from lab import RunRequest
from lab.compute import catalogue
from lab.store.cache import host_results
from notebook import write_report


def report_record(path):
    """The measures block of a report file (components/report.py's #report-measures)."""
    text = path.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="report-measures">')
    return json.loads(text[text.index(">", start) + 1:text.index("</script>", start)])


def test_the_report_of_arrays_holds_their_measures_and_the_run_is_kept_for_show(tmp_path):
    data = datasets.load("swissroll", 300, random_state=1)
    Y = data.truth * [1.0, 0.7]
    path = write_report(tmp_path / "mine.html", data.X, Y, n_neighbors=8, cache_dir=tmp_path, color="continuity")
    assert path == tmp_path / "mine.html"
    record = report_record(path)
    evaluation = measures.evaluate(data.X, Y, 8)
    for name in ("normalized", "trustworthiness", "continuity"):
        assert record["measures"][name]["mean"] == pytest.approx(evaluation.mean[name], rel=1e-12), name
    assert record["request"]["method"]["algorithm"] == catalogue.UPLOADED_OUTPUT and record["n_samples"] == 300
    assert '<option value="continuity" selected>' in path.read_text(encoding="utf-8")
    # The run is in the directory's result cache: show(..., cache_dir=tmp_path) opens it without computing.
    assert host_results(tmp_path).holds(RunRequest.from_dict(record["request"]))


def test_arrays_the_upload_parser_refuses_write_no_file(tmp_path):
    X = np.zeros((50, 3))
    with pytest.raises(measures.DatasetError):
        write_report(tmp_path / "bad.html", X, cache_dir=tmp_path)
    assert not (tmp_path / "bad.html").exists()
