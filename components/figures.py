"""Pure figure builders: arrays in, ``plotly.graph_objects.Figure`` out (no Dash, no globals)."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

__all__ = [
    "HIGHLIGHT_TRACE",
    "SELECTION_TRACE",
    "inspector_figure",
    "empty_figure",
    "input_figure",
    "output_figure",
    "point_columns",
    "robust_color_range",
    "sweep_figure",
    "image_figure",
    "comparison_grid",
    "measure_bars",
    "phi_ratio_figure",
]

COLORSCALE = "Viridis"
# Indices of the traces that ring the hovered point and mark the selected points in both views
# (filled in the browser by assets/linked_views.js).
HIGHLIGHT_TRACE = 1
SELECTION_TRACE = 2


def robust_color_range(values, lower=2.0, upper=98.0):
    """Colour-axis range from the ``lower``-th to the ``upper``-th percentile of the finite values.

    Only the colour *range* is clipped (SPEC §0: one short-circuited neighbourhood with a local R_N
    of 35 would otherwise paint every other point the same colour); hover shows the raw values, and
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


def point_columns(X, Y, measures, points=None):
    """Per-point hover columns shared by both views: index, input and output coordinates, measures.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    Y : ndarray of shape (n_samples, d)
    measures : dict of str to ndarray
        Labelled per-point values (local R_N, ...), shown on hover after the coordinates.
    points : ndarray of shape (n_samples,), optional
        The rows' indices in the data set when only a subsample is drawn (default ``0 .. n-1``).

    Returns
    -------
    dict of str to ndarray
        Ordered: ``point``, ``x₁..x₃``, ``y₁, y₂``, then ``measures``. Trace 0 of both views holds
        the points in this order, so a point's index finds it in either view (assets/linked_views.js).
    """
    X3 = np.zeros((X.shape[0], 3))
    X3[:, : min(3, X.shape[1])] = X[:, :3]
    Y2 = np.zeros((Y.shape[0], 2))
    Y2[:, : min(2, Y.shape[1])] = Y[:, :2]
    columns = {"point": np.arange(X.shape[0]) if points is None else np.asarray(points)}
    columns.update({f"x{s}": X3[:, i] for i, s in enumerate("₁₂₃")})
    columns.update({f"y{s}": Y2[:, i] for i, s in enumerate("₁₂")})
    columns.update(measures)
    return columns


def empty_figure(message):
    """A blank figure that says why it is blank."""
    figure = go.Figure()
    figure.update_layout(xaxis=dict(visible=False), yaxis=dict(visible=False), plot_bgcolor="white",
                         annotations=[dict(text=message, showarrow=False, font=dict(size=14, color="#666"))])
    return figure


def _hover(columns):
    """customdata array and hovertemplate for labelled per-point columns, the point index first."""
    labels = list(columns)
    customdata = np.column_stack([columns[label] for label in labels])
    lines = ["point %{customdata[0]:d}"] + [
        f"{label}: %{{customdata[{i}]:.4g}}" for i, label in enumerate(labels) if i > 0]
    return customdata, "<br>".join(lines) + "<extra></extra>"


def _marker(color, color_range, color_title, show_scale):
    return dict(color=color, colorscale=COLORSCALE, cmin=color_range[0], cmax=color_range[1],
                size=3, showscale=show_scale,
                colorbar=dict(title=dict(text=color_title, side="right"), thickness=14))


def _selection_marker(size):
    """Marker of the selected points: an outline drawn over their own colour."""
    return dict(size=size, color="rgba(0,0,0,0)", line=dict(color="black", width=1.5))


