"""The page's 16-bit fixed point (components/figures/fixed_point.py): what it carries, and what the hover says."""

import base64
import math

import numpy as np
import pytest

from components.figures import fixed_point, input_figure, output_figure
from components.figures.marks import color_by_class
from components.figures.views import color_update, drawn_columns


def codes(spec):
    return np.frombuffer(base64.b64decode(spec["bdata"]), dtype="<u2")


def test_a_small_column_worked_by_hand():
    # Range 2 over 65 534 steps: -1 is code 0, 1 is the largest code, 0 the middle one exactly.
    spec = fixed_point.encode([-1.0, 0.0, 1.0, 0.25])
    assert spec["dtype"] == "u2" and spec["offset"] == -1.0 and spec["step"] == 2 / 65534
    assert codes(spec).tolist() == [0, 32767, 65534, round(1.25 / (2 / 65534))]
    assert fixed_point.decode(spec)[:3].tolist() == [-1.0, 0.0, 1.0]


@pytest.mark.parametrize("seed", range(5))
def test_every_value_comes_back_within_half_a_step_and_the_extremes_exactly(seed):
    rng = np.random.default_rng(seed)
    values = 10.0 ** rng.uniform(-6, 6) * (rng.normal(size=5000) + rng.uniform(-10, 10))
    spec = fixed_point.encode(values)
    back = fixed_point.decode(spec)
    assert np.max(np.abs(back - values)) <= spec["step"] / 2 * (1 + 1e-9) + 4 * np.finfo(float).eps * np.abs(
        values).max()
    assert back[np.argmin(values)] == values.min()
    # The largest code lands on the maximum within the rounding of offset + step * 65 534.
    assert back[np.argmax(values)] == pytest.approx(values.max(), rel=1e-14, abs=1e-14 * spec["step"])
    assert fixed_point.encode(values) == spec  # deterministic


def test_values_that_are_not_finite_are_nan_and_do_not_set_the_range():
    spec = fixed_point.encode([np.nan, 2.0, np.inf, 2.5, -np.inf])
    assert spec["offset"] == 2.0 and spec["step"] == 0.5 / 65534
    assert codes(spec).tolist() == [fixed_point.NOT_FINITE, 0, fixed_point.NOT_FINITE, 65534, fixed_point.NOT_FINITE]
    back = fixed_point.decode(spec)
    assert np.isnan(back[[0, 2, 4]]).all() and back[1] == 2.0


def test_integers_within_a_step_of_one_travel_exactly_and_show_no_decimal():
    years = np.arange(1990, 2021, dtype=float)
    spec = fixed_point.encode(years)
    assert spec["step"] == 1.0 and codes(spec).tolist() == list(range(31))
    np.testing.assert_array_equal(fixed_point.decode(spec), years)
    assert fixed_point.carried_format(years) == ".0f"


@pytest.mark.parametrize("values", [
    np.r_[np.linspace(0.0, 1.0, 1000), 1e3],  # a far point: the bulk would span 65 codes
    np.r_[np.linspace(0.0, 1.0, 1000), -40.0],  # ... 1 600 codes, still a coarse grid
    1e6 + np.linspace(0.0, 1e-6, 1000),  # a step float64 barely resolves at 1e6
    np.linspace(0.0, 1e-300, 100),  # a step under 1e-20: d3 shows no more than 20 decimals
])
def test_a_column_fixed_point_cannot_carry_goes_as_float32_with_four_significant_digits(values):
    assert fixed_point.encode(values) is None and fixed_point.carried_format(values) == ".4g"
    figure = output_figure(np.c_[values, values[::-1]], values, (0.0, 1.0), "c", fixed_point=True).data[0]
    assert figure.x.dtype == np.float32 and figure.marker.color.dtype == np.float32
    assert "%{x:.4g}" in figure.hovertemplate and "%{marker.color:.4g}" in figure.hovertemplate


def test_a_range_that_overflows_is_not_encoded():
    assert fixed_point.encode([-1e308, 1e308, 0.5]) is None and fixed_point.carried_format([-1e308, 1e308]) == ".4g"


def test_a_bulk_of_16_384_codes_is_carried():
    # A bulk spanning about 0.96 (its 2nd to 98th percentile) spans 16 384 codes while the range is under
    # 0.96 * 65 534 / 16 384, about 3.8.
    bulk = np.linspace(0.0, 1.0, 1000)
    assert fixed_point.encode(np.r_[bulk, 3.5]) is not None
    assert fixed_point.encode(np.r_[bulk, 4.2]) is None


