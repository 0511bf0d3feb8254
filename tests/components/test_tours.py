"""The tour's box and figures without a browser, and the issue's fixes to the views, sweep and compare tabs."""

import dataclasses
import string
import types

import numpy as np
import pytest
from dash import no_update

import algorithms
import measures

from components import ids
from components.compare import readable_bars
from components.figures import measure_bars
from components.figures.marks import (EDGES_TRACE, NEIGHBOURS_TRACE, class_colors, color_by_class, neighbour_traces,
                                      presentation_style)
from components.figures.tours import curve_figure, oblique_view, panel_grid, step_figure
from components.figures.views import output_figure, robust_color_range
from components.sweep import draw_sweep
from components.tour_figures import step_outputs
from components.tours import compute_step, mark_ready, render_step, show_computed, show_step, step_target
from lab import from_query
from lab.compute import catalogue
from lab.tours.prepare import main as tours_main
from lab.tours.presets import STEPS, TOURS
from lab.compute import compute
from lab.tours.steps import StepResult
from serving.services import Services


def text_of(component):
    """The text a Dash component (or a list of them, or a string) shows, its children's joined."""
    if component is None:
        return ""
    if isinstance(component, str):
        return component
    if isinstance(component, list | tuple):
        return "".join(text_of(child) for child in component)
    return text_of(getattr(component, "children", None))


def numbered(template):
    """Whether a step's template quotes any computed number."""
    return any(field for _, field, _, _ in string.Formatter().parse(template))


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
    text = text_of(out["text"])
    assert out["request"]["name"] == "pn-fig4-grid39" and "aspect 2" in text and "—" in text
    assert {item.className for item in out["claims"]} == {"claim pending"}


@pytest.mark.parametrize("forged", [None, {}, "x", {"name": ["gr-fig1"]}, {"name": "no-such-step"}])
def test_the_tour_job_refuses_a_request_for_no_step_with_a_message_and_computes_nothing(tmp_path, forged):
    services = Services.in_directory(tmp_path)
    done = compute_step(services, forged, lambda fraction, stage: None)
    assert done == {"name": "", "message": "The step asked for is not one of the tours'."}
    assert services.results.stats() == {"hits": 0, "computed": 0}
    # What the job answered, or a value no job wrote, leaves the open step as it is.
    state = STEPS["gr-fig1"].state.to_dict()
    for value in (done, {"name": "gr-fig1"}, {"name": "gr-fig1", "result": {"values": 1}}):
        out = show_computed(services, value, state)
        assert value is done or "could not be read" in text_of(out["text"])
    assert show_computed(services, done, {"data": "forged"})["text"] is no_update


@pytest.mark.parametrize("name", list(STEPS))
def test_every_step_opens_from_an_empty_cache_with_its_texts_and_no_claim_checked(tmp_path, name):
    # Eight steps answered 500 here: their claims were evaluated on no numbers (issue 19).
    services, step = Services.in_directory(tmp_path), STEPS[name]
    for presentation in (False, True):
        state = step.state.replace(display=dataclasses.replace(step.state.display, presentation=presentation))
        out = show_step(services, state.to_dict(), None, "token")
        assert out["request"]["name"] == name and out["step_title"] == step.title
        assert out["figure_style"]["visibility"] == "hidden"  # no figure before the numbers
        text = text_of(out["text"])
        assert "{" not in text and ("—" in text) == numbered(step.text) and len(text) > 100
        assert out["text"].open is not presentation  # the text folds on a projector, the claims above it
        assert [item.className for item in out["claims"]] == ["claim pending"] * len(step.claims)
        shown = [text_of(item) for item in out["claims"]]
        for claim, line in zip(step.claims, shown, strict=True):
            assert line.startswith("…") and ("—" in line) == numbered(claim.text)
            assert ("check of the code" in line) == claim.identity
    # A job that failed (a store down) shows its message in place of the text, the claims still pending.
    failed = show_computed(services, {"name": name, "message": "The step could not be computed: down"},
                           step.state.to_dict())
    assert failed["text"] == "The step could not be computed: down"
    assert {item.className for item in failed["claims"]} == {"claim pending"}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(STEPS))
