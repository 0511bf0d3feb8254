"""An uncached run of every measure at 20 000 points, here and at the commit issue 24 was filed against.

Each run is one ``compute`` of a fresh request (the SPEC §1 swiss roll, seed 0, the page's default
k) with no cache, in a fresh Python process started in that checkout, timed from the request to the
result (the imports, which a server has made already, are not counted). The baseline's checkout is
a temporary git worktree (:func:`bench.harness.checkouts`); the two alternate, ours first, and each
time is the median of the repetitions. The default baseline is main when issue 24 was filed, so a
ratio covers every change since (and ours computes the measures added since: the note counts them).
The row's note gives the largest process's peak resident memory (the run's, or one of the worker
processes its sweeps fork) and the largest relative difference between the two runs' values of the
measures both compute.

    python bench/uncached_runs.py [--quick] [--baseline COMMIT]   (or: python -m bench --only uncached_runs)

The full run times LTSA and Isomap three times each way (about ten minutes on two cores); ``--quick``
times LTSA once each way (about a minute). Nothing here asserts a time (STYLE: speed lives in bench/).
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.harness import Row, Timing, checkouts, run_standalone  # noqa: E402

SUITE = "uncached_runs"
BASELINE_COMMIT = "345d2c8"  # main when issue 24 was filed
N_SAMPLES = 20_000
MARK = "UNCACHED-RUN "

# The child: one uncached run through whichever API its checkout has (lab.compute.compute today, lab.runs then).
CHILD = f"""
import json, resource, sys, time
sys.path.insert(0, ".")
algorithm, n = sys.argv[1], int(sys.argv[2])
try:
    from lab import RunRequest
    from lab.compute import compute
    run = lambda: compute(RunRequest.create("swissroll", algorithm, n=n), cache=None).result
except ImportError:
    from lab.runs import RunRequest, compute_run
    run = lambda: compute_run(RunRequest.create("swissroll", algorithm, n=n))
start = time.perf_counter()
result = run()
seconds = time.perf_counter() - start
peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print("{MARK}" + json.dumps({{"seconds": seconds, "peak_mib": peak / 1024,
                               "means": {{name: float(value[0]) for name, value in result.summary.items()}}}}))
"""


def _run(root, algorithm):
    """One uncached run in a fresh process in checkout ``root``: ``{"seconds", "peak_mib", "means"}``."""
    done = subprocess.run([sys.executable, "-c", CHILD, algorithm, str(N_SAMPLES)], cwd=root, capture_output=True,
                          text=True, check=True, env={**os.environ, "PYTHONPATH": str(root)})
    return json.loads(next(line for line in done.stdout.splitlines() if line.startswith(MARK))[len(MARK):])


def _largest_difference(ours, theirs):
    """The largest relative difference between two runs' means of the measures both compute, and their count."""
    shared = [name for name in ours if name in theirs and ours[name] == ours[name] and theirs[name] == theirs[name]]
    differences = [abs(ours[name] - theirs[name]) / max(abs(theirs[name]), 1e-300) for name in shared]
    return max(differences, default=0.0), len(shared)


def rows(quick=False, baseline=BASELINE_COMMIT):
    algorithms, repeats = (("ltsa",), 1) if quick else (("ltsa", "isomap"), 3)
    result = []
    with checkouts(baseline, "procrustes-uncached-") as (_, roots):
        for algorithm in algorithms:
            runs = {"ours": [], "baseline": []}
            for _ in range(repeats):  # interleaved: a drift of the machine's speed reaches both sides
                for name, root in roots.items():
                    runs[name].append(_run(root, algorithm))
            ours, theirs = ([run["seconds"] for run in runs[name]] for name in ("ours", "baseline"))
            difference, shared = _largest_difference(runs["ours"][-1]["means"], runs["baseline"][-1]["means"])
            peaks = [max(run["peak_mib"] for run in runs[name]) for name in ("ours", "baseline")]
            each = [", ".join(f"{seconds:.1f}" for seconds in side) for side in (ours, theirs)]
            result.append(Row.from_timing(
                SUITE, f"uncached {algorithm} run, every measure, k = 10", N_SAMPLES,
                Timing(statistics.median(ours), min(ours), len(ours), None, None),
                baseline=f"the app at {baseline}",
                baseline_timing=Timing(statistics.median(theirs), min(theirs), len(theirs), None, None),
                note=(f"{len(runs['ours'][-1]['means'])} measures against {len(runs['baseline'][-1]['means'])}; "
                      f"the {shared} both compute differ by at most {difference:.1g} (relative); the largest "
                      f"process's peak {peaks[0]:.0f} MiB against {peaks[1]:.0f} MiB; ours {each[0]} s, the "
                      f"baseline's {each[1]} s")))
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--baseline", default=BASELINE_COMMIT)
    known, rest = parser.parse_known_args(argv)
    run_standalone(lambda quick=False: rows(quick, known.baseline),
                   f"{SUITE}: uncached runs of every measure at {N_SAMPLES:,} points, here and at {known.baseline}",
                   "LTSA only, once each way", rest)


if __name__ == "__main__":
    main()
