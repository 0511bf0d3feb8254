"""What the explore views draw of a run: every point in 2-D, a level of detail in 3-D that keeps every
landmark, and each drawn point mapped back to its data-set row."""

import numpy as np

from lab import RunRequest
from lab.compute import compute
from lab.compute import catalogue
from lab.compute.views import coloring, data_rows, explore_view, selection_summary


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
