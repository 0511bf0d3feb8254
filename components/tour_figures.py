"""A tour step's figures from its cached runs: the outputs (with their input or inputs), the curve or the bars,
and GR Table 2's cells beside the paper's (:func:`components.tours.render_step` places them)."""

import dataclasses
import itertools

from dash import html

import algorithms

from lab.compute.studies import align_to_reference
from lab.compute.views import class_labels, coloring, marked_neighbourhood
from lab.tours.steps import value_label

from .figures import empty_figure
from .figures.tours import bar_figure, curve_figure, step_figure

__all__ = ["step_bars", "step_curve", "step_outputs", "step_table"]


def _caption(values, names):
    """The values written under a panel, one each, e.g. ``["R_N 0.0018", "R_C 0.0018"]``."""
    return [f"{value_label(name)} {values[name]:.3g}" for name in names if name in values]


def _truth_color(step):
    """The colouring of a step's figure: its view's ``truth-<i>``, else the first truth column.

    Each panel reads that column of its own run's truth (the digits': their classes), so a strip
    beside a swiss roll is coloured by each one's own chart.
    """
    color = step.state.display.color
    return color if color.startswith("truth-") else "truth-0"


def _colored(result, color):
    """A panel's colouring keys for :func:`components.figures.tours.step_figure`, from its own run."""
    values, title, _ = coloring(result, color)
    return {"color": values, "color_title": title, "categories": class_labels(result)}


def step_outputs(services, step, values, presentation):
    """The step's figure: its input or inputs (the paper's panel A; a paired figure's rows) and each drawn output,
    read from the result cache."""
    panels, inputs, color = [], [], _truth_color(step)
    keys = itertools.count()  # a panel's place in step.drawn tells a hover whose run it is (components.tour_images)
    for row, drawn in enumerate(step.input_rows()):
        first = None
        for panel, key in zip(drawn, keys):  # drawn first: its end must not use up a key
            result = services.results.get(panel.request)
            if result is None:  # failed, or left the cache since: the panel says so
                continue
            # Each output turned and scaled onto the truth (display only), so that the panels read alike.
            Y = align_to_reference(result.Y, result.truth) if result.truth.shape[1] == result.Y.shape[1] else result.Y
            marks = marked_neighbourhood(result, panel.request.method.n_neighbors) if step.marked else None
            caption = _caption(values[panel.key], step.captions) + ([marks.caption] if marks else [])
            panels.append({"label": panel.label, "Y": Y, "caption": caption, "key": key, "marks": marks,
                           **_colored(result, color)})
            if first is None:  # the row's input panel draws its first run's points
                first = (result, panels[-1])
        if first is not None and step.show_input and first[0].drawn_X.shape[1] == 3:
            inputs.append(_input_panel(step, row, *first, color))
    if not panels:
        return empty_figure("The runs of this step are not in the cache: reopen the step to compute them.")
    if len(inputs) > 1 and len(panels) != len(step.drawn):
        # A paired figure with a run missing: its rows would not line up, so the outputs alone, each naming its
        # row's input (which the input panels named once: "A1: LEM" and "A2: LEM" would read alike).
        rows = {panel.label: step.inputs[row] for row, drawn in enumerate(step.input_rows()) for panel in drawn}
        panels = [{**panel, "label": f"{panel['label']}, {rows[panel['label']]}"} for panel in panels]
        inputs = []
    return step_figure(panels, inputs=inputs, presentation=presentation)


def _input_panel(step, row, result, panel, color):
    """The drawn input of ``step``'s row ``row``: its first run's ``result`` (``panel`` drawn from it)."""
    # Images are drawn as their top principal components (lab.compute.runs): the caption says so.
    axes = [] if result.input_axes[0] == "x1" else [f"{result.input_axes[0]}–{result.input_axes[-1]}"]
    if step.inputs:  # a row of a paired figure: its input's name above, its size under (wrapped as captions are)
        label, caption = f"input, {step.inputs[row]}", [f"n = {result.n_samples}", *axes]
    else:  # the paper's panel A, unless the paper lettered its outputs from A (PN Fig. 4)
        letter = "" if any(label.startswith("A:") for label in (p.label for p in step.drawn)) else "A: "
        label, caption = ", ".join([f"{letter}input, n = {result.n_samples}", *axes]), ""
    return {"label": label, "caption": caption, "points": result.drawn_X, "key": panel["key"],
            **_colored(result, color), "marks": panel["marks"] and dataclasses.replace(panel["marks"], output=None)}


def step_curve(step, values, presentation):
    """Our measures against the step's ``curve_x``, one line per panel series, and the paper's published one."""
    series = {}
    for panel in step.panels:
        if panel.key in values:
            series.setdefault(panel.series or "", []).append((panel.position(step.curve_x), values[panel.key]))
    published = {f"{step.published.name} (published)": step.published.points()} if step.published else None
    return curve_figure(series, [(name, value_label(name)) for name in step.curve],
                        "k" if step.curve_x == "k" else step.curve_x, published=published, presentation=presentation)


def step_bars(step, values, presentation):
    """The step's ``bars`` measures of each drawn panel, its bar coloured by its algorithm's kind of output."""
    panels = [{"label": panel.label, "output": algorithms.spec(panel.request.method.algorithm).output,
               "summary": {name: (values[panel.key].get(name), values[panel.key].get(f"{name}_median"))
                           for name in step.bars}}
              for panel in step.drawn if panel.key in values]
    return bar_figure(panels, [(name, value_label(name)) for name in step.bars], presentation=presentation)


def step_table(step, values):
    """Ours beside the paper's, per cell: minimum R_N [R_C] and the k where each is reached."""
    paper = dict(step.paper)
    cells = values.get("step", {})

    def cell(column, row):
        ours = cells.get(f"{column}_{row}")
        if ours is None:
            return html.Td("—")
        text = f"{ours['normalized']:.3f}"
        where = f"k = {ours['normalized_k']}"
        if "conformal" in ours:
            text += f" [{ours['conformal']:.3f}]"
            where += f" [{ours['conformal_k']}]"
        match = step.cell_match(f"{column}_{row}", ours)
        mark = [] if match is None else [html.Div(
            "✓ as GR" if match else "✗ differs", className="match" + ("" if match else " differs"),
            title=f"Each number within {step.tolerance:g} of GR's" if match else
            f"A number more than {step.tolerance:g} from GR's")]
        return html.Td([html.Div(text, className="ours"), html.Div(where, className="where"),
                        html.Div(f"GR {paper.get(f'{column}_{row}', '—')}", className="paper"), *mark])

    header = html.Tr([html.Th(""), *[html.Th(label) for _, label in step.columns]])
    body = [html.Tr([html.Th(label), *[cell(column, row) for column, _ in step.columns]]) for row, label in step.rows]
    return html.Table([html.Thead(header), html.Tbody(body)])
