"""Tests of ``measures/labels.py``: label-trustworthiness / -continuity and the silhouette."""

import numpy as np
import pytest
from sklearn.metrics import silhouette_samples, silhouette_score

from measures import MeasureError, label_trust_continuity, silhouette
from measures.labels import distance_consistency


def blobs(seed, spread=0.3):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]])
    labels = np.repeat([0, 1, 2], 40)
    return centres[labels] + spread * rng.normal(size=(120, 2)), labels


def test_distance_consistency_worked_by_hand():
    # Centroids 0.5 and 10: the point at 6 is nearer the second class's centroid.
    points = np.array([[0.0], [1.0], [6.0], [10.0], [14.0]])
    codes = np.array([0, 0, 0, 1, 1])
    # Class 0 centroid 7/3, class 1 centroid 12: 0 and 1 and 6 are nearer 7/3; 10 and 14 nearer 12.
    assert distance_consistency(points, codes) == 1.0
    assert distance_consistency(points, np.array([0, 1, 0, 1, 1])) == pytest.approx(3 / 5)


def test_label_trustworthiness_drops_when_classes_mix_and_continuity_when_they_split():
    X, labels = blobs(0)
    assert label_trust_continuity(X, 3.0 * X @ [[0.0, 1.0], [-1.0, 0.0]], labels) == (1.0, 1.0)
    mixed = np.random.default_rng(1).normal(size=X.shape)  # classes thrown together
    trust, continuity = label_trust_continuity(X, mixed, labels)
    assert trust < 0.8 and continuity == 1.0
    # The reverse: an input of mixed classes, an output that separates them.
    trust, continuity = label_trust_continuity(mixed, X, labels)
    assert trust == 1.0 and continuity < 0.8


def test_silhouette_is_scikit_learns():
    X, labels = blobs(2, spread=1.5)
    value, per_point = silhouette(X, labels, per_point=True)
    assert value == pytest.approx(silhouette_score(X, labels), rel=1e-13)
    np.testing.assert_allclose(per_point, silhouette_samples(X, labels), rtol=1e-13)
    assert silhouette(X, np.array(["a", "b", "c"])[labels]) == pytest.approx(value, rel=1e-15)


def test_bad_labels_raise():
    X, labels = blobs(3)
    with pytest.raises(MeasureError, match="need at least 2 classes; got 1"):
        silhouette(X, np.zeros(120))
    with pytest.raises(MeasureError, match=r"one value per point: shape \(120,\); got \(3,\)"):
        label_trust_continuity(X, X, labels[:3])
    with pytest.raises(MeasureError, match="NaN or infinite"):
        silhouette(X, np.where(labels == 0, np.nan, labels))
    # A class of its own for every point (an id column taken for labels): scikit-learn's ValueError, ours typed.
    with pytest.raises(MeasureError, match="fewer classes than points"):
        silhouette(X, np.arange(120))
