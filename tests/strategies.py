"""Hypothesis strategies shared by the tests: valid view states over every registry entry and control; and
the run part of a state, as the explore job receives it."""

import dataclasses

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import algorithms
import datasets
from lab import CompareChoice, DataChoice, DisplayChoice, MethodChoice, NormalizationChoice, SweepChoice, ViewState
from lab.compute import catalogue
from lab.compute.shapes import SHAPES, NormalizationDefaults
from lab.tours.presets import STEPS
from lab.view.state import PairChoice, StabilityChoice

__all__ = ["HOSTILE_JSON", "ROUND_TRIPS", "mutations", "run_part", "states"]

ROUND_TRIPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_part(state):
    """The run request (``{"data", "method"}``) of a view state's dict, unvalidated: what the explore job
    receives (``RunRequest.from_state(...).to_dict()`` for a valid state; a forged state forges it too)."""
    return {"data": state["data"], "method": state["method"]}


def _value(parameter):
    """Values a Parameter accepts, within its range (unbounded sides capped to keep numbers readable)."""
    if parameter.kind == "choice":
        return st.sampled_from(parameter.choices)
    if parameter.kind == "bool":
        return st.booleans()
    low = parameter.low if parameter.low is not None else -1e6
    high = parameter.high if parameter.high is not None else low + 1e6
    if parameter.kind == "int":
        return st.integers(int(low), int(high))
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


@st.composite
def states(draw):
    """Valid view states over every data set, algorithm and control (canonical after validation)."""
    dataset = draw(st.sampled_from(datasets.available()))
    entry = datasets.spec(dataset)
    size = entry.size_parameter
    n = draw(st.none() | st.integers(size.low, size.high)) if entry.population else \
        draw(st.integers(size.low, size.high))
    data = DataChoice(dataset, n, draw(st.floats(0.0, 10.0)), draw(_value(catalogue.RANDOM_STATE)),
                      tuple((p.name, draw(_value(p))) for p in entry.parameters))
    algorithm = draw(st.sampled_from(algorithms.available()))
    spec = algorithms.spec(algorithm)
    k = draw(st.integers(max(catalogue.NEIGHBORS.low, spec.min_neighbors(2)), catalogue.NEIGHBORS.high))
    method = MethodChoice(algorithm, k, tuple((p.name, draw(_value(p))) for p in spec.parameters),
                          draw(_value(catalogue.POST_REFINEMENT)), draw(_value(catalogue.RESCALE)))
    colors = [value for value, _ in catalogue.color_choices(entry.truth_labels)]
    display = DisplayChoice(draw(st.sampled_from(colors)), draw(st.sampled_from(list(catalogue.INPUT_VIEWS))),
                            draw(st.booleans()), draw(st.sampled_from(catalogue.FIGURE_FORMATS)), draw(st.booleans()))
    chosen = draw(st.lists(st.sampled_from(algorithms.available()), max_size=4, unique=True))
    k_min = draw(st.integers(catalogue.NEIGHBORS.low, catalogue.NEIGHBORS.high))
    sweep = SweepChoice(tuple(chosen), k_min, draw(st.integers(k_min, catalogue.NEIGHBORS.high)),
                        draw(st.integers(2, 10)), draw(st.sampled_from([key for key, _ in catalogue.SUMMARY_MEASURES])),
                        draw(st.booleans()))
    compare = CompareChoice(tuple(draw(st.lists(st.sampled_from(algorithms.available()), unique=True))),
                            draw(st.booleans()))
    shape = draw(st.sampled_from(list(SHAPES)))
    shape_size = datasets.spec(SHAPES[shape].dataset).size_parameter
    normalized = [s.name for s in algorithms.specs() if s.output == "normalized"]
    normalization = NormalizationChoice(
        shape, draw(_value(NormalizationDefaults.aspect_parameter)),
        draw(st.none() | st.integers(shape_size.low, shape_size.high)),
        draw(st.integers(catalogue.NEIGHBORS.low, catalogue.NEIGHBORS.high)),
        tuple(draw(st.lists(st.sampled_from(normalized), unique=True))))
    pair_colors = [value for value, _ in catalogue.pair_color_choices(entry.truth_labels)]
    pair = dataclasses.replace(draw(pairs(algorithm, k)), segments=draw(st.booleans()),
                               color=draw(st.sampled_from(pair_colors)))
    state = ViewState(data, method, display, sweep, compare, normalization, draw(st.sampled_from(catalogue.TABS)),
                      pair=pair, stability=draw(stabilities()), tour=draw(st.sampled_from(["", *STEPS])))
    return state.validated()


@st.composite
def pairs(draw, algorithm, k):
    """Run B of the pairs tab for run A's ``algorithm`` and ``k``: None keeps A's value."""
    chosen = draw(st.none() | st.sampled_from(algorithms.available()))
    lowest = max(catalogue.NEIGHBORS.low, algorithms.spec(chosen or algorithm).min_neighbors(2))
    k_b = draw(st.none() | st.integers(lowest, catalogue.NEIGHBORS.high))
    k_b = lowest if k_b is None and k < lowest else k_b  # A's k must suit B's algorithm when B keeps it
    return PairChoice(chosen, k_b, draw(st.none() | _value(catalogue.RANDOM_STATE)))


def stabilities():
    return st.builds(StabilityChoice, st.sampled_from(list(catalogue.STABILITY_MODES)),
                     _value(catalogue.STABILITY_RUNS), _value(catalogue.SUBSAMPLE_FRACTION))


# Any JSON value a forged request or file can hold: huge integers, every float (NaN and infinities
# too), text that reads as a number, a path or a URL, nested a few levels.
HOSTILE_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**400, 10**400) | st.floats() | st.text(max_size=12)
    | st.sampled_from(["nan", "-inf", "1e309", "9" * 400, "no-such-value", "../../etc/passwd", "http://x"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8)


def _places(value, prefix=()):
    """Every place inside a JSON value (the value itself first), as paths of keys and indices."""
    yield prefix
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _places(child, (*prefix, key))


def _replaced(value, path, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


@st.composite
def mutations(draw, value):
    """``value`` (JSON) with one place in it (the whole, a field, an element) replaced by :data:`HOSTILE_JSON`."""
    return _replaced(value, draw(st.sampled_from(list(_places(value)))), draw(HOSTILE_JSON))
