"""Differences against seed noise: a pair's displacements over run A's spread when re-seeded. Ratios worked by
hand, the units of the two agreeing (a pair that is two runs of a consensus sits at 2 spreads everywhere),
invariance to moving B, the deterministic case, and the request end to end."""

import doctest

import numpy as np
import pytest

import lab.compute.seed_noise
import measures
from lab import PairRequest, ResultCache, RunRequest, SeedNoiseRequest, StateError, ViewState
from lab.compute import compute
from lab.compute.catalogue import SEED_NOISE_COLOR, SEED_NOISE_LABEL
from lab.compute.choices import DataChoice, MethodChoice, OutputRef, UploadRef
from lab.compute.pairs import PairResult, pair_coloring
from lab.compute.seed_noise import (
    ROUNDING_SPREAD,
    SeedNoiseResult,
    relative_displacement,
    seed_noise_ratio,
)
from lab.compute.stability import StabilityRequest, consensus
from lab.view.state import PairChoice, StabilityChoice

from .test_stability import similarity

DATA = DataChoice("strip", 150).validated()


def _result(displacement, spread):
    displacement, spread = np.asarray(displacement, dtype=float), np.asarray(spread, dtype=float)
    return SeedNoiseResult(displacement=displacement, spread=spread, ratio=seed_noise_ratio(displacement, spread),
                           random_states=(0, 1, 2), label_a="A", label_b="B", notes=(), failed=0)


def test_known_displacements_and_spreads_give_the_known_ratios_and_share():
    # A: four points at radius sqrt(mean(1, 1, 4, 4)) = sqrt(2.5); displacements of 0.5, 1, 2 and 4 of that radius.
    A = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    displacement = relative_displacement(A, np.sqrt(2.5) * np.array([0.5, 1.0, 2.0, 4.0]))
    np.testing.assert_allclose(displacement, [0.5, 1.0, 2.0, 4.0], rtol=1e-15)
    result = _result(displacement, [1.0, 0.25, 0.5, 4.0])
    np.testing.assert_allclose(result.ratio, [0.5, 4.0, 4.0, 1.0], rtol=1e-15)
    assert result.beyond == 0.5  # two of four points beyond 2 spreads
    assert result.median_ratio == pytest.approx(2.5)
    assert not result.deterministic
    # Highest ratio first; the tie at 4 goes to the larger displacement.
    np.testing.assert_array_equal(result.ranked(3), [2, 1, 3])
    assert pair_coloring(None, SEED_NOISE_COLOR, np.array([1, 3]), result)[1] == SEED_NOISE_LABEL
    np.testing.assert_array_equal(result.coloring(np.array([1, 3]))[0], [4.0, 1.0])


def test_exactly_two_spreads_is_not_beyond_and_a_point_without_spread_is_not_counted():
    result = _result([0.2, 0.2, 0.3, 0.1], [0.1, 0.05, np.nan, 0.1])
    np.testing.assert_allclose(result.ratio[[0, 1, 3]], [2.0, 4.0, 1.0])
    assert np.isnan(result.ratio[2])
    assert result.beyond == pytest.approx(1 / 3)  # of the three points two runs hold
    assert 2 not in result.ranked(3)


def test_a_pair_of_two_noisy_copies_sits_at_two_spreads_everywhere():
    """Units: with A and B the only two runs, each point's spread is half its displacement (both over the radius,
    the consensus's and A's), so every ratio is 2, whatever the outputs' scales. A ratio left in A's units
    (displacement not divided by A's radius) would be off by A's radius, here about 300."""
    rng = np.random.default_rng(3)
    truth = rng.normal(size=(200, 2)) * [3.0, 1.0]
    A = 100.0 * (truth + 1e-4 * rng.normal(size=truth.shape))
    B = similarity(rng)(truth + 1e-4 * rng.normal(size=truth.shape))
    spread = consensus([A, B]).spread
    displacement = relative_displacement(A, measures.similarity_procrustes(A, B).displacement)
    np.testing.assert_allclose(seed_noise_ratio(displacement, spread), 2.0, rtol=1e-3)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_ratio_does_not_change_when_b_is_moved_turned_mirrored_or_scaled(seed):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(60, 2))
    B = A + 0.3 * rng.normal(size=A.shape) ** 3
    spread = rng.uniform(0.01, 0.2, size=60)

    def ratio(B):
        return seed_noise_ratio(relative_displacement(A, measures.similarity_procrustes(A, B).displacement), spread)

    np.testing.assert_allclose(ratio(similarity(rng)(B)), ratio(B), rtol=1e-8)
    # Scaling A scales its displacements and its radius alike.
    scaled = relative_displacement(7.0 * A, measures.similarity_procrustes(7.0 * A, B).displacement)
    np.testing.assert_allclose(seed_noise_ratio(scaled, spread), ratio(B), rtol=1e-8)


