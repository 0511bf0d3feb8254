"""The entry of every callback: what a request may carry, checked before any callback runs; and what a
callback's unforeseen failure shows.

Dash hands each callback the values a request to ``/_dash-update-component`` names, as the request
states them, and a request can be written by hand. :func:`guard` checks every such request against
the callback it names before Dash reads it:

- the body is JSON naming a registered callback, with its inputs, states and outputs in the
  callback's order (anything else: HTTP 400, a short message, no callback run);
- each value has the type its property can hold (:data:`PROPERTY_CHECKS`, and the stores' own in
  :data:`TEXT_STORES` and :data:`FLAG_STORES`), is nested at most :data:`MAX_DEPTH` deep, holds no
  text longer than :data:`MAX_TEXT` (file contents and figures excepted: the request size cap bounds
  them), and no number outside what a float holds (a 400-digit integer) or that is not finite.

A request that fails is refused with a message in the page's state message
(:data:`components.ids.STATE_MESSAGE`), and nothing runs. What the values mean (a k out of range, an
unknown algorithm) is the callbacks' own check, through the typed view state (:mod:`lab.view.state`),
which names the control's bound.

Behind these checks, :func:`report_failure` is the app's ``on_error``: an exception a callback did not
turn into a message is logged with its traceback (so a real bug stays visible in the server log), and
instead of an HTTP 500 the page shows the message of a typed error of ours (a view state the callback
should have refused itself) or, for anything else, :data:`CALLBACK_FAILED`.
"""

import json
import logging
import math
import numbers

import flask
from dash import set_props

import measures
from lab.view.exports import nesting_depth

from . import ids

__all__ = ["CALLBACK_FAILED", "FLAG_STORES", "MAX_DEPTH", "MAX_TEXT", "MalformedRequest", "PROPERTY_CHECKS", "REFUSED",
           "RequestRefused", "TEXT_STORES", "check_request", "guard", "report_failure"]

logger = logging.getLogger(__name__)

CALLBACK_ENDPOINT = "/_dash-update-component"
# The deepest value a page sends: a figure (layout.xaxis.title.font.size) or a view state's upload
# reference (state.data.upload.output.columns), well under this.
MAX_DEPTH = 24
# The longest text a control or store holds (a link, a run's message); file contents and figures
# (Plotly's base64 arrays) are bounded by the request size cap instead.
MAX_TEXT = 2**16
# A JSON integer becomes a Python int of any size: one beyond this cannot be a control's value, and
# converting it to a float would overflow.
MAX_INTEGER = 2**63
# Clicks, point numbers and curve numbers are counts.
MAX_COUNT = 2**31
_UNBOUNDED_TEXT = {"contents", "figure"}
REFUSED = "A request to the server was refused: {reason} Nothing was changed; reload the page if it came from it."
CALLBACK_FAILED = ("Something went wrong on the server while updating the page; it was logged. The page keeps "
                   "what it showed: change a control, or reload.")
MALFORMED = "The request is not a callback request of this page."


class RequestRefused(ValueError):
    """A callback request whose shape or values no control of the page can send."""


class MalformedRequest(RequestRefused):
    """A request to the callback endpoint that names no callback of the page (answered 400)."""


def _count(value, where):
    if value is not None and not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_COUNT):
        raise RequestRefused(f"{where} must be a count; got a {type(value).__name__}.")


def _text(limit):
    def check(value, where):
        if value is not None and not (isinstance(value, str) and len(value) <= limit):
            raise RequestRefused(f"{where} must be text of at most {limit} characters.")
    return check


def _kind(*types):
    def check(value, where):
        if value is not None and not isinstance(value, types):
            raise RequestRefused(f"{where} must be {' or '.join(kind.__name__ for kind in types)}; got a "
                                 f"{type(value).__name__}.")
    return check


def _scalar(value):
    return value is None or isinstance(value, (str, bool, numbers.Real))


def _control_value(value, where):
    """A control's value: a scalar, or a list of scalars (checklists, multi-choice menus, range sliders)."""
    if not (_scalar(value) or (isinstance(value, list) and all(map(_scalar, value)))):
        raise RequestRefused(f"{where} must be a value or a list of values.")


def _event(value, where):
    """A graph's hover, click or selection: a dict whose points (if any) are dicts with counts for numbers."""
    _kind(dict)(value, where)
    points = (value or {}).get("points", [])
    if not isinstance(points, list) or not all(isinstance(point, dict) for point in points):
        raise RequestRefused(f"{where}: points must be a list of points.")
    for point in points:
        for key in ("curveNumber", "pointNumber", "pointIndex"):
            _count(point.get(key), f"{where}: {key}")


# What each property of a callback's input or state may hold (a property not listed: any JSON value).
PROPERTY_CHECKS = {
    "n_clicks": _count,
    "n_intervals": _count,
    "search": _text(8192),
    "filename": _text(1024),
    "contents": _kind(str),
    "value": _control_value,
    "options": _kind(list),
    "id": _kind(dict, str),
    "figure": _kind(dict),
    "hoverData": _event,
    "clickData": _event,
    "selectedData": _event,
}
# Stores holding text (the session's upload namespace, the page load's token) or a job's running flag;
# every other store holds an object or nothing.
TEXT_STORES = {ids.SESSION: _text(256), ids.PAGE_TOKEN: _text(256)}
FLAG_STORES = {ids.job_controls(job)["running"] for job in ids.JOBS}


def _store(component, value, where):
    if component in TEXT_STORES:
        TEXT_STORES[component](value, where)
    elif component in FLAG_STORES:
        _kind(bool)(value, where)
    else:
        _kind(dict)(value, where)


