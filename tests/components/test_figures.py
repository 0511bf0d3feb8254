"""Figure builders: pure functions from arrays to figures, checked through fig.data and fig.layout."""

import numpy as np
import pytest

from components.figures import (
    comparison_grid,
    measure_bars,
    HIGHLIGHT_TRACE,
    inspector_figure,
    SELECTION_TRACE,
    input_figure,
    output_figure,
    point_columns,
    robust_color_range,
)


@pytest.fixture
def views():
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(50, 3)), rng.normal(size=(50, 2))
    local = rng.exponential(size=50)
    local[7] = 35.0  # one short-circuited neighbourhood
    columns = point_columns(X, Y, {"local R_N": local})
    color_range = robust_color_range(local)
    figures = (input_figure(local, color_range, "local R_N", columns, "in", "rev"),
               output_figure(local, color_range, "local R_N", columns, "out", "rev"))
    return X, Y, local, color_range, figures


def test_robust_range_is_the_2_to_98_percentile_of_finite_values():
    values = np.r_[np.arange(101.0), np.nan, np.inf]
    assert robust_color_range(values) == (2.0, 98.0)
    assert robust_color_range(np.full(5, 3.0)) == (2.5, 3.5)  # a constant still gets a valid bar
    assert robust_color_range(np.array([np.nan])) == (0.0, 1.0)


def test_outlier_does_not_set_the_colour_range_but_keeps_its_raw_value(views):
    _, _, local, (cmin, cmax), (inp, out) = views
    assert cmax < 35.0
    for figure in (inp, out):
        marker = figure.data[0].marker
        assert (marker.cmin, marker.cmax) == (cmin, cmax)
        np.testing.assert_array_equal(marker.color, local)  # data never clipped
        assert figure.data[0].customdata[7, -1] == 35.0


def test_both_views_draw_the_same_points_and_one_colour_bar(views):
    X, Y, _, _, (inp, out) = views
    np.testing.assert_array_equal(np.c_[inp.data[0].x, inp.data[0].y, inp.data[0].z], X)
    np.testing.assert_array_equal(np.c_[out.data[0].x, out.data[0].y], Y)
    assert [inp.data[0].marker.showscale, out.data[0].marker.showscale] == [False, True]
    assert out.layout.yaxis.scaleanchor == "x"  # equal scales: an isometry looks like one
    assert inp.layout.uirevision == out.layout.uirevision == "rev"


def test_hover_shows_index_and_both_positions_of_each_point(views):
    X, Y, _, _, (inp, out) = views
    assert inp.data[0].hovertemplate.startswith("point %{customdata[0]:d}")
    for figure in (inp, out):
        row = figure.data[0].customdata[12]
        assert row[0] == 12  # trace 0 keeps the points in order: the linked hover relies on it
        np.testing.assert_array_equal(row[1:4], X[12])
        np.testing.assert_array_equal(row[4:6], Y[12])
    for trace in (HIGHLIGHT_TRACE, SELECTION_TRACE):
        assert len(inp.data[trace].x) == 0 and len(out.data[trace].x) == 0
        assert inp.data[trace].hoverinfo == out.data[trace].hoverinfo == "skip"


def test_projected_input_is_a_selectable_plane_of_the_same_points(views):
    """Plotly selects in 2-D only: a projection keeps trace 0's rows and adds the same empty traces."""
    X, Y, local, color_range, _ = views
    columns = point_columns(X, Y, {"local R_N": local})
    flat = input_figure(local, color_range, "local R_N", columns, axis_titles=("x", "y", "z"), projection=(0, 2),
                        landmarks=np.array([4]))
    assert flat.data[0].type == "scattergl"
    np.testing.assert_array_equal(np.c_[flat.data[0].x, flat.data[0].y], X[:, [0, 2]])
    assert (flat.layout.xaxis.title.text, flat.layout.yaxis.title.text) == ("x", "z")
    assert flat.layout.yaxis.scaleanchor == "x"
    assert len(flat.data[SELECTION_TRACE].x) == 0
    np.testing.assert_array_equal([flat.data[3].x[0], flat.data[3].y[0]], X[4, [0, 2]])


def test_a_drawn_subsample_keeps_each_point_s_own_index():
    X, Y = np.arange(12.0).reshape(4, 3), np.arange(8.0).reshape(4, 2)
    columns = point_columns(X, Y, {}, points=np.array([2, 7, 30, 41]))
    np.testing.assert_array_equal(columns["point"], [2, 7, 30, 41])


