"""Tests of ``measures/registry.py``: the measure metadata the dashboard and the sweeps read."""

import pytest

import measures
from measures import MeasureError, MeasureSpec, available, spec, specs


def test_registry_lists_every_measure_of_issue_4_once():
    names = available()
    assert len(names) == len(set(names))
    assert {"normalized", "conformal", "pca", "asim", "nieqa_global", "neighbourhood_agreement", "trustworthiness",
            "continuity", "residual_variance", "truth_match", "collapse"} <= set(names)
    assert [entry.name for entry in specs()] == names


@pytest.mark.parametrize("entry", specs(), ids=lambda entry: entry.name)
def test_entries_are_complete(entry):
    assert isinstance(entry, MeasureSpec)
    assert entry.label and entry.citation and entry.description.endswith(".")
    assert spec(entry.name) is entry
    # Only measures defined at every point are per point; truth measures compare whole outputs.
    assert not (entry.needs_truth and entry.per_point)
    assert entry.uses_geodesics == (entry.name in ("nieqa_global", "residual_variance", "distance_spearman"))


def test_quality_directions():
    assert {entry.name for entry in specs() if entry.higher_is_better is True} == {
        "trustworthiness", "continuity", "distance_spearman", "triplet_accuracy", "label_trustworthiness",
        "label_continuity", "silhouette", "auc_rnx", "shepard", "cpd", "neighbourhood_hit",
        "class_neighbour_preservation"}
    assert {entry.name for entry in specs() if entry.higher_is_better is None} == {"collapse"}


def test_unknown_name_lists_the_available_ones():
    with pytest.raises(MeasureError, match=r"unknown measure 'R_N'; available: raw, normalized, conformal"):
        spec("R_N")
    with pytest.raises(MeasureError, match="unknown measure None"):
        spec(None)


def test_specs_are_frozen():
    with pytest.raises(AttributeError):
        measures.spec("asim").label = "changed"


def test_lower_is_better_survives_as_a_deprecated_reading_of_higher_is_better():
    with pytest.warns(DeprecationWarning, match="read higher_is_better"):
        assert spec("trustworthiness").lower_is_better is False
    with pytest.warns(DeprecationWarning):
        assert spec("normalized").lower_is_better is True and spec("collapse").lower_is_better is None