def _plain(value, where, *, bounded_text):
    """Every number in ``value`` a finite float's worth, every text within :data:`MAX_TEXT` (no recursion)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.values())
            pending.extend(item)
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            if bounded_text and len(item) > MAX_TEXT:
                raise RequestRefused(f"{where} holds text longer than {MAX_TEXT} characters.")
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INTEGER:
                raise RequestRefused(f"{where} holds a number of {len(str(abs(item)))} digits.")
        elif not math.isfinite(item):
            raise RequestRefused(f"{where} holds a number that is not finite.")


def _check_value(component, prop, value):
    where = f"{component}.{prop}" if isinstance(component, str) else f"a {prop} of {component.get('type')!r}"
    if nesting_depth(value) > MAX_DEPTH:
        raise RequestRefused(f"{where} is nested more than {MAX_DEPTH} deep.")
    _plain(value, where, bounded_text=prop not in _UNBOUNDED_TEXT)
    if prop == "data":
        _store(component, value, where)
    elif prop in PROPERTY_CHECKS:
        PROPERTY_CHECKS[prop](value, where)


def _dependencies(given, declared, where):
    """Check a request's inputs (or states) against the callback's declared ones, then each value."""
    if not isinstance(given, list) or len(given) != len(declared):
        raise RequestRefused(f"the {where} do not match the callback's.")
    for item, dependency in zip(given, declared):
        component, prop = dependency["id"], dependency["property"]
        pattern = component.startswith("{")
        entries = item if pattern else [item]
        if not isinstance(entries, list):
            raise RequestRefused(f"the {where} do not match the callback's.")
        for entry in entries:
            if not isinstance(entry, dict) or entry.get("property") != prop:
                raise RequestRefused(f"the {where} do not match the callback's.")
            if pattern:
                wanted = json.loads(component)["type"]
                if not isinstance(entry.get("id"), dict) or entry["id"].get("type") != wanted:
                    raise RequestRefused(f"the {where} do not match the callback's.")
            elif entry.get("id") != component:
                raise RequestRefused(f"the {where} do not match the callback's.")
            _check_value(entry["id"], prop, entry.get("value"))


def _outputs(given, declared):
    """The request's outputs name the callback's, in its order (Dash raises on any other)."""
    declared = declared if isinstance(declared, list) else [declared]
    given = given if isinstance(given, list) else [given]
    if len(given) != len(declared):
        raise RequestRefused("the outputs do not match the callback's.")
    for item, output in zip(given, declared):
        if not (isinstance(item, dict) and isinstance(item.get("property"), str)
                and item.get("id") == output.component_id
                and item["property"].split("@")[0] == output.component_property):
            raise RequestRefused("the outputs do not match the callback's.")


def check_request(body, callback_map):
    """Check a callback request's body against the callback it names.

    Parameters
    ----------
    body : object
        The request's parsed JSON.
    callback_map : dict
        The app's ``callback_map``.

    Raises
    ------
    MalformedRequest
        When ``body`` names no callback of ``callback_map``.
    RequestRefused
        Naming the first thing found that the page's own requests never carry.
    """
    if not isinstance(body, dict) or not isinstance(body.get("output"), str) or body["output"] not in callback_map:
        raise MalformedRequest(MALFORMED)
    callback = callback_map[body["output"]]
    changed = body.get("changedPropIds", [])
    if not isinstance(changed, list) or not all(isinstance(prop_id, str) and len(prop_id) <= MAX_TEXT
                                                for prop_id in changed):
        raise RequestRefused("its changed properties are not a list of names.")
    if not callback.get("no_output"):
        _outputs(body.get("outputs"), callback["output"])
    _dependencies(body.get("inputs", []), callback["inputs"], "inputs")
    _dependencies(body.get("state", []), callback["state"], "states")


def _refusal(reason):
    """A callback answer that changes nothing but the page's state message."""
    message = {"children": REFUSED.format(reason=reason), "className": "message error"}
    return flask.jsonify({"multi": True, "response": {}, "sideUpdate": {ids.STATE_MESSAGE: message}})


def guard(app):
    """Check every callback request of ``app`` (:func:`check_request`) before Dash reads it."""
    @app.server.before_request
    def check_callback_request():
        if flask.request.path != app.config.routes_pathname_prefix + CALLBACK_ENDPOINT.lstrip("/"):
            return None
        try:
            body = flask.request.get_json(silent=True)
        except RecursionError:  # nested past the parser's recursion limit: not a page's request
            body = None
        if body is None:
            return flask.Response(MALFORMED, status=400, mimetype="text/plain")
        try:
            check_request(body, app.callback_map)
        except MalformedRequest:
            logger.info("Refused a request naming no callback")
            return flask.Response(MALFORMED, status=400, mimetype="text/plain")
        except RequestRefused as refused:
            logger.info("Refused a callback request: %s", refused)
            return _refusal(str(refused))
        return None

    return app


def report_failure(error):
    """The app's ``on_error``: log the failure whole (server side) and say on the page what went wrong.

    A typed error of ours (:class:`measures.ProcrustesLabError`, e.g. a forged view state's
    :class:`lab.StateError`) carries a message written for the page, as every callback shows it;
    anything else, a bug, shows :data:`CALLBACK_FAILED` (Dash's error for a background job holds its
    traceback). Returns None, so that the callback's outputs keep what they showed.
    """
    logger.error("A callback failed on an accepted request", exc_info=error)
    message = str(error) if isinstance(error, measures.ProcrustesLabError) else CALLBACK_FAILED
    set_props(ids.STATE_MESSAGE, {"children": message, "className": "message error"})
