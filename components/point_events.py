"""Pointing at the explore views: a hovered point's ring and image, a clicked point's neighbourhood, a
selection's summary.

Ringing, marking and the neighbourhood's edges are drawn in the browser (assets/linked_views.js), so a
hover waits for no server and only small marker traces change. The server reads the shown run from the
result cache (for this session only) to map a drawn point to its data-set row, to draw an image data
set's point, to align the clicked neighbourhood (the inspector) and to average a selection.
"""

import functools

from dash import ClientsideFunction, Input, Output, State, ctx, no_update

import measures
from lab import RunRequest, StateError
from lab.compute.views import data_rows, drawn_rows, inspect_point, selection_summary

from . import ids
from .figures import empty_figure, image_figure, inspector_figure
from .records import checked_record

__all__ = ["done_result", "event_points", "event_rows", "inspect", "register", "shown_result", "show_point_image",
           "summarize_selection"]


def shown_result(services, record, session):
    """The request and cached result of a shown run (None if it has left the cache), for this session only.

    Raises
    ------
    measures.ProcrustesLabError
        When the run's uploaded file is not this session's.
    """
    request = RunRequest.from_dict(record["request"])
    services.uploads.for_session(session).authorize(request.data)
    return request, services.results.get(request)


def done_result(services, shown, session):
    """The request and result of the run the page shows (its record ``shown``), when it is done and cached for
    this session; ``(None, None)`` otherwise: not done, left the cache, a forged record, another session's upload."""
    try:
        record = checked_record(shown)
        if record["status"] != "done":
            return None, None
        return shown_result(services, record, session)
    except measures.ProcrustesLabError:
        return None, None


def event_points(event, count):
    """Trace 0's point numbers in a graph's hover, click or selection ``event``, the graph drawing ``count``.

    Raises
    ------
    lab.StateError
        Naming a point number the graph does not draw (an event the browser never sends).
    """
    numbers = [point.get("pointNumber") for point in (event or {}).get("points") or [] if point.get("curveNumber") == 0]
    outside = [number for number in numbers if not (isinstance(number, int) and 0 <= number < count)]
    if outside:
        raise StateError([f"The event names point {outside[0]!r}; the view draws {count} points."])
    return numbers


def event_rows(result, event, view, drawn):
    """Data-set rows of the points of ``view``'s ("input" or "output") ``event``: trace 0's point numbers,
    mapped through what that view draws (the 3-D view draws a subsample), ``drawn`` the page's record of it.

    Raises
    ------
    lab.StateError
        As :func:`event_points`.
    """
    input_view = (drawn or {}).get("view", "3d") if isinstance(drawn, dict) else "3d"
    rows = drawn_rows(result, view, input_view)
    points = event_points(event, result.n_samples if rows is None else len(rows))
    return data_rows(result, points, view, input_view)


def _event_rows(result, input_event, output_event, drawn):
    """:func:`event_rows` of the triggering graph's event."""
    from_input = ctx.triggered_id == ids.INPUT_GRAPH
    return event_rows(result, input_event if from_input else output_event, "input" if from_input else "output", drawn)


def show_point_image(services, input_hover, output_hover, shown, drawn, session):
    """For an image data set, the hovered point's image (its row of X, read from the result cache)."""
    _, result = done_result(services, shown, session)
    if result is None or result.image_shape is None:
        return no_update, {"display": "none"} if result is not None else no_update
    try:
        rows = _event_rows(result, input_hover, output_hover, drawn)
    except StateError:  # a point this view does not draw: nothing to show
        return no_update, no_update
    if not len(rows):
        return no_update, no_update
    index = int(rows[0])
    truth = ", ".join(f"{label} {value:.3g}" for label, value in zip(result.truth_labels, result.truth[index]))
    return image_figure(result.X[index].reshape(result.image_shape), f"point {index}: {truth}"), {"display": "block"}


