"""Figures of the pairs tab: two runs aligned, the morph from one to the other, a stability study's consensus.

Pure builders: arrays in, ``plotly.graph_objects.Figure`` out (no Dash, no globals). The two aligned
views are :func:`.views.output_figure`s (trace 0 the points, 1 the hover ring, 2 the selection), so
a hovered or selected point is found in both by its position in trace 0.
"""

import numpy as np
import plotly.graph_objects as go

from .theme import TEMPLATE
from .views import COLORSCALE, output_figure

__all__ = ["MORPH_FRAMES", "MORPH_SECONDS", "SEGMENT_TRACE", "morph_figure", "morph_play", "pair_figures",
           "stability_figure"]

# Frames of the morph from A to B (linear interpolation of positions); more play no smoother in a browser.
MORPH_FRAMES = 15
# How long the morph from A to B lasts, by the speed a user picks: slow enough to follow one region.
MORPH_SECONDS = {"fast": 1.0, "normal": 2.5, "slow": 6.0}
# B's view draws each point's displacement as this trace (after the hover ring and the selection marks).
SEGMENT_TRACE = 3


def _plane(points):
    """The first two coordinates as float32 (what the views draw), a zero column for a 1-D output."""
    points = np.asarray(points, dtype=np.float32)
    return points[:, :2] if points.shape[1] >= 2 else np.column_stack([points, np.zeros(len(points), np.float32)])


def _shared_range(*sets, margin=0.05):
    """``(x_range, y_range)`` holding every set with a margin: the views read at one scale."""
    points = np.vstack(sets)
    low, high = points.min(axis=0), points.max(axis=0)
    pad = margin * np.maximum(high - low, 1e-12)
    return [float(low[0] - pad[0]), float(high[0] + pad[0])], [float(low[1] - pad[1]), float(high[1] + pad[1])]


def pair_figures(A, aligned, color, color_range, color_title, *, point_ids=None, titles=("A", "B"), segments=True,
                 revision=None):
    """Run A's output and run B's moved onto it, at one scale; B's view draws each point's displacement.

    Parameters
    ----------
    A, aligned : ndarray of shape (n_drawn, d)
        The drawn rows of A and of B after :func:`measures.similarity_procrustes` (their first two
        coordinates are drawn).
    color : ndarray of shape (n_drawn,)
        One colouring for both views.
    color_range : (float, float)
    color_title : str
    point_ids : ndarray of shape (n_drawn,), optional
        Each drawn row's index in the data, when a subsample is drawn.
    titles : (str, str)
    segments : bool
        Draw a segment from each point's place in A to its place in B (trace :data:`SEGMENT_TRACE`).
    revision : str, optional
        Plotly ``uirevision`` (zoom survives a recolouring).

    Returns
    -------
    (plotly.graph_objects.Figure, plotly.graph_objects.Figure)
    """
    a_points, b_points = _plane(A), _plane(aligned)
    x_range, y_range = _shared_range(a_points, b_points)
    figures = []
    for points, title in zip((a_points, b_points), titles):
        figure = output_figure(points, color, color_range, color_title, point_ids=point_ids, title=title,
                               revision=revision)
        figure.update_layout(xaxis_range=x_range, yaxis_range=y_range)
        figures.append(figure)
    if segments:
        # One polyline with NaN breaks: A's place -> B's place, for every drawn point.
        lines = np.full((3 * len(a_points), 2), np.nan, dtype=np.float32)
        lines[0::3], lines[1::3] = a_points, b_points
        figures[1].add_trace(go.Scattergl(x=lines[:, 0], y=lines[:, 1], mode="lines", name="displacement from A",
                                          line=dict(color="rgba(60,60,60,0.45)", width=1), hoverinfo="skip",
                                          connectgaps=False, showlegend=False))
    return figures[0], figures[1]