def test_every_computed_step_opens_and_colours_each_panel_by_its_own_data(tour_app_directory, name):
    services, step = Services.in_directory(tour_app_directory), STEPS[name]
    out = show_step(services, step.state.to_dict(), None, "token")
    assert out["request"] is no_update  # computed: drawn at once, no job
    done = compute_step(services, {"name": name}, lambda fraction, stage: None)  # the job, as the page's
    for drawn in (out, show_computed(services, done, step.state.to_dict())):
        assert [item.className for item in drawn["claims"]] == ["claim holds"] * len(step.claims)
        # Every number filled in: no dash but the prose's own (pn-fig1's text has one).
        assert "—" not in text_of(drawn["claims"]) and text_of(drawn["text"]).count("—") == step.text.count("—")
        if step.chart == "table":
            assert len(drawn["table"].children[1].children) == len(step.rows)
            continue
        assert_each_panel_coloured_by_its_own_truth(services, step, drawn["figure"])


@pytest.mark.slow
def test_pn_fig4_s_colour_bar_names_the_coordinate_its_text_says_it_shows(tour_app_directory):
    """Issue 19: the grid's panels are coloured by its short coordinate j (truth column 1), the colour bar is
    titled j, and the text says "Colour: the short coordinate j"."""
    services, step = Services.in_directory(tour_app_directory), STEPS["pn-fig4-grid39"]
    figure = show_step(services, step.state.to_dict(), None, "token")["figure"]
    titles = {trace.marker.colorbar.title.text for trace in figure.data if trace.marker.showscale}
    label = services.results.get(step.drawn[0].request).truth_labels[1]
    assert step.state.display.color == "truth-1" and titles == {label} == {"j"}
    assert f"Colour: the short coordinate {label}," in step.text


@pytest.mark.slow
def test_a_paired_figure_with_a_run_missing_draws_its_outputs_each_naming_its_input(tour_app_directory):
    """PN Fig. 7 with one run gone from the cache: its rows would not line up, so the outputs alone, and each
    names its row's input, which the (dropped) input panels named once."""
    services, step = Services.in_directory(tour_app_directory), STEPS["pn-fig7-stretched"]
    values = step.panel_values(compute(step.request(), cache=services.results).result)
    gone = step.drawn[0].request

    class Results:  # the cache without that run
        def get(self, request):
            return None if request == gone else services.results.get(request)

    figure = step_outputs(types.SimpleNamespace(results=Results()), step, values, False)
    names = [trace.name for trace in figure.data if trace.legendgroup is None]
    rows = {panel.label: name for name, row in zip(step.inputs, step.input_rows()) for panel in row}
    assert names == [f"{panel.label}, {rows[panel.label]}" for panel in step.drawn[1:]]
    assert names[0] == "B1: DFM, swiss roll" and names[-1] == "F2: Isomap, stretched × 3"


def assert_each_panel_coloured_by_its_own_truth(services, step, figure):
    """Every panel's colours are its own run's: its truth column (the step's), or its classes' colours."""
    color = step.state.display.color
    chosen = int(color.rsplit("-", 1)[1]) if color.startswith("truth-") else 0

    def column(result):  # a run with fewer truth columns (the digits' one) is coloured by its first
        return chosen if chosen < result.truth.shape[1] else 0

    results = [services.results.get(panel.request) for panel in step.drawn]
    # The points' traces: not the legend's empty entries, nor a marked neighbourhood's (each in a legend group).
    traces = [trace for trace in figure.data if trace.x is not None and trace.x[0] is not None
              and trace.legendgroup is None]
    # The inputs (panel A; a paired figure's rows, each first in its row): each its row's first run's.
    rows = step.input_rows()
    drawn_inputs = len(rows) if step.show_input and results[0].drawn_X.shape[1] == 3 else 0
    places = [place for place, trace in enumerate(traces) if trace.name not in {panel.label for panel in step.drawn}]
    assert len(places) == drawn_inputs and all("input" in traces[place].name for place in places)
    for number, (place, row) in enumerate(zip(places, rows if drawn_inputs else (), strict=True)):
        first = services.results.get(row[0].request)
        np.testing.assert_array_equal(traces[place].marker.color, first.truth[:, column(first)].astype(np.float32))
        if step.inputs:  # each row starts with its input
            assert place == number * (len(row) + 1)
    titles = set()
    outputs = [trace for place, trace in enumerate(traces) if place not in places]
    for panel, result, trace in zip(step.drawn, results, outputs, strict=True):
        assert trace.name == panel.label and len(trace.marker.color) == len(result.Y)
        own = result.truth[:, column(result)]
        if trace.marker.colorscale is None:  # classes (the digits): one colour each
            assert list(trace.marker.color) == list(class_colors(own)), panel.label
        else:
            np.testing.assert_array_equal(trace.marker.color, own.astype(np.float32), err_msg=panel.label)
            titles.add(result.truth_labels[column(result)])
    assert {trace.marker.colorbar.title.text for trace in traces if trace.marker.showscale} == titles


