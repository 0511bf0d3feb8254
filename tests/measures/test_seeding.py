"""Tests of ``measures/seeding.py``: the one seed helper."""

import numpy as np
import pytest

from measures import ProcrustesLabError, SeedError, check_random_state, seed_int


def test_int_seed_gives_a_reproducible_generator():
    first, second = check_random_state(42), check_random_state(42)
    assert isinstance(first, np.random.Generator)
    np.testing.assert_array_equal(first.normal(size=5), second.normal(size=5))
    np.testing.assert_array_equal(check_random_state(np.int64(42)).normal(size=5),
                                  np.random.default_rng(42).normal(size=5))


def test_generator_is_passed_through_unchanged():
    rng = np.random.default_rng(0)
    assert check_random_state(rng) is rng


@pytest.mark.parametrize("seed", [None, -1, 1.5, True, "3", np.random.RandomState(0)])
def test_bad_seed_raises(seed):
    with pytest.raises(SeedError, match="seed must be a non-negative int or a numpy.random.Generator; got"):
        check_random_state(seed)
    assert issubclass(SeedError, ProcrustesLabError) and issubclass(SeedError, ValueError)


def test_seed_int_is_a_deterministic_31_bit_int():
    values = [seed_int(s) for s in range(50)]
    assert values == [seed_int(s) for s in range(50)]
    assert all(type(v) is int and 0 <= v < 2**31 - 1 for v in values)
    assert len(set(values)) == 50
