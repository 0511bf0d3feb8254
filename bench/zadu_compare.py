"""Our rank and Procrustes measures against ZADU's, values and time, at n = 5 000.

ZADU (Jeon et al., "ZADU: A Python Library for Evaluating the Reliability of Dimensionality
Reduction Embeddings", IEEE VIS 2023; pinned in requirements-bench.txt) is a benchmark-only
dependency: without it this suite is skipped with a note. Data: the SPEC §1 swiss roll (seed 0),
embedded by Isomap with k = 10; every measure at k = 10. Each ZADU time includes building its
``ZADU`` object, where it prepares the input space, as ours includes our neighbour searches.

Definitions, read from ZADU 0.5.4's source (``zadu/measures/*.py``, ``measures/utils/knn.py``):

- ``tnc`` (trustworthiness_continuity): Venna & Kaski's T(k) and C(k), the same formula as
  :func:`measures.trustworthiness` / :func:`measures.continuity`, with the same rank (1 + the number
  of points closer, the point itself excluded). Ties: ZADU orders equidistant points by index, ours
  counts strictly closer points only; the swiss roll has none. ZADU averages per-point values, we
  sum integer penalties first, so the values agree to rounding (~1e-16). One ZADU call gives both;
  ours is two calls, and both are timed.
- ``lcmc`` (local_continuity_meta_criteria): Chen & Buja's LCMC *with* its baseline correction,
  ``mean_i |N_k(x_i) ∩ N_k(y_i)| / k - k / (n - 1)``. Ours, :func:`measures.neighbourhood_agreement`,
  is ``1 - M_LC`` (NQ Eq. 2: the same mean overlap without the correction, as a disagreement), so
  ``lcmc = 1 - neighbourhood_agreement - k / (n - 1)``; the row checks that identity.
- ``proc`` (procrustes): not our R_N. ZADU takes the k nearest neighbours of x_i in the input and,
  separately, the k nearest neighbours of y_i in the output, and matches them by rank (the j-th input
  neighbour with the j-th output neighbour), which are different points wherever the two
  neighbourhoods differ; its neighbourhoods also leave the point out (k points; ours have k + 1,
  the point first, SPEC §0). Otherwise its per-point value (centred, best rotation, no scaling,
  divided by the centred input's squared norm) is GR's R_N term: on our neighbourhoods (passed as
  ``knn_info`` for both spaces) it equals ``measures.procrustes`` to rounding, which the row checks.
- ``stress``, ``scale_normalized_stress``, ``kl_divergence`` (sigma 0.1 and 1.0): the same
  definitions as :func:`measures.stress`, :func:`measures.scale_normalized_stress` and
  :func:`measures.kl_divergence` (ZADU's density includes j = i; distances over the largest one).
- ``mrre``: the same ranks (stable sort, ties by index) and normalization; ZADU reports
  ``1 - W`` (a quality), :func:`measures.mrre` the error W of Lee & Verleysen: the row compares
  ``1 - ours``.
- ``srho`` (spearman_rho): Spearman's rho between the input's *Euclidean* distances and the output's.
  Ours, ``distance_spearman`` (DEMaP), uses kNN-graph geodesics of the input; the row checks
  ``distance_spearman(..., geodesic=False)`` against ZADU and shows the geodesic value beside it.
- ``l_tnc`` (label_trustworthiness_and_continuity, cvm "dsc") and ``ivm`` silhouette read class
  labels: compared on scikit-learn's digits (classes 0-9) embedded by PCA.
- ``nh`` (neighborhood_hit) and random-triplet accuracy have no counterpart on the other side.

Run from the repo root: ``python bench/zadu_compare.py [--quick]`` (``--quick``: n = 2 000, one
timed run); part of ``python -m bench``. Nothing here asserts a time (STYLE: speed lives in bench/).
"""

import importlib.metadata
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import algorithms  # noqa: E402
import datasets  # noqa: E402
import measures  # noqa: E402
from bench.harness import Row, SuiteSkipped, measure, run_standalone, time_call  # noqa: E402

SUITE = "zadu_compare"
N_SAMPLES, QUICK_N_SAMPLES = 5_000, 2_000
N_NEIGHBORS = 10
REPEATS = 3


def _zadu():
    """The ``zadu`` package, or :class:`SuiteSkipped` naming the install command."""
    try:
        import zadu
    except ImportError as error:
        raise SuiteSkipped("zadu is not installed (pip install -r requirements-bench.txt)") from error
    return zadu


def zadu_measure(zadu, measure_id, X, Y, k):
    """One ZADU measure of ``Y`` against ``X``: its result dict (object construction included)."""
    return zadu.ZADU([{"id": measure_id, "params": {"k": k}}], X).measure(Y)[0]


