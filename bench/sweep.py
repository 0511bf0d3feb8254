"""Time a k sweep through the result cache: computed (fresh cache) and repeated (served from disk).

Five algorithms x k in {6, 9, 12, 15, 18} on the 1 600-point swiss roll, as the dashboard's Sweep tab
runs it (a :class:`lab.SweepRequest` through :func:`lab.compute.compute`, without Dash). The computed sweep
gets a new, empty cache folder for every call (timed once: it takes tens of seconds); the repeat
reads the folder the first (traced) computed sweep filled, and its baseline is the computed sweep of the same run.
``rows(quick=True)``: two algorithms, k in {6, 9, 12}, one timed run. Run from the repo root:

    python bench/sweep.py [--quick]       (or: python -m bench.sweep; all suites: python -m bench)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.harness import Row, measure, run_standalone  # noqa: E402
from lab import DataChoice, ResultCache, SweepChoice, SweepRequest, ViewState  # noqa: E402
from lab.compute import compute  # noqa: E402

SUITE = "sweep"
N_SAMPLES = 1600
ALGORITHMS = ["pca", "isomap", "lle", "ltsa", "laplacian"]
K_RANGE, K_STEP = [6, 18], 3
QUICK = (["pca", "isomap"], [6, 12])


def run_sweep(results, chosen_algorithms, k_range):
    """``(rows, message)`` of one sweep on the swiss roll through ``results``, as the Sweep tab runs it."""
    state = ViewState(data=DataChoice("swissroll", n=N_SAMPLES),
                      sweep=SweepChoice(tuple(chosen_algorithms), k_range[0], k_range[1], K_STEP)).validated()
    result, _ = compute(SweepRequest.from_state(state), cache=results)
    return result.rows, result.message


def rows(quick=False):
    """The computed sweep, then the cached repeat against it."""
    chosen_algorithms, k_range = QUICK if quick else (ALGORITHMS, K_RANGE)
    cells = len(chosen_algorithms) * len(range(k_range[0], k_range[1] + 1, K_STEP))
    item = f"sweep {len(chosen_algorithms)} algorithms x {cells // len(chosen_algorithms)} k ({cells} runs)"
    with tempfile.TemporaryDirectory() as parent:
        caches = []

        def computed_sweep():
            # Each call gets a new, empty cache folder; the filled ones serve the cached repeat below.
            caches.append(ResultCache(pathlib.Path(tempfile.mkdtemp(dir=parent))))
            return run_sweep(caches[-1], chosen_algorithms, k_range)

        computed = measure(computed_sweep, repeats=1)
        cached = measure(lambda: run_sweep(caches[0], chosen_algorithms, k_range), repeats=1 if quick else 5)
    return [
        Row.from_timing(SUITE, f"{item}, computed (fresh cache)", N_SAMPLES, computed,
                        note=f"{', '.join(chosen_algorithms)}; every run with all measures; {computed.result[1]}"),
        Row.from_timing(SUITE, f"{item}, from the cache", N_SAMPLES, cached, baseline="same sweep computed",
                        baseline_timing=computed, note=cached.result[1]),
    ]


def main(argv=None):
    run_standalone(rows, f"{SUITE} (times in seconds)", "2 algorithms x 3 k, one timed run", argv)


if __name__ == "__main__":
    main()
