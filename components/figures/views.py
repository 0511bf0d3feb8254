"""Figures of one run: the linked input and output views, a point's image, the neighbourhood inspector.

Pure builders: arrays in, ``plotly.graph_objects.Figure`` out (no Dash, no globals).
"""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from . import fixed_point
from .theme import TEMPLATE

__all__ = [
    "COLORSCALE",
    "HIGHLIGHT_TRACE",
    "SELECTION_TRACE",
    "empty_figure",
    "image_figure",
    "input_figure",
    "inspector_figure",
    "OUTPUT_AXES",
    "color_update",
    "drawn_columns",
    "input_axis_names",
    "output_figure",
    "robust_color_range",
]

COLORSCALE = "Viridis"
# Indices of the traces that ring the hovered point and mark the selected points in both views (filled in the
# browser by assets/linked_views.js; a 2-D view of the page draws its ring as a layout shape in the style of its
# trace HIGHLIGHT_TRACE, which the offline report fills).
HIGHLIGHT_TRACE = 1
SELECTION_TRACE = 2


def robust_color_range(values, lower=2.0, upper=98.0):
    """Colour-axis range from the ``lower``-th to the ``upper``-th percentile of the finite values.

    Only the colour *range* is clipped (SPEC §0: one short-circuited neighbourhood with a local R_N
    of 35 would otherwise paint every other point the same colour); hover shows the values unclipped, and
    the colour bar's end ticks are marked as clipped by the caller's title.

    Returns
    -------
    (float, float)
        ``(cmin, cmax)``; equal values are widened so that Plotly draws a valid bar.

    Examples
    --------
    >>> robust_color_range(np.r_[np.arange(100.0), 1e6])
    (2.0, 98.0)
    """
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        return 0.0, 1.0
    low, high = np.percentile(finite, [lower, upper])
    if high <= low:
        low, high = low - 0.5, high + 0.5
    return float(low), float(high)


def empty_figure(message):
    """A blank figure that says why it is blank.

    No template: with invisible axes, a white ground and the message's own font it looks the same, and
    Plotly's default template is 7 KB of JSON per figure (the page's layout draws sixteen of these at
    every load: 120 of its 190 KB). The layout goes to the constructor: ``update_layout`` on an empty
    figure cost four times as much.
    """
    return go.Figure(layout=dict(template="none", xaxis=dict(visible=False), yaxis=dict(visible=False),
                                 plot_bgcolor="white", paper_bgcolor="white",
                                 annotations=[dict(text=message, showarrow=False, font=dict(size=14, color="#666"))]))


def _compact(values):
    """Drawn values as float32: the views need no more precision, and the page downloads half the bytes."""
    return np.asarray(values, dtype=np.float32)


def _ids(point_ids):
    """Drawn rows' data-set indices as int32 (a typed array the browser script reads), or None."""
    return None if point_ids is None else np.asarray(point_ids, dtype=np.int32)


def drawn_columns(coordinates, dimensions, projection=None):
    """Trace 0's drawn coordinates, padded with zeros to ``dimensions`` columns, or the two columns of
    ``projection``; a dict axis (``"x"``, ``"y"``, ``"z"``) -> column (as given: :func:`_column` encodes it)."""
    points = np.asarray(coordinates)
    if points.shape[1] < dimensions:
        points = np.column_stack([points, np.zeros((len(points), dimensions - points.shape[1]), dtype=points.dtype)])
    picked = range(dimensions) if projection is None else projection
    return {axis: points[:, index] for axis, index in zip("xyz", picked)}


def input_axis_names(axis_titles, projection=None):
    """The input view's axis names (its hover's, a colouring patch's): its three coordinates' (blank where the
    data have fewer), or the two of ``projection``."""
    titles = tuple(axis_titles) + ("",) * (3 - len(axis_titles))
    return titles if projection is None else (titles[projection[0]], titles[projection[1]])


def _column(values, fixed):
    """A drawn column: 16-bit fixed point on the page (``fixed``, :mod:`.fixed_point`) when it carries the column,
    float32 otherwise and elsewhere (the offline report, the Two runs tab)."""
    encoded = fixed_point.encode(values) if fixed else None
    return _compact(values) if encoded is None else encoded


