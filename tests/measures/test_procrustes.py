"""Tests of ``measures/procrustes.py``: R, R_N, R_C (GR Eqs. 1, 3, 4, 7) and the lower bound (Lemma 1)."""

import importlib
import warnings

import numpy as np
import pytest
from scipy.linalg import orthogonal_procrustes
from scipy.stats import ortho_group

import measures.chunks
from measures import (
    MeasureError,
    ProcrustesLabWarning,
    local_pca_procrustes,
    local_pca_residual,
    local_procrustes,
    nearest_neighbors,
    procrustes,
    procrustes_lower_bound,
)

VARIANTS = ("raw", "normalized", "conformal")
# The chunked walk over neighbourhoods lives in measures.kernels (centred_chunks).
kernels_module = importlib.import_module("measures.kernels")


def naive_local_procrustes(X, Y, neighbors):
    """Oracle: one neighbourhood at a time, alignment by ``scipy.linalg.orthogonal_procrustes``.

    Y_i is padded with zeros to q columns, so the q x q orthogonal map found for the padded Y_i
    restricted to its first d rows is GR's q x d rotation A (reflections allowed). G and G_C are
    then the residuals of the aligned configurations, summed directly, not the closed forms.
    Returns per-point (G, G / ||H X_i||^2, G_C / ||H X_i||^2).
    """
    q, d = X.shape[1], Y.shape[1]
    raw, normalized, conformal = [], [], []
    for neighborhood in neighbors:
        Xc = X[neighborhood] - X[neighborhood].mean(axis=0)
        Yc = np.zeros((len(neighborhood), q))
        Yc[:, :d] = Y[neighborhood] - Y[neighborhood].mean(axis=0)
        rotation, nuclear_norm = orthogonal_procrustes(Yc, Xc)
        scale = nuclear_norm / np.sum(Yc**2)
        G = np.sum((Yc @ rotation - Xc) ** 2)
        G_C = np.sum((scale * Yc @ rotation - Xc) ** 2)
        raw.append(G)
        normalized.append(G / np.sum(Xc**2))
        conformal.append(G_C / np.sum(Xc**2))
    return np.array(raw), np.array(normalized), np.array(conformal)


def naive_lower_bound(X, neighbors, n_components):
    """Oracle for GR Lemma 1: q - d smallest eigenvalues of the q x q covariance over its trace."""
    values = []
    for neighborhood in neighbors:
        Xc = X[neighborhood] - X[neighborhood].mean(axis=0)
        eigenvalues = np.linalg.eigvalsh(Xc.T @ Xc)
        values.append(eigenvalues[: X.shape[1] - n_components].sum() / eigenvalues.sum())
    return np.array(values)


def isometric_strip(n_samples, seed, n_features=5):
    """Uniform points Z on [0, 6] x [0, 1], and X = Z A' + b with A (n_features x 2) orthonormal."""
    rng = np.random.default_rng(seed)
    Z = rng.uniform(size=(n_samples, 2)) * [6.0, 1.0]
    A = ortho_group.rvs(n_features, random_state=rng)[:, :2]
    return Z @ A.T + rng.normal(size=n_features), Z


def all_variants(X, Y, n_neighbors):
    return {variant: procrustes(X, Y, n_neighbors, variant=variant, per_point=True)[1] for variant in VARIANTS}


# ---------------------------------------------------------------- exact embeddings and hand cases


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_isometric_strip_in_r5_scores_exactly_zero(seed):
    X, Z = isometric_strip(600, seed)
    for variant, values in all_variants(X, Z, 10).items():
        assert np.abs(values).max() < 1e-10, variant
        assert abs(procrustes(X, Z, 10, variant=variant)) < 1e-10, variant


