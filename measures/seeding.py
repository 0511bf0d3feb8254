"""The one seed helper: every random step of the project draws from a ``numpy.random.Generator``."""

import numbers

import numpy as np

from .errors import SeedError

__all__ = ["check_random_state", "seed_int"]


def check_random_state(seed):
    """Turn ``seed`` into a ``numpy.random.Generator``.

    Parameters
    ----------
    seed : int or numpy.random.Generator
        A non-negative integer seeds a new PCG64 generator; a Generator is returned unchanged, so a
        caller can thread one stream through several steps.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    ProcrustesLabError, ValueError
        If ``seed`` is neither (``None`` is refused: unseeded randomness breaks reproducibility).
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
        return np.random.default_rng(int(seed))
    raise SeedError(f"seed must be a non-negative int or a numpy.random.Generator; got {seed!r}.")


def seed_int(seed):
    """A 31-bit integer drawn from ``seed``, for libraries that want ``random_state=int`` (scikit-learn)."""
    return int(check_random_state(seed).integers(0, 2**31 - 1))

