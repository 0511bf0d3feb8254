"""Tests of ``measures/evaluation.py``: the one entry point agrees with every measure's own function."""

import dataclasses
import importlib
import warnings

import numpy as np
import pytest

import measures.chunks
from measures import (
    DimensionError,
    auc_rnx,
    auc_rnx_values,
    distance_correlation_on_a_subset,
    MeasureError,
    ProcrustesLabWarning,
    collapse_score,
    continuity,
    distance_spearman,
    evaluate,
    kl_divergence,
    local_pca_residual,
    mrre,
    nearest_neighbors,
    neighbourhood_agreement,
    nieqa,
    procrustes,
    residual_variance,
    scale_normalized_stress,
    spec,
    specs,
    stress,
    triplet_accuracy,
    trustworthiness,
    truth_match,
)


@pytest.fixture
def run(swiss_roll):
    """A swiss roll (no short circuit at k = 10), a distorted output of it, and the truth."""
    X, arc_length_chart, raw_chart = swiss_roll(700, 0)
    Y = raw_chart / raw_chart.std(axis=0) + 0.02 * np.random.default_rng(0).normal(size=raw_chart.shape)
    return X, Y, arc_length_chart


def individual_values(X, Y, truth, k):
    """Every measure from its own public function: {name: (mean, per-point array or None)}."""
    values = {variant: procrustes(X, Y, k, variant=variant, per_point=True)
              for variant in ("raw", "normalized", "conformal", "pca")}
    lower = local_pca_residual(X, nearest_neighbors(X, k), Y.shape[1])
    values["lower_bound"] = (np.mean(lower), lower)
    result = nieqa(X, Y, k, per_point=True)
    values["asim"] = (result.local_assessment, result.asim_values)
    values["nieqa_global"] = (result.global_assessment, None)
    for name, function in (("neighbourhood_agreement", neighbourhood_agreement), ("trustworthiness", trustworthiness),
                           ("continuity", continuity)):
        values[name] = function(X, Y, k, per_point=True)
    values["residual_variance"] = (residual_variance(X, Y, k), None)
    values["truth_match"] = (truth_match(truth, Y), None)
    values["collapse"] = (collapse_score(truth, Y), None)
    values["stress"] = stress(X, Y, per_point=True)
    values["scale_normalized_stress"] = scale_normalized_stress(X, Y, per_point=True)
    values["kl_divergence"] = (kl_divergence(X, Y), None)
    values["distance_spearman"] = (distance_spearman(X, Y, k), None)
    values["mrre_false"] = mrre(X, Y, k, per_point=True)
    values["mrre_missing"] = mrre(X, Y, k, direction="missing", per_point=True)
    values["triplet_accuracy"] = triplet_accuracy(X, Y, per_point=True)
    values["auc_rnx"] = (auc_rnx(X, Y), auc_rnx_values(X, Y))
    values["shepard"] = (distance_spearman(X, Y, k, geodesic=False), None)
    values["cpd"] = (distance_correlation_on_a_subset(X, Y), None)
    return values


def test_agrees_with_the_individual_functions(run):
    X, Y, truth = run
    result = evaluate(X, Y, 10, truth=truth)
    expected = individual_values(X, Y, truth, 10)
    assert set(result.measures) == set(expected)
    for name, (mean, per_point) in expected.items():
        assert result.mean[name] == pytest.approx(mean, rel=1e-12, abs=1e-15), name
        if per_point is None:
            assert name not in result.per_point and name not in result.median
        else:
            np.testing.assert_array_equal(result.per_point[name], per_point, err_msg=name)
            assert result.median[name] == np.median(per_point)
    reference = nieqa(X, Y, 10)
    np.testing.assert_array_equal(result.nieqa.landmark_indices, reference.landmark_indices)
    np.testing.assert_array_equal(result.nieqa.landmark_configuration, reference.landmark_configuration)
    assert result.notes == ()


def test_results_do_not_depend_on_chunk_size(run, monkeypatch):
    X, Y, truth = run
    default = evaluate(X, Y, 10, truth=truth)
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 20_000)
    small = evaluate(X, Y, 10, truth=truth)
    for name in default.measures:
        # Sums over batches of sources (M_RV) may round differently; everything per point is identical.
        assert small.mean[name] == pytest.approx(default.mean[name], rel=1e-12), name
    for name, values in default.per_point.items():
        np.testing.assert_array_equal(small.per_point[name], values, err_msg=name)
    np.testing.assert_array_equal(small.nieqa.importance, default.nieqa.importance)