def test_square_scaled_by_two_worked_by_hand():
    # X = corners of a 2 x 2 square, Y = the unit square, k = 3: every neighbourhood is all four
    # points. Centred, Xc = (±1, ±1) so ||Xc||² = 4·2 = 8 and Yc = (±½, ±½) so ||Yc||² = 4·½ = 2.
    # Xc = 2 Yc, hence M = Xc'Yc = 2 Yc'Yc = 2 I (Yc'Yc = 4·¼ I = I) and nuc(M) = 4.
    # G = 8 + 2 − 2·4 = 2 (the identity rotation leaves 4 residuals of length √½);
    # G/||Xc||² = 2/8 = ¼; G_C = 8 − 4²/2 = 0 (scale c = nuc/||Yc||² = 2 matches exactly).
    Y = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    X = 2.0 * Y
    assert procrustes(X, Y, 3, variant="raw", per_point=True)[1] == pytest.approx([2.0] * 4, abs=1e-14)
    assert procrustes(X, Y, 3, variant="normalized") == pytest.approx(0.25, abs=1e-15)
    assert procrustes(X, Y, 3, variant="conformal") == pytest.approx(0.0, abs=1e-15)


def test_collinear_points_worked_by_hand():
    # X = (0,0), (1,1), (2,2) in R², Y = 0, 1, 2 in R¹, k = 2. Centred: Xc = (−1,−1), (0,0), (1,1),
    # ||Xc||² = 4; Yc = −1, 0, 1, ||Yc||² = 2; M = Xc'Yc = (2, 2)', nuc(M) = ||M|| = 2√2.
    # G = 4 + 2 − 4√2 = 6 − 4√2 ≈ 0.343; G/||Xc||² = 3/2 − √2; G_C = 4 − (2√2)²/2 = 0 (c = √2).
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    Y = np.array([[0.0], [1.0], [2.0]])
    assert procrustes(X, Y, 2, variant="raw") == pytest.approx(6.0 - 4.0 * np.sqrt(2.0), abs=1e-14)
    assert procrustes(X, Y, 2, variant="normalized") == pytest.approx(1.5 - np.sqrt(2.0), abs=1e-14)
    assert procrustes(X, Y, 2, variant="conformal") == pytest.approx(0.0, abs=1e-14)


def test_collapsed_embedding_scores_one():
    # Y constant: the best scale is 0, so G_C = ||Xc||² (R_C = 1) and G = ||Xc||² (R_N = 1).
    X = np.random.default_rng(3).normal(size=(100, 3))
    Y = np.full((100, 2), 7.0)
    for variant in ("normalized", "conformal"):
        np.testing.assert_allclose(procrustes(X, Y, 6, variant=variant, per_point=True)[1], 1.0, rtol=1e-14)


# ---------------------------------------------------------------- oracle agreement


@pytest.mark.parametrize(
    "n_features, n_components, n_neighbors",
    [(3, 1, 8), (3, 2, 8), (5, 2, 10), (5, 3, 10), (6, 4, 9), (20, 2, 5), (20, 3, 5), (2, 2, 6)],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_naive_orthogonal_procrustes_loop(n_features, n_components, n_neighbors, seed,
                                                  smooth_embedding):
    # d = 1, 2 use the closed forms of the nuclear norm, d >= 3 the batched SVD; q = 20 > k + 1 = 6.
    X, Y = smooth_embedding(250, n_features, n_components, seed)
    neighbors = nearest_neighbors(X, n_neighbors)
    result = local_procrustes(X, Y, neighbors)
    raw, normalized, conformal = naive_local_procrustes(X, Y, neighbors)
    scale = np.abs(raw).max()
    np.testing.assert_allclose(result.raw, raw, rtol=0, atol=1e-10 * scale)
    np.testing.assert_allclose(result.normalized, normalized, rtol=0, atol=1e-10)
    np.testing.assert_allclose(result.conformal, conformal, rtol=0, atol=1e-10)
    np.testing.assert_allclose(result.input_sq_norm,
                               np.sum((X[neighbors] - X[neighbors].mean(1, keepdims=True)) ** 2, axis=(1, 2)))
    # The public entry returns the same per-point arrays on the same neighbourhoods.
    np.testing.assert_array_equal(procrustes(X, Y, n_neighbors, variant="conformal", per_point=True)[1],
                                  result.conformal)


def test_nearly_rank_one_cross_covariance_keeps_full_precision():
    # Y's two columns almost equal make M = Xc'Yc nearly rank one with two nearly parallel columns:
    # det M'M = B11 B22 - B12² would cancel catastrophically and its square root lose half the digits.
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 3))
    Y = np.column_stack([X[:, 0], X[:, 0] + 1e-9 * rng.normal(size=200)])
    neighbors = nearest_neighbors(X, 7)
    raw, _, conformal = naive_local_procrustes(X, Y, neighbors)
    result = local_procrustes(X, Y, neighbors)
    np.testing.assert_allclose(result.raw, raw, rtol=1e-10)
    np.testing.assert_allclose(result.conformal, conformal, rtol=1e-10)


