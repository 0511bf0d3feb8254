"""The geodesic sweeps on every core (``measures.processes``) against the same sweeps in one process.

SciPy's ``dijkstra`` holds the interpreter, so :func:`measures.geodesics.dijkstra_batches` splits a
sweep's batches of sources over forked worker processes (issue 24). Timed on the SPEC §1 swiss roll
(seed 0), k = 10, both ways in the same run, interleaved (one process, then every core, each
repetition), medians:

- ``algorithms.embed("isomap", X)``: all-pairs Dijkstra, most of Isomap's time;
- ``measures.evaluate(X, truth)`` of every measure, the truth's chart as the output: M_G's pivot and
  landmark sweeps, the residual variance and DEMaP's geodesic rows (above 10 000 points from 2 000
  pivot sources).

The note says whether the two gave the same values, bit for bit (every mean and every per-point array).

    python bench/geodesic_cores.py [--quick]     (or: python -m bench --only geodesic_cores)

``--quick``: n = 5 000, one repetition; the full run adds n = 20 000, three repetitions (about 12
minutes on two cores). Nothing here asserts a time (STYLE: speed lives in bench/).
"""

import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import algorithms  # noqa: E402
import datasets  # noqa: E402
import measures  # noqa: E402
from bench.harness import Row, SuiteSkipped, Timing, run_standalone  # noqa: E402
from measures import geodesics, processes  # noqa: E402

SUITE = "geodesic_cores"
N_NEIGHBORS = 10
SIZES = (5_000, 20_000)


def _both_ways(work, repeats):
    """``(one process, every core)`` Timings of ``work()``, interleaved; the sweep memo emptied before each call
    (it would hand the second call the first one's rows)."""
    times, results = {False: [], True: []}, {}
    for _ in range(repeats):
        for parallel in (False, True):
            processes.PARALLEL = parallel
            geodesics._sweeps.clear()
            started = time.perf_counter()
            results[parallel] = work()
            times[parallel].append(time.perf_counter() - started)
    processes.PARALLEL = True
    return [Timing(statistics.median(times[mode]), min(times[mode]), repeats, None, results[mode])
            for mode in (False, True)]


def _same(one, other):
    """Whether two evaluations hold the same numbers, NaN where the other has NaN."""
    return one.measures == other.measures and all(
        np.array_equal(np.asarray(getattr(one, part)[name]), np.asarray(getattr(other, part)[name]), equal_nan=True)
        for part in ("mean", "per_point") for name in getattr(one, part))


def rows(quick=False):
    """Isomap and every measure at each size, one process against every core."""
    if processes.cores() < 2:
        raise SuiteSkipped("one core: the sweeps run in one process either way")
    repeats = 1 if quick else 3
    result = []
    for n in SIZES[:1] if quick else SIZES:
        data = datasets.load("swissroll", n, random_state=0)
        alone, shared = _both_ways(lambda data=data: algorithms.embed("isomap", data.X, n_neighbors=N_NEIGHBORS),
                                   repeats)
        result.append(Row.from_timing(SUITE, f"embed isomap, k = {N_NEIGHBORS}, on {processes.cores()} cores", n,
                                      shared, baseline="the same in one process", baseline_timing=alone,
                                      note=f"the same output: {np.array_equal(alone.result, shared.result)}"))
        alone, shared = _both_ways(lambda data=data: measures.evaluate(data.X, data.truth, N_NEIGHBORS), repeats)
        same = _same(alone.result, shared.result)
        result.append(Row.from_timing(SUITE, f"every measure of the truth's chart, k = {N_NEIGHBORS}, on "
                                      f"{processes.cores()} cores", n, shared, baseline="the same in one process",
                                      baseline_timing=alone, note=f"the same values: {same}"))
    return result


def main(argv=None):
    run_standalone(rows, f"{SUITE}: geodesic sweeps on every core against one process", "n = 5 000, one repetition",
                   argv)


if __name__ == "__main__":
    main()
