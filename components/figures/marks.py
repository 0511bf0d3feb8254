"""Additions to a run's views: a class legend, false vs missing neighbours in two hues with their key, the
clicked point's neighbour marks, a projector's type.

Pure builders: each takes a figure of :mod:`.views` and changes it in place.
"""

import re
import textwrap

import numpy as np
import plotly.graph_objects as go

__all__ = ["CLASS_COLORS", "EDGES_TRACE", "LOSS_COLORS", "LOSS_KEY", "LOSS_LEVELS", "NEIGHBOURS_TRACE", "class_colors",
           "class_name", "color_by_class", "color_by_losses", "loss_index", "loss_palette", "loss_range",
           "neighbour_traces", "presentation_style"]

# Class labels (the digits): one qualitative colour per class, a legend entry each (Plotly's D3 palette).
CLASS_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
                "#17becf")
# False vs missing neighbours: the four corners of a bivariate palette, mixed bilinearly. Orange and blue
# stay apart under the common colour-vision deficiencies (Okabe & Ito's blue, an orange of the
# colour-blind-safe orange/purple pair); grey, not white, is "neither", so such points stay visible on
# a white background; dark is "both".
LOSS_COLORS = {"neither": "#d0d0d0", "false": "#e66100", "missing": "#0072b2", "both": "#2e1f3d"}
# Levels per loss: 0 (no such neighbour at all), then four equal steps up to the common robust top.
LOSS_LEVELS = 5
# The colour value in a view's hover (its format: four significant digits, or what fixed point carries).
_COLOR_VALUE = re.compile(r"%\{marker\.color:[^}]*\}")
# Name of the key's heatmap trace and of its title annotation.
LOSS_KEY = "key"
# Names of the traces that show the clicked point's k neighbours and its kNN edges in both views
# (filled in the browser by assets/linked_views.js, found there by name).
NEIGHBOURS_TRACE = "neighbours"
EDGES_TRACE = "kNN edges"


def class_colors(labels):
    """Each point's colour: its class's, classes in sorted order (cycling past ten classes).

    Examples
    --------
    >>> list(class_colors(np.array([5, 2, 5])))
    ['#ff7f0e', '#1f77b4', '#ff7f0e']
    """
    classes, codes = np.unique(np.asarray(labels), return_inverse=True)
    return np.asarray(CLASS_COLORS, dtype=object)[codes.ravel() % len(CLASS_COLORS)]


def class_name(title, label):
    """A class's legend entry: ``"digit class 3"`` (a number written without a trailing ``.0``).

    Examples
    --------
    >>> class_name("digit class", 3.0), class_name("species", "setosa")
    ('digit class 3', 'species setosa')
    """
    return f"{title} {label:g}" if isinstance(label, (int, float, np.number)) else f"{title} {label}"


def color_by_class(figure, labels, title, *, legend):
    """Colour trace 0 of a view by class (a discrete legend, not a colour bar), in place; returns the figure.

    Parameters
    ----------
    figure : plotly.graph_objects.Figure
        From :func:`input_figure` or :func:`output_figure`.
    labels : ndarray of shape (n_drawn,)
        Each drawn point's class.
    title : str
        The classes' name ("digit class"), in the hover text and the legend.
    legend : bool
        Add one legend entry per class (the output view; the input view shares its colours).
    """
    points = figure.data[0]
    points.marker.color = class_colors(labels)
    points.marker.showscale = False
    points.text = [f"{label:g}" if isinstance(label, (int, float, np.number)) else str(label) for label in labels]
    points.hovertemplate = _COLOR_VALUE.sub("%{text}", points.hovertemplate)  # whatever its format
    if legend:
        three_d = isinstance(points, go.Scatter3d)
        kind = go.Scatter3d if three_d else go.Scattergl
        empty = {"x": [None], "y": [None], **({"z": [None]} if three_d else {})}
        classes, first = np.unique(np.asarray(labels), return_index=True)
        colours = class_colors(labels)
        figure.add_traces([kind(**empty, mode="markers", name=class_name(title, label),
                                marker=dict(size=10, color=colours[index]), hoverinfo="skip")
                           for label, index in zip(classes.tolist(), first)])
        figure.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.12))
    return figure


def _rgb(color):
    return np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def loss_palette(levels=LOSS_LEVELS):
    """The ``levels**2`` colours of false vs missing neighbours, index ``false_level * levels + missing_level``.

    Bilinear between the corners of :data:`LOSS_COLORS`: level 0 of both is "neither", the top level
    of one alone its full hue, the top of both "both".

    Examples
    --------
    >>> palette = loss_palette()
    >>> palette[0], palette[4 * 5], palette[4], palette[-1]
    ('#d0d0d0', '#e66100', '#0072b2', '#2e1f3d')
    """
    corners = {name: _rgb(color) for name, color in LOSS_COLORS.items()}
    steps = np.linspace(0.0, 1.0, levels)
    false_weight, missing_weight = np.meshgrid(steps, steps, indexing="ij")
    mixed = ((1 - false_weight) * (1 - missing_weight))[..., None] * corners["neither"] \
        + (false_weight * (1 - missing_weight))[..., None] * corners["false"] \
        + ((1 - false_weight) * missing_weight)[..., None] * corners["missing"] \
        + (false_weight * missing_weight)[..., None] * corners["both"]
    return tuple("#%02x%02x%02x" % tuple(rgb) for rgb in np.rint(mixed).astype(int).reshape(-1, 3))


