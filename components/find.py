"""Find points: a query (:mod:`lab.compute.find`) whose rows are marked in both explore views.

The query is the view state's ``display.find`` (kept in the link). The server reads it against the run
shown, when it changes and whenever the views are redrawn (:data:`ids.DRAWN`), and keeps the rows found
(:data:`ids.FIND_ROWS`); the browser marks them in both views as it marks a box selection
(``procrustes.markFound``, assets/linked_views.js), and the line beneath says how many and their mean
local measures beside every point's.
"""

import functools

from dash import ClientsideFunction, Input, Output, State, dcc, html, no_update

import measures
from lab.compute.find import FIND_MAX_CHARS, find_rows
from lab.compute.views import selection_summary

from . import ids
from .notebook_link import NOTEBOOK
from .point_events import shown_result
from .records import checked_record

__all__ = ["find_box", "find_points", "register"]

PLACEHOLDER = "Find points: R_N > 0.5 · continuity bottom 1% · rows 3, 10-20"


def find_box(value=""):
    """The query box and the line that says what it found."""
    return html.Div([
        dcc.Input(id=ids.FIND, type="text", value=value, debounce=True, placeholder=PLACEHOLDER,
                  maxLength=FIND_MAX_CHARS, className="find-input"),
        html.Span(id=ids.FIND_TEXT, className="help find-text", role="status"),
        dcc.Store(id=ids.FIND_ROWS),
    ], className="find", title=("Clauses joined by \"and\": a per-point measure, truth or metadata column against "
                                "a number (<, <=, >, >=, =, !=), its top or bottom p %, row numbers, or a text "
                                "metadata column = text, starts with text, contains text. The link keeps it."))


def _same_search(found, query, drawn):
    """Whether ``found`` (the page's store) holds ``query``'s rows for the run ``drawn`` draws."""
    return (isinstance(found, dict) and isinstance(found.get("rows"), list) and found.get("query") == query
            and isinstance(found.get("drawn"), dict) and isinstance(drawn, dict)
            and found["drawn"].get("request") == drawn.get("request"))


def find_points(services, query, drawn, shown, session, found=None):
    """The rows of the run shown that ``query`` finds, and the line that says so (the query's own message when
    it cannot be read). Nothing is read while the query is blank and no mark is shown, but for a notebook's
    selection of the run drawn (:mod:`components.notebook_link`), kept; a redraw of the same run (a new
    colouring, another input view) marks the rows found already, without reading the run again."""
    if not query or not isinstance(query, str):
        if _same_search(found, "", drawn) and found.get("from") == NOTEBOOK:
            return {**found, "drawn": drawn}, no_update
        return {"rows": [], "drawn": drawn, "query": ""}, ""
    if _same_search(found, query, drawn):  # the rows go back to the page that holds them; the line stands
        return {**found, "drawn": drawn}, no_update
    try:
        record = checked_record(shown)
        if record["status"] != "done":
            return no_update, ""
        request, result = shown_result(services, record, session)
        if result is None:
            # Not kept as this query's answer: the run, computed again, is drawn with the same request.
            return ({"rows": [], "drawn": drawn, "query": ""},
                    "This run has left the cache: run it again to find points.")
        rows = find_rows(result, query)
    except measures.ProcrustesLabError as error:  # a query it cannot read, a forged record: the message
        return {"rows": [], "drawn": drawn, "query": query}, str(error)
    if not len(rows):
        return {"rows": [], "drawn": drawn, "query": query}, f"“{query.strip()}”: no point."
    # The drawn marker is part of the value: a redraw with the same rows still reaches the browser's marks.
    return ({"rows": rows.tolist(), "drawn": drawn, "query": query},
            f"“{query.strip()}”: " + selection_summary(result, rows))


def register(app, services):
    """The query read on the server; the rows marked in both views in the browser."""
    app.callback(Output(ids.FIND_ROWS, "data"), Output(ids.FIND_TEXT, "children"),
                 Input(ids.FIND, "value"), Input(ids.DRAWN, "data"), State(ids.RUN_SHOWN, "data"),
                 State(ids.SESSION, "data"), State(ids.FIND_ROWS, "data"),
                 prevent_initial_call=True)(functools.partial(find_points, services))
    app.clientside_callback(ClientsideFunction(namespace="procrustes", function_name="markFound"),
                            Output(ids.INPUT_GRAPH, "figure", allow_duplicate=True),
                            Output(ids.OUTPUT_GRAPH, "figure", allow_duplicate=True),
                            Input(ids.FIND_ROWS, "data"), State(ids.INPUT_GRAPH, "figure"),
                            State(ids.OUTPUT_GRAPH, "figure"), prevent_initial_call=True)