@pytest.mark.slow  # over 10 s on 2 busy cores: CI runs it, the fast command does not
def test_a_computed_step_draws_its_panels_with_their_measures_under_each(tmp_path):
    services = Services.in_directory(tmp_path)
    step = STEPS["lecture-classical-scaling"]
    assert not any(option["label"].endswith("✓") for option in mark_ready(services, "token", None))
    result = compute(step.request(), cache=services.results).result
    # The index marks the computed step ready, and only it: a lecturer sees what opens at once.
    marked = [option["value"] for option in mark_ready(services, "token", None) if option["label"].endswith("✓")]
    assert marked == [step.name]
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
    panels = [{"label": "A1: Laplacian eigenmaps, stretched × 3", "Y": np.zeros((3, 2)), "caption": long,
               "color": np.zeros(3), "color_title": "u"}] * 12
    wide = step_figure(panels, presentation=True)
    assert wide.layout.xaxis.title.text == "ASIM (M_L)<br>0.00267<br>M_G 0.00141"  # too wide for a line, or two
    # A column's width: "× 3" kept with its factor, "stretched" free to stand on the line above.
    assert wide.layout.annotations[0].text == "A1:<br>Laplacian<br>eigenmaps,<br>stretched<br>×\u00a03"
    assert wide.layout.height is None  # two rows on a projector, in the window's height
    # Between the rows, in a 1280 × 720 window (a plotting area about 555 px high): 3 caption lines, 5 title lines
    # and Plotly's offsets.
    assert (wide.layout.yaxis.domain[0] - wide.layout.yaxis7.domain[1]) * 555 >= (5 + 3) * 1.35 * 18 + 44
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis3.scaleanchor == "x3"
    rendered = render_step(services, step, StepResult(result.values, {"mds": "a failure"}), True)
    notice, fold = rendered["text"]  # the failure in sight, the text folded on a projector
    assert notice.children == "Failed runs: mds: a failure" and not fold.open
    assert rendered["figure"].layout.font.size >= 18


@pytest.mark.slow
@pytest.mark.parametrize("name", ["nq-3a-rectangle", "pn-fig1-strip"])
def test_nq_fig1_and_pn_fig1_mark_the_central_point_s_input_and_output_neighbours(tour_app_directory, name):
    services, step = Services.in_directory(tour_app_directory), STEPS[name]
    figure = show_step(services, step.state.to_dict(), None, "token")["figure"]
    inputs = [trace for trace in figure.data if trace.name == "its k nearest input neighbours"]
    outputs = [trace for trace in figure.data if trace.name == "its k nearest output neighbours"]
    assert len(inputs) == len(step.drawn) + 1 and len(outputs) == len(step.drawn)  # the input panel: its own only
    captions = [figure.layout[f"xaxis{'' if index == 0 else index + 1}"].title.text
                for index in range(len(step.drawn) + 1)]  # the input's panel first
    for index, panel in enumerate(step.drawn):
        result = services.results.get(panel.request)
        k = panel.request.method.n_neighbors
        centre = np.argmin(np.linalg.norm(result.truth - result.truth.mean(axis=0), axis=1))
        near_in = set(np.argsort(np.linalg.norm(result.X - result.X[centre], axis=1))[1:k + 1])
        near_out = set(np.argsort(np.linalg.norm(result.Y - result.Y[centre], axis=1))[1:k + 1])
        drawn = figure.data[[trace.name for trace in figure.data].index(panel.label)]
        points = np.column_stack([drawn.x, drawn.y])
        for trace, rows in ((inputs[index + 1], near_in), (outputs[index], near_out)):
            assert len(trace.x) == k
            np.testing.assert_array_equal(sorted(map(tuple, np.column_stack([trace.x, trace.y]))),
                                          sorted(map(tuple, points[sorted(rows)])), err_msg=panel.label)
        assert f"marked point: {len(near_in & near_out)} of its {k} neighbours kept" in captions[index + 1]