def loss_range(false_loss, missing_loss, upper=98.0):
    """The loss painted at full strength: the ``upper``-th percentile of both losses' positive values, pooled.

    One top for both hues, so that equal hues mean equal losses. The bottom is not a percentile but
    0: a point with no false (missing) neighbour at all is "neither" whatever the others do, and an
    exact isometry is grey everywhere. Only the colour range is clipped (SPEC §0, as
    :func:`components.figures.views.robust_color_range`); the hover shows the raw losses.

    Returns
    -------
    float
        Positive; 1.0 when no point has a loss.
    """
    pooled = np.concatenate([np.ravel(false_loss), np.ravel(missing_loss)])
    positive = pooled[pooled > 0]
    return float(np.percentile(positive, upper)) if positive.size else 1.0


def loss_index(false_loss, missing_loss, top, levels=LOSS_LEVELS):
    """Each point's colour in :func:`loss_palette`: ``false_level * levels + missing_level``, uint8.

    A loss of exactly 0 is level 0; a positive loss ``l`` is level ``ceil((levels - 1) l / top)``,
    at least 1 (any such neighbour shows) and at most ``levels - 1`` (from ``top`` on, full strength).

    Examples
    --------
    >>> loss_index(np.array([0.0, 0.3, 0.0, 0.01, 0.3]), np.array([0.0, 0.0, 0.3, 0.0, 0.2]), 0.3).tolist()
    [0, 20, 4, 5, 23]
    """
    def level(loss):
        steps = np.clip(np.ceil(np.asarray(loss, dtype=float) / top * (levels - 1)), 1, levels - 1)
        return np.where(np.asarray(loss) > 0, steps, 0).astype(np.uint8)

    return level(false_loss) * np.uint8(levels) + level(missing_loss)


def _discrete_scale(colors):
    """A Plotly colour scale giving integer ``i`` (with cmin -0.5, cmax len - 0.5) exactly ``colors[i]``."""
    count = len(colors)
    return [[position, color] for i, color in enumerate(colors) for position in (i / count, (i + 1) / count)]


def color_by_losses(figure, false_loss, missing_loss, top, title, *, key, levels=LOSS_LEVELS):
    """Colour trace 0 of a view by false vs missing neighbours (two hues, :func:`loss_palette`), in place.

    Parameters
    ----------
    figure : plotly.graph_objects.Figure
        From :func:`input_figure` or :func:`output_figure`.
    false_loss, missing_loss : ndarray of shape (n_drawn,)
        Each drawn point's ``1 - t_i`` and ``1 - c_i`` (:class:`lab.compute.views.NeighbourLosses`).
    top : float
        The loss drawn at full strength (:func:`loss_range` of every point's, shared by both views).
    title : str
        What the colouring shows, with T and C (``"false vs missing neighbours: T = …, C = …"``): the
        key's title in short lines (wrapped, and one per ", " after the ": "), then the loss of full hue.
    key : bool
        Add the 2-D colour key beside the points (the output view; the input view shares its colours).

    Returns
    -------
    plotly.graph_objects.Figure

    Notes
    -----
    The colours travel as one uint8 palette index per point (a discrete colour scale), not as
    colour strings: 28 kB at 20 000 points instead of 220 kB (and 53 kB for a fixed-point colouring).
    The hover shows both raw losses, as two strings per point (``text``, ``hovertext``: customdata
    holds the drawn rows for assets/linked_views.js; a view whose ``hovertext`` holds an upload's metadata
    lines keeps them, and both losses share the ``text``); they are the bulk of the payload, 430 kB at
    20 000 points, so the output view weighs 670 kB there against 370 kB for a one-value colouring.
    """
    palette = loss_palette(levels)
    index = loss_index(false_loss, missing_loss, top, levels)
    points = figure.data[0]
    points.marker.update(color=index, colorscale=_discrete_scale(palette), cmin=-0.5, cmax=len(palette) - 0.5,
                         showscale=False)
    false_text = [f"{value:.3g}" for value in np.asarray(false_loss, dtype=float)]
    missing_text = [f"{value:.3g}" for value in np.asarray(missing_loss, dtype=float)]
    lines = points.hovertemplate.replace("<extra></extra>", "").split("<br>")
    if points.hovertext is None:
        points.text, points.hovertext = false_text, missing_text
        losses = ["false neighbours 1 − tᵢ: %{text}", "missing neighbours 1 − cᵢ: %{hovertext}"]
    else:  # the hovertext is each point's metadata line (an upload's): both losses go in the text
        points.text = [f"{false}<br>missing neighbours 1 − cᵢ: {missing}"
                       for false, missing in zip(false_text, missing_text)]
        losses = ["false neighbours 1 − tᵢ: %{text}"]
    points.hovertemplate = "<br>".join([*lines[:-1], *losses]) + "<extra></extra>"
    if key:
        _loss_key(figure, index, top, title, palette, levels)
    return figure