def test_which_selects_measures_and_the_truth_gates_truth_measures(run):
    X, Y, truth = run
    assert evaluate(X, Y, 10, which="asim").measures == ("asim",)
    only = evaluate(X, Y, 10, which=["trustworthiness", "normalized"])
    assert only.measures == ("normalized", "trustworthiness")  # registry order
    assert set(only.per_point) == {"normalized", "trustworthiness"} and only.nieqa is None
    without_truth = evaluate(X, Y, 10, which=None)
    assert {"truth_match", "collapse"}.isdisjoint(without_truth.measures)
    assert set(without_truth.measures) == {entry.name for entry in specs()
                                           if not entry.needs_truth and not entry.needs_labels}
    with pytest.raises(MeasureError, match=r"collapse, truth_match compare with the ground truth; pass truth="):
        evaluate(X, Y, 10, which=["truth_match", "collapse", "asim"])
    with pytest.raises(MeasureError, match=r"label_trustworthiness, silhouette read class labels; pass labels="):
        evaluate(X, Y, 10, which=["silhouette", "label_trustworthiness"])
    labels = (truth[:, 1] > 10.0).astype(int)
    assert ({"label_trustworthiness", "label_continuity", "silhouette"}
            <= set(evaluate(X, Y, 10, labels=labels).measures))
    with pytest.raises(MeasureError, match=r"labels must hold one value per point: shape \(700,\); got \(5,\)"):
        evaluate(X, Y, 10, labels=labels[:5])
    with pytest.raises(MeasureError, match="unknown measure 'R_N'"):
        evaluate(X, Y, 10, which=["R_N"])


def test_disconnected_graph_leaves_graph_measures_nan_with_a_note():
    # Two far clusters: M_G, M_RV and DEMaP need all geodesics; the local measures do not.
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(80, 3)), rng.normal(size=(80, 3)) + 100.0])
    with pytest.warns(ProcrustesLabWarning) as record:
        result = evaluate(X, X[:, :2], 6)
    messages = sorted(str(warning.message) for warning in record)
    assert len(messages) == 3
    assert messages.pop(0).startswith("DEMaP ρ not computed: the k-nearest-neighbour graph (k = 6) has 2 connected")
    assert np.isnan(result.mean["distance_spearman"])
    assert messages[0].startswith("M_G not computed: the k-nearest-neighbour graph (k = 6) has 2 connected components "
                                  "(sizes 80, 80); NIEQA's global assessment M_G needs every geodesic distance finite.")
    assert messages[1].startswith("M_RV not computed: the k-nearest-neighbour graph (k = 6) has 2 connected components "
                                  "(sizes 80, 80); residual variance needs every geodesic distance finite.")
    assert np.isnan(result.mean["nieqa_global"]) and np.isnan(result.mean["residual_variance"])
    assert np.isfinite(result.mean["asim"]) and result.nieqa is None
    assert sorted(result.notes)[1:] == messages
    # NQ Remark 1's k_l connects M_G's graph; M_RV (on the k-graph) stays NaN.
    with pytest.warns(ProcrustesLabWarning, match="M_RV not computed"):
        paper = evaluate(X, X[:, :2], 6, which=["nieqa_global", "residual_variance"], landmark_neighbors="paper")
    assert np.isfinite(paper.mean["nieqa_global"]) and paper.nieqa.landmark_neighbors > 6
    assert np.isnan(paper.mean["residual_variance"])


