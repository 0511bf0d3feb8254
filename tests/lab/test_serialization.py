"""Stored bytes: exact round trips, no pickle, and a checksum that catches any altered byte."""

import doctest
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lab.store.serialization
from lab.store.serialization import CorruptEntryError, decode, encode, seal, unseal

ARRAYS = hnp.arrays(st.sampled_from([np.float64, np.float32, np.int64, np.uint8, np.bool_]),
                    hnp.array_shapes(min_dims=0, max_dims=3, max_side=5))
LEAVES = st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.floats(allow_nan=False) | st.text(max_size=8)
VALUES = st.recursive(LEAVES | ARRAYS, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=10)


def same(a, b):
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[key], b[key]) for key in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b)


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_any_value_round_trips_exactly(value):
    assert same(decode(encode(value)), value)


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=1, max_size=200), st.data())
def test_any_altered_byte_is_caught(payload, data):
    sealed = bytearray(seal(payload))
    position = data.draw(st.integers(0, len(sealed) - 1))
    sealed[position] ^= data.draw(st.integers(1, 255))
    with pytest.raises(CorruptEntryError):
        unseal(bytes(sealed))


def test_objects_that_would_need_pickle_are_refused():
    with pytest.raises(TypeError, match="pickle"):
        encode({"bad": np.array([object()], dtype=object)})
    with pytest.raises(TypeError, match="cannot store a set"):
        encode({1, 2})


def test_a_pickled_payload_with_a_valid_checksum_is_still_never_unpickled():
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"evil": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(CorruptEntryError):
        decode(seal(buffer.getvalue()))


def test_doctests():
    assert doctest.testmod(lab.store.serialization).failed == 0
