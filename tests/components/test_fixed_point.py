"""The page's 16-bit fixed point (components/figures/fixed_point.py): what it carries, and what the hover says."""

import base64
import math

import numpy as np
import pytest

from components.figures import fixed_point, input_figure, output_figure
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
    values = rng.normal(scale=10.0 ** rng.uniform(-6, 6), size=5000) + rng.uniform(-1e3, 1e3)
    spec = fixed_point.encode(values)
    back = fixed_point.decode(spec)
    assert np.max(np.abs(back - values)) <= spec["step"] / 2 * (1 + 1e-9) + 4 * np.finfo(float).eps * np.abs(
        values).max()
    assert back[np.argmin(values)] == values.min()
    # The largest code lands on the maximum within the rounding of offset + step * 65 534.
    assert back[np.argmax(values)] == pytest.approx(values.max(), rel=1e-14, abs=1e-14 * spec["step"])
    assert fixed_point.encode(values) == spec  # deterministic


def test_values_that_are_not_finite_are_nan_and_do_not_set_the_range():
    spec = fixed_point.encode([np.nan, 2.0, np.inf, 4.0, -np.inf])
    assert spec["offset"] == 2.0 and spec["step"] == 2 / 65534
    assert codes(spec).tolist() == [fixed_point.NOT_FINITE, 0, fixed_point.NOT_FINITE, 65534, fixed_point.NOT_FINITE]
    back = fixed_point.decode(spec)
    assert np.isnan(back[[0, 2, 4]]).all() and back[1] == 2.0


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


def test_the_page_s_views_carry_fixed_point_and_other_builds_float32():
    rng = np.random.default_rng(1)
    X, Y, color = rng.normal(size=(50, 3)) * 7, rng.normal(size=(50, 2)), rng.uniform(size=50)
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
    patch = color_update(color[::-1], (0.0, 1.0), "local R_N", ("x₁", "x₂", "x₃"),
                         fixed_columns=drawn_columns(X, 3))
    assert patch["hovertemplate"] == view.hovertemplate.replace(
        fixed_point.carried_format(color) + "}", fixed_point.carried_format(color[::-1]) + "}")
    np.testing.assert_array_equal(fixed_point.decode(patch["marker"]["color"]),
                                  fixed_point.decode(fixed_point.encode(color[::-1])))
    plane = input_figure(X, color, (0.0, 1.0), "c", projection=(0, 2), fixed_point=True).data[0]
    np.testing.assert_array_equal(fixed_point.decode(plane.y), fixed_point.decode(fixed_point.encode(X[:, 2])))
