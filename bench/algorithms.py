"""Benchmark of every registered embedding algorithm on the swiss roll, through ``algorithms.embed``.

Times one ``algorithms.embed(name, X, n_neighbors=12)`` call (input checks, the shared kNN search,
the method, its output scale) at n = 1 600 and 5 000 on the SPEC §1 swiss roll (seed 0), with each
method's default parameters. Each time is the median of 3 runs; a method whose first run at a size
takes longer than ``SLOW_SECONDS`` is run once there, and the table says so. The baseline, timed in
the same run, is the shared kNN search alone (``measures.nearest_neighbors``), so the ratio column
reads independently of the machine. Warnings a run raises (a dense-solver retry) are listed, since
they change what was timed. Run from the repo root:

    python bench/algorithms.py            (or: python -m bench.algorithms)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import os
import pathlib
import statistics
import sys
import time
import warnings

# The repo root goes first: run as a script, sys.path[0] is bench/, where this very file would
# otherwise shadow the ``algorithms`` package.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import algorithms  # noqa: E402
import datasets  # noqa: E402
from measures import ProcrustesLabWarning, nearest_neighbors, procrustes  # noqa: E402

N_NEIGHBORS = 12
SIZES = (1_600, 5_000)
REPEATS = 3
SLOW_SECONDS = 20.0  # above this for one run, a size is timed once


def timed(function):
    """``(seconds, result, warnings raised)`` of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ProcrustesLabWarning)
        start = time.perf_counter()
        result = function()
        seconds = time.perf_counter() - start
    return seconds, result, sorted({str(w.message) for w in caught if issubclass(w.category, ProcrustesLabWarning)})


def median_time(function):
    """Median of ``REPEATS`` runs, or one run when the first exceeds ``SLOW_SECONDS``.

    Returns ``(seconds, runs, last result, warnings)``.
    """
    first, result, notes = timed(function)
    if first > SLOW_SECONDS:
        return first, 1, result, notes
    times = [first] + [timed(function)[0] for _ in range(REPEATS - 1)]
    return statistics.median(times), REPEATS, result, notes


def main():
    print(f"algorithms.embed on the swiss roll (seed 0), k = {N_NEIGHBORS}, default parameters; "
          f"median of {REPEATS} runs unless marked; {os.cpu_count()} CPU(s), load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} at start")
    rolls = {n: datasets.load("swissroll", n, seed=0) for n in SIZES}
    baseline = {n: median_time(lambda n=n: nearest_neighbors(rolls[n].X, N_NEIGHBORS))[0] for n in SIZES}
    print("baseline (kNN search alone): " + ", ".join(f"n = {n}: {baseline[n] * 1e3:.1f} ms" for n in SIZES))
    header = f"{'algorithm':<16}" + "".join(f"{'n = ' + str(n):>26}" for n in SIZES) + f"{'R_N / R_C at 1600':>22}"
    print(header)
    print("-" * len(header))
    notes = []
    for name in algorithms.available():
        cells, scores = [], ""
        for n in SIZES:
            X = rolls[n].X
            seconds, runs, Y, raised = median_time(lambda X=X: algorithms.embed(name, X, n_neighbors=N_NEIGHBORS))
            mark = "" if runs == REPEATS else " (1 run)"
            cells.append(f"{seconds:8.2f} s {seconds / baseline[n]:7.1f}x{mark}")
            notes += [f"{name}, n = {n}: {message}" for message in raised]
            if n == SIZES[0]:
                scores = (f"{procrustes(X, Y, N_NEIGHBORS):.3f} / "
                          f"{procrustes(X, Y, N_NEIGHBORS, variant='conformal'):.3f}")
        print(f"{name:<16}" + "".join(f"{cell:>26}" for cell in cells) + f"{scores:>22}")
    if notes:
        print("\nwarnings raised while timing:")
        for note in notes:
            print(f"  {note}")


if __name__ == "__main__":
    main()
