"""The price of normalization: will a normalized-output algorithm collapse its output? (PN §2, §5)

Laplacian eigenmaps, LLE and LTSA minimize ``Φ(Y) = Σ_i ||W_i Y_i||_F^2`` (PN Eq. 2) under a
normalization constraint (``Cov(Y) = I``). Goldberg, Zakai, Kushnir & Ritov compare two normalized
candidates built from the ground truth: ``Y``, the truth itself whitened (faithful, PN Eq. 9), and
``Z``, a curve that folds the truth's long axis (collapsed, PN Eq. 10). If ``Φ(Y) > Φ(Z)`` the
algorithm prefers something other than the faithful output: a necessary condition for its success
is violated. :func:`collapse_score` then tells whether an actual output collapsed.

References
----------
.. [PN] Y. Goldberg, A. Zakai, D. Kushnir and Y. Ritov, "Manifold learning: the price of
   normalization", J. Mach. Learn. Res. 9 (2008) 1909-1939.
"""

import dataclasses

import numpy as np
import numpy.typing as npt

from .chunks import chunk_slices
from .errors import MeasureError
from .kernels import centred_chunks, local_principal_coordinates
from .neighbors import check_pair, nearest_neighbors, power_of_two_scaled

__all__ = ["COLLAPSE_THRESHOLD", "NORMALIZED_ALGORITHMS", "NormalizationCost", "collapse_score", "is_collapsed",
           "normalization_cost"]

# Algorithm names as in the algorithms registry, with their weight matrices W_i (PN §2).
NORMALIZED_ALGORITHMS = ("laplacian", "lle", "ltsa")
# Below this collapse score an output has collapsed onto a curve along the long axis. Measured
# (tests/measures/test_normalization.py, seeds 0-3, n = 1 500): collapsed outputs (Laplacian
# eigenmaps on a 6 x 1 strip, a noisy 1-D curve, LTSA on strips with noise sigma = 0.01 for L = 4, 6, 8)
# score at most 0.008; faithful ones (the truth, Isomap, LTSA at sigma = 0.003) at least 0.47, and
# half-collapsed LTSA outputs fall between. 0.1 leaves a factor 12 to the collapsed and 4.7 to the
# faithful side, room for the estimator's sampling error (~sqrt(2/n) of the faithful 0.5).
COLLAPSE_THRESHOLD = 0.1
LLE_REGULARIZATION = 1e-3  # Saul & Roweis' (and scikit-learn's) default, times the trace of C


@dataclasses.dataclass(frozen=True)
class NormalizationCost:
    """Result of :func:`normalization_cost`.

    Attributes
    ----------
    algorithm : str
    phi_y : float
        ``Φ(Y)``, the cost of the faithful normalized output (PN Eq. 9).
    phi_z : float
        ``Φ(Z)``, the cost of the collapsed output (PN Eq. 10).
    ratio : float
        ``Φ(Y) / Φ(Z)``; above 1 the algorithm prefers Z to the faithful output.
    fails : bool
        ``Φ(Y) > Φ(Z)``: a necessary condition for success is violated (PN §5.3).
    verdict : str
        One sentence saying so.
    kappa : float
        ``κ = S₋ / S₊`` of PN Eq. 10 as corrected in SPEC §3 (>= 1 by the choice of axis sign).
    aspect_ratio : float
        ``σ / τ``, the ratio of the standard deviations of the truth's first two principal axes.
    column_costs_y, column_costs_z : ndarray of shape (d,)
        ``Φ`` of each column (``N ē^(j)`` of PN §5.1); they add up to ``phi_y``, ``phi_z``.
    faithful : ndarray of shape (n_samples, d)
        Y.
    collapsed : ndarray of shape (n_samples, d)
        Z.
    """

    algorithm: str
    phi_y: float
    phi_z: float
    ratio: float
    fails: bool
    verdict: str
    kappa: float
    aspect_ratio: float
    column_costs_y: np.ndarray
    column_costs_z: np.ndarray
    faithful: np.ndarray
    collapsed: np.ndarray


def _principal_axes(truth):
    """The truth centred and rotated to its principal axes (largest variance first), and the variances.

    Variances use 1/n (PN's sample covariance); Φ ratios do not depend on that choice.
    """
    centred = truth - truth.mean(axis=0)
    variances, axes = np.linalg.eigh(centred.T @ centred / truth.shape[0])
    variances, axes = variances[::-1], axes[:, ::-1]
    if variances[-1] <= 1e-12 * variances[0]:
        raise MeasureError(f"the truth has no variance along one of its {truth.shape[1]} axes (variances "
                           f"{variances.tolist()}); it must span d dimensions.")
    return centred @ axes, variances


