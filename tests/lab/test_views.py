"""What the explore views draw of a run: every point in 2-D, a level of detail in 3-D that keeps every
landmark, and each drawn point mapped back to its data-set row."""

import dataclasses
import types

import numpy as np
import pytest
import sklearn.manifold

import measures
from lab import RunRequest
from lab.compute import compute
from lab.compute import catalogue
from lab.compute.views import (
    coloring,
    data_rows,
    explore_view,
    marked_neighbourhood,
    neighbour_losses,
    selection_summary,
)


def test_the_2d_views_draw_every_point_and_the_3d_view_a_subsample_with_every_landmark(monkeypatch):
    monkeypatch.setattr(catalogue, "DISPLAY_CAP_3D", 150)
    request = RunRequest.create("swissroll", "pca", n=400)
    result = compute(request, cache=None).result
    view = explore_view(request, result, show_landmarks=True)
    assert view.output.rows is None  # every point
    drawn, landmarks = view.input.rows, result.landmarks.indices
    assert np.all(np.diff(drawn) > 0) and np.isin(landmarks, drawn).all()
    assert 150 <= len(drawn) <= 150 + len(landmarks)
    np.testing.assert_array_equal(view.input.take(result.drawn_X), result.drawn_X[drawn])
    np.testing.assert_array_equal(drawn[view.input.landmarks], landmarks)  # overlay positions are the landmarks
    np.testing.assert_array_equal(view.output.landmarks, landmarks)
    np.testing.assert_array_equal(data_rows(result, [0, 5], "input"), drawn[[0, 5]])
    np.testing.assert_array_equal(data_rows(result, [0, 5], "output"), [0, 5])
    assert f"n = 400 ({len(drawn)} drawn)" in view.input_title and "draw every point" in view.notes
    # In a plane the input view draws every point too, as the output does.
    plane = explore_view(request, result, show_landmarks=False, input_view="02")
    assert plane.input.rows is None and plane.output.rows is None and "drawn" not in plane.input_title
    values, title, local = coloring(result, "normalized", drawn)
    np.testing.assert_array_equal(values, result.local["normalized"][drawn])
    assert local and title.startswith("local R_N")


def test_above_the_2d_cap_every_view_draws_one_subsample(monkeypatch):
    monkeypatch.setattr(catalogue, "DISPLAY_CAP", 200)
    monkeypatch.setattr(catalogue, "DISPLAY_CAP_3D", 200)
    request = RunRequest.create("swissroll", "pca", n=400)
    result = compute(request, cache=None).result
    view = explore_view(request, result, show_landmarks=False)
    np.testing.assert_array_equal(view.input.rows, view.output.rows)
    assert "The views draw" in view.notes


def test_a_selection_is_compared_with_every_point():
    result = compute(RunRequest.create("swissroll", "isomap", n=400), cache=None).result
    rows = [3, 10, 200]
    text = selection_summary(result, rows)
    expected = np.mean(result.local["normalized"][rows])
    assert text.startswith("3 points selected") and f"R_N {expected:.4f}" in text
    assert f"(all points {np.mean(result.local['normalized']):.4f})" in text
    assert selection_summary(result, []) == "No drawn point is selected."


def _naive_losses(X, Y, k):
    """Venna & Kaski's per-point sums by full rank matrices (a slow oracle): ``(1 - t_i, 1 - c_i)``."""
    n = len(X)

    def ranks(points):
        distances = np.linalg.norm(points[:, None] - points[None], axis=2)
        np.fill_diagonal(distances, np.inf)
        order = np.argsort(distances, axis=1)
        rank = np.empty_like(order)
        rank[np.arange(n)[:, None], order] = np.arange(1, n + 1)
        return rank, order[:, :k]

    input_rank, input_sets = ranks(X)
    output_rank, output_sets = ranks(Y)
    rows = np.arange(n)[:, None]
    scale = 2.0 / (k * (2.0 * n - 3.0 * k - 1.0))
    false = scale * np.maximum(input_rank[rows, output_sets] - k, 0).sum(axis=1)
    missing = scale * np.maximum(output_rank[rows, input_sets] - k, 0).sum(axis=1)
    return false, missing


