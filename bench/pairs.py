"""Benchmark of two runs aligned and of the stability consensus (lab/compute/pairs.py, lab/compute/stability.py).

Rows, each timed against a baseline measured in the same run on the same arrays:

- **align**: :func:`measures.similarity_procrustes` (B onto A by orthogonal Procrustes with scale, every point's
  displacement) against :func:`scipy.spatial.procrustes` (the same fit, both sets standardized),
  n = 20 000, 200 000, 1 000 000 points in 2-D. The note gives the largest difference of the two
  distances (ours equals scipy's disparity).
- **compare_outputs**: the alignment plus the local Procrustes statistics of every neighbourhood of
  B against A's (:func:`measures.local_procrustes` on the input's kNN graph, searched beforehand),
  against one :func:`measures.local_procrustes` call of the output against the input on the same
  graph (what a run's R_N costs): the pair costs about one more measure.
- **consensus**: generalized Procrustes of 5 runs (:func:`lab.compute.stability.consensus`), all points,
  and subsamples of 80 % of them, against 5 :func:`scipy.spatial.procrustes` calls (one pass of
  alignments): the ratio is about one over the number of passes the consensus needs.

Ours: median of 3 runs after one traced, untimed call (:func:`bench.harness.measure`); baselines:
:func:`bench.harness.time_call`. ``rows(quick=True)``: the smallest n only, one timed run. Run
from the repo root: ``python bench/pairs.py [--quick]``. Nothing here asserts a time.
"""

import pathlib
import sys

# The repo root goes first: run as a script, sys.path[0] is bench/.
ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import scipy.spatial  # noqa: E402

import datasets  # noqa: E402
import measures  # noqa: E402
from bench.harness import Row, measure, run_standalone, time_call  # noqa: E402
from lab.compute.pairs import compare_outputs  # noqa: E402
from lab.compute.stability import consensus  # noqa: E402

SUITE = "pairs"
SIZES = (20_000, 200_000, 1_000_000)
K = 10
RUNS = 5


def _pair(n, rng):
    """A swiss roll's chart and a bent, turned, mirrored, rescaled copy of it: two embeddings of the same points."""
    data = datasets.load("swissroll", n, random_state=0)
    A = data.truth
    angle = 0.7
    turn = np.array([[np.cos(angle), np.sin(angle)], [np.sin(angle), -np.cos(angle)]])
    B = 0.3 * (A + 0.02 * A[:, :1] ** 2 / A[:, :1].max() + rng.normal(scale=0.05, size=A.shape)) @ turn + 4.0
    return data.X, A, B


def _rows_at(n, rng, repeats):
    """The rows of one size (a function of its own: the timed lambdas close over this call's arrays)."""
    X, A, B = _pair(n, rng)
    ours = measure(lambda: measures.similarity_procrustes(A, B), repeats)
    scipy_timing = time_call(lambda: scipy.spatial.procrustes(A, B), repeats)
    difference = abs(ours.result.distance - scipy_timing.result[2])
    result = [Row.from_timing(SUITE, "align (B onto A, displacement, distance)", n, ours, "scipy.spatial.procrustes",
                              scipy_timing, note=f"|distance - scipy disparity| = {difference:.1e}")]
    if n > 200_000:
        return result
    neighbors = measures.nearest_neighbors(X, K)
    ours = measure(lambda: compare_outputs(A, B, neighbors), repeats)
    kernel = time_call(lambda: measures.local_procrustes(X, A, neighbors), repeats)
    result.append(Row.from_timing(SUITE, f"compare_outputs (align + local Procrustes, k = {K})", n, ours,
                                  "one local_procrustes(X, Y) call", kernel))
    runs = [(A + rng.normal(scale=0.05, size=A.shape)) @ np.linalg.qr(rng.normal(size=(2, 2)))[0]
            for _ in range(RUNS)]
    alignments = time_call(lambda: [scipy.spatial.procrustes(A, run) for run in runs], repeats)
    ours = measure(lambda: consensus(runs), repeats)
    result.append(Row.from_timing(SUITE, f"consensus of {RUNS} runs (all points)", n, ours,
                                  f"{RUNS} scipy.spatial.procrustes", alignments,
                                  note=f"{ours.result.n_iterations} iterations, median spread "
                                       f"{np.median(ours.result.spread):.3g}"))
    held = [np.sort(rng.choice(n, int(0.8 * n), replace=False)) for _ in range(RUNS)]
    subsamples = [run[rows] for run, rows in zip(runs, held)]
    ours = measure(lambda: consensus(subsamples, held, n_samples=n), repeats)
    result.append(Row.from_timing(SUITE, f"consensus of {RUNS} runs (80 % subsamples)", n, ours,
                                  f"{RUNS} scipy.spatial.procrustes", alignments,
                                  note=f"{ours.result.n_iterations} iterations"))
    return result


def rows(quick=False):
    rng = np.random.default_rng(0)
    repeats = 1 if quick else 3
    return [row for n in (SIZES[:1] if quick else SIZES) for row in _rows_at(n, rng, repeats)]


if __name__ == "__main__":
    run_standalone(rows, "Two runs aligned and the stability consensus, ratio against scipy's Procrustes",
                   "only n = 20 000, one timed run")