def test_a_paper_s_figure_keeps_its_grid_a1_to_f1_over_a2_to_f2():
    assert [panel_grid(count) for count in (2, 3, 5, 6, 7, 12)] == [(1, 2), (1, 3), (2, 3), (2, 3), (2, 4), (2, 6)]
    Y = np.random.default_rng(0).normal(size=(30, 2))
    figure = step_figure([{"label": f"P{i}", "Y": Y, "caption": f"c{i}", "color": Y[:, 0] + i, "color_title": "u"}
                          for i in range(12)])
    assert len(figure.data) == 12 and figure.layout.xaxis12.title.text == "c11"
    assert [trace.marker.showscale for trace in figure.data] == [False] * 11 + [True]  # one colour bar
    assert {(trace.marker.cmin, trace.marker.cmax) for trace in figure.data} == {
        tuple(robust_color_range(np.concatenate([Y[:, 0] + i for i in range(12)])))}  # one shared range


def test_a_paired_figure_starts_each_row_with_its_own_input():
    """PN Figs. 7–9 (issue 19): a data set and the same stretched, each row its input, then its outputs."""
    rng = np.random.default_rng(3)
    inputs = [{"label": f"input, {name}", "points": rng.normal(size=(30, 3)) * scale, "color": rng.uniform(size=30),
               "color_title": "u"} for name, scale in (("roll", 1.0), ("stretched", 3.0))]
    panels = [{"label": f"{letter}{row}", "Y": rng.normal(size=(30, 2)), "caption": "", "color": rng.uniform(size=30),
               "color_title": "u"} for row in (1, 2) for letter in "ABCDEF"]
    figure = step_figure(panels, inputs=inputs)
    assert [trace.name for trace in figure.data] == ["input, roll", *"A1 B1 C1 D1 E1 F1".split(),
                                                     "input, stretched", *"A2 B2 C2 D2 E2 F2".split()]
    # Two rows of seven: each input in the first column, its row's outputs after it.
    assert figure.layout.xaxis.domain == figure.layout.xaxis8.domain
    assert figure.layout.yaxis.domain == figure.layout.yaxis7.domain and figure.layout.yaxis8.domain[1] < (
        figure.layout.yaxis.domain[0])
    np.testing.assert_allclose(figure.data[7].x, oblique_view(inputs[1]["points"])[:, 0].astype(np.float32))


def test_panels_of_two_data_sets_keep_their_own_colours_and_a_colour_bar_each():
    rng = np.random.default_rng(2)
    strip, roll = rng.uniform(0, 6, 40), rng.uniform(0, 90, 50)
    figure = step_figure([{"label": "strip", "Y": rng.normal(size=(40, 2)), "caption": "", "color": strip,
                           "color_title": "u"},
                          {"label": "roll", "Y": rng.normal(size=(50, 2)), "caption": "", "color": roll,
                           "color_title": "arc length"}],
                         inputs=[{"label": "A: input", "points": rng.normal(size=(40, 3)), "color": strip,
                                  "color_title": "u"}])
    input_trace, strip_trace, roll_trace = figure.data
    np.testing.assert_array_equal(strip_trace.marker.color, strip.astype(np.float32))
    assert (strip_trace.marker.cmin, strip_trace.marker.cmax) == tuple(robust_color_range(np.r_[strip, strip]))
    assert (roll_trace.marker.cmin, roll_trace.marker.cmax) == tuple(robust_color_range(roll))
    assert [trace.marker.showscale for trace in figure.data] == [False, True, True]
    assert [strip_trace.marker.colorbar.title.text, roll_trace.marker.colorbar.title.text] == ["u", "arc length"]
    assert strip_trace.marker.colorbar.x < figure.layout.xaxis3.domain[0]  # beside its own panel


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
    linear, _, _ = draw_sweep(stored, from_query("?tab=sweep").to_dict())
    logarithmic, _, _ = draw_sweep(stored, from_query("?tab=sweep&sweep.log=1").to_dict())
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


