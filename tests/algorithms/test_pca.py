"""Tests of ``algorithms/pca.py``: PCA is exact on flat data placed linearly (GR Lemma 1, Table 2)."""

import numpy as np
import pytest
from scipy.stats import ortho_group

import algorithms
import datasets
import measures


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pca_recovers_a_strip_placed_isometrically_in_r5(seed, rigid_misfit):
    strip = datasets.load("strip", 500, random_state=seed)
    embedding_map = ortho_group.rvs(5, random_state=seed)[:2]  # orthonormal rows: R² → R⁵
    X = strip.truth @ embedding_map + np.arange(5.0)
    Y = algorithms.embed("pca", X, n_neighbors=10)
    assert measures.procrustes(X, Y, 10, variant="normalized") < 1e-10
    assert rigid_misfit(Y, strip.truth) < 1e-10


def test_pca_is_blind_to_rigid_motions_of_the_input(small_roll):
    # Principal coordinates are defined up to column signs, which the sign rule fixes.
    rotation = ortho_group.rvs(3, random_state=5)
    Y = algorithms.embed("pca", small_roll.X, n_neighbors=8)
    np.testing.assert_allclose(algorithms.embed("pca", small_roll.X @ rotation - 3.0, n_neighbors=8), Y, atol=1e-9)
    np.testing.assert_allclose(algorithms.embed("pca", -small_roll.X, n_neighbors=8), Y, atol=1e-9)


def test_pca_ignores_k(small_roll):
    assert np.array_equal(algorithms.embed("pca", small_roll.X, n_neighbors=1),
                          algorithms.embed("pca", small_roll.X, n_neighbors=399))


def test_pca_keeps_the_top_variances(small_roll):
    # The output's column variances are the top eigenvalues of the input covariance.
    Y = algorithms.embed("pca", small_roll.X, n_neighbors=8, n_components=3)
    eigenvalues = np.linalg.eigvalsh(np.cov(small_roll.X, rowvar=False, bias=True))[::-1]
    np.testing.assert_allclose(Y.var(axis=0), eigenvalues, rtol=1e-10)
