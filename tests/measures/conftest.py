"""Shared fixtures of the ``measures`` tests: the swiss roll of SPEC §1 (built here so that these
tests do not depend on ``datasets``), a curved data set with a distorted embedding, NQ §III-A's
rectangle, and a switch to pivot-sampled graph sweeps."""

import importlib

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


@pytest.fixture
def smooth_embedding():
    """Factory ``smooth_embedding(n, q, d, seed, *, curvature, input_noise, output_noise) -> (X, Y)``.

    A curved data set ``X = tanh(U A) + noise`` (q columns, U uniform in [-1, 1]^d) and a
    distorted, non-isometric embedding ``Y = U + curvature U² + noise`` of it: nothing is exact.
    """

    def build(n_samples, n_features, n_components, seed, *, curvature=0.3, input_noise=0.01, output_noise=0.05):
        rng = np.random.default_rng(seed)
        latent = rng.uniform(-1.0, 1.0, size=(n_samples, n_components))
        X = np.tanh(latent @ rng.normal(size=(n_components, n_features))) + input_noise * rng.normal(
            size=(n_samples, n_features))
        Y = latent + curvature * latent**2 + output_noise * rng.normal(size=(n_samples, n_components))
        return X, Y

    return build


@pytest.fixture
def nq_rectangle():
    """NQ §III-A: 100 points uniform in [-2, 2] x [-1, 1] (X) and their normalized copy Y.

    Y is X centred, rotated to its principal axes and scaled so that ``Y'Y = I`` (rows are points;
    NQ writes ``YY' = I`` with points as columns), hence ``X = Y S R' + t`` exactly.
    """
    rng = np.random.default_rng(0)
    X = rng.uniform(-1.0, 1.0, size=(100, 2)) * [2.0, 1.0]
    centred = X - X.mean(axis=0)
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred)
    return X, centred @ eigenvectors / np.sqrt(eigenvalues)


@pytest.fixture
def pivot_sampling(monkeypatch):
    """``pivot_sampling(exact_up_to, n_pivots)``: graph sweeps above ``exact_up_to`` points start
    from ``n_pivots`` random sources (the module constants of ``measures.geodesics``, patched)."""
    geodesics = importlib.import_module("measures.geodesics")

    def switch(exact_up_to, n_pivots):
        monkeypatch.setattr(geodesics, "EXACT_UP_TO", exact_up_to)
        monkeypatch.setattr(geodesics, "PIVOT_SOURCES", n_pivots)

    return switch
