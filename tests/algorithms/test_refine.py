"""Tests of ``algorithms/refine.py``: GR §4.4's refinement never raises R, its steps are GR Eqs. 11-13
(checked against naive loops and a dense pseudo-inverse), and it works after any algorithm.

``algorithms/__init__.py`` does not import the Procrustes modules (yet): importing them at collection
would register "gp" and "psa" after ``test_common.py`` has listed the registry, so the fixture below
imports them when the first test here runs.
"""

import importlib

import numpy as np
import pytest

import algorithms
import datasets
import measures
from algorithms import EmbeddingError


@pytest.fixture(scope="module")
def refinement():
    """The module ``algorithms.refine``."""
    return importlib.import_module("algorithms.refine")


@pytest.fixture(scope="module")
def longrun():
    return importlib.import_module("algorithms.longrun")


def _strip(n_samples=300, seed=0, length=3.0):
    """A flat ``length`` x 1 strip (Z) and the same points in R³ (X)."""
    Z = np.random.default_rng(seed).uniform(size=(n_samples, 2)) * [length, 1.0]
    return Z, np.c_[Z, np.zeros(n_samples)]


def _bent(Z, amount=0.3):
    """A smooth, low-frequency distortion of a chart: local sweeps remove it slowly."""
    return np.c_[Z[:, 0], Z[:, 1] + amount * Z[:, 0] ** 2]


def _raw_r(X, Y, neighbors):
    return float(measures.local_procrustes(X, Y, neighbors).raw.mean())


# --- monotonicity ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["iterative", "exact"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trace_never_increases_from_a_noisy_start(refinement, method, seed):
    roll = datasets.load("swissroll", 500, random_state=seed)
    start = roll.truth + np.random.default_rng(seed).normal(scale=1.0, size=roll.truth.shape)
    _, trace = refinement.refine(roll.X, start, 8, refine_iterations=15, refine_method=method)
    assert trace.shape == (16,)
    assert np.all(np.diff(trace) <= 1e-12 * trace[0])
    assert trace[-1] < trace[0] / 5


@pytest.mark.parametrize("name", ["lle", "ltsa", "isomap"])
@pytest.mark.parametrize("method", ["iterative", "exact"])
def test_refinement_after_any_algorithm_lowers_r_monotonically(refinement, small_roll, name, method):
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    Y0 = algorithms.embed(name, small_roll.X, n_neighbors=8)
    _, trace = refinement.refine(small_roll.X, Y0, neighbors, refine_iterations=10, refine_method=method)
    assert np.all(np.diff(trace) <= 1e-12 * trace[0])
    assert trace[0] == pytest.approx(_raw_r(small_roll.X, Y0, neighbors), rel=1e-12)
    assert trace[-1] < trace[0]


def test_trace_holds_r_of_each_iterate(refinement, small_roll):
    # Stopping after t iterations returns the iterate whose R is the t-th trace entry.
    start = _bent(small_roll.truth, 0.01)
    _, full = refinement.refine(small_roll.X, start, 8, refine_iterations=4, refine_method="iterative")
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    for t in range(5):
        Y, trace = refinement.refine(small_roll.X, start, neighbors, refine_iterations=t, refine_method="iterative")
        np.testing.assert_allclose(trace, full[: t + 1], rtol=1e-10)
        assert _raw_r(small_roll.X, Y, neighbors) == pytest.approx(full[t], rel=1e-10)


def test_exact_step_beats_local_sweeps_on_a_bent_start(refinement):
    # SPEC §2: local sweeps (Eq. 13) damp low-frequency errors slowly; the exact Y-step (Eq. 11) does not.
    Z, X = _strip(400, length=4.0)
    start = _bent(Z)
    _, iterative = refinement.refine(X, start, 8, refine_iterations=10, refine_method="iterative")
    _, exact = refinement.refine(X, start, 8, refine_iterations=10, refine_method="exact")
    assert exact[-1] < iterative[-1] / 10


def test_tolerance_stops_when_progress_stalls(refinement, small_roll):
    start = _bent(small_roll.truth, 0.01)
    _, trace = refinement.refine(small_roll.X, start, 8, refine_iterations=200, refine_method="exact", tol=1e-3)
    assert len(trace) < 201
    assert trace[-2] - trace[-1] < 1e-3 * trace[-2]


# --- the steps are GR's equations ----------------------------------------------------------------------


def _dense_centring_sum(neighbors, n_samples):
    """``sum_i H_i`` built neighbourhood by neighbourhood (the naive oracle of AlignmentSystem.apply)."""
    total = np.zeros((n_samples, n_samples))
    width = neighbors.shape[1]
    for row in neighbors:
        total[np.ix_(row, row)] += np.eye(width) - 1.0 / width
    return total