def test_embedding_constant_in_one_coordinate_matches_the_loop():
    # A constant first column of Y makes the first column of M zero: the closed form must not divide 0/0.
    rng = np.random.default_rng(11)
    X = rng.normal(size=(150, 3))
    Y = np.column_stack([np.full(150, 2.0), X[:, 1] + 0.1 * rng.normal(size=150)])
    neighbors = nearest_neighbors(X, 6)
    result = local_procrustes(X, Y, neighbors)
    raw, normalized, conformal = naive_local_procrustes(X, Y, neighbors)
    np.testing.assert_allclose(result.raw, raw, rtol=1e-12)
    np.testing.assert_allclose(result.conformal, conformal, rtol=1e-12)


@pytest.mark.parametrize(
    "n_features, n_components, n_neighbors", [(3, 1, 8), (3, 2, 8), (5, 3, 10), (20, 2, 5), (20, 4, 5), (6, 2, 5)]
)
def test_lower_bound_matches_eigvalsh_loop(n_features, n_components, n_neighbors, smooth_embedding):
    # q = 20 > k + 1 = 6 takes the (k+1) x (k+1) Gram branch; the oracle always uses the q x q one.
    X, _ = smooth_embedding(250, n_features, 2, seed=5)
    neighbors = nearest_neighbors(X, n_neighbors)
    np.testing.assert_allclose(local_pca_residual(X, neighbors, n_components),
                               naive_lower_bound(X, neighbors, n_components), rtol=0, atol=1e-10)
    mean, per_point = procrustes_lower_bound(X, n_neighbors, n_components, per_point=True)
    assert mean == pytest.approx(naive_lower_bound(X, neighbors, n_components).mean(), abs=1e-12)


def test_lower_bound_of_a_plane_is_zero_and_of_a_full_cloud_is_known():
    # Isotropic Gaussian in R³: with d = 1 the bound is large but at most 2/3 (the two smallest of
    # three eigenvalues); with d = q it is 0 by definition; a flat strip in R⁵ needs only d = 2.
    X = np.random.default_rng(6).normal(size=(300, 3))
    assert procrustes_lower_bound(X, 10, 3) == 0.0
    assert 0.2 < procrustes_lower_bound(X, 10, 1) < 2.0 / 3.0
    strip, _ = isometric_strip(300, seed=6)
    assert procrustes_lower_bound(strip, 10, 2) < 1e-12


# ---------------------------------------------------------------- R_PCA (GR Eq. 6)


def naive_pca_procrustes(X, Y, neighbors):
    """Oracle for GR Eq. 6: one SVD per neighbourhood gives P_i (top-d right singular vectors);
    scipy's orthogonal_procrustes aligns Y_i to the projection X_i P_i; the residual is summed
    directly and divided by the unprojected ||H X_i||²."""
    d = Y.shape[1]
    values = []
    for neighborhood in neighbors:
        Xc = X[neighborhood] - X[neighborhood].mean(axis=0)
        Yc = Y[neighborhood] - Y[neighborhood].mean(axis=0)
        projected = Xc @ np.linalg.svd(Xc, full_matrices=False)[2][:d].T
        rotation, _ = orthogonal_procrustes(Yc, projected)
        values.append(np.sum((Yc @ rotation - projected) ** 2) / np.sum(Xc**2))
    return np.array(values)