def _sent(columns, color, fixed):
    """Trace 0's drawn ``columns`` and colour as they travel (:func:`_column`; the colour under
    ``"marker.color"``), and the hover's format of each (:func:`.fixed_point.sent_format`)."""
    sent = {key: _column(values, fixed) for key, values in {**columns, "marker.color": color}.items()}
    return sent, {key: fixed_point.sent_format(value) for key, value in sent.items()}


def _hover_template(axis_names, color_title, point_ids, described=False, formats=None):
    """The hover text: the point's index in the data set, its drawn coordinates, its metadata line when
    ``described`` (trace 0's ``hovertext``: an upload's metadata columns) and its colour value, last;
    ``formats`` (:func:`_sent`) gives each value's format, four significant digits if not named.

    Trace 0 of both views holds the same rows in the same order, so a point's number finds it in
    either view (assets/linked_views.js). When only a subsample is drawn, ``point_ids`` holds each
    row's index in the data set (customdata); otherwise the row number is the index.
    """
    formats = formats or {}
    point = "point %{pointNumber}" if point_ids is None else "point %{customdata}"
    coordinates = [f"{name} %{{{axis}:{formats.get(axis, '.4g')}}}" for axis, name in zip("xyz", axis_names)]
    lines = [point, ", ".join(coordinates), *(["%{hovertext}"] if described else []),
             f"{color_title}: %{{marker.color:{formats.get('marker.color', '.4g')}}}"]
    return "<br>".join(lines) + "<extra></extra>"


def _marker(color, color_range, color_title, show_scale):
    """Trace 0's marker; ``color`` as it travels (:func:`_column`)."""
    return dict(color=color, colorscale=COLORSCALE, cmin=color_range[0], cmax=color_range[1],
                size=3, showscale=show_scale,
                colorbar=dict(title=dict(text=color_title, side="right"), thickness=14))


def color_update(color, color_range, color_title, axis_names, point_ids=None, show_scale=False, described=False,
                 fixed_columns=None):
    """Trace 0's attributes that change with the colouring: marker and hover text (for a patch), encoded as
    Plotly encodes a figure (the colours a base64 typed array); ``described``: the trace has a metadata line.

    A new colouring, or another run of the same points, sends these, one array per view, instead of the
    whole figure. A patch's values go to the browser as given: a numpy array would go as a list of
    decimals, four times the bytes (34 KB against 9 KB for 1 600 points). ``fixed_columns``, the view's
    :func:`drawn_columns` when it carries fixed point (the page's views): the colours go as fixed point too,
    and the hover keeps the formats its coordinates carry.
    """
    sent = _column(color, fixed_columns is not None)
    formats = {**{axis: fixed_point.carried_format(values) for axis, values in (fixed_columns or {}).items()},
               "marker.color": fixed_point.sent_format(sent)}
    trace = go.Scattergl(marker=_marker(sent, color_range, color_title, show_scale),
                         hovertemplate=_hover_template(axis_names, color_title, point_ids, described, formats))
    encoded = go.Figure([trace]).to_dict()["data"][0]
    return {"marker": encoded["marker"], "hovertemplate": encoded["hovertemplate"]}


def _selection_marker(size):
    """Marker of the selected points: an outline drawn over their own colour."""
    return dict(size=size, color="rgba(0,0,0,0)", line=dict(color="black", width=1.5))


