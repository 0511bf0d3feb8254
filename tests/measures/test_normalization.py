"""Tests of ``measures/normalization.py``: the price of normalization (PN §2, §4, §5) and the collapse score."""

import importlib

import numpy as np
import pytest
from scipy.stats import ortho_group
from sklearn.manifold import (
    Isomap,
    LocallyLinearEmbedding,
    SpectralEmbedding,
    spectral_embedding,
)

import measures.chunks
from measures import (
    COLLAPSE_THRESHOLD,
    MeasureError,
    collapse_score,
    is_collapsed,
    nearest_neighbors,
    neighbor_graph,
    normalization_cost,
)

normalization_module = importlib.import_module("measures.normalization")


def grid(half_width, half_height):
    """PN §4's integer lattice [-m..m] x [-q..q], (2m+1)(2q+1) points."""
    columns, rows = np.meshgrid(np.arange(-half_width, half_width + 1), np.arange(-half_height, half_height + 1),
                                indexing="ij")
    return np.column_stack([columns.ravel(), rows.ravel()]).astype(float)


def laplacian_eigenmaps(X, n_neighbors):
    """LEM with 0/1 weights on the symmetrised kNN graph of the project's kNN routine (PN §2)."""
    adjacency = neighbor_graph(nearest_neighbors(X, n_neighbors))
    return spectral_embedding(adjacency.maximum(adjacency.T), n_components=2, eigen_solver="arpack",
                              random_state=0, drop_first=True)


# ---------------------------------------------------------------- PN's grid and strip


def test_lem_on_the_grid_keeps_its_width_at_81x41_and_collapses_at_81x39():
    # PN Theorem 4.1 and Fig. 4 (K = 8): the faithful output costs less than the curve Z exactly
    # while the aspect ratio m/q <= 2; past it LEM collapses the grid to a curve. Both the Φ verdict
    # and an actual LEM output (scikit-learn's spectral embedding on our kNN graph) switch.
    wide, narrow = grid(40, 20), grid(40, 19)
    keeps = normalization_cost(wide, wide, "laplacian", 8)
    collapses = normalization_cost(narrow, narrow, "laplacian", 8)
    assert not keeps.fails and keeps.ratio < 1.0
    assert collapses.fails and collapses.ratio > 1.0
    assert "prefers a collapsed output" in collapses.verdict
    assert collapse_score(wide, laplacian_eigenmaps(wide, 8)) > 0.4
    assert collapse_score(narrow, laplacian_eigenmaps(narrow, 8)) < 0.05


def test_lem_cost_ratio_grows_with_the_strip_length():
    # PN §6.1: on the strip [0, L] x [0, 1] the first two Laplacian eigenfunctions depend on x1 alone
    # once L > 2; the Φ ratio crosses 1 there and keeps growing.
    rng = np.random.default_rng(0)
    unit_square = rng.uniform(size=(1500, 2))
    ratios = [normalization_cost(unit_square * [length, 1.0], unit_square * [length, 1.0], "laplacian", 8).ratio
              for length in (1.5, 3.0, 4.0, 6.0)]
    assert ratios[0] < 1.0 < ratios[1] < ratios[2] < ratios[3]


@pytest.mark.parametrize("seed", [0, 1])
def test_ltsa_never_fails_on_clean_flat_input(seed):
    # PN §4.3: LTSA's W_i = (I - P_i P_i') H annihilates any affine image of a flat neighbourhood,
    # so Φ(Y) = 0 (to rounding) however long the strip, in the plane or isometrically in R^5.
    rng = np.random.default_rng(seed)
    strip = rng.uniform(size=(1000, 2)) * [8.0, 1.0]
    embedded = strip @ ortho_group.rvs(5, random_state=rng)[:2] + 3.0
    for X in (strip, embedded):
        result = normalization_cost(strip, X, "ltsa", 8)
        assert result.phi_y < 1e-20 * result.phi_z and not result.fails
    # Noise off the plane tilts the local tangent planes: Φ(Y) > 0 then.
    noisy = np.c_[strip, 1e-2 * rng.normal(size=1000)]
    assert normalization_cost(strip, noisy, "ltsa", 8).phi_y > 1e-6


