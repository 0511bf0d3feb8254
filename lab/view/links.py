"""The view state as a link: :func:`to_query` and :func:`from_query`, each the one way across.

A query names only what differs from the defaults of its data set and algorithm (and always the
data set, the algorithm and k, so a link reads as what it shows):
``?dataset=swissroll&algorithm=isomap&k=10&n=2500&noise=0.5``. Keys:

- data: ``dataset``, ``n``, ``noise``, ``random_state``, ``d.<parameter>``;
- method: ``algorithm``, ``k``, ``a.<parameter>``, ``post_refinement``, ``rescale``;
- display: ``color``, ``view``, ``landmarks``, ``format``, ``present`` (presentation mode), ``find`` (the
  points marked, :mod:`lab.compute.find`); the ``tab``;
- sweep: ``sweep.algorithms`` (comma-separated), ``sweep.k_min``, ``sweep.k_max``, ``sweep.k_step``,
  ``sweep.measure``, ``sweep.log``, ``sweep.yardsticks``; compare: ``compare.algorithms``,
  ``compare.align``; normalization: ``norm.shape``, ``norm.aspect``, ``norm.n``, ``norm.k``, ``norm.algorithms``;
  pairs: ``pair.algorithm``,
  ``pair.k``, ``pair.random_state`` (run B; empty keeps run A's value), ``pair.color``, ``pair.segments``;
  stability: ``stability.mode``, ``stability.runs``, ``stability.fraction``. ``algorithm=uploaded``
  measures the output uploaded with the input.
- ``tour``: a step of a paper's tour (registered by :mod:`lab.tours.presets`), e.g. ``?tour=gr-fig1``. The step's view
  state is then the base of what the link omits: ``?tour=gr-fig1`` alone opens exactly the step.
  A page's link names the step and every value that differs from the defaults or from the step's.

Values are parsed by the type their declaration gives (a digit class ``"2"`` stays text), then the
state is validated: a link out of range is refused with the controls' message. An uploaded file is
private to its session, so a link says ``dataset=upload`` and the page supplies its own file. Links
written before this scheme (``seed``, ``refine``) still open: this module is the one place an old
spelling is read (the Python API takes ``random_state`` and ``post_refinement`` only), since a link is
a shared address that must keep working.
"""

import urllib.parse

import algorithms
import datasets

from ..compute import catalogue
from ..compute.choices import MAX_DIGITS, DataChoice, MethodChoice, StateError
from .state import PARTS, ViewState, tour_step_state

__all__ = ["from_query", "to_query"]

# key -> (part, field) of the fixed settings; d.* and a.* are the data set's and algorithm's own.
_KEYS = {
    "dataset": ("data", "dataset"), "n": ("data", "n"), "noise": ("data", "noise"),
    "random_state": ("data", "random_state"),
    "algorithm": ("method", "algorithm"), "k": ("method", "n_neighbors"),
    "post_refinement": ("method", "post_refinement"), "rescale": ("method", "rescale"),
    "color": ("display", "color"), "view": ("display", "input_view"), "landmarks": ("display", "landmarks"),
    "format": ("display", "figure_format"), "present": ("display", "presentation"), "find": ("display", "find"),
    "sweep.algorithms": ("sweep", "algorithms"), "sweep.k_min": ("sweep", "k_min"), "sweep.k_max": ("sweep", "k_max"),
    "sweep.k_step": ("sweep", "k_step"), "sweep.measure": ("sweep", "measure"), "sweep.log": ("sweep", "log_scale"),
    "sweep.yardsticks": ("sweep", "yardsticks"),
    "compare.algorithms": ("compare", "algorithms"), "compare.align": ("compare", "align"),
    "norm.shape": ("normalization", "shape"), "norm.aspect": ("normalization", "aspect"),
    "norm.n": ("normalization", "n"), "norm.k": ("normalization", "n_neighbors"),
    "norm.algorithms": ("normalization", "algorithms"),
    "pair.algorithm": ("pair", "algorithm"), "pair.k": ("pair", "n_neighbors"),
    "pair.random_state": ("pair", "random_state"), "pair.color": ("pair", "color"),
    "pair.segments": ("pair", "segments"), "stability.mode": ("stability", "mode"),
    "stability.runs": ("stability", "n_runs"), "stability.fraction": ("stability", "fraction"),
}
_ALWAYS = ("dataset", "algorithm", "k")
_LEGACY = {"seed": "random_state", "refine": "post_refinement"}
_LISTS = {"sweep.algorithms", "compare.algorithms", "norm.algorithms"}
_BOOLS = {"landmarks", "compare.align", "present", "sweep.log", "sweep.yardsticks", "pair.segments"}
_FLOATS = {"noise", "norm.aspect", "stability.fraction"}
_TEXT = {"dataset", "algorithm", "rescale", "color", "view", "format", "find", "sweep.measure", "norm.shape", "tour",
         "pair.algorithm", "pair.color", "stability.mode"}


def _flat(state):
    """``{key: value}`` of a validated state, own parameters under ``d.`` and ``a.``."""
    flat = {key: getattr(getattr(state, part), field) for key, (part, field) in _KEYS.items()}
    flat.update({f"d.{name}": value for name, value in state.data.params})
    flat.update({f"a.{name}": value for name, value in state.method.params})
    flat["tab"] = state.tab
    flat["tour"] = state.tour
    return flat


def _text(value):
    if value is None:  # an empty value reads back as None (the set's default size, run B keeping A's value)
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(value)
    return repr(value) if isinstance(value, float) else str(value)


