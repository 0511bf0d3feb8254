"""Tests of ``algorithms/embedding.py``: how :func:`algorithms.embed` validates, dispatches through the
registry, post-processes, and turns solver failures into typed errors. Fake entries stand in for real
algorithms so that each behaviour is isolated."""

import re

import numpy as np
import pytest
from numpy.linalg import LinAlgError
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence

import algorithms
import measures
from algorithms import EmbeddingError, SolverError

# Columns (0, 1, 5) and (1, -3, 2): centred they are (-2, -1, 3) and (1, -3, 2), both of norm √14.
FIXED_OUTPUT = np.array([[0.0, 1.0], [1.0, -3.0], [5.0, 2.0]])


class RecordingFit:
    """A registry ``fit`` that records its arguments and returns a fixed array (or raises)."""

    def __init__(self, result=None, error=None):
        self.calls = []
        self.result, self.error = result, error

    def __call__(self, X, neighbors, n_components, seed, **params):
        self.calls.append({"X": X, "neighbors": neighbors, "n_components": n_components, "seed": seed,
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
    algorithms.embed("lle", points, n_neighbors=6, n_components=2, seed=11, reg=0.5)
    (call,) = fit.calls
    np.testing.assert_array_equal(call["neighbors"], measures.nearest_neighbors(points, 6))
    assert call["n_components"] == 2 and call["seed"] == 11
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
    for bad in ({"seed": -3}, {"n_neighbors": 40}, {"n_components": 4}, {"gamma": 1.0}):
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


@pytest.mark.parametrize("error", [
    ArpackNoConvergence("ARPACK error -1: No convergence", np.empty(0), np.empty((0, 0))),
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


def test_input_is_not_modified(points):
    X = points.copy()
    for name in algorithms.available():
        algorithms.embed(name, X, n_neighbors=8)
    assert np.array_equal(X, points)
