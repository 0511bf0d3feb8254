"""The tour's box and figures without a browser, and the issue's fixes to the views, sweep and compare tabs."""

import numpy as np
import pytest

from components import ids
from components.compare import readable_bars
from components.figures import measure_bars
from components.figures.marks import (EDGES_TRACE, NEIGHBOURS_TRACE, class_colors, color_by_class, neighbour_traces,
                                      presentation_style)
from components.figures.tours import panel_grid, step_figure
from components.figures.views import output_figure
from components.jobs import Services
from components.sweep import draw_sweep
from components.tours import render_step, show_step, step_target
from lab import catalogue, from_query
from lab.presets import STEPS, TOURS
from lab.tours import StepResult, compute_step


def test_back_and_next_stop_at_a_tour_s_ends():
    tour = TOURS[0]
    assert step_target(tour.steps[0].name, -1) is None
    assert step_target(tour.steps[0].name, 1) == tour.steps[1].name
    assert step_target(tour.steps[-1].name, 1) is None


def test_a_view_without_a_tour_hides_the_box_and_a_shown_step_is_not_drawn_again(tmp_path):
    services = Services.in_directory(tmp_path)
    out = show_step(services, from_query("?k=9").to_dict(), None, "token")
    assert out["box_class"] == "tour hidden" and out["shown"] == {"name": "", "presentation": False}
    again = show_step(services, from_query("?k=9").to_dict(), out["shown"], "token")
    assert all(value.__class__.__name__ == "NoUpdate" for value in again.values())


def test_an_uncomputed_step_shows_its_text_with_dashes_and_asks_the_job(tmp_path):
    services = Services.in_directory(tmp_path)
    out = show_step(services, STEPS["pn-fig4-grid39"].state.to_dict(), None, "token")
    assert out["box_class"] == "tour" and out["position"] == "step 2 of 7"
    assert out["request"]["name"] == "pn-fig4-grid39" and "aspect 2" in out["text"] and "—" in out["text"]
    assert {item.className for item in out["claims"]} == {"claim pending"}


def test_a_computed_step_draws_its_panels_with_their_measures_under_each(tmp_path):
    services = Services.in_directory(tmp_path)
    step = STEPS["lecture-classical-scaling"]
    result = compute_step(step, services.results)
    out = show_step(services, step.state.to_dict(), None, "token")
    assert out["request"].__class__.__name__ == "NoUpdate"  # cached: drawn at once
    assert [item.className for item in out["claims"]] == ["claim holds"] * len(step.claims)
    figure = out["figure"]
    titles = [annotation.text for annotation in figure.layout.annotations]
    assert titles == ["A: input, n = 1600", "PCA", "classical MDS"]
    assert {trace.type for trace in figure.data} == {"scatter"}  # no WebGL: a tour replaces it at every step
    pca = result.values["pca"]
    assert figure.layout.xaxis2.title.text == f"R_N {pca['normalized']:.3g} · shape residual {pca['shape']:.3g}"
    long = ["ASIM (M_L) 0.00267", "M_G 0.00141"]
    panels = [{"label": "P", "Y": np.zeros((3, 2)), "caption": long}] * 7
    wide = step_figure(panels, np.zeros(3), "u", presentation=True)
    assert wide.layout.xaxis.title.text == "ASIM (M_L) 0.00267<br>M_G 0.00141"  # too wide for a line
    assert wide.layout.height == 270 * 3 + 60  # three rows on a projector: their own height, scrolled
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis3.scaleanchor == "x3"
    rendered = render_step(services, step, StepResult(result.values, {"mds": "a failure"}), True)
    assert "Failed runs: mds: a failure" in rendered["text"] and rendered["figure"].layout.font.size >= 18


