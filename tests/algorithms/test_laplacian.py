"""Tests of ``algorithms/laplacian.py``: Laplacian eigenmaps order a curve (its Fiedler vector is monotone
along a path-like graph) and nest across dimensions."""

import numpy as np
from scipy.stats import spearmanr

import algorithms


def test_one_dimensional_eigenmap_orders_a_curve(helix):
    t, X = helix
    Y = algorithms.embed("laplacian", X, n_neighbors=6, n_components=1)[:, 0]
    assert abs(spearmanr(Y, t)[0]) > 0.999


def test_eigenmap_coordinates_are_nested_across_dimensions(small_roll):
    one = algorithms.embed("laplacian", small_roll.X, n_neighbors=8, n_components=1)
    two = algorithms.embed("laplacian", small_roll.X, n_neighbors=8)
    np.testing.assert_allclose(one[:, 0], two[:, 0], atol=1e-6)
