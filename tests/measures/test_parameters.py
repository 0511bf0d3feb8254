"""Tests of ``measures/parameters.py``: declared parameters and their validation."""

import math

import numpy as np
import pytest

from measures import DatasetError, EmbeddingError, Parameter, validate_parameters

DECLARED = (
    Parameter("n_neighbors", "neighbours k", "int", 12, low=2, high=50),
    Parameter("reg", "regulariser", "float", 1e-3, low=0.0, high=1.0, log=True),
    Parameter("method", "method", "choice", "standard", choices=("standard", "modified")),
    Parameter("dense", "dense solver", "bool", False),
    Parameter("noise", "noise σ", "float", 0.0, low=0.0),
)


def validate(**given):
    return validate_parameters(DECLARED, given, "lle", EmbeddingError)


def test_defaults_fill_missing_and_none_values():
    assert validate() == {"n_neighbors": 12, "reg": 1e-3, "method": "standard", "dense": False, "noise": 0.0}
    assert validate(n_neighbors=None, reg=None)["n_neighbors"] == 12


def test_values_are_converted_to_the_declared_type():
    values = validate(n_neighbors=7.0, reg=1, noise=np.float32(0.5), method="modified", dense=True)
    assert values == {"n_neighbors": 7, "reg": 1.0, "method": "modified", "dense": True, "noise": 0.5}
    assert type(values["n_neighbors"]) is int and type(values["reg"]) is float and type(values["noise"]) is float
    assert type(validate(n_neighbors=np.int64(9))["n_neighbors"]) is int


def test_closed_bounds_are_inclusive():
    assert validate(n_neighbors=2)["n_neighbors"] == 2
    assert validate(n_neighbors=50)["n_neighbors"] == 50
    assert validate(reg=0.0, noise=1e300)["reg"] == 0.0


@pytest.mark.parametrize(
    "given, message",
    [
        ({"n_neighbors": 1}, r"lle: parameter 'n_neighbors' must lie in \[2, 50\]; got 1\."),
        ({"n_neighbors": 51}, r"lle: parameter 'n_neighbors' must lie in \[2, 50\]; got 51\."),
        ({"reg": 1.5}, r"lle: parameter 'reg' must lie in \[0\.0, 1\.0\]; got 1\.5\."),
        ({"noise": -0.1}, r"lle: parameter 'noise' must be >= 0\.0; got -0\.1\."),
        ({"n_neighbors": 7.5}, r"lle: parameter 'n_neighbors' must be a whole number; got 7\.5\."),
        ({"n_neighbors": math.inf}, r"lle: parameter 'n_neighbors' must be a whole number; got inf\."),
        ({"n_neighbors": True}, r"lle: parameter 'n_neighbors' must be a number; got True\."),
        ({"reg": False}, r"lle: parameter 'reg' must be a number; got False\."),
        ({"reg": "0.1"}, r"lle: parameter 'reg' must be a number; got '0\.1'\."),
        ({"reg": math.nan}, r"lle: parameter 'reg' must be finite; got nan\."),
        ({"noise": math.inf}, r"lle: parameter 'noise' must be finite; got inf\."),
        ({"method": "hessian"}, r"lle: parameter 'method' must be one of \['standard', 'modified'\]; got 'hessian'\."),
        ({"dense": 1}, r"lle: parameter 'dense' must be True or False; got 1\."),
        ({"solver": "arpack", "alpha": 1}, r"lle has no parameter 'alpha', 'solver'; its parameters are \["),
    ],
)
def test_bad_values_raise_naming_owner_parameter_and_bound(given, message):
    with pytest.raises(EmbeddingError, match=message):
        validate(**given)


def test_the_given_error_class_is_raised():
    with pytest.raises(DatasetError, match=r"swissroll: parameter 'n_samples' must be >= 10; got 3\."):
        validate_parameters([Parameter("n_samples", "points", "int", 1600, low=10)], {"n_samples": 3},
                            "swissroll", DatasetError)


def test_no_parameters_declared():
    assert validate_parameters((), {}, "pca", EmbeddingError) == {}
    with pytest.raises(EmbeddingError, match="pca has no parameter 'k'; its parameters are none"):
        validate_parameters((), {"k": 3}, "pca", EmbeddingError)


def test_unknown_kind_is_refused_at_declaration():
    with pytest.raises(ValueError, match="Parameter kind must be one of"):
        Parameter("x", "x", "string", "a")


def test_parameter_is_frozen():
    with pytest.raises(AttributeError):
        DECLARED[0].default = 3
