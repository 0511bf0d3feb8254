"""Tests of ``algorithms/gp.py``: greedy Procrustes (GR §4.1) is exact on a flat strip isometrically
placed in R⁵ thanks to SPEC §2's enlargement of rank-deficient reference sets, follows the greedy
order, and with refinement reaches the truth's R_N on a swiss roll.

The module is imported by a fixture, not at collection (see ``test_refine.py``'s docstring).
"""

import importlib
import warnings

import numpy as np
import pytest

import algorithms
import datasets
import measures


@pytest.fixture(scope="module")
def gp_module():
    """The module ``algorithms.gp`` (registers "gp")."""
    return importlib.import_module("algorithms.gp")


def _strip_in_r5(n_samples, seed, length=6.0):
    """``(Z, X)``: a uniform ``length`` x 1 strip and its image under a random isometry into R⁵."""
    rng = np.random.default_rng(seed)
    Z = rng.uniform(size=(n_samples, 2)) * [length, 1.0]
    frame = np.linalg.qr(rng.normal(size=(5, 2)))[0]
    return Z, Z @ frame.T + rng.normal(size=5)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("k", [5, 6, 8, 12])
def test_greedy_pass_recovers_a_flat_strip_in_r5_exactly(gp_module, rigid_misfit, seed, k):
    Z, X = _strip_in_r5(600, seed)
    neighbors = measures.nearest_neighbors(X, k)
    if measures.neighbor_graph_components(neighbors)[0] > 1:
        pytest.skip("this draw's kNN graph is disconnected")
    Y = gp_module.greedy_procrustes(X, neighbors, 2, random_state=seed)
    assert abs(measures.procrustes(X, Y, k)) < 1e-10
    assert rigid_misfit(Y, Z) < 1e-10


@pytest.mark.parametrize("seed", [0, 2])
def test_without_enlarging_the_reference_set_gp_is_not_exact(gp_module, monkeypatch, seed):
    # SPEC §2: GR's algorithm as printed leaves the rotation undetermined with < d + 1 embedded
    # neighbours; on these strips that happens and the result is far from exact.
    _, X = _strip_in_r5(600, seed)
    neighbors = measures.nearest_neighbors(X, 6)
    monkeypatch.setattr(gp_module, "MAX_HOPS", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", measures.ProcrustesLabWarning)
        Y = gp_module.greedy_procrustes(X, neighbors, 2, random_state=0)
    assert measures.procrustes(X, Y, 6) > 0.1


def test_registry_entry_embeds_the_strip_exactly_with_refinement(gp_module, rigid_misfit):
    Z, X = _strip_in_r5(500, 3)
    Y = algorithms.embed("gp", X, n_neighbors=8, random_state=3)
    assert abs(measures.procrustes(X, Y, 8)) < 1e-10
    assert rigid_misfit(Y, Z) < 1e-10
    entry = algorithms.spec("gp")
    assert (entry.output, entry.output_scale) == ("isometric", "isometric")
    assert [p.name for p in entry.parameters] == ["refine_iterations", "refine_method"]


def test_greedy_order_takes_the_point_with_most_embedded_neighbours(gp_module):
    # Rows (point first): 3 lists {0, 1, 2}, 4 lists {0, 5}, 5 lists {3, 4}, 6 lists {5, 4, 3}.
    neighbors = np.array([[0, 1, 2, 3], [1, 0, 2, 3], [2, 0, 1, 3], [3, 0, 1, 2],
                          [4, 0, 5, 6], [5, 3, 4, 6], [6, 5, 4, 3]])
    grower = gp_module._Grower(np.random.default_rng(0).normal(size=(7, 3)), neighbors, 2)
    grower.mark([0, 1, 2])
    assert grower.next_row() == [3, 0, 1, 2]  # 3 embedded neighbours, against 1 for point 4
    grower.mark([3])
    assert grower.count[5] == 1 and grower.count[6] == 1 and grower.count[4] == 1
    assert grower.next_row() == [4, 0, 5, 6]  # ties (one each) go to the lowest index
    grower.mark([4, 5, 6])
    assert grower.n_embedded == 7


def test_an_embedded_rows_unembedded_member_is_still_reached(gp_module):
    # Point 2 is listed by 1 but lists only 3, which nobody embedded lists: the heap runs dry first.
    neighbors = np.array([[0, 1], [1, 2], [2, 3], [3, 2]])
    grower = gp_module._Grower(np.zeros((4, 3)), neighbors, 1)
    grower.mark([0, 1])
    assert grower.next_row() == [1, 2]


def test_local_pca_bases_match_a_per_neighbourhood_svd(gp_module, small_roll):
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    bases = gp_module.local_pca_bases(small_roll.X, neighbors, 2)
    for i in range(0, 400, 37):
        stack = small_roll.X[neighbors[i]]
        expected = np.linalg.svd(stack - stack.mean(axis=0))[2][:2].T
        np.testing.assert_allclose(np.abs(bases[i].T @ expected), np.eye(2), atol=1e-10)


def test_gp_and_refinement_reach_the_truths_r_n_on_a_swiss_roll(gp_module):
    roll = datasets.load("swissroll", 1600, random_state=1)
    neighbors = measures.nearest_neighbors(roll.X, 12)
    greedy = gp_module.greedy_procrustes(roll.X, neighbors, 2, random_state=1)
    refined = algorithms.embed("gp", roll.X, n_neighbors=12, random_state=1)
    truth = measures.procrustes(roll.X, roll.truth, 12)
    assert (measures.procrustes(roll.X, refined, 12, variant="raw")
            <= measures.procrustes(roll.X, greedy, 12, variant="raw"))
    assert measures.procrustes(roll.X, refined, 12) < max(0.01, 1.1 * truth)


def test_same_seed_same_output_and_other_seeds_start_elsewhere(gp_module, small_roll):
    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    first = gp_module.greedy_procrustes(small_roll.X, neighbors, 2, random_state=5)
    np.testing.assert_array_equal(first, gp_module.greedy_procrustes(small_roll.X, neighbors, 2, random_state=5))
    assert not np.allclose(first, gp_module.greedy_procrustes(small_roll.X, neighbors, 2, random_state=6))


def test_one_dimensional_data_warn_that_rotations_were_undetermined(gp_module):
    t = np.linspace(0.0, 1.0, 60)
    X = np.c_[t, 2.0 * t, np.zeros(60)] + 1e-9 * np.random.default_rng(0).normal(size=(60, 3))
    with pytest.warns(measures.ProcrustesLabWarning, match=r"GP: \d+ of \d+ Procrustes rotations were undetermined"):
        gp_module.greedy_procrustes(X, measures.nearest_neighbors(X, 4), 2, random_state=0)


def test_a_disconnected_graph_is_refused(gp_module, two_clusters):
    neighbors = measures.nearest_neighbors(two_clusters, 5)
    with pytest.raises(measures.DisconnectedGraphError, match=r"GP embedded (60|40) of 100 points .* Raise k\."):
        gp_module.greedy_procrustes(two_clusters, neighbors, 2, random_state=0)


def test_a_stop_request_cancels_gp(gp_module, small_roll):
    cancelled = importlib.import_module("algorithms.longrun").Cancelled
    with pytest.raises(cancelled, match="GP was cancelled"):
        gp_module.gp(small_roll.X, measures.nearest_neighbors(small_roll.X, 8), 2, 0, should_stop=lambda: True)
