"""Figures of a tour step: a paper's panels side by side; under them, measures against k (or an aspect ratio)
beside the paper's own series, or a bar per panel.

Pure builders: plain dicts and arrays in, ``plotly.graph_objects.Figure`` out (no Dash, no globals).
"""

import re
import textwrap

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .marks import class_colors, class_name
from .studies import measure_bars
from .theme import TEMPLATE
from .views import COLORSCALE, robust_color_range

__all__ = ["INPUT_VIEW", "PRESENTATION_FONT", "bar_figure", "curve_figure", "oblique_view", "panel_grid", "step_figure"]

# Presentation mode: labels at least this large (px), for a projector.
PRESENTATION_FONT = 18
_FONT = 12
# In presentation the figure takes its container's height (assets/style.css): at 1280 × 720 its
# plotting area is about this tall (px) when it shares the window with a curve, the tightest case.
# The gaps between rows, which Plotly takes as fractions of that height, are sized for it.
_PRESENTATION_PLOT_HEIGHT = 300
# Height of a line of text per px of type, titles and captions alike.
_LINE = 1.35


def panel_grid(count):
    """``(rows, columns)`` of a paper's figure of ``count`` panels: one row up to 3, 2 × 3 up to 6, then two
    rows (the papers' A1–F1 over A2–F2), in reading order.

    Two rows at most, on a projector too: a third row would leave each panel a strip a few points
    high in a 720-pixel window, where a narrower column only wraps its title and caption.
    """
    if count <= 3:
        return 1, max(count, 1)
    if count <= 6:
        return 2, 3
    return 2, -(-count // 2)


# Panel A shows the 3-D input as seen from this direction (azimuth, elevation in degrees), a fixed
# oblique view: a tour's figure is drawn without WebGL (see step_figure).
INPUT_VIEW = (-25.0, 20.0)


def oblique_view(points, azimuth=INPUT_VIEW[0], elevation=INPUT_VIEW[1]):
    """3-D points seen from (``azimuth``, ``elevation``), orthographically: the screen's (right, up) coordinates.

    Examples
    --------
    >>> oblique_view(np.eye(3), azimuth=0.0, elevation=0.0).round(12).tolist()  # looking along -y: x right, z up
    [[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]]
    """
    a, e = np.radians(azimuth), np.radians(elevation)
    right = np.array([np.cos(a), -np.sin(a), 0.0])
    up = np.array([np.sin(a) * np.sin(e), np.cos(a) * np.sin(e), np.cos(e)])
    return np.asarray(points, dtype=float) @ np.column_stack([right, up])


def step_figure(panels, *, inputs=(), presentation=False):
    """A paper's figure recomputed: the input (optional, an oblique view) then each output, in the paper's order;
    or, for a figure of several inputs, one row per input, each starting with it.

    Parameters
    ----------
    panels : list of dict
        One per output: ``label`` (above it), ``caption`` (the measures written under it: a text, or a
        list of texts, on one line where they fit the column, else one a line), ``Y`` of shape
        (n_samples, d) (its first two coordinates are drawn, at equal axis scales), and its own
        colouring: ``color`` of shape (n_samples,) with ``color_title``, the name of what it shows
        (an intrinsic coordinate of the panel's own data set), or ``categories`` of shape
        (n_samples,), class labels (the digits): each class its own colour and a legend entry. An
        optional ``key`` (an int) becomes every point's ``customdata``, so a hover names the panel (the
        step's image panels show the hovered point's image: :mod:`components.tour_images`). An optional
        ``marks`` (NQ Fig. 1, PN Fig. 1 E–F; :class:`lab.compute.views.MarkedNeighbourhood`): its ``point``
        and the rows of its k nearest ``input`` and ``output`` neighbours (None: not drawn) over the points.
    inputs : list of dict
        The drawn inputs: ``label``, ``points`` of shape (n_samples, 3) (drawn as :func:`oblique_view`
        shows them), its colouring as a panel's and an optional ``caption``. One: the paper's panel A,
        before the outputs. More (PN Figs. 7–9, a data set and the same stretched): the outputs split
        into that many equal rows in order, each row after its input.
    presentation : bool
        Type of at least :data:`PRESENTATION_FONT` px, larger points, and the height of the container
        (the window's). Titles and captions wrap to their column's width either way.

    Returns
    -------
    plotly.graph_objects.Figure
        SVG traces only: a page that walks a tour replaces this figure at every step, and WebGL
        contexts, which browsers ration, would be lost on the way (and an SVG download keeps vector
        points).

    Notes
    -----
    Panels whose colourings have the same title share one colour range (the robust range of all
    their values) and one colour bar, beside the last of them: panels of one data set read alike,
    and a panel of another data set (a strip beside a swiss roll) keeps a scale of its own.
    """
    inputs = [{"caption": "", **panel, "Y": oblique_view(panel["points"])} for panel in inputs]
    if len(inputs) > 1:
        width = len(panels) // len(inputs)
        drawn = [panel for row, given in enumerate(inputs) for panel in (given, *panels[row * width:(row + 1) * width])]
        rows, columns = len(inputs), width + 1
    else:
        drawn = [*inputs, *panels]
        rows, columns = panel_grid(len(drawn))
    font = PRESENTATION_FONT if presentation else _FONT
    fits = (80 if presentation else 180) // columns  # characters in a column at the figure's type size
    titles = [_wrapped(panel["label"], fits - 1) for panel in drawn]  # a title's type is a pixel larger
    captions = [panel["caption"] if isinstance(panel["caption"], str) else _caption_lines(panel["caption"], fits)
                for panel in drawn]
    # Between two rows: the upper row's captions and the lower row's titles, each as many lines as wrapped.
    title_lines = max(title.count("<br>") + 1 for title in titles)
    # Plus Plotly's offsets: a caption stands about 20 px below its panel, a title 10 px above it.
    gap = (title_lines + max(caption.count("<br>") + 1 for caption in captions)) * _LINE * font + 44
    height = None if presentation else 290 * rows + 60
    top = (75 if presentation else 45) + (title_lines - 1) * _LINE * (font + 1)
    plot_height = _PRESENTATION_PLOT_HEIGHT if presentation else height - top - 10
    scales = _color_scales(drawn)
    figure = make_subplots(rows=rows, cols=columns, subplot_titles=titles,
                           # a colour bar between two panels needs the room of its ticks and title
                           horizontal_spacing=0.1 if len(scales) > 1 else 0.03 if columns > 3 else 0.05,
                           # at most 0.45: the rows keep some height (a window without a curve, the
                           # usual case, is nearly twice as tall as assumed and has room to spare)
                           vertical_spacing=min(0.45, gap / plot_height) if rows > 1 else 0.0)
    size = 4 if presentation else 3
    for index, panel in enumerate(drawn):
        Y = np.asarray(panel["Y"], dtype=np.float32)
        Y = Y if Y.shape[1] > 1 else np.column_stack([Y, np.zeros(len(Y), dtype=np.float32)])
        row, column = index // columns + 1, index % columns + 1
        axis = "" if index == 0 else str(index + 1)
        figure.add_trace(go.Scatter(
            x=Y[:, 0], y=Y[:, 1], mode="markers", name=panel["label"], showlegend=False,
            marker=_marker(panel, scales, index, figure.layout[f"xaxis{axis}"].domain,
                           figure.layout[f"yaxis{axis}"].domain, size),
            # A plain list: Dash's hover event reads a point's customdata from the figure as sent, where a
            # typed array (numpy's base64 form) gave None.
            customdata=None if panel.get("key") is None else [int(panel["key"])] * len(Y),
            hovertemplate=f"{panel['label']}<br>point %{{pointNumber}}<extra></extra>"), row=row, col=column)
        figure.update_layout({f"xaxis{axis}": dict(title=dict(text=captions[index], font=dict(size=font)),
                                                   showticklabels=False, showgrid=False, zeroline=False),
                              f"yaxis{axis}": dict(scaleanchor=f"x{axis}", scaleratio=1, showticklabels=False,
                                                   showgrid=False, zeroline=False)})
    marked = [index for index, panel in enumerate(drawn) if panel.get("marks") is not None]
    for index in marked:
        _mark(figure, drawn[index], index // columns + 1, index % columns + 1, size)
    categorised = [panel for panel in drawn if panel.get("categories") is not None]
    if categorised:
        labels = np.concatenate([panel["categories"] for panel in categorised])
        colours = class_colors(labels)
        for label, first in zip(*np.unique(labels, return_index=True), strict=True):
            figure.add_trace(go.Scatter(x=[None], y=[None], mode="markers",
                                        name=class_name(categorised[0]["color_title"], label),
                                        marker=dict(size=10, color=colours[first])), row=1,
                             col=len(drawn) if rows == 1 else columns)
    for annotation in figure.layout.annotations:
        annotation.font = dict(size=font + 1)
    figure.update_layout(template=TEMPLATE, plot_bgcolor="white", font=dict(size=font), showlegend=bool(categorised),
                         legend=dict(orientation="h", x=0.5, xanchor="center", y=-0.08, font=dict(size=font)),
                         # Room above the panels' titles for the mode bar (presentation: a projector's view).
                         margin=dict(l=10, r=10, t=top, b=10),
                         # On a projector the window sets the height (two rows at most: no page scroll).
                         height=height)
    return figure


def _mark(figure, panel, row, column, size):
    """A panel's marked neighbourhood: the input's k nearest (rings), the output's (crosses), the point (star).

    No legend: at the foot of the figure it would lie over the panels' captions; the step's text says
    what the marks are, and each caption how many of the k neighbours the output kept.
    """
    Y = np.asarray(panel["Y"], dtype=np.float32)  # as the panel's points are drawn: the marks sit on them
    marks = panel["marks"]
    for rows, name, marker in (
            (marks.input, "its k nearest input neighbours", dict(symbol="circle-open", size=size + 8, color="black",
                                                                     line=dict(width=1.5))),
            (marks.output, "its k nearest output neighbours", dict(symbol="x-thin-open", size=size + 8,
                                                                           color="crimson", line=dict(width=2))),
            ([marks.point], "the marked point", dict(symbol="star", size=size + 10, color="black"))):
        if rows is None:
            continue
        rows = np.asarray(rows, dtype=int)
        figure.add_trace(go.Scatter(x=Y[rows, 0], y=Y[rows, 1] if Y.shape[1] > 1 else np.zeros(len(rows)),
                                    mode="markers", name=name, legendgroup=name, showlegend=False,
                                    hoverinfo="skip", marker=marker), row=row, col=column)


def _color_scales(drawn):
    """Colour title -> ``(cmin, cmax, index of the last panel coloured by it)`` over the continuous colourings."""
    scales = {}
    for index, panel in enumerate(drawn):
        if panel.get("categories") is None:
            scales.setdefault(panel["color_title"], []).append(index)
    return {title: (*robust_color_range(np.concatenate([drawn[i]["color"] for i in members])), members[-1])
            for title, members in scales.items()}


def _marker(panel, scales, index, x_domain, y_domain, size):
    """A panel's markers: its class colours, or its own values on its colour title's shared range.

    The last panel of a colour title carries that title's colour bar; with more than one title each
    bar stands beside its panel (``x_domain``, ``y_domain``), else at the figure's right.
    """
    if panel.get("categories") is not None:
        return dict(color=class_colors(panel["categories"]), size=size)
    low, high, last = scales[panel["color_title"]]
    # A title of a letter or two ("j", "u") reads upright above the bar; a longer one runs along it.
    side = "top" if len(panel["color_title"]) <= 3 else "right"
    colorbar = dict(title=dict(text=panel["color_title"], side=side), thickness=14, len=0.9)
    if len(scales) > 1:
        colorbar.update(x=x_domain[1] + 0.005, xanchor="left", y=sum(y_domain) / 2, yanchor="middle",
                        len=y_domain[1] - y_domain[0])
    return dict(color=np.asarray(panel["color"], dtype=np.float32), colorscale=COLORSCALE, cmin=low, cmax=high,
                size=size, showscale=index == last, colorbar=colorbar)


def _caption_lines(parts, fits):
    """A panel's measures on one line (``" · "``) when they fit its column's ``fits`` characters, else one a line
    (a measure wider than the column wraps too: its name above its value)."""
    line = " · ".join(parts)
    return line if len(line) <= fits else "<br>".join(_wrapped(part, fits) for part in parts)


# "30 × 30": a product of two numbers, read as one size.
_NUMBER_PRODUCT = re.compile(r"(?<=\d) × (?=\d)")


def _wrapped(text, fits):
    """``text`` in lines (``<br>``) of about ``fits`` characters: broken after its commas first, then between
    words, never inside a product of numbers such as ``30 × 30`` nor between ``×`` and its factor.

    Examples
    --------
    >>> _wrapped("A1: LEM, 30 × 30", 12)
    'A1: LEM,<br>30\xa0×\xa030'
    >>> _wrapped("a grid, 2 × 3 × 4", 6)
    'a<br>grid,<br>2\xa0×\xa03\xa0×\xa04'
    >>> _wrapped("A2: LEM, stretched × 3", 11)
    'A2: LEM,<br>stretched<br>×\xa03'
    >>> _wrapped("collapse score 0.539", 12)
    'collapse<br>score 0.539'
    """
    if len(text) <= fits:
        return text
    # textwrap breaks at spaces, not at no-break ones. A word before "×" may go to the line above: glued to
    # it, "stretched × 3" is wider than a column of seven and runs into its neighbours' titles.
    kept = _NUMBER_PRODUCT.sub("\u00a0×\u00a0", text).replace(" × ", " ×\u00a0")
    parts = kept.split(", ")
    pieces = [f"{part}," for part in parts[:-1]] + parts[-1:]
    return "<br>".join(line for piece in pieces for line in textwrap.wrap(piece, fits, break_long_words=False))


def curve_figure(series, measures, x_title, *, published=None, presentation=False):
    """Measures against a parameter, one line per series, one subplot per measure; a paper's own series beside ours.

    Parameters
    ----------
    series : dict of str to list of (float, dict)
        Series name -> ``(x, {measure: value})`` points, in order.
    measures : list of (str, str)
        ``(key, label)`` of each plotted measure.
    x_title : str
    published : dict of str to list of (float, dict), optional
        The paper's printed series in the same form (:meth:`lab.tours.steps.Published.points`), legend
        name -> points: each drawn dashed, in black with open markers, in the subplots of the measures
        it gives (GR Fig. 5's R_C beside ours).
    presentation : bool

    Returns
    -------
    plotly.graph_objects.Figure
        Our series first, then the paper's; each line named once in the legend, which is shown when
        there is more than one line.
    """
    font = PRESENTATION_FONT if presentation else _FONT
    figure = make_subplots(rows=1, cols=len(measures), subplot_titles=[label for _, label in measures],
                           horizontal_spacing=0.08)
    lines = [(name, points, dict(color=_SERIES_COLORS[index % len(_SERIES_COLORS)], width=3), "circle")
             for index, (name, points) in enumerate(series.items())]
    lines += [(name, points, dict(color=_PUBLISHED_COLOR, width=2, dash="dash"), "circle-open")
              for name, points in (published or {}).items()]
    named = set()
    for column, (key, label) in enumerate(measures, start=1):
        for name, points, line, symbol in lines:
            if not any(key in values for _, values in points):  # a paper's series gives only the measures it printed
                continue
            figure.add_trace(go.Scatter(x=[x for x, _ in points], y=[values.get(key) for _, values in points],
                                        mode="lines+markers", name=name, legendgroup=name,
                                        showlegend=len(lines) > 1 and name not in named, line=line,
                                        marker=dict(size=9 if presentation else 7, symbol=symbol),
                                        hovertemplate=f"{name}<br>{x_title} %{{x}}<br>{label} %{{y:.4g}}"
                                                      "<extra></extra>"),
                             row=1, col=column)
            named.add(name)
    figure.update_xaxes(title_text=x_title, gridcolor="#eee", title_font=dict(size=font))
    figure.update_yaxes(gridcolor="#eee", rangemode="tozero")
    return _strip_layout(figure, presentation)


def bar_figure(panels, measures, *, presentation=False):
    """A step's measures as bars under its figure: one chart per measure, one bar per panel (NQ Figs. 2–4 (h)–(n)).

    Parameters
    ----------
    panels : list of dict
        One per drawn output, in the paper's order, as :func:`components.figures.measure_bars` takes them:
        ``label``, ``output`` (its algorithm's kind of output, which colours its bar) and ``summary``
        (measure -> ``(mean, median)``); a bar is the mean, its hover gives the median too.
    measures : list of (str, str)
        ``(key, label)`` of each charted measure.
    presentation : bool

    Returns
    -------
    plotly.graph_objects.Figure
        The bars in the panels' order (as the figure above them), whatever their kinds.
    """
    figure = measure_bars(panels, measures)
    # One trace per kind of output: overlaid, each bar takes its category's whole width (grouped, it
    # would share it with the other kinds' empty slots).
    figure.update_layout(barmode="overlay")
    figure.update_xaxes(categoryorder="array", categoryarray=[panel["label"] for panel in panels])
    return _strip_layout(figure, presentation)


def _strip_layout(figure, presentation):
    """The layout of the graph under a step's figure (a curve or bars): the tours' type, a short strip's height."""
    font = PRESENTATION_FONT if presentation else _FONT
    for annotation in figure.layout.annotations:
        annotation.font = dict(size=font + 1)
    figure.update_layout(template=TEMPLATE,
                         plot_bgcolor="white", font=dict(size=font), height=None if presentation else 300,
                         # Room above the subplot titles for the mode bar, as in step_figure.
                         margin=dict(l=50, r=10, t=75 if presentation else 40, b=50),
                         # On a projector the strip is short: its legend goes beside it, not over its titles.
                         legend=dict(orientation="v", x=1.01, y=1.0, xanchor="left", yanchor="top",
                                     font=dict(size=font)) if presentation
                         # Above, from the left: clear of the mode bar at the right.
                         else dict(orientation="h", x=0, xanchor="left", y=1.18, font=dict(size=font)))
    return figure


_SERIES_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
# A paper's published series: black, apart from ours.
_PUBLISHED_COLOR = "#222222"
