"""The similarity Procrustes fit: exact on similarity images (reflections too), equal to scipy's
Procrustes disparity and to R_C of one all-points neighbourhood (GR Eq. 7), optimal, and typed errors."""

import numpy as np
import pytest
import scipy.spatial
from hypothesis import given, settings
from hypothesis import strategies as st

import measures
from measures import similarity_procrustes


def orthogonal(rng, d, reflect):
    """A random d x d orthogonal matrix with determinant -1 (a reflection) or +1."""
    Q, R = np.linalg.qr(rng.normal(size=(d, d)))
    Q = Q * np.sign(np.diag(R))
    if (np.linalg.det(Q) < 0) != reflect:
        Q[:, 0] *= -1
    return Q


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), extra=st.integers(0, 80), d=st.integers(1, 4), reflect=st.booleans(),
       log_scale=st.floats(-3.0, 3.0), shift=st.floats(-1e3, 1e3))
def test_a_similarity_image_aligns_exactly_with_distance_and_displacement_zero(seed, extra, d, reflect, log_scale,
                                                                              shift):
    # d + 2 points or more: the centred A spans its d dimensions, so the transform (and whether it
    # reflects) is unique.
    n = d + 2 + extra
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, d)) * rng.uniform(0.1, 10.0)
    Q = orthogonal(rng, d, reflect) if d > 1 else np.array([[-1.0 if reflect else 1.0]])
    scale = 10.0**log_scale
    B = scale * A @ Q + shift * rng.normal(size=d)
    fit = similarity_procrustes(A, B)
    radius = np.sqrt(np.mean(np.sum((A - A.mean(axis=0)) ** 2, axis=1)))
    # Exact to the precision the coordinates carry: a shift large against the spread leaves fewer
    # correct digits in the centred points (rounding of |B| over B's radius).
    radius_b = np.sqrt(np.mean(np.sum((B - B.mean(axis=0)) ** 2, axis=1)))
    resolution = 100 * np.finfo(float).eps * (np.abs(A).max() / radius + np.abs(B).max() / radius_b)
    assert fit.distance <= resolution**2
    assert fit.displacement.max() <= resolution * radius
    np.testing.assert_allclose(fit.aligned, A, atol=resolution * radius)
    assert fit.scale == pytest.approx(1.0 / scale, rel=resolution)
    assert fit.reflection == reflect
    # The transform maps B's points onto A's (and so any other point of B's space the same way).
    np.testing.assert_allclose(fit.transform(B), A, atol=resolution * radius)


@pytest.mark.parametrize("d", [2, 3])
def test_a_mirror_image_is_undone_by_a_reflection_not_a_rotation(d):
    rng = np.random.default_rng(d)
    A = rng.normal(size=(30, d))
    mirror = np.diag([-1.0] + [1.0] * (d - 1))
    fit = similarity_procrustes(A, A @ mirror)
    assert fit.reflection and fit.distance < 1e-28
    np.testing.assert_allclose(fit.rotation, mirror, atol=1e-12)
    # A rotation alone cannot undo it: the best proper rotation leaves a residual.
    assert similarity_procrustes(A, A @ mirror @ orthogonal(rng, d, reflect=True)).reflection is False


def test_the_distance_is_scipy_s_procrustes_disparity_and_symmetric():
    rng = np.random.default_rng(7)
    for _ in range(20):
        A, B = rng.normal(size=(40, 2)), rng.normal(size=(40, 2))
        B[:20] = 2.0 * A[:20] + rng.normal(scale=0.2, size=(20, 2))  # partly similar
        _, _, disparity = scipy.spatial.procrustes(A, B)
        assert similarity_procrustes(A, B).distance == pytest.approx(disparity, rel=1e-10)
        assert similarity_procrustes(B, A).distance == pytest.approx(similarity_procrustes(A, B).distance, rel=1e-10)


def test_the_distance_is_r_c_of_one_neighbourhood_holding_every_point():
    """The kernel's conformal statistic (GR Eq. 7) with all points as one neighbourhood is 1 - nu^2."""
    rng = np.random.default_rng(3)
    A, B = rng.normal(size=(25, 3)), rng.normal(size=(25, 2))
    everything = np.arange(25)[None, :]
    conformal = measures.local_procrustes(A, B, everything).conformal[0]
    assert similarity_procrustes(A, B).distance == pytest.approx(conformal, rel=1e-12)


def test_the_alignment_is_optimal_against_perturbed_transforms():
    rng = np.random.default_rng(11)
    A = rng.normal(size=(60, 2))
    B = 0.3 * A @ orthogonal(rng, 2, True) + rng.normal(scale=0.1, size=(60, 2))
    fit = similarity_procrustes(A, B)
    best = np.sum((A - fit.aligned) ** 2)
    angle = 1e-3
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    for scale, rotation, shift in ((1.001, np.eye(2), 0.0), (0.999, np.eye(2), 0.0), (1.0, turn, 0.0),
                                   (1.0, turn.T, 0.0), (1.0, np.eye(2), 1e-3)):
        moved = fit.scale * scale * B @ fit.rotation @ rotation + fit.translation + shift
        assert np.sum((A - moved) ** 2) > best


def test_root_mean_square_displacement_over_a_s_radius_is_the_square_root_of_the_distance():
    rng = np.random.default_rng(5)
    A, B = rng.normal(size=(50, 2)), rng.normal(size=(50, 2))
    fit = similarity_procrustes(A, B)
    radius = np.sqrt(np.mean(np.sum((A - A.mean(axis=0)) ** 2, axis=1)))
    assert np.sqrt(np.mean(fit.displacement**2)) / radius == pytest.approx(np.sqrt(fit.distance), rel=1e-12)


def test_outputs_of_different_dimensions_are_compared_in_the_larger_space():
    rng = np.random.default_rng(2)
    A = rng.normal(size=(30, 2))
    B = 4.0 * np.c_[A, np.zeros(30)] @ orthogonal(rng, 3, reflect=False) + 1.0  # A placed in 3-D
    fit = similarity_procrustes(A, B)
    assert fit.aligned.shape == (30, 3) and fit.distance < 1e-24
    np.testing.assert_allclose(fit.aligned, np.c_[A, np.zeros(30)], atol=1e-10)


def test_bad_inputs_get_typed_messages():
    A = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(measures.MeasureError, match="same number of rows"):
        similarity_procrustes(A, A[:9])
    with pytest.raises(measures.MeasureError, match="B puts every point at one place"):
        similarity_procrustes(A, np.full((10, 2), 0.3))
    with pytest.raises(measures.MeasureError, match="NaN"):
        similarity_procrustes(A, np.where(np.eye(10, 2) > 0, np.nan, A))
