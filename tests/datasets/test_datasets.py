"""Tests of the data sets: their geometry against the charts of SPEC §1, the registry, and errors."""

import ast
import math
import pathlib

import numpy as np
import pytest
from scipy import integrate, stats

import datasets
from measures import procrustes
from measures.errors import DatasetError as MeasuresDatasetError

SEEDS = (0, 1, 2)
DATASETS_DIR = pathlib.Path(datasets.__file__).parent


def _swiss_roll_angle(X):
    """The spiral angle t of swiss-roll points: X = (t cos t, h, t sin t) with t > 0."""
    return np.hypot(X[:, 0], X[:, 2])


# --- swiss roll ---------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_swissroll_arc_length_chart_is_nearly_isometric(seed):
    data = datasets.load("swissroll", seed=seed)
    _, arc_chart = procrustes(data.X, data.truth, 12, per_point=True)
    angle_chart = np.column_stack([_swiss_roll_angle(data.X), data.truth[:, 1]])
    angle_mean, angle_per_point = procrustes(data.X, angle_chart, 12, per_point=True)
    # Robust statistics: a single neighbourhood that short-circuits two turns of the roll scores
    # R_N ~ 30 and can lift the mean above 0.02 on some seeds (SPEC §0).
    assert np.median(arc_chart) < 0.005
    assert np.mean(arc_chart > 0.02) < 0.005
    # The angle chart (t, h) stretches the roll by the spiral's varying speed: R_N ≈ 0.37 (SPEC §1).
    assert 0.33 < angle_mean < 0.43
    assert np.median(angle_per_point) > 50 * np.median(arc_chart)


def test_swissroll_arc_length_matches_quadrature():
    data = datasets.load("swissroll", 200, seed=4)
    t = _swiss_roll_angle(data.X)
    np.testing.assert_allclose(data.X[:, 0], t * np.cos(t), atol=1e-12)
    np.testing.assert_allclose(data.X[:, 2], t * np.sin(t), atol=1e-12)
    assert t.min() >= 1.5 * np.pi - 1e-12 and t.max() <= 4.5 * np.pi + 1e-12
    for i in range(0, 200, 40):
        arc_length, _ = integrate.quad(lambda u: math.sqrt(1.0 + u * u), 1.5 * np.pi, t[i])
        assert data.truth[i, 0] == pytest.approx(arc_length, rel=1e-10)


def test_swissroll_height_and_colour():
    data = datasets.load("swissroll", seed=3)
    np.testing.assert_array_equal(data.truth[:, 1], data.X[:, 1])
    assert data.X[:, 1].min() >= 0.0 and data.X[:, 1].max() <= 21.0
    np.testing.assert_array_equal(data.color, data.truth[:, 0])


# --- hemisphere ---------------------------------------------------------------------------------

def test_hemisphere_points_lie_on_upper_unit_sphere():
    X = datasets.load("hemisphere", seed=0).X
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, atol=1e-12)
    assert (X[:, 2] >= 0.0).all()


def test_hemisphere_is_uniform_in_area():
    # Archimedes: the area of a band of the unit sphere is 2π times its height, so uniform in
    # area means z uniform on [0, 1] and the azimuth uniform on [0, 2π), independently.
    X = datasets.load("hemisphere", seed=0).X
    assert stats.kstest(X[:, 2], "uniform").pvalue > 0.01
    azimuth = np.mod(np.arctan2(X[:, 1], X[:, 0]), 2.0 * np.pi)
    assert stats.kstest(azimuth, "uniform", args=(0.0, 2.0 * np.pi)).pvalue > 0.01
    # The cap z > 1/2 has area π, half the hemisphere's 2π (it is far from half its height in θ).
    assert np.mean(X[:, 2] > 0.5) == pytest.approx(0.5, abs=0.04)