@pytest.mark.parametrize("values", [[3.5, 3.5, 3.5], [], [np.nan, np.nan]])
def test_a_constant_or_empty_column_travels_exactly(values):
    spec = fixed_point.encode(values)
    assert spec["step"] == 0
    back = fixed_point.decode(spec)
    np.testing.assert_array_equal(back, np.asarray(values, dtype=float))
    assert fixed_point.carried_format(values) == ".4g"


@pytest.mark.parametrize("low, high", [(0.0, 1.0), (-20.0, 20.0), (0.998, 0.999), (-3e4, 5e4), (1e-9, 3e-9)])
def test_the_hover_shows_each_value_within_one_unit_of_its_last_decimal_or_a_step_above_one(low, high):
    values = np.random.default_rng(0).uniform(low, high, size=2000)
    values[:2] = low, high
    style = fixed_point.carried_format(values)
    decimals = int(style[1:-1])
    step = (values.max() - values.min()) / 65534
    assert 10.0 ** -decimals >= step > 10.0 ** -(decimals + 1) or decimals == 0  # no digit the step cannot tell
    shown = np.round(fixed_point.decode(fixed_point.encode(values)), decimals)
    # One unit of the last decimal; a step above one (a range above 65 534) shows integers, within a step.
    assert np.max(np.abs(shown - values)) <= max(10.0 ** -decimals, step) * (1 + 1e-9)
    assert style == f".{max(0, math.floor(-math.log10(step)))}f"
    assert fixed_point.sent_format(fixed_point.encode(values)) == style  # read from the spec sent, the same


def test_the_page_s_views_carry_fixed_point_and_other_builds_float32():
    rng = np.random.default_rng(1)
    X, Y, color = rng.uniform(-7, 7, size=(50, 3)), rng.uniform(-1, 1, size=(50, 2)), rng.uniform(size=50)
    page = output_figure(Y, color, (0.0, 1.0), "local R_N", fixed_point=True).data[0]
    np.testing.assert_array_equal(fixed_point.decode(page.x), fixed_point.decode(fixed_point.encode(Y[:, 0])))
    np.testing.assert_array_equal(fixed_point.decode(page.marker.color),
                                  fixed_point.decode(fixed_point.encode(color)))
    formats = [fixed_point.carried_format(values) for values in (Y[:, 0], Y[:, 1], color)]
    assert page.hovertemplate == (f"point %{{pointNumber}}<br>y₁ %{{x:{formats[0]}}}, y₂ %{{y:{formats[1]}}}"
                                  f"<br>local R_N: %{{marker.color:{formats[2]}}}<extra></extra>")
    report = output_figure(Y, color, (0.0, 1.0), "local R_N").data[0]  # the offline report, the Two runs tab
    assert report.x.dtype == np.float32 and "%{x:.4g}" in report.hovertemplate
    # A 3-D input and its colouring patch: the patch keeps the hover formats its coordinates carry.
    view = input_figure(X, color, (0.0, 1.0), "local R_N", fixed_point=True).data[0]
    assert all(fixed_point.decode(getattr(view, axis)).size == 50 for axis in "xyz")
    other = color * 1000  # another run's colours: another step, another format
    patch = color_update(other, (0.0, 1.0), "local R_N", ("x₁", "x₂", "x₃"), fixed_columns=drawn_columns(X, 3))
    assert fixed_point.carried_format(other) != fixed_point.carried_format(color)
    assert patch["hovertemplate"] == view.hovertemplate.replace(
        f"%{{marker.color:{fixed_point.carried_format(color)}}}",
        f"%{{marker.color:{fixed_point.carried_format(other)}}}")
    np.testing.assert_array_equal(fixed_point.decode(patch["marker"]["color"]),
                                  fixed_point.decode(fixed_point.encode(other)))
    plane = input_figure(X, color, (0.0, 1.0), "c", projection=(0, 2), fixed_point=True).data[0]
    np.testing.assert_array_equal(fixed_point.decode(plane.y), fixed_point.decode(fixed_point.encode(X[:, 2])))


def test_a_class_colouring_of_a_fixed_point_view_shows_the_class_in_its_hover():
    rng = np.random.default_rng(2)
    figure = output_figure(rng.uniform(size=(30, 2)), rng.uniform(size=30), (0.0, 1.0), "digit class",
                           fixed_point=True)
    color_by_class(figure, np.arange(30) % 3, "digit class", legend=True)
    points = figure.data[0]
    assert "marker.color" not in points.hovertemplate and points.hovertemplate.endswith("digit class: %{text}"
                                                                                       "<extra></extra>")
    assert list(points.text[:3]) == ["0", "1", "2"]
