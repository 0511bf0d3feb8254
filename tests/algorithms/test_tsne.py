"""Tests of ``algorithms/tsne.py``: both t-SNEs (openTSNE as "tsne", scikit-learn's as "tsne_sklearn") equal
their library's call with the seeded random state, keep neighbourhoods (trustworthiness), and refuse a
perplexity at or above n; openTSNE refuses d > 3 naming the exact-gradient alternative."""

import numpy as np
import pytest
from sklearn.manifold import TSNE, trustworthiness

import algorithms
import measures
from algorithms import EmbeddingError
from algorithms.scaling import fix_signs


def test_matches_scikit_learn_with_the_seeded_random_state(small_roll):
    reference = TSNE(2, perplexity=20.0, init="pca", learning_rate="auto", max_iter=300,
                     random_state=measures.seed_int(4)).fit_transform(small_roll.X)
    Y = algorithms.embed("tsne_sklearn", small_roll.X, n_neighbors=8, random_state=4, perplexity=20.0, max_iter=300)
    np.testing.assert_allclose(Y, fix_signs(reference), rtol=1e-5, atol=1e-4)


def test_opentsne_matches_its_library_with_the_seeded_random_state(small_roll):
    import openTSNE

    reference = openTSNE.TSNE(2, perplexity=20.0, n_iter=50, early_exaggeration_iter=250, neighbors="exact",
                              initialization="pca", random_state=measures.seed_int(4), n_jobs=1).fit(small_roll.X)
    Y = algorithms.embed("tsne", small_roll.X, n_neighbors=8, random_state=4, perplexity=20.0, max_iter=300)
    np.testing.assert_allclose(Y, fix_signs(np.asarray(reference)), rtol=1e-10, atol=1e-10)


@pytest.mark.xdist_group("umap")  # with test_common.py, which computes the same default embeddings
@pytest.mark.parametrize("name", ["tsne", "tsne_sklearn"])
def test_keeps_neighbourhoods(name, small_roll, default_embedding):
    Y = default_embedding(name)
    assert trustworthiness(small_roll.X, Y, n_neighbors=8) > 0.95


def test_opentsne_refuses_more_than_three_dimensions_naming_the_alternative():
    X = np.random.default_rng(0).standard_normal((60, 6))
    with pytest.raises(EmbeddingError, match=r"^openTSNE embeds in at most 3 dimensions; got n_components = 4\. "
                                             r"Choose 'tsne_sklearn' \(exact gradient\)"):
        algorithms.embed("tsne", X, n_neighbors=5, n_components=4, perplexity=10.0)


@pytest.mark.parametrize("name", ["tsne", "tsne_sklearn"])
def test_perplexity_must_stay_below_n(name, small_roll):
    X = small_roll.X[:40]
    with pytest.raises(EmbeddingError, match=r"^t-SNE needs perplexity < n = 40; got 40\. Lower the perplexity or use "
                                             r"more points\.$"):
        algorithms.embed(name, X, n_neighbors=8, perplexity=40.0)
    assert algorithms.embed(name, X, n_neighbors=8, perplexity=10.0, max_iter=250).shape == (40, 2)


def test_more_than_three_dimensions_run_scikit_learns_exact_gradient():
    # Barnes-Hut works in at most 3 output dimensions (scikit-learn refuses 4); above, the entry must run
    # the exact O(n²) gradient: it equals TSNE(method="exact") with the same seed, not just any output.
    X = np.random.default_rng(0).standard_normal((60, 6))
    Y = algorithms.embed("tsne_sklearn", X, n_neighbors=5, n_components=4, random_state=2, perplexity=10.0,
                         max_iter=250)
    options = {"n_components": 4, "perplexity": 10.0, "init": "pca", "learning_rate": "auto", "max_iter": 250,
               "random_state": measures.seed_int(2)}
    np.testing.assert_allclose(Y, fix_signs(TSNE(method="exact", **options).fit_transform(X)), rtol=1e-5, atol=1e-4)
    with pytest.raises(ValueError, match="barnes_hut"):
        TSNE(method="barnes_hut", **options).fit_transform(X)
