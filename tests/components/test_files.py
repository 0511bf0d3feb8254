"""The upload box's decoding, without a browser."""

import doctest

import components.files


def test_doctests():
    assert doctest.testmod(components.files).failed == 0