def _candidate_embeddings(truth):
    """Y (PN Eq. 9) and Z (PN Eq. 10, with SPEC's κ; §5.4 for d > 2), and κ, σ/τ.

    Y whitens the truth. Z keeps Y's first column and replaces the second by the folded first
    coordinate ``-x1`` (x1 < 0) or ``κ x1`` (x1 >= 0), standardized. ``Cov(Z1, Z2) ∝ κ S₊ − S₋`` with
    ``S± = Σ_{x1 ≷ 0} x1²``, so ``κ = S₋/S₊`` makes it 0: PN's Eq. 11 prints the square root of
    that ratio, which leaves Z correlated (SPEC §3). The first axis is signed so that κ >= 1, as
    PN assume. Further columns (d > 2) are ``(Y_j − σ_2j Z_2) / sqrt(1 − σ_2j²)`` (PN §5.4).
    """
    rotated, variances = _principal_axes(truth)
    first = rotated[:, 0]
    if np.sum(first[first < 0] ** 2) < np.sum(first[first >= 0] ** 2):
        rotated[:, 0] = first = -first
    s_minus, s_plus = np.sum(first[first < 0] ** 2), np.sum(first[first >= 0] ** 2)
    kappa = s_minus / s_plus
    faithful = rotated / np.sqrt(variances)
    folded = np.where(first < 0, -first, kappa * first)
    folded = (folded - folded.mean()) / folded.std()
    collapsed = faithful.copy()
    collapsed[:, 1] = folded
    for column in range(2, truth.shape[1]):
        sigma = np.mean(folded * faithful[:, column])
        collapsed[:, column] = (faithful[:, column] - sigma * folded) / np.sqrt(1.0 - sigma**2)
    return faithful, collapsed, float(kappa), float(np.sqrt(variances[0] / variances[1]))


def _lle_weights(X, neighbors, regularization=LLE_REGULARIZATION):
    """Barycentric reconstruction weights of each point from its k neighbours (LLE; PN §2).

    ``w_i`` minimizes ``||x_i - Σ_j w_ij x_ij||^2`` subject to ``Σ_j w_ij = 1``: solve
    ``(C + r I) w = 1`` with ``C`` the Gram matrix of the neighbours relative to x_i and
    ``r = regularization · tr C`` (``regularization`` when tr C = 0), then normalize (Saul & Roweis
    2003; scikit-learn's ``barycenter_weights``). The regularization keeps C invertible when
    k > q, and makes Φ(Y) of LLE positive even on flat input.

    Returns
    -------
    ndarray of shape (n_samples, k)
    """
    n_samples, width = neighbors.shape
    k = width - 1
    weights = np.empty((n_samples, k))
    for part in chunk_slices(n_samples, 8 * (k * X.shape[1] + 2 * k * k)):
        relative = X[neighbors[part, 1:]] - X[part, None, :]
        gram = np.einsum("nkq,njq->nkj", relative, relative)
        trace = np.trace(gram, axis1=1, axis2=2)
        gram[:, np.arange(k), np.arange(k)] += np.where(trace > 0.0, regularization * trace, regularization)[:, None]
        solution = np.linalg.solve(gram, np.ones((gram.shape[0], k, 1)))[:, :, 0]
        weights[part] = solution / solution.sum(axis=1, keepdims=True)
    return weights


def _column_costs(algorithm, X, neighbors, V, n_components):
    """``Φ`` of each column of V: ``Σ_i ||W_i V_i^(j)||^2`` with the W_i of ``algorithm`` (PN Eq. 2).

    - laplacian: rows ``(1, 0, .., -1, .., 0)`` for 0/1 weights: ``Σ_i Σ_l (v_i - v_il)^2`` over the
      k directed neighbour pairs;
    - lle: ``W_i = (1, -w_i1, .., -w_ik)``: ``Σ_i (v_i - Σ_l w_il v_il)^2``;
    - ltsa: ``W_i = (I - P_i P_i') H`` over the k + 1 points, ``P_i`` the top-d left singular vectors
      of ``H X_i``: the part of ``H V_i`` outside their span. The residual is formed explicitly
      (not as ``||HV||^2 - ||P'HV||^2``) so that an exact zero stays at rounding level.

    Φ separates over columns (PN §5.1), so Y and Z go through one pass stacked as V = [Y, Z].
    """
    n_samples, width = neighbors.shape
    costs = np.zeros(V.shape[1])
    weights = _lle_weights(X, neighbors) if algorithm == "lle" else None
    bytes_per_point = 8 * width * (X.shape[1] + 2 * V.shape[1] + n_components)
    if algorithm == "ltsa":
        for _, (Xc, centred) in centred_chunks(neighbors, (X, V), bytes_per_point):
            coordinates = local_principal_coordinates(Xc, n_components)
            norms = np.linalg.norm(coordinates, axis=1, keepdims=True)
            # A neighbourhood of rank < d has a zero coordinate column: no direction to keep there.
            basis = np.where(norms > 0.0, coordinates / np.where(norms > 0.0, norms, 1.0), 0.0)
            residual = centred - basis @ np.einsum("nkd,nkc->ndc", basis, centred)
            costs += np.einsum("nkc,nkc->c", residual, residual)
        return costs
    for part in chunk_slices(n_samples, bytes_per_point):
        if algorithm == "laplacian":
            differences = V[part, None, :] - V[neighbors[part, 1:]]
            costs += np.einsum("nkc,nkc->c", differences, differences)
        else:
            residual = V[part] - np.einsum("nk,nkc->nc", weights[part], V[neighbors[part, 1:]])
            costs += np.einsum("nc,nc->c", residual, residual)
    return costs