def test_hemisphere_truth_is_azimuthal_equidistant():
    data = datasets.load("hemisphere", seed=1)
    X, truth = data.X, data.truth
    radius = np.linalg.norm(truth, axis=1)
    np.testing.assert_allclose(radius, np.arccos(X[:, 2]), atol=1e-12)
    # Same direction as the point's horizontal projection: the chart keeps the azimuth.
    np.testing.assert_allclose(truth / radius[:, None],
                               X[:, :2] / np.linalg.norm(X[:, :2], axis=1, keepdims=True), atol=1e-9)


def test_hemisphere_chart_distortion_grows_towards_the_rim():
    # The chart keeps distances along meridians and stretches parallels by θ / sin θ: exact at the
    # pole, π/2 at the rim. No chart of the sphere is isometric, hence isometric=False.
    data = datasets.load("hemisphere", seed=2)
    _, per_point = procrustes(data.X, data.truth, 12, per_point=True)
    polar_angle = np.arccos(data.X[:, 2])
    assert np.median(per_point[polar_angle < 0.4]) < 0.005
    assert np.median(per_point[polar_angle > 1.3]) > 0.05
    assert not data.isometric


# --- cylinder -----------------------------------------------------------------------------------

def test_cylinder_respects_radius_and_height():
    data = datasets.load("cylinder", 500, radius=2.0, height=3.0, seed=0)
    X, truth = data.X, data.truth
    np.testing.assert_allclose(np.hypot(X[:, 0], X[:, 1]), 2.0, atol=1e-12)
    assert X[:, 2].min() >= 0.0 and X[:, 2].max() <= 3.0
    assert X[:, 2].max() > 2.9  # the height is used, not just bounded
    assert truth[:, 0].min() >= 0.0 and truth[:, 0].max() < 2.0 * 2.0 * np.pi
    np.testing.assert_array_equal(truth[:, 1], X[:, 2])


def test_cylinder_chord_matches_chart_distance():
    radius = 2.0
    data = datasets.load("cylinder", 400, radius=radius, seed=1)
    X, truth = data.X, data.truth
    pairs = np.random.default_rng(9).integers(0, 400, size=(2000, 2))
    chord = np.linalg.norm(X[pairs[:, 0]] - X[pairs[:, 1]], axis=1)
    offset = truth[pairs[:, 0]] - truth[pairs[:, 1]]
    # Chord of an arc of length Δs on a circle of radius r is 2r sin(Δs / 2r): exact for every pair.
    expected = np.hypot(2.0 * radius * np.sin(offset[:, 0] / (2.0 * radius)), offset[:, 1])
    np.testing.assert_allclose(chord, expected, atol=1e-12)
    # Nearby in the chart means chord ≈ chart distance: 1 - ratio <= (Δs / r)^2 / 24.
    chart_distance = np.linalg.norm(offset, axis=1)
    near = (chart_distance > 0) & (chart_distance < 0.2)
    assert near.sum() > 5
    ratio = chord[near] / chart_distance[near]
    assert (ratio <= 1.0 + 1e-12).all() and (ratio > 1.0 - 0.2**2 / radius**2 / 24).all()


@pytest.mark.parametrize("seed", SEEDS)
def test_cylinder_chart_is_isometric_except_at_the_seam(seed):
    data = datasets.load("cylinder", seed=seed)
    _, per_point = procrustes(data.X, data.truth, 12, per_point=True)
    angle = data.truth[:, 0]  # radius 1: arc length is the angle
    seam_distance = np.minimum(angle, 2.0 * np.pi - angle)
    assert np.median(per_point) < 0.005
    broken = per_point > 0.1
    # The seam is real: neighbourhoods straddling it are torn apart by the chart, and only those.
    assert broken.any()
    assert seam_distance[broken].max() < 0.5
    assert data.isometric


# --- strip --------------------------------------------------------------------------------------