def morph_play(seconds, frames=MORPH_FRAMES):
    """The play button's animation options: ``frames`` frames in ``seconds``, each eased into the next.

    Examples
    --------
    >>> morph_play(3.0, 15)["frame"]
    {'duration': 200, 'redraw': False}
    """
    step = round(1000 * seconds / frames)
    return dict(frame=dict(duration=step, redraw=False), transition=dict(duration=round(0.8 * step)),
                fromcurrent=True, mode="immediate")


def morph_figure(A, aligned, color, color_range, color_title, *, frames=MORPH_FRAMES, speed="normal", title="A → B"):
    """The points moving from their place in A to their place in B (aligned), with play and a slider.

    Parameters
    ----------
    A, aligned : ndarray of shape (n_drawn, d)
    color, color_range, color_title
        As for :func:`pair_figures`.
    frames : int
        Frames from A (t = 0) to B (t = 1), positions ``(1 - t) A + t B``.
    speed : str
        A key of :data:`MORPH_SECONDS`: how long the play button's morph lasts (:func:`morph_play`). The
        figure's ``layout.meta["morph_play"]`` holds the options of every speed, for the page to switch.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 the points at A; ``figure.frames`` the interpolated positions, named by t.
    """
    a_points, b_points = _plane(A), _plane(aligned)
    x_range, y_range = _shared_range(a_points, b_points)
    marker = dict(color=np.asarray(color, dtype=np.float32), colorscale=COLORSCALE, cmin=color_range[0],
                  cmax=color_range[1], size=4, showscale=True,
                  colorbar=dict(title=dict(text=color_title, side="right"), thickness=14))
    steps = np.linspace(0.0, 1.0, frames)
    positions = [(1.0 - t) * a_points + t * b_points for t in steps]
    figure = go.Figure(
        data=[go.Scatter(x=positions[0][:, 0], y=positions[0][:, 1], mode="markers", marker=marker, hoverinfo="skip")],
        frames=[go.Frame(data=[go.Scatter(x=p[:, 0], y=p[:, 1])], name=f"{t:.2f}") for t, p in zip(steps, positions)])
    plays = {name: morph_play(seconds, frames) for name, seconds in MORPH_SECONDS.items()}
    figure.update_layout(
        template=TEMPLATE,
        title=dict(text=title, x=0.02), plot_bgcolor="white", margin=dict(l=40, r=10, t=40, b=40),
        meta=dict(morph_play=plays),
        xaxis=dict(range=x_range, autorange=False, zeroline=False, gridcolor="#eee"),
        yaxis=dict(range=y_range, autorange=False, zeroline=False, gridcolor="#eee", scaleanchor="x", scaleratio=1),
        updatemenus=[dict(type="buttons", direction="left", x=0.0, y=-0.08, xanchor="left", yanchor="top",
                          buttons=[dict(label="▶ A → B", method="animate", args=[None, plays[speed]]),
                                   dict(label="❚❚", method="animate",
                                        args=[[None], dict(frame=dict(duration=0, redraw=False), mode="immediate")])])],
        sliders=[dict(active=0, x=0.2, y=-0.04, len=0.8, currentvalue=dict(prefix="t = "),
                      steps=[dict(label=f"{t:.2f}", method="animate",
                                  args=[[f"{t:.2f}"], dict(frame=dict(duration=0, redraw=False), mode="immediate")])
                             for t in steps])])
    return figure


def stability_figure(consensus, spread, color_range, *, point_ids=None, title="Consensus", revision=None):
    """The runs' consensus, each point coloured by its spread (hover shows the raw value).

    Parameters
    ----------
    consensus : ndarray of shape (n_drawn, d)
    spread : ndarray of shape (n_drawn,)
        NaN for points held by fewer than two runs (drawn grey by Plotly).
    color_range : (float, float)
    point_ids : ndarray of shape (n_drawn,), optional
    """
    return output_figure(_plane(consensus), spread, color_range, "spread (share of the radius)", point_ids=point_ids,
                         title=title, revision=revision)
