"""``python -m bench``: every benchmark suite, one table, one JSON record in ``bench/results/``.

Runs the suites named in :data:`SUITES`, in that order, prints all their rows as one table (see
:mod:`bench.harness`) and writes it, with the machine it ran on (CPU, BLAS, Python and package
versions, git commit), to ``bench/results/<UTC timestamp>.json``. The full run takes about ten
minutes on two cores; ``--quick`` (smaller sizes, one timed run) about two.

A suite is a module ``bench/<name>.py`` with ``rows(quick=False)`` returning a list of
:class:`bench.harness.Row` (or of dicts with the same fields). To add one, write it and append its
name to :data:`SUITES`. A suite that is listed but absent, has no ``rows``, or raises
:class:`bench.harness.SuiteSkipped` (an optional package missing) is reported as skipped; one that
fails is reported with its traceback, the others still run, and the exit status is 1.

Usage (from the repo root)::

    python -m bench [--quick] [--only SUITE ...] [--no-save]
"""

import argparse
import datetime
import importlib
import importlib.metadata
import json
import os
import pathlib
import platform
import subprocess
import sys
import time
import traceback

from bench.harness import Row, SuiteSkipped, format_table

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULTS = pathlib.Path(__file__).resolve().parent / "results"
# The suites, in the order they run. bench/landmark_isomap.py joins the table once it has rows().
SUITES = ("measures", "algorithms", "procrustes_algorithms", "landmark_isomap", "sweep", "zadu_compare", "uploads",
          "datasets", "locally_linear", "neighbor_embeddings", "pairs", "geodesic_cores")
# Run only when named with --only: the browser suite needs Chromium and takes minutes (bench/browser.py);
# the tours' suite walks all 29 steps twice from an empty cache (about six minutes, bench/tours.py); the
# uncached runs at 20 000 points, here and at a baseline checkout, take about ten (bench/uncached_runs.py).
ON_REQUEST = ("browser", "tours", "uncached_runs")
PACKAGES = ("numpy", "scipy", "scikit-learn", "threadpoolctl", "networkx", "dash", "plotly", "diskcache", "zadu",
            "numba")


def _git(*arguments):
    """Output of a read-only git command in the repo, or None when git cannot answer."""
    try:
        return subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True, check=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def machine_info():
    """What the timings depend on: CPU, memory, BLAS, Python, package versions, git commit."""
    from threadpoolctl import threadpool_info

    versions = {}
    for package in PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    status = _git("status", "--porcelain", "--untracked-files=no")
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "packages": versions,
        "blas": [{key: entry.get(key) for key in ("internal_api", "version", "architecture", "num_threads")}
                 for entry in threadpool_info()],
        "environment": {name: os.environ.get(name) for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
                                                                 "OMP_NUM_THREADS")},
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": None if status is None else bool(status),
    }


def _as_row(row):
    return row if isinstance(row, Row) else Row(**{key: value for key, value in row.items() if key != "ratio"})


def run_suite(name, quick):
    """``(rows, status dict)`` of one suite; skips and failures are in the status, never raised."""
    started = time.perf_counter()
    try:
        module = importlib.import_module(f"bench.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"bench.{name}":
            raise
        return [], {"status": "skipped", "reason": f"bench/{name}.py does not exist"}
    if not callable(getattr(module, "rows", None)):
        return [], {"status": "skipped", "reason": f"bench/{name}.py has no rows(quick=False) function"}
    try:
        rows = [_as_row(row) for row in module.rows(quick=quick)]
    except SuiteSkipped as skipped:
        return [], {"status": "skipped", "reason": str(skipped)}
    except Exception:  # one broken suite must not lose the others' numbers; it is reported, exit status 1
        return [], {"status": "failed", "reason": traceback.format_exc(), "seconds": time.perf_counter() - started}
    return rows, {"status": "ok", "rows": len(rows), "seconds": time.perf_counter() - started}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one timed run (about two minutes)")
    parser.add_argument("--only", nargs="+", choices=SUITES + ON_REQUEST, metavar="SUITE",
                        help=f"run only these: {SUITES + ON_REQUEST} ({', '.join(ON_REQUEST)} only when named)")
    parser.add_argument("--no-save", action="store_true", help="print the table, write no JSON")
    args = parser.parse_args(argv)

    started_at = datetime.datetime.now(datetime.timezone.utc)
    started = time.perf_counter()
    load_at_start = os.getloadavg()
    rows, suites = [], {}
    for name in args.only or SUITES:
        print(f"[bench] {name} ...", file=sys.stderr, flush=True)
        suite_rows, status = run_suite(name, args.quick)
        rows += suite_rows
        suites[name] = status
        detail = f"{status['rows']} rows" if status["status"] == "ok" else status["reason"].strip().splitlines()[-1]
        seconds = f" in {status['seconds']:.0f} s" if "seconds" in status else ""
        print(f"[bench] {name}: {status['status']}{seconds} ({detail})", file=sys.stderr, flush=True)
    wall_seconds = time.perf_counter() - started

    machine = machine_info()
    title = (f"python -m bench{' --quick' if args.quick else ''}: {started_at:%Y-%m-%d %H:%M} UTC, "
             f"{machine['cpu_count']} CPU(s) ({machine['cpu_model']}), Python {machine['python']}, "
             f"numpy {machine['packages']['numpy']}, commit {(machine['git_commit'] or '?')[:10]}"
             f"{' (uncommitted changes)' if machine['git_dirty'] else ''}; load average "
             f"{load_at_start[0]:.1f} at start; {wall_seconds / 60:.1f} min in all")
    table = format_table(rows, title=title)
    not_run = [f"{name}: {status['status']}: {status['reason'].strip()}" for name, status in suites.items()
               if status["status"] != "ok"]
    if not_run:
        table += "\n\nsuites not in the table:\n" + "\n".join(f"  {line}" for line in not_run)
    print(table)

    if not args.no_save:
        RESULTS.mkdir(exist_ok=True)
        path = RESULTS / f"{started_at:%Y-%m-%dT%H-%M-%SZ}{'-quick' if args.quick else ''}.json"
        record = {"started_utc": started_at.isoformat(timespec="seconds"), "quick": args.quick,
                  "wall_seconds": wall_seconds, "load_average_at_start": load_at_start,
                  "load_average_at_end": os.getloadavg(), "machine": machine, "suites": suites,
                  "rows": [row.to_dict() for row in rows], "table": table}
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"\nwritten: {path.relative_to(ROOT)}")
    return 1 if any(status["status"] == "failed" for status in suites.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
