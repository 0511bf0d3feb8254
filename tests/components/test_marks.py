"""False vs missing neighbours in two hues (components/figures/marks.py): levels, palette, the painted views
and their key, read back through the figures' own colour scales."""

import json

import numpy as np
import plotly.io as pio
import pytest

from components.figures import input_figure, output_figure
from components.figures.marks import (LOSS_COLORS, LOSS_LEVELS, color_by_losses, loss_index, loss_palette,
                                      loss_range, presentation_style)


def scale_colors(marker):
    """The colour Plotly gives each value of a marker with a piecewise-constant colour scale."""
    values = np.asarray(marker["color"], dtype=float)
    position = (values - marker["cmin"]) / (marker["cmax"] - marker["cmin"])
    stops = marker["colorscale"]
    return [next(color for (low, color), (high, same) in zip(stops[:-1], stops[1:])
                 if color == same and low <= p <= high) for p in position]


def test_the_palette_s_corners_are_neither_false_missing_and_both():
    palette = loss_palette()
    top = LOSS_LEVELS - 1
    assert len(palette) == LOSS_LEVELS ** 2 == len(set(palette))
    assert palette[0] == LOSS_COLORS["neither"]
    assert palette[top * LOSS_LEVELS] == LOSS_COLORS["false"]
    assert palette[top] == LOSS_COLORS["missing"]
    assert palette[-1] == LOSS_COLORS["both"]


def test_only_false_neighbours_get_the_false_hue_at_full_strength_and_none_is_neutral():
    false = np.array([0.0, 0.2, 0.5, 0.0, 0.0, 0.05, 0.2, 1e-9])
    missing = np.array([0.0, 0.0, 0.0, 0.2, 0.9, 0.0, 0.2, 0.0])
    palette = np.array(loss_palette())
    colors = palette[loss_index(false, missing, 0.2)]
    assert colors[0] == LOSS_COLORS["neither"]  # neither
    assert colors[1] == colors[2] == LOSS_COLORS["false"]  # at and past the top: full strength
    assert colors[3] == colors[4] == LOSS_COLORS["missing"]
    assert colors[6] == LOSS_COLORS["both"]
    # A quarter of the top is the first step of the false hue; any positive loss shows.
    assert colors[5] == colors[7] == palette[1 * LOSS_LEVELS]
    assert colors[5] not in (LOSS_COLORS["neither"], LOSS_COLORS["false"])


def test_the_full_strength_loss_is_the_98th_percentile_of_both_positive_losses_pooled():
    false = np.r_[np.zeros(500), np.arange(1.0, 51.0)]
    missing = np.r_[np.arange(51.0, 101.0), np.zeros(500), 1e6]  # one outlier does not set the range
    assert loss_range(false, missing) == pytest.approx(np.percentile(np.r_[np.arange(1.0, 101.0), 1e6], 98))
    assert loss_range(np.zeros(5), np.zeros(5)) == 1.0  # an isometry: no loss, every point neutral
    assert loss_range(np.r_[0.0, 0.3], np.zeros(2)) == 0.3  # one lossy point is painted at full strength


@pytest.fixture
def painted():
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(40, 3)), rng.normal(size=(40, 2))
    false = np.where(rng.random(40) < 0.5, rng.exponential(0.01, 40), 0.0)
    missing = np.where(rng.random(40) < 0.5, rng.exponential(0.01, 40), 0.0)
    false[0], missing[0] = 0.0, 0.0
    false[1], missing[1] = 1.0, 0.0
    top = loss_range(false, missing)
    title = "false vs missing neighbours: T = 0.9876, C = 0.9543"
    figures = [color_by_losses(figure, false, missing, top, title, key=key) for figure, key in (
        (input_figure(X, np.zeros(40), (0, 1), "local R_N"), False),
        (output_figure(Y, np.zeros(40), (0, 1), "local R_N"), True))]
    return false, missing, top, figures


def test_both_views_paint_each_point_s_two_losses_and_hover_their_raw_values(painted):
    false, missing, top, figures = painted
    expected = np.array(loss_palette())[loss_index(false, missing, top)]
    for figure in figures:
        points = figure.data[0]
        assert scale_colors(points.marker.to_plotly_json()) == list(expected)
        assert points.marker.showscale is False
        assert float(points.text[1]) == 1.0 and float(points.hovertext[1]) == 0.0
        assert "false neighbours 1 − tᵢ: %{text}" in points.hovertemplate
        assert "missing neighbours 1 − cᵢ: %{hovertext}" in points.hovertemplate
        assert "marker.color" not in points.hovertemplate  # a palette index is no value to read
    assert expected[0] == LOSS_COLORS["neither"] and expected[1] == LOSS_COLORS["false"]
    # One byte per point travels, not a colour string.
    marker = json.loads(pio.to_json(figures[1]))["data"][0]["marker"]["color"]
    assert marker["dtype"] == "u1"


def test_a_view_with_metadata_lines_keeps_them_beside_both_losses():
    rng = np.random.default_rng(3)
    lines = [f"name: point {i}" for i in range(10)]
    figure = output_figure(rng.normal(size=(10, 2)), np.zeros(10), (0, 1), "local R_N", hover_text=lines)
    false, missing = np.linspace(0, 0.9, 10), np.linspace(0.9, 0, 10)
    points = color_by_losses(figure, false, missing, 0.9, "false vs missing neighbours", key=False).data[0]
    assert list(points.hovertext) == lines and points.hovertemplate.count("%{hovertext}") == 1
    assert points.text[1] == "0.1<br>missing neighbours 1 − cᵢ: 0.8"
    assert points.hovertemplate.endswith("%{hovertext}<br>false neighbours 1 − tᵢ: %{text}<extra></extra>")


def test_the_output_carries_the_key_with_t_and_c_and_the_input_none(painted):
    false, missing, top, (input_view, output_view) = painted
    assert [trace.name for trace in input_view.data] == ["points", "hovered", "selected"]
    key = output_view.data[-1]
    assert key.type == "heatmap" and (key.xaxis, key.yaxis) == ("x2", "y2")
    cells = np.asarray(key.z)
    palette = loss_palette()
    assert palette[cells[0, -1]] == LOSS_COLORS["false"] and palette[cells[-1, 0]] == LOSS_COLORS["missing"]
    assert palette[cells[0, 0]] == LOSS_COLORS["neither"] and palette[cells[-1, -1]] == LOSS_COLORS["both"]
    counts = np.bincount(loss_index(false, missing, top), minlength=cells.size)
    assert key.text[0][0].endswith(f": {counts[0]} points")
    assert output_view.layout.annotations[-1].text == ("false vs missing<br>neighbours<br>T = 0.9876<br>C = 0.9543"
                                                        f"<br>full hue from {top:.2g}")
    assert output_view.layout.xaxis2.title.text == "false →" and output_view.layout.yaxis2.title.text == "missing →"


def test_presentation_type_reaches_the_key(painted):
    output_view = presentation_style(painted[3][1], font_size=18)
    assert output_view.layout.annotations[-1].font.size == 18
    assert output_view.layout.xaxis2.title.font.size == output_view.layout.yaxis2.title.font.size == 18
    assert output_view.layout.xaxis.domain[1] < output_view.layout.xaxis2.domain[0]  # the key keeps its own room