def to_query(state):
    """The link of a validated :class:`~lab.view.state.ViewState`: ``?key=value&...``, keys sorted.

    Examples
    --------
    >>> to_query(ViewState().validated())
    '?algorithm=isomap&dataset=swissroll&k=10'
    >>> from lab.compute.choices import DataChoice
    >>> to_query(ViewState(data=DataChoice("strip", n=500, params=(("length", 2.5),))).validated())
    '?algorithm=isomap&d.length=2.5&dataset=strip&k=10&n=500'
    """
    flat = _flat(state)
    defaults = _flat(ViewState(data=DataChoice(state.data.dataset, upload=state.data.upload),
                               method=MethodChoice(state.method.algorithm)).validated())
    # A tour step's link also names every value that differs from the step's (the base it opens from),
    # so that it reads as what it shows and opens exactly it.
    step = _flat(tour_step_state(state.tour)) if state.tour else defaults
    pairs = [(key, _text(value)) for key, value in sorted(flat.items())
             if key in _ALWAYS or value != defaults.get(key) or value != step.get(key, value)]
    return "?" + urllib.parse.urlencode(pairs)


def _parse(key, text, parameter=None):
    """One value of a link, by its declared type (``parameter`` for d.* and a.* keys)."""
    if key in _LISTS:
        return tuple(name for name in text.split(",") if name)
    if key in _BOOLS or (parameter is not None and parameter.kind == "bool"):
        if text not in ("0", "1", "true", "false", "True", "False"):
            raise StateError([f"{key} must be 1 or 0; got {text!r}."])
        return text in ("1", "true", "True")
    if key in _TEXT:
        return text
    if parameter is not None and parameter.kind == "choice":
        return next((choice for choice in parameter.choices if str(choice) == text), text)
    return _number(text, real=key in _FLOATS or (parameter is not None and parameter.kind == "float"))


def _number(text, *, real=False):
    """A link's number: an int, or a float for a ``real`` key; the text itself when it is no number.

    An integer of more digits than a view state's numbers have (:data:`lab.compute.choices.MAX_DIGITS`) stays
    an int, which the state refuses by its length: as a float it would overflow (400 digits) or round.
    """
    for kind in (int, float):
        try:
            number = kind(text)
        except ValueError:
            continue
        return float(number) if real and abs(number) < 10**MAX_DIGITS else number
    return text


def from_query(search, *, upload=None):
    """The validated state a link describes; what it omits takes its default (never the previous view's).

    Parameters
    ----------
    search : str
        The URL's query string, with or without the leading ``?``; empty gives the default state.
    upload : lab.compute.choices.UploadRef, optional
        This session's uploaded file, for a link saying ``dataset=upload``.

    Raises
    ------
    StateError
        An unknown key, a value of the wrong type, or any value out of its declared range (the
        message lists every problem).
    """
    given = {}
    for key, text in urllib.parse.parse_qsl((search or "").lstrip("?"), keep_blank_values=True):
        given[_LEGACY.get(key, key)] = text
    unknown = sorted(key for key in given
                     if key not in _KEYS and key not in ("tab", "tour") and not key.startswith(("d.", "a.")))
    if unknown:
        raise StateError([f"The link has no setting {', '.join(map(repr, unknown))}."])
    dataset = given.get("dataset", catalogue.DEFAULT_DATASET)
    algorithm = given.get("algorithm", catalogue.DEFAULT_ALGORITHM)
    declared = {}
    if dataset in datasets.available():
        declared.update({f"d.{p.name}": p for p in datasets.spec(dataset).parameters})
    if algorithm in algorithms.available():
        declared.update({f"a.{p.name}": p for p in algorithms.spec(algorithm).parameters})
    parts = {name: {} for name in PARTS}
    params = {"data": {}, "method": {}}
    for key, text in given.items():
        value = None if text == "" and key not in _LISTS else _parse(key, text, declared.get(key))
        if key in ("tab", "tour"):
            continue
        if key.startswith(("d.", "a.")):
            params["data" if key[0] == "d" else "method"][key[2:]] = value
        else:
            part, field = _KEYS[key]
            parts[part][field] = value
    tab = given.get("tab", catalogue.TABS[0])
    if given.get("tour"):
        base = tour_step_state(given["tour"])
        _fill_from(base, parts, params)
        tab = given.get("tab", base.tab)
    parts["data"]["params"] = tuple(params["data"].items())
    parts["method"]["params"] = tuple(params["method"].items())
    if parts["data"].get("dataset") == catalogue.UPLOAD:
        parts["data"]["upload"] = upload
    state = ViewState(**{name: cls(**parts[name]) for name, cls in PARTS.items()}, tab=tab,
                      tour=given.get("tour", ""))
    return state.validated()


def _fill_from(base, parts, params):
    """Complete a link's ``parts`` and own ``params`` (modified) with the values of state ``base``.

    The base's own parameters count only for its data set and algorithm: a link naming another data
    set starts that set from its defaults.
    """
    flat = _flat(base)
    for key, (part, field) in _KEYS.items():
        parts[part].setdefault(field, flat[key])
    for owner, part, prefix in (("dataset", "data", "d."), ("algorithm", "method", "a.")):
        if flat[owner] == parts[part][_KEYS[owner][1]]:
            params[part] = {**{key[2:]: value for key, value in flat.items() if key.startswith(prefix)},
                            **params[part]}