def made_up_values(step, names, seed):
    """Distinct made-up numbers of ``names`` (and their medians) for every panel of ``step``, as a computed
    step's values read: the figures must draw exactly these."""
    rng = np.random.default_rng(seed)
    return {panel.key: {"k": panel.request.method.n_neighbors,
                        **{key: float(rng.uniform(0.01, 0.9)) for name in names for key in (name, f"{name}_median")}}
            for panel in step.panels}


def bars_by_chart(figure):
    """Each bar chart's title -> ``{bar label: (height, hover median, kind of output)}``, and the charts' bar order."""
    charts, orders = {}, []
    for index, annotation in enumerate(figure.layout.annotations):
        axis = "x" if index == 0 else f"x{index + 1}"
        charts[annotation.text] = {label: (height, median, trace.name) for trace in figure.data if trace.xaxis == axis
                                   for label, height, median in zip(trace.x, trace.y, trace.customdata, strict=True)}
        orders.append(tuple(figure.layout[f"xaxis{'' if index == 0 else index + 1}"].categoryarray))
    return charts, orders


@pytest.mark.parametrize("name, shown", [("nq-fig2-swissroll", ("asim", "nieqa_global", "truth_match")),
                                         ("nq-fig3-swisshole", ("asim", "truth_match"))])
def test_nq_s_bar_plots_chart_each_panel_s_own_m_l_m_g_m_t_under_the_figure(tmp_path, name, shown):
    """NQ Figs. 2–3 (h)–(n): one chart per assessment (no M_G for the holed roll, as NQ), one bar per algorithm
    in the figure's order, its height the panel's mean, its hover its median, its colour its kind of output."""
    step = STEPS[name]
    assert step.bars == shown
    values = made_up_values(step, shown, seed=len(name))
    for presentation in (False, True):
        out = render_step(Services.in_directory(tmp_path), step, StepResult(values, {}), presentation)
        assert out["curve_style"] == {} and out["curve"].layout.font.size == (18 if presentation else 12)
        charts, orders = bars_by_chart(out["curve"])
        assert list(charts) == [measures.spec(measure).label for measure in shown]
        assert set(orders) == {tuple(panel.label for panel in step.drawn)}  # the figure's order, LLE first
        for measure in shown:
            assert charts[measures.spec(measure).label] == {
                panel.label: (values[panel.key][measure], values[panel.key][f"{measure}_median"],
                              algorithms.spec(panel.request.method.algorithm).output) for panel in step.drawn}
    # A failed run has no bar; the others keep theirs.
    failed = {key: value for key, value in values.items() if key != "lle"}
    charts, _ = bars_by_chart(render_step(Services.in_directory(tmp_path), step, StepResult(failed, {"lle": "x"}),
                                          False)["curve"])
    assert all(set(bars) == {panel.label for panel in step.drawn if panel.key != "lle"} for bars in charts.values())


@pytest.mark.slow
@pytest.mark.parametrize("name", ["nq-fig2-swissroll", "nq-fig3-swisshole"])
def test_a_computed_nq_step_opens_with_bars_of_its_runs_measures(steps_app_directory, name):
    services, step = Services.in_directory(steps_app_directory(name)), STEPS[name]
    out = show_step(services, step.state.to_dict(), None, "token")
    assert out["request"] is no_update  # computed: drawn at once, the bars with the figure
    values = compute(step.request(), cache=services.results).result.values
    charts, _ = bars_by_chart(out["curve"])
    for measure in step.bars:
        heights = {label: height for label, (height, _, _) in charts[measures.spec(measure).label].items()}
        assert heights == {panel.label: values[panel.key][measure] for panel in step.drawn}
    # NQ's reading of Figs. 2–3: M_L ranks LTSA best and LE worst, as M_t does, and the bars show it.
    asim = charts[measures.spec("asim").label]
    assert min(asim, key=lambda label: asim[label][0]) == "LTSA" and max(asim, key=lambda label: asim[label][0]) == "LE"


