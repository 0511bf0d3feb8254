"""Global shape of an output against its truth: the affine residual is a regression's, the aspect rotation-free,
a flat sheet has no short circuit while a roll's turns do, and a ring has an empty centre at any scale."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression

import datasets
from measures import MeasureError, affine_residual, central_share, principal_aspect, short_circuits


def test_affine_residual_is_one_minus_the_pooled_r_squared_of_a_linear_regression():
    rng = np.random.default_rng(4)
    truth = rng.uniform(size=(400, 2)) * [6.0, 1.0]
    assert affine_residual(truth, truth @ [[1.0, 2.0], [-3.0, 0.5]] - 4) < 1e-20
    Y = np.c_[np.cos(truth[:, 0]), truth[:, 1] ** 3]
    fitted = LinearRegression().fit(Y, truth).predict(Y)
    expected = ((truth - fitted) ** 2).sum() / ((truth - truth.mean(axis=0)) ** 2).sum()
    assert affine_residual(truth, Y) == pytest.approx(expected, rel=1e-10)


def test_principal_aspect_is_the_ratio_of_the_principal_standard_deviations_whatever_the_rotation():
    rng = np.random.default_rng(5)
    points = rng.normal(size=(5000, 2)) * [3.0, 0.5]
    rotation = np.linalg.qr(rng.normal(size=(2, 2)))[0]
    assert principal_aspect(points @ rotation) == pytest.approx(principal_aspect(points), rel=1e-10)
    assert principal_aspect(points) == pytest.approx(points[:, 0].std() / points[:, 1].std(), rel=0.01)


def test_no_edge_short_circuits_a_flat_sheet_and_one_does_cross_two_turns_of_a_roll():
    data = datasets.load("strip", 500, random_state=1)
    assert all(short_circuits(data.X, data.truth, k) == 0 for k in (4, 12, 30))
    roll = datasets.load("swissroll", 1600, random_state=0)  # GR's k = 12 edge between two turns
    assert short_circuits(roll.X, roll.truth, 9) == 0 and short_circuits(roll.X, roll.truth, 12) >= 1


def test_central_share_tells_a_ring_from_a_filled_shape_whatever_its_scale():
    rng = np.random.default_rng(6)
    angle = rng.uniform(0, 2 * np.pi, 2000)
    ring = np.c_[np.cos(angle), np.sin(angle)] * rng.uniform(0.9, 1.0, 2000)[:, None]
    square = rng.uniform(size=(2000, 2))
    assert central_share(ring) == central_share(1e6 * ring) == 0.0
    assert 0.1 < central_share(square * [40.0, 0.1]) < 0.2


def test_a_point_set_with_no_shape_is_refused_not_read_as_a_ring_or_a_line():
    point = np.ones((50, 2))
    # A collapsed output has an empty centre in no sense: central_share must not say 0 (a ring).
    for describe in (central_share, principal_aspect):
        with pytest.raises(MeasureError, match="one place"):
            describe(point)
    with pytest.raises(MeasureError, match="two axes"):
        principal_aspect(np.arange(10.0)[:, None])
    with pytest.raises(MeasureError, match="nothing to fit"):
        affine_residual(point, np.random.default_rng(0).normal(size=(50, 2)))
    truth = np.random.default_rng(1).normal(size=(50, 2))
    with pytest.raises(MeasureError, match="same number of rows"):
        short_circuits(np.c_[truth, np.zeros(50)], truth[:40], 5)
    with pytest.raises(MeasureError, match="same number of rows"):
        affine_residual(truth, truth[:40])
