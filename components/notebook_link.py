"""A notebook's page, answering back: what the user shows and selects reaches Python, and Python's asks reach the page.

Only a notebook's app (:func:`notebook.notebook_app`) has these pieces. Its page reports every view state it
shows and every selection (a box or lasso in either view, a clicked point, a find's rows, cleared by a
double click) to the kernel's :class:`lab.view.notebook.NotebookPage`, and polls it twice a second for
what Python asked: a view goes to the controls as a preset does (:data:`ids.APPLY_STATE`); a selection
is marked in both views as a find's rows are (:data:`ids.FIND_ROWS`), once the run it selects in is the
one shown. The server is a thread of the kernel, so page and Python share the object.
"""

import functools

from dash import Input, Output, State, ctx, dcc, no_update
from dash.exceptions import PreventUpdate

from lab import StateError
from lab.compute.views import selection_summary

from . import ids
from .point_events import done_result, event_rows

__all__ = ["NOTEBOOK", "POLL_MILLISECONDS", "deliver_orders", "link_pieces", "register", "report_selection",
           "report_view"]

# How often the page asks the kernel for Python's orders: a local server, one small answer.
POLL_MILLISECONDS = 500
# The mark of a selection Python made, in the find rows' store (components.find keeps it through redraws).
NOTEBOOK = "notebook"
_EVENTS = {(ids.INPUT_GRAPH, "selectedData"): "input", (ids.OUTPUT_GRAPH, "selectedData"): "output",
           (ids.INPUT_GRAPH, "clickData"): "input", (ids.OUTPUT_GRAPH, "clickData"): "output"}


def link_pieces():
    """The page's side of the link: the poll, the last order it applied, where the reports are acknowledged."""
    return [dcc.Interval(id=ids.NOTEBOOK_POLL, interval=POLL_MILLISECONDS),
            dcc.Store(id=ids.NOTEBOOK_SEEN, data={"order": 0}), dcc.Store(id=ids.NOTEBOOK_REPORTED)]


def report_view(page, state):
    """Tell Python the view state the page shows (a state the page did not write is not told)."""
    try:
        page.report_state(state)
    except StateError:
        pass
    return no_update


def report_selection(services, page, input_selected, output_selected, input_click, output_click, found, shown, drawn,
                     session):
    """Tell Python the rows the user selects: the triggering event's (a box, a lasso, a clicked point, a find)."""
    trigger = (ctx.triggered_id, ctx.triggered[0]["prop_id"].rsplit(".", 1)[-1]) if ctx.triggered else None
    events = dict(zip(_EVENTS, (input_selected, output_selected, input_click, output_click)))
    try:
        if trigger == (ids.FIND_ROWS, "data"):
            rows = found.get("rows") if isinstance(found, dict) else []
        elif trigger in events:
            _, result = done_result(services, shown, session)
            if result is None:
                raise PreventUpdate
            event = events[trigger]
            rows = event_rows(result, event, _EVENTS[trigger], drawn) if event else []
        else:
            raise PreventUpdate
        page.report_selection(rows)
    except StateError:  # rows the page never sends: Python keeps the selection it has
        pass
    return no_update


def deliver_orders(services, page, _intervals, seen, shown, drawn, session):
    """Python's orders the page has not applied: the latest view to the controls (a selection asked before it is
    dropped with the view it selected in); else the latest selection to both views' marks, once the run it
    selects in is the one shown (its rows marked as a find's, kept through that run's redraws).

    A page opened later (a reload, a second tab) starts from order 0: it shows the view and selection Python
    asked for last."""
    seen = (seen or {}).get("order")
    seen = seen if isinstance(seen, int) and not isinstance(seen, bool) else 0
    orders = {kind: (number, payload) for number, kind, payload in page.orders_after(seen)}
    if "view" in orders:
        number, state = orders["view"]
        page.handed(number)
        return {"state": state, "message": "Shown from the notebook."}, no_update, no_update, {"order": number}
    if "select" not in orders:
        raise PreventUpdate
    number, selection = orders["select"]
    request, result = done_result(services, shown, session)
    if result is None or request.to_dict() != selection["request"]:
        raise PreventUpdate  # the run Python selects in is not drawn (yet): the next poll looks again
    rows = selection["rows"]
    if rows and max(rows) >= result.n_samples:  # rows Python could not check before the run existed
        return (no_update, no_update, f"From the notebook: rows run from 0 to {result.n_samples - 1}; got row "
                f"{max(rows)}.", {"order": number})
    return (no_update, {"rows": rows, "drawn": drawn, "query": "", "from": NOTEBOOK},
            f"From the notebook: {selection_summary(result, rows)}", {"order": number})


def register(app, services, page):
    """Wire the notebook ``page`` (:class:`lab.view.notebook.NotebookPage`) to ``app``'s page."""
    app.callback(Output(ids.NOTEBOOK_REPORTED, "data"), Input(ids.VIEW_STATE, "data"),
                 prevent_initial_call=True)(functools.partial(report_view, page))
    app.callback(Output(ids.NOTEBOOK_REPORTED, "data", allow_duplicate=True),
                 *(Input(component, event) for component, event in _EVENTS), Input(ids.FIND_ROWS, "data"),
                 State(ids.RUN_SHOWN, "data"), State(ids.DRAWN, "data"), State(ids.SESSION, "data"),
                 prevent_initial_call=True)(
        functools.partial(report_selection, services, page))
    app.callback(Output(ids.APPLY_STATE, "data", allow_duplicate=True),
                 Output(ids.FIND_ROWS, "data", allow_duplicate=True),
                 Output(ids.FIND_TEXT, "children", allow_duplicate=True), Output(ids.NOTEBOOK_SEEN, "data"),
                 Input(ids.NOTEBOOK_POLL, "n_intervals"), State(ids.NOTEBOOK_SEEN, "data"),
                 State(ids.RUN_SHOWN, "data"), State(ids.DRAWN, "data"), State(ids.SESSION, "data"),
                 prevent_initial_call=True)(functools.partial(deliver_orders, services, page))