def _loss_key(figure, index, top, title, palette, levels):
    """The 2-D colour key right of a 2-D view: false level across, missing level up, each cell's point count."""
    counts = np.bincount(index, minlength=levels * levels).reshape(levels, levels)  # [false, missing]
    edges = [0.0, *(top * np.arange(1, levels) / (levels - 1))]

    def span(level):
        if level == 0:
            return "0"
        return f"≥ {edges[level - 1]:.2g}" if level == levels - 1 else f"{edges[level - 1]:.2g}–{edges[level]:.2g}"

    grid = np.arange(levels)
    cells = np.add.outer(grid * levels, grid).T  # [missing, false]: rows go up the key
    text = [[f"false 1 − tᵢ {span(f)}, missing 1 − cᵢ {span(m)}: {counts[f, m]} points" for f in grid] for m in grid]
    figure.add_trace(go.Heatmap(z=cells, x=grid, y=grid, colorscale=_discrete_scale(palette), zmin=-0.5,
                                zmax=len(palette) - 0.5, showscale=False, xaxis="x2", yaxis="y2", name=LOSS_KEY,
                                text=text, hovertemplate="%{text}<extra></extra>", xgap=1, ygap=1))
    # No tick labels (they crowd a key this small): one common top, said in the key's title.
    axis = dict(showticklabels=False, ticks="", showgrid=False, zeroline=False, fixedrange=True, constrain="domain")
    what, _, values = title.partition(": ")
    lines = [*textwrap.wrap(what, 16), *[value for value in values.split(", ") if value], f"full hue from {top:.2g}"]
    figure.update_layout(
        xaxis=dict(domain=[0.0, 0.72]),
        xaxis2=dict(domain=[0.80, 1.0], anchor="y2", title=dict(
            text="false →", standoff=4, font=dict(color=LOSS_COLORS["false"], size=12)), **axis),
        yaxis2=dict(domain=[0.25, 0.55], anchor="x2", scaleanchor="x2", title=dict(
            text="missing →", standoff=4, font=dict(color=LOSS_COLORS["missing"], size=12)), **axis),
        annotations=[*figure.layout.annotations, dict(
            name=LOSS_KEY, text="<br>".join(lines), xref="paper", yref="paper", x=1.0, y=0.58, xanchor="right",
            yanchor="bottom", align="left", showarrow=False, font=dict(size=11))])


def neighbour_traces(three_d):
    """Two empty traces to append to a view: the clicked point's neighbours and its kNN edges.

    Filled in the browser (assets/linked_views.js, by name), so a click redraws two small traces,
    not the view. An edge that short-circuits the manifold (two turns of a swiss roll) shows as a
    long chord in the output.
    """
    kind = go.Scatter3d if three_d else go.Scattergl
    empty = {"x": [], "y": [], **({"z": []} if three_d else {})}
    return [kind(**empty, mode="lines", name=EDGES_TRACE, hoverinfo="skip", showlegend=False,
                 line=dict(color="rgba(20,20,20,0.85)", width=3 if three_d else 2), connectgaps=False),
            kind(**empty, mode="markers", name=NEIGHBOURS_TRACE, hoverinfo="skip", showlegend=False,
                 marker=dict(size=7 if three_d else 10, color="rgba(0,0,0,0)", line=dict(color="black", width=2)))]


def presentation_style(figure, *, three_d=False, font_size=18):
    """A view for a projector, in place: type of at least ``font_size`` px, title clear of the mode bar, the
    hover ring and the selection marks bold. Returns the figure.

    The mode bar goes upright on the right edge, so a long title never runs under it.
    """
    figure.update_layout(font=dict(size=font_size), title=dict(font=dict(size=font_size + 2), x=0.01, y=0.98,
                                                               yanchor="top"),
                         modebar=dict(orientation="v"), margin=dict(t=60))
    figure.update_traces(selector=dict(name="hovered"),
                         marker=dict(size=14 if three_d else 22, line=dict(width=6 if three_d else 5)))
    figure.update_traces(selector=dict(name="selected"),
                         marker=dict(size=8, color="crimson", opacity=1.0) if three_d else
                         dict(size=12, line=dict(color="black", width=3)))
    if figure.data and figure.data[0].marker.colorbar is not None:
        figure.data[0].marker.colorbar.tickfont = dict(size=font_size)
    if any(trace.name == LOSS_KEY for trace in figure.data):
        # The key's type grows too, and its room with it, clear of the upright mode bar.
        figure.update_layout(xaxis=dict(domain=[0.0, 0.6]), xaxis2=dict(domain=[0.68, 0.95]),
                             xaxis2_title_font_size=font_size, yaxis2_title_font_size=font_size)
        figure.update_annotations(selector=dict(name=LOSS_KEY), font=dict(size=font_size), x=0.95)
    return figure
