"""The view state: validated against the registries, and unchanged through a link or a file."""

import doctest
import json

import pytest
from hypothesis import given

import algorithms
import datasets
import lab.view.links
import lab.view.state
from lab import DataChoice, MethodChoice, StateError, ViewState, from_query, to_query
from lab.compute import catalogue
from tests.strategies import ROUND_TRIPS, states


@ROUND_TRIPS
@given(states())
def test_state_to_link_to_state_is_the_identity(state):
    assert from_query(to_query(state)) == state


@ROUND_TRIPS
@given(states())
def test_state_to_json_to_state_is_the_identity(state):
    assert ViewState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@ROUND_TRIPS
@given(states())
def test_validation_is_idempotent(state):
    assert state.validated() == state


def test_a_link_opens_with_exactly_its_values_and_defaults_for_the_rest():
    state = from_query("?dataset=swissroll&n=2500&noise=0.5&random_state=3&d.stretch=3")
    assert (state.data.n, state.data.noise, state.data.random_state, state.data.kwargs) == (2500, 0.5, 3,
                                                                                          {"stretch": 3.0})
    assert from_query("?n=8000").data.n == 8000
    # What a link omits is the default, never a previous view's value.
    assert from_query("?dataset=strip").data == DataChoice("strip").validated()
    assert from_query("?dataset=grid").data.n is None  # a finite set: all its points


def test_links_written_before_random_state_and_post_refinement_still_open():
    assert from_query("?seed=4&refine=7") == from_query("?random_state=4&post_refinement=7")


def test_a_digit_class_stays_text_and_a_bool_parameter_reads_back():
    assert from_query("?dataset=digits&d.classes=2").data.kwargs["classes"] == "2"
    assert from_query("?landmarks=1&compare.align=0").display.landmarks is True


@pytest.mark.parametrize("query, message", [
    ("?k=400", "k must lie in [3, 50]; got 400."),
    ("?k=2.5", "k must be a whole number"),
    ("?noise=nan", "noise σ must be finite; got nan."),
    ("?noise=inf", "noise σ must be finite"),
    ("?noise=abc", "noise σ must be a number; got 'abc'."),
    ("?n=10", "n must lie in [50, 1000000]; got 10."),
    ("?norm.shape=hexagon", "normalization: shape must be one of"),
    ("?sweep.k_max=1000000", "sweep: highest k must lie in [3, 50]; got 1000000."),
    ("?sweep.k_min=3&sweep.k_max=50&sweep.k_step=1&sweep.algorithms=isomap,lle,ltsa", "144 runs; at most 120"),
    ("?sweep.k_min=18&sweep.k_max=6", "the lowest k (18) exceeds the highest (6)"),
    ("?algorithm=hlle&k=4", "HLLE needs n_neighbors > d(d+3)/2 = 5"),
    ("?dataset=nowhere", "unknown data set 'nowhere'"),
    ("?color=truth-5", "colour must be one of"),
    ("?tab=secret", "tab must be one of"),
    ("?what=1", "The link has no setting 'what'."),
    ("?dataset=upload", "no file is chosen"),
    ("?norm.algorithms=isomap", "isomap do not normalize their output"),
])
def test_a_link_out_of_range_is_refused_with_the_bound(query, message):
    with pytest.raises(StateError) as refused:
        from_query(query)
    assert message in str(refused.value)


def test_every_problem_of_a_link_is_listed():
    with pytest.raises(StateError) as refused:
        from_query("?k=400&noise=-1&d.stretch=99")
    assert len(refused.value.problems) == 3


@pytest.mark.parametrize("document, message", [
    ({"data": [1, 2]}, "data must be an object of settings; got list."),
    ({"data": {"dataset": "strip", "colour": 1}}, "data has no setting 'colour'"),
    ({"sweep": {"algorithms": 5}}, "the algorithms must be a list of names"),
    ({"method": {"params": [1]}}, "method: params must be an object"),
    ({"tab": ["explore"]}, "tab must be one of"),
])
def test_a_malformed_file_state_is_refused_as_a_state_error(document, message):
    with pytest.raises(StateError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        ViewState.from_dict(document)


def test_choosing_a_data_set_resets_its_own_settings_and_keeps_the_rest():
    state = from_query("?dataset=strip&n=300&d.length=9&noise=0.2&random_state=5&k=14&color=truth-1")
    moved = state.with_dataset("swissroll").validated()
    assert moved.data == DataChoice("swissroll", noise=0.2, random_state=5).validated()
    assert moved.method == state.method and moved.display.color == "truth-0"
    switched = state.with_algorithm("lle").validated()
    assert switched.method.n_neighbors == 14 and switched.method.kwargs == MethodChoice("lle").validated().kwargs


def test_defaults_come_from_the_registries():
    state = ViewState().validated()
    assert state.data.n == datasets.spec(catalogue.DEFAULT_DATASET).default_n
    assert dict(state.method.params) == {p.name: p.default for p in algorithms.spec("isomap").parameters}
    assert state.sweep.ks == (6, 9, 12, 15, 18)


def test_doctests():
    assert doctest.testmod(lab.view.state).failed == 0
    assert doctest.testmod(lab.view.links).failed == 0


def test_a_state_naming_an_unknown_tour_step_is_refused_naming_the_steps():
    """The tours register their steps with the view state (lab.tours.presets, which ``import lab`` imports)."""
    with pytest.raises(StateError, match=r"^tour: no step 'no-such-step'; the steps are gr-fig1, "):
        ViewState.from_dict({"tour": "no-such-step"})
    assert ViewState.from_dict({"tour": "gr-fig1"}).tour == "gr-fig1"


def test_a_forged_list_of_algorithms_gets_one_bounded_problem():
    """100 000 distinct unknown names (a request under the size cap can carry millions): one problem naming the
    first, shortened, and how many more, not one problem each repeating the available list."""
    names = [f"{'x' * 1000}{index}" for index in range(100_000)]
    with pytest.raises(StateError) as refused:
        ViewState.from_dict({"compare": {"algorithms": names}})
    said = str(refused.value)
    assert said.count("unknown algorithm") == 1 and "99999 more unknown names" in said
    assert len(said) < 2_000 and "isomap" in said