def input_figure(color, color_range, color_title, hover_columns, title="Input", revision=None, landmarks=None,
                 axis_titles=("x₁", "x₂", "x₃"), projection=None):
    """The input points, coloured per point: in 3-D, or projected on two coordinates.

    Parameters
    ----------
    color : ndarray of shape (n_samples,)
    color_range : (float, float)
        Shared with the output figure so one colour bar reads both.
    color_title : str
    hover_columns : dict of str to ndarray
        From :func:`point_columns`: the drawn coordinates (the first three input coordinates) and
        every value shown on hover, the other view's coordinates included.
    title : str
    revision : str, optional
        Plotly ``uirevision``: zoom and camera survive a redraw with the same revision (a new
        colouring) and reset with a new one (a new run).
    landmarks : ndarray of shape (n_landmarks,), optional
        Indices (rows of ``hover_columns``) of NIEQA's landmarks, marked after the selection.
    axis_titles : sequence of str
        Names of the drawn coordinates (principal components for high-dimensional input).
    projection : (int, int), optional
        Draw coordinates ``projection`` in the plane instead of all three in 3-D: Plotly selects
        (box, lasso) in 2-D only.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 holds the points, trace :data:`HIGHLIGHT_TRACE` the (initially empty) hover ring,
        trace :data:`SELECTION_TRACE` the (initially empty) marks of selected points.
    """
    customdata, template = _hover(hover_columns)
    names = ("x₁", "x₂", "x₃")
    titles = list(axis_titles) + [""] * (3 - len(axis_titles))
    if projection is not None:
        first, second = (names[axis] for axis in projection)
        figure = _plane_figure(hover_columns[first], hover_columns[second], color, color_range, color_title,
                               customdata, template, show_scale=False)
        if landmarks is not None:
            figure.add_trace(go.Scattergl(
                x=hover_columns[first][landmarks], y=hover_columns[second][landmarks], mode="markers",
                name="landmarks", hoverinfo="skip", marker=dict(size=8, symbol="diamond-open", color="black")))
        return _plane_layout(figure, title, revision, (titles[projection[0]], titles[projection[1]]),
                             legend=False)
    figure = go.Figure([
        go.Scatter3d(x=hover_columns["x₁"], y=hover_columns["x₂"], z=hover_columns["x₃"], mode="markers",
                     marker=_marker(color, color_range, color_title, show_scale=False),
                     customdata=customdata, hovertemplate=template, name="points"),
        go.Scatter3d(x=[], y=[], z=[], mode="markers", name="hovered", hoverinfo="skip",
                     marker=dict(size=9, color="rgba(0,0,0,0)", line=dict(color="crimson", width=4))),
        go.Scatter3d(x=[], y=[], z=[], mode="markers", name="selected", hoverinfo="skip",
                     marker=dict(size=5, color="crimson", opacity=0.9)),
    ])
    if landmarks is not None:
        figure.add_trace(go.Scatter3d(
            x=hover_columns["x₁"][landmarks], y=hover_columns["x₂"][landmarks], z=hover_columns["x₃"][landmarks],
            mode="markers", name="landmarks", hoverinfo="skip",
            marker=dict(size=5, color="rgba(0,0,0,0)", symbol="diamond", line=dict(color="black", width=2))))
    figure.update_layout(title=dict(text=title, x=0.02), showlegend=False, uirevision=revision,
                         margin=dict(l=0, r=0, t=40, b=0),
                         scene=dict(aspectmode="data", xaxis_title=titles[0], yaxis_title=titles[1],
                                    zaxis_title=titles[2]))
    return figure


def _plane_figure(x, y, color, color_range, color_title, customdata, template, show_scale):
    """Trace 0 (the points), the hover ring and the selection marks of a 2-D view."""
    return go.Figure([
        go.Scattergl(x=x, y=y, mode="markers", marker=_marker(color, color_range, color_title, show_scale),
                     showlegend=False, customdata=customdata, hovertemplate=template, name="points"),
        go.Scattergl(x=[], y=[], mode="markers", name="hovered", hoverinfo="skip", showlegend=False,
                     marker=dict(size=14, color="rgba(0,0,0,0)", line=dict(color="crimson", width=3))),
        go.Scattergl(x=[], y=[], mode="markers", name="selected", hoverinfo="skip", showlegend=False,
                     marker=_selection_marker(7)),
    ])


def _plane_layout(figure, title, revision, axis_titles, legend):
    """Equal axis scales (an isometry must look like one), lasso kept after a redraw."""
    figure.update_layout(title=dict(text=title, x=0.02), showlegend=legend, uirevision=revision,
                         legend=dict(orientation="h", y=-0.12),
                         margin=dict(l=40, r=10, t=40, b=40), plot_bgcolor="white",
                         xaxis=dict(title=axis_titles[0], zeroline=False, gridcolor="#eee"),
                         yaxis=dict(title=axis_titles[1], zeroline=False, gridcolor="#eee", scaleanchor="x",
                                    scaleratio=1))
    return figure


def output_figure(color, color_range, color_title, hover_columns, title="Output", revision=None, landmarks=None,
                  landmark_configuration=None):
    """2-D scatter of the embedding at equal axis scales, with the shared colour bar.

    Parameters
    ----------
    color, color_range, color_title, hover_columns, title, revision, landmarks
        As for :func:`input_figure`.
    landmark_configuration : ndarray of shape (n_landmarks, 2), optional
        NIEQA's MDS configuration of the landmarks aligned to the output (NQ Eq. 19's reference),
        drawn with a segment from each landmark's output position to its reference position.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 holds the points, trace :data:`HIGHLIGHT_TRACE` the (initially empty) hover ring,
        trace :data:`SELECTION_TRACE` the (initially empty) marks of selected points.
    """
    customdata, template = _hover(hover_columns)
    figure = _plane_figure(hover_columns["y₁"], hover_columns["y₂"], color, color_range, color_title, customdata,
                           template, show_scale=True)
    if landmarks is not None:
        output_points = np.c_[hover_columns["y₁"][landmarks], hover_columns["y₂"][landmarks]]
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
    return _plane_layout(figure, title, revision, ("y₁", "y₂"), legend=landmarks is not None)