def test_lle_cost_of_flat_input_is_only_the_regularization():
    # Without regularization LLE reconstructs a flat neighbourhood exactly (PN §4.3: Φ(Y) = 0); its
    # regularization 1e-3 tr C leaves a small Φ(Y) that vanishes with it.
    X = grid(10, 5)
    regularized = normalization_cost(X, X, "lle", 8)
    assert 0.0 < regularized.phi_y < 1e-3 * regularized.phi_z
    weights = normalization_module._lle_weights(X, nearest_neighbors(X, 8), regularization=1e-12)
    reconstruction = X - np.einsum("nk,nkq->nq", weights, X[nearest_neighbors(X, 8)[:, 1:]])
    assert np.abs(reconstruction).max() < 1e-9


# ---------------------------------------------------------------- Y, Z and the costs against naive code


def test_candidates_are_normalized_and_kappa_is_the_corrected_one():
    # SPEC §3: κ = S₋/S₊ makes Cov(Z1, Z2) = 0; PN's printed κ = sqrt(S₋/S₊) does not on a skewed sample.
    rng = np.random.default_rng(2)
    truth = np.c_[rng.exponential(size=2000) * 3.0, rng.uniform(size=2000)] @ ortho_group.rvs(2, random_state=rng)
    faithful, collapsed, kappa, aspect_ratio = normalization_module._candidate_embeddings(truth)
    for embedding in (faithful, collapsed):
        np.testing.assert_allclose(embedding.mean(axis=0), 0.0, atol=1e-12)
        np.testing.assert_allclose(np.cov(embedding.T, bias=True), np.eye(2), atol=1e-12)
    first = faithful[:, 0]
    s_minus, s_plus = np.sum(first[first < 0] ** 2), np.sum(first[first >= 0] ** 2)
    assert kappa == pytest.approx(s_minus / s_plus, rel=1e-12) and kappa >= 1.0
    printed = np.where(first < 0, -first, np.sqrt(kappa) * first)
    assert abs(np.corrcoef(first, printed)[0, 1]) > 0.05
    assert aspect_ratio == pytest.approx(np.sqrt(np.linalg.eigvalsh(np.cov(truth.T))[::-1][0]
                                                 / np.linalg.eigvalsh(np.cov(truth.T))[0]), rel=1e-9)


def naive_costs(algorithm, X, V, n_neighbors, n_components):
    """Oracle: PN Eq. 2 written out, one neighbourhood and one explicit W_i at a time."""
    neighbors = nearest_neighbors(X, n_neighbors)
    total = 0.0
    for i, neighborhood in enumerate(neighbors):
        V_i = V[neighborhood]
        if algorithm == "laplacian":
            W = np.hstack([np.ones((n_neighbors, 1)), -np.eye(n_neighbors)])
        elif algorithm == "lle":
            relative = X[neighborhood[1:]] - X[i]
            C = relative @ relative.T
            C += 1e-3 * np.trace(C) * np.eye(n_neighbors)
            w = np.linalg.solve(C, np.ones(n_neighbors))
            W = np.r_[1.0, -w / w.sum()][None, :]
        else:
            H = np.eye(n_neighbors + 1) - 1.0 / (n_neighbors + 1)
            P = np.linalg.svd(H @ X[neighborhood])[0][:, :n_components]
            W = (np.eye(n_neighbors + 1) - P @ P.T) @ H
        total += np.sum((W @ V_i) ** 2)
    return total


@pytest.mark.parametrize("algorithm", ["laplacian", "lle", "ltsa"])
def test_costs_match_pn_eq_2_written_out(algorithm, swiss_roll):
    X, arc_length_chart, _ = swiss_roll(300, 3)
    result = normalization_cost(arc_length_chart, X, algorithm, 7)
    assert result.phi_y == pytest.approx(naive_costs(algorithm, X, result.faithful, 7, 2), rel=1e-9)
    assert result.phi_z == pytest.approx(naive_costs(algorithm, X, result.collapsed, 7, 2), rel=1e-9)
    assert result.column_costs_y.sum() == pytest.approx(result.phi_y, rel=1e-12)
    assert result.ratio == pytest.approx(result.phi_y / result.phi_z, rel=1e-12)


def test_costs_do_not_depend_on_chunk_size(monkeypatch, swiss_roll):
    X, arc_length_chart, _ = swiss_roll(300, 4)
    default = {name: normalization_cost(arc_length_chart, X, name, 7) for name in ("laplacian", "lle", "ltsa")}
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 2000)
    for name, result in default.items():
        np.testing.assert_allclose(normalization_cost(arc_length_chart, X, name, 7).column_costs_z,
                                   result.column_costs_z, rtol=1e-12)


# ---------------------------------------------------------------- the collapse score