def test_per_point_measures_report_mean_median_and_undefined_points():
    # Five coincident points (k = 4): their normalized measures are NaN, left out with a warning.
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(size=(95, 2)), np.repeat([[9.0, 9.0]], 5, axis=0)])
    Y = X @ [[0.0, 1.0], [1.0, 0.0]] + 0.01 * rng.normal(size=(100, 2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(X, Y, 4, which=["normalized", "asim", "trustworthiness"])
    assert result.n_undefined == {"normalized": 5, "asim": 5, "trustworthiness": 0}
    assert result.mean["asim"] == pytest.approx(np.nanmean(result.per_point["asim"]), rel=1e-14)
    assert result.median["asim"] == np.nanmedian(result.per_point["asim"])
    assert any("5 neighbourhood(s) of coincident points" in note for note in result.notes)
    assert any(issubclass(w.category, ProcrustesLabWarning) for w in caught)


@pytest.mark.parametrize("entry", specs(), ids=lambda entry: entry.name)
def test_every_registered_measure_prefers_the_faithful_output(entry, swiss_roll):
    # Common test over the registry: each measure is computed, has the declared shape, and ranks
    # an isometric chart above a random output in its declared direction (the lower bound depends
    # on X alone and is checked to be equal instead; the collapse score, without a direction, sits
    # at its faithful value 1/2 for the chart and near 1 for an output unrelated to the truth).
    X, arc_length_chart, _ = swiss_roll(500, 1)
    # At the chart's scale: stress compares absolute distances (a tiny output scores stress ~1).
    random_output = np.random.default_rng(1).normal(size=(500, 2)) * arc_length_chart.std(axis=0)
    # Classes split along the roll's straight axis h: as far apart in X as in the chart.
    labels = (arc_length_chart[:, 1] > np.median(arc_length_chart[:, 1])).astype(int)
    if entry.name == "label_continuity":
        # Label-C falls where the output separates classes the input mixes: labels at random, and
        # a bad output that pulls the two classes apart.
        labels = np.random.default_rng(2).integers(0, 2, 500)
        random_output = arc_length_chart + [0.0, 100.0] * labels[:, None]
    if entry.name == "class_neighbour_preservation":
        # With two classes each mean's one neighbour is kept by any output: eight classes along the roll.
        edges = np.quantile(arc_length_chart[:, 0], np.linspace(0, 1, 9)[1:-1])
        labels = np.searchsorted(edges, arc_length_chart[:, 0])
    good = evaluate(X, arc_length_chart, 10, truth=arc_length_chart, which=[entry.name], labels=labels)
    bad = evaluate(X, random_output, 10, truth=arc_length_chart, which=[entry.name], labels=labels)
    assert good.measures == (entry.name,)
    assert (entry.name in good.per_point) == entry.per_point
    if entry.per_point:
        assert good.per_point[entry.name].shape == (500,)
    if entry.name == "lower_bound":
        assert good.mean[entry.name] == bad.mean[entry.name]
    elif entry.higher_is_better is None:
        assert abs(good.mean[entry.name] - 0.5) < 0.05 and bad.mean[entry.name] > 0.9
    elif not entry.higher_is_better:
        assert good.mean[entry.name] < bad.mean[entry.name]
    else:
        assert good.mean[entry.name] > bad.mean[entry.name]
    assert evaluate(X, arc_length_chart, 10, truth=arc_length_chart, which=[entry.name],
                    labels=labels).mean == good.mean


def test_result_is_read_only(run):
    X, Y, _ = run
    result = evaluate(X, Y, 10, which=["asim"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.mean = {}
    with pytest.raises(TypeError):
        result.mean["asim"] = 0.0


def test_bad_options_raise(run):
    X, Y, truth = run
    with pytest.raises(MeasureError, match=r"n_samples / 2"):
        evaluate(X[:20], Y[:20], 10, which=["trustworthiness"])
    with pytest.raises(MeasureError, match=r"landmark_fraction must lie in \(0, 1\]"):
        evaluate(X, Y, 10, which=["nieqa_global"], landmark_fraction=0.0)
    with pytest.raises(MeasureError, match=r"truth and X must have the same number of rows"):
        evaluate(X, Y, 10, truth=truth[:5])
    assert spec("nieqa_global").uses_geodesics


# ---------------------------------------------------------------- numerics at the edges (issue 15)


@pytest.mark.parametrize("factor", [1e-150, 1e-100, 2.0**-600, 1e100, 1e150])
def test_no_measure_changes_when_input_and_output_are_scaled_together(run, factor):
    # The d = 2 closed form squared entries of X'Y (products of two coordinates): at 1e-150 they
    # underflowed (R_N 1.78 for 0.35, R_C 1.0); at 1e150 they overflowed (every neighbourhood
    # "coincided"). R, a sum of squared residuals, scales with factor^2.
    X, Y, truth = run
    X, Y, truth = X[:400], Y[:400], truth[:400]
    reference = evaluate(X, Y, 10, truth=truth)
    scaled = evaluate(factor * X, factor * Y, 10, truth=factor * truth)
    for name in reference.measures:
        expected = reference.mean[name] * (factor**2 if name == "raw" else 1.0)
        assert scaled.mean[name] == pytest.approx(expected, rel=1e-9, abs=1e-12 * (name != "raw")), name


def test_coordinates_near_the_float_limit_are_searched():
    # At 1e154 the squared distances of the tree overflowed and the search raised IndexError.
    X = np.random.default_rng(0).normal(size=(300, 3))
    np.testing.assert_array_equal(nearest_neighbors(1e154 * X, 8), nearest_neighbors(X, 8))
    which = ["normalized", "trustworthiness", "residual_variance"]
    result = evaluate(1e154 * X, 1e154 * X[:, :2], 8, which=which)
    assert result.mean == pytest.approx(dict(evaluate(X, X[:, :2], 8, which=which).mean), rel=1e-12)


def test_output_with_more_columns_than_the_input_follows_the_policy(run):
    # GR's measures are defined for any d (the fit in R^d of X padded with zero columns); ASIM's P
    # lies on St(q, d), empty for d > q: left out by default with a note, refused by name.
    X, Y, _ = run
    X2 = X[:, :2]
    wide = np.c_[Y, 0.1 * X[:, 1]]
    with pytest.warns(ProcrustesLabWarning, match=r"ASIM \(M_L\), M_G not computed: the output has more columns"):
        result = evaluate(X2, wide, 10)
    assert "asim" not in result.measures and "nieqa_global" not in result.measures
    assert any("ASIM needs d <= q" in note for note in result.notes)
    padded = evaluate(np.c_[X2, np.zeros(len(X2))], wide, 10, which=["normalized", "conformal", "trustworthiness"])
    for name in padded.measures:
        assert result.mean[name] == pytest.approx(padded.mean[name], rel=1e-12), name
    for name in ("asim", "nieqa_global"):
        with pytest.raises(DimensionError, match=r"more columns \(d = 3\) than the reference \(q = 2\)"):
            evaluate(X2, wide, 10, which=[name])


# ---------------------------------------------------------------- a million points (issue 16)


def test_a_precomputed_search_gives_the_same_values(run):
    X, Y, truth = run
    which = ["normalized", "asim", "trustworthiness", "continuity", "residual_variance", "nieqa_global"]
    reference = evaluate(X, Y, 10, which=which)
    for width in (10, 11, 14):  # k, k + 1 (continuity's tie check spared) and more: the prefix is used
        shared = evaluate(X, Y, 10, which=which, neighbors=nearest_neighbors(X, width))
        assert shared.mean == reference.mean, width
        for name in reference.per_point:
            np.testing.assert_array_equal(shared.per_point[name], reference.per_point[name])


def test_a_precomputed_search_is_checked(run):
    X, Y, _ = run
    neighbors = nearest_neighbors(X, 10)
    with pytest.raises(MeasureError, match=r"neighbors must have shape \(n_samples, n_neighbors \+ 1\) = \(700, 11\)"):
        evaluate(X, Y, 10, neighbors=neighbors[:, :8])
    with pytest.raises(MeasureError, match=r"row i of neighbors must start with i .* 700 row\(s\)"):
        evaluate(X, Y, 10, neighbors=neighbors[:, ::-1])
    with pytest.raises(MeasureError, match=r"indices outside \[0, 699\]"):
        evaluate(X, Y, 10, neighbors=np.c_[neighbors[:, :1], neighbors[:, 1:] + 700])
    with pytest.raises(MeasureError, match="integer point indices"):
        evaluate(X, Y, 10, neighbors=neighbors.astype(float))


def test_measures_without_neighbourhoods_search_nothing(run, monkeypatch):
    X, Y, truth = run
    evaluation_module = importlib.import_module("measures.evaluation")

    def refuse(*args, **kwargs):
        raise AssertionError("searched X")

    monkeypatch.setattr(evaluation_module, "nearest_neighbors", refuse)
    result = evaluate(X, Y, 10, truth=truth, which=["truth_match", "collapse"])
    assert result.mean["truth_match"] == truth_match(truth, Y)


def test_sampled_graph_measures_state_their_approximation(run, pivot_sampling, monkeypatch):
    X, Y, truth = run
    assert evaluate(X, Y, 10, which=["residual_variance", "nieqa_global"]).approximations == {}
    pivot_sampling(500, 60)
    monkeypatch.setattr(importlib.import_module("measures.nieqa"), "SUBSAMPLE_ABOVE", 600)
    monkeypatch.setattr(importlib.import_module("measures.evaluation"), "SUBSAMPLE_ABOVE", 600)
    result = evaluate(X, Y, 10, which=["residual_variance", "nieqa_global"], random_state=3)
    assert result.approximations["residual_variance"].startswith("ρ from the shortest paths of 60 random sources")
    assert "uniform random subsample of 600 of the 700 points" in result.approximations["nieqa_global"]
    assert "60 random sources" in result.approximations["nieqa_global"]
    alone = nieqa(X, Y, 10, random_state=3)
    assert result.mean["nieqa_global"] == alone.global_assessment
    np.testing.assert_array_equal(result.nieqa.landmark_indices, alone.landmark_indices)
    assert result.mean["residual_variance"] == residual_variance(X, Y, 10, random_state=3)
    # The landmarks are points of the full data, and sit on the sample (importance known there).
    assert np.isfinite(result.nieqa.importance[result.nieqa.landmark_indices]).all()
    assert np.isnan(result.nieqa.importance).sum() == 100


@pytest.mark.slow
def test_trustworthiness_and_continuity_equal_scikit_learn_at_5000_points(swiss_roll):
    from sklearn.manifold import trustworthiness as sklearn_trustworthiness

    X, chart, _ = swiss_roll(5000, 4)
    Y = chart + 0.3 * np.random.default_rng(4).normal(size=chart.shape)
    result = evaluate(X, Y, 12, which=["trustworthiness", "continuity"])
    assert result.mean["trustworthiness"] == sklearn_trustworthiness(X, Y, n_neighbors=12)
    assert result.mean["continuity"] == sklearn_trustworthiness(Y, X, n_neighbors=12)


@pytest.mark.parametrize("spearman_pairs", [None, 5_000])  # every pair; 16 sources of 300 (Spearman sampled)
def test_demap_read_from_the_residual_variance_sweep_equals_its_own_dijkstra(swiss_roll, monkeypatch, spearman_pairs):
    """One Dijkstra for both: with the residual variance asked for, DEMaP takes its pairs from that
    sweep's rows, and its value is the one its own sweep gives, to the last bit."""
    distances_module = importlib.import_module("measures.distances")
    evaluation_module = importlib.import_module("measures.evaluation")
    if spearman_pairs is not None:
        monkeypatch.setattr(distances_module, "SPEARMAN_PAIRS", spearman_pairs)
    X, chart, _ = swiss_roll(300, 2)
    Y = chart + 0.05 * np.random.default_rng(2).normal(size=chart.shape)
    alone = evaluate(X, Y, 8, which=["distance_spearman"]).mean["distance_spearman"]

    def no_second_dijkstra(*args, **kwargs):
        raise AssertionError("DEMaP ran its own Dijkstra beside the residual variance's")

    monkeypatch.setattr(evaluation_module, "distance_spearman_values", no_second_dijkstra)
    together = evaluate(X, Y, 8, which=["distance_spearman", "residual_variance"])
    assert together.mean["distance_spearman"] == alone
    assert 0.0 < alone < 1.0  # a value away from its bounds, where a wrong pair would show


def test_progress_names_each_group_of_measures_in_order_and_counts_the_sweep_s_sources(monkeypatch):
    """issue 19 / 24: a long run's label moved only between phases; the sweep now counts its sources."""
    import measures.chunks

    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 48 * 300 * 50)  # sweeps of 50 sources
    X = np.random.default_rng(0).normal(size=(300, 3))
    Y = X[:, :2] + 0.01
    calls = []
    evaluate(X, Y, 8, truth=X[:, :2], progress=lambda fraction, stage: calls.append((fraction, stage)))
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions) and 0.0 <= fractions[0] and fractions[-1] <= 1.0
    stages = [stage.split(":")[0] for _, stage in calls]
    assert list(dict.fromkeys(stages)) == [
        "neighbours and local Procrustes", "ASIM", "neighbour ranks (trustworthiness, continuity)",
        "the truth's measures (M_t, collapse)", "geodesics (M_G, residual variance)", "landmark geodesics (M_G)",
        "distances and ranks (stress, DEMaP, AUC R_NX, Shepard, triplets)"]
    swept = [stage for _, stage in calls if "sources" in stage]
    assert swept[-1].endswith("300 of 300 sources") and len(swept) == 6


def test_partial_results_come_cheapest_first_and_hold_the_final_values():
    """issue 24 item 2: each group's measures reach ``partial`` as they are done, with the values (means,
    medians, per-point arrays; R in the caller's units) the result then holds, the slow groups last."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 3)) * 1e3  # R in squared units: a scale the power-of-two rescaling must undo
    Y = X[:, :2] + rng.normal(scale=30.0, size=(300, 2))
    published = []
    result = evaluate(X, Y, 8, truth=X[:, :2],
                      partial=lambda mean, median, per_point: published.append((mean, median, per_point)))
    done = [set(mean) for mean, _, _ in published]
    assert all(earlier < later for earlier, later in zip(done, done[1:]))  # each adds measures, none is lost
    assert {"raw", "normalized", "conformal", "asim", "trustworthiness", "continuity"} <= done[0]
    assert not done[0] & {"nieqa_global", "residual_variance", "stress", "distance_spearman", "truth_match"}
    assert "truth_match" in done[1] and "nieqa_global" not in done[1]
    assert {"nieqa_global", "residual_variance"} <= done[2] and "stress" not in done[-1]
    assert done[-1] < set(result.measures)  # the last group comes with the result itself
    for mean, median, per_point in published:
        for name in mean:
            assert mean[name] == result.mean[name] and median.get(name) == result.median.get(name)
        for name, values in per_point.items():
            np.testing.assert_array_equal(values, result.per_point[name])
    assert published[0][0]["raw"] > 1.0  # in X's units squared, not the rescaled ones'


def test_without_partial_the_result_is_the_same():
    """Publishing partial results changes no value."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 3))
    Y = X[:, :2] + rng.normal(scale=0.05, size=(200, 2))
    quiet = evaluate(X, Y, 8, truth=X[:, :2])
    told = evaluate(X, Y, 8, truth=X[:, :2], partial=lambda mean, median, per_point: None)
    assert dict(quiet.mean) == dict(told.mean) and quiet.notes == told.notes


@pytest.mark.parametrize("kept", [True, False])
def test_every_measure_on_every_core_equals_one_core_bit_for_bit(monkeypatch, kept):
    """issue 24 item 4: the graph sweep and M_G's landmark geodesics on worker processes, the pair sums and
    the rank sorts on threads, give every value and per-point array of the same evaluation on one core;
    ``kept``: the landmarks' rows read from the kept sweep, else computed in batches."""
    processes = importlib.import_module("measures.processes")
    geodesics, distances = (importlib.import_module(f"measures.{name}") for name in ("geodesics", "distances"))
    if not kept:
        monkeypatch.setattr(geodesics._sweeps, "budget", 0)
    rng = np.random.default_rng(5)
    t = rng.uniform(0.0, 3.0, size=(500, 2))
    X = np.column_stack([t[:, 0] * np.cos(2 * t[:, 0]), t[:, 1], t[:, 0] * np.sin(2 * t[:, 0])])
    Y = t + 0.05 * rng.normal(size=t.shape)

    def evaluated():
        geodesics._sweeps.clear()  # each pass computes its own sweep and ranks, none read the other's
        distances._ranks.clear()
        return evaluate(X, Y, 8, truth=t)

    monkeypatch.setattr(processes, "PARALLEL", False)
    alone = evaluated()
    monkeypatch.setattr(processes, "PARALLEL", True)
    for module in (geodesics, distances):
        monkeypatch.setattr(module, "PARALLEL_FROM_PAIRS", 0)
    monkeypatch.setattr(geodesics, "_PAIRS_PER_CALL", 500 * 9)  # the 50 landmarks in 6 batches
    shared = evaluated()
    assert alone.measures == shared.measures and len(alone.measures) >= 20
    assert {name: value for name, value in alone.mean.items() if not np.isnan(value)} == {
        name: value for name, value in shared.mean.items() if not np.isnan(value)}
    for name, values in alone.per_point.items():
        np.testing.assert_array_equal(values, shared.per_point[name], err_msg=name)
    np.testing.assert_array_equal(alone.nieqa.landmark_configuration, shared.nieqa.landmark_configuration)


def test_progress_never_goes_back_when_m_g_sweeps_its_own_graph_first():
    """M_G on another k_l runs its own sweep and landmarks before the residual variance's sweep: the bar holds."""
    X = np.random.default_rng(2).normal(size=(300, 3))
    calls = []
    evaluate(X, X[:, :2], 8, which=["nieqa_global", "residual_variance"], landmark_neighbors=12,
             progress=lambda fraction, stage: calls.append((fraction, stage)))
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions)
    assert any("landmarks" in stage for _, stage in calls) and calls[-1][1].endswith("300 of 300 sources")
