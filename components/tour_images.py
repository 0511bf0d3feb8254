"""The image of the point hovered in a tour step's figure, for the image data sets (the digits, the globe).

Each panel of a step's figure carries its place in the step's drawn panels as ``customdata``
(:func:`components.figures.tours.step_figure`); a hover names the panel and the point, and the image is
that row of the panel's run, read from the result cache, as Explore shows it (:func:`image_figure`).
"""

import functools

from dash import Input, Output, State, dcc, no_update

from lab import StateError, ViewState
from lab.tours.presets import STEPS

from . import ids
from .figures import image_figure

__all__ = ["register", "show_tour_image", "tour_image"]

_HIDDEN = {"display": "none"}


def tour_image():
    """The small graph that shows the hovered point's image beside the step's figure (hidden otherwise)."""
    return dcc.Graph(id=ids.TOUR_IMAGE, className="point-image tour-image", style=_HIDDEN,
                     config={"displayModeBar": False})


def _hovered(hover):
    """``(panel key, row)`` of a tour figure's hover, or None when it names no panel's point."""
    points = hover.get("points") if isinstance(hover, dict) else None
    point = points[0] if isinstance(points, list) and points and isinstance(points[0], dict) else {}
    key, row = point.get("customdata"), point.get("pointNumber")
    if isinstance(key, list):  # Plotly sends a point's customdata as given: a number, or a list of one
        key = key[0] if len(key) == 1 else None
    valid = all(isinstance(value, int) and not isinstance(value, bool) and value >= 0 for value in (key, row))
    return (key, row) if valid else None


def show_tour_image(services, hover, state):
    """The hovered point's image when its panel's run is of an image data set; hidden otherwise."""
    hovered = _hovered(hover)
    if hovered is None or not state:
        return no_update, no_update
    key, row = hovered
    try:
        name = ViewState.from_dict(state).tour
    except StateError:  # a state this page did not write: nothing to show
        return no_update, _HIDDEN
    step = STEPS.get(name)
    if step is None or key >= len(step.drawn):
        return no_update, _HIDDEN
    # Tours draw the catalogue's data sets only (no upload: nothing to authorize).
    result = services.results.get(step.drawn[key].request)
    if result is None or result.image_shape is None or row >= result.n_samples:
        return no_update, _HIDDEN
    truth = ", ".join(f"{label} {value:.3g}" for label, value in zip(result.truth_labels, result.truth[row]))
    return image_figure(result.X[row].reshape(result.image_shape), f"point {row}: {truth}"), {"display": "block"}


def register(app, services):
    """Hovering a tour figure's point shows its image."""
    app.callback(Output(ids.TOUR_IMAGE, "figure"), Output(ids.TOUR_IMAGE, "style"),
                 Input(ids.TOUR_FIGURE, "hoverData"), State(ids.VIEW_STATE, "data"),
                 prevent_initial_call=True)(functools.partial(show_tour_image, services))
