"""Benchmark of the per-point local Procrustes measures R_N and R_C on the swiss roll.

Times one ``measures.nearest_neighbors`` call plus one ``measures.local_procrustes`` call (the
whole per-point R_N + R_C computation, neighbour search included) at n = 1 600, 20 000 and
200 000 with k = 12, against a naive per-neighbourhood Python loop (centre, ``numpy.linalg.svd``
of Xc'Yc, G and G_C) timed in the same run on the same neighbourhoods. Run from the repo root:

    python bench/measures.py            (or: python -m bench.measures)

Nothing here asserts a time; the numbers are for reading (STYLE: speed lives in bench/).
"""

import pathlib
import statistics
import sys
import time

import numpy as np

# The repo root goes first: run as a script, sys.path[0] is bench/, where this very file would
# otherwise shadow the ``measures`` package.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import measures.chunks  # noqa: E402
from measures import local_procrustes, nearest_neighbors  # noqa: E402

N_NEIGHBORS = 12
SIZES = (1_600, 20_000, 200_000)
NAIVE_FULL_UP_TO = 20_000  # beyond this the naive loop runs on the first 20 000 neighbourhoods, scaled up
TARGET_SECONDS = 2.0  # target for n = 200 000
CHUNK_BUDGETS_MIB = (1, 8, 64, 512)  # the kernel's memory budget per chunk, swept at the largest n