@pytest.mark.parametrize("n_features, n_components, n_neighbors", [(3, 1, 8), (3, 2, 8), (5, 3, 10), (20, 2, 5)])
def test_pca_variant_matches_naive_svd_loop(n_features, n_components, n_neighbors, smooth_embedding):
    # q = 20 > k + 1 = 6 takes the (k+1) x (k+1) Gram branch of the local PCA.
    X, Y = smooth_embedding(250, n_features, n_components, seed=12)
    neighbors = nearest_neighbors(X, n_neighbors)
    expected = naive_pca_procrustes(X, Y, neighbors)
    np.testing.assert_allclose(local_pca_procrustes(X, Y, neighbors), expected, rtol=0, atol=1e-10)
    mean, per_point = procrustes(X, Y, n_neighbors, variant="pca", per_point=True)
    np.testing.assert_array_equal(per_point, local_pca_procrustes(X, Y, neighbors))
    assert mean == pytest.approx(expected.mean(), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_pca_variant_is_zero_on_an_isometric_strip_and_at_least_rn_minus_lower_bound(seed, swiss_roll):
    X, Z = isometric_strip(400, seed)
    assert np.abs(procrustes(X, Z, 10, variant="pca", per_point=True)[1]).max() < 1e-10
    # nuc(P'M) <= nuc(M): R_PCA >= R_N - lower bound at every point, on curved data too.
    X, _, raw_chart = swiss_roll(800, seed)
    neighbors = nearest_neighbors(X, 10)
    rn = local_procrustes(X, raw_chart, neighbors).normalized
    lower = local_pca_residual(X, neighbors, 2)
    assert np.all(local_pca_procrustes(X, raw_chart, neighbors) >= rn - lower - 1e-12)


def test_pca_variant_does_not_depend_on_chunk_size(monkeypatch, smooth_embedding):
    X, Y = smooth_embedding(300, 20, 2, seed=13)
    neighbors = nearest_neighbors(X, 6)
    default = local_pca_procrustes(X, Y, neighbors)
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 4000)
    np.testing.assert_array_equal(local_pca_procrustes(X, Y, neighbors), default)


# ---------------------------------------------------------------- invariances and bounds


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_invariant_to_rigid_motions_of_the_embedding(seed, smooth_embedding):
    X, Y = smooth_embedding(300, 4, 2, seed)
    rng = np.random.default_rng(seed)
    before = all_variants(X, Y, 8)
    # rotation-or-reflection, reflection
    for orthogonal in (ortho_group.rvs(2, random_state=rng), np.diag([1.0, -1.0])):
        after = all_variants(X, Y @ orthogonal + rng.normal(size=2) * 50.0, 8)
        for variant in VARIANTS:
            np.testing.assert_allclose(after[variant], before[variant], rtol=1e-9, atol=1e-12, err_msg=variant)