def inspect(services, input_click, output_click, shown, drawn, session):
    """Clicking a point opens its neighbourhood, aligned as R_N, R_C and ASIM align it (PN Fig. 1E/F), and
    marks the point's k input neighbours and kNN edges in both views (data-set rows; the browser finds them
    among what each view draws)."""
    request, result = done_result(services, shown, session)
    if result is None:
        return empty_figure("This run is no longer cached."), "Run it again to inspect its points.", no_update
    try:
        rows = _event_rows(result, input_click, output_click, drawn)
    except StateError as error:
        return empty_figure(str(error)), str(error), None
    if not len(rows):
        return no_update, no_update, no_update
    index = int(rows[0])
    try:
        view = inspect_point(request, result, index)
    except measures.ProcrustesLabError as error:  # e.g. a neighbourhood of coincident points
        return empty_figure(str(error)), str(error), None
    k = request.method.n_neighbors
    text = (f"Point {index} and its k = {k} input neighbours: local R_N {view.normalized:.4f}, R_C "
            f"{view.conformal_value:.4f}, ASIM {view.asim_value:.4f}, lower bound {view.lower_bound:.4f}. Circles: "
            "the input on its two principal axes; dots: the output after each measure's best alignment; each "
            "segment's squared length is what the measure sums (over the patch's squared size).")
    figure = inspector_figure(view).update_layout(
        meta={"filename": f"procrustes-lab_{request.slug()}_inspector_point{index}"})
    return figure, text, {"point": index, "neighbours": view.neighbors[1:].tolist()}


def summarize_selection(services, input_selection, output_selection, shown, drawn, session):
    """The selected points' mean local measures beside every point's: is this region worse?"""
    selection = input_selection if ctx.triggered_id == ids.INPUT_GRAPH else output_selection
    if not selection:
        return ""
    _, result = done_result(services, shown, session)
    if result is None:
        return "Run again to summarize a selection."
    try:
        return selection_summary(result, sorted(set(_event_rows(result, input_selection, output_selection, drawn))))
    except StateError as error:
        return str(error)


def register(app, services):
    """Wire the views' hover, click and selection events to ``app``, reading through ``services``."""
    events = (
        ((Output(ids.POINT_IMAGE, "figure"), Output(ids.POINT_IMAGE, "style")), "hoverData", show_point_image),
        ((Output(ids.INSPECTOR_GRAPH, "figure"), Output(ids.INSPECTOR_TEXT, "children"),
          Output(ids.NEIGHBOURS, "data")), "clickData", inspect),
        ((Output(ids.SELECTION_TEXT, "children"),), "selectedData", summarize_selection))
    for outputs, event, handler in events:
        app.callback(*outputs, Input(ids.INPUT_GRAPH, event), Input(ids.OUTPUT_GRAPH, event),
                     State(ids.RUN_SHOWN, "data"), State(ids.DRAWN, "data"), State(ids.SESSION, "data"),
                     prevent_initial_call=True)(functools.partial(handler, services))
    both_views = (Output(ids.INPUT_GRAPH, "figure", allow_duplicate=True),
                  Output(ids.OUTPUT_GRAPH, "figure", allow_duplicate=True))
    figures = (State(ids.INPUT_GRAPH, "figure"), State(ids.OUTPUT_GRAPH, "figure"))
    # Ringing the hovered point, and marking selected ones (box, lasso), in both views.
    for function_name, event in (("markHovered", "hoverData"), ("markSelected", "selectedData")):
        app.clientside_callback(ClientsideFunction(namespace="procrustes", function_name=function_name),
                                *both_views, Input(ids.INPUT_GRAPH, event), Input(ids.OUTPUT_GRAPH, event), *figures,
                                prevent_initial_call=True)
    # The clicked point's neighbours and kNN edges (a short circuit is a long chord in the output).
    app.clientside_callback(ClientsideFunction(namespace="procrustes", function_name="markNeighbours"),
                            *both_views, Input(ids.NEIGHBOURS, "data"), *figures, prevent_initial_call=True)
