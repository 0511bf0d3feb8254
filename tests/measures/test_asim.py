"""Tests of ``measures/asim.py``: ASIM (NQ Eqs. 5-17 with SPEC §3's corrections), single and batched."""

import importlib

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import ortho_group

import measures.chunks
from measures import (
    DimensionError,
    MeasureError,
    ProcrustesLabWarning,
    asim,
    asim_fit,
    local_asim,
    local_pca_residual,
    local_procrustes,
    nearest_neighbors,
    nieqa,
    truth_match,
)

asim_module = importlib.import_module("measures.asim")
# Stronger distortion than the fixture's default: ASIM well inside (0, 1), no fit exact.
DISTORTED = {"curvature": 0.4, "input_noise": 0.05, "output_noise": 0.1}


def stiefel(n_features, n_components, rng):
    """A random q x d matrix with orthonormal columns."""
    return ortho_group.rvs(n_features, random_state=rng)[:, :n_components]


def signed_scales(n_components, rng):
    """Random axis scales in ±[0.2, 5], signs random (NQ's D may reflect an axis)."""
    return rng.uniform(0.2, 5.0, n_components) * rng.choice([-1.0, 1.0], n_components)


def brute_force_asim(X_patch, Y_patch, rng, n_starts=12):
    """Oracle: BFGS over an unconstrained q x d matrix A, P = the Q factor of A, from many starts.

    Given P, D and t are fitted by ordinary least squares on the explicit residual
    ``X - Y D P' - t`` (one column of D at a time: ``X P = Y D + t`` separates, and the fit of column j
    on ``[y_j, 1]`` is the simple regression slope of the centred columns, t taking the means),
    independently of the module's closed forms.
    """
    Xc = X_patch - X_patch.mean(axis=0)
    Yc = Y_patch - Y_patch.mean(axis=0)
    q, d = Xc.shape[1], Yc.shape[1]
    total = np.sum(Xc**2)

    def residual(flat):
        P = np.linalg.qr(flat.reshape(q, d))[0]
        D = np.sum(Yc * (Xc @ P), axis=0) / np.sum(Yc**2, axis=0)
        return np.sum((Xc - (Yc * D) @ P.T) ** 2) / total

    return min(minimize(residual, rng.normal(size=q * d), method="BFGS").fun for _ in range(n_starts))


# ---------------------------------------------------------------- exact fits


