"""A run request is canonical, and a run's numbers are the API's."""

import json

import numpy as np
import pytest

import algorithms
import datasets
import measures
from lab import RunRequest, StateError, cache_key
from lab.compute import compute


def request(**overrides):
    values = dict(n=300, random_state=1, n_neighbors=8)
    values.update(overrides)
    return RunRequest.create(overrides.pop("dataset", "strip"), overrides.pop("algorithm", "ltsa"),
                             **{key: value for key, value in values.items() if key not in ("dataset", "algorithm")})


def test_omitted_and_default_parameters_make_one_request():
    named = request(dataset_params={"length": 6.0, "thickness": 0.0}, algorithm_params={"eigen_solver": "auto"})
    emptied = request(dataset_params={"length": None}, noise=None)
    assert request() == named == emptied
    assert cache_key(request()) == cache_key(named)
    assert request().method.kwargs == {"eigen_solver": "auto"}


def test_a_request_rebuilt_after_json_has_the_same_key():
    original = request(dataset_params={"length": 6.0}, noise=0.0)
    travelled = json.loads(json.dumps(original.to_dict()).replace("6.0", "6").replace("0.0", "0"))
    assert RunRequest.from_dict(travelled) == original
    assert cache_key(RunRequest.from_dict(travelled)) == cache_key(original)


def test_bad_parameters_fail_when_the_request_is_made():
    with pytest.raises(StateError, match="length"):
        request(dataset_params={"length": -1.0})
    with pytest.raises(StateError, match="no parameter 'reg'"):
        request(algorithm_params={"reg": 0.1})
    with pytest.raises(StateError, match="k must lie in"):
        request(n_neighbors=2000)


def test_a_run_computing_some_measures_gives_the_full_run_s_values_of_them_and_no_others():
    full = compute(request(), cache=None).result
    chosen = request().measuring(["conformal", "asim", "normalized"])
    assert chosen.measures == ("normalized", "conformal", "asim")  # the registry's order: one key per subset
    some = compute(chosen, cache=None).result
    assert set(some.summary) == {"normalized", "conformal", "asim"}
    assert {name: full.summary[name] for name in some.summary} == some.summary  # the same numbers, bit for bit
    np.testing.assert_array_equal(some.Y, full.Y)
    assert set(compute(request().measuring([]), cache=None).result.summary) == set()
    # A full run's key is the one it always was; a subset's is its own and survives JSON.
    assert "measures" not in request().to_dict() and cache_key(chosen) != cache_key(request())
    assert RunRequest.from_dict(json.loads(json.dumps(chosen.to_dict()))) == chosen


@pytest.mark.parametrize("forged", ["normalized", ["no_such_measure"], [3], {"a": 1}])
def test_a_run_s_measures_must_be_a_list_of_run_measures(forged):
    with pytest.raises(StateError, match="measures"):
        RunRequest.from_dict({**request().to_dict(), "measures": forged})


def test_run_reports_the_api_values_and_its_stages():
    stages = []
    result = compute(request(), cache=None, progress=lambda fraction, stage: stages.append(fraction)).result
    data = datasets.load("strip", 300, random_state=1)
    Y = algorithms.embed("ltsa", data.X, n_neighbors=8, random_state=1)
    np.testing.assert_array_equal(result.Y, Y)
    rn, per_point = measures.procrustes(data.X, Y, 8, per_point=True)
    np.testing.assert_array_equal(result.local["normalized"], per_point)
    assert result.summary["normalized"] == (pytest.approx(rn), pytest.approx(np.median(per_point)))
    # Every run measure comes from the one evaluate() call, equal to its own function.
    assert result.summary["trustworthiness"][0] == pytest.approx(measures.trustworthiness(data.X, Y, 8), rel=1e-12)
    assert result.summary["nieqa_global"][1] is None  # a global measure has no median
    np.testing.assert_array_equal(result.drawn_X, data.X)
    assert result.summary["lower_bound"][0] <= result.summary["conformal"][0] <= rn
    assert stages == sorted(stages) and 0 < stages[0] and stages[-1] < 1


def test_high_dimensional_input_is_drawn_by_its_principal_components():
    request_digits = RunRequest.create("digits", "isomap", n_neighbors=8, dataset_params={"classes": "2"})
    result = compute(request_digits, cache=None).result
    assert result.X.shape[1] == 64 and result.drawn_X.shape == (result.X.shape[0], 3)
    assert result.input_axes == ("PC1", "PC2", "PC3") and result.image_shape == (8, 8)
    centred = result.X - result.X.mean(axis=0)
    top = np.linalg.svd(centred, compute_uv=False)[:3] ** 2
    np.testing.assert_allclose(np.sum(result.drawn_X ** 2, axis=0), top, rtol=1e-8)


def test_a_long_algorithm_reports_its_annealing_through_the_run():
    stages = []
    compute(request(algorithm="psa", dataset="swissroll", n=400), cache=None,
            progress=lambda fraction, stage: stages.append((fraction, stage)))
    fractions = [fraction for fraction, _ in stages]
    assert fractions == sorted(fractions)
    assert any(stage.startswith("Procrustes subspaces alignment: anneal") and " T " in stage and " f " in stage
               for _, stage in stages)
    assert all(0.15 <= fraction <= 0.65 for fraction, stage in stages if stage.startswith("Procrustes"))


def test_every_registry_measure_is_computed_where_it_is_defined():
    result = compute(request(n=300), cache=None).result
    assert set(result.summary) == {name for name in measures.available() if name != "raw"
                                   and not measures.spec(name).needs_labels}
    digits = compute(RunRequest.create("digits", "pca", n_neighbors=8, dataset_params={"classes": "2-5"}),
                     cache=None).result
    assert "silhouette" in digits.summary and "collapse" not in digits.summary  # classes, no truth
    data = datasets.load("digits", classes="2-5")
    Y = algorithms.embed("pca", data.X, n_neighbors=8)
    expected = measures.evaluate(data.X, Y, 8, which=["silhouette"], labels=data.color)
    assert digits.summary["silhouette"][0] == pytest.approx(expected.mean["silhouette"], rel=1e-12)


