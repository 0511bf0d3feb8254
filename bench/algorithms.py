"""Benchmark of every registered embedding algorithm on the swiss roll, through ``algorithms.embed``.

Times one ``algorithms.embed(name, X, n_neighbors=12)`` call (input checks, the shared kNN search,
the method, its output scale) at n = 1 600 and 5 000 on the SPEC §1 swiss roll (seed 0), with each
method's default parameters. Each time is the median of 3 runs after one traced, untimed call (see
:mod:`bench.harness`); a method whose first timed run takes longer than ``SLOW_SECONDS`` is timed
once there. The baseline, timed in the same run, is the shared kNN search alone
(``measures.nearest_neighbors``), so the ratio column (kNN seconds / method seconds, far below 1)
reads independently of the machine. Warnings a run raises (a dense-solver retry) are noted, since
they change what was timed, and so are R_N and R_C at k = 12.

``rows(quick=True)``: n = 1 600 only, one timed run. Run from the repo root:

    python bench/algorithms.py [--quick]   (or: python -m bench.algorithms; all suites: python -m bench)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import pathlib
import sys
import warnings

# The repo root goes first: run as a script, sys.path[0] is bench/, where this very file would
# otherwise shadow the ``algorithms`` package.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import algorithms  # noqa: E402
import datasets  # noqa: E402
from bench.harness import SLOW_SECONDS, Row, measure, run_standalone, time_call  # noqa: E402
from measures import ProcrustesLabWarning, nearest_neighbors, procrustes  # noqa: E402

SUITE = "algorithms"
N_NEIGHBORS = 12
SIZES = (1_600, 5_000)
REPEATS = 3


def embed_recording_warnings(name, X):
    """``(embedding, sorted messages of the ProcrustesLabWarnings raised)`` of one embed call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ProcrustesLabWarning)
        Y = algorithms.embed(name, X, n_neighbors=N_NEIGHBORS)
    return Y, sorted({str(w.message) for w in caught if issubclass(w.category, ProcrustesLabWarning)})


def rows(quick=False):
    """One row per (registered algorithm, size); ``quick``: n = 1 600, one timed run."""
    sizes = SIZES[:1] if quick else SIZES
    repeats = 1 if quick else REPEATS
    rolls = {n: datasets.load("swissroll", n, random_state=0).X for n in sizes}
    knn = {n: time_call(lambda X=X: nearest_neighbors(X, N_NEIGHBORS), repeats=5) for n, X in rolls.items()}
    result = []
    for name in algorithms.available():
        for n, X in rolls.items():
            timing = measure(lambda name=name, X=X: embed_recording_warnings(name, X), repeats, SLOW_SECONDS)
            Y, raised = timing.result
            notes = [(f"R_N {procrustes(X, Y, N_NEIGHBORS):.3f}, R_C "
                      f"{procrustes(X, Y, N_NEIGHBORS, variant='conformal'):.3f}")]
            notes += [f"warning: {message}" for message in raised]
            result.append(Row.from_timing(SUITE, f"embed {name}, k = {N_NEIGHBORS}, defaults", n, timing,
                                          baseline="kNN search alone", baseline_timing=knn[n], note="; ".join(notes)))
    return result


def main(argv=None):
    run_standalone(rows, f"{SUITE}: algorithms.embed on the swiss roll (seed 0)", "n = 1600 only, one timed run", argv)


if __name__ == "__main__":
    main()
