"""Tests of ``algorithms/embedding.py``: how :func:`algorithms.embed` validates, dispatches through the
registry, post-processes, and turns solver failures into typed errors. Fake entries stand in for real
algorithms so that each behaviour is isolated."""

import re

import numpy as np
import pytest
from numpy.linalg import LinAlgError
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence

import algorithms
import datasets
import measures
from algorithms import (
    ConvergenceError,
    DuplicatePointsError,
    EmbeddingError,
    SampleLimitError,
    SolverError,
    TooFewNeighborsError,
)

# Columns (0, 1, 5) and (1, -3, 2): centred they are (-2, -1, 3) and (1, -3, 2), both of norm √14.
FIXED_OUTPUT = np.array([[0.0, 1.0], [1.0, -3.0], [5.0, 2.0]])


class RecordingFit:
    """A registry ``fit`` that records its arguments and returns a fixed array (or raises)."""

    def __init__(self, result=None, error=None):
        self.calls = []
        self.result, self.error = result, error

    def __call__(self, X, neighbors, n_components, random_state, **params):
        self.calls.append({"X": X, "neighbors": neighbors, "n_components": n_components, "random_state": random_state,
                           "params": params})
        if self.error is not None:
            raise self.error
        if self.result is not None:
            return self.result
        return X[:, :n_components]


@pytest.fixture
def points():
    return np.random.default_rng(3).uniform(size=(40, 3))


def test_graph_method_receives_the_shared_neighbourhoods(points, replace_entry):
    fit = RecordingFit()
    replace_entry("lle", fit=fit)
    algorithms.embed("lle", points, n_neighbors=6, n_components=2, random_state=11, reg=0.5)
    (call,) = fit.calls
    np.testing.assert_array_equal(call["neighbors"], measures.nearest_neighbors(points, 6))
    assert call["n_components"] == 2 and call["random_state"] == 11
    # Declared parameters arrive validated, with the defaults filled in.
    assert call["params"] == {"reg": 0.5, "eigen_solver": "auto"}
    assert call["X"].dtype == np.float64 and call["X"].flags.c_contiguous


def test_global_method_receives_no_neighbourhoods(points, replace_entry):
    fit = RecordingFit()
    replace_entry("pca", fit=fit)
    algorithms.embed("pca", points.tolist(), n_neighbors=6)
    assert fit.calls[0]["neighbors"] is None
    np.testing.assert_array_equal(fit.calls[0]["X"], points)


@pytest.mark.parametrize(("convention", "expected"), [
    ("unit_norm", np.array([[-2.0, -1.0], [-1.0, 3.0], [3.0, -2.0]]) / np.sqrt(14.0)),
    ("unit_variance", np.array([[-2.0, -1.0], [-1.0, 3.0], [3.0, -2.0]]) / np.sqrt(14.0 / 3.0)),
    ("isometric", np.array([[0.0, -1.0], [1.0, 3.0], [5.0, -2.0]])),
])
def test_entry_output_scale_then_sign_rule_are_applied(convention, expected, replace_entry):
    replace_entry("pca", fit=RecordingFit(FIXED_OUTPUT.astype(np.float32)), output_scale=convention,
                  output="isometric" if convention == "isometric" else "normalized")
    Y = algorithms.embed("pca", np.eye(3), n_neighbors=1)
    assert Y.dtype == np.float64
    np.testing.assert_allclose(Y, expected, rtol=1e-15)


def test_invalid_call_never_reaches_the_algorithm(points, replace_entry):
    fit = RecordingFit()
    replace_entry("isomap", fit=fit)
    for bad in ({"random_state": -3}, {"n_neighbors": 40}, {"n_components": 4}, {"gamma": 1.0}):
        with pytest.raises(EmbeddingError):
            algorithms.embed("isomap", points, **{"n_neighbors": 6, **bad})
    assert fit.calls == []


@pytest.mark.parametrize("shape", [(0, 3), (5, 0), (6,), (2, 3, 4)])
def test_input_that_is_not_a_point_table_is_refused(shape):
    with pytest.raises(EmbeddingError, match=rf"X must be a non-empty 2-D array \(n_samples, n_features\); "
                                             rf"got shape {re.escape(str(shape))}"):
        algorithms.embed("pca", np.zeros(shape), n_neighbors=1)