def test_flat_strip_is_its_own_chart():
    data = datasets.load("strip", length=6.0, seed=0)
    X, truth = data.X, data.truth
    assert X[:, 0].min() >= 0.0 and X[:, 0].max() <= 6.0 and X[:, 0].max() > 5.9
    assert X[:, 1].min() >= 0.0 and X[:, 1].max() <= 1.0
    assert (X[:, 2] == 0.0).all()
    np.testing.assert_array_equal(truth, X[:, :2])
    assert abs(procrustes(X, truth, 12)) < 1e-10


def test_strip_thickness_is_normal_gaussian_offset():
    flat = datasets.load("strip", 4000, seed=5)
    thick = datasets.load("strip", 4000, thickness=0.01, seed=5)
    thicker = datasets.load("strip", 4000, thickness=0.03, seed=5)
    np.testing.assert_array_equal(thick.X[:, :2], flat.X[:, :2])
    np.testing.assert_array_equal(thick.truth, flat.truth)
    assert np.std(thick.X[:, 2]) == pytest.approx(0.01, rel=0.05)
    assert abs(np.mean(thick.X[:, 2])) < 4 * 0.01 / np.sqrt(4000)
    # One seed gives one offset field, scaled by the thickness.
    np.testing.assert_allclose(thicker.X[:, 2], 3.0 * thick.X[:, 2], rtol=1e-12)


# --- common to every data set -------------------------------------------------------------------

@pytest.mark.parametrize("name", datasets.available())
def test_default_sample_matches_its_spec(name):
    entry = datasets.spec(name)
    data = datasets.load(name)
    n = entry.default_n
    assert data.X.shape == (n, 3) and data.truth.shape == (n, len(entry.truth_labels)) == (n, 2)
    assert data.color.shape == (n,)
    for array in (data.X, data.truth, data.color):
        assert array.dtype == np.float64 and np.isfinite(array).all()
        assert not array.flags.writeable
    np.testing.assert_array_equal(data.color, data.truth[:, 0])
    assert data.name == name and data.description == entry.description and data.description
    assert data.isometric is entry.isometric
    defaults = {parameter.name: parameter.default for parameter in entry.all_parameters}
    assert data.params == {**defaults, "seed": 0} and data.params["n"] == n


@pytest.mark.parametrize("name", datasets.available())
def test_spec_metadata_is_consistent(name):
    entry = datasets.spec(name)
    assert entry.name == name and entry.label and entry.citation and entry.description
    assert 1 <= entry.n_low <= entry.default_n <= entry.n_high
    own = [parameter.name for parameter in entry.parameters]
    assert len(set(own)) == len(own) and not set(own) & {"n", "noise", "seed"}
    for parameter in entry.parameters:
        assert parameter.check(parameter.default, name, datasets.DatasetError) == parameter.default


@pytest.mark.parametrize("name", datasets.available())
def test_same_seed_same_sample_other_seed_other_sample(name):
    first, again, other = (datasets.load(name, 300, seed=seed) for seed in (7, 7, 8))
    np.testing.assert_array_equal(first.X, again.X)
    np.testing.assert_array_equal(first.truth, again.truth)
    assert not np.array_equal(first.X, other.X) and not np.array_equal(first.truth, other.truth)


def test_generator_seed_is_used_and_advanced():
    rng = np.random.default_rng(7)
    first = datasets.load("strip", 300, seed=rng)
    second = datasets.load("strip", 300, seed=rng)
    np.testing.assert_array_equal(first.X, datasets.load("strip", 300, seed=7).X)
    assert not np.array_equal(first.X, second.X)
    # The noise is drawn even at σ = 0, so a shared stream advances alike whatever the noise.
    clean_stream, noisy_stream = np.random.default_rng(7), np.random.default_rng(7)
    datasets.load("strip", 300, seed=clean_stream)
    datasets.load("strip", 300, noise=0.1, seed=noisy_stream)
    assert clean_stream.random() == noisy_stream.random()


