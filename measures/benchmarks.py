"""Measures the dimensionality-reduction surveys report, for setting a run beside their tables.

Espadoto et al.'s survey [EMK] reports trustworthiness and continuity (:func:`measures.trustworthiness`,
:func:`measures.continuity`, k = 7), normalized stress (:func:`measures.stress`), the Shepard
diagram's Spearman correlation (:func:`measures.distance_spearman` with ``geodesic=False``: the same
statistic of all pairwise distances) and the neighbourhood hit (:func:`neighbourhood_hit`, here).
Kobak & Berens [KB] report KNN, the share of each point's k = 10 input neighbours kept in the output
(``1 -`` :func:`measures.neighbourhood_agreement` at k = 10), and KNC and CPD (here:
:func:`class_neighbour_preservation`, :func:`distance_correlation_on_a_subset`).

References
----------
.. [EMK] M. Espadoto, R. M. Martins, A. Kerren, N. S. T. Hirata and A. C. Telea, "Toward a
   quantitative survey of dimension reduction techniques", IEEE TVCG 27 (2021) 2153-2173.
.. [KB] D. Kobak and P. Berens, "The art of using t-SNE for single-cell transcriptomics", Nature
   Communications 10 (2019) 5416 (KNN, KNC, CPD; Methods).
"""

import numpy as np
import numpy.typing as npt
from scipy.spatial.distance import pdist

from .distances import spearman_from_rows
from .errors import MeasureError
from .labels import check_labels
from .neighbors import check_pair, check_points, nearest_neighbors
from .parameters import check_integer
from .ranks import shared_neighbour_counts
from .seeding import check_random_state

__all__ = ["CPD_POINTS", "KNC_NEIGHBORS", "class_neighbour_preservation", "distance_correlation_on_a_subset",
           "neighbourhood_hit", "neighbourhood_hit_values"]

# [KB] Methods: "Spearman correlation between pairwise distances ... of 1000 randomly chosen points".
CPD_POINTS = 1000
# [KB]'s k for KNC over MNIST's ten classes; a run with fewer classes takes their number minus one.
KNC_NEIGHBORS = 4


def neighbourhood_hit_values(Y: npt.ArrayLike, labels: npt.ArrayLike, n_neighbors: int = 3) -> np.ndarray:
    """Each point's share of its ``n_neighbors`` nearest output points that carry its label ([EMK]); their
    mean is :func:`neighbourhood_hit`, whose parameters these are. Returns an ndarray of shape (n_samples,)."""
    Y = check_points(Y, "Y")
    codes, _ = check_labels(labels, Y.shape[0])
    k = check_integer(n_neighbors, "n_neighbors", 2, Y.shape[0], error=MeasureError,
                      hint="The point itself is one of its k.")
    neighbors = nearest_neighbors(Y, k - 1)  # the point, then its k - 1 nearest
    return np.mean(codes[neighbors] == codes[:, None], axis=1)


def neighbourhood_hit(Y: npt.ArrayLike, labels: npt.ArrayLike, n_neighbors: int = 3) -> float:
    """Share of each point's ``n_neighbors`` nearest output points that carry its label, averaged ([EMK]).

    Parameters
    ----------
    Y : array-like of shape (n_samples, d)
    labels : array-like of shape (n_samples,)
    n_neighbors : int, default=3
        [EMK]'s k. As in their code (scikit-learn's ``KNeighborsClassifier.kneighbors`` on the
        fitted points), the point itself is the first of its k: it counts as one hit.

    Returns
    -------
    float
        In [1/k, 1]; higher is better.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.r_[np.zeros((5, 2)) + np.arange(5)[:, None], 100 + np.arange(5)[:, None] * np.ones((5, 2))]
    >>> neighbourhood_hit(Y, [0] * 5 + [1] * 5, 3)
    1.0
    """
    return float(np.mean(neighbourhood_hit_values(Y, labels, n_neighbors)))


def _class_means(points, codes, n_classes):
    sums = np.zeros((n_classes, points.shape[1]))
    np.add.at(sums, codes, points)
    return sums / np.bincount(codes, minlength=n_classes)[:, None]


def class_neighbour_preservation(X: npt.ArrayLike, Y: npt.ArrayLike, labels: npt.ArrayLike,
                                 n_neighbors: int = KNC_NEIGHBORS) -> float:
    """KNC ([KB]): share of each class mean's ``n_neighbors`` nearest class means kept in the output.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    labels : array-like of shape (n_samples,)
    n_neighbors : int, default=4
        [KB]'s k for ten classes (MNIST); at most the number of classes minus one.

    Returns
    -------
    float
        ``(1 / (c k)) Σ_c |N_k(μ_c^X) ∩ N_k(μ_c^Y)|`` over the c classes, ``μ_c`` a class's mean in
        each space; in [0, 1], higher is better.
    """
    X, Y = check_pair(X, Y)
    codes, n_classes = check_labels(labels, X.shape[0])
    k = check_integer(n_neighbors, "n_neighbors", 1, n_classes - 1, error=MeasureError,
                      hint="KNC compares classes: k is at most their number minus one.")
    input_means, output_means = _class_means(X, codes, n_classes), _class_means(Y, codes, n_classes)
    shared = shared_neighbour_counts(nearest_neighbors(input_means, k)[:, 1:],
                                     nearest_neighbors(output_means, k)[:, 1:])
    return float(shared.sum() / (k * n_classes))


def distance_correlation_on_a_subset(X: npt.ArrayLike, Y: npt.ArrayLike, *, n_points: int = CPD_POINTS,
                                     random_state: "int | np.random.Generator" = 0) -> float:
    """CPD ([KB]): Spearman's rho of the pairwise distances of ``n_points`` seeded random points.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    n_points : int, default=1000
        Points drawn without replacement (all of them when there are fewer).
    random_state : int or numpy.random.Generator, default=0

    Returns
    -------
    float
        In [-1, 1]; higher is better. With every point drawn it is the Shepard diagram's correlation
        of [EMK] (:func:`measures.distance_spearman` with ``geodesic=False``).
    """
    X, Y = check_pair(X, Y)
    count = check_integer(n_points, "n_points", 3, None, error=MeasureError)
    n_samples = X.shape[0]
    chosen = (np.arange(n_samples) if count >= n_samples
              else np.sort(check_random_state(random_state).choice(n_samples, count, replace=False)))
    return spearman_from_rows(pdist(X[chosen]), pdist(Y[chosen]))