def input_figure(coordinates, color, color_range, color_title, *, point_ids=None, title="Input", revision=None,
                 landmarks=None, axis_titles=("x₁", "x₂", "x₃"), projection=None, hover_text=None,
                 fixed_point=False):
    """The input points, coloured per point: in 3-D, or projected on two coordinates.

    Parameters
    ----------
    coordinates : ndarray of shape (n_drawn, 3)
        The drawn input coordinates (the first three, or principal components).
    color : ndarray of shape (n_drawn,)
    color_range : (float, float)
        Shared with the output figure so one colour bar reads both.
    color_title : str
    point_ids : ndarray of shape (n_drawn,), optional
        Each drawn row's index in the data set, when a subsample is drawn.
    title : str
    revision : str, optional
        Plotly ``uirevision``: zoom and camera survive a redraw with the same revision (a new
        colouring) and reset with a new one (a new run).
    landmarks : ndarray of shape (n_landmarks,), optional
        Drawn rows of NIEQA's landmarks, marked after the selection.
    axis_titles : sequence of str
        Names of the drawn coordinates (principal components for high-dimensional input).
    projection : (int, int), optional
        Draw coordinates ``projection`` in the plane instead of all three in 3-D: Plotly selects
        (box, lasso) in 2-D only.
    hover_text : sequence of str, optional
        Each drawn point's metadata line in its hover (:func:`lab.compute.views.metadata_lines`).
    fixed_point : bool
        Trace 0's coordinates and colours as 16-bit fixed point (:mod:`.fixed_point`), which the page decodes.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 holds the points, trace :data:`HIGHLIGHT_TRACE` the (initially empty) hover ring (in a plane, its
        style), trace :data:`SELECTION_TRACE` the (initially empty) marks of selected points.
    """
    points = drawn_columns(coordinates, 3)
    titles = input_axis_names(axis_titles)
    if projection is not None:
        first, second = projection
        names = input_axis_names(axis_titles, projection)
        figure = _plane_figure(drawn_columns(coordinates, 3, projection), color, color_range, color_title,
                               point_ids, names, show_scale=False, hover_text=hover_text, fixed=fixed_point)
        if landmarks is not None:
            figure.add_trace(go.Scattergl(
                x=_compact(points["xyz"[first]][landmarks]), y=_compact(points["xyz"[second]][landmarks]),
                mode="markers", name="landmarks",
                hoverinfo="skip", marker=dict(size=8, symbol="diamond-open", color="black")))
        return _plane_layout(figure, title, revision, names, legend=False)
    sent, formats = _sent(points, color, fixed_point)
    figure = go.Figure([
        go.Scatter3d(x=sent["x"], y=sent["y"], z=sent["z"], mode="markers",
                     marker=_marker(sent["marker.color"], color_range, color_title, False),
                     customdata=_ids(point_ids), hovertext=hover_text, name="points",
                     hovertemplate=_hover_template(titles, color_title, point_ids, hover_text is not None, formats)),
        go.Scatter3d(x=[], y=[], z=[], mode="markers", name="hovered", hoverinfo="skip",
                     marker=dict(size=9, color="rgba(0,0,0,0)", line=dict(color="crimson", width=4))),
        go.Scatter3d(x=[], y=[], z=[], mode="markers", name="selected", hoverinfo="skip",
                     marker=dict(size=5, color="crimson", opacity=0.9)),
    ])
    if landmarks is not None:
        figure.add_trace(go.Scatter3d(
            **{axis: _compact(values[landmarks]) for axis, values in points.items()},
            mode="markers", name="landmarks", hoverinfo="skip",
            marker=dict(size=5, color="rgba(0,0,0,0)", symbol="diamond", line=dict(color="black", width=2))))
    figure.update_layout(template=TEMPLATE, title=dict(text=title, x=0.02), showlegend=False, uirevision=revision,
                         margin=dict(l=0, r=0, t=40, b=0),
                         scene=dict(aspectmode="data", xaxis_title=titles[0], yaxis_title=titles[1],
                                    zaxis_title=titles[2]))
    return figure


