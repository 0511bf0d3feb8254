"""The pairs tab's figures and cards, as plain functions: what they draw is the pair's numbers."""

import numpy as np
import pytest

import measures

from components.figures import HIGHLIGHT_TRACE, SELECTION_TRACE
from components.figures.pairs import (
    MORPH_FRAMES,
    SEGMENT_TRACE,
    MORPH_SECONDS,
    morph_figure,
    morph_play,
    pair_figures,
    stability_figure,
)
from components.pairs import pair_cards, seed_noise_cards, seed_noise_table, stability_cards
from lab.compute.pairs import PairResult
from lab.compute.seed_noise import SeedNoiseResult, seed_noise_ratio
from lab.compute.stability import StabilityResult


@pytest.fixture
def pair():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(50, 2))
    B = 3.0 * A[:, ::-1] + rng.normal(scale=0.1, size=(50, 2))  # mirrored, scaled, a little noise
    return A, measures.similarity_procrustes(A, B)


def test_both_views_share_one_scale_and_b_draws_each_displacement(pair):
    A, fit = pair
    color = fit.displacement
    a, b = pair_figures(A, fit.aligned, color, (0.0, 1.0), "displacement", titles=("A", "B"))
    assert a.layout.xaxis.range == b.layout.xaxis.range and a.layout.yaxis.range == b.layout.yaxis.range
    low, high = np.minimum(A, fit.aligned).min(axis=0), np.maximum(A, fit.aligned).max(axis=0)
    assert a.layout.xaxis.range[0] < low[0] and a.layout.xaxis.range[1] > high[0]
    np.testing.assert_array_equal(b.data[0].x, fit.aligned[:, 0].astype(np.float32))
    assert len(a.data[HIGHLIGHT_TRACE].x) == len(b.data[SELECTION_TRACE].x) == 0  # filled in the browser
    segments = np.c_[b.data[SEGMENT_TRACE].x, b.data[SEGMENT_TRACE].y]
    np.testing.assert_array_equal(segments[0::3], A.astype(np.float32))
    np.testing.assert_array_equal(segments[1::3], fit.aligned.astype(np.float32))
    assert np.isnan(segments[2::3]).all()
    _, plain = pair_figures(A, fit.aligned, color, (0.0, 1.0), "displacement", segments=False)
    assert len(plain.data) == SEGMENT_TRACE


def test_the_morph_interpolates_from_a_to_b(pair):
    A, fit = pair
    figure = morph_figure(A, fit.aligned, fit.displacement, (0.0, 1.0), "displacement")
    assert len(figure.frames) == MORPH_FRAMES
    first, middle, last = (np.c_[figure.frames[i].data[0].x, figure.frames[i].data[0].y]
                           for i in (0, MORPH_FRAMES // 2, MORPH_FRAMES - 1))
    np.testing.assert_allclose(first, A, rtol=1e-6)
    np.testing.assert_allclose(last, fit.aligned, rtol=1e-6)
    t = float(figure.frames[MORPH_FRAMES // 2].name)
    np.testing.assert_allclose(middle, (1 - t) * A + t * fit.aligned, rtol=1e-5, atol=1e-6)
    assert figure.layout.xaxis.autorange is False  # the axes hold still while the points move


def test_the_morph_lasts_as_long_as_the_speed_chosen_says(pair):
    A, fit = pair
    for speed, seconds in MORPH_SECONDS.items():
        figure = morph_figure(A, fit.aligned, fit.displacement, (0.0, 1.0), "displacement", speed=speed)
        play = figure.layout.updatemenus[0].buttons[0].args[1]
        assert play["frame"]["duration"] * MORPH_FRAMES == pytest.approx(1000 * seconds, abs=MORPH_FRAMES)
        assert play["transition"]["duration"] < play["frame"]["duration"]  # each frame eased in, then held
        # Every speed's options travel with the figure: the page switches among them in the browser.
        assert figure.layout.meta["morph_play"] == {name: morph_play(value) for name, value in MORPH_SECONDS.items()}


def test_the_cards_read_the_pair_and_the_study():
    result = PairResult(np.zeros((3, 2)), np.zeros((3, 2)), np.zeros(3), np.zeros(3), np.array([0.1, 0.2, np.nan]),
                        0.0123456, 2.5, True, np.zeros((3, 1)), ("t",), {"normalized": (0.5, 0.4)},
                        {"normalized": (0.25, 0.2)}, "A", "B")
    cards = pair_cards(result)
    assert cards["distance"] == "0.01235" and cards["scale"] == "2.5, mirrored"
    assert cards["local"] == "0.15 (median 0.15)" and cards["normalized"] == "0.5 / 0.25"
    assert cards["conformal"] == "—"  # not computed for these runs
    study = StabilityResult(np.zeros((4, 2)), np.array([0.1, 0.3, np.nan, 0.2]), np.array([2, 2, 1, 2]),
                            np.array([0.01, 0.03]), (0, 1), np.zeros((4, 1)), ("t",), (), 1, 1.0)
    assert stability_cards(study) == {"spread": "0.2 (median 0.2)", "consensus": "0.02", "runs": "2 (1 failed)"}


def test_the_stability_view_colours_the_consensus_by_spread():
    consensus = np.random.default_rng(1).normal(size=(20, 2))
    spread = np.linspace(0, 1, 20)
    figure = stability_figure(consensus, spread, (0.0, 1.0))
    np.testing.assert_array_equal(figure.data[0].marker.color, spread.astype(np.float32))
    assert "spread" in figure.data[0].hovertemplate


def _seed_noise(displacement, spread):
    displacement, spread = np.asarray(displacement, dtype=float), np.asarray(spread, dtype=float)
    return SeedNoiseResult(displacement, spread, seed_noise_ratio(displacement, spread), (0, 1, 2), "A", "B", (), 0)


def _rows(table):
    return [[cell.children for cell in row.children] for row in table[1].children[1].children]


def test_the_seed_noise_card_and_table_read_the_ratios():
    result = _seed_noise([0.3, 0.1, 0.05, 0.4], [0.1, 0.1, 0.1, 0.4])  # ratios 3, 1, 0.5, 1
    assert seed_noise_cards(result) == {"beyond": "25.0 %", "ratio": "1"}
    table = seed_noise_table(result, count=3)
    assert "moved most beyond re-seeding" in table[0].children
    assert _rows(table) == [["0", "0.3", "0.1", "3"], ["3", "0.4", "0.4", "1"], ["1", "0.1", "0.1", "1"]]


def test_a_deterministic_run_a_is_said_so_rather_than_divided_by_zero():
    result = _seed_noise([0.3, 0.0, 0.1], [0.0, 0.0, 1e-15])
    assert seed_noise_cards(result) == {"beyond": "66.7 %", "ratio": "∞"}
    table = seed_noise_table(result)
    assert table[0].children.startswith("Run A's algorithm is deterministic: every difference is beyond re-seeding")
    assert _rows(table) == [["0", "0.3", "0", "∞"], ["2", "0.1", "1e-15", "∞"], ["1", "0", "0", "0"]]