@pytest.mark.parametrize("seed", [0, 1])
def test_conformal_is_invariant_to_scaling_and_normalized_is_not(seed, smooth_embedding):
    X, Y = smooth_embedding(300, 4, 2, seed)
    before = all_variants(X, Y, 8)
    after = all_variants(X, 3.0 * Y, 8)
    np.testing.assert_allclose(after["conformal"], before["conformal"], rtol=1e-10, atol=1e-13)
    assert np.all(np.abs(after["normalized"] - before["normalized"]) > 1e-3)
    # Scaling the input and output together scales G by c² and leaves R_N unchanged.
    both = all_variants(2.5 * X, 2.5 * Y, 8)
    np.testing.assert_allclose(both["raw"], 6.25 * before["raw"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(both["normalized"], before["normalized"], rtol=1e-9, atol=1e-12)


def test_invariant_to_permuting_the_points(smooth_embedding):
    X, Y = smooth_embedding(300, 3, 2, seed=7)
    permutation = np.random.default_rng(7).permutation(300)
    before = all_variants(X, Y, 9)
    after = all_variants(X[permutation], Y[permutation], 9)
    for variant in VARIANTS:
        np.testing.assert_allclose(after[variant], before[variant][permutation], rtol=1e-12, atol=1e-15)


def _assert_bounds_at_every_point(X, Y, n_neighbors):
    tolerance = 1e-12
    lower = procrustes_lower_bound(X, n_neighbors, Y.shape[1], per_point=True)[1]
    conformal = procrustes(X, Y, n_neighbors, variant="conformal", per_point=True)[1]
    normalized = procrustes(X, Y, n_neighbors, variant="normalized", per_point=True)[1]
    assert np.all(lower <= conformal + tolerance)
    assert np.all(conformal <= normalized + tolerance)
    assert np.all(conformal <= 1.0 + tolerance) and np.all(lower >= -tolerance)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_lower_bound_le_conformal_le_normalized_at_every_point(seed, swiss_roll, smooth_embedding):
    X, arc_length_chart, raw_chart = swiss_roll(1000, seed)
    random_embedding = np.random.default_rng(seed).normal(size=(1000, 2))
    for Y in (arc_length_chart, raw_chart, 0.1 * raw_chart, random_embedding, arc_length_chart[:, :1]):
        _assert_bounds_at_every_point(X, Y, 10)
    _assert_bounds_at_every_point(*smooth_embedding(300, 20, 3, seed), 5)


# ---------------------------------------------------------------- the theory (GR Thm. 1, Cor. 1, Thm. 3)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_arc_length_chart_is_nearly_exact_except_where_the_graph_short_circuits(seed, swiss_roll):
    # At n = 1600, k = 12 some draws (seeds 0 and 3) have a neighbourhood that jumps between two
    # sheets of the roll: its R_N is ~35 and lifts the mean above 0.02 (SPEC §0). Everywhere else
    # every per-point value is below 0.02.
    X, arc_length_chart, _ = swiss_roll(1600, seed)
    n_neighbors = 12
    values = procrustes(X, arc_length_chart, n_neighbors, per_point=True)[1]
    t = np.hypot(X[:, 0], X[:, 2])  # |(t cos t, t sin t)| = t
    short_circuit = np.ptp(t[nearest_neighbors(X, n_neighbors)], axis=1) > np.pi
    assert np.median(values) < 0.02
    assert values[~short_circuit].max() < 0.02
    assert np.all(values[short_circuit] > 1.0)


def test_convergence_rates_against_neighbourhood_radius(swiss_roll):
    # GR Theorem 1: R(X, Z) = O(r⁴); Corollary 1: R_N = O(r²); Theorem 3: R_C = O(r²). In 2-D the
    # radius r² ∝ 1/n, so each ×4 in n divides R_N by ≈4 and G by ≈16. Medians keep a rare
    # short-circuited neighbourhood (SPEC §0) out of the fit.
    n_neighbors = 12
    sizes = (1600, 6400, 25600)
    radius, medians = [], {variant: [] for variant in VARIANTS}
    for n_samples in sizes:
        X, arc_length_chart, _ = swiss_roll(n_samples, seed=1)
        result = local_procrustes(X, arc_length_chart, nearest_neighbors(X, n_neighbors))
        radius.append(np.median(np.sqrt(result.input_sq_norm / (n_neighbors + 1))))  # RMS distance to the centroid
        for variant in VARIANTS:
            medians[variant].append(np.median(result.per_point(variant)))
    log_radius = np.log(radius)
    for variant, expected in (("raw", 4.0), ("normalized", 2.0), ("conformal", 2.0)):
        slope = np.polyfit(log_radius, np.log(medians[variant]), 1)[0]
        assert slope == pytest.approx(expected, abs=0.2), variant
    ratios = np.array(medians["normalized"][:-1]) / np.array(medians["normalized"][1:])
    assert np.all((3.5 < ratios) & (ratios < 4.6)), ratios


def test_raw_chart_does_not_converge(swiss_roll):
    # (t, h) is not isometric: R_N stays ≈ 0.37 however dense the sample (SPEC §1).
    for n_samples in (1600, 6400, 25600):
        X, _, raw_chart = swiss_roll(n_samples, seed=2)
        assert 0.35 < procrustes(X, raw_chart, 12) < 0.40


def test_conformal_chart_conformal_measure_converges_and_normalized_does_not():
    # GR Theorem 3: stereographic projection of the upper unit hemisphere, (x, y)/(1 + z), is
    # conformal with a local scale from 1 (pole) to ½ (equator). R_C → 0 like r², R_N does not.
    conformal, normalized = [], []
    for n_samples in (2000, 8000):
        rng = np.random.default_rng(8)
        z = rng.uniform(0.0, 1.0, n_samples)  # uniform in area on the hemisphere
        phi = rng.uniform(0.0, 2.0 * np.pi, n_samples)
        X = np.column_stack([np.sqrt(1.0 - z**2) * np.cos(phi), np.sqrt(1.0 - z**2) * np.sin(phi), z])
        Y = X[:, :2] / (1.0 + X[:, 2:])
        conformal.append(procrustes(X, Y, 10, variant="conformal"))
        normalized.append(procrustes(X, Y, 10, variant="normalized"))
    assert conformal[0] < 0.01 and 3.5 < conformal[0] / conformal[1] < 4.6
    assert normalized[1] > 0.1 and normalized[1] > 0.9 * normalized[0]


# ---------------------------------------------------------------- chunking and degenerate input


def test_results_do_not_depend_on_chunk_size(monkeypatch, smooth_embedding):
    X, Y = smooth_embedding(400, 5, 2, seed=9)
    X3, Y3 = smooth_embedding(400, 5, 3, seed=9)
    neighbors = nearest_neighbors(X, 7)
    default = (local_procrustes(X, Y, neighbors), local_procrustes(X3, Y3, neighbors),
               local_pca_residual(X, neighbors, 2))

    chunks_seen = []
    original = measures.chunks.chunk_slices

    def counting_chunk_slices(*args, **kwargs):
        parts = list(original(*args, **kwargs))
        chunks_seen.append(len(parts))
        return iter(parts)

    monkeypatch.setattr(kernels_module, "chunk_slices", counting_chunk_slices)
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 5000)
    tiny = (local_procrustes(X, Y, neighbors), local_procrustes(X3, Y3, neighbors), local_pca_residual(X, neighbors, 2))

    assert len(chunks_seen) == 3 and min(chunks_seen) >= 50, chunks_seen
    # Identical, not merely close: every value is computed from its own neighbourhood only.
    for variant in (*VARIANTS, "input_sq_norm"):
        for big, small in zip(default[:2], tiny[:2]):
            np.testing.assert_array_equal(getattr(small, variant), getattr(big, variant))
    np.testing.assert_array_equal(tiny[2], default[2])


def test_coincident_neighbourhoods_are_nan_and_left_out_with_a_warning():
    # Five copies of one point with k = 4: those five neighbourhoods have ||H X_i||² = 0.
    rng = np.random.default_rng(10)
    X = np.vstack([rng.normal(size=(95, 2)), np.repeat([[9.0, 9.0]], 5, axis=0)])
    Y = X @ [[0.0, 1.0], [1.0, 0.0]] + rng.normal(scale=0.1, size=(100, 2))
    for variant in ("normalized", "conformal"):
        with pytest.warns(ProcrustesLabWarning, match=r"5 neighbourhood\(s\) of coincident points left out"):
            mean, values = procrustes(X, Y, 4, variant=variant, per_point=True)
        assert np.isnan(values[95:]).all() and np.isfinite(values[:95]).all()
        assert mean == pytest.approx(values[:95].mean(), rel=1e-14)
    with pytest.warns(ProcrustesLabWarning, match="lower bound: 5 neighbourhood"):
        procrustes_lower_bound(X, 4, 1)
    # G itself is defined there (= ||H Y_i||², nothing to rotate onto), so R keeps every point.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mean, raw = procrustes(X, Y, 4, variant="raw", per_point=True)
    Yc = Y[95:] - Y[95:].mean(axis=0)
    np.testing.assert_allclose(raw[95:], np.sum(Yc**2), rtol=1e-12)
    assert mean == pytest.approx(raw.mean())


def test_every_neighbourhood_coincident_raises():
    X = np.zeros((6, 2))
    with pytest.raises(MeasureError, match="undefined at every point"):
        procrustes(X, np.random.default_rng(0).normal(size=(6, 2)), 3)


def test_mismatched_rows_raise():
    with pytest.raises(MeasureError, match=r"same number of rows.*X \(10, 3\) and Y \(9, 2\)"):
        procrustes(np.zeros((10, 3)), np.zeros((9, 2)), 3)


@pytest.mark.parametrize("variant", ["R_N", "Normalized", "", None])
def test_unknown_variant_raises(variant):
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(MeasureError, match=r"variant must be one of \['raw', 'normalized', 'conformal', 'pca'\]"):
        procrustes(X, X, 3, variant=variant)
    with pytest.raises(MeasureError, match=r"variant must be one of \['raw', 'normalized', 'conformal'\]"):
        local_procrustes(X, X, nearest_neighbors(X, 3)).per_point(variant)


def test_bad_input_raises():
    X = np.random.default_rng(0).normal(size=(10, 2))
    Y = X.copy()
    Y[4, 0] = np.nan
    with pytest.raises(MeasureError, match="Y contains NaN or infinite values in 1 row\\(s\\), first at row 4"):
        procrustes(X, Y, 3)
    with pytest.raises(MeasureError, match="n_neighbors must be an integer"):
        procrustes(X, X, 10)
    with pytest.raises(MeasureError, match=r"n_components must be an integer >= 1; got 0\."):
        procrustes_lower_bound(X, 3, 0)


def test_local_rotations_realise_the_rigid_statistic():
    # G of GR Eq. 1 is attained by A_i = UV' and b_i = mean(X_i) - A_i mean(Y_i): the residual of that
    # fit must equal the closed form, for a deliberately poor embedding.
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 3))
    Y = rng.normal(size=(120, 2))
    neighbors = nearest_neighbors(X, 7)
    rotations = measures.local_rotations(X, Y, neighbors)
    np.testing.assert_allclose(np.swapaxes(rotations, 1, 2) @ rotations, np.broadcast_to(np.eye(2), (120, 2, 2)),
                               atol=1e-12)
    Xi, Yi = X[neighbors], Y[neighbors]
    fitted = (Yi - Yi.mean(axis=1, keepdims=True)) @ np.swapaxes(rotations, 1, 2) + Xi.mean(axis=1, keepdims=True)
    residual = ((Xi - fitted) ** 2).sum(axis=(1, 2))
    np.testing.assert_allclose(residual, measures.local_procrustes(X, Y, neighbors).raw, rtol=1e-10, atol=1e-12)


