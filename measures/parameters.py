"""Declared parameters: the one place a tunable's type, range and default are written.

Data sets and algorithms list their parameters as :class:`Parameter` objects in their registry
entries. The same declaration validates calls from Python (:func:`validate_parameters`), builds the
dashboard's controls, and enters cache keys, so a range is written once (the role scikit-learn's
``_parameter_constraints`` plays for its estimators).
"""

import dataclasses
import functools
import math
import numbers

__all__ = ["Parameter", "check_integer", "is_integer", "validate_parameters"]

_KINDS = ("int", "float", "choice", "bool")


def is_integer(value):
    """Whether ``value`` is a whole-number type (Python or NumPy int), booleans excluded.

    Examples
    --------
    >>> import numpy as np
    >>> is_integer(3), is_integer(np.int64(3)), is_integer(True), is_integer(3.0)
    (True, True, False, False)
    """
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_integer(value, name, low, high=None, *, error, hint=""):
    """Return ``value`` as an ``int`` if it is an integer in ``[low, high]``, else raise ``error``.

    The one integer-in-range check of the libraries: the message quotes the value and the bound,
    then ``hint`` (what to change).

    Parameters
    ----------
    value : object
    name : str
        The argument's name, as the caller wrote it (``"n_neighbors"``).
    low : int
    high : int, optional
        Upper bound, inclusive; None for none.
    error : type
        Exception class to raise (``MeasureError``, ``EmbeddingError``, ...).
    hint : str
        Appended to the message.

    Examples
    --------
    >>> check_integer(5, "k", 1, 10, error=ValueError)
    5
    >>> check_integer(11, "k", 1, 10, error=ValueError, hint="Use fewer.")
    Traceback (most recent call last):
    ...
    ValueError: k must be an integer in [1, 10]; got 11. Use fewer.
    """
    if is_integer(value) and value >= low and (high is None or value <= high):
        return int(value)
    bound = f"an integer >= {low}" if high is None else f"an integer in [{low}, {high}]"
    raise error(f"{name} must be {bound}; got {value!r}." + (f" {hint}" if hint else ""))


@dataclasses.dataclass(frozen=True)
class Parameter:
    """One tunable of a data set or an algorithm.

    Parameters
    ----------
    name : str
        Keyword name in the Python API.
    label : str
        Short human label for the dashboard.
    kind : {"int", "float", "choice", "bool"}
        Value type.
    default : object
        Value used when the caller gives none.
    low, high : float, optional
        Closed bounds for ``int`` and ``float`` (``None``: unbounded on that side).
    choices : tuple, optional
        Allowed values for ``choice``.
    log : bool
        Whether a slider for this value should be logarithmic (e.g. a regulariser).
    help : str
        One sentence on what the value does, shown as a tooltip.
    """

    name: str
    label: str
    kind: str
    default: object
    low: float = None
    high: float = None
    choices: tuple = ()
    log: bool = False
    help: str = ""

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"Parameter kind must be one of {_KINDS}; got {self.kind!r}.")

    def check(self, value, owner, error):
        """Return ``value`` converted to this parameter's type, or raise ``error`` naming ``owner``."""
        where = f"{owner}: parameter {self.name!r}"
        if self.kind == "choice":
            if value not in self.choices:
                raise error(f"{where} must be one of {list(self.choices)}; got {value!r}.")
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise error(f"{where} must be True or False; got {value!r}.")
            return value
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise error(f"{where} must be a number; got {value!r}.")
        if self.kind == "int":
            if not float(value).is_integer():
                raise error(f"{where} must be a whole number; got {value!r}.")
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):
                raise error(f"{where} must be finite; got {value!r}.")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            if self.high is None:
                bound = f"be >= {self.low}"
            elif self.low is None:
                bound = f"be <= {self.high}"
            else:
                bound = f"lie in [{self.low}, {self.high}]"
            raise error(f"{where} must {bound}; got {value!r}.")
        return value


# Keywords renamed in the Python API, named in the refusal only: the API takes the new names alone (old
# links are the one place an old spelling is still read: lab/view/links.py).
_RENAMED = {"seed": "random_state", "output_scale": "rescale"}


@functools.cache
def _unknown_keyword_error(error):
    """``error`` that is also a TypeError, the builtin Python raises for an unexpected keyword."""
    return type(error.__name__, (error, TypeError), {"__module__": error.__module__, "__doc__": error.__doc__,
                                                     "__qualname__": error.__qualname__})


def validate_parameters(declared, given, owner, error):
    """Check keyword arguments against their declarations and fill in defaults.

    Parameters
    ----------
    declared : sequence of Parameter
        The owner's declared parameters.
    given : dict
        Keyword arguments from the caller; ``None`` values mean "use the default".
    owner : str
        Name used in messages, e.g. ``"lle"``.
    error : type
        Exception class to raise (``DatasetError``, ``EmbeddingError``).

    Returns
    -------
    dict
        Every declared parameter, validated and converted.

    Raises
    ------
    error
        On a value of the wrong type or out of range.
    error and TypeError
        On an unknown name: Python reports an unexpected keyword as a TypeError, so the error is
        both (``except EmbeddingError`` and ``except TypeError`` catch it alike). A keyword renamed
        since (``seed=``, now ``random_state=``) is refused like any other, its message naming the
        new keyword.
    """
    by_name = {p.name: p for p in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        renamed = "".join(f" {old}= is now {_RENAMED[old]}=." for old in unknown if old in _RENAMED)
        raise _unknown_keyword_error(error)(f"{owner} has no parameter {', '.join(map(repr, unknown))}; "
                                            f"its parameters are {sorted(by_name) or 'none'}.{renamed}")
    values = {}
    for name, parameter in by_name.items():
        value = given.get(name)
        values[name] = parameter.default if value is None else parameter.check(value, owner, error)
    return values