def test_a_result_survives_its_encoding_exactly():
    from lab.store.serialization import decode, encode

    result = compute(request(n=200), cache=None).result
    back = type(result).from_value(decode(encode(result.to_value())))
    for name in ("X", "Y", "drawn_X", "truth"):
        np.testing.assert_array_equal(getattr(back, name), getattr(result, name))
    assert back.summary == result.summary and back.notes == result.notes
    np.testing.assert_array_equal(back.landmarks.indices, result.landmarks.indices)


def test_names_and_file_stems_say_what_was_run():
    assert request().slug() == "strip_n300_ltsa_k8"
    assert request().describe() == "Strip, n = 300: LTSA, k = 8"
    assert RunRequest.create("grid", "pca").slug() == "grid_pca_k10"


@pytest.mark.slow  # every data set of the catalogue at its default size: about a minute
@pytest.mark.parametrize("name", [entry.name for entry in datasets.specs()])
def test_every_data_set_at_its_defaults_gets_an_isomap_run_at_k_10(name):
    """What a user meets choosing any data set (the page's defaults: Isomap, k = 10): a run, not a
    message, whose measures keep GR's order R_PCA lower bound <= R_C <= R_N."""
    result = compute(RunRequest.create(name, "isomap", n_neighbors=10), cache=None).result
    assert result.n_samples == datasets.spec(name).size_parameter.default
    assert result.Y.shape == (result.n_samples, 2) and np.isfinite(result.Y).all()
    summary = {key: mean for key, (mean, _) in result.summary.items()}
    assert summary["lower_bound"] <= summary["conformal"] * (1 + 1e-12) <= summary["normalized"] * (1 + 1e-12)


def test_a_run_s_progress_moves_through_the_measures_and_never_back():
    """Issue 19: at 20 000 points the label said "measuring" for over a minute; it names each group now."""
    calls = []
    compute(request(), cache=None, progress=lambda fraction, stage: calls.append((fraction, stage)))
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions) and fractions[-1] <= 1.0
    measuring = [stage for fraction, stage in calls if stage.startswith("measuring: ")]
    assert measuring[0] == "measuring: neighbours and local Procrustes"
    assert any(stage.endswith("300 of 300 sources") for stage in measuring)


def test_a_run_publishes_its_input_its_embedding_then_its_measures_and_the_cache_keeps_only_the_whole_run(tmp_path):
    """issue 24 item 2: ``partial`` receives the input before the algorithm runs (an output of no column), the
    output before any measure, then growing summaries equal to the whole run's; the cache holds the latest
    partial while it computes and drops it with the whole result."""
    from lab import ResultCache, SweepRequest, ViewState

    cache = ResultCache(tmp_path)
    request = RunRequest.create("swissroll", "isomap", n=400)
    published, held = [], []

    def partial(result):
        published.append(result)
        cache.put_partial(request, result)
        held.append(cache.holds_partial(request))

    whole, cached = compute(request, cache=cache, partial=partial)
    assert not cached and all(held) and not cache.holds_partial(request) and cache.get_partial(request) is None
    read, embedded = published[:2]
    assert read.Y.shape == (400, 0) and read.summary == {} and read.local == {} and read.landmarks is None
    np.testing.assert_array_equal(read.drawn_X, whole.drawn_X)
    np.testing.assert_array_equal(read.truth, whole.truth)
    assert embedded.summary == {} and read.seconds <= embedded.seconds
    np.testing.assert_array_equal(embedded.Y, whole.Y)
    assert all(set(a.summary) < set(b.summary) for a, b in zip(published[1:], published[2:]))
    for part in published[2:]:
        assert all(part.summary[name] == whole.summary[name] for name in part.summary)
        for name, values in part.local.items():
            np.testing.assert_array_equal(values, whole.local[name])
    # A cached run publishes nothing; a kind that has no partial results refuses the callable.
    again = []
    assert compute(request, cache=cache, partial=again.append).cached and again == []
    with pytest.raises(TypeError, match="publishes no partial results"):
        compute(SweepRequest.from_state(ViewState()), cache=None, partial=again.append)


@pytest.mark.parametrize("classes", [200, 150])
def test_an_upload_coloured_by_a_label_of_every_point_its_own_is_measured_without_the_label_measures(tmp_path,
                                                                                                     classes):
    """An id or name column chosen as the colour (a label per point, or more than 100): no classes, so the run
    leaves the label measures out (the silhouette of one point per class is undefined, label-trustworthiness
    costs the classes' square) instead of failing or taking hours."""
    from lab import UploadStore, ViewState
    from lab.compute.choices import DataChoice, MethodChoice, UploadRef

    data = datasets.load("swissroll", n=200)
    text = "x,y,z,name\n" + "".join(f"{x!r},{y!r},{z!r},n{row % classes}\n"
                                     for row, (x, y, z) in enumerate(data.X.tolist()))
    uploads = UploadStore(tmp_path / "uploads").for_session("s" * 24)
    upload = UploadRef(uploads.put(text.encode()), "named.csv", color_column=3)
    state = ViewState(data=DataChoice("upload", upload=upload), method=MethodChoice("pca", 10)).validated()
    result = compute(RunRequest.from_state(state), cache=None, uploads=uploads).result
    assert "normalized" in result.summary
    assert not any(measures.spec(name).needs_labels for name in result.summary)
