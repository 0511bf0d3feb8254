"""Tests of ``measures/nieqa.py``: NIEQA's local and global assessments (NQ §IV) and classical MDS."""

import numpy as np
import pytest
from scipy.sparse.csgraph import shortest_path
from scipy.spatial.distance import pdist, squareform

from measures import (
    DisconnectedGraphError,
    MeasureError,
    classical_mds,
    geodesic_graph,
    local_asim,
    local_procrustes,
    nearest_neighbors,
    neighbor_graph_components,
    nieqa,
    shortest_path_counts,
)


def normalized(Y):
    """Each output coordinate centred with unit variance, as LLE and Laplacian eigenmaps return it."""
    return (Y - Y.mean(axis=0)) / Y.std(axis=0)


def test_nq_section_iii_a_rectangle_example(nq_rectangle):
    # NQ §III-A: 100 points uniform in [-2, 2] x [-1, 1] and their normalized copy (Y'Y = I).
    # NIEQA sees no distortion (M_L = 0, and M_G ~ 0 up to the graph's zig-zag geodesics) where
    # the rigid Procrustes measure M_P = R_N is large (NQ: 0.8054 for its draw).
    X, Y = nq_rectangle
    result = nieqa(X, Y, 10, per_point=True)
    assert abs(result.local_assessment) < 1e-12 and np.abs(result.asim_values).max() < 1e-12
    assert result.global_assessment < 0.02
    assert np.mean(local_procrustes(X, Y, nearest_neighbors(X, 10)).normalized) > 0.5
    assert len(result.landmark_indices) == 10


@pytest.mark.parametrize("seed", [0, 1])
def test_swiss_roll_charts_rank_as_nq_reports(seed, swiss_roll):
    # The isometric chart, normalized or not, scores ~0 on both; a random output ~1.
    X, arc_length_chart, _ = swiss_roll(1000, seed)
    faithful = nieqa(X, arc_length_chart, 10)
    rescaled = nieqa(X, normalized(arc_length_chart), 10)
    shuffled = nieqa(X, np.random.default_rng(seed).normal(size=(1000, 2)), 10)
    assert faithful.local_median < 0.01 and faithful.global_assessment < 0.01
    assert rescaled.local_assessment == pytest.approx(faithful.local_assessment, rel=1e-9)
    assert rescaled.global_assessment == pytest.approx(faithful.global_assessment, rel=1e-6)
    assert shuffled.local_assessment > 0.5 and shuffled.global_assessment > 0.5


def test_landmarks_are_the_most_crossed_points_and_mds_reproduces_their_geodesics(swiss_roll):
    X, arc_length_chart, _ = swiss_roll(600, 4)  # a draw whose 8-NN graph has no short circuit
    result = nieqa(X, arc_length_chart, 8, per_point=True)
    neighbors = nearest_neighbors(X, 8)
    graph = geodesic_graph(X, neighbors)
    counts = shortest_path_counts(graph)
    np.testing.assert_array_equal(result.importance, counts)
    assert result.n_sources == 600 and result.landmark_neighbors == 8
    assert len(result.landmark_indices) == 60
    np.testing.assert_array_equal(result.landmark_indices, np.argsort(-counts, kind="stable")[:60])
    np.testing.assert_array_equal(result.asim_values, local_asim(X, arc_length_chart, neighbors))
    # The swiss roll is flat: MDS in 2-D keeps the landmarks' graph geodesics to ~5 % (the graph's
    # zig-zag paths are not quite Euclidean in the chart), and they are the chart's distances.
    geodesics = shortest_path(graph, directed=False, indices=result.landmark_indices)[:, result.landmark_indices]
    configuration_distances = squareform(pdist(result.landmark_configuration))
    upper = np.triu_indices(60, 1)
    assert np.median(np.abs(configuration_distances[upper] / geodesics[upper] - 1.0)) < 0.1
    chart_distances = pdist(arc_length_chart[result.landmark_indices])
    assert np.median(np.abs(pdist(result.landmark_configuration) / chart_distances - 1.0)) < 0.1
    # The aligned configuration sits on the output's landmarks (an ASIM fit of it onto them).
    offsets = np.linalg.norm(result.aligned_landmark_configuration - arc_length_chart[result.landmark_indices], axis=1)
    assert np.median(offsets) < 0.05 * np.ptp(arc_length_chart[:, 0])


def test_one_short_circuit_ruins_the_global_assessment_of_the_exact_chart(swiss_roll):
    # Seed 3 at n = 600, k = 8 has one neighbourhood joining two sheets of the roll (its t spans
    # more than π). Geodesics through that edge are far too short: M_G of the exact chart is large
    # while M_L barely notices (SPEC §0: one neighbourhood can dominate; NQ Remark 2).
    X, arc_length_chart, _ = swiss_roll(600, 3)
    t = np.hypot(X[:, 0], X[:, 2])
    assert (np.ptp(t[nearest_neighbors(X, 8)], axis=1) > np.pi).sum() == 1
    result = nieqa(X, arc_length_chart, 8)
    assert result.local_median < 0.01 and result.global_assessment > 0.3


