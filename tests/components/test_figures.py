"""Figure builders: pure functions from arrays to figures, checked through fig.data and fig.layout."""

import base64
import json
import pathlib
import re

import dash
import numpy as np
import plotly.io as pio
import pytest

from components.figures import (
    HIGHLIGHT_TRACE,
    SELECTION_TRACE,
    agreement_figure,
    color_update,
    comparison_grid,
    image_figure,
    input_figure,
    inspector_figure,
    measure_bars,
    output_figure,
    robust_color_range,
    sweep_figure,
)
from components.figures import theme
from components.figures.theme import TEMPLATE, TRACE_TYPES
from lab.compute.studies import SweepYardsticks


@pytest.fixture
def views():
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(50, 3)), rng.normal(size=(50, 2))
    local = rng.exponential(size=50)
    local[7] = 35.0  # one short-circuited neighbourhood
    color_range = robust_color_range(local)
    figures = (input_figure(X, local, color_range, "local R_N", title="in", revision="rev"),
               output_figure(Y, local, color_range, "local R_N", title="out", revision="rev"))
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
        np.testing.assert_array_equal(marker.color, local.astype(np.float32))  # data never clipped
        assert marker.color[7] == 35.0 and "%{marker.color:.4g}" in figure.data[0].hovertemplate


def test_both_views_draw_the_same_points_and_one_colour_bar(views):
    X, Y, _, _, (inp, out) = views
    np.testing.assert_array_equal(np.c_[inp.data[0].x, inp.data[0].y, inp.data[0].z], X.astype(np.float32))
    np.testing.assert_array_equal(np.c_[out.data[0].x, out.data[0].y], Y.astype(np.float32))
    assert [inp.data[0].marker.showscale, out.data[0].marker.showscale] == [False, True]
    assert out.layout.yaxis.scaleanchor == "x"  # equal scales: an isometry looks like one
    assert inp.layout.uirevision == out.layout.uirevision == "rev"


def test_drawn_values_travel_as_binary_float32(views):
    """Only what the views draw goes to the browser, as typed arrays: 4 bytes a value."""
    _, _, _, _, (inp, out) = views
    encoded = out.to_plotly_json()["data"][0]
    assert encoded["x"]["dtype"] == "f4" and encoded["marker"]["color"]["dtype"] == "f4"
    assert "customdata" not in encoded or encoded["customdata"] is None  # all points drawn: the index is the row


def test_hover_shows_the_point_its_coordinates_and_its_colour_value(views):
    _, _, _, _, (inp, out) = views
    assert inp.data[0].hovertemplate.startswith("point %{pointNumber}<br>x₁ %{x:.4g}, x₂ %{y:.4g}, x₃ %{z:.4g}")
    assert out.data[0].hovertemplate.startswith("point %{pointNumber}<br>y₁ %{x:.4g}, y₂ %{y:.4g}")
    for trace in (HIGHLIGHT_TRACE, SELECTION_TRACE):
        assert len(inp.data[trace].x) == 0 and len(out.data[trace].x) == 0
        assert inp.data[trace].hoverinfo == out.data[trace].hoverinfo == "skip"


def test_a_drawn_subsample_names_each_point_by_its_index_in_the_data_set():
    Y = np.arange(8.0).reshape(4, 2)
    ids = np.array([2, 7, 30, 41])
    figure = output_figure(Y, np.zeros(4), (0.0, 1.0), "c", point_ids=ids)
    np.testing.assert_array_equal(figure.data[0].customdata, ids)
    assert figure.data[0].hovertemplate.startswith("point %{customdata}")


def test_a_new_colouring_changes_only_the_marker_and_the_hover_text(views):
    X, Y, local, color_range, (inp, _) = views
    update = color_update(X[:, 0], robust_color_range(X[:, 0]), "arc length", ("x₁", "x₂", "x₃"))
    assert set(update) == {"marker", "hovertemplate"} and "arc length" in update["hovertemplate"]
    redrawn = input_figure(X, X[:, 0], robust_color_range(X[:, 0]), "arc length")
    assert redrawn.data[0].hovertemplate == update["hovertemplate"]
    # Encoded as the figure is (a typed array, not a list of decimals): the same float32 colours.
    assert update["marker"]["color"]["dtype"] == "f4"
    np.testing.assert_array_equal(redrawn.data[0].marker.color, np.frombuffer(
        base64.b64decode(update["marker"]["color"]["bdata"]), dtype=np.float32))