def test_gr_fig5_s_curve_draws_gr_s_published_r_c_dashed_beside_ours(tmp_path):
    step = STEPS["gr-fig5-cylinder-lle"]
    values = made_up_values(step, ("conformal",), seed=5)
    out = render_step(Services.in_directory(tmp_path), step, StepResult(values, {}), False)
    ours, taller, gr = out["curve"].data
    for trace, series in ((ours, "radius 1, height 1"), (taller, "radius 1, height 2")):
        panels = [panel for panel in step.panels if panel.series == series]
        assert trace.name == series and trace.line.dash is None
        assert list(trace.x) == [panel.request.method.n_neighbors for panel in panels]
        assert list(trace.y) == [values[panel.key]["conformal"] for panel in panels]
    # GR's line: the caption's numbers exactly, named as GR's, dashed with open markers, in the legend.
    assert gr.name == "GR Fig. 5 (published)" and gr.showlegend and gr.line.dash == "dash"
    assert list(gr.x) == [6, 9, 12, 15, 18] and list(gr.y) == [0.25, 0.15, 0.13, 0.19, 0.17]
    assert gr.marker.symbol == "circle-open" and gr.line.color not in {ours.line.color, taller.line.color}
    assert out["curve"].layout.annotations[0].text == measures.spec("conformal").label
    assert "GR's R_C are 0.25, 0.15, 0.13, 0.19, 0.17, smallest at k = 12" in text_of(out["text"])
    # Before our numbers: GR's are quoted already (they are known), ours are dashes.
    pending = text_of(show_step(Services.in_directory(tmp_path), step.state.to_dict(), None, "token")["text"])
    assert "GR's R_C are 0.25, 0.15, 0.13, 0.19, 0.17, smallest at k = 12" in pending and "1 × 1 cylinder: —" in pending


def test_a_published_series_is_drawn_only_beside_the_measures_it_gives():
    ours = {"LLE": [(6, {"normalized": 0.8, "conformal": 0.3}), (9, {"normalized": 0.7, "conformal": 0.2})]}
    figure = curve_figure(ours, [("normalized", "R_N"), ("conformal", "R_C")], "k",
                          published={"GR Fig. 5 (published)": [(6, {"conformal": 0.25}), (9, {"conformal": 0.15})]})
    assert [(trace.name, trace.xaxis, trace.showlegend) for trace in figure.data] == [
        ("LLE", "x", True), ("LLE", "x2", False), ("GR Fig. 5 (published)", "x2", True)]
    assert list(figure.data[2].y) == [0.25, 0.15] and list(figure.data[1].y) == [0.3, 0.2]
    alone = curve_figure(ours, [("conformal", "R_C")], "k")  # one line: no legend to read
    assert [trace.showlegend for trace in alone.data] == [False]


@pytest.mark.parametrize("component", [ids.TOUR_INDEX, ids.PRESENTATION, ids.SWEEP_LOG])
def test_the_new_controls_are_controls_of_the_view_state(component):
    from components.state_sync import CONTROLS

    assert component in {control.component for control in CONTROLS.values()}


@pytest.mark.slow  # over 10 s on 2 busy cores: CI runs it, the fast command does not
def test_a_prepared_step_opens_at_once_from_the_page_s_own_cache(tmp_path, capsys):
    # `python -m lab.tours prepare` computes into the cache the page opens (same folder, same keys).
    names = ["lecture-classical-scaling", "lecture-isomap"]
    assert tours_main(["prepare", *names, "--cache-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["[1/2] lecture-classical-scaling", "[2/2] lecture-isomap"]
    assert all(": ready (" in line for line in lines[:2]) and lines[-1].startswith("2 of 2 steps ready in ")
    # Prepared again: nothing to compute, and the lines say so (not the first run's counts).
    assert tours_main(["prepare", *names, "--cache-dir", str(tmp_path)]) == 0
    again = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 1)[1] for line in again[:2]] == ["ready (already in the cache)"] * 2
    services = Services.in_directory(tmp_path)
    for name in names:
        out = show_step(services, STEPS[name].state.to_dict(), None, "token")
        assert out["request"] is no_update  # drawn from the cache: no job
        assert {item.className for item in out["claims"]} == {"claim holds"}
    # A name that is no tour or step is a usage error naming the choices.
    with pytest.raises(SystemExit) as stopped:
        tours_main(["prepare", "nope"])
    assert stopped.value.code == 2 and "tours: gr, nq, pn, ml, lecture" in capsys.readouterr().err