def normalization_cost(truth: npt.ArrayLike, X: npt.ArrayLike, algorithm: str, n_neighbors: int) -> NormalizationCost:
    """PN's necessary condition for a normalized-output algorithm: ``Φ(Y) <= Φ(Z)``? (PN §5.3)

    Parameters
    ----------
    truth : array-like of shape (n_samples, d)
        The original sample (intrinsic coordinates), ``d >= 2``.
    X : array-like of shape (n_samples, q)
        The algorithm's input; its neighbourhoods and local weights define Φ.
    algorithm : {"laplacian", "lle", "ltsa"}
        Whose weights: Laplacian eigenmaps (0/1 weights), LLE (regularized barycentric
        weights), LTSA (local PCA projections), PN §2.
    n_neighbors : int
        k, as the algorithm uses it.

    Returns
    -------
    NormalizationCost

    Raises
    ------
    MeasureError
        On an unknown algorithm, mismatched rows, a truth of fewer than 2 or degenerate
        dimensions, or a bad k.

    Notes
    -----
    Y and Z as in :func:`_candidate_embeddings`. With kNN neighbourhoods every point has k
    neighbours, so LEM's degree matrix is ``D = k I`` and its normalization ``Y'DY = I`` is
    ``Cov(Y) = I`` up to a constant factor (PN §5.2's Ŷ, Ẑ equal Y, Z up to scale): the ratio and
    the verdict are the same for all three algorithms' constraints. ``Φ(Y) > Φ(Z)`` shows the
    algorithm will not return the faithful output; ``Φ(Y) <= Φ(Z)`` does not promise that it will
    (a necessary, not a sufficient condition).

    Examples
    --------
    LTSA's weights annihilate any affine image of flat input (PN §4.3):

    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(300, 2)) * [6.0, 1.0]
    >>> result = normalization_cost(Z, Z, "ltsa", 8)
    >>> result.phi_y < 1e-20 < result.phi_z, result.fails
    (True, False)
    """
    if algorithm not in NORMALIZED_ALGORITHMS:
        raise MeasureError(f"algorithm must be one of {list(NORMALIZED_ALGORITHMS)}; got {algorithm!r}.")
    truth, X = check_pair(truth, X, names=("truth", "X"))
    if truth.shape[1] < 2:
        raise MeasureError(f"the price of normalization compares 2-D (or higher) outputs; the truth has "
                           f"{truth.shape[1]} column(s).")
    faithful, collapsed, kappa, aspect_ratio = _candidate_embeddings(truth)
    d = truth.shape[1]
    costs = _column_costs(algorithm, X, nearest_neighbors(X, n_neighbors), np.hstack([faithful, collapsed]), d)
    phi_y, phi_z = float(costs[:d].sum()), float(costs[d:].sum())
    fails = phi_y > phi_z
    verdict = (f"Φ(Y) > Φ(Z) ({phi_y:.4g} > {phi_z:.4g}): {algorithm} prefers a collapsed output to the faithful "
               "one; a necessary condition for its success is violated (PN §5)." if fails else
               f"Φ(Y) <= Φ(Z) ({phi_y:.4g} <= {phi_z:.4g}): the necessary condition holds; {algorithm} may recover "
               "the faithful output (not guaranteed).")
    return NormalizationCost(algorithm=algorithm, phi_y=phi_y, phi_z=phi_z,
                             ratio=phi_y / phi_z if phi_z > 0.0 else np.inf, fails=bool(fails), verdict=verdict,
                             kappa=kappa, aspect_ratio=aspect_ratio, column_costs_y=costs[:d],
                             column_costs_z=costs[d:], faithful=faithful, collapsed=collapsed)