def test_alignment_operator_is_the_sum_of_centring_matrices(refinement):
    _, X = _strip(60)
    neighbors = measures.nearest_neighbors(X, 5)
    system = refinement.AlignmentSystem(X, neighbors)
    Y = np.random.default_rng(0).normal(size=(60, 2))
    dense = _dense_centring_sum(neighbors, 60)
    np.testing.assert_allclose(system.apply(Y), dense @ Y, atol=1e-12)
    np.testing.assert_allclose(dense.sum(axis=1), 0.0, atol=1e-12)  # constants are its null space


def test_exact_solve_matches_the_dense_pseudo_inverse(refinement):
    # GR Eq. 11 for random rotations, against numpy's pseudo-inverse of the dense sum of H_i.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    neighbors = measures.nearest_neighbors(X, 6)
    rotations = np.linalg.qr(rng.normal(size=(80, 3, 2)))[0]
    Y = refinement.embed_from_rotations(X, neighbors, rotations)
    rhs = np.zeros((80, 2))
    for i, row in enumerate(neighbors):
        rhs[row] += (X[row] - X[row].mean(axis=0)) @ rotations[i]
    expected = np.linalg.pinv(_dense_centring_sum(neighbors, 80)) @ rhs
    np.testing.assert_allclose(Y, expected - expected.mean(axis=0), atol=1e-8 * np.abs(expected).max())
    np.testing.assert_allclose(Y.mean(axis=0), 0.0, atol=1e-12)


def test_jacobi_preconditioned_solve_agrees_with_the_factorized_one(refinement, longrun, monkeypatch):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(120, 3))
    neighbors = measures.nearest_neighbors(X, 6)
    rotations = np.linalg.qr(rng.normal(size=(120, 3, 2)))[0]
    direct = refinement.embed_from_rotations(X, neighbors, rotations)
    monkeypatch.setattr(refinement, "DIRECT_MAX_NONZEROS", 0)
    system = refinement.AlignmentSystem(X, neighbors)
    jacobi = system.solve(system.rhs(rotations), np.zeros((120, 2)), longrun.RunHooks())
    assert system.preconditioner_name == "Jacobi"
    np.testing.assert_allclose(jacobi, direct, atol=1e-7 * np.abs(direct).max())


def test_one_local_sweep_is_gr_equations_12_and_13(refinement, small_roll):
    # Naive loop: Procrustes A_i and b_i (Eq. 12) per neighbourhood, then y_j by Eq. 13.
    X, start = small_roll.X, _bent(small_roll.truth, 0.01)
    neighbors = measures.nearest_neighbors(X, 8)
    total, count = np.zeros_like(start), np.zeros(len(X))
    for row in neighbors:
        Xc, Yc = X[row] - X[row].mean(axis=0), start[row] - start[row].mean(axis=0)
        U, _, Vt = np.linalg.svd(Xc.T @ Yc, full_matrices=False)
        A = U @ Vt  # q x d
        b = (X[row] - start[row] @ A.T).mean(axis=0)  # Eq. 12
        total[row] += (X[row] - b) @ A  # A_i'(x_j - b_i), Eq. 13
        count[row] += 1
    expected = total / count[:, None]
    Y, _ = refinement.refine(X, start, neighbors, refine_iterations=1, refine_method="iterative", rescale=False)
    np.testing.assert_allclose(Y, expected, atol=1e-10)


def test_an_exact_embedding_is_a_fixed_point(refinement):
    Z, X = _strip(200)
    for method in ("iterative", "exact"):
        Y, trace = refinement.refine(X, Z + 7.0, 8, refine_iterations=3, refine_method=method)
        assert trace.shape == (4,)
        assert np.all(np.abs(trace) < 1e-13)  # rounding of ||Xc||^2 ~ 0.1 per neighbourhood
        assert measures.procrustes(X, Y, 8) < 1e-12


def test_a_normalized_output_is_first_brought_to_the_inputs_scale(refinement, small_roll):
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    lle = algorithms.embed("lle", small_roll.X, n_neighbors=8)  # unit variance: ~25 times too small
    _, with_scale = refinement.refine(small_roll.X, lle, neighbors, refine_iterations=1, refine_method="iterative")
    _, without = refinement.refine(small_roll.X, lle, neighbors, refine_iterations=1, refine_method="iterative",
                                   rescale=False)
    assert with_scale[1] < without[1]