def test_metadata_lines_are_hovered_before_the_colour_value_and_a_recolouring_keeps_them(views):
    """Each drawn point's metadata line (trace 0's hovertext) in the hover, before the colour value, which the loss
    colouring replaces as the last line; a colour patch of a described view keeps the line."""
    X, Y, local, color_range, _ = views
    lines = np.array([f"name: p{row}" for row in range(len(X))])
    for figure in (input_figure(X, local, color_range, "local R_N", hover_text=lines),
                   input_figure(X, local, color_range, "local R_N", hover_text=lines, projection=(0, 1)),
                   output_figure(Y, local, color_range, "local R_N", hover_text=lines)):
        template = figure.data[0].hovertemplate
        assert template.endswith("<br>%{hovertext}<br>local R_N: %{marker.color:.4g}<extra></extra>")
        assert list(figure.data[0].hovertext) == lines.tolist()
        update = color_update(local, color_range, "local R_N", ("y₁", "y₂"), described=True)
        assert "%{hovertext}" in update["hovertemplate"]
    assert "%{hovertext}" not in output_figure(Y, local, color_range, "local R_N").data[0].hovertemplate


def test_projected_input_is_a_selectable_plane_of_the_same_points(views):
    """Plotly selects in 2-D only: a projection keeps trace 0's rows and adds the same empty traces."""
    X, Y, local, color_range, _ = views
    flat = input_figure(X, local, color_range, "local R_N", axis_titles=("x", "y", "z"), projection=(0, 2),
                        landmarks=np.array([4]))
    assert flat.data[0].type == "scattergl"
    np.testing.assert_array_equal(np.c_[flat.data[0].x, flat.data[0].y], X[:, [0, 2]].astype(np.float32))
    assert (flat.layout.xaxis.title.text, flat.layout.yaxis.title.text) == ("x", "z")
    assert flat.layout.yaxis.scaleanchor == "x"
    assert len(flat.data[SELECTION_TRACE].x) == 0
    np.testing.assert_array_equal([flat.data[3].x[0], flat.data[3].y[0]], X[4, [0, 2]].astype(np.float32))


def test_low_dimensional_points_are_padded_with_zeros():
    X, Y = np.arange(6.0).reshape(3, 2), np.arange(3.0).reshape(3, 1)
    inp = input_figure(X, np.zeros(3), (0.0, 1.0), "c", axis_titles=("a", "b"))
    out = output_figure(Y, np.zeros(3), (0.0, 1.0), "c")
    np.testing.assert_array_equal(inp.data[0].z, 0.0)
    np.testing.assert_array_equal(out.data[0].y, 0.0)
    np.testing.assert_array_equal(out.data[0].x, Y[:, 0])


def test_the_star_marks_each_algorithm_s_best_k_as_given():
    rows = [{"algorithm": "ltsa", "label": "LTSA", "k": k, "summary": {"trustworthiness": [t, None]}}
            for k, t in ((6, 0.998), (12, 0.95), (18, 0.857))]
    figure = sweep_figure(rows, "trustworthiness", "trustworthiness", {"ltsa": rows[0]})
    star = figure.data[-1]
    assert star.name == "best k" and list(star.x) == [6] and list(star.y) == [0.998]


def test_the_sweep_draws_the_floor_dashed_and_the_random_outputs_as_a_band_behind_the_curves():
    rows = [{"algorithm": "pca", "label": "PCA", "k": k, "summary": {"normalized": [rn, None]}} for k, rn in ((6, 0.3),
                                                                                                          (9, 0.2))]
    sticks = SweepYardsticks("floor", (6, 9), (0.01, 0.02), (6, 9), (0.9, 0.8), (40.0, 50.0))
    figure = sweep_figure(rows, "normalized", "R_N", {}, sticks)
    band, floor, curve = figure.data
    assert band.name == "random outputs" and band.fill == "toself" and band.hoverinfo == "skip"
    assert list(band.x) == [6, 9, 9, 6] and list(band.y) == [0.9, 0.8, 50.0, 40.0]
    assert floor.name == "floor" and list(floor.y) == [0.01, 0.02] and floor.line.dash == "dash"
    assert floor.customdata is None and curve.name == "PCA"  # a click on a yardstick opens nothing


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
    X, Y = X.astype(np.float32), Y.astype(np.float32)
    landmarks = np.array([3, 9, 27])
    reference = Y[landmarks] + 0.5
    inp = input_figure(X, local, color_range, "local R_N", landmarks=landmarks)
    out = output_figure(Y, local, color_range, "local R_N", landmarks=landmarks, landmark_configuration=reference)
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