@pytest.mark.parametrize("n_features, n_components", [(2, 1), (2, 2), (3, 2), (5, 2), (3, 3), (6, 3), (10, 4)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_zero_on_rotated_axis_scaled_translated_copy(n_features, n_components, seed):
    # X = Y D P' + t with D diagonal (signs allowed) and P in St(q, d): every neighbourhood and the
    # whole set fit exactly, whatever the solver (d <= 2: closed form; d >= 3: Stiefel ascent).
    rng = np.random.default_rng(seed)
    Y = rng.normal(size=(300, n_components))
    X = Y @ np.diag(signed_scales(n_components, rng)) @ stiefel(n_features, n_components, rng).T + rng.normal(
        size=n_features) * 10.0
    assert abs(asim(X, Y)) < 1e-12
    values = local_asim(X, Y, nearest_neighbors(X, 8))
    assert np.abs(values).max() < 1e-11


def test_fit_recovers_the_transformation_and_its_residual():
    rng = np.random.default_rng(3)
    Y = rng.normal(size=(40, 3))
    P, D = stiefel(5, 3, rng), signed_scales(3, rng)
    X = Y @ np.diag(D) @ P.T + 2.0
    fit = asim_fit(X, Y)
    np.testing.assert_allclose(fit.transform(Y), X, atol=1e-9)
    np.testing.assert_allclose(np.abs(fit.scales), np.abs(D), rtol=1e-8)
    # On a configuration with no exact fit, the returned transformation realises the value.
    X_noisy = X + rng.normal(size=X.shape)
    fit = asim_fit(X_noisy, Y)
    np.testing.assert_allclose(fit.rotation.T @ fit.rotation, np.eye(3), atol=1e-12)
    residual = np.sum((X_noisy - fit.transform(Y)) ** 2) / np.sum((X_noisy - X_noisy.mean(axis=0)) ** 2)
    assert residual == pytest.approx(fit.value, rel=1e-10)


def test_nq_section_iii_a_rectangle_is_normalization_independent(nq_rectangle):
    # NQ §III-A: the rectangle and its normalized copy (Y'Y = I) are related by X = Y S R' + t
    # exactly, so ASIM is 0 at every neighbourhood and globally, while the rigid Procrustes measure
    # is large (NQ reports M_P = 0.8054 for its draw).
    X, Y = nq_rectangle
    np.testing.assert_allclose(Y.T @ Y, np.eye(2), atol=1e-12)
    assert abs(asim(X, Y)) < 1e-12
    neighbors = nearest_neighbors(X, 10)
    assert np.abs(local_asim(X, Y, neighbors)).max() < 1e-12
    assert np.mean(local_procrustes(X, Y, neighbors).normalized) > 0.5


# ---------------------------------------------------------------- invariances (SPEC §3)


@pytest.mark.parametrize("n_components", [2, 3])
@pytest.mark.parametrize("seed", [0, 1])
def test_invariances_listed_in_spec(n_components, seed, smooth_embedding):
    rng = np.random.default_rng(seed)
    X, Y = smooth_embedding(200, 4, n_components, seed, **DISTORTED)
    neighbors = nearest_neighbors(X, 9)
    before = local_asim(X, Y, neighbors)
    assert 0.01 < np.median(before) < 0.9
    rotation = ortho_group.rvs(4, random_state=rng)
    reflection = np.diag([-1.0, 1.0, 1.0, 1.0])
    axis_map = np.eye(n_components)[rng.permutation(n_components)] * signed_scales(n_components, rng)
    for X_new, Y_new, what in (
        (X + rng.normal(size=4) * 30.0, Y + rng.normal(size=n_components) * 30.0, "translations"),
        (X @ rotation, Y, "rotating X"),
        (X @ reflection, Y, "reflecting X"),
        (7.5 * X, Y, "scaling X uniformly"),
        (X, Y @ axis_map, "scaling, flipping and permuting Y's axes"),
    ):
        np.testing.assert_allclose(local_asim(X_new, Y_new, neighbors), before, rtol=1e-8, atol=1e-12, err_msg=what)


@pytest.mark.parametrize("n_components", [2, 3])
def test_not_invariant_to_rotating_y_and_not_symmetric(n_components, smooth_embedding):
    X, Y = smooth_embedding(200, n_components, n_components, seed=5, **DISTORTED)
    neighbors = nearest_neighbors(X, 9)
    before = local_asim(X, Y, neighbors)
    # An anisotropic Y rotated by 45°: axis scales no longer line up with the rotated axes.
    stretched = Y * np.r_[5.0, np.ones(n_components - 1)]
    angle = np.pi / 4
    rotation = np.eye(n_components)
    rotation[:2, :2] = [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]
    stretched_values = local_asim(X, stretched, neighbors)
    rotated_values = local_asim(X, stretched @ rotation, neighbors)
    assert np.median(np.abs(rotated_values - stretched_values)) > 1e-2
    np.testing.assert_allclose(stretched_values, before, rtol=1e-8)  # axis scaling alone changes nothing
    # Not symmetric: swapping reference and embedding (q = d here) changes the value.
    assert abs(asim(X, Y) - asim(Y, X)) > 1e-3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_between_lower_bound_and_conformal_at_every_point(seed, swiss_roll):
    # D = c I is one choice of axis scales (ASIM <= R_C <= R_N); no rank-d linear fit beats local
    # PCA (GR Lemma 1 <= ASIM). And ASIM lies in [0, 1].
    X, _, raw_chart = swiss_roll(800, seed)
    random_output = np.random.default_rng(seed).normal(size=(800, 2))
    neighbors = nearest_neighbors(X, 10)
    for Y in (raw_chart, random_output, raw_chart[:, :1]):
        values = local_asim(X, Y, neighbors)
        procrustes_fit = local_procrustes(X, Y, neighbors)
        lower = local_pca_residual(X, neighbors, Y.shape[1])
        assert np.all(lower <= values + 1e-12)
        assert np.all(values <= procrustes_fit.conformal + 1e-12)
        assert np.all((values >= -1e-12) & (values <= 1.0 + 1e-12))


# ---------------------------------------------------------------- solvers


@pytest.mark.parametrize("n_features", [2, 3, 10])
def test_closed_form_and_iterative_solver_agree_on_many_neighbourhoods(n_features, smooth_embedding):
    # 1 500 neighbourhoods per input dimension, d = 2: the SPEC §3 closed form against the Stiefel
    # ascent (Barzilai-Borwein, backtracking, QR retraction) run on the same neighbourhoods.
    X, Y = smooth_embedding(1500, n_features, 2, seed=n_features, **DISTORTED)
    Y = Y @ [[1.0, 0.7], [-0.4, 2.0]]  # non-orthogonal axes: not an easy case for the ascent
    neighbors = nearest_neighbors(X, 8)
    closed_form = local_asim(X, Y, neighbors, solver="closed_form")
    iterative = local_asim(X, Y, neighbors, solver="iterative")
    assert closed_form.size >= 1000 and np.ptp(closed_form) > 0.1
    np.testing.assert_allclose(iterative, closed_form, rtol=0, atol=1e-8)


@pytest.mark.parametrize("n_features, n_components, seed", [(2, 2, 0), (3, 2, 1), (4, 2, 2), (3, 3, 3), (4, 3, 4),
                                                           (5, 3, 5), (4, 4, 6)])
def test_agrees_with_a_brute_force_optimiser_on_small_cases(n_features, n_components, seed):
    rng = np.random.default_rng(100 * n_features + 10 * n_components + seed)
    X_patch = rng.normal(size=(7, n_features))
    Y_patch = X_patch[:, :n_components] @ rng.normal(size=(n_components, n_components)) + 0.5 * rng.normal(
        size=(7, n_components))
    ours = asim(X_patch, Y_patch)
    brute = brute_force_asim(X_patch, Y_patch, rng)
    assert ours <= brute + 1e-9  # never worse than any fit the optimiser finds
    assert ours == pytest.approx(brute, abs=1e-6)  # and the optimiser finds ours


@pytest.mark.parametrize("n_components", [2, 3])
def test_corrected_gradient_vanishes_at_the_maximum_and_nq_eq_17_does_not(n_components):
    # SPEC §3: the Riemannian gradient of phi(P) = sum_j (p_j'm_j)^2 is G - P sym(P'G), G = 2 M δ²(P'M).
    # NQ Eq. 17 prints 2 M δ²(P'M) - P P' δ²(P'M) - P δ²(P'M) M'P (defined only for q = d): it
    # does not vanish at the maximizer, so an ascent driven by it stops elsewhere.
    rng = np.random.default_rng(7 + n_components)
    Y = rng.normal(size=(12, n_components))
    X = Y @ rng.normal(size=(n_components, n_components)) + 0.3 * rng.normal(size=(12, n_components))
    Xc, Yc = (X - X.mean(axis=0))[None], (Y - Y.mean(axis=0))[None]
    M, correlation, _ = asim_module._normalized_cross_covariance(Xc, Yc)
    _, P, _ = asim_module._maximize(M, correlation, "auto")
    _, gradient = asim_module._objective(M, P)
    scale = np.sum(M**2)
    assert np.linalg.norm(gradient) < 1e-7 * scale
    P, M = P[0], M[0]
    delta = np.diag(np.diag(P.T @ M))
    printed = 2.0 * M @ delta - P @ P.T @ delta - P @ delta @ M.T @ P
    assert np.linalg.norm(printed) > 1e-2 * scale


def test_iterative_solver_warns_when_it_runs_out_of_iterations(monkeypatch, smooth_embedding):
    X, Y = smooth_embedding(100, 4, 3, seed=8, **DISTORTED)
    monkeypatch.setattr(asim_module, "MAX_ITERATIONS", 1)
    with pytest.warns(ProcrustesLabWarning, match=r"stopped after 1 iterations .* in \d+ neighbourhood"):
        local_asim(X, Y, nearest_neighbors(X, 8))


# ---------------------------------------------------------------- chunking, degenerate input, errors


@pytest.mark.parametrize("n_components", [2, 3])
def test_results_do_not_depend_on_chunk_size(n_components, monkeypatch, smooth_embedding):
    X, Y = smooth_embedding(300, 5, n_components, seed=9, **DISTORTED)
    neighbors = nearest_neighbors(X, 7)
    default = local_asim(X, Y, neighbors)
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 3000)
    np.testing.assert_array_equal(local_asim(X, Y, neighbors), default)


def test_coincident_neighbourhoods_are_nan_and_constant_axes_fit_nothing():
    # A plane in R^3 plus five copies of one point (k = 4: their neighbourhoods have ||H X_i|| = 0).
    rng = np.random.default_rng(10)
    U = np.vstack([rng.normal(size=(95, 2)), np.repeat([[9.0, 9.0]], 5, axis=0)])
    X = U @ stiefel(3, 2, rng).T
    # Copies at (9, 9, 9), off the plane but far from it: the mean of equal 9.0s is exactly 9.0, so
    # H X_i is exactly 0 (the mean of other equal values may round, leaving ||H X_i||² ~ 1e-31).
    X[95:] = 9.0
    Y = U * [2.0, -3.0]
    values = local_asim(X, Y, nearest_neighbors(X, 4))
    assert np.isnan(values[95:]).all() and np.abs(values[:95]).max() < 1e-12
    # A constant output column: only the other axis can fit, exactly like a 1-column output.
    Y_flat = np.column_stack([U[:95, 0], np.full(95, 4.0)])
    assert asim(X[:95], Y_flat) == pytest.approx(asim(X[:95], U[:95, :1]), abs=1e-14)
    assert asim_fit(X[:95], Y_flat).scales[1] == 0.0


def test_bad_input_raises():
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(MeasureError, match=r"more columns \(d = 3\) than the reference \(q = 2\)"):
        asim(X, np.ones((20, 3)))
    with pytest.raises(MeasureError, match=r"solver must be one of \['auto', 'closed_form', 'iterative'\]"):
        asim(X, X, solver="svd")
    with pytest.raises(MeasureError, match="closed form of ASIM exists for d <= 2; got d = 3"):
        local_asim(np.c_[X, X], np.c_[X, X[:, :1]], nearest_neighbors(X, 3), solver="closed_form")
    with pytest.raises(MeasureError, match=r"must contain > 1 unique points"):
        asim(np.ones((5, 2)), X[:5])
    with pytest.raises(MeasureError, match=r"same number of rows.*\(20, 2\) and Y \(19, 2\)"):
        asim(X, X[:19])


def test_truth_match_is_asim_with_the_truth_as_reference():
    # The truth is the reference: an output Y with truth = Y D P' + t matches exactly, whatever the
    # output's axis scales and the truth's rotation; a distorted output does not.
    rng = np.random.default_rng(11)
    truth = rng.uniform(size=(300, 2)) * [6.0, 1.0]
    Y = (truth - 3.0) @ ortho_group.rvs(2, random_state=rng) @ np.diag([0.1, -4.0])
    assert abs(truth_match(truth, Y)) < 1e-12
    distorted = np.c_[truth[:, 0] ** 2, truth[:, 1]]
    assert truth_match(truth, distorted) == asim(truth, distorted) > 0.01
    with pytest.raises(MeasureError, match=r"truth and Y must have the same number of rows"):
        truth_match(truth, Y[:10])


def test_outputs_with_more_columns_raise_a_dimension_error():
    X = np.random.default_rng(13).normal(size=(50, 2))
    wide = np.c_[X, X[:, 0]]
    for call in (lambda: asim(X, wide), lambda: local_asim(X, wide, nearest_neighbors(X, 5)),
                 lambda: truth_match(X, wide), lambda: nieqa(X, wide, 5)):
        with pytest.raises(DimensionError, match=r"more columns \(d = 3\) than the reference \(q = 2\)"):
            call()