def _plane_figure(columns, color, color_range, color_title, point_ids, axis_names, show_scale, hover_text=None,
                  fixed=False):
    """Trace 0 (the points: ``columns`` x and y, :func:`drawn_columns`), the hover ring and the selection marks of
    a 2-D view. The page draws the ring as a shape of the layout, styled as its trace (assets/linked_views.js: a
    changed trace makes Plotly compute every trace again); the offline report fills the trace."""
    sent, formats = _sent(columns, color, fixed)
    return go.Figure([
        go.Scattergl(x=sent["x"], y=sent["y"], mode="markers",
                     marker=_marker(sent["marker.color"], color_range, color_title, show_scale),
                     showlegend=False, customdata=_ids(point_ids), hovertext=hover_text, name="points",
                     hovertemplate=_hover_template(axis_names, color_title, point_ids, hover_text is not None,
                                                   formats)),
        go.Scattergl(x=[], y=[], mode="markers", name="hovered", hoverinfo="skip", showlegend=False,
                     marker=dict(size=14, color="rgba(0,0,0,0)", line=dict(color="crimson", width=3))),
        go.Scattergl(x=[], y=[], mode="markers", name="selected", hoverinfo="skip", showlegend=False,
                     marker=_selection_marker(7)),
    ])


def _plane_layout(figure, title, revision, axis_titles, legend):
    """Equal axis scales (an isometry must look like one), lasso kept after a redraw."""
    figure.update_layout(template=TEMPLATE, title=dict(text=title, x=0.02), showlegend=legend, uirevision=revision,
                         legend=dict(orientation="h", y=-0.12),
                         margin=dict(l=40, r=10, t=40, b=40), plot_bgcolor="white",
                         xaxis=dict(title=axis_titles[0], zeroline=False, gridcolor="#eee"),
                         yaxis=dict(title=axis_titles[1], zeroline=False, gridcolor="#eee", scaleanchor="x",
                                    scaleratio=1))
    return figure


OUTPUT_AXES = ("y₁", "y₂")


def output_figure(coordinates, color, color_range, color_title, *, point_ids=None, title="Output", revision=None,
                  landmarks=None, landmark_configuration=None, hover_text=None, fixed_point=False):
    """2-D scatter of the embedding at equal axis scales, with the shared colour bar.

    Parameters
    ----------
    coordinates : ndarray of shape (n_drawn, d)
        The drawn output (its first two coordinates are drawn).
    color, color_range, color_title, point_ids, title, revision, landmarks, hover_text, fixed_point
        As for :func:`input_figure`.
    landmark_configuration : ndarray of shape (n_landmarks, 2), optional
        NIEQA's MDS configuration of the landmarks aligned to the output (NQ Eq. 19's reference),
        drawn with a segment from each landmark's output position to its reference position.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 holds the points, trace :data:`HIGHLIGHT_TRACE` the (initially empty) hover ring (in a plane, its
        style), trace :data:`SELECTION_TRACE` the (initially empty) marks of selected points.
    """
    columns = drawn_columns(coordinates, 2)
    figure = _plane_figure(columns, color, color_range, color_title, point_ids, OUTPUT_AXES, show_scale=True,
                           hover_text=hover_text, fixed=fixed_point)
    if landmarks is not None:
        output_points = _compact(np.column_stack([columns["x"][landmarks], columns["y"][landmarks]])).astype(float)
        reference = np.asarray(landmark_configuration, dtype=float)
        # One polyline with None breaks: landmark -> its MDS reference position, for every landmark.
        segments = np.full((3 * len(landmarks), 2), np.nan)
        segments[0::3], segments[1::3] = output_points, reference[:, :2]
        figure.add_traces([
            go.Scattergl(x=segments[:, 0], y=segments[:, 1], mode="lines", name="to MDS reference",
                         line=dict(color="rgba(0,0,0,0.35)", width=1), hoverinfo="skip", connectgaps=False),
            go.Scattergl(x=output_points[:, 0], y=output_points[:, 1], mode="markers", name="landmarks",
                         hoverinfo="skip", marker=dict(size=8, symbol="diamond-open", color="black")),
            go.Scattergl(x=reference[:, 0], y=reference[:, 1], mode="markers", name="MDS of landmark geodesics",
                         hoverinfo="skip", marker=dict(size=7, symbol="x-thin-open", color="crimson",
                                                       line=dict(color="crimson", width=2))),
        ])
    return _plane_layout(figure, title, revision, OUTPUT_AXES, legend=landmarks is not None)


