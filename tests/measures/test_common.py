"""Checks run over every entry of the measure registry, as ``tests/algorithms/test_common.py`` runs one
set over every algorithm: a typed error on a bad k, determinism, the invariances of SPEC §3, chunk-size
invariance, and a direction (``higher_is_better``) consistent with where a perfect embedding scores.

Every measure is computed through ``measures.evaluate(..., which=[name])``, the entry point the
dashboard and the sweeps use, so a new registry entry joins these checks by being registered.
"""

import numpy as np
import pytest
from scipy.stats import ortho_group

import measures
import measures.chunks
from measures import MeasureError, evaluate, spec, specs

NAMES = [entry.name for entry in specs()]
K = 8
N_SAMPLES = 300
# ASIM compares X with Y up to a rotation *and a scale per output axis*: it is invariant to
# scaling, flipping and permuting Y's axes, not to rotating Y (SPEC §3). M_G and M_t are ASIMs.
ASIM_FAMILY = {name for name in NAMES if spec(name).needs_d_at_most_q} | {"truth_match"}
# Measures read off pairwise distances or whole configurations, not neighbourhoods: a tolerance
# for the rounding a rotation brings into their sums.
RTOL = 1e-9


@pytest.fixture(scope="module")
def data():
    """A flat 3 x 1 strip placed in R^3 by a rotation and a shift (X), its truth Z, a distorted
    output Y of it (a bend and noise: nothing is exact), and labels for label-aware measures."""
    rng = np.random.default_rng(0)
    truth = rng.uniform(size=(N_SAMPLES, 2)) * [3.0, 1.0]
    placement = ortho_group.rvs(3, random_state=1)[:, :2]
    X = truth @ placement.T + [1.0, -2.0, 0.5]
    Y = np.c_[truth[:, 0] + 0.15 * truth[:, 1] ** 2, truth[:, 1] + 0.1 * np.sin(2.0 * truth[:, 0])]
    Y = Y + 0.02 * rng.normal(size=Y.shape)
    labels = (truth[:, 0] > 1.5).astype(int) + 2 * (truth[:, 1] > 0.5)
    return X, Y, truth, labels


def compute(name, X, Y, truth, labels, **options):
    """``evaluate`` of one measure: (mean, per-point array or None)."""
    kwargs = {"truth": truth} if spec(name).needs_truth else {}
    if getattr(spec(name), "needs_labels", False):
        kwargs["labels"] = labels
    result = evaluate(X, Y, K, which=[name], **kwargs, **options)
    return result.mean[name], result.per_point.get(name)


def assert_same(first, second, name, rtol=RTOL):
    assert first[0] == pytest.approx(second[0], rel=rtol, abs=1e-12), name
    if first[1] is not None:
        np.testing.assert_allclose(first[1], second[1], rtol=rtol, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [0, N_SAMPLES, -3, 2.5, True, "8", None])
def test_a_bad_k_raises_a_typed_error_naming_the_bound(data, name, bad):
    X, Y, truth, labels = data
    with pytest.raises(MeasureError, match=r"n_neighbors must be an integer in \[1, \d+\]; got "):
        evaluate(X, Y, bad, which=[name], truth=truth, labels=labels)


@pytest.mark.parametrize("name", NAMES)
def test_deterministic(data, name):
    X, Y, truth, labels = data
    first, second = compute(name, X, Y, truth, labels), compute(name, X.copy(), Y.copy(), truth.copy(), labels)
    assert first[0] == second[0] or (np.isnan(first[0]) and np.isnan(second[0]))
    if first[1] is not None:
        np.testing.assert_array_equal(first[1], second[1])


@pytest.mark.parametrize("name", NAMES)
def test_rigid_motions_of_the_input_change_nothing(data, name):
    X, Y, truth, labels = data
    reference = compute(name, X, Y, truth, labels)
    rotation = ortho_group.rvs(3, random_state=2)
    reflection = np.diag([1.0, -1.0, 1.0])
    moved = compute(name, X @ rotation @ reflection + [5.0, 0.0, -3.0], Y, truth, labels)
    assert_same(moved, reference, name)


@pytest.mark.parametrize("name", NAMES)
def test_output_invariances_of_spec_3(data, name):
    X, Y, truth, labels = data
    reference = compute(name, X, Y, truth, labels)
    if name in ASIM_FAMILY:
        # Axis scales of either sign and a permutation of the axes, plus a shift.
        transforms = [Y[:, ::-1] * [2.5, -0.4] + [3.0, 1.0]]
    else:
        angle = 0.7
        rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        transforms = [Y @ rotation + [3.0, 1.0], Y * [1.0, -1.0] - 2.0]
    for moved in transforms:
        assert_same(compute(name, X, moved, truth, labels), reference, name)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("factor", [1e-3, 7.0, 1e120])
def test_uniform_scaling_of_both_changes_nothing_but_r(data, name, factor):
    X, Y, truth, labels = data
    reference = compute(name, X, Y, truth, labels)
    scaled = compute(name, factor * X, factor * Y, factor * truth, labels)
    power = 2 if name == "raw" else 0
    expected = (reference[0] * factor**power, None if reference[1] is None else reference[1] * factor**power)
    assert_same(scaled, expected, name)


@pytest.mark.parametrize("name", NAMES)
def test_chunk_size_changes_nothing(data, name, monkeypatch):
    X, Y, truth, labels = data
    reference = compute(name, X, Y, truth, labels)
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 4096)
    monkeypatch.setattr(measures.chunks, "CACHE_BYTES", 4096)
    assert_same(compute(name, X, Y, truth, labels), reference, name, rtol=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_a_perfect_embedding_scores_at_the_good_end(data, name):
    # The truth of a flat strip is an isometric embedding of X: every error measure is ~0, every
    # score is 1 (the graph measures, computed on kNN-graph geodesics that zigzag, nearly so).
    X, _, truth, labels = data
    value, _ = compute(name, X, truth, truth, labels)
    entry = spec(name)
    near = 0.05 if entry.uses_geodesics or name in ("truth_match",) else 1e-9
    if name == "silhouette":  # a property of the classes' layout: an isometry keeps the input's
        assert value == pytest.approx(measures.silhouette(X, labels), rel=1e-9)
    elif name == "neighbourhood_hit":  # so is the hit: the input's own, at the same k
        assert value == pytest.approx(measures.neighbourhood_hit(X, labels, K), rel=1e-12)
    elif entry.higher_is_better is None:
        assert value == pytest.approx(0.5, abs=0.05), name  # the collapse score of a faithful 2-D output
    elif entry.higher_is_better:
        assert value >= 1.0 - near, name
    else:
        assert abs(value) <= near, name
