"""Measures that read class labels: label-trustworthiness and label-continuity (Jeon et al.) and the
silhouette of the output's classes.

Labels are one integer or string per point (digits' classes, a label column of an upload);
:func:`check_labels` turns them into class codes 0..c-1 and refuses fewer than two classes.

References
----------
.. [JKLS] H. Jeon, Y.-H. Kuo, M. Aupetit, K.-L. Ma and J. Seo, "Classes are not clusters: improving
   label-based evaluation of dimensionality reduction", IEEE TVCG 30 (2024) (label-T&C).
.. [R] P. J. Rousseeuw, "Silhouettes: a graphical aid to the interpretation and validation of
   cluster analysis", J. Comput. Appl. Math. 20 (1987) 53-65.
"""

import numpy as np
import numpy.typing as npt
from sklearn.metrics import silhouette_samples

from .errors import MeasureError
from .neighbors import check_pair, check_points, power_of_two_scaled
from .seeding import check_random_state

__all__ = ["SILHOUETTE_EXACT_UP_TO", "check_labels", "distance_consistency", "label_trust_continuity",
           "silhouette"]

SILHOUETTE_EXACT_UP_TO = 20_000  # all-pairs silhouette: O(n^2 d); above, a seeded sample of this size


def check_labels(labels, n_samples):
    """Class codes 0..c-1 of ``labels`` (one per point), and c; MeasureError on a wrong length,
    missing values or fewer than two classes."""
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.shape[0] != n_samples:
        raise MeasureError(f"labels must hold one value per point: shape ({n_samples},); got {labels.shape}.")
    if labels.dtype.kind == "f" and not np.isfinite(labels).all():
        raise MeasureError("labels contain NaN or infinite values; label every point or drop the unlabelled ones.")
    classes, codes = np.unique(labels, return_inverse=True)
    if classes.size < 2:
        raise MeasureError(f"label measures need at least 2 classes; got {classes.size}.")
    return codes.astype(np.int64), classes.size


def distance_consistency(points, codes):
    """Share of points whose nearest class centroid is their own class's (Sips et al.'s DSC).

    Parameters
    ----------
    points : ndarray of shape (m, p)
    codes : ndarray of shape (m,), int
        Class codes 0..c-1.
    """
    n_classes = int(codes.max()) + 1
    centroids = np.stack([points[codes == c].mean(axis=0) for c in range(n_classes)])
    squared = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return float(np.mean(np.argmin(squared, axis=1) == codes))


def label_trust_continuity(X: npt.ArrayLike, Y: npt.ArrayLike, labels: npt.ArrayLike) -> "tuple[float, float]":
    """Label-trustworthiness and label-continuity of an embedding (Jeon et al., with DSC).

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    labels : array-like of shape (n_samples,)

    Returns
    -------
    (float, float)
        Both in [0, 1], 1 when every pair of classes is as separated in the output as in the
        input; higher is better.

    Notes
    -----
    For every pair of classes (a, b), the distance consistency (share of the pair's points nearer
    their own class centroid than the other's) is computed in X and in Y:

    .. math::

        LT = 1 - \\frac{\\sum_{a<b} \\max(DSC^X_{ab} - DSC^Y_{ab}, 0)}{c(c-1)/2}, \\qquad
        LC = 1 - \\frac{\\sum_{a<b} \\max(DSC^Y_{ab} - DSC^X_{ab}, 0)}{c(c-1)/2}:

    LT drops where the output separates classes less than the input (classes that were apart now
    mix), LC where it separates them more. As ZADU 0.5.4's ``label_trustworthiness_and_continuity``
    (``cvm="dsc"``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.r_[np.zeros((20, 2)), np.ones((20, 2))] + np.random.default_rng(0).normal(0, 0.1, (40, 2))
    >>> label_trust_continuity(X, 5.0 * X, np.repeat([0, 1], 20))
    (1.0, 1.0)
    """
    X, Y = check_pair(X, Y)
    codes, n_classes = check_labels(labels, X.shape[0])
    X, Y = power_of_two_scaled(X)[0], power_of_two_scaled(Y)[0]
    lost = gained = 0.0
    for a in range(n_classes):
        for b in range(a + 1, n_classes):
            members = (codes == a) | (codes == b)
            pair_codes = (codes[members] == b).astype(np.int64)
            in_x = distance_consistency(X[members], pair_codes)
            in_y = distance_consistency(Y[members], pair_codes)
            lost += max(in_x - in_y, 0.0)
            gained += max(in_y - in_x, 0.0)
    pairs = n_classes * (n_classes - 1) / 2
    return float(1.0 - lost / pairs), float(1.0 - gained / pairs)


def silhouette(Y: npt.ArrayLike, labels: npt.ArrayLike, *, per_point: bool = False,
               random_state: "int | np.random.Generator" = 0) -> "float | tuple[float, np.ndarray]":
    """Silhouette of the labelled classes in the output (Rousseeuw 1987): are classes kept apart?

    Parameters
    ----------
    Y : array-like of shape (n_samples, d)
    labels : array-like of shape (n_samples,)
    per_point : bool, default=False
    random_state : int or numpy.random.Generator, default=0
        Draws the sample above :data:`SILHOUETTE_EXACT_UP_TO` points.

    Returns
    -------
    float, or (float, ndarray of shape (n_samples,))
        In [-1, 1], higher is better: ``(b_i - a_i) / max(a_i, b_i)`` with ``a_i`` the mean distance
        to the own class and ``b_i`` to the nearest other class; its mean is
        ``sklearn.metrics.silhouette_score``. Above :data:`SILHOUETTE_EXACT_UP_TO` points it is
        computed on a seeded sample of that size (per point NaN off the sample).

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.r_[np.zeros((10, 2)), np.full((10, 2), 9.0)] + np.random.default_rng(0).uniform(0, 1, (20, 2))
    >>> silhouette(Y, np.repeat([0, 1], 10)) > 0.8
    True
    """
    Y = check_points(Y, "Y")
    codes, _ = check_labels(labels, Y.shape[0])
    Y = power_of_two_scaled(Y)[0]
    values = np.full(Y.shape[0], np.nan)
    sample = np.arange(Y.shape[0])
    if Y.shape[0] > SILHOUETTE_EXACT_UP_TO:
        sample = np.sort(check_random_state(random_state).choice(Y.shape[0], SILHOUETTE_EXACT_UP_TO, replace=False))
    if not 2 <= np.unique(codes[sample]).size < sample.size:
        raise MeasureError("the silhouette needs at least 2 classes, and fewer classes than points, among the points "
                           "it reads (a point alone in its class has no silhouette's a).")
    values[sample] = silhouette_samples(Y[sample], codes[sample])
    mean = float(np.mean(values[sample]))
    return (mean, values) if per_point else mean
