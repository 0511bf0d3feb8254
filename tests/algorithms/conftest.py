"""Shared fixtures of the ``algorithms`` tests: small seeded samples and a way to swap a registry entry."""

import dataclasses

import numpy as np
import pytest
from scipy.linalg import orthogonal_procrustes

import algorithms
import datasets
from algorithms import registry


def pytest_configure(config):
    # Registered here too, so that the marker is known when these tests run on their own (``pytest
    # tests/algorithms``); ``-m "not slow"`` leaves out the tests that take seconds each.
    config.addinivalue_line("markers", "slow: takes seconds or more; left out by -m 'not slow', run by CI")


@pytest.fixture(scope="session")
def small_roll():
    """A 400-point swiss roll (seed 0); k = 8 keeps its neighbour graph connected and short-cut free."""
    return datasets.load("swissroll", 400, random_state=0)


@pytest.fixture(scope="session")
def default_embedding(small_roll):
    """``default_embedding(name)``: the algorithm's default embedding of ``small_roll`` at k = 8, computed once
    per process and read-only (test_common.py checks every entry's; test_tsne.py judges t-SNE's, a few seconds
    each, on the same pytest-xdist worker: their xdist_group)."""
    computed = {}

    def embedding(name):
        if name not in computed:
            computed[name] = algorithms.embed(name, small_roll.X, n_neighbors=8)
            computed[name].flags.writeable = False
        return computed[name]

    return embedding


@pytest.fixture
def replace_entry(monkeypatch):
    """Factory ``replace_entry(name, **changes) -> AlgorithmSpec``: a modified copy of a registry entry,
    registered under the same name for the duration of one test (the real entry is restored after)."""

    def replace(name, **changes):
        entry = dataclasses.replace(algorithms.spec(name), **changes)
        monkeypatch.setitem(registry._ALGORITHMS._entries, name, entry)  # register() refuses a second entry
        return entry

    return replace


@pytest.fixture(scope="session")
def two_clusters():
    """Two Gaussian blobs in R³ (60 and 40 points, unit spread) 100 apart: no kNN edge joins them."""
    rng = np.random.default_rng(0)
    return np.vstack([rng.standard_normal((60, 3)), 100.0 + rng.standard_normal((40, 3))])


def _rigid_misfit(Y, Z):
    """Relative residual ``||(Y - ȳ) R - (Z - z̄)||_F / ||Z - z̄||_F`` after the best rotation or reflection R.

    No scaling is allowed, so a wrong scale counts as misfit (unlike ``scipy.spatial.procrustes``).
    """
    Yc, Zc = Y - Y.mean(axis=0), Z - Z.mean(axis=0)
    rotation, _ = orthogonal_procrustes(Yc, Zc)
    return np.linalg.norm(Yc @ rotation - Zc) / np.linalg.norm(Zc)


@pytest.fixture(scope="session")
def rigid_misfit():
    """The function ``rigid_misfit(Y, Z)``: Y's relative distance to Z after the best rigid motion."""
    return _rigid_misfit


@pytest.fixture(scope="session")
def helix():
    """``(t, X)``: 300 nearly evenly spaced points of the helix ``X = (cos t, sin t, 0.2 t)``,
    t in [0, 1.5π] (three quarters of a turn), jittered by < 1% of the spacing."""
    rng = np.random.default_rng(0)
    t = np.linspace(0.0, 1.5 * np.pi, 300) + rng.uniform(-0.003, 0.003, 300)
    return t, np.column_stack([np.cos(t), np.sin(t), 0.2 * t])
