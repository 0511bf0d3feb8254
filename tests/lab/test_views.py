"""What the explore views draw of a run: a subsample above the cap that keeps every landmark."""

import functools

import numpy as np

import lab.views
from lab import RunRequest, compute_run
from lab.runs import display_indices
from lab.views import coloring, data_rows, explore_view, selection_summary


def test_a_large_run_draws_a_subsample_but_keeps_every_landmark_and_each_point_s_index(monkeypatch):
    monkeypatch.setattr(lab.views, "display_indices", functools.partial(display_indices, cap=150))
    request = RunRequest.create("swissroll", "pca", n=400)
    result = compute_run(request)
    view = explore_view(request, result, show_landmarks=True)
    drawn, landmarks = view.rows, result.landmarks.indices
    assert np.all(np.diff(drawn) > 0) and np.isin(landmarks, drawn).all()
    assert 150 <= len(drawn) <= 150 + len(landmarks)
    np.testing.assert_array_equal(view.Y, result.Y[drawn])
    np.testing.assert_array_equal(drawn[view.landmarks], landmarks)  # overlay positions point at the landmarks
    np.testing.assert_array_equal(data_rows(result, [0, 5]), drawn[[0, 5]])
    assert f"n = 400 ({len(drawn)} drawn)" in view.input_title and "every number uses all of them" in view.notes
    values, title, local = coloring(result, "normalized", drawn)
    np.testing.assert_array_equal(values, result.local["normalized"][drawn])
    assert local and title.startswith("local R_N")


def test_a_selection_is_compared_with_every_point():
    result = compute_run(RunRequest.create("swissroll", "isomap", n=400))
    rows = [3, 10, 200]
    text = selection_summary(result, rows)
    expected = np.mean(result.local["normalized"][rows])
    assert text.startswith("3 points selected") and f"R_N {expected:.4f}" in text
    assert f"(all points {np.mean(result.local['normalized']):.4f})" in text
    assert selection_summary(result, []) == "No drawn point is selected."