def test_output_dimension_is_bounded_by_the_sample_size_too():
    X = np.random.default_rng(0).standard_normal((3, 5))
    with pytest.raises(EmbeddingError, match=r"n_components must be an integer in \[1, 2\]; got 3\."):
        algorithms.embed("pca", X, n_neighbors=1, n_components=3)


def test_arpack_non_convergence_becomes_a_convergence_error(points, replace_entry):
    error = ArpackNoConvergence("ARPACK error -1: No convergence", np.empty(0), np.empty((0, 0)))
    replace_entry("isomap", fit=RecordingFit(error=error))
    with pytest.raises(ConvergenceError,
                       match=r"Isomap: ARPACK did not converge \(.*No convergence\)\. "
                             r"Raise k .*use fewer points, or choose the dense eigensolver") as caught:
        algorithms.embed("isomap", points, n_neighbors=6)
    assert caught.value.__cause__ is error and isinstance(caught.value, SolverError)


@pytest.mark.parametrize("error", [
    ArpackError(-9999),
    LinAlgError("Singular matrix"),
])
def test_eigensolver_failure_becomes_a_solver_error(error, points, replace_entry):
    replace_entry("isomap", fit=RecordingFit(error=error))
    with pytest.raises(SolverError, match=r"Isomap: the eigensolver failed \(.+\)\. Try another k") as caught:
        algorithms.embed("isomap", points, n_neighbors=6)
    assert caught.value.__cause__ is error


def test_measure_error_inside_an_algorithm_becomes_an_embedding_error(points, replace_entry):
    error = measures.MeasureError("n_neighbors must be an integer in [1, 5]")
    replace_entry("isomap", fit=RecordingFit(error=error))
    with pytest.raises(EmbeddingError, match=r"^n_neighbors must be an integer in \[1, 5\]$") as caught:
        algorithms.embed("isomap", points, n_neighbors=6)
    assert not isinstance(caught.value, SolverError) and caught.value.__cause__ is error


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_output_becomes_a_solver_error(bad, points, replace_entry):
    output = np.ones((40, 2))
    output[5, 1] = bad
    replace_entry("laplacian", fit=RecordingFit(output))
    with pytest.raises(SolverError, match="Laplacian eigenmaps returned non-finite coordinates; try another k"):
        algorithms.embed("laplacian", points, n_neighbors=6)


def test_other_exceptions_are_not_swallowed(points, replace_entry):
    replace_entry("isomap", fit=RecordingFit(error=KeyError("bug")))
    with pytest.raises(KeyError):
        algorithms.embed("isomap", points, n_neighbors=6)


@pytest.mark.xdist_group("umap")  # it runs UMAP: on the worker that has compiled its kernels (test_common.py)
def test_input_is_not_modified(points):
    X = points.copy()
    for name in algorithms.available():
        algorithms.embed(name, X, n_neighbors=8)
    assert np.array_equal(X, points)


# --- diagnostics before the algorithm runs -------------------------------------------------------


def test_duplicate_points_are_refused_naming_how_many(points, replace_entry):
    fit = replace_entry("lle", fit=RecordingFit()).fit
    X = np.vstack([points, points[[3, 3, 17]]])  # rows 40, 41 repeat row 3; row 42 repeats row 17
    with pytest.raises(DuplicatePointsError, match=r"^X has 3 duplicate point\(s\): rows equal to an earlier row "
                                                   r"\(first: row 40 repeats row 3\)\. .*Remove them first "
                                                   r"\(numpy.unique\(X, axis=0\)\) or add a little noise\.$") as caught:
        algorithms.embed("lle", X, n_neighbors=6)
    assert caught.value.n_duplicates == 3 and fit.calls == []


def test_negative_zero_is_a_duplicate_of_zero():
    X = np.array([[0.0, 1.0], [1.0, 2.0], [-0.0, 1.0], [3.0, 0.5]])
    with pytest.raises(DuplicatePointsError, match=r"X has 1 duplicate point\(s\).*row 2 repeats row 0"):
        algorithms.embed("pca", X, n_neighbors=1)