def rows(quick=False):
    """T & C, neighbourhood agreement and R_N against ZADU's tnc, lcmc and proc, same data, same run."""
    zadu = _zadu()
    from zadu.measures import procrustes as zadu_procrustes

    n, k = (QUICK_N_SAMPLES if quick else N_SAMPLES), N_NEIGHBORS
    repeats = 1 if quick else REPEATS
    X = datasets.load("swissroll", n, random_state=0).X
    Y = algorithms.embed("isomap", X, n_neighbors=k)
    version = importlib.metadata.version("zadu")
    data = f"swiss roll, Isomap k = {k}"
    result = []

    ours = measure(lambda: (measures.trustworthiness(X, Y, k), measures.continuity(X, Y, k)), repeats)
    theirs = time_call(lambda: zadu_measure(zadu, "tnc", X, Y, k), repeats)
    (trust, cont), values = ours.result, theirs.result
    result.append(Row.from_timing(
        SUITE, f"trustworthiness + continuity (2 calls), k = {k}", n, ours, baseline=f"ZADU {version} tnc",
        baseline_timing=theirs,
        note=(f"{data}: T {trust:.10f} vs ZADU {values['trustworthiness']:.10f} "
              f"(|diff| {abs(trust - values['trustworthiness']):.1e}), C {cont:.10f} vs ZADU "
              f"{values['continuity']:.10f} (|diff| {abs(cont - values['continuity']):.1e}); same definition")))

    ours = measure(lambda: measures.neighbourhood_agreement(X, Y, k), repeats)
    theirs = time_call(lambda: zadu_measure(zadu, "lcmc", X, Y, k), repeats)
    converted = 1.0 - ours.result - k / (n - 1)
    result.append(Row.from_timing(
        SUITE, f"neighbourhood_agreement (1 - M_LC), k = {k}", n, ours, baseline=f"ZADU {version} lcmc",
        baseline_timing=theirs,
        note=(f"{data}: 1 - M_LC = {ours.result:.10f}; ZADU's LCMC is baseline-corrected: "
              f"1 - ours - k/(n-1) = {converted:.10f} vs ZADU {theirs.result['lcmc']:.10f} "
              f"(|diff| {abs(converted - theirs.result['lcmc']):.1e})")))

    ours = measure(lambda: measures.procrustes(X, Y, k), repeats)
    theirs = time_call(lambda: zadu_measure(zadu, "proc", X, Y, k), repeats)
    neighbors = measures.nearest_neighbors(X, k)
    on_our_neighbourhoods = zadu_procrustes.measure(X, Y, k, knn_info=(neighbors, neighbors))["procrustes"]
    result.append(Row.from_timing(
        SUITE, f"R_N (measures.procrustes), k = {k}", n, ours, baseline=f"ZADU {version} proc",
        baseline_timing=theirs,
        note=(f"{data}: R_N {ours.result:.6f}; ZADU proc {theirs.result['procrustes']:.6f} is another "
              f"quantity (input and output neighbourhoods matched by rank, point left out; see "
              f"bench/zadu_compare.py); ZADU's kernel on our neighbourhoods {on_our_neighbourhoods:.6f} "
              f"(|diff| {abs(on_our_neighbourhoods - ours.result):.1e})")))
    result += peer_rows(zadu, version, X, Y, k, data, repeats)
    result += label_rows(zadu, version, repeats)
    return result


def _row(item, n, ours, theirs, version, zadu_id, note):
    return Row.from_timing(SUITE, item, n, ours, baseline=f"ZADU {version} {zadu_id}", baseline_timing=theirs,
                           note=note)