@pytest.mark.parametrize("name", datasets.available())
def test_noise_moves_points_not_truth(name):
    sigma = 0.05
    clean = datasets.load(name, 2000, seed=3)
    noisy = datasets.load(name, 2000, noise=sigma, seed=3)
    twice = datasets.load(name, 2000, noise=2 * sigma, seed=3)
    np.testing.assert_array_equal(noisy.truth, clean.truth)
    np.testing.assert_array_equal(noisy.color, clean.color)
    perturbation = noisy.X - clean.X
    # 6000 N(0, σ²) draws: the sample std is within 5% of σ with overwhelming probability.
    assert np.std(perturbation) == pytest.approx(sigma, rel=0.05)
    assert np.abs(perturbation.mean(axis=0)).max() < 4 * sigma / np.sqrt(2000)
    # Isotropic and independent across axes.
    np.testing.assert_allclose(np.cov(perturbation.T), sigma**2 * np.eye(3), atol=0.15 * sigma**2)
    np.testing.assert_allclose(twice.X - clean.X, 2.0 * perturbation, rtol=1e-9, atol=1e-12)


def test_params_echo_the_values_used():
    data = datasets.load("cylinder", 300.0, radius=2, height=None, noise=0.01, seed=np.int64(5))
    assert data.params == {"n": 300, "radius": 2.0, "height": 1.0, "noise": 0.01, "seed": 5}
    assert type(data.params["n"]) is int and type(data.params["seed"]) is int
    assert data.X.shape == (300, 3)


def test_no_dash_or_plotly_import():
    for path in DATASETS_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert not roots & {"dash", "plotly"}, f"{path.name} imports {roots}"


# --- errors -------------------------------------------------------------------------------------

def test_dataset_error_is_the_measures_class():
    assert datasets.DatasetError is MeasuresDatasetError
    assert issubclass(datasets.DatasetError, ValueError)


@pytest.mark.parametrize(("name", "kwargs", "match"), [
    ("swiss roll", {}, r"unknown data set 'swiss roll'; available: swissroll, hemisphere, cylinder, strip"),
    (["swissroll"], {}, r"unknown data set \['swissroll'\]"),
    ("swissroll", {"radius": 2.0}, r"swissroll has no parameter 'radius'; its parameters are \['n', 'noise'\]"),
    ("strip", {"width": 2.0}, r"strip has no parameter 'width'"),
    ("swissroll", {"n": 10}, r"parameter 'n' must lie in \[50, 200000\]; got 10"),
    ("swissroll", {"n": 10**6}, r"parameter 'n' must lie in \[50, 200000\]"),
    ("hemisphere", {"n": 100.5}, r"parameter 'n' must be a whole number; got 100.5"),
    ("hemisphere", {"n": "100"}, r"parameter 'n' must be a number"),
    ("cylinder", {"radius": 0.0}, r"cylinder: parameter 'radius' must lie in \[0.1, 10.0\]; got 0.0"),
    ("cylinder", {"height": -1.0}, r"parameter 'height' must lie in"),
    ("strip", {"length": 100.0}, r"strip: parameter 'length' must lie in \[1.0, 50.0\]; got 100.0"),
    ("strip", {"thickness": -0.01}, r"parameter 'thickness' must lie in"),
    ("strip", {"noise": -0.1}, r"strip: parameter 'noise' must be >= 0.0; got -0.1"),
    ("strip", {"noise": float("nan")}, r"parameter 'noise' must be finite"),
    ("strip", {"noise": float("inf")}, r"parameter 'noise' must be finite"),
    ("strip", {"seed": -1}, r"strip: seed must be a non-negative int or a numpy.random.Generator; got -1"),
    ("strip", {"seed": None}, r"seed must be a non-negative int .*; got None"),
    ("strip", {"seed": 1.5}, r"seed must be a non-negative int .*; got 1.5"),
])
def test_bad_request_raises_dataset_error(name, kwargs, match):
    with pytest.raises(datasets.DatasetError, match=match):
        datasets.load(name, **kwargs)


def test_bad_seed_error_keeps_its_cause():
    with pytest.raises(datasets.DatasetError) as info:
        datasets.load("swissroll", seed="zero")
    assert info.value.__cause__ is not None
