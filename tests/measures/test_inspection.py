"""The neighbourhood inspector: its aligned points carry exactly the residuals the measures sum."""

import numpy as np
import pytest

from measures import (
    MeasureError,
    inspect_neighbourhood,
    local_asim,
    local_pca_residual,
    local_procrustes,
    nearest_neighbors,
)


def _rotation(angle):
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


@pytest.fixture
def flat_patch():
    """A planar input in 3-D (z = 0 after a rotation) and its 2-D chart: the lower bound is 0."""
    rng = np.random.default_rng(3)
    chart = rng.uniform(-1.0, 1.0, size=(40, 2)) * [2.0, 1.0]
    frame = np.linalg.qr(rng.normal(size=(3, 3)))[0][:, :2]
    return chart @ frame.T + [1.0, -2.0, 0.5], chart


def test_agrees_with_the_batched_kernels(smooth_embedding):
    X, Y = smooth_embedding(300, 5, 2, seed=1)
    neighbors = nearest_neighbors(X, 10)
    local = local_procrustes(X, Y, neighbors)
    asim_values = local_asim(X, Y, neighbors)
    bound = local_pca_residual(X, neighbors, 2)
    for index in (0, 17, 299):
        view = inspect_neighbourhood(X, Y, neighbors, index)
        assert view.normalized == pytest.approx(local.normalized[index], rel=1e-9)
        assert view.conformal_value == pytest.approx(local.conformal[index], rel=1e-9)
        assert view.asim_value == pytest.approx(asim_values[index], rel=1e-7, abs=1e-12)
        assert view.lower_bound == pytest.approx(bound[index], rel=1e-9)
        # Each measure allows more freedom than the previous one (GR Eq. 7, NQ Eq. 11).
        assert view.asim_value <= view.conformal_value + 1e-12 <= view.normalized + 2e-12
        np.testing.assert_array_equal(view.neighbors, neighbors[index])


def test_rotated_and_scaled_copy_worked_by_hand(flat_patch):
    """Y = 2 R(θ) chart: rigid alignment leaves ||Xc - 2Xc||² = ||Xc||² (R_N = 1), c = ½ (R_C = 0)."""
    X, chart = flat_patch
    Y = 2.0 * chart @ _rotation(0.7).T
    view = inspect_neighbourhood(X, Y, nearest_neighbors(X, 39), 0)
    assert view.normalized == pytest.approx(1.0, abs=1e-12)
    assert view.conformal_value == pytest.approx(0.0, abs=1e-12)
    assert view.asim_value == pytest.approx(0.0, abs=1e-12)
    assert view.scale == pytest.approx(0.5, rel=1e-12)
    assert view.lower_bound == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(view.conformal, view.input_local, atol=1e-12)
    np.testing.assert_allclose(view.rigid, 2.0 * view.input_local, atol=1e-12)


def test_axis_scaling_is_forgiven_by_asim_only(flat_patch):
    """Y = chart diag(3, ½) (NQ §III-A): ASIM is 0, R_C is not; ASIM's axis scales are ⅓ and 2."""
    X, chart = flat_patch
    chart = chart - chart.mean(axis=0)
    Y = chart * [3.0, 0.5]
    view = inspect_neighbourhood(X, Y, nearest_neighbors(X, 39), 5)
    assert view.asim_value == pytest.approx(0.0, abs=1e-12)
    assert view.conformal_value > 0.1
    np.testing.assert_allclose(np.sort(np.abs(view.axis_scales)), [1 / 3, 2.0], rtol=1e-10)
    np.testing.assert_allclose(view.anisotropic, view.input_local, atol=1e-12)


def test_drawn_residuals_are_the_measures_on_flat_input(flat_patch):
    """With no curvature nothing lies off the principal plane: the drawing holds the whole residual."""
    X, chart = flat_patch
    Y = chart + 0.3 * chart**2
    view = inspect_neighbourhood(X, Y, nearest_neighbors(X, 12), 7)
    scale = np.sum(view.input_local**2)
    assert np.sum((view.input_local - view.rigid) ** 2) / scale == pytest.approx(view.normalized, rel=1e-10)
    assert np.sum((view.input_local - view.conformal) ** 2) / scale == pytest.approx(view.conformal_value, rel=1e-10)
    assert np.sum((view.input_local - view.anisotropic) ** 2) / scale == pytest.approx(view.asim_value, rel=1e-8)


def test_input_local_coordinates_are_principal(smooth_embedding):
    """Centred, on orthogonal axes of decreasing variance, and as long as the patch allows."""
    X, Y = smooth_embedding(200, 4, 2, seed=2)
    neighbors = nearest_neighbors(X, 15)
    view = inspect_neighbourhood(X, Y, neighbors, 11)
    np.testing.assert_allclose(view.input_local.mean(axis=0), 0.0, atol=1e-12)
    covariance = view.input_local.T @ view.input_local
    assert abs(covariance[0, 1]) < 1e-10 * covariance[0, 0]
    assert covariance[0, 0] >= covariance[1, 1]
    patch = X[neighbors[11]] - X[neighbors[11]].mean(axis=0)
    kept = np.trace(covariance) / np.sum(patch**2)
    assert kept == pytest.approx(1.0 - view.lower_bound, rel=1e-10)


@pytest.mark.parametrize("index", [-1, 300, 2.0, True])
def test_bad_index(smooth_embedding, index):
    X, Y = smooth_embedding(300, 3, 2, seed=0)
    with pytest.raises(MeasureError, match=r"index must be an integer in \[0, 299\]"):
        inspect_neighbourhood(X, Y, nearest_neighbors(X, 5), index)


def test_coincident_neighbourhood_is_refused():
    X = np.zeros((6, 3))
    X[5] = 1.0
    Y = np.arange(12.0).reshape(6, 2)
    neighbors = np.tile(np.arange(5), (6, 1))
    with pytest.raises(MeasureError, match="coincide"):
        inspect_neighbourhood(X, Y, neighbors, 0)
