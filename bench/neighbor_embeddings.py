"""Benchmark of the neighbour embeddings (issue 14): UMAP, PaCMAP and t-SNE through openTSNE and scikit-learn.

Each method runs through ``algorithms.embed`` on the swiss roll (seed 0, k = 12) at n = 5 000 and
20 000, once, in a fresh process (:mod:`bench.algorithm_runs`) after an untimed warm-up call on 500
points (numba's JIT or its cache, first imports): the time is a warm call, the peak is the process's
peak RSS (imports and compiled code included). The output is scored by ``measures.evaluate`` on the
input's kNN graph of the same k: R_N (meaningless for these outputs, shown to say so), R_C and
trustworthiness. The baseline of every row is scikit-learn's t-SNE (``tsne_sklearn``) at the same n,
timed in the same run; its own row compares it with itself.

``rows(quick=True)``: n = 5 000 only. Run from the repo root:

    python bench/neighbor_embeddings.py [--quick]   (or: python -m bench --only neighbor_embeddings)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.algorithm_runs import run_fresh  # noqa: E402
from bench.harness import Row, run_standalone  # noqa: E402

SUITE = "neighbor_embeddings"
N_NEIGHBORS = 12
NAMES = ("tsne_sklearn", "tsne", "umap", "pacmap")
SIZES = (5_000, 20_000)
SCORES = ("normalized", "conformal", "trustworthiness")


def _note(result):
    if result["error"]:
        return f"failed: {result['error']}"
    scores = result["scores"]
    return (f"R_N {scores['normalized']:.3g}, R_C {scores['conformal']:.3f}, trustworthiness "
            f"{scores['trustworthiness']:.4f}; peak RSS {result['peak_rss_mib'] / 1024:.2f} GiB")


def rows(quick=False):
    """One row per (method, size), each against scikit-learn's t-SNE at the same size."""
    result = []
    for n in SIZES[:1] if quick else SIZES:
        runs = {name: run_fresh("ours", name, n, N_NEIGHBORS, SCORES, warm_up=True) for name in NAMES}
        baseline = runs["tsne_sklearn"]
        for name in NAMES:
            run = runs[name]
            result.append(Row(suite=SUITE, item=f"embed {name}, k = {N_NEIGHBORS}, defaults (warm)", n=n,
                              seconds=run["seconds"] if run["seconds"] is not None else float("nan"), runs=1,
                              peak_mib=run["peak_rss_mib"], baseline="tsne_sklearn (scikit-learn t-SNE) at this n",
                              baseline_seconds=None if baseline["error"] else baseline["seconds"],
                              note=_note(run)))
    return result


def main(argv=None):
    run_standalone(rows, f"{SUITE}: t-SNE (openTSNE, scikit-learn), UMAP, PaCMAP on the swiss roll",
                   "n = 5 000 only", argv)


if __name__ == "__main__":
    main()