def test_duplicates_are_refused_for_every_algorithm(points):
    X = np.vstack([points, points[:1]])
    for name in algorithms.available():
        with pytest.raises(DuplicatePointsError, match="X has 1 duplicate point"):
            algorithms.embed(name, X, n_neighbors=8)


def test_k_below_the_minimum_is_a_typed_error_with_the_generic_message(points):
    with pytest.raises(TooFewNeighborsError, match=r"^n_neighbors must be an integer in \[3, 39\]; got 2\. LLE needs "
                                                   r"k >= 3 for d = 2 and k < n = 40; change k or the number of "
                                                   r"points\.$") as caught:
        algorithms.embed("lle", points, n_neighbors=2)
    assert (caught.value.n_neighbors, caught.value.minimum) == (2, 3)


def test_memory_refusal_states_estimate_budget_and_largest_n(replace_entry, monkeypatch):
    X = datasets.load("swissroll", 300, random_state=0).X
    replace_entry("isomap", alternative=None)
    monkeypatch.setattr(algorithms.registry, "MEMORY_BUDGET", 500_000)
    estimate = algorithms.spec("isomap").memory_bytes(300, 8, 2)
    with pytest.raises(SampleLimitError, match=rf"^Isomap would need about {estimate / 1e3:.1f} kB at n = 300 \(k = 8, "
                                               r"d = 2\), above the memory budget of 500.0 kB\. Use at most 2\d\d "
                                               r"points\.$") as caught:
        algorithms.embed("isomap", X, n_neighbors=8)
    assert caught.value.bytes_needed == estimate and caught.value.alternative is None
    assert algorithms.spec("isomap").memory_bytes(caught.value.max_samples, 8, 2) <= 500_000


def test_memory_refusal_names_the_entrys_alternative(replace_entry, monkeypatch):
    X = datasets.load("swissroll", 300, random_state=0).X
    replace_entry("lle", alternative="laplacian")
    monkeypatch.setattr(algorithms.registry, "MEMORY_BUDGET", 100_000)
    with pytest.raises(SampleLimitError, match=r"\. Use at most \d+ points, or Laplacian eigenmaps \(algorithm "
                                               r"'laplacian'\), which needs far less memory\.$") as caught:
        algorithms.embed("lle", X, n_neighbors=8)
    assert caught.value.alternative == "laplacian"


def test_isomap_refuses_large_n_stating_gigabytes():
    # The real budget, checked before any work: no 7 GB matrix is allocated to find out.
    X = np.zeros((30_000, 3))
    with pytest.raises(SampleLimitError, match=r"^Isomap would need about 7.2 GB at n = 30000 \(k = 8, d = 2\), "
                                               r"above the memory budget of 4.0 GB\. Use at most 22\d\d\d points, or "
                                               r"Landmark Isomap \(algorithm 'landmark_isomap'\), which needs far less "
                                               r"memory\.$"):
        algorithms.embed("isomap", X, n_neighbors=8)


# --- "rescale output" ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ltsa_roll():
    """``(X, Y)``: LTSA's unit-norm embedding of the 400-point roll at k = 8."""
    roll = datasets.load("swissroll", 400, random_state=0)
    return roll.X, algorithms.embed("ltsa", roll.X, n_neighbors=8)


@pytest.mark.parametrize("option", ["unit_variance", "unit_norm"])
def test_normalizing_options_are_exact(option, ltsa_roll):
    X, _ = ltsa_roll
    for name in ("isomap", "ltsa"):
        Y = algorithms.embed(name, X, n_neighbors=8, rescale=option)
        np.testing.assert_allclose(Y.mean(axis=0), 0.0, atol=1e-12)
        spread = Y.std(axis=0) if option == "unit_variance" else np.linalg.norm(Y, axis=0)
        np.testing.assert_allclose(spread, 1.0, rtol=1e-12)


def test_authors_option_is_the_default(ltsa_roll):
    X, Y = ltsa_roll
    assert np.array_equal(algorithms.embed("ltsa", X, n_neighbors=8, rescale="authors"), Y)
    assert np.array_equal(algorithms.embed("ltsa", X, n_neighbors=8, rescale=None), Y)


