"""Figures of a tour step: a paper's panels side by side, and measures against k (or an aspect ratio).

Pure builders: plain dicts and arrays in, ``plotly.graph_objects.Figure`` out (no Dash, no globals).
"""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .marks import class_colors, class_name
from .views import COLORSCALE, robust_color_range

__all__ = ["INPUT_VIEW", "PRESENTATION_FONT", "curve_figure", "oblique_view", "panel_grid", "step_figure"]

# Presentation mode: labels at least this large (px), for a projector.
PRESENTATION_FONT = 18
_FONT = 12


def panel_grid(count, presentation=False):
    """``(rows, columns)`` of a paper's figure of ``count`` panels: one row up to 3, 2 × 3 up to 6, then two
    rows (the papers' A1–F1 over A2–F2); for a projector, never more than three columns (large type needs
    the width), in reading order."""
    if count <= 3:
        return 1, max(count, 1)
    if count <= 6:
        return 2, 3
    if presentation:
        return -(-count // 3), 3
    return 2, -(-count // 2)


def _marker(color, categories, color_range, color_title, show_scale, size):
    if categories is not None:
        return dict(color=class_colors(categories), size=size)
    return dict(color=np.asarray(color, dtype=np.float32), colorscale=COLORSCALE, cmin=color_range[0],
                cmax=color_range[1], size=size, showscale=show_scale,
                colorbar=dict(title=dict(text=color_title, side="right"), thickness=14, len=0.9))


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


def step_figure(panels, color, color_title, *, input_points=None, input_label="A: input", categories=None,
                presentation=False):
    """A paper's figure recomputed: the input (optional, an oblique view) then each output, in the paper's order.

    Parameters
    ----------
    panels : list of dict
        One per output: ``label`` (above it), ``caption`` (the measures written under it: a text, or a
        list of texts, on one line where they fit the column, else one a line) and ``Y`` of shape
        (n_samples, d) (its first two coordinates are drawn, at equal axis scales).
    color : ndarray of shape (n_samples,)
        One colouring for every panel (an intrinsic coordinate), so that panels read alike; or, with
        ``categories``, ignored.
    color_title : str
    input_points : ndarray of shape (n_samples, 3), optional
        The drawn input, the paper's panel A, drawn as :func:`oblique_view` shows it.
    input_label : str
    categories : ndarray of shape (n_samples,), optional
        Class labels: each class gets its own colour and a legend entry (the digits).
    presentation : bool
        Type of at least :data:`PRESENTATION_FONT` px, larger points, three columns at most; up to two rows
        the height follows the container.

    Returns
    -------
    plotly.graph_objects.Figure
        SVG traces only: a page that walks a tour replaces this figure at every step, and WebGL
        contexts, which browsers ration, would be lost on the way (and an SVG download keeps vector
        points).
    """
    drawn = [{"label": input_label, "Y": oblique_view(input_points), "caption": ""}] if input_points is not None \
        else []
    drawn += panels
    rows, columns = panel_grid(len(drawn), presentation)
    font = PRESENTATION_FONT if presentation else _FONT
    height = None if presentation and rows <= 2 else (270 if presentation else 290) * rows + 60
    figure = make_subplots(rows=rows, cols=columns, subplot_titles=[panel["label"] for panel in drawn],
                           horizontal_spacing=0.03 if columns > 3 else 0.05,
                           # about 110 px between rows for a caption and the next row's title
                           vertical_spacing=0.16 if height is None else min(0.16, 110 / height))
    color_range = robust_color_range(color) if categories is None else (0.0, 1.0)
    size = 4 if presentation else 3
    for index, panel in enumerate(drawn):
        Y = np.asarray(panel["Y"], dtype=np.float32)
        Y = Y if Y.shape[1] > 1 else np.column_stack([Y, np.zeros(len(Y), dtype=np.float32)])
        figure.add_trace(go.Scatter(
            x=Y[:, 0], y=Y[:, 1], mode="markers", name=panel["label"], showlegend=False,
            marker=_marker(color, categories, color_range, color_title, index == len(drawn) - 1, size),
            hovertemplate=f"{panel['label']}<br>point %{{pointNumber}}<extra></extra>"),
            row=index // columns + 1, col=index % columns + 1)
        axis = "" if index == 0 else str(index + 1)
        caption = panel["caption"] if isinstance(panel["caption"], str) else _caption_lines(panel["caption"], columns,
                                                                                             presentation)
        figure.update_layout({f"xaxis{axis}": dict(title=dict(text=caption, font=dict(size=font)),
                                                   showticklabels=False, showgrid=False, zeroline=False),
                              f"yaxis{axis}": dict(scaleanchor=f"x{axis}", scaleratio=1, showticklabels=False,
                                                   showgrid=False, zeroline=False)})
    if categories is not None:
        colours = class_colors(categories)
        for label, first in zip(*np.unique(categories, return_index=True), strict=True):
            figure.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=class_name(color_title, label),
                                        marker=dict(size=10, color=colours[first])), row=1,
                             col=len(drawn) if rows == 1 else columns)
    for annotation in figure.layout.annotations:
        annotation.font = dict(size=font + 1)
    figure.update_layout(plot_bgcolor="white", font=dict(size=font), showlegend=categories is not None,
                         legend=dict(orientation="h", x=0.5, xanchor="center", y=-0.08, font=dict(size=font)),
                         # Room above the panels' titles for the mode bar (presentation: a projector's view).
                         margin=dict(l=10, r=10, t=75 if presentation else 45, b=10),
                         # A projector's window holds two rows; more rows keep their height and scroll.
                         height=height)
    return figure


def _caption_lines(parts, columns, presentation):
    """A panel's measures on one line (``" · "``) when they fit its column's width, else one per line."""
    fits = (80 if presentation else 180) // columns  # characters in a column at the figure's type size
    line = " · ".join(parts)
    return line if len(line) <= fits else "<br>".join(parts)


def curve_figure(series, measures, x_title, *, presentation=False):
    """Measures against a parameter, one line per series, one subplot per measure.

    Parameters
    ----------
    series : dict of str to list of (float, dict)
        Series name -> ``(x, {measure: value})`` points, in order.
    measures : list of (str, str)
        ``(key, label)`` of each plotted measure.
    x_title : str
    presentation : bool

    Returns
    -------
    plotly.graph_objects.Figure
    """
    font = PRESENTATION_FONT if presentation else _FONT
    figure = make_subplots(rows=1, cols=len(measures), subplot_titles=[label for _, label in measures],
                           horizontal_spacing=0.08)
    for column, (key, label) in enumerate(measures, start=1):
        for index, (name, points) in enumerate(series.items()):
            xs = [x for x, _ in points]
            ys = [values.get(key) for _, values in points]
            figure.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name=name, legendgroup=name,
                                        showlegend=column == 1 and len(series) > 1,
                                        line=dict(color=_SERIES_COLORS[index % len(_SERIES_COLORS)], width=3),
                                        marker=dict(size=9 if presentation else 7),
                                        hovertemplate=f"{name}<br>{x_title} %{{x}}<br>{label} %{{y:.4g}}"
                                                      "<extra></extra>"),
                             row=1, col=column)
    for annotation in figure.layout.annotations:
        annotation.font = dict(size=font + 1)
    figure.update_xaxes(title_text=x_title, gridcolor="#eee", title_font=dict(size=font))
    figure.update_yaxes(gridcolor="#eee", rangemode="tozero")
    figure.update_layout(plot_bgcolor="white", font=dict(size=font), height=None if presentation else 300,
                         margin=dict(l=50, r=10, t=40, b=50),
                         legend=dict(orientation="h", y=1.18, font=dict(size=font)))
    return figure


_SERIES_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
