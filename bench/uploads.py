"""Benchmark of the upload reader: time against columns, and time and memory against rows.

Times :func:`datasets.inspect_upload` and :func:`datasets.parse_upload` against the same
functions of the reader as it was before the bounded, chunked one (``datasets/`` at commit
:data:`BASELINE_COMMIT`, extracted with ``git show`` into a temporary package and imported beside
today's), on the same bytes in the same run, so the ratio column (baseline seconds / ours) reads
independently of the machine:

- **columns**: a 3-row CSV of C numbered columns (C = 5 000 ... 40 000), read by
  ``inspect_upload`` and by ``parse_upload(columns=[every name])``, which resolves each name and
  refuses the table (more columns than rows) once the coordinates are stacked. The old reader
  looked each name up by a scan of all names and tested repeats against the list so far (time
  quadratic in C). Both readers here are given limits that let every C through; with the default
  ``UploadLimits`` ours refuses more than 10 000 columns on the first line (the last row: a
  CSV of 10^6 columns, issue 15, refused before any cell is split).
- **rows**: a CSV of ``x, y, z, label`` rows (n = 100 000 and 1 000 000) read by ``inspect_upload``,
  with each reader's peak traced memory (tracemalloc: numpy's buffers and Python's objects).
  The old reader split every cell of the file at once.

Each of ours is the median of 3 runs after one traced, untimed call (:func:`bench.harness.measure`);
baselines are timed by :func:`bench.harness.time_call`, and their peak memory, where noted, from
one traced call. A first timed run above ``SLOW_SECONDS`` is the only one.

``rows(quick=True)``: C <= 20 000 and n = 100 000 only, one timed run. Run from the repo root:

    python bench/uploads.py [--quick]   (or: python -m bench.uploads; all suites: python -m bench)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import functools
import importlib
import pathlib
import subprocess
import sys
import tempfile
import tracemalloc

# The repo root goes first: run as a script, sys.path[0] is bench/.
ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import datasets  # noqa: E402
from bench.harness import (  # noqa: E402
    SLOW_SECONDS,
    Row,
    SuiteSkipped,
    measure,
    run_standalone,
    time_call,
)

SUITE = "uploads"
# The branch point of the bounded reader: datasets/upload.py as it was before it.
BASELINE_COMMIT = "1dfcea7"
BASELINE_PACKAGE = "datasets_baseline"
COLUMNS = (5_000, 10_000, 20_000, 40_000)
ROWS = (100_000, 1_000_000)
HUGE_COLUMNS = 1_000_000
REPEATS = 3


def baseline_package():
    """``datasets`` as it was at :data:`BASELINE_COMMIT`, imported as :data:`BASELINE_PACKAGE`.

    Raises
    ------
    SuiteSkipped
        When git cannot show the files (no git, a shallow clone without that commit).
    """
    if BASELINE_PACKAGE in sys.modules:
        return sys.modules[BASELINE_PACKAGE]
    folder = pathlib.Path(tempfile.mkdtemp(prefix="bench-uploads-"))
    (folder / BASELINE_PACKAGE).mkdir()
    for name in ("__init__.py", "registry.py", "surfaces.py", "images.py", "upload.py"):
        try:
            source = subprocess.run(["git", "show", f"{BASELINE_COMMIT}:datasets/{name}"], cwd=ROOT, check=True,
                                    capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError) as error:
            raise SuiteSkipped(f"git cannot show datasets/{name} at {BASELINE_COMMIT}: {error}") from error
        (folder / BASELINE_PACKAGE / name).write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder))
    return importlib.import_module(BASELINE_PACKAGE)


def wide_csv(n_columns, n_rows=3):
    """A CSV of ``n_rows`` rows of ``n_columns`` named columns of short numbers."""
    rng = np.random.default_rng(0)
    header = ",".join(f"c{index}" for index in range(n_columns))
    body = "\n".join(",".join(f"{value:.3f}" for value in row) for row in rng.random((n_rows, n_columns)))
    return f"{header}\n{body}\n".encode()


def long_csv(n_rows):
    """A CSV of ``x, y, z, label`` rows: three numbers and a label of 7 values."""
    return b"x,y,z,label\n" + b"".join(b"%d.25,%d.5,%d,c%d\n" % (i, i, -i, i % 7) for i in range(n_rows))


def _refusal(function, *args, **kwargs):
    """``function(*args, **kwargs)``, with the DatasetError it raises (either reader's) as its value."""
    try:
        return function(*args, **kwargs)
    except ValueError as error:  # both readers' DatasetError derive from ValueError
        return error


def traced_peak_mib(function):
    """Peak memory of one call of ``function()`` beyond what existed before it (tracemalloc), in MiB."""
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        function()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return (peak - before) / 2**20


def rows(quick=False):
    """Rows against columns, the 10^6-column refusal, then rows against rows; ``quick``: smaller."""
    base = baseline_package()
    repeats = 1 if quick else REPEATS
    columns = COLUMNS[:3] if quick else COLUMNS
    result = []
    for n_columns in columns:
        content = wide_csv(n_columns)
        names = [f"c{index}" for index in range(n_columns)]
        ours_limits = datasets.UploadLimits(max_columns=max(COLUMNS))
        for item, ours, theirs in (
            ("inspect_upload", functools.partial(datasets.inspect_upload, content, "wide.csv", limits=ours_limits),
             functools.partial(base.inspect_upload, content, "wide.csv")),
            ("parse_upload(columns=every name)",
             functools.partial(_refusal, datasets.parse_upload, content, "wide.csv", columns=names,
                               limits=ours_limits),
             functools.partial(_refusal, base.parse_upload, content, "wide.csv", columns=names)),
        ):
            timing = measure(ours, repeats, SLOW_SECONDS)
            baseline = time_call(theirs, repeats, SLOW_SECONDS)
            outcome = timing.result
            note = ("" if not isinstance(outcome, Exception) else
                    f"refused as it should be: {str(outcome)[:60]}...")
            result.append(Row.from_timing(SUITE, f"{item}, 3 rows x {n_columns} columns", n_columns, timing,
                                          baseline=f"same call, reader at {BASELINE_COMMIT}",
                                          baseline_timing=baseline, note=note))

    content = wide_csv(HUGE_COLUMNS, n_rows=1)
    timing = measure(functools.partial(_refusal, datasets.inspect_upload, content, "huge.csv"), repeats, SLOW_SECONDS)
    baseline = time_call(functools.partial(_refusal, base.inspect_upload, content, "huge.csv"), 1, SLOW_SECONDS)
    result.append(Row.from_timing(SUITE, f"inspect_upload, 1 row x {HUGE_COLUMNS} columns (default limits)",
                                  HUGE_COLUMNS, timing, baseline=f"same call, reader at {BASELINE_COMMIT}",
                                  baseline_timing=baseline,
                                  note=f"ours: {str(timing.result)[:70]}...; file {len(content) / 2**20:.1f} MB"))

    for n_rows in ROWS[:1] if quick else ROWS:
        content = long_csv(n_rows)
        ours_limits = datasets.UploadLimits(max_rows=max(ROWS))
        base_limits = base.UploadLimits(max_rows=max(ROWS))
        ours = functools.partial(datasets.inspect_upload, content, "long.csv", limits=ours_limits)
        theirs = functools.partial(base.inspect_upload, content, "long.csv", limits=base_limits)
        timing = measure(ours, repeats, SLOW_SECONDS)
        baseline = time_call(theirs, repeats, SLOW_SECONDS)
        base_peak = traced_peak_mib(theirs)
        size = len(content) / 2**20
        result.append(Row.from_timing(
            SUITE, f"inspect_upload, {n_rows} rows x 4 columns (3 numbers, a label)", n_rows, timing,
            baseline=f"same call, reader at {BASELINE_COMMIT}", baseline_timing=baseline,
            note=f"file {size:.1f} MB; peak memory ours {timing.peak_mib:.0f} MiB ({timing.peak_mib / size:.1f} x "
                 f"the file), baseline {base_peak:.0f} MiB ({base_peak / size:.1f} x)"))
    return result


if __name__ == "__main__":
    run_standalone(rows, "Upload reader: time against columns and rows, ratio against the reader at "
                         f"{BASELINE_COMMIT}", "C <= 20 000 and n = 100 000 only, one timed run")
