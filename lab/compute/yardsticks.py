"""The yardsticks of a run (:func:`measures.yardsticks`): each measure's random-output and best values.

A study of its own, not part of the run: the random values cost two more evaluations of every
measure (more than the run's own measures on a good output: the rank measures are slowest on an
output that keeps no neighbourhood), so the page asks for them with a button and the result cache
keeps them under the run's key; the run shown, a cached one is shown at once.
"""

import dataclasses
import time
import typing
import warnings

import measures

from . import catalogue
from .choices import Problems, StateError
from .runs import RunRequest
from .study import compute, register
from .views import class_labels

__all__ = ["YardstickRequest", "YardstickResult", "cached_yardsticks", "summary_best"]


def _check_size(n_samples):
    if n_samples > catalogue.YARDSTICK_MAX_SAMPLES:
        raise StateError(f"Yardsticks are computed for runs of at most {catalogue.YARDSTICK_MAX_SAMPLES:,} points; "
                         f"this run has {n_samples:,}. Choose fewer points (Data, n) to see them.")


@dataclasses.dataclass(frozen=True, eq=False)
class YardstickResult:
    """A run's yardsticks.

    Attributes
    ----------
    values : mapping of str to float or None
        The run's own value (its mean) of each measure, which the others place.
    random, random_spread, best : mapping of str to float
        As :class:`measures.Yardsticks`: the mean over the random outputs, its standard deviation, and
        the best attainable value where one is known.
    n_draws : int
    notes : tuple of str
        What the random outputs' evaluations warned (a random output's landmarks may be degenerate).
    seconds : float
        The random outputs' evaluations (the run itself not counted).
    """

    values: dict
    random: dict
    random_spread: dict
    best: dict
    n_draws: int
    notes: tuple
    seconds: float

    def verdict(self, name, value=None):
        """Whether the run's value of measure ``name`` (or ``value``) is no better than a random output's
        (None: cannot say).

        Examples
        --------
        >>> sticks = YardstickResult({"stress": 0.7}, {"stress": 0.6}, {"stress": 0.01}, {}, 1, (), 0.0)
        >>> sticks.verdict("stress"), sticks.verdict("stress", 0.2), sticks.verdict("asim")
        (True, False, None)
        """
        higher = measures.spec(name).higher_is_better
        random = self.random.get(name)
        value = self.values.get(name) if value is None else value
        if higher is None or random is None or value is None or random != random or value != value:
            return None
        return value <= random if higher else value >= random

    def to_value(self):
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    @classmethod
    def from_value(cls, value):
        return cls(**{**value, "notes": tuple(value["notes"])})


@register
@dataclasses.dataclass(frozen=True)
class YardstickRequest:
    """The yardsticks of the measures of one full run (every measure it defines).

    Attributes
    ----------
    run : RunRequest
        With ``measures`` None: the yardsticks place the values Explore shows.
    n_draws : int
    """

    KIND: typing.ClassVar[str] = "yardsticks"
    RESULT: typing.ClassVar[type] = YardstickResult
    run: RunRequest
    n_draws: int = catalogue.YARDSTICK_DRAWS.default

    def __post_init__(self):
        if not isinstance(self.run, RunRequest) or self.run.measures is not None:
            raise StateError("Yardsticks place a full run's values: give a RunRequest without a measures subset.")
        catalogue.YARDSTICK_DRAWS.check(self.n_draws, "yardsticks: draws", StateError)
        if self.run.data.n is not None:
            _check_size(self.run.data.n)

    @property
    def data(self):
        """The run's data (:meth:`lab.store.uploads.UploadStore.authorized` checks an upload's session by it)."""
        return self.run.data

    @classmethod
    def from_state(cls, state):
        """The yardsticks of a validated :class:`~lab.view.state.ViewState`'s explore run."""
        return cls(RunRequest.from_state(state))

    def to_dict(self):
        return {"run": self.run.to_dict(), "n_draws": self.n_draws}

    @classmethod
    def from_dict(cls, values):
        """The request :meth:`to_dict` wrote, validated again; a :class:`StateError` names every bad field."""
        if not isinstance(values, dict):
            raise StateError([f"A yardstick request must be an object; got {type(values).__name__}."])
        run = RunRequest.from_dict(values.get("run"))
        problems = Problems()
        n_draws = problems.check(catalogue.YARDSTICK_DRAWS, values.get("n_draws"), "yardsticks: draws")
        problems.raise_any()
        return cls(run, n_draws)

    def slug(self):
        return f"{self.run.slug()}_yardsticks"

    def describe(self):
        return f"yardsticks of {self.run.describe()}"

    def _compute(self, *, cache, progress, uploads):
        return _compute_yardsticks(self, cache, progress, uploads)


def summary_best(summary):
    """The best attainable values a run's own ``summary`` (measure -> (mean, median)) gives, with no
    yardstick computed: its lower bound is R_N's and R_C's floor; the rank measures' best is by definition.

    Examples
    --------
    >>> summary_best({"normalized": (0.3, 0.2), "lower_bound": (0.01, 0.0), "trustworthiness": (0.9, 0.95)})
    {'normalized': 0.01, 'trustworthiness': 1.0}
    """
    return measures.best_values(summary, {name: pair[0] for name, pair in summary.items() if pair[0] is not None})


def cached_yardsticks(results, run):
    """The yardsticks of ``run`` if ``results`` (a :class:`lab.store.cache.ResultCache`) holds them, else None
    (also for a run above :data:`~lab.compute.catalogue.YARDSTICK_MAX_SAMPLES`, which has none)."""
    try:
        return results.get(YardstickRequest(run))
    except StateError:
        return None


def _compute_yardsticks(request, cache, report, uploads):
    """The run (read from ``cache``, or computed and kept), then its measures on the random outputs."""
    result, _ = compute(request.run, cache=cache, uploads=uploads,
                        progress=lambda fraction, stage: report(0.2 * fraction, f"the run: {stage}"))
    _check_size(result.n_samples)
    started = time.perf_counter()
    names = [name for name in catalogue.RUN_MEASURES if name in result.summary]
    truth = result.truth if any(measures.spec(name).needs_truth for name in names) else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", measures.ProcrustesLabWarning)
        # The run's seed, truth and labels: each random value is the run's measure on another output.
        sticks = measures.yardsticks(
            result.X, result.Y, request.run.method.n_neighbors, names, n_draws=request.n_draws,
            random_state=request.run.data.random_state, truth=truth, labels=class_labels(result),
            progress=lambda fraction, stage: report(0.2 + 0.8 * fraction, stage))
    notes = tuple(dict.fromkeys(str(warning.message) for warning in caught
                                if issubclass(warning.category, measures.ProcrustesLabWarning)))
    return YardstickResult({name: result.summary[name][0] for name in names}, dict(sticks.random),
                           dict(sticks.random_spread), dict(sticks.best), request.n_draws, notes,
                           time.perf_counter() - started)