def peer_rows(zadu, version, X, Y, k, data, repeats):
    """Issue 14's distance measures against ZADU's, same data: each row states the largest difference."""
    n = X.shape[0]
    rows = []
    for ours_function, zadu_id, key in ((measures.stress, "stress", "stress"),
                                        (measures.scale_normalized_stress, "sn_stress", "scale_normalized_stress")):
        ours = measure(lambda: ours_function(X, Y), repeats)
        theirs = time_call(lambda: zadu.ZADU([{"id": zadu_id, "params": {}}], X).measure(Y)[0], repeats)
        rows.append(_row(f"{key} (measures.{ours_function.__name__})", n, ours, theirs, version, zadu_id,
                         f"{data}: {ours.result:.12f} vs ZADU {theirs.result[key]:.12f} "
                         f"(|diff| {abs(ours.result - theirs.result[key]):.1e}); same definition"))
    gaps, seconds = [], []
    for sigma in (0.1, 1.0):
        ours = measure(lambda: measures.kl_divergence(X, Y, sigma=sigma), repeats)
        theirs = time_call(lambda: zadu.ZADU([{"id": "kl_div", "params": {"sigma": sigma}}], X).measure(Y)[0], repeats)
        gaps.append(f"sigma {sigma}: {ours.result:.12f} vs {theirs.result['kl_divergence']:.12f} "
                    f"(|diff| {abs(ours.result - theirs.result['kl_divergence']):.1e})")
        seconds.append((ours, theirs))
    rows.append(_row("kl_divergence (sigma 0.1; 1.0 in the note)", n, seconds[0][0], seconds[0][1], version, "kl_div",
                     f"{data}: " + "; ".join(gaps) + "; same definition"))
    ours = measure(lambda: (measures.mrre(X, Y, k), measures.mrre(X, Y, k, direction="missing")), repeats)
    theirs = time_call(lambda: zadu_measure(zadu, "mrre", X, Y, k), repeats)
    false_gap = abs(1.0 - ours.result[0] - theirs.result["mrre_false"])
    missing_gap = abs(1.0 - ours.result[1] - theirs.result["mrre_missing"])
    rows.append(_row(f"MRRE false + missing (measures.mrre, 2 calls), k = {k}", n, ours, theirs, version, "mrre",
                     f"{data}: 1 - ours = {1.0 - ours.result[0]:.12f}, {1.0 - ours.result[1]:.12f} vs ZADU "
                     f"{theirs.result['mrre_false']:.12f}, {theirs.result['mrre_missing']:.12f} (|diff| "
                     f"{max(false_gap, missing_gap):.1e}); ZADU reports 1 - W, we report W"))
    ours = measure(lambda: measures.distance_spearman(X, Y, k, geodesic=False), repeats)
    theirs = time_call(lambda: zadu.ZADU([{"id": "srho", "params": {}}], X).measure(Y)[0], repeats)
    geodesic = measures.distance_spearman(X, Y, k)
    rows.append(_row("Spearman rho of distances (distance_spearman, geodesic=False)", n, ours, theirs, version,
                     "srho", f"{data}: {ours.result:.12f} vs ZADU {theirs.result['spearman_rho']:.12f} (|diff| "
                     f"{abs(ours.result - theirs.result['spearman_rho']):.1e}); DEMaP on geodesics (the registry's "
                     f"distance_spearman) {geodesic:.6f}"))
    return rows


def label_rows(zadu, version, repeats):
    """Label-T&C and the silhouette on digits (PCA to 2-D) against ZADU's l_tnc and ivm."""
    from sklearn.datasets import load_digits
    from sklearn.decomposition import PCA

    digits = load_digits()
    X, labels = digits.data, digits.target
    Y = PCA(2).fit_transform(X)
    n = X.shape[0]
    data = "digits (0-9), PCA to 2-D"
    ours = measure(lambda: measures.label_trust_continuity(X, Y, labels), repeats)
    theirs = time_call(lambda: zadu.ZADU([{"id": "l_tnc", "params": {"cvm": "dsc"}}], X).measure(Y, labels)[0],
                       repeats)
    gap = max(abs(ours.result[0] - theirs.result["label_trustworthiness"]),
              abs(ours.result[1] - theirs.result["label_continuity"]))
    rows = [_row("label-T + label-C (label_trust_continuity, DSC)", n, ours, theirs, version, "l_tnc",
                 f"{data}: {ours.result[0]:.12f}, {ours.result[1]:.12f} vs ZADU "
                 f"{theirs.result['label_trustworthiness']:.12f}, {theirs.result['label_continuity']:.12f} "
                 f"(|diff| {gap:.1e}); same definition")]
    ours = measure(lambda: measures.silhouette(Y, labels), repeats)
    theirs = time_call(lambda: zadu.ZADU([{"id": "ivm", "params": {"measure": "silhouette"}}], X).measure(
        Y, labels)[0], repeats)
    value = next(iter(theirs.result.values()))
    rows.append(_row("silhouette (measures.silhouette)", n, ours, theirs, version, "ivm silhouette",
                     f"{data}: {ours.result:.12f} vs ZADU {value:.12f} (|diff| {abs(ours.result - value):.1e}); "
                     "both scikit-learn's silhouette"))
    return rows


def main(argv=None):
    run_standalone(rows, f"{SUITE} (numpy {np.__version__}; times in seconds)", f"n = {QUICK_N_SAMPLES}, one timed run",
                   argv)


if __name__ == "__main__":
    main()