def test_a_shuffled_output_s_losses_are_each_point_s_rank_penalties_and_average_to_one_minus_t_and_c():
    request = RunRequest.create("swissroll", "pca", n=300, n_neighbors=8)
    result = compute(request, cache=None).result
    shuffled = dataclasses.replace(result, Y=np.random.default_rng(3).permutation(result.Y))
    evaluation = measures.evaluate(result.X, shuffled.Y, 8, which=["trustworthiness", "continuity"])
    shuffled = dataclasses.replace(
        shuffled, local=evaluation.per_point,
        summary={name: (evaluation.mean[name], evaluation.median[name]) for name in evaluation.measures})
    losses = neighbour_losses(shuffled)
    trust = sklearn.manifold.trustworthiness(result.X, shuffled.Y, n_neighbors=8)
    continuity = sklearn.manifold.trustworthiness(shuffled.Y, result.X, n_neighbors=8)
    assert trust < 0.6 and continuity < 0.6  # a shuffle keeps almost no neighbour
    assert losses.trustworthiness == pytest.approx(trust, abs=1e-12)
    assert losses.false.mean() == pytest.approx(1.0 - trust, abs=1e-12)
    assert losses.missing.mean() == pytest.approx(1.0 - continuity, abs=1e-12)
    false, missing = _naive_losses(result.X, shuffled.Y, 8)
    np.testing.assert_allclose(losses.false, false, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(losses.missing, missing, rtol=1e-12, atol=1e-15)
    assert losses.title == f"false vs missing neighbours: T = {trust:.4f}, C = {continuity:.4f}"


def test_an_isometric_output_has_no_false_and_no_missing_neighbour():
    X = np.random.default_rng(0).normal(size=(200, 2))
    angle = 0.7
    Y = 2.5 * X @ np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]) + 1.0
    evaluation = measures.evaluate(X, Y, 6, which=["trustworthiness", "continuity"])
    result = types.SimpleNamespace(local=evaluation.per_point,
                                   summary={name: (evaluation.mean[name], None) for name in evaluation.measures})
    losses = neighbour_losses(result)
    assert not losses.false.any() and not losses.missing.any()  # exactly 0 for every point
    assert (losses.trustworthiness, losses.continuity) == (1.0, 1.0)


def test_a_run_without_trustworthiness_falls_back_to_local_rn_and_says_so():
    request = RunRequest.create("swissroll", "pca", n=200).measuring(["normalized", "conformal"])
    result = compute(request, cache=None).result
    assert neighbour_losses(result) is None
    values, title, local = coloring(result, catalogue.NEIGHBOUR_LOSSES)
    np.testing.assert_array_equal(values, result.local["normalized"])
    assert local and title.startswith("local R_N")
    notes = explore_view(request, result, False, color=catalogue.NEIGHBOUR_LOSSES).notes
    assert "did not compute trustworthiness and continuity" in notes and "local R_N instead" in notes
    assert "trustworthiness" not in explore_view(request, result, False, color="normalized").notes


def test_the_marked_neighbourhood_is_the_central_point_s_k_nearest_in_each_space_worked_by_hand():
    """Five points on a line, the truth the line: the centre is row 2 (at 2). Its 2 nearest input
    neighbours are rows 1 and 3 (at 1 and 3); in the output (rows at 0, 3, 2, 10, 2.5) they are rows 4
    (0.5 away) and 1 (1 away): one of the two is kept."""
    line = np.arange(5.0)[:, None]
    run = types.SimpleNamespace(X=line, truth=line, Y=np.array([[0.0], [3.0], [2.0], [10.0], [2.5]]))
    marked = marked_neighbourhood(run, 2)
    assert marked.point == 2 and sorted(marked.input) == [1, 3] and sorted(marked.output) == [1, 4]
    assert marked.kept == 1


def test_the_doctests_of_the_views_and_find_hold():
    """Their examples: the metadata hover line, find's grammar on a run of five points."""
    import doctest

    import lab.compute.find
    import lab.compute.views

    for module in (lab.compute.views, lab.compute.find):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__