def test_result_does_not_depend_on_the_chunk_budget(refinement, small_roll, monkeypatch):
    start = _bent(small_roll.truth, 0.01)
    Y, trace = refinement.refine(small_roll.X, start, 8, refine_iterations=3, refine_method="exact")
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 4096)
    Y_small, trace_small = refinement.refine(small_roll.X, start, 8, refine_iterations=3, refine_method="exact")
    np.testing.assert_allclose(Y_small, Y, atol=1e-9 * np.abs(Y).max())
    np.testing.assert_allclose(trace_small, trace, rtol=1e-9)


def test_k_and_its_neighbour_array_give_the_same_result(refinement, small_roll):
    start = _bent(small_roll.truth, 0.01)
    by_k = refinement.refine(small_roll.X, start, 8, refine_iterations=2)
    by_array = refinement.refine(small_roll.X, start, measures.nearest_neighbors(small_roll.X, 8), refine_iterations=2)
    np.testing.assert_array_equal(by_k[0], by_array[0])
    np.testing.assert_array_equal(by_k[1], by_array[1])


def test_zero_iterations_return_the_input(refinement, small_roll):
    Y, trace = refinement.refine(small_roll.X, small_roll.truth, 8, refine_iterations=0)
    np.testing.assert_array_equal(Y, small_roll.truth)
    assert trace.shape == (1,)


# --- hooks and errors ----------------------------------------------------------------------------------


def test_progress_reports_each_iteration_and_the_end(refinement, small_roll):
    reports = []
    refinement.refine(small_roll.X, small_roll.truth, 8, refine_iterations=3,
                      progress=lambda f, info: reports.append((f, info)))
    fractions = [fraction for fraction, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and fractions[0] == 0.0
    assert all(info["stage"] == "refine" and "R" in info for _, info in reports)


def test_a_stop_request_cancels_without_a_result(refinement, longrun, small_roll):
    with pytest.raises(longrun.Cancelled, match="refine was cancelled; no result was produced"):
        refinement.refine(small_roll.X, small_roll.truth, 8, refine_iterations=5, should_stop=lambda: True)
    assert issubclass(longrun.Cancelled, measures.ProcrustesLabError)
    assert issubclass(longrun.Cancelled, RuntimeError)


@pytest.mark.parametrize(("change", "message"), [
    ({"Y": np.zeros((10, 2))},
     r"X and Y must have the same number of rows \(points\); got X \(400, 3\) and Y \(10, 2\)"),
    ({"Y": np.zeros((400, 4))}, r"the embedding cannot have more columns than the input"),
    ({"refine_iterations": -1}, r"refine: parameter 'refine_iterations' must lie in \[0, 1000\]; got -1\."),
    ({"refine_iterations": 2.5}, r"must be a whole number; got 2\.5"),
    ({"refine_method": "newton"},
     r"refine: parameter 'refine_method' must be one of \['iterative', 'exact'\]; got 'newton'"),
    ({"neighbors": np.zeros((400, 3))},
     r"neighbors must be an integer array of shape \(400, k \+ 1\) from measures.nearest_neighbors"),
    ({"neighbors": np.zeros((400, 3), dtype=int)}, r"each point first in its own row"),
    ({"neighbors": 400}, r"n_neighbors must be an integer in \[1, 399\]; got 400\. Choose a smaller k"),
])
def test_bad_input_is_refused_with_a_message(refinement, small_roll, change, message):
    arguments = {"Y": small_roll.truth, "neighbors": 8, "refine_iterations": 2, "refine_method": "exact", **change}
    with pytest.raises(EmbeddingError, match=message):
        refinement.refine(small_roll.X, arguments["Y"], arguments["neighbors"],
                          refine_iterations=arguments["refine_iterations"], refine_method=arguments["refine_method"])


def test_non_finite_embedding_is_refused(refinement, small_roll):
    Y = np.array(small_roll.truth)
    Y[3, 0] = np.nan
    with pytest.raises(EmbeddingError, match=r"Y contains NaN or infinite values in 1 row\(s\), first at row 3"):
        refinement.refine(small_roll.X, Y, 8)


def test_exact_step_refuses_a_disconnected_graph_and_local_sweeps_do_not(refinement, two_clusters):
    start = two_clusters[:, :2] + 0.1
    with pytest.raises(measures.DisconnectedGraphError, match=r"2 connected components \(sizes 60, 40\).*"
                                                             r"refine_method='iterative'"):
        refinement.refine(two_clusters, start, 5, refine_method="exact")
    _, trace = refinement.refine(two_clusters, start, 5, refine_iterations=3, refine_method="iterative")
    assert np.all(np.diff(trace) <= 1e-12 * trace[0])