def test_global_assessment_is_blind_to_axis_scaling_but_not_to_folding(swiss_roll):
    X, arc_length_chart, _ = swiss_roll(800, 4)
    base = nieqa(X, arc_length_chart, 10)
    stretched = nieqa(X, arc_length_chart * [0.01, -30.0], 10)
    assert stretched.global_assessment == pytest.approx(base.global_assessment, rel=1e-6)
    # Folding the long axis onto itself (a normalized method's collapse) keeps neighbourhoods
    # nearly intact away from the fold but not the global shape.
    folded = np.c_[np.abs(arc_length_chart[:, 0] - np.median(arc_length_chart[:, 0])), arc_length_chart[:, 1]]
    assert nieqa(X, folded, 10).global_assessment > 10 * base.global_assessment + 0.05


def test_paper_landmark_neighbours_follow_remark_1():
    # 85 + 15 points in two far clusters, n = 100: NQ's k_l = 0.1 n = 10 leaves the small cluster
    # on its own (its points' 10 neighbours are inside it); Remark 1 raises k_l to the smallest
    # value that connects the graph, which a loop over k confirms.
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(size=(85, 2)), rng.normal(size=(15, 2)) * 0.5 + [30.0, 0.0]])
    smallest = next(k for k in range(1, 100) if neighbor_graph_components(nearest_neighbors(X, k))[0] == 1)
    assert smallest > 10
    result = nieqa(X, X, 5, landmark_neighbors="paper")
    assert result.landmark_neighbors == smallest
    with pytest.raises(DisconnectedGraphError,
                       match=r"\(k = 5\) has 2 connected components \(sizes 85, 15\); NIEQA's "
                             r"global assessment M_G.*landmark_neighbors='paper' \(NQ Remark 1\)"):
        nieqa(X, X, 5)
    assert nieqa(X, X, 5, landmark_neighbors=smallest).landmark_neighbors == smallest


def test_paper_landmark_neighbours_short_circuit_the_swiss_roll(swiss_roll):
    # SPEC §3: at k_l = 0.1 n the graph jumps between sheets and M_G is large even for the exact chart.
    X, arc_length_chart, _ = swiss_roll(1000, 6)
    paper = nieqa(X, arc_length_chart, 10, landmark_neighbors="paper")
    assert paper.landmark_neighbors >= 100
    assert paper.global_assessment > 0.3 > 0.01 > nieqa(X, arc_length_chart, 10).global_assessment


def test_pivot_sampling_above_the_stated_size_is_seeded(pivot_sampling, swiss_roll):
    X, arc_length_chart, _ = swiss_roll(700, 7)
    exact = nieqa(X, arc_length_chart, 10)
    pivot_sampling(500, 200)
    sampled = nieqa(X, arc_length_chart, 10, random_state=1)
    assert sampled.n_sources == 200
    np.testing.assert_array_equal(sampled.importance, nieqa(X, arc_length_chart, 10, random_state=1).importance)
    # An unbiased estimate of the exact counts (scaled by n / n_sources), and a close M_G.
    assert sampled.importance.sum() == pytest.approx(exact.importance.sum(), rel=0.1)
    assert abs(sampled.global_assessment - exact.global_assessment) < 0.01


def test_classical_mds_recovers_euclidean_configurations():
    rng = np.random.default_rng(8)
    points = rng.normal(size=(30, 3)) * [5.0, 2.0, 1.0]
    distances = squareform(pdist(points))
    configuration = classical_mds(distances, 3)
    np.testing.assert_allclose(squareform(pdist(configuration)), distances, atol=1e-10)
    # Columns by decreasing variance, signs fixed: the same input gives the same output.
    assert np.all(np.diff(configuration.var(axis=0)) < 0)
    np.testing.assert_array_equal(classical_mds(distances, 3), configuration)
    largest = np.argmax(np.abs(configuration), axis=0)
    assert np.all(configuration[largest, np.arange(3)] > 0)
    with pytest.raises(MeasureError, match=r"only 1 positive eigenvalue\(s\) among the top 2"):
        classical_mds(squareform(pdist(np.arange(5.0)[:, None])), 2)


def test_bad_options_raise():
    X = np.random.default_rng(9).normal(size=(40, 3))
    with pytest.raises(MeasureError, match=r"landmark_fraction must lie in \(0, 1\]; got 1.5"):
        nieqa(X, X[:, :2], 5, landmark_fraction=1.5)
    with pytest.raises(MeasureError, match=r"at least d \+ 1 = 3 landmarks; landmark_fraction = 0.05 of n = 40 "
                                           r"gives 2"):
        nieqa(X, X[:, :2], 5, landmark_fraction=0.05)
    with pytest.raises(MeasureError, match=r"landmark_neighbors must be an integer >= 1; got 'nq'\. "
                                           r"Pass None \(k_l = k\), an integer, or 'paper'"):
        nieqa(X, X[:, :2], 5, landmark_neighbors="nq")
