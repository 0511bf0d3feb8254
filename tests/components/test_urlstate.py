"""A view's state survives the trip through a URL query string."""

import doctest

import components.urlstate
from components.urlstate import decode_state, encode_state, owned_parameters


def test_round_trip_keeps_types_and_values():
    state = {"dataset": "strip", "n": 1600, "noise": 0.05, "seed": 3, "d.length": 9.0, "a.reg": 0.001,
             "algorithm": "lle", "k": 12, "color": "truth-0", "tab": "explore"}
    back = decode_state(encode_state(state))
    assert back == state
    assert isinstance(back["n"], int) and isinstance(back["d.length"], float)


def test_text_is_escaped_and_empty_queries_decode_to_nothing():
    assert decode_state(encode_state({"color": "a&b=c d"})) == {"color": "a&b=c d"}
    assert decode_state("") == decode_state(None) == decode_state("?") == {}


def test_parameters_are_split_by_owner():
    state = {"d.length": 6.0, "a.reg": 0.1, "a.eigen_solver": "dense", "k": 5}
    assert owned_parameters(state, "a") == {"reg": 0.1, "eigen_solver": "dense"}
    assert owned_parameters(state, "d") == {"length": 6.0}


def test_doctests():
    assert doctest.testmod(components.urlstate).failed == 0


def test_a_link_to_an_unknown_data_set_keeps_the_current_one():
    from dash import no_update

    from components.callbacks import apply_link

    outputs = apply_link("?dataset=no-such-set&k=12", False, "swissroll", "isomap")
    assert outputs[0] is True and outputs[1] is no_update and outputs[6] == 12
    assert outputs[2] == 1600  # no n in the link: the set's default size
    assert apply_link("?dataset=grid", False, "swissroll", "isomap")[2] is None  # a finite set: all points
    assert apply_link("?k=12", True, "swissroll", "isomap")[1:] == (no_update,) * 19  # applied once only