def test_a_paper_s_figure_keeps_its_grid_a1_to_f1_over_a2_to_f2():
    assert [panel_grid(count) for count in (2, 3, 5, 6, 12)] == [(1, 2), (1, 3), (2, 3), (2, 3), (2, 6)]
    assert [panel_grid(count, presentation=True) for count in (6, 7, 12)] == [(2, 3), (3, 3), (4, 3)]
    Y = np.random.default_rng(0).normal(size=(30, 2))
    figure = step_figure([{"label": f"P{i}", "Y": Y, "caption": f"c{i}"} for i in range(12)], Y[:, 0], "u")
    assert len(figure.data) == 12 and figure.layout.xaxis12.title.text == "c11"
    assert [trace.marker.showscale for trace in figure.data] == [False] * 11 + [True]  # one colour bar


def test_class_labels_get_one_colour_each_and_a_legend_not_a_colour_bar():
    labels = np.array([3, 2, 3, 5, 2])
    colours = class_colors(labels)
    assert colours[0] == colours[2] != colours[1] == colours[4] != colours[3]
    Y = np.random.default_rng(1).normal(size=(5, 2))
    figure = color_by_class(output_figure(Y, labels.astype(float), (2, 5), "digit class"), labels, "digit class",
                            legend=True)
    assert not figure.data[0].marker.showscale and list(figure.data[0].marker.color) == list(colours)
    assert [trace.name for trace in figure.data[3:]] == ["digit class 2", "digit class 3", "digit class 5"]
    assert "%{text}" in figure.data[0].hovertemplate


def test_the_neighbour_traces_start_empty_and_presentation_makes_type_large_and_marks_bold():
    figure = output_figure(np.zeros((4, 2)), np.arange(4.0), (0, 3), "t", title="Output")
    figure.add_traces(neighbour_traces(False))
    assert [trace.name for trace in figure.data[-2:]] == [EDGES_TRACE, NEIGHBOURS_TRACE]
    assert all(len(trace.x) == 0 for trace in figure.data[-2:])
    presentation_style(figure)
    assert figure.layout.font.size >= 18 and figure.layout.title.font.size >= 18
    assert figure.layout.modebar.orientation == "v"  # upright on the right: clear of the title
    assert figure.data[1].marker.line.width >= 5 and figure.data[2].marker.line.width >= 3


def test_a_sweep_plot_offers_a_log_scale():
    rows = [{"algorithm": "gp", "label": "GP", "k": k, "seconds": 1.0,
             "summary": {name: [value, value] for name in catalogue.CARD_MEASURES}}
            for k, value in ((6, 1e-4), (9, 1e-3))]
    stored = {"result": {"rows": rows, "computed": 2, "cached": 0, "failed": 0}}
    linear, _ = draw_sweep(stored, from_query("?tab=sweep").to_dict())
    logarithmic, _ = draw_sweep(stored, from_query("?tab=sweep&sweep.log=1").to_dict())
    assert linear.layout.yaxis.type is None and logarithmic.layout.yaxis.type == "log"


def test_the_compare_bars_labels_stay_readable_with_thirteen_algorithms():
    panels = [{"label": f"algorithm number {i}", "output": "isometric" if i % 2 else "normalized",
               "summary": {"normalized": [0.1, 0.1], "conformal": [0.1, 0.1]}} for i in range(13)]
    figure = readable_bars(measure_bars(panels, [("normalized", "R_N"), ("conformal", "R_C")]), 13)
    assert {trace.orientation for trace in figure.data} == {"h"}  # one row per algorithm, none skipped
    assert sorted(label for trace in figure.data[:2] for label in trace.y) == sorted(p["label"] for p in panels)
    assert figure.layout.yaxis.showticklabels and not figure.layout.yaxis2.showticklabels  # names written once
    assert figure.layout.height >= 24 * 13 and "%{y}" in figure.data[0].hovertemplate
    assert readable_bars(measure_bars(panels[:3], [("normalized", "R_N")]), 3).data[0].orientation is None


@pytest.mark.parametrize("component", [ids.TOUR_INDEX, ids.PRESENTATION, ids.SWEEP_LOG])
def test_the_new_controls_are_controls_of_the_view_state(component):
    from components.state_sync import CONTROLS

    assert component in {control.component for control in CONTROLS.values()}