def test_without_seed_noise_a_moved_point_is_infinitely_beyond_and_a_still_one_is_not():
    ratio = seed_noise_ratio(np.array([0.1, 1e-12, 0.0, 0.1]), np.array([0.0, 1e-15, 0.0, 10 * ROUNDING_SPREAD]))
    assert ratio[0] == np.inf and ratio[1] == 0.0 and ratio[2] == 0.0
    assert ratio[3] == pytest.approx(1e6)


def test_a_deterministic_run_a_says_so_and_every_moved_point_is_beyond(tmp_path):
    """PCA reruns are identical: no division by a zero spread, the views show the displacement over A's radius."""
    pair = PairRequest(RunRequest(DATA, MethodChoice("pca", 8).validated()),
                       RunRequest(DATA, MethodChoice("isomap", 8).validated()))
    cache = ResultCache(tmp_path)
    result, _ = compute(SeedNoiseRequest(pair, 3), cache=cache)
    assert result.deterministic and result.beyond == 1.0
    assert np.all(result.spread == 0.0) and np.all(result.ratio == np.inf)
    values, title = result.coloring()
    assert "deterministic" in title and np.all(np.isfinite(values))
    pair_result = cache.get(pair)
    np.testing.assert_allclose(values, relative_displacement(pair_result.A, pair_result.displacement))
    # Ranked by displacement when every ratio is infinite.
    top = result.ranked(5)
    np.testing.assert_array_equal(top, np.argsort(-result.displacement, kind="stable")[:5])


def test_the_request_divides_the_pair_s_displacements_by_the_cached_stability_study(tmp_path):
    cache = ResultCache(tmp_path)
    state = ViewState(data=DataChoice("strip", 150), method=MethodChoice("tsne", 8),
                      pair=PairChoice(None, random_state=9), stability=StabilityChoice("random_states", 3)).validated()
    study, _ = compute(StabilityRequest.from_state(state), cache=cache)  # the user studied A's stability first
    request = SeedNoiseRequest.from_state(state)
    assert request.stability == StabilityRequest.from_state(state) and request.n_runs == 3
    result, cached = compute(request, cache=cache)
    pair, pair_cached = compute(request.pair, cache=cache)
    assert not cached and pair_cached  # the pair was computed with it, and kept
    np.testing.assert_array_equal(result.spread, study.spread)
    expected = relative_displacement(pair.A, pair.displacement) / study.spread
    np.testing.assert_allclose(result.ratio, expected, rtol=1e-12)
    assert not result.deterministic and 0.0 < result.beyond < 1.0


def test_an_uploaded_run_a_cannot_be_re_seeded():
    upload = UploadRef("0" * 64, "points.csv", output=OutputRef(columns=(3, 4)))
    state = ViewState(data=DataChoice("upload", upload=upload), method=MethodChoice("uploaded"),
                      pair=PairChoice("isomap")).validated()
    with pytest.raises(StateError, match="Stability reruns an algorithm"):
        SeedNoiseRequest.from_state(state)


def test_the_colouring_chosen_before_the_spread_is_computed_shows_the_displacement_and_says_so():
    points = np.zeros((3, 2))
    pair = PairResult(points, points, np.array([0.0, 1.0, 2.0]), np.zeros(3), np.zeros(3), 0.5, 1.0, False,
                      points, ("u",), {}, {}, "A", "B")
    values, title = pair_coloring(pair, SEED_NOISE_COLOR, np.array([2, 0]))
    np.testing.assert_array_equal(values, [2.0, 0.0])
    assert title == "displacement (A's seed spread not computed)"


def test_doctests():
    assert doctest.testmod(lab.compute.seed_noise).failed == 0
