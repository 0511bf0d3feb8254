"""Benchmark of Landmark Isomap at large n against plain Isomap at n = 5 000, measured in the same run.

Times ``algorithms.embed("landmark_isomap", X, n_neighbors=10)`` (default parameters: 500 MaxMin
landmarks) on the SPEC §1 swiss roll (seed 0) at n = 5 000, 20 000 and 100 000. The baseline,
timed in the same run, is ``algorithms.embed("isomap", X, n_neighbors=10)`` at n = 5 000 (Isomap is
refused above 20 000 points, and at 20 000 it would need 3.2 GB and minutes), so the ratio column
(Isomap's seconds at 5 000 / ours) reads independently of the machine; it has its own row too.
Each time is the median of 3 runs after one traced, untimed call that gives the peak memory (see
:mod:`bench.harness`: numpy's arrays, so the m x n landmark geodesics are in it); a first timed run
above ``SLOW_SECONDS`` is the only one. Notes give R_N (GR Eq. 4, on the graph the algorithm used)
and, at n = 5 000, the Procrustes disparity between the two embeddings.

``rows(quick=True)``: n = 5 000 and 20 000 only, one timed run. Run from the repo root:

    python bench/landmark_isomap.py [--quick]   (or: python -m bench.landmark_isomap; all suites: python -m bench)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import pathlib
import sys

# The repo root goes first: run as a script, sys.path[0] is bench/.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from scipy.spatial import procrustes as procrustes_disparity  # noqa: E402

import algorithms  # noqa: E402
import datasets  # noqa: E402
from bench.harness import SLOW_SECONDS, Row, measure, run_standalone  # noqa: E402
from measures import procrustes  # noqa: E402

SUITE = "landmark_isomap"
N_NEIGHBORS = 10
BASELINE_SIZE = 5_000
SIZES = (5_000, 20_000, 100_000)
REPEATS = 3


def _embed(name, X):
    return algorithms.embed(name, X, n_neighbors=N_NEIGHBORS)


def rows(quick=False):
    """Isomap at n = 5 000, then Landmark Isomap at each size; ``quick``: n <= 20 000, one timed run."""
    sizes = SIZES[:2] if quick else SIZES
    repeats = 1 if quick else REPEATS
    defaults = {p.name: p.default for p in algorithms.spec("landmark_isomap").parameters}
    settings = f"{defaults['n_landmarks']} {defaults['landmark_selection']} landmarks"
    X = datasets.load("swissroll", BASELINE_SIZE, random_state=0).X
    isomap = measure(lambda: _embed("isomap", X), repeats, SLOW_SECONDS)
    result = [Row.from_timing(SUITE, f"embed isomap, k = {N_NEIGHBORS}", BASELINE_SIZE, isomap,
                              note=f"R_N {procrustes(X, isomap.result, N_NEIGHBORS):.4f}")]
    for n in sizes:
        X = datasets.load("swissroll", n, random_state=0).X
        timing = measure(lambda X=X: _embed("landmark_isomap", X), repeats, SLOW_SECONDS)
        note = f"R_N {procrustes(X, timing.result, N_NEIGHBORS):.4f}"
        if n == BASELINE_SIZE:
            note += f"; Procrustes disparity to Isomap {procrustes_disparity(isomap.result, timing.result)[2]:.1e}"
        result.append(Row.from_timing(SUITE, f"embed landmark_isomap, k = {N_NEIGHBORS}, {settings}", n, timing,
                                      baseline=f"isomap at n = {BASELINE_SIZE}", baseline_timing=isomap, note=note))
    return result


def main(argv=None):
    run_standalone(rows, f"{SUITE}: algorithms.embed on the swiss roll (seed 0)", "n <= 20 000, one timed run", argv)


if __name__ == "__main__":
    main()
