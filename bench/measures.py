"""Benchmarks of the quality measures on the swiss roll.

1. Per-point R_N and R_C: one ``measures.nearest_neighbors`` call plus one
   ``measures.local_procrustes`` call (neighbour search included) at n = 1 600, 20 000 and 200 000
   with k = 12, against a naive per-neighbourhood Python loop (centre, ``numpy.linalg.svd`` of
   Xc'Yc, G and G_C) timed in the same run on the same neighbourhoods.
2. The measures of issue 4, k = 10, each against a baseline timed in the same run:
   M_L (``measures.evaluate(which="asim")``, neighbour search included) at n = 20 000 against our
   own Stiefel ascent on the same neighbourhoods; M_G (``measures.nieqa`` with k_l = k, M_L included)
   at n = 5 000; the exact shortest-path counts behind it against networkx's betweenness at
   n = 600; ``measures.trustworthiness`` against scikit-learn's at n = 5 000.

Run from the repo root:

    python bench/measures.py              (both; or: python -m bench.measures)
    python bench/measures.py --issue4     (the second part only)

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
from measures import (  # noqa: E402
    asim,
    evaluate,
    geodesic_graph,
    local_asim,
    local_procrustes,
    nearest_neighbors,
    nieqa,
    shortest_path_counts,
    trustworthiness,
)

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


# ---------------------------------------------------------------- issue 4: NIEQA, ranks

ISSUE4_NEIGHBORS = 10
ISSUE4_TARGETS = {"M_L": 2.0, "M_G": 15.0, "trustworthiness_ratio": 5.0}


def timed(function, repeats):
    """Run ``function()`` ``repeats`` times; return (median seconds, min seconds, last result)."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), result


def normalized_output(n_samples, seed):
    """The swiss roll and an LLE-like output: its arc-length chart at unit variance per axis, plus noise."""
    X, chart = swiss_roll(n_samples, seed)
    Y = chart / chart.std(axis=0) + 1e-3 * np.random.default_rng(seed).normal(size=chart.shape)
    return X, Y


def issue4_rows():
    """Timings of issue 4's targets, each with its same-run baseline. Returns a list of row dicts."""
    import networkx as nx
    from sklearn.manifold import trustworthiness as sklearn_trustworthiness

    k = ISSUE4_NEIGHBORS
    rows = []

    X, Y = normalized_output(20_000, seed=0)
    ours = timed(lambda: evaluate(X, Y, k, which="asim"), repeats=5)
    neighbors = nearest_neighbors(X, k)
    # Baseline: one asim() call per neighbourhood (NQ Algorithm 1's shape), on the first 2 000
    # neighbourhoods, scaled by 10; the check compares the closed form with our Stiefel ascent.
    loop = timed(lambda: [asim(X[row], Y[row]) for row in neighbors[:2_000]], repeats=3)
    loop = (loop[0] * 10, loop[1] * 10, loop[2])
    iterative = local_asim(X, Y, neighbors, solver="iterative")
    gap = max(np.nanmax(np.abs(iterative - ours[2].per_point["asim"])),
              np.abs(np.array(loop[2]) - ours[2].per_point["asim"][:2_000]).max())
    rows.append({"measure": "M_L (evaluate, kNN incl.)", "n": 20_000, "runs": 5, "ours": ours,
                 "baseline": "asim() loop* (no kNN)", "baseline_time": loop,
                 "check": f"M_L {ours[2].mean['asim']:.4f}; max |diff| vs loop, ascent {gap:.1e}",
                 "target": f"<= {ISSUE4_TARGETS['M_L']:g} s", "met": ours[0] <= ISSUE4_TARGETS["M_L"]})

    X, Y = normalized_output(5_000, seed=0)
    ours = timed(lambda: nieqa(X, Y, k), repeats=3)
    rows.append({"measure": "M_G (nieqa, k_l = k)", "n": 5_000, "runs": 3, "ours": ours, "baseline": "-",
                 "baseline_time": None,
                 "check": f"M_G {ours[2].global_assessment:.4f}, M_L {ours[2].local_assessment:.4f}",
                 "target": f"<= {ISSUE4_TARGETS['M_G']:g} s", "met": ours[0] <= ISSUE4_TARGETS["M_G"]})

    X_small, _ = normalized_output(600, seed=0)
    graph = geodesic_graph(X_small, nearest_neighbors(X_small, k))
    coo = graph.tocoo()
    network = nx.Graph()
    network.add_nodes_from(range(graph.shape[0]))
    network.add_weighted_edges_from(zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()))
    ours = timed(lambda: shortest_path_counts(graph), repeats=3)
    baseline = timed(lambda: nx.betweenness_centrality(network, normalized=False, weight="weight"), repeats=3)
    gap = np.abs(ours[2] - 2.0 * np.array([baseline[2][v] for v in range(graph.shape[0])])).max()
    rows.append({"measure": "  path counts in M_G", "n": 600, "runs": 3, "ours": ours,
                 "baseline": "networkx betweenness x 2", "baseline_time": baseline,
                 "check": f"max |diff| {gap:g}", "target": "-", "met": None})

    X, Y = normalized_output(5_000, seed=0)
    ours = timed(lambda: trustworthiness(X, Y, k), repeats=5)
    baseline = timed(lambda: sklearn_trustworthiness(X, Y, n_neighbors=k), repeats=3)
    ratio = baseline[0] / ours[0]
    rows.append({"measure": "trustworthiness", "n": 5_000, "runs": 5, "ours": ours,
                 "baseline": "sklearn.manifold", "baseline_time": baseline,
                 "check": f"T {ours[2]:.6f}; |diff| {abs(ours[2] - baseline[2]):.1e}",
                 "target": f">= {ISSUE4_TARGETS['trustworthiness_ratio']:g}x",
                 "met": ratio >= ISSUE4_TARGETS["trustworthiness_ratio"]})
    return rows


def main_issue4():
    print(f"\nMeasures of issue 4 on the swiss roll, k = {ISSUE4_NEIGHBORS}, output = arc-length chart at unit "
          "variance + noise\n(times in seconds, median [min] of the runs; baseline timed in the same run)\n")
    header = (f"{'measure':<28}{'n':>7}{'runs':>5}  {'ours':>15}  {'baseline':<27}{'baseline time':>15}  "
              f"{'ratio':>6}  {'target':<9}{'met':<5}  check")
    print(header)
    print("-" * len(header))
    for row in issue4_rows():
        median, minimum, _ = row["ours"]
        if row["baseline_time"] is None:
            baseline_text, ratio_text = f"{'-':>15}", f"{'-':>6}"
        else:
            baseline_text = f"{row['baseline_time'][0]:>6.3f} [{row['baseline_time'][1]:>6.3f}]"
            ratio_text = f"{row['baseline_time'][0] / median:>5.1f}x"
        met = {True: "yes", False: "NO", None: "-"}[row["met"]]
        print(f"{row['measure']:<28}{row['n']:>7}{row['runs']:>5}  {median:>6.3f} [{minimum:>6.3f}]  "
              f"{row['baseline']:<27}{baseline_text}  {ratio_text}  {row['target']:<9}{met:<5}  {row['check']}")
    print("\n* the per-neighbourhood loop is timed on the first 2 000 neighbourhoods and scaled x10; our time")
    print("  includes the neighbour search, the loop's does not. M_G includes M_L and the landmark MDS.")


if __name__ == "__main__":
    if "--issue4" not in sys.argv[1:]:
        main()
        chunk_budget_sweep(SIZES[-1])
    main_issue4()
