"""Cold times of the tours: every step computed from an empty cache, as ``python -m lab.tours prepare`` does.

The steps run in the tours' order into one new result cache per way (a step reuses the runs of the steps
before it, as the prepared cache does), in one process with one BLAS thread. Two ways, interleaved step
by step in the same run: each panel computing only the measures its step reads
(:meth:`lab.tours.steps.Step.request`, today) and every panel computing every measure (its runs with
``measures=None``, how steps were computed before issue 19). Rows: the whole walk each way, and the
slowest steps of today's walk against the same step in the other. ``rows(quick=True)``: the lecture's
steps only. Run from the repo root:

    python bench/tours.py [--quick]       (or: python -m bench --only tours)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import dataclasses
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from threadpoolctl import threadpool_limits  # noqa: E402

from bench.harness import Row, Timing, run_standalone  # noqa: E402
from lab import ResultCache  # noqa: E402
from lab.compute import compute  # noqa: E402
from lab.tours.presets import STEPS, TOURS  # noqa: E402

SUITE = "tours"
QUICK_TOUR = "lecture"
SLOWEST = 3  # the slowest steps given a row of their own


def every_measure(request):
    """The step's request with every panel computing every measure (how steps were computed before)."""
    return dataclasses.replace(request, runs=tuple(dataclasses.replace(run, measures=None) for run in request.runs))


def walks(steps, ways):
    """For each way (a function of a step's request), ``{step name: (seconds, runs computed, runs read from
    the cache, errors)}`` of a walk into a new cache of its own.

    The walks are interleaved step by step (each way's step, then the next step), after one untimed
    computation of the first step, so that neither way pays the imports and first calls alone.
    """
    times = [{} for _ in ways]
    with tempfile.TemporaryDirectory() as directory, threadpool_limits(1):
        root = pathlib.Path(directory)
        compute(steps[0].request(), cache=ResultCache(root / "warm-up"))
        caches = [ResultCache(root / str(index)) for index in range(len(ways))]
        for step in steps:
            for way, cache, walked in zip(ways, caches, times):
                started = time.perf_counter()
                result, _ = compute(way(step.request()), cache=cache)
                walked[step.name] = (time.perf_counter() - started, result.computed, result.cached, result.errors)
    return times


def _timing(seconds):
    return Timing(seconds, seconds, 1, None, None)


def rows(quick=False):
    """Today's walk and the every-measure walk, in the same run: totals, then the slowest steps."""
    steps = [step for tour in TOURS if not quick or tour.key == QUICK_TOUR for step in tour.steps]
    today, before = walks(steps, (lambda request: request, every_measure))
    failed = sorted(name for name, entry in today.items() if entry[3])
    scope = f"the {QUICK_TOUR} tour's {len(steps)} steps" if quick else f"all {len(steps)} steps of {len(TOURS)} tours"
    total, total_before = (sum(entry[0] for entry in times.values()) for times in (today, before))
    result = [Row.from_timing(
        SUITE, f"{scope}, each from an empty cache in order, panels computing what the step reads", None,
        _timing(total), baseline="every measure on every panel", baseline_timing=_timing(total_before),
        note=f"one BLAS thread; failed steps: {', '.join(failed) or 'none'}")]
    for name in sorted(today, key=lambda name: today[name][0], reverse=True)[:SLOWEST]:
        seconds, computed, cached, _ = today[name]
        result.append(Row.from_timing(
            SUITE, f"step {name} ({STEPS[name].title})", None, _timing(seconds),
            baseline="every measure on every panel", baseline_timing=_timing(before[name][0]),
            note=f"runs computed {computed}, read from the cache {cached}"))
    return result


def main(argv=None):
    run_standalone(rows, f"{SUITE} (cold times of the tours' steps, in seconds)", "the lecture tour only", argv)


if __name__ == "__main__":
    main()
