"""Tests of ``datasets/images.py``: the digits filter, and the globe views we render (determinism,
geometry of the rendering, smooth dependence on the viewing angles)."""

import numpy as np
import pytest
from sklearn.datasets import load_digits

import datasets
from datasets import images


@pytest.fixture(scope="module")
def globe():
    """The default globe: 30 × 30 views of 32 × 32 pixels, seed 0."""
    return datasets.load("globe")


def _view_grid(data, rows=30):
    """The globe's images as a (30 azimuths, rows elevations, s * s) array (the sample is in grid order)."""
    return np.asarray(data.X).reshape(30, rows, -1)


# --- digits -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("classes", "expected"), [("2", [2]), ("2-5", [2, 3, 4, 5]), ("0-9", list(range(10)))])
def test_digits_filter_keeps_exactly_the_named_classes(classes, expected):
    bunch = load_digits()
    data = datasets.load("digits", classes=classes)
    mask = np.isin(bunch.target, expected)
    np.testing.assert_array_equal(data.X, bunch.data[mask])
    np.testing.assert_array_equal(data.color, bunch.target[mask])
    assert data.params["n"] == mask.sum() == images.digits_size(classes=classes)
    assert data.truth is None and not data.isometric and data.truth_labels == ("digit class",)


def test_ml_digit_set_has_four_classes_of_about_180():
    data = datasets.load("digits", classes="2-5")
    classes, counts = np.unique(data.color, return_counts=True)
    assert classes.tolist() == [2.0, 3.0, 4.0, 5.0] and counts.sum() == 723 and counts.min() > 170


def test_digit_rows_reshape_to_their_8x8_images():
    data = datasets.load("digits", 50, random_state=1)
    assert data.image_shape == (8, 8)
    bunch = load_digits()
    index = np.flatnonzero((bunch.data == data.X[0]).all(axis=1))
    np.testing.assert_array_equal(data.X[0].reshape(data.image_shape), bunch.images[index[0]])


def test_digit_subset_is_seeded():
    first, again, other = (datasets.load("digits", 60, classes="2-5", random_state=seed) for seed in (3, 3, 4))
    np.testing.assert_array_equal(first.X, again.X)
    assert not np.array_equal(first.X, other.X)
    assert len(np.unique(first.X, axis=0)) == 60  # without replacement


# --- globe --------------------------------------------------------------------------------------

def test_globe_truth_is_pns_angle_grid(globe):
    assert globe.X.shape == (900, 32 * 32) and globe.image_shape == (32, 32)
    azimuth, elevation = globe.truth.T
    np.testing.assert_allclose(np.unique(azimuth), np.linspace(-45, 45, 30), atol=1e-12)
    np.testing.assert_allclose(np.unique(elevation), np.linspace(-30, 60, 30), atol=1e-12)
    np.testing.assert_array_equal(globe.color, azimuth)
    assert globe.truth_labels == ("azimuth (°)", "elevation (°)") and not globe.isometric


def test_globe_images_are_grey_levels_with_a_dark_background(globe):
    assert globe.X.min() >= 0.0 and globe.X.max() <= 1.0
    pixels = (np.arange(32) + 0.5) / 16 - 1
    x, y = np.meshgrid(pixels, pixels)
    off_sphere = (x * x + y * y >= 0.81).ravel()
    assert (globe.X[:, off_sphere] == 0).all()
    # On the sphere the texture varies across the picture and across views.
    assert (globe.X[:, ~off_sphere] > 0).all()
    assert np.std(globe.X[:, ~off_sphere], axis=1).min() > 0.02
    assert len(np.unique(globe.X, axis=0)) == 900


def test_globe_is_deterministic_by_seed():
    first, again, other = (datasets.load("globe", image_size=12, random_state=seed) for seed in (5, 5, 6))
    np.testing.assert_array_equal(first.X, again.X)
    assert not np.array_equal(first.X, other.X)  # another seed, another texture
    np.testing.assert_array_equal(first.truth, other.truth)  # on the same angle grid


def test_globe_images_vary_smoothly_with_the_angles(globe):
    views = _view_grid(globe)

    def step(a, b):
        return np.linalg.norm(a - b, axis=-1)

    # Neighbouring views are closer than views 1, 3 and 8 steps away, along both angles, everywhere.
    for axis in (0, 1):
        distances = [step(np.take(views, range(30 - lag), axis=axis), np.take(views, range(lag, 30), axis=axis))
                     for lag in (1, 3, 8)]
        near, middle, far = (np.moveaxis(d, axis, 0)[:22] for d in distances)
        assert (near < middle).mean() > 0.99 and (middle < far).mean() > 0.95
        # Smooth, not merely monotone: one step changes an image by a small fraction of its norm.
        assert np.median(distances[0] / np.linalg.norm(views, axis=-1).mean()) < 0.15


def test_globe_image_size_sets_the_resolution():
    small = datasets.load("globe", 100, image_size=8, random_state=0)
    assert small.X.shape == (100, 64) and small.image_shape == (8, 8)


def test_globe_strip_variant_keeps_the_middle_ten_elevations(globe):
    strip = datasets.load("globe", elevation_rows=10)
    assert strip.X.shape == (300, 1024)
    elevations = np.unique(strip.truth[:, 1])
    np.testing.assert_allclose(elevations, np.linspace(-30, 60, 30)[10:20], atol=1e-12)
    # Same seed, same texture: the strip's views are the full grid's views at those elevations.
    np.testing.assert_allclose(strip.X, _view_grid(globe)[:, 10:20].reshape(300, -1), atol=1e-12)


def test_globe_subset_is_a_subset_of_the_full_grid(globe):
    part = datasets.load("globe", 50, random_state=0)
    # The texture is drawn first, so a subset shows the same globe.
    full_index = {tuple(row): i for i, row in enumerate(globe.truth.tolist())}
    rows = [full_index[tuple(row)] for row in part.truth.tolist()]
    np.testing.assert_allclose(part.X, globe.X[rows], atol=1e-12)


def test_rendering_turns_with_the_azimuth():
    # At elevation 0 the globe's axis is the image's vertical: turning by the azimuth moves the
    # texture sideways, so the equator row of the centre column at azimuth a + δ shows what a pixel
    # at horizontal offset sin(δ) showed at azimuth a. Check with a single bump on the equator.
    # Dividing by a blank globe's rendering (albedo ½ everywhere) removes the shading.
    bump = (np.array([[0.0, 0.0, 1.0]]), np.array([10.0]), np.array([2.0]))
    blank = (bump[0], bump[1], np.array([0.0]))
    angles = np.array([0.0, 30.0]), np.array([0.0, 0.0])
    plain = images.render_globe(*angles, 64, blank)
    on_sphere = plain > 0
    albedo = np.zeros_like(plain)
    albedo[on_sphere] = 0.5 * images.render_globe(*angles, 64, bump)[on_sphere] / plain[on_sphere]
    front, turned = albedo.reshape(2, 64, 64)
    # The bump faces the camera at azimuth 0: brightest at the centre column of the middle row.
    assert abs(np.argmax(front[31:33].mean(axis=0)) - 31.5) <= 1.0
    # At azimuth 30° it has moved left by sin 30° of the sphere's radius (0.9 · 32 px ≈ 14 px).
    assert abs(np.argmax(turned[31:33].mean(axis=0)) - (31.5 - 0.5 * 0.9 * 32)) <= 1.0
