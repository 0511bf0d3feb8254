"""Shared fixtures of the ``measures`` tests: the swiss roll of SPEC §1, built here so that these
tests do not depend on ``datasets``."""

import numpy as np
import pytest


def _arc_length(t):
    """Arc length of the spiral ``(t cos t, t sin t)`` from 0 to ``t``: ½(t√(1+t²) + asinh t)."""
    return 0.5 * (t * np.sqrt(1.0 + t * t) + np.arcsinh(t))


@pytest.fixture
def swiss_roll():
    """Factory ``swiss_roll(n, seed) -> (X, arc_length_chart, raw_chart)``.

    t ~ U[1.5π, 4.5π], h ~ U[0, 21], X = (t cos t, h, t sin t) (SPEC §1). ``arc_length_chart`` is
    the isometric truth (s(t) − s(1.5π), h); ``raw_chart`` is (t, h), which is not isometric.
    """

    def build(n_samples, seed):
        rng = np.random.default_rng(seed)
        t = rng.uniform(1.5 * np.pi, 4.5 * np.pi, n_samples)
        h = rng.uniform(0.0, 21.0, n_samples)
        X = np.column_stack([t * np.cos(t), h, t * np.sin(t)])
        arc_length_chart = np.column_stack([_arc_length(t) - _arc_length(1.5 * np.pi), h])
        return X, arc_length_chart, np.column_stack([t, h])

    return build