def collapse_score(truth: npt.ArrayLike, Y: npt.ArrayLike) -> float:
    """Share of an output's variance not explained by the truth's long axis: ~0 for a collapsed output.

    Parameters
    ----------
    truth : array-like of shape (n_samples, d_truth)
        The intrinsic coordinates, ``d_truth >= 2``.
    Y : array-like of shape (n_samples, d)
        An output.

    Returns
    -------
    float
        In [0, 1]. About ``(d − 1)/d`` (0.5 in 2-D) for an output that is an affine image of a
        uniformly filled truth, about 0 for an output that is a curve parametrized by the long
        axis (PN Fig. 2's Z). Below :data:`COLLAPSE_THRESHOLD` the output collapsed
        (:func:`is_collapsed`).

    Raises
    ------
    MeasureError
        On mismatched rows, a truth with fewer than 2 columns, or a constant output.

    Notes
    -----
    Y is whitened (centred, its covariance mapped to I, so the score does not depend on how the
    algorithm scaled or rotated its output; directions of zero variance are dropped, they carry
    none). The score is :math:`\\frac{1}{d'}\\sum_c E[\\mathrm{Var}(y_c \\mid t)]`, the variance
    of the whitened output left once the long coordinate ``t`` (the truth's first principal
    coordinate) is known, over the total ``d'`` (SPEC §3). A faithful output keeps the short axis
    at every ``t``; a collapsed one is a function of ``t``.

    The conditional variance is estimated from successive differences along ``t`` (the points
    sorted by t): :math:`\\frac{1}{2(n-1)}\\sum_i (y_{(i+1)} - y_{(i)})^2` (von Neumann 1941;
    Rice 1984), whose bias for a smooth curve ``y = f(t)`` is of order ``f'^2 / n^2``; points of
    equal t follow each other in a fixed pseudo-random order (seed 0), so a difference between two
    of them estimates their spread. SPEC §3's
    binned estimate (20 equal-width bins) kept a curve's variation inside each bin, ``f'^2 w^2/12``
    for bins of width w, and scored a collapsed output ~0.006 instead of ~0 (issue 15).

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(2000, 2)) * [6.0, 1.0]
    >>> faithful = collapse_score(Z, Z @ [[1.0, 2.0], [0.5, -1.0]])
    >>> curve = collapse_score(Z, np.c_[Z[:, 0], np.abs(Z[:, 0] - 3.0)])
    >>> bool(0.45 < faithful < 0.55 and curve < 1e-4)
    True
    """
    truth, Y = check_pair(truth, Y, names=("truth", "Y"))
    if truth.shape[1] < 2:
        raise MeasureError(f"the collapse score needs a truth of >= 2 columns; got {truth.shape[1]}.")
    long_axis = _principal_axes(power_of_two_scaled(truth)[0])[0][:, 0]
    centred = power_of_two_scaled(Y)[0]
    centred = centred - centred.mean(axis=0)
    variances, axes = np.linalg.eigh(centred.T @ centred / Y.shape[0])
    kept = variances > 1e-12 * variances.max() if variances.max() > 0.0 else np.zeros(variances.shape, dtype=bool)
    if not kept.any():
        raise MeasureError("the output is constant (every point at one place): there is nothing to whiten.")
    whitened = centred @ (axes[:, kept] / np.sqrt(variances[kept]))
    # Points of equal t are ordered by a fixed pseudo-random key, not by index: on a grid the index
    # follows the other coordinate, and neighbours in it would hide the variance across the strip.
    tie_break = np.random.default_rng(0).permutation(Y.shape[0])
    ordered = whitened[np.lexsort((tie_break, long_axis))]
    steps = np.diff(ordered, axis=0)
    within = np.einsum("ij,ij->", steps, steps) / (2.0 * (Y.shape[0] - 1))
    return float(within / kept.sum())


def is_collapsed(truth: npt.ArrayLike, Y: npt.ArrayLike) -> bool:
    """Whether an output collapsed onto a curve along the truth's long axis (PN §4-5).

    ``collapse_score(truth, Y) < COLLAPSE_THRESHOLD``; see :data:`COLLAPSE_THRESHOLD` for how the
    threshold was chosen.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(1000, 2)) * [6.0, 1.0]
    >>> is_collapsed(Z, Z), is_collapsed(Z, np.c_[np.cos(Z[:, 0]), np.sin(Z[:, 0])])
    (False, True)
    """
    return bool(collapse_score(truth, Y) < COLLAPSE_THRESHOLD)