def sweep_figure(rows, measure, measure_label):
    """Measure-vs-k curves, one line per algorithm, each algorithm's best k starred.

    Parameters
    ----------
    rows : list of dict
        Sweep cells with keys ``algorithm``, ``label``, ``k`` and ``summary`` (measure -> [mean,
        median]); a failed cell has ``error`` instead and is left out of its line.
    measure : str
        Summary key to plot (its mean; lower is better for every Procrustes measure).
    measure_label : str

    Returns
    -------
    plotly.graph_objects.Figure
        One line trace per algorithm (customdata: algorithm name and k, for click-to-explore),
        then one star trace marking each algorithm's minimum.
    """
    figure = go.Figure()
    best_points = []
    for algorithm in dict.fromkeys(row["algorithm"] for row in rows):
        cells = sorted((row for row in rows if row["algorithm"] == algorithm and "summary" in row
                        and row["summary"][measure][0] is not None), key=lambda row: row["k"])
        if not cells:
            continue
        ks = [row["k"] for row in cells]
        means = [row["summary"][measure][0] for row in cells]
        figure.add_trace(go.Scatter(
            x=ks, y=means, mode="lines+markers", name=cells[0]["label"],
            customdata=[[algorithm, k] for k in ks],
            hovertemplate=f"{cells[0]['label']}<br>k = %{{x}}<br>{measure_label} = %{{y:.4f}}<extra></extra>"))
        best = int(np.argmin(means))
        best_points.append((ks[best], means[best], cells[0]["label"]))
    if best_points:
        figure.add_trace(go.Scatter(
            x=[p[0] for p in best_points], y=[p[1] for p in best_points], mode="markers", name="best k",
            marker=dict(symbol="star", size=16, color="gold", line=dict(color="black", width=1)),
            text=[p[2] for p in best_points], hovertemplate="best k for %{text}: %{x}<extra></extra>"))
    figure.update_layout(xaxis_title="neighbours k", yaxis_title=f"{measure_label} (mean)", plot_bgcolor="white",
                         margin=dict(l=60, r=10, t=30, b=50), legend=dict(orientation="h", y=1.08),
                         xaxis=dict(gridcolor="#eee", dtick=3), yaxis=dict(gridcolor="#eee", rangemode="tozero"))
    return figure


OUTPUT_KIND_COLORS = {"isometric": "#1f77b4", "normalized": "#d62728"}


