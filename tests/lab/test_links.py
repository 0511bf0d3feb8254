"""A link is read with bounds: every key, given any text, opens a state or is refused with a message
naming the key (issue 20, item 8: a 400-digit number raised OverflowError, an unknown step KeyError)."""

import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms
import datasets
from lab import StateError, ViewState, from_query
from lab.compute import catalogue
from lab.view import links

# Every key a link may hold, the legacy ones, the default data set's and algorithm's own, and one that is none.
KEYS = [*links._KEYS, "tab", "tour", "seed", "refine", "d.nope",
        *[f"d.{p.name}" for p in datasets.spec(catalogue.DEFAULT_DATASET).parameters],
        *[f"a.{p.name}" for p in algorithms.spec(catalogue.DEFAULT_ALGORITHM).parameters]]
HOSTILE = ["", "9" * 400, "-" + "9" * 400, "9" * 5000, "1e308", "1e309", "-1e400", "nan", "-inf", "-1", "1000000000",
           "0x10", "１２", "1_0", "[1]", "{}", "a,b,,", ",", "True", "no-such-value", "x" * 10000, "\x00", "../../etc"]


def _open(key, text):
    """The state the link ``?key=text`` opens, or the message refusing it."""
    try:
        return from_query("?" + urllib.parse.urlencode({key: text}))
    except StateError as error:
        return str(error)


@pytest.mark.parametrize("key", KEYS)
def test_every_key_with_any_hostile_text_opens_or_is_refused_with_a_message(key):
    for text in HOSTILE:
        opened = _open(key, text)
        assert isinstance(opened, (ViewState, str)), (key, text)
        if isinstance(opened, str):
            assert len(opened) < 12_000, "a message echoes at most the text it refuses"


@pytest.mark.parametrize("key, message", [
    ("k", "k must be a number of at most 18 digits; got one of 400."),
    ("noise", "noise σ must be a number of at most 18 digits; got one of 400."),
    ("d.stretch", "swissroll: stretch must be a number of at most 18 digits; got one of 400."),
    ("pair.random_state", "pair: random state of run B must be a number of at most 18 digits; got one of 400."),
])
def test_a_number_of_400_digits_is_refused_by_its_length(key, message):
    assert message in _open(key, "9" * 400)


def test_noise_near_the_largest_float_is_refused_with_the_controls_bound():
    assert _open("noise", "1e308") == "noise σ must lie in [0.0, 1000.0]; got 1e+308."
    assert _open("noise", "1e306").startswith("noise σ must lie in [0.0, 1000.0]")
    assert _open("noise", "1000").data.noise == 1000.0


def test_an_unknown_tour_step_is_refused_naming_the_steps():
    assert _open("tour", "no-such-step").startswith("tour: no step 'no-such-step'; the steps are ")


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(key=st.sampled_from(KEYS), text=st.text(max_size=40) | st.integers(-10**500, 10**500).map(str)
       | st.floats().map(repr))
def test_any_text_under_any_key_opens_or_is_refused(key, text):
    assert isinstance(_open(key, text), (ViewState, str))