def test_low_dimensional_points_are_padded_with_zeros():
    X, Y = np.arange(6.0).reshape(3, 2), np.arange(3.0).reshape(3, 1)
    columns = point_columns(X, Y, {})
    np.testing.assert_array_equal(columns["x₃"], 0.0)
    np.testing.assert_array_equal(columns["y₂"], 0.0)
    np.testing.assert_array_equal(columns["y₁"], Y[:, 0])


def comparison_panels():
    rng = np.random.default_rng(1)
    return [{"label": label, "output": output, "Y": rng.normal(size=(30, 2)),
             "summary": {"normalized": [rn, rn / 2], "conformal": [rn / 3, rn / 4], "lower_bound": [0.01, 0.0]}}
            for label, output, rn in (("LTSA", "normalized", 0.99), ("Isomap", "isometric", 0.07),
                                      ("LLE", "normalized", 0.81))]


def test_comparison_grid_puts_isometric_outputs_first_at_equal_axis_scales():
    figure = comparison_grid(comparison_panels(), np.arange(30.0), "arc length")
    titles = [annotation.text for annotation in figure.layout.annotations]
    assert titles[0].startswith("Isomap (isometric)") and "R_N 0.070" in titles[0]
    assert [t.split(" ")[0] for t in titles] == ["Isomap", "LTSA", "LLE"]
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis2.scaleanchor == "x2"
    assert [trace.marker.showscale for trace in figure.data] == [True, False, False]


def test_measure_bars_chart_each_measure_by_output_kind():
    figure = measure_bars(comparison_panels(), [("normalized", "R_N"), ("conformal", "R_C")])
    first_chart = {trace.name: dict(zip(trace.x, trace.y)) for trace in figure.data if trace.xaxis == "x"}
    assert first_chart == {"isometric": {"Isomap": 0.07}, "normalized": {"LTSA": 0.99, "LLE": 0.81}}
    second_chart = {x: y for trace in figure.data if trace.xaxis == "x2" for x, y in zip(trace.x, trace.y)}
    assert second_chart["LTSA"] == pytest.approx(0.33)


def test_landmark_overlay_links_each_landmark_to_its_mds_reference(views):
    X, Y, local, color_range, _ = views
    columns = point_columns(X, Y, {"local R_N": local})
    landmarks = np.array([3, 9, 27])
    reference = Y[landmarks] + 0.5
    inp = input_figure(local, color_range, "local R_N", columns, landmarks=landmarks)
    out = output_figure(local, color_range, "local R_N", columns, landmarks=landmarks,
                        landmark_configuration=reference)
    # The hover ring and the selection keep their places (traces 1 and 2).
    assert len(inp.data) == 4 and len(out.data) == 6
    np.testing.assert_array_equal(np.c_[inp.data[3].x, inp.data[3].y, inp.data[3].z], X[landmarks])
    segments = np.c_[out.data[3].x, out.data[3].y]
    np.testing.assert_array_equal(segments[0::3], Y[landmarks])
    np.testing.assert_array_equal(segments[1::3], reference)
    assert np.isnan(segments[2::3]).all()  # breaks between segments
    np.testing.assert_array_equal(np.c_[out.data[5].x, out.data[5].y], reference)
    assert out.layout.showlegend and not out.data[0].showlegend


def test_inspector_draws_each_alignment_with_the_residual_segments_the_measure_sums():
    import measures

    rng = np.random.default_rng(5)
    chart = rng.uniform(-1.0, 1.0, size=(60, 2))
    X = np.c_[chart, np.zeros(60)]
    Y = 1.5 * chart + 0.2 * chart**2
    view = measures.inspect_neighbourhood(X, Y, measures.nearest_neighbors(X, 8), 3)
    figure = inspector_figure(view)
    titles = [annotation.text for annotation in figure.layout.annotations]
    assert titles[0].startswith(f"R_N {view.normalized:.4f}") and titles[2].startswith(f"ASIM {view.asim_value:.4f}")
    scale = np.sum(view.input_local**2)
    for panel, value in zip(range(3), (view.normalized, view.conformal_value, view.asim_value)):
        segments = np.c_[figure.data[4 * panel].x, figure.data[4 * panel].y]
        squared = np.sum((segments[0::3] - segments[1::3]) ** 2)
        assert squared / scale == pytest.approx(value, rel=1e-9)  # flat input: nothing is off the plane
    np.testing.assert_array_equal([figure.data[3].x[0], figure.data[3].y[0]], view.input_local[0])
    assert figure.layout.yaxis3.scaleanchor == "x3"
