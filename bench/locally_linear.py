"""Benchmark of LLE, MLLE, HLLE and LTSA on our sparse alignment matrices against scikit-learn (issue 16).

Each of the four runs through ``algorithms.embed`` on the 100 000-point swiss roll (seed 0, k = 12), and
scikit-learn's ``LocallyLinearEmbedding`` (ARPACK at shift 0, the path its "auto" takes) on the
50 000-point roll in the same run: the largest size it handled in PERFORMANCE.md (at 100 000 its HLLE
and LTSA stop at "Factor is exactly singular"). Every case runs once in a fresh process
(:mod:`bench.algorithm_runs`), so the peak column is that process's peak RSS, imports included (about
0.15 GB), not traced memory; the time is the embed call alone. The ratio is scikit-learn's seconds at
half the points over ours: above 1, ours does twice the points in less time. R_C (GR Eq. 7) of each
output is in the note; scikit-learn's "hessian" is its LTSA (algorithms/locally_linear.py), and its
LTSA leaves a point that is nobody's neighbour unplaced, so their R_C can differ from ours.

``rows(quick=True)``: ours at 20 000, scikit-learn at 10 000. Run from the repo root:

    python bench/locally_linear.py [--quick]   (or: python -m bench --only locally_linear)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import algorithms  # noqa: E402
from bench.algorithm_runs import run_fresh  # noqa: E402
from bench.harness import Row, run_standalone  # noqa: E402

SUITE = "locally_linear"
N_NEIGHBORS = 12
METHODS = {"lle": "standard", "mlle": "modified", "hlle": "hessian", "ltsa": "ltsa"}
SIZES = {False: (100_000, 50_000), True: (20_000, 10_000)}


def _note(result, label):
    if result["error"]:
        return f"{label}: failed ({result['error']})"
    return f"{label}: R_C {result['scores']['conformal']:.3f}, peak RSS {result['peak_rss_mib'] / 1024:.2f} GiB"


def rows(quick=False):
    """One row per method: ours at 100 000 points, scikit-learn's at 50 000 as the baseline."""
    ours_n, theirs_n = SIZES[quick]
    result = []
    for name, method in METHODS.items():
        ours = run_fresh("ours", name, ours_n, N_NEIGHBORS, ("conformal",))
        theirs = run_fresh("sklearn_lle", method, theirs_n, N_NEIGHBORS, ("conformal",))
        estimate = algorithms.spec(name).memory_bytes(ours_n, N_NEIGHBORS, 2) / 2**30
        notes = [_note(ours, f"ours at {ours_n}") + f" (estimate {estimate:.2f} GiB)",
                 _note(theirs, f"scikit-learn at {theirs_n}")]
        result.append(Row(suite=SUITE, item=f"{name}: sparse alignment + shift-invert ARPACK, k = {N_NEIGHBORS}",
                          n=ours_n, seconds=ours["seconds"] if ours["seconds"] is not None else float("nan"), runs=1,
                          peak_mib=ours["peak_rss_mib"],
                          baseline=f"scikit-learn LocallyLinearEmbedding(method={method!r}) at n = {theirs_n}",
                          baseline_seconds=None if theirs["error"] else theirs["seconds"], note="; ".join(notes)))
    return result


def main(argv=None):
    run_standalone(rows, f"{SUITE}: LLE/MLLE/HLLE/LTSA, ours at 100 000 vs scikit-learn at 50 000 (swiss roll)",
                   "ours at 20 000, scikit-learn at 10 000", argv)


if __name__ == "__main__":
    main()
