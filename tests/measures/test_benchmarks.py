"""The surveys' measures against their papers' definitions, written out as their authors computed them."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist
from scipy.stats import spearmanr, ortho_group
from sklearn.neighbors import KNeighborsClassifier, NearestNeighbors

from measures import (
    MeasureError,
    class_neighbour_preservation,
    distance_correlation_on_a_subset,
    distance_spearman,
    evaluate,
    neighbourhood_agreement,
    neighbourhood_hit,
)
from measures import distances as distances_module
from measures.seeding import check_random_state


@pytest.fixture
def labelled():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 8, size=500)
    centres = 3.0 * rng.normal(size=(8, 5))  # classes apart in 5-D, some of them overlapping in the projection
    X = rng.normal(size=(500, 5)) + centres[labels]
    Y = X[:, :2] + 0.5 * rng.normal(size=(500, 2))
    return X, Y, labels


@pytest.mark.parametrize("k", [2, 3, 7])
def test_neighbourhood_hit_is_espadoto_et_al_s_code(labelled, k):
    """Their ``neighborhood_hit``: the fitted points' ``kneighbors`` (the point itself first), labels compared."""
    _, Y, labels = labelled
    neighbors = KNeighborsClassifier(n_neighbors=k).fit(Y, labels).kneighbors(Y, return_distance=False)
    expected = np.mean(np.mean(labels[neighbors] == np.tile(labels.reshape((-1, 1)), k), axis=1))
    assert neighbourhood_hit(Y, labels, k) == pytest.approx(expected, abs=1e-15)


def test_knc_is_the_share_of_class_mean_neighbours_written_out(labelled):
    X, Y, labels = labelled
    classes = np.unique(labels)
    input_means = np.array([X[labels == c].mean(axis=0) for c in classes])
    output_means = np.array([Y[labels == c].mean(axis=0) for c in classes])
    k, kept = 2, 0
    for c in range(len(classes)):  # each class mean's k nearest other means, in both spaces
        near_in = set(np.argsort(cdist(input_means[[c]], input_means)[0])[1:k + 1])
        near_out = set(np.argsort(cdist(output_means[[c]], output_means)[0])[1:k + 1])
        kept += len(near_in & near_out)
    assert class_neighbour_preservation(X, Y, labels, k) == pytest.approx(kept / (k * len(classes)), abs=1e-15)


def test_knc_is_one_for_a_similar_output_and_refuses_more_neighbours_than_classes(labelled):
    X, _, labels = labelled
    rotated = 3.0 * X @ ortho_group.rvs(5, random_state=1) - 4.0
    assert class_neighbour_preservation(X, rotated, labels, 3) == 1.0  # k < c - 1: not 1 by itself
    with pytest.raises(MeasureError, match="at most their number minus one"):
        class_neighbour_preservation(X, rotated, labels, 8)


def test_cpd_is_spearman_of_the_drawn_points_distances_and_the_shepard_correlation_with_all(labelled):
    X, Y, _ = labelled
    chosen = np.sort(check_random_state(3).choice(500, 100, replace=False))
    expected = spearmanr(pdist(X[chosen]), pdist(Y[chosen]))[0]
    assert distance_correlation_on_a_subset(X, Y, n_points=100, random_state=3) == pytest.approx(expected, abs=1e-12)
    every = distance_correlation_on_a_subset(X, Y)  # 1000 > 500: every point
    assert every == pytest.approx(spearmanr(pdist(X), pdist(Y))[0], abs=1e-12)
    assert every == pytest.approx(distance_spearman(X, Y, 10, geodesic=False), abs=1e-12)


@pytest.mark.parametrize("k", [1, 10, 30])
def test_knn_is_kobak_and_berens_share_of_kept_neighbours_and_one_minus_the_disagreement(labelled, k):
    """Kobak & Berens (2019): KNN, "the fraction of k-nearest neighbours in the original high-dimensional
    data that are preserved as k-nearest neighbours in the embedding", each space's exact k nearest
    other points (scikit-learn's search, as their code); the card shows it as 1 − the disagreement."""
    X, Y, _ = labelled

    def neighbours(points):
        return NearestNeighbors(n_neighbors=k).fit(points).kneighbors(return_distance=False)

    kept = [len(set(a) & set(b)) for a, b in zip(neighbours(X), neighbours(Y))]
    assert np.mean(kept) / k == pytest.approx(1.0 - neighbourhood_agreement(X, Y, k), abs=1e-15)


def test_shepard_above_its_pair_budget_is_spearman_over_every_pair_of_its_sampled_points(monkeypatch, labelled):
    """Above SPEARMAN_PAIRS pairs the Shepard correlation ranks the ordered pairs (s, j), j ≠ s, of a seeded
    sample of points s, and says so; written out with scipy on the same sample."""
    X, Y, _ = labelled
    monkeypatch.setattr(distances_module, "SPEARMAN_PAIRS", 20_000)  # 500 points: 124 750 pairs, 40 sources
    sources = distances_module.spearman_sources(len(X), random_state=4)
    assert sources is not None and sources.size == 40
    others = np.arange(len(X))[None, :] != sources[:, None]
    expected = spearmanr(cdist(X[sources], X)[others], cdist(Y[sources], Y)[others])[0]
    result = evaluate(X, Y, 7, which=["shepard"], random_state=4)
    assert result.mean["shepard"] == pytest.approx(expected, abs=1e-12)
    assert "40 random points" in result.approximations["shepard"]


def test_labels_are_checked(labelled):
    _, Y, labels = labelled
    with pytest.raises(MeasureError, match="one value per point"):
        neighbourhood_hit(Y, labels[:-1])
    with pytest.raises(MeasureError, match="The point itself is one of its k"):
        neighbourhood_hit(Y, labels, 1)


def test_the_run_s_hit_and_knc_are_the_functions_at_the_run_s_k_and_kb_s_four(labelled):
    X, Y, labels = labelled
    result = evaluate(X, Y, 7, labels=labels, which=["neighbourhood_hit", "class_neighbour_preservation"])
    neighbors = KNeighborsClassifier(n_neighbors=7).fit(Y, labels).kneighbors(Y, return_distance=False)
    np.testing.assert_allclose(result.per_point["neighbourhood_hit"], np.mean(labels[neighbors] == labels[:, None], 1),
                               rtol=0, atol=1e-15)
    assert result.mean["neighbourhood_hit"] == pytest.approx(neighbourhood_hit(Y, labels, 7), abs=1e-15)
    assert result.mean["class_neighbour_preservation"] == class_neighbour_preservation(X, Y, labels, 4)
    # Two classes: each mean has one other, kept by any output.
    two = evaluate(X, Y, 7, labels=labels % 2, which=["class_neighbour_preservation"])
    assert two.mean["class_neighbour_preservation"] == 1.0