def test_collapse_score_separates_faithful_from_curves_whatever_the_output_scale():
    rng = np.random.default_rng(5)
    strip = rng.uniform(size=(3000, 2)) * [6.0, 1.0]
    affine = strip @ [[2.0, 0.3], [-1.0, 5.0]] + 4.0
    curve = np.c_[strip[:, 0], (strip[:, 0] - 3.0) ** 2] + 1e-3 * rng.normal(size=(3000, 2))
    assert collapse_score(strip, affine) == pytest.approx(0.5, abs=0.02)
    assert collapse_score(strip, curve) < 0.01
    assert collapse_score(strip, 1e-6 * affine @ [[0.0, 1.0], [1.0, 0.0]]) == pytest.approx(
        collapse_score(strip, affine), rel=1e-9)
    # The PN candidates: Y faithful, Z a curve.
    result = normalization_cost(strip, strip, "laplacian", 8)
    assert collapse_score(strip, result.faithful) > 0.45 and collapse_score(strip, result.collapsed) < 0.01
    # An output on one line (rank 1) is fully collapsed.
    assert collapse_score(strip, np.c_[strip[:, 0], 2.0 * strip[:, 0]]) < 0.01


def noisy_strip(n_samples, length, seed, sigma=0.0):
    """PN Fig. 1's strip [0, L] x [0, 1] in R^3, with Gaussian noise of standard deviation sigma off it."""
    rng = np.random.default_rng(seed)
    truth = rng.uniform(size=(n_samples, 2)) * [length, 1.0]
    return truth, np.c_[truth, sigma * rng.normal(size=n_samples)]


def test_a_curve_scores_near_zero_not_the_binned_estimates_0_006():
    # Issue 15: 20 equal-width bins kept a smooth curve's own variation inside each bin,
    # (slope * width)^2 / 12, so an exact curve scored ~0.006. Successive differences do not.
    truth, _ = noisy_strip(2000, 6.0, 0)
    curve = np.c_[np.cos(truth[:, 0]), np.sin(2.0 * truth[:, 0])]
    assert collapse_score(truth, curve) < 1e-4


@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (1, 2, 3))])
def test_threshold_separates_collapsed_from_faithful_outputs(seed):
    truth, X = noisy_strip(1500, 6.0, seed)
    noise = np.random.default_rng(seed).normal(size=(1500, 2))
    collapsed = {
        "LEM on a 6 x 1 strip": SpectralEmbedding(2, n_neighbors=10, random_state=seed).fit_transform(X),
        "a noisy curve": np.c_[np.cos(truth[:, 0]), np.sin(2.0 * truth[:, 0])] + 0.01 * noise,
    }
    faithful = {"the truth": truth, "Isomap": Isomap(n_neighbors=10, n_components=2).fit_transform(X)}
    for sigma, outputs in ((0.01, collapsed), (0.003, faithful)):
        # LTSA on a noisy strip (PN §5.5): noise of sigma = 0.01 folds it, sigma = 0.003 does not.
        noisy_truth, noisy_X = noisy_strip(1500, 6.0, seed, sigma)
        ltsa = LocallyLinearEmbedding(n_neighbors=10, n_components=2, method="ltsa", eigen_solver="dense")
        outputs[f"LTSA, sigma = {sigma}"] = (noisy_truth, ltsa.fit_transform(noisy_X))
    for name, output in collapsed.items():
        reference, output = output if isinstance(output, tuple) else (truth, output)
        assert collapse_score(reference, output) < COLLAPSE_THRESHOLD / 10, name
        assert is_collapsed(reference, output), name
    for name, output in faithful.items():
        reference, output = output if isinstance(output, tuple) else (truth, output)
        assert collapse_score(reference, output) > 4 * COLLAPSE_THRESHOLD, name
        assert not is_collapsed(reference, output), name


def test_bad_input_raises():
    X = grid(5, 2)
    with pytest.raises(MeasureError, match=r"algorithm must be one of \['laplacian', 'lle', 'ltsa'\]; got 'hlle'"):
        normalization_cost(X, X, "hlle", 4)
    with pytest.raises(MeasureError, match=r"2-D \(or higher\) outputs; the truth has 1 column"):
        normalization_cost(X[:, :1], X, "laplacian", 4)
    with pytest.raises(MeasureError, match="no variance along one of its 2 axes"):
        normalization_cost(np.c_[X[:, 0], np.zeros(len(X))], X, "laplacian", 4)
    with pytest.raises(MeasureError, match="the output is constant"):
        collapse_score(X, np.ones((len(X), 2)))
