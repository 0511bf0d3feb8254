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
- ``nh`` (neighborhood_hit) needs class labels (the share of a point's output neighbours with its
  label) and ``mrre`` (Lee & Verleysen's mean relative rank errors) has no counterpart in
  ``measures/``: neither is compared.

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
    X = datasets.load("swissroll", n, seed=0).X
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
    return result


def main(argv=None):
    run_standalone(rows, f"{SUITE} (numpy {np.__version__}; times in seconds)", f"n = {QUICK_N_SAMPLES}, one timed run",
                   argv)


if __name__ == "__main__":
    main()
