"""Benchmark of the Procrustes embedding algorithms (GR §4): GP + refinement and PSA.

1. GR Table 2: R_N [R_C], each the minimum over k in {6, 9, 12, 15, 18}, of GP + refinement and PSA
   (registry defaults) on the swiss roll (1600), hemisphere (2500) and cylinder (800), seed 0, beside
   the paper's values and the best of the same five k for the data set's own chart.
2. GP + refinement on a 100 000-point swiss roll (k = 12): seconds (neighbour search included) and
   R_N, median of 3 seeds, with the neighbour search alone as the same-run baseline.
3. PSA on the 1600-point swiss roll (k = 12): seconds and R_N, median over 5 seeds (data and algorithm
   seeded alike), for the default (spectral start, annealing polish) and for annealing without the
   spectral start: pure annealing from random rotations (given about a minute per run; GR report
   "a few hours"), and a polish from GP's rotations (GR §4.3's example start); Isomap timed in the
   same run as the baseline.

Run from the repo root (takes a few minutes on two cores):

    python bench/procrustes_algorithms.py

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import pathlib
import statistics
import sys
import time
import warnings

import numpy as np

# The repo root goes first: run as a script, sys.path[0] is bench/.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import algorithms  # noqa: E402
import algorithms.gp  # noqa: E402, F401  registers "gp" (until algorithms/__init__.py imports it)
import algorithms.psa  # noqa: E402, F401  registers "psa"
import datasets  # noqa: E402
import measures  # noqa: E402

K_VALUES = (6, 9, 12, 15, 18)
TABLE_SETS = (("swissroll", 1600), ("hemisphere", 2500), ("cylinder", 800))
# GR Table 2, R_N [R_C] (minimum over the same k values).
PAPER = {
    ("gp", "swissroll"): (0.00, 0.00), ("gp", "hemisphere"): (0.02, 0.01), ("gp", "cylinder"): (0.13, 0.01),
    ("psa", "swissroll"): (0.00, 0.00), ("psa", "hemisphere"): (0.03, 0.01), ("psa", "cylinder"): (0.02, 0.01),
}
LARGE_N, LARGE_SEEDS, TARGET_SECONDS, TARGET_R_N = 100_000, (0, 1, 2), 60.0, 0.01
PSA_SEEDS = (0, 1, 2, 3, 4)
# Annealing without the spectral start, given ~a minute: 200 times the default's sweeps, slower cooling.
PURE_ANNEALING = {"annealing_steps": 20_000, "cooling": 0.9995, "outer_iterations": 3}


def scores(X, Y, k):
    """(R_N, R_C) means on the kNN graph of X."""
    local = measures.local_procrustes(X, Y, measures.nearest_neighbors(X, k))
    return float(np.nanmean(local.normalized)), float(np.nanmean(local.conformal))


def timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def table2():
    print("1. GR Table 2: R_N [R_C], minimum over k in {6, 9, 12, 15, 18} (seed 0, registry defaults)\n")
    header = f"{'data set':<11} {'n':>5}  {'method':<16} {'ours':>14}  {'GR (2009)':>12}  {'best k':>6}  {'seconds':>7}"
    print(header)
    print("-" * len(header))
    for name, n_samples in TABLE_SETS:
        data = datasets.load(name, n_samples, seed=0)
        truth = [scores(data.X, data.truth, k) for k in K_VALUES]
        for method, label in (("gp", "GP + refinement"), ("psa", "PSA")):
            results, seconds = [], 0.0
            for k in K_VALUES:
                elapsed, Y = timed(lambda: algorithms.embed(method, data.X, n_neighbors=k, seed=0))
                seconds += elapsed
                results.append(scores(data.X, Y, k))
            r_n, r_c = min(r[0] for r in results), min(r[1] for r in results)
            best_k = K_VALUES[int(np.argmin([r[0] for r in results]))]
            paper = PAPER[(method, name)]
            print(f"{name:<11} {n_samples:>5}  {label:<16} {r_n:>6.3f} [{r_c:.3f}]  {paper[0]:>5.2f} [{paper[1]:.2f}]  "
                  f"{best_k:>6}  {seconds / len(K_VALUES):>7.2f}")
        print(f"{'':<11} {'':>5}  {'(its chart)':<16} {min(t[0] for t in truth):>6.3f} [{min(t[1] for t in truth):.3f}]")
    print("\nseconds: mean per k of algorithms.embed (neighbour search included).")


def large_gp():
    print(f"\n2. GP + refinement on the {LARGE_N}-point swiss roll, k = 12 (registry defaults)\n")
    rows = []
    for seed in LARGE_SEEDS:
        data = datasets.load("swissroll", LARGE_N, seed=seed)
        knn_seconds, _ = timed(lambda: measures.nearest_neighbors(data.X, 12))
        seconds, Y = timed(lambda: algorithms.embed("gp", data.X, n_neighbors=12, seed=seed))
        greedy_seconds, greedy = timed(lambda: algorithms.embed("gp", data.X, n_neighbors=12, seed=seed,
                                                                refine_iterations=0))
        r_n, r_c = scores(data.X, Y, 12)
        rows.append((seconds, r_n, r_c, knn_seconds, greedy_seconds, scores(data.X, greedy, 12)[0]))
        print(f"  seed {seed}: {seconds:6.2f} s  R_N {r_n:.2e} [R_C {r_c:.2e}]   GP alone {greedy_seconds:5.2f} s "
              f"R_N {rows[-1][5]:.2e}   kNN search alone {knn_seconds:.2f} s")
    median = [statistics.median(column) for column in zip(*rows)]
    verdict = "met" if median[0] <= TARGET_SECONDS and median[1] <= TARGET_R_N else "NOT met"
    print(f"  median: {median[0]:.2f} s ({median[0] / median[3]:.0f}x the kNN search), R_N {median[1]:.2e} "
          f"[R_C {median[2]:.2e}]; GP alone {median[4]:.2f} s, R_N {median[5]:.2e}")
    truth = scores(data.X, data.truth, 12)[0]
    print(f"  (the arc-length chart of the last draw: R_N {truth:.2e})")
    print(f"  target <= {TARGET_SECONDS:g} s with R_N <= {TARGET_R_N}: {verdict}")


def psa_runs():
    print("\n3. PSA on the 1600-point swiss roll, k = 12, median over seeds "
          f"{', '.join(map(str, PSA_SEEDS))}\n")
    configurations = (
        ("default (spectral start + annealing polish)", {}),
        ("pure annealing from random O_i (20000 sweeps, cooling 0.9995)", {"initialization": "random", **PURE_ANNEALING}),
        ("annealing from GP's rotations (GR §4.3's example start)", {"initialization": "gp"}),
    )
    baseline, truth = [], []
    for seed in PSA_SEEDS:
        data = datasets.load("swissroll", 1600, seed=seed)
        baseline.append(timed(lambda: algorithms.embed("isomap", data.X, n_neighbors=12, seed=seed))[0])
        truth.append(scores(data.X, data.truth, 12)[0])
    isomap_seconds = statistics.median(baseline)
    print(f"  {'configuration':<62} {'seconds':>8} {'x Isomap':>8} {'R_N':>7} {'R_C':>7}   R_N per seed")
    for label, options in configurations:
        rows = []
        for seed in PSA_SEEDS:
            data = datasets.load("swissroll", 1600, seed=seed)
            seconds, Y = timed(lambda: algorithms.embed("psa", data.X, n_neighbors=12, seed=seed, **options))
            rows.append((seconds, *scores(data.X, Y, 12)))
        seconds, r_n, r_c = (statistics.median(column) for column in zip(*rows))
        print(f"  {label:<62} {seconds:>8.2f} {seconds / isomap_seconds:>8.1f} {r_n:>7.4f} {r_c:>7.4f}   "
              + " ".join(f"{row[1]:.4f}" for row in rows))
    print(f"  {'the arc-length chart itself':<62} {'':>8} {'':>8} {statistics.median(truth):>7.4f} {'':>7}   "
          + " ".join(f"{value:.4f}" for value in truth))
    print(f"  (Isomap on the same data: median {isomap_seconds:.2f} s.)")


def main():
    print(f"Procrustes embedding algorithms (numpy {np.__version__}); times in seconds\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", measures.ProcrustesLabWarning)
        table2()
        large_gp()
        psa_runs()


if __name__ == "__main__":
    main()
