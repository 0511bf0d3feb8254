"""Callback functions called directly (no browser): the explore run's display subsample."""

import functools

import numpy as np

import components.callbacks as callbacks
from components.jobs import ResultCache
from components.runs import display_indices


def test_a_large_run_draws_a_subsample_but_keeps_every_landmark_and_each_point_s_index(tmp_path, monkeypatch):
    monkeypatch.setattr(callbacks, "display_indices", functools.partial(display_indices, cap=150))
    results = ResultCache(tmp_path)
    outputs = callbacks.explore(results, None, lambda fraction, stage: None, "swissroll", 400, 0.0, 0, [1.0],
                                [{"type": "dataset-param", "owner": "swissroll", "index": "stretch"}], None, "pca",
                                10, [], [], 0, "authors")
    stored, run = outputs[0], outputs[1]
    full = results.get(callbacks.make_request(**run["request"]))
    drawn = np.asarray(stored["points"])
    assert np.array_equal(drawn, run["points"]) and np.all(np.diff(drawn) > 0)
    landmarks = full["landmarks"]["indices"]
    assert np.isin(landmarks, drawn).all() and 150 <= len(drawn) <= 150 + len(landmarks)
    # Drawn rows are the full run's rows, and landmark positions point at the landmarks' rows.
    np.testing.assert_array_equal(stored["Y"], full["Y"][drawn])
    np.testing.assert_array_equal(stored["local"]["normalized"], full["local"]["normalized"][drawn])
    np.testing.assert_array_equal(drawn[stored["landmarks"]["indices"]], landmarks)
    assert f"n = 400 ({len(drawn)} drawn)" in stored["input_title"]
    # The cards summarize every point, not the drawn ones.
    assert outputs[4][0].children == f"{full['summary']['normalized'][0]:.4g}"
