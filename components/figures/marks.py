"""Additions to a run's views: a class legend, the clicked point's neighbour marks, a projector's type.

Pure builders: each takes a figure of :mod:`.views` and changes it in place.
"""

import numpy as np
import plotly.graph_objects as go

__all__ = ["CLASS_COLORS", "EDGES_TRACE", "NEIGHBOURS_TRACE", "class_colors", "class_name", "color_by_class",
           "neighbour_traces", "presentation_style"]

# Class labels (the digits): one qualitative colour per class, a legend entry each (Plotly's D3 palette).
CLASS_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
                "#17becf")
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
    points.hovertemplate = points.hovertemplate.replace("%{marker.color:.4g}", "%{text}")
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
    return figure
