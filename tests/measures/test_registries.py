"""Tests of ``measures/registries.py``: the lookup helper behind the data-set, algorithm and measure registries."""

import collections
import re

import pytest

import algorithms
import datasets
import measures
from algorithms import registry as algorithm_registry
from datasets import registry as dataset_registry
from measures import registry as measure_registry
from measures.registries import Registry

Entry = collections.namedtuple("Entry", "name value")


class ShapeError(ValueError):
    """A typed error, as each library has its own."""


@pytest.fixture
def shapes():
    return Registry("shape", ShapeError, [Entry("triangle", 3), Entry("square", 4), Entry("pentagon", 5)])


def test_an_unknown_name_is_the_typed_error_listing_the_available_names(shapes):
    with pytest.raises(ShapeError, match=re.escape("unknown shape 'circle'; available: triangle, square, pentagon.")):
        shapes.spec("circle")


@pytest.mark.parametrize("name", [["square"], {"name": "square"}, {"square"}], ids=["list", "dict", "set"])
def test_a_name_that_cannot_be_a_key_is_the_typed_error_not_a_type_error(shapes, name):
    with pytest.raises(ShapeError, match=re.escape(f"unknown shape {name!r}; available:")) as raised:
        shapes.spec(name)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__
    assert name not in shapes


def test_registering_a_name_twice_is_refused_and_keeps_the_first(shapes):
    with pytest.raises(ValueError, match="shape 'square' is registered twice"):
        shapes.register(Entry("square", 40))
    assert shapes.spec("square").value == 4
    with pytest.raises(ValueError, match="shape 'dot' is registered twice"):
        Registry("shape", ShapeError, [Entry("dot", 0), Entry("dot", 1)])


def test_available_and_specs_keep_registration_order(shapes):
    entry = shapes.register(Entry("hexagon", 6))
    assert entry == Entry("hexagon", 6)
    assert shapes.available() == ["triangle", "square", "pentagon", "hexagon"]
    assert shapes.specs() == [Entry("triangle", 3), Entry("square", 4), Entry("pentagon", 5), entry]
    assert shapes.spec("hexagon") is entry


def test_the_lists_returned_are_copies(shapes):
    shapes.available().clear()
    shapes.specs().clear()
    assert shapes.available() == ["triangle", "square", "pentagon"]


def test_contains(shapes):
    assert "square" in shapes and "circle" not in shapes and None not in shapes


def test_an_empty_registry_says_so_in_the_message():
    with pytest.raises(KeyError, match=re.escape("unknown colour 'red'; available: .")):
        Registry("colour", KeyError).spec("red")


@pytest.mark.parametrize("module, registry, error, kind", [
    (dataset_registry, "_DATASETS", measures.DatasetError, "data set"),
    (algorithm_registry, "_ALGORITHMS", measures.EmbeddingError, "algorithm"),
    (measure_registry, "_MEASURES", measures.MeasureError, "measure"),
], ids=["datasets", "algorithms", "measures"])
def test_the_three_registries_answer_through_it(module, registry, error, kind):
    """Each library's lookups are its Registry's, which refuses a second entry of a name."""
    registry = getattr(module, registry)
    assert isinstance(registry, Registry) and registry.available() == module.available()
    first = module.specs()[0]
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(first)
    assert module.spec(first.name) is first
    names = module.available()
    assert names and len(names) == len(set(names))
    assert [entry.name for entry in module.specs()] == names
    assert all(module.spec(name).name == name for name in names)
    with pytest.raises(error, match=re.escape(f"unknown {kind} ['x']; available: {', '.join(names)}.")):
        module.spec(["x"])


def test_the_packages_public_functions_are_the_registries():
    assert datasets.available() == dataset_registry.available()
    assert algorithms.available() == algorithm_registry.available()
    assert measures.available() == measure_registry.available()