def comparison_grid(panels, color, color_title, columns=3):
    """Small multiples of several algorithms' outputs, isometric ones first, then normalized ones.

    Parameters
    ----------
    panels : list of dict
        One per algorithm: ``label``, ``output`` ("isometric" or "normalized"), ``Y`` (n, d) and
        ``summary`` (measure -> [mean, median]); the title shows R_N and R_C unless the panel
        has its own ``title``.
    color : ndarray of shape (n_samples,)
        One colouring for every panel (an intrinsic coordinate), so panels read alike.
    color_title : str
    columns : int

    Returns
    -------
    plotly.graph_objects.Figure
    """
    ordered = sorted(panels, key=lambda panel: panel["output"] != "isometric")
    rows = max(1, -(-len(ordered) // columns))
    titles = [p.get("title") or f"{p['label']} ({p['output']})<br>R_N {p['summary']['normalized'][0]:.3f}, "
              f"R_C {p['summary']['conformal'][0]:.3f}" for p in ordered]
    figure = make_subplots(rows=rows, cols=columns, subplot_titles=titles, horizontal_spacing=0.04,
                           vertical_spacing=0.14)
    low, high = robust_color_range(color)
    for i, panel in enumerate(ordered):
        Y = np.asarray(panel["Y"], dtype=float)
        figure.add_trace(go.Scattergl(
            x=Y[:, 0], y=Y[:, 1] if Y.shape[1] > 1 else np.zeros(len(Y)), mode="markers", name=panel["label"],
            marker=dict(color=color, colorscale=COLORSCALE, cmin=low, cmax=high, size=3, showscale=i == 0,
                        colorbar=dict(title=dict(text=color_title, side="right"), thickness=12)),
            hovertemplate=f"{panel['label']}<br>point %{{pointNumber}}<extra></extra>"),
            row=i // columns + 1, col=i % columns + 1)
        # Equal axis scales in every panel: an isometry must look like one.
        axis = "" if i == 0 else str(i + 1)
        figure.update_layout({f"yaxis{axis}": dict(scaleanchor=f"x{axis}", scaleratio=1)})
    for annotation in figure.layout.annotations:
        annotation.font = dict(size=12)
    figure.update_layout(showlegend=False, plot_bgcolor="white", height=320 * rows, margin=dict(l=30, r=10, t=60, b=20))
    figure.update_xaxes(showgrid=False, zeroline=False, showticklabels=False)
    figure.update_yaxes(showgrid=False, zeroline=False, showticklabels=False)
    return figure


def measure_bars(panels, measures):
    """One bar chart per measure: each algorithm's mean, coloured by isometric or normalized output.

    Parameters
    ----------
    panels : list of dict
        As for :func:`comparison_grid`.
    measures : sequence of (key, label)
        The summary measures to chart, side by side (NQ Fig. 2 style).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    figure = make_subplots(rows=1, cols=len(measures), subplot_titles=[label for _, label in measures],
                           horizontal_spacing=0.06)
    for column, (key, label) in enumerate(measures, start=1):
        for kind, bar_color in OUTPUT_KIND_COLORS.items():
            chosen = [p for p in panels if p["output"] == kind]
            figure.add_trace(go.Bar(
                x=[p["label"] for p in chosen], y=[p["summary"][key][0] for p in chosen], name=kind,
                marker_color=bar_color, showlegend=column == 1, legendgroup=kind,
                customdata=[p["summary"][key][1] for p in chosen],
                hovertemplate=f"%{{x}}<br>{label} mean %{{y:.4f}}, median %{{customdata:.4f}}<extra></extra>"),
                row=1, col=column)
    figure.update_layout(barmode="group", plot_bgcolor="white", height=360, margin=dict(l=40, r=10, t=70, b=60),
                         legend=dict(orientation="h", x=1, xanchor="right", y=1.3))
    figure.update_yaxes(gridcolor="#eee", rangemode="tozero")
    return figure


def image_figure(pixels, title):
    """A grey-scale image (one row of an image data set reshaped), pixel (0, 0) at the top left."""
    figure = go.Figure(go.Heatmap(z=pixels, colorscale="Greys", reversescale=True, showscale=False,
                                  hovertemplate="row %{y}, column %{x}: %{z:.3g}<extra></extra>"))
    figure.update_layout(title=dict(text=title, x=0.02, font=dict(size=13)), margin=dict(l=10, r=10, t=36, b=10),
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
    figure.update_layout(plot_bgcolor="white", height=380, margin=dict(l=30, r=10, t=50, b=70),
                         legend=dict(orientation="h", x=0.5, xanchor="center", y=-0.22))
    figure.update_xaxes(gridcolor="#eee", zeroline=False, title_text="principal axis 1")
    figure.update_yaxes(gridcolor="#eee", zeroline=False, title_text="principal axis 2", col=1)
    return figure


# The Φ ratio chart's floor: LTSA's Φ(Y) on flat input is 0 up to rounding (ratios near 1e-27).
PHI_RATIO_FLOOR = 1e-3


def phi_ratio_figure(aspects, ratios, aspect, aspect_label):
    """PN's necessary condition along the aspect ratio: ``Φ(Y)/Φ(Z)`` per algorithm, 1 marked.

    Parameters
    ----------
    aspects : sequence of float
    ratios : dict of str to sequence of float
        Algorithm label -> ``Φ(Y)/Φ(Z)`` at each aspect.
    aspect : float
        The current aspect, marked by a vertical line.
    aspect_label : str

    Returns
    -------
    plotly.graph_objects.Figure
        Log-scale ratios; above the dashed line at 1 the algorithm prefers the collapsed Z. Ratios
        below :data:`PHI_RATIO_FLOOR` are drawn at the floor, their legend entry says so.
    """
    figure = go.Figure()
    for label, values in ratios.items():
        values = np.asarray(values, dtype=float)
        floored = values < PHI_RATIO_FLOOR
        name = label + (f" (below {PHI_RATIO_FLOOR:g} where drawn on the floor)" if floored.any() else "")
        figure.add_trace(go.Scatter(x=list(aspects), y=np.maximum(values, PHI_RATIO_FLOOR), mode="lines+markers",
                                    name=name, customdata=values,
                                    hovertemplate=f"{label}<br>{aspect_label} %{{x}}<br>Φ(Y)/Φ(Z) = "
                                                  "%{customdata:.3g}<extra></extra>"))
    figure.add_hline(y=1.0, line=dict(color="black", dash="dash", width=1),
                     annotation_text="Φ(Y) = Φ(Z): above, the collapsed output costs less", annotation_position="top left")
    figure.add_vline(x=aspect, line=dict(color="crimson", width=1))
    figure.update_layout(xaxis_title=aspect_label, yaxis_title="Φ(Y) / Φ(Z)", plot_bgcolor="white", height=340,
                         margin=dict(l=60, r=10, t=30, b=50), legend=dict(orientation="h", y=1.12),
                         xaxis=dict(gridcolor="#eee"), yaxis=dict(type="log", gridcolor="#eee"))
    return figure