def test_best_global_scale_lowers_rn_and_keeps_rc(ltsa_roll):
    X, Y = ltsa_roll
    scaled = algorithms.embed("ltsa", X, n_neighbors=8, rescale="best_global_scale")
    # One positive factor, no rotation or flip.
    factor = (scaled * Y).sum() / (Y * Y).sum()
    np.testing.assert_allclose(scaled, factor * Y, rtol=1e-12)
    before = {v: measures.procrustes(X, Y, 8, variant=v) for v in ("normalized", "conformal")}
    after = {v: measures.procrustes(X, scaled, 8, variant=v) for v in ("normalized", "conformal")}
    assert before["normalized"] > 0.95 and after["normalized"] < 0.5 * before["normalized"]
    assert after["conformal"] == pytest.approx(before["conformal"], rel=1e-9)
    # It is the minimum: any other factor scores worse.
    for nudge in (0.9, 1.1):
        assert measures.procrustes(X, nudge * scaled, 8) > after["normalized"]


def test_best_global_scale_of_a_global_method_uses_the_kNN_graph_of_k(ltsa_roll):
    # PCA builds no graph; the scale is fitted on the graph with the k given, which the measures use.
    X, _ = ltsa_roll
    Y = algorithms.embed("pca", X, n_neighbors=8)
    for k in (5, 20):
        scaled = algorithms.embed("pca", X, n_neighbors=k, rescale="best_global_scale")
        expected = measures.local_procrustes(X, Y, measures.nearest_neighbors(X, k)).best_global_scale()
        np.testing.assert_allclose(scaled, expected * Y, rtol=1e-12)


@pytest.mark.parametrize("bad", ["isometric", "unit variance", 1.0, ["unit_norm"]])
def test_unknown_rescale_option_is_refused(bad, points, replace_entry):
    fit = replace_entry("lle", fit=RecordingFit()).fit
    with pytest.raises(EmbeddingError, match=rf"rescale must be None or one of \['authors', 'unit_variance', "
                                             rf"'unit_norm', 'best_global_scale'\]; got {re.escape(repr(bad))}\."):
        algorithms.embed("lle", points, n_neighbors=6, rescale=bad)
    assert fit.calls == []


def test_refinement_after_any_algorithm_lowers_r_and_is_validated():
    embed = algorithms.embed
    data = datasets.load("swissroll", 500, random_state=2)
    plain = embed("lle", data.X, n_neighbors=10)
    refined = embed("lle", data.X, n_neighbors=10, post_refinement=10)
    raw = [measures.procrustes(data.X, Y, 10, variant="raw") for Y in (plain, refined)]
    assert raw[1] < 0.5 * raw[0]  # refinement minimizes R itself (GR §4.4)
    # The refined output is at the input's scale: R_N falls too, far below LLE's unit variance.
    assert measures.procrustes(data.X, refined, 10) < 0.5 * measures.procrustes(data.X, plain, 10)
    with pytest.raises(EmbeddingError, match="embed: post_refinement: parameter 'refine_iterations' must lie in"):
        embed("lle", data.X, n_neighbors=10, post_refinement=-1)
    with pytest.raises(EmbeddingError, match="parameter 'refine_method' must be one of"):
        embed("lle", data.X, n_neighbors=10, post_refinement=1, post_refinement_method="best")
    # GP's own refinement parameter and the post-step coexist.
    both = embed("gp", data.X, n_neighbors=10, refine_iterations=2, post_refinement=2)
    assert measures.procrustes(data.X, both, 10) < 0.05