def test_the_agreement_matrix_draws_each_rho_blank_where_undefined_on_a_fixed_minus_one_to_one_scale():
    rho = np.array([[1.0, 0.25, np.nan], [0.25, 1.0, -0.5], [np.nan, -0.5, np.nan]])
    heatmap = agreement_figure(["R_N", "trustworthiness", "ASIM (M_L)"], rho, 7, 4).data[0]
    assert list(heatmap.x) == list(heatmap.y) == ["R_N", "trustworthiness", "ASIM (M_L)"]
    assert [list(row) for row in heatmap.z] == [[1.0, 0.25, None], [0.25, 1.0, -0.5], [None, -0.5, None]]
    assert (heatmap.zmin, heatmap.zmax) == (-1.0, 1.0)
    assert "across the 7 runs" in agreement_figure(["R_N"], np.ones((1, 1)), 7, 4).layout.title.text
    too_few = agreement_figure(["R_N"], np.ones((1, 1)), 3, 4)
    assert too_few.data == () and too_few.layout.annotations[0].text == ("Measure agreement needs 4 runs or more; "
                                                                         "this study has 3.")


def test_a_sweep_s_agreement_is_that_of_its_runs_measures_and_needs_four_runs():
    from components.sweep import draw_sweep
    from lab import from_query
    from measures import measure_agreement

    rng = np.random.default_rng(3)
    uncomputed = {name: [None, None] for name in ("conformal", "asim", "nieqa_global")}
    rows = [{"algorithm": "isomap", "label": "Isomap", "k": k, "seconds": 1.0,
             "summary": {**uncomputed, "normalized": [r, r], "trustworthiness": [t, None], "collapse": [c, None],
                         "lower_bound": [b, b]}}
            for k, r, t, c, b in zip(range(6, 12), *rng.random((4, 6)))]
    rows.append({"algorithm": "lle", "label": "LLE", "k": 6, "error": "failed"})
    state = from_query("?tab=sweep&sweep.measure=normalized").to_dict()
    agreement = draw_sweep({"result": {"rows": rows, "computed": 6, "cached": 0, "failed": 1}}, state)[2]
    expected = measure_agreement([[row["summary"]["normalized"][0], row["summary"]["trustworthiness"][0]]
                                  for row in rows[:6]], ["normalized", "trustworthiness"])
    heatmap = agreement.data[0]
    # Left out: measures no run computed, the collapse score (no direction), the lower bound (input alone).
    assert list(heatmap.x) == ["R_N", "trustworthiness"]
    np.testing.assert_allclose(np.array(heatmap.z, dtype=float), expected, rtol=1e-15)
    few = draw_sweep({"result": {"rows": rows[:3], "computed": 3, "cached": 0, "failed": 0}}, state)[2]
    assert few.data == () and "needs 4 runs or more; this study has 3" in few.layout.annotations[0].text
    # Another tab shown: a new run there (a new view state) rebuilds and sends nothing; the tab draws on opening.
    hidden = draw_sweep({"result": {"rows": rows, "computed": 6, "cached": 0, "failed": 1}},
                        from_query("?tab=explore&k=12").to_dict())
    assert all(part is dash.no_update for part in hidden)


def test_the_figures_keep_plotly_s_default_look_for_what_they_draw_in_under_half_its_bytes(views):
    """components.figures.theme: Plotly's default template without what the page never draws."""
    X, Y, local, color_range, (inp, out) = views
    default = pio.templates["plotly"]
    kept_layout = {key: value for key, value in default.layout.to_plotly_json().items()
                   if key not in ("geo", "mapbox", "polar", "ternary")}
    grid = measure_bars(comparison_panels(), [("normalized", "R_N")])
    for figure in (inp, out, input_figure(X, local, color_range, "c", projection=(0, 2)), grid,
                   image_figure(np.eye(4), "pixels")):
        template = figure.layout.template
        assert template.layout.to_plotly_json() == kept_layout
        for trace in figure.data:
            assert getattr(template.data, trace.type) == getattr(default.data, trace.type), trace.type
    assert len(json.dumps(TEMPLATE.to_plotly_json())) < 0.5 * len(json.dumps(default.to_plotly_json()))


def test_every_trace_type_a_figure_builder_draws_is_one_the_template_styles():
    """A builder drawing another trace type would lose Plotly's defaults for it: add the type to TRACE_TYPES."""
    folder = pathlib.Path(theme.__file__).parent
    drawn = {name for path in folder.glob("*.py") for name in re.findall(r"\bgo\.([A-Z]\w*)\(", path.read_text())}
    traces = {name.lower() for name in drawn - {"Figure", "Frame"}}
    assert traces and traces <= set(TRACE_TYPES), traces - set(TRACE_TYPES)