def image_figure(pixels, title):
    """A grey-scale image (one row of an image data set reshaped), pixel (0, 0) at the top left."""
    figure = go.Figure(go.Heatmap(z=pixels, colorscale="Greys", reversescale=True, showscale=False,
                                  hovertemplate="row %{y}, column %{x}: %{z:.3g}<extra></extra>"))
    figure.update_layout(template=TEMPLATE,
                         title=dict(text=title, x=0.02, font=dict(size=13)), margin=dict(l=10, r=10, t=36, b=10),
                         xaxis=dict(visible=False), yaxis=dict(visible=False, autorange="reversed",
                                                               scaleanchor="x"),
                         plot_bgcolor="white")
    return figure


def inspector_figure(view):
    """One neighbourhood, three alignments: rigid (R_N), rigid plus scale (R_C), per-axis scales (ASIM).

    Parameters
    ----------
    view : measures.NeighbourhoodView
        From :func:`measures.inspect_neighbourhood`.

    Returns
    -------
    plotly.graph_objects.Figure
        One panel per measure, each on the patch's top principal axes: the input points (open
        circles), the aligned output points (dots) and a segment joining each pair, whose squared
        lengths the measure sums (over ``||H X_i||^2``); the inspected point is starred.
    """
    panels = (("rigid", f"R_N {view.normalized:.4f}: rotation only"),
              ("conformal", f"R_C {view.conformal_value:.4f}: rotation, scale {view.scale:.3g}"),
              ("anisotropic", f"ASIM {view.asim_value:.4f}: axis scales "
                              + ", ".join(f"{abs(c):.3g}" for c in view.axis_scales)))
    figure = make_subplots(rows=1, cols=3, subplot_titles=[title for _, title in panels], horizontal_spacing=0.05)
    source = np.zeros((len(view.neighbors), 2))
    source[:, : view.input_local.shape[1]] = view.input_local[:, :2]
    labels = [f"point {i}" for i in view.neighbors]
    for column, (key, _) in enumerate(panels, start=1):
        aligned = np.zeros_like(source)
        values = getattr(view, key)
        aligned[:, : values.shape[1]] = values[:, :2]
        segments = np.full((3 * len(source), 2), np.nan)
        segments[0::3], segments[1::3] = source, aligned
        first = column == 1
        figure.add_traces([
            go.Scatter(x=segments[:, 0], y=segments[:, 1], mode="lines", name="residual", legendgroup="residual",
                       showlegend=first, hoverinfo="skip", line=dict(color="crimson", width=1)),
            go.Scatter(x=source[:, 0], y=source[:, 1], mode="markers", name="input (local PCA)", text=labels,
                       legendgroup="input", showlegend=first, hovertemplate="%{text} (input)<extra></extra>",
                       marker=dict(size=9, symbol="circle-open", color="#444", line=dict(width=2))),
            go.Scatter(x=aligned[:, 0], y=aligned[:, 1], mode="markers", name="output, aligned", text=labels,
                       legendgroup="output", showlegend=first, hovertemplate="%{text} (output)<extra></extra>",
                       marker=dict(size=6, color="#1f77b4")),
            go.Scatter(x=source[:1, 0], y=source[:1, 1], mode="markers", name=f"point {view.index}",
                       legendgroup="centre", showlegend=first, hoverinfo="skip",
                       marker=dict(size=16, symbol="star-open", color="black", line=dict(width=2))),
        ], rows=1, cols=column)
        axis = "" if first else str(column)
        figure.update_layout({f"yaxis{axis}": dict(scaleanchor=f"x{axis}", scaleratio=1)})
    for annotation in figure.layout.annotations:
        annotation.font = dict(size=12)
    figure.update_layout(template=TEMPLATE, plot_bgcolor="white", height=380, margin=dict(l=30, r=10, t=50, b=70),
                         legend=dict(orientation="h", x=0.5, xanchor="center", y=-0.22))
    figure.update_xaxes(gridcolor="#eee", zeroline=False, title_text="principal axis 1")
    figure.update_yaxes(gridcolor="#eee", zeroline=False, title_text="principal axis 2", col=1)
    return figure
