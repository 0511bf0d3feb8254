"""The benchmark harness: what a row's memory figure counts, the table, the suite runner's skips."""

import numpy as np
import pytest

from bench.__main__ import run_suite
from bench.harness import PAPER_REPORTED, Row, Timing, format_table, measure, time_call


def test_peak_memory_counts_what_the_call_allocates_not_its_inputs():
    held = np.ones(4 * 2**20 // 8)  # 4 MiB made before the call: not counted
    timing = measure(lambda: np.ones(16 * 2**20 // 8).sum() + held.sum(), repeats=1)
    assert 15.5 <= timing.peak_mib <= 17.0
    assert timing.runs == 1


def test_a_slow_first_run_is_the_only_one():
    calls = []
    timing = time_call(lambda: calls.append(1), repeats=3, slow_seconds=-1.0)
    assert timing.runs == 1 and len(calls) == 1
    assert time_call(lambda: calls.append(1), repeats=3).runs == 3


def test_ratio_is_baseline_over_ours_and_paper_rows_are_labelled():
    timing = Timing(seconds=2.0, minimum=2.0, runs=3, peak_mib=1.0, result=None)
    measured = Row.from_timing("suite", "item", 10, timing, baseline="loop",
                               baseline_timing=Timing(8.0, 8.0, 3, None, None))
    paper = Row.from_timing("suite", "item", 10, timing, baseline="GR 2009", baseline_seconds=3600.0,
                            baseline_source=PAPER_REPORTED, baseline_relation=">", note="a quotation")
    assert measured.ratio == pytest.approx(4.0)
    assert paper.to_dict()["ratio"] == pytest.approx(1800.0)
    table = format_table([measured, paper])
    assert "4x" in table and ">1800x" in table
    assert "GR 2009 (paper-reported*)" in table and "NOT measured on this machine" in table
    assert "[1] a quotation" in table


def test_runner_skips_a_listed_suite_that_is_absent():
    rows, status = run_suite("no_such_suite", quick=True)
    assert rows == [] and status == {"status": "skipped", "reason": "bench/no_such_suite.py does not exist"}
