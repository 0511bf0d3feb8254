"""Time a k sweep through the result cache: first run (computed) and repeat (served from disk).

Run ``python bench/sweep.py``. Five algorithms x k in {6, 9, 12, 15, 18} on the 1 600-point swiss
roll, as the dashboard's Sweep tab runs it (components.callbacks.sweep), in a fresh cache folder.
"""

import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from components.callbacks import sweep  # noqa: E402
from components.jobs import ResultCache  # noqa: E402

ALGORITHMS = ["pca", "isomap", "lle", "ltsa", "laplacian"]


def timed_sweep(results):
    started = time.perf_counter()
    rows, message = sweep(results, lambda fraction, stage: None, "swissroll", 1600, 0.0, 0, [], [],
                          ALGORITHMS, [6, 18], 3)
    return time.perf_counter() - started, message


def main():
    first, repeats = [], []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as folder:
            results = ResultCache(folder)
            seconds, message = timed_sweep(results)
            first.append(seconds)
            repeats.extend(timed_sweep(results)[0] for _ in range(3))
    print(f"sweep of {len(ALGORITHMS)} algorithms x 5 k, swiss roll n = 1600 ({message})")
    print(f"  first run (computed):  median {statistics.median(first):7.3f} s  [min {min(first):.3f}]")
    print(f"  repeat (from cache):   median {statistics.median(repeats):7.3f} s  [min {min(repeats):.3f}]")
    print(f"  ratio first/repeat:    {statistics.median(first) / statistics.median(repeats):7.1f}x")


if __name__ == "__main__":
    main()