def test_progress_and_cancel_hooks_reach_the_long_algorithms_only():
    data = datasets.load("swissroll", 400, random_state=1)
    reports = []
    algorithms.embed("psa", data.X, n_neighbors=10, progress=lambda fraction, info: reports.append((fraction, info)))
    fractions = [fraction for fraction, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any("temperature" in info and "energy" in info for _, info in reports)  # annealing reported
    with pytest.raises(algorithms.Cancelled):
        algorithms.embed("gp", data.X, n_neighbors=10, should_stop=lambda: True)
    calls = []
    algorithms.embed("lle", data.X, n_neighbors=10, progress=lambda *args: calls.append(args),
                     should_stop=lambda: True)  # no hooks: runs to the end
    assert calls == []


# --- renamed keywords --------------------------------------------------------------------------------


@pytest.mark.parametrize(("old", "new", "value"),
                         [("seed", "random_state", 5), ("output_scale", "rescale", "unit_norm")])
def test_renamed_keywords_are_refused_with_a_type_error_naming_the_new_one(points, old, new, value):
    # The Python API takes the new names only; old links are read by lab/view/links.py alone.
    with pytest.raises(TypeError, match=rf"isomap has no parameter '{old}'; .* {old}= is now {new}=\.$") as info:
        algorithms.embed("isomap", points, n_neighbors=6, **{old: value})
    assert isinstance(info.value, EmbeddingError)


def test_options_are_keyword_only(points):
    with pytest.raises(TypeError):
        algorithms.embed("pca", points, 6)  # n_neighbors positional


# --- a precomputed neighbour array ----------------------------------------------------------------------


def test_given_neighbors_replace_the_search(points, replace_entry, monkeypatch):
    fit = RecordingFit()
    replace_entry("lle", fit=fit)
    shared = measures.nearest_neighbors(points, 6)
    searches = []
    import algorithms.embedding as embedding_module

    monkeypatch.setattr(embedding_module, "nearest_neighbors", lambda *a: searches.append(a) or shared)
    Y = algorithms.embed("lle", points, n_neighbors=6, neighbors=shared, post_refinement=2,
                         rescale="best_global_scale")
    assert searches == [] and fit.calls[0]["neighbors"] is shared
    # Without the array, one search serves the algorithm, the refinement and the best global scale.
    again = algorithms.embed("lle", points, n_neighbors=6, post_refinement=2, rescale="best_global_scale")
    assert len(searches) == 1
    np.testing.assert_array_equal(Y, again)


def test_a_global_method_with_refinement_searches_once(points, monkeypatch):
    import algorithms.embedding as embedding_module

    searches = []
    real = embedding_module.nearest_neighbors
    monkeypatch.setattr(embedding_module, "nearest_neighbors", lambda *a: searches.append(a) or real(*a))
    algorithms.embed("pca", points, n_neighbors=6, post_refinement=2, rescale="best_global_scale")
    assert len(searches) == 1


@pytest.mark.parametrize(("make", "message"), [
    (lambda nb: nb[:, :5], (r"neighbors must be an integer array of shape \(40, 7\) from "
                            r"measures.nearest_neighbors\(X, 6\); got int64 of shape \(40, 5\)")),
    (lambda nb: nb.astype(float), r"got float64 of shape \(40, 7\)"),
    (lambda nb: nb[:30], r"of shape \(40, 7\).*got int64 of shape \(30, 7\)"),
    (lambda nb: np.where(nb == 3, 40, nb), r"neighbors must hold indices in \[0, 39\]; got 40"),
    (lambda nb: np.where(nb == 3, -1, nb), r"neighbors must hold indices in \[0, 39\]; got -1"),
    (lambda nb: nb[::-1], r"each point first in its own row .*; row 0 starts with 39"),
    (lambda nb: np.c_[nb[:, :6], nb[:, 5]], r"distinct points in each row; row 0 repeats one"),
])
def test_a_bad_neighbors_array_is_refused(points, make, message, replace_entry):
    fit = replace_entry("lle", fit=RecordingFit()).fit
    with pytest.raises(EmbeddingError, match=message):
        algorithms.embed("lle", points, n_neighbors=6, neighbors=make(measures.nearest_neighbors(points, 6)))
    assert fit.calls == []


def test_given_neighbors_give_the_same_embedding_for_every_graph_method(small_roll):
    shared = measures.nearest_neighbors(small_roll.X, 8)
    for name in ("isomap", "ltsa", "gp"):
        np.testing.assert_array_equal(algorithms.embed(name, small_roll.X, n_neighbors=8, neighbors=shared),
                                      algorithms.embed(name, small_roll.X, n_neighbors=8))
