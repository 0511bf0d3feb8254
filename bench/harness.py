"""What every benchmark shares: the row format, the way a work item is timed and traced, the table.

A benchmark module in ``bench/`` exposes ``rows(quick=False) -> list[Row]`` and stays runnable on
its own (``python bench/<name>.py`` prints :func:`format_table` of its rows); ``python -m bench``
runs the modules of :data:`bench.__main__.SUITES` and prints one table of all their rows.

Timing and memory
-----------------
:func:`measure` calls a work item once under :mod:`tracemalloc`, then times it. The traced call
gives the item's peak memory: the largest amount allocated during the call beyond what existed
before it (the inputs do not count). numpy registers its array buffers with tracemalloc, so this
covers the arrays of numpy, scipy and scikit-learn; it does not see memory that compiled code
takes with ``malloc`` directly (OpenBLAS's fixed per-thread buffers, a few Cython structures such
as t-SNE's Barnes-Hut tree). Tracing slows Python-level code two to three times, so that call
doubles as the warm-up and is never timed. Baselines are timed with :func:`time_call` (medians,
no warm-up, no tracing).

Ratios read ``baseline seconds / our seconds``: above 1, ours is faster. A *paper-reported*
baseline was not measured on this machine: it is a time (or bound: ``<``, ``>``, ``~``) that the
paper gives for its own hardware and implementation, and its ratio is only an order of magnitude.

Nothing here asserts a time (STYLE: speed lives in bench/, tests never assert it).
"""

import argparse
import contextlib
import dataclasses
import os
import pathlib
import statistics
import subprocess
import tempfile
import time
import tracemalloc

__all__ = ["MEASURED", "PAPER_REPORTED", "SLOW_SECONDS", "Row", "SuiteSkipped", "Timing", "checkouts", "format_table",
           "measure", "run_standalone", "time_call"]

ROOT = pathlib.Path(__file__).resolve().parents[1]

SLOW_SECONDS = 5.0  # a work item whose first timed run takes longer is timed once (keeps the run short)
MEASURED = "measured"
PAPER_REPORTED = "paper-reported"


class SuiteSkipped(RuntimeError):
    """Raised by a suite's ``rows()`` that cannot run here (an optional package missing); the message says why."""


@dataclasses.dataclass(frozen=True)
class Timing:
    """The outcome of :func:`measure` or :func:`time_call`.

    Attributes
    ----------
    seconds : float
        Median of the timed runs.
    minimum : float
        Fastest timed run.
    runs : int
        Number of timed runs.
    peak_mib : float or None
        Peak traced memory of the untimed first call, in MiB (None from :func:`time_call`).
    result : object
        What the last call returned.
    """

    seconds: float
    minimum: float
    runs: int
    peak_mib: float | None
    result: object


@dataclasses.dataclass
class Row:
    """One work item's line of the benchmark table.

    Attributes
    ----------
    suite : str
        The benchmark module (``measures``, ``algorithms``, ...).
    item : str
        What was timed, in words.
    n : int or None
        Sample size.
    seconds : float
        Median time of the timed runs.
    runs : int
        Number of timed runs behind the median.
    peak_mib : float or None
        Peak traced memory of one call (see the module docstring).
    baseline : str or None
        What the item is compared with.
    baseline_seconds : float or None
        The baseline's median time (or the paper's figure, see ``baseline_source``).
    baseline_source : str
        ``"measured"`` (timed in the same run, on the same data) or ``"paper-reported"`` (not
        measured on this machine).
    baseline_relation : str
        ``"="`` for a measured time; for a paper's figure ``"<"``, ``">"`` or ``"~"`` when it is
        a bound or an order of magnitude.
    note : str
        Checks that make the time meaningful (agreement with the baseline, quality reached,
        warnings raised while timing, how a baseline was scaled).
    """

    suite: str
    item: str
    n: int | None
    seconds: float
    runs: int
    peak_mib: float | None
    baseline: str | None = None
    baseline_seconds: float | None = None
    baseline_source: str = MEASURED
    baseline_relation: str = "="
    note: str = ""

    @property
    def ratio(self):
        """``baseline_seconds / seconds`` (above 1: ours is faster), or None without a baseline."""
        if self.baseline_seconds is None or self.seconds <= 0:
            return None
        return self.baseline_seconds / self.seconds

    def to_dict(self):
        """The row as JSON-able data, ratio included."""
        return {**dataclasses.asdict(self), "ratio": self.ratio}

    @classmethod
    def from_timing(cls, suite, item, n, timing, baseline=None, baseline_timing=None, **fields):
        """A row from our :class:`Timing` and, optionally, a measured baseline's."""
        if baseline_timing is not None:
            fields["baseline_seconds"] = baseline_timing.seconds
        return cls(suite=suite, item=item, n=n, seconds=timing.seconds, runs=timing.runs,
                   peak_mib=timing.peak_mib, baseline=baseline, **fields)


@contextlib.contextmanager
def checkouts(baseline_commit, prefix):
    """A scratch directory and the roots to run: this checkout (``"ours"``) and ``baseline_commit`` checked out
    into a temporary git worktree there (``"baseline"``), removed afterwards."""
    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        old = pathlib.Path(scratch) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), baseline_commit], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            yield scratch, {"ours": ROOT, "baseline": old}
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, capture_output=True)


