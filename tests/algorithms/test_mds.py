"""Tests of ``algorithms/mds.py``: classical scaling of Euclidean distances is PCA (lecture), at the input's
scale, and keeps the distances of flat data exactly."""

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from scipy.stats import ortho_group

import algorithms
import datasets


def test_classical_mds_equals_pca(small_roll):
    # B = -½ H D² H = (HX)(HX)' for Euclidean D: its top eigenvectors scaled by √λ are the PCA scores.
    for n_components in (1, 2, 3):
        mds = algorithms.embed("mds", small_roll.X, n_neighbors=8, n_components=n_components)
        pca = algorithms.embed("pca", small_roll.X, n_neighbors=8, n_components=n_components)
        np.testing.assert_allclose(mds, pca, atol=1e-8)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_classical_mds_keeps_the_distances_of_flat_data(seed):
    # A strip placed isometrically in R⁵ spans a plane: two coordinates reproduce every distance.
    strip = datasets.load("strip", 300, random_state=seed)
    X = strip.truth @ ortho_group.rvs(5, random_state=seed)[:2] - 4.0
    Y = algorithms.embed("mds", X, n_neighbors=5)
    np.testing.assert_allclose(pdist(Y), pdist(strip.truth), atol=1e-8)


def test_classical_mds_is_global_and_isometric():
    entry = algorithms.spec("mds")
    assert (not entry.uses_neighbors and entry.output_scale == "isometric"
            and entry.memory_bytes(100, 5, 2) >= 8 * 100**2)