def swiss_roll(n_samples, seed):
    """SPEC §1 swiss roll and its isometric arc-length chart (s(t) - s(1.5π), h)."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(1.5 * np.pi, 4.5 * np.pi, n_samples)
    h = rng.uniform(0.0, 21.0, n_samples)
    arc_length = 0.5 * (t * np.sqrt(1.0 + t * t) + np.arcsinh(t))
    arc_length -= 0.5 * (1.5 * np.pi * np.sqrt(1.0 + (1.5 * np.pi) ** 2) + np.arcsinh(1.5 * np.pi))
    return np.column_stack([t * np.cos(t), h, t * np.sin(t)]), np.column_stack([arc_length, h])


def ours(X, Y):
    """One kNN call and one kernel call; returns (knn_seconds, kernel_seconds, neighbors, result)."""
    start = time.perf_counter()
    neighbors = nearest_neighbors(X, N_NEIGHBORS)
    middle = time.perf_counter()
    result = local_procrustes(X, Y, neighbors)
    return middle - start, time.perf_counter() - middle, neighbors, result


def naive(X, Y, neighbors):
    """The baseline: one neighbourhood at a time, one SVD each. Returns per-point (R_N, R_C) terms."""
    normalized = np.empty(len(neighbors))
    conformal = np.empty(len(neighbors))
    for i, neighborhood in enumerate(neighbors):
        Xc = X[neighborhood] - X[neighborhood].mean(axis=0)
        Yc = Y[neighborhood] - Y[neighborhood].mean(axis=0)
        nuclear_norm = np.linalg.svd(Xc.T @ Yc, compute_uv=False).sum()
        xx, yy = np.sum(Xc * Xc), np.sum(Yc * Yc)
        normalized[i] = (xx + yy - 2.0 * nuclear_norm) / xx
        conformal[i] = (xx - nuclear_norm**2 / yy) / xx
    return normalized, conformal


def bench_size(n_samples, repeats):
    X, Y = swiss_roll(n_samples, seed=0)
    runs = [ours(X, Y) for _ in range(repeats)]
    knn = [run[0] for run in runs]
    kernel = [run[1] for run in runs]
    total = [a + b for a, b in zip(knn, kernel)]
    neighbors, result = runs[-1][2], runs[-1][3]

    n_naive = min(n_samples, NAIVE_FULL_UP_TO)
    naive_times, naive_values = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        naive_values = naive(X, Y, neighbors[:n_naive])
        naive_times.append((time.perf_counter() - start) * n_samples / n_naive)
    # The baseline shares our neighbour search: its total is that search plus its loop.
    naive_total = [statistics.median(knn) + t for t in naive_times]
    disagreement = max(np.abs(naive_values[0] - result.normalized[:n_naive]).max(),
                       np.abs(naive_values[1] - result.conformal[:n_naive]).max())
    return {
        "n": n_samples,
        "knn": statistics.median(knn),
        "kernel": statistics.median(kernel),
        "total": statistics.median(total),
        "total_min": min(total),
        "naive_loop": statistics.median(naive_times),
        "naive_total": statistics.median(naive_total),
        "naive_total_min": min(naive_total),
        "scaled": n_naive < n_samples,
        "n_naive": n_naive,
        "disagreement": disagreement,
        "repeats": repeats,
    }


def main():
    print(f"Per-point R_N + R_C on the swiss roll, k = {N_NEIGHBORS}, d = 2, q = 3 "
          f"(numpy {np.__version__}; times in seconds, median [min] of the runs)\n")
    header = (f"{'n':>8}  {'runs':>4}  {'kNN':>7}  {'kernel':>7}  {'ours total':>17}  "
              f"{'naive loop':>10}  {'naive total':>17}  {'naive/ours':>10}  {'loop/kernel':>11}  {'max |diff|':>9}")
    print(header)
    print("-" * len(header))
    rows = []
    for n_samples in SIZES:
        row = bench_size(n_samples, repeats=5 if n_samples <= NAIVE_FULL_UP_TO else 3)
        rows.append(row)
        mark = "*" if row["scaled"] else " "
        print(f"{row['n']:>8}  {row['repeats']:>4}  {row['knn']:>7.3f}  {row['kernel']:>7.3f}  "
              f"{row['total']:>7.3f} [{row['total_min']:>7.3f}]  {row['naive_loop']:>9.3f}{mark}  "
              f"{row['naive_total']:>7.3f} [{row['naive_total_min']:>7.3f}]  "
              f"{row['naive_total'] / row['total']:>10.1f}  {row['naive_loop'] / row['kernel']:>11.1f}  "
              f"{row['disagreement']:>9.1e}")
    print("\nours = one nearest_neighbors + one local_procrustes call; naive total = the same kNN + a Python")
    print("loop with one numpy.linalg.svd per neighbourhood; loop/kernel compares the Procrustes work")
    print("alone; max |diff| = largest per-point R_N/R_C gap between the two.")
    for row in rows:
        if row["scaled"]:
            print(f"* n = {row['n']}: naive loop timed on the first {row['n_naive']} neighbourhoods and "
                  f"scaled x{row['n'] / row['n_naive']:g}.")
    largest = rows[-1]
    verdict = "met" if largest["total"] <= TARGET_SECONDS else "NOT met"
    print(f"\nTarget: n = {largest['n']} in <= {TARGET_SECONDS:g} s (median): {verdict} "
          f"({largest['total']:.3f} s = kNN {largest['knn']:.3f} s + kernel {largest['kernel']:.3f} s).")


def chunk_budget_sweep(n_samples, repeats=3):
    """Median kernel time at several chunk budgets (the default is ``measures.chunks.CHUNK_BYTES``)."""
    X, Y = swiss_roll(n_samples, seed=0)
    neighbors = nearest_neighbors(X, N_NEIGHBORS)
    default = measures.chunks.CHUNK_BYTES
    print(f"\nKernel time against the chunk budget at n = {n_samples} (default {default / 2**20:g} MiB):")
    try:
        for mebibytes in CHUNK_BUDGETS_MIB:
            measures.chunks.CHUNK_BYTES = mebibytes * 2**20
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                local_procrustes(X, Y, neighbors)
                times.append(time.perf_counter() - start)
            print(f"  {mebibytes:>4} MiB: {statistics.median(times):.3f} s")
    finally:
        measures.chunks.CHUNK_BYTES = default


if __name__ == "__main__":
    main()
    chunk_budget_sweep(SIZES[-1])