def time_call(function, repeats=3, slow_seconds=SLOW_SECONDS):
    """Median time of ``repeats`` calls of ``function()``; one call when the first exceeds ``slow_seconds``.

    Returns
    -------
    Timing
        With ``peak_mib`` None.
    """
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
        if times[0] > slow_seconds:
            break
    return Timing(statistics.median(times), min(times), len(times), None, result)


def measure(function, repeats=3, slow_seconds=SLOW_SECONDS):
    """Peak memory of one traced call of ``function()``, then :func:`time_call`.

    Parameters
    ----------
    function : callable
        The work item, without arguments; its inputs are made before (they are not counted).
    repeats : int
        Timed calls after the traced one.
    slow_seconds : float
        A first timed call longer than this is the only one.

    Returns
    -------
    Timing
    """
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    # Only what the call allocates counts: the peak is reset, and the memory already held subtracted.
    tracemalloc.reset_peak()
    before, _ = tracemalloc.get_traced_memory()
    function()
    _, peak = tracemalloc.get_traced_memory()
    if not was_tracing:
        tracemalloc.stop()
    timing = time_call(function, repeats, slow_seconds)
    return dataclasses.replace(timing, peak_mib=(peak - before) / 2**20)


def _seconds_text(seconds):
    if seconds is None:
        return "-"
    if seconds >= 100:
        return f"{seconds:.0f}"
    if seconds >= 1:
        return f"{seconds:.2f}"
    return f"{seconds:.4f}"


def _ratio_text(row):
    """``3.2x`` (ours faster), ``1/45x`` (ours 45 times the baseline's time), with a paper bound's relation."""
    ratio = row.ratio
    if ratio is None:
        return "-"
    relation = "" if row.baseline_relation == "=" else row.baseline_relation

    def number(value):
        return f"{value:.0f}" if value >= 100 else f"{value:.3g}"

    return f"{relation}{number(ratio)}x" if ratio >= 1 else f"{relation}1/{number(1 / ratio)}x"


def format_table(rows, title=None):
    """The rows as one plain-text table, notes numbered beneath it.

    Parameters
    ----------
    rows : list of Row
    title : str, optional
        A first line.

    Returns
    -------
    str
    """
    headers = ("suite", "work item", "n", "runs", "median s", "peak MiB", "baseline", "baseline s",
               "base/ours", "note")
    lines, notes = [], []
    for row in rows:
        note_mark = ""
        if row.note:
            notes.append(row.note)
            note_mark = f"[{len(notes)}]"
        baseline = row.baseline or "-"
        if row.baseline and row.baseline_source == PAPER_REPORTED:
            baseline += " (paper-reported*)"
        baseline_seconds = _seconds_text(row.baseline_seconds)
        if row.baseline_seconds is not None and row.baseline_relation != "=":
            baseline_seconds = row.baseline_relation + baseline_seconds
        lines.append((row.suite, row.item, "-" if row.n is None else f"{row.n}", str(row.runs),
                      _seconds_text(row.seconds), "-" if row.peak_mib is None else f"{row.peak_mib:.1f}",
                      baseline, baseline_seconds, _ratio_text(row), note_mark))
    widths = [max(len(header), *(len(line[i]) for line in lines)) if lines else len(header)
              for i, header in enumerate(headers)]
    right = {2, 3, 4, 5, 7, 8}  # numeric columns

    def render(cells):
        return "  ".join(cell.rjust(width) if i in right else cell.ljust(width)
                         for i, (cell, width) in enumerate(zip(cells, widths))).rstrip()

    out = [title] if title else []
    out += [render(headers), "-" * len(render(headers))]
    out += [render(line) for line in lines]
    out.append("")
    out.append("median s: median of the timed runs (runs); peak MiB: tracemalloc peak of one untimed call; "
               "base/ours: baseline s / median s (above 1: ours faster; 1/N: ours takes N times the baseline).")
    if any(row.baseline_source == PAPER_REPORTED for row in rows):
        out.append("* paper-reported: a figure from the paper, for its own hardware and code, NOT measured on "
                   "this machine; its ratio is an order of magnitude only.")
    if notes:
        out.append("")
        out += [f"[{i}] {note}" for i, note in enumerate(notes, 1)]
    return "\n".join(out)


def run_standalone(rows, title, quick_help, argv=None):
    """``python bench/<suite>.py [--quick]``: print the suite's table, or why it was skipped.

    Parameters
    ----------
    rows : callable
        The suite's ``rows(quick=False)``.
    title : str
        The table's title (and the command's description); the machine's CPU count and load
        average at the start follow it (times on a shared machine need them).
    quick_help : str
        What ``--quick`` leaves out.
    """
    parser = argparse.ArgumentParser(description=title)
    parser.add_argument("--quick", action="store_true", help=quick_help)
    args = parser.parse_args(argv)
    title = (f"{title}; {os.cpu_count()} CPU(s), load average "
             f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} at start")
    try:
        table = rows(quick=args.quick)
    except SuiteSkipped as skipped:
        print(f"{title}: skipped: {skipped}")
        return
    print(format_table(table, title=title))