def test_best_global_scale_minimizes_rn_over_a_grid():
    rng = np.random.default_rng(4)
    Z = rng.uniform(size=(300, 2)) * [6.0, 1.0]
    X = np.c_[Z, 0.05 * rng.normal(size=300)]
    Y = Z / Z.std(axis=0)  # a normalized-looking output, off in overall scale and in aspect
    neighbors = nearest_neighbors(X, 8)
    best = measures.local_procrustes(X, Y, neighbors).best_global_scale()
    grid = best * np.linspace(0.8, 1.2, 41)
    scores = [np.nanmean(measures.local_procrustes(X, c * Y, neighbors).normalized) for c in grid]
    assert np.argmin(scores) == 20  # the middle of the grid, c = best
    # An exact rigid copy needs no rescaling.
    assert measures.local_procrustes(X, X[:, :2] @ np.eye(2), neighbors).best_global_scale() == pytest.approx(
        1.0, abs=0.05)


def test_copies_of_one_point_are_coincident_whatever_their_rounding():
    # Issue 15: 13 copies of (0.1, 0.3, 0.7) centre to ~1e-17, not 0 (the mean rounds), so
    # ||H X_i||^2 ~ 1e-31 and R_N ~ 1e31 dominated the mean (3e31). The test is relative to the
    # data's magnitude, so these are undefined at any scale, and a real small spread is not.
    rng = np.random.default_rng(11)
    for scale in (1.0, 1e-120, 1e120):
        X = scale * np.vstack([rng.normal(size=(200, 3)), np.repeat([[0.1, 0.3, 0.7]], 13, axis=0)])
        Y = X[:, :2] + scale * 0.05 * rng.normal(size=(213, 2))
        with pytest.warns(ProcrustesLabWarning, match=r"13 neighbourhood\(s\) of coincident points"):
            mean, values = procrustes(X, Y, 12, per_point=True)
        assert np.isnan(values[200:]).all() and np.isfinite(values[:200]).all()
        assert mean < 1.0
    tight = np.vstack([rng.normal(size=(200, 3)), 0.1 + 1e-9 * rng.normal(size=(13, 3))])
    values = procrustes(tight, tight[:, :2], 12, per_point=True)[1]
    assert np.isfinite(values).all()


def test_r_n_and_r_c_are_defined_for_outputs_with_more_columns():
    # d > q (policy, SPEC §3 note): the rigid fit of Y onto X padded with zero columns.
    rng = np.random.default_rng(12)
    X = rng.normal(size=(300, 2))
    Y = np.c_[X @ [[0.6, -0.8], [0.8, 0.6]], 0.2 * rng.normal(size=300)]
    padded = np.c_[X, np.zeros(300)]
    for variant in ("raw", "normalized", "conformal", "pca"):
        assert procrustes(X, Y, 8, variant=variant) == pytest.approx(procrustes(padded, Y, 8, variant=variant),
                                                                      rel=1e-10), variant
    assert procrustes_lower_bound(X, 8, 3) == 0.0
