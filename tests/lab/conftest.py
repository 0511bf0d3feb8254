"""A small request type for the cache and store tests: ``Square(x)`` computes ``Y * x``."""

import dataclasses
import typing

import numpy as np
import pytest

# Values of this size go to diskcache's value files, not into its database.
BASE = np.arange(20000, dtype=float).reshape(-1, 2)


@dataclasses.dataclass(frozen=True)
class Squared:
    Y: np.ndarray

    def to_value(self):
        return {"Y": self.Y}

    @classmethod
    def from_value(cls, value):
        return cls(value["Y"])


@dataclasses.dataclass(frozen=True)
class Square:
    KIND: typing.ClassVar[str] = "square"
    RESULT: typing.ClassVar[type] = Squared
    x: float

    def to_dict(self):
        return {"x": self.x}


def large_result(request):
    return Squared(BASE * request.x)


@pytest.fixture
def square():
    return Square
