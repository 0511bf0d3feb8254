"""Yardsticks of a measure's value: what an output that keeps nothing of the input scores, and the best any can.

A card that says "R_N 0.19" does not say whether 0.19 is good. Two values on the same input and k
place it (issue 22):

- **random**: the measure's value for outputs unrelated to the input, the mean over seeded draws of
  two kinds: Y's own rows shuffled (the same cloud, every point moved to another's place) and an
  isotropic Gaussian with Y's total variance (the same scale, no shape). A real output should beat
  it by far; a measure whose random value is as good as a real output's says nothing about that output
  (stress can rank a random output above classical MDS by its scale alone).
- **best**: where one is known (:attr:`measures.MeasureSpec.best`): for R_N and R_C the local-PCA
  lower bound on this input, which no d-dimensional output can beat (GR Lemma 1); for the rank
  measures their best value by definition (1 for trustworthiness and continuity, 0 for the rank errors).

The measures that do not read the output (R_PCA, the lower bound) have no random value: they are the
same for every output.
"""

import dataclasses
import types
import typing

import numpy as np
import numpy.typing as npt

from .errors import MeasureError
from .evaluation import evaluate
from .parameters import check_integer
from .registry import spec
from .seeding import check_random_state

__all__ = ["RANDOM_KINDS", "Yardsticks", "best_values", "random_outputs", "yardsticks"]

# The two outputs that keep nothing of the input, drawn in this order in every draw.
RANDOM_KINDS = ("shuffled rows", "isotropic Gaussian")


@dataclasses.dataclass(frozen=True)
class Yardsticks:
    """Result of :func:`yardsticks`.

    Attributes
    ----------
    random : mapping of str to float
        Each measure's mean value (its ``evaluate`` mean: over points for a per-point measure) over the
        ``2 * n_draws`` random outputs; NaN where a draw could not compute it.
    random_spread : mapping of str to float
        The standard deviation of those values (0 with one output): how far one draw may fall from the mean.
    best : mapping of str to float
        The best attainable value of each measure that has one on this input.
    n_draws : int
    """

    random: types.MappingProxyType
    random_spread: types.MappingProxyType
    best: types.MappingProxyType
    n_draws: int


def random_outputs(Y: npt.ArrayLike, *, n_draws: int = 1,
                   random_state: "int | np.random.Generator" = 0) -> typing.Iterator[np.ndarray]:
    """Outputs of Y's shape and scale that keep nothing of the input: per draw, Y's rows shuffled, then an
    isotropic Gaussian of Y's total variance.

    Parameters
    ----------
    Y : array-like of shape (n_samples, d)
    n_draws : int, default=1
    random_state : int or numpy.random.Generator, default=0

    Yields
    ------
    ndarray of shape (n_samples, d)

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.arange(12.0).reshape(6, 2)
    >>> shuffled, gaussian = random_outputs(Y)
    >>> bool(np.array_equal(np.sort(shuffled, axis=0), Y)), gaussian.shape
    (True, (6, 2))
    """
    Y = np.asarray(Y, dtype=float)
    rng = check_random_state(random_state)
    # The Gaussian's per-axis variance is Y's total variance shared equally: the same mean squared
    # distance between points, so a scale-sensitive measure (stress, R_N) meets an output of Y's size.
    sigma = np.sqrt(Y.var(axis=0).sum() / Y.shape[1])
    for _ in range(n_draws):
        yield Y[rng.permutation(len(Y))]
        yield Y.mean(axis=0) + sigma * rng.standard_normal(Y.shape)


def yardsticks(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, which: typing.Sequence[str], *,
               n_draws: int = 1, random_state: "int | np.random.Generator" = 0,
               progress: "typing.Callable[[float, str], None] | None" = None, **evaluate_options) -> Yardsticks:
    """The random-output and best-attainable values of the measures ``which`` of the output Y of X.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
    Y : array-like of shape (n_samples, d)
    n_neighbors : int
        k, as in the run whose values these place.
    which : sequence of str
        Registry names; those that do not read the output get no random value.
    n_draws : int, default=1
        Draws of each kind (:data:`RANDOM_KINDS`): ``2 * n_draws`` evaluations of the measures.
    random_state : int or numpy.random.Generator, default=0
        Seeds the random outputs and every evaluation's own random steps.
    progress : callable, optional
        ``progress(fraction, stage)`` before each random output's evaluation and through it.
    **evaluate_options
        Passed to :func:`measures.evaluate` for every evaluation (``truth``, ``labels``, ``neighbors``):
        the same as the run's, so each random value is the measure the run computed, on another output.

    Returns
    -------
    Yardsticks

    Raises
    ------
    MeasureError
        As :func:`measures.evaluate` (bad shapes, NaN, k, an unknown name), or if ``n_draws`` is not a
        positive integer.

    Examples
    --------
    A random output's trustworthiness is near 1/2 (Venna & Kaski's normalization), its best 1:

    >>> import numpy as np
    >>> X = np.random.default_rng(0).random((400, 3))
    >>> sticks = yardsticks(X, X[:, :2], 5, ["trustworthiness"])
    >>> round(sticks.random["trustworthiness"], 1), sticks.best["trustworthiness"]
    (0.5, 1.0)
    """
    n_draws = check_integer(n_draws, "n_draws", 1, error=MeasureError)
    report = progress or (lambda fraction, stage: None)
    names = [name for name in which if spec(name).reads_output]
    floors = sorted({spec(name).best for name in which if isinstance(spec(name).best, str)})
    rng = check_random_state(random_state)
    outputs = 2 * n_draws
    values = {name: [] for name in names}
    floor_values = {}
    for index, output in enumerate(random_outputs(Y, n_draws=n_draws, random_state=rng)):
        kind = RANDOM_KINDS[index % 2]

        def step(fraction, stage, index=index, kind=kind):
            report((index + fraction) / outputs, f"random output {index + 1} of {outputs} ({kind}): {stage}")

        # The floors read the input only: the first evaluation computes them beside the random values.
        evaluation = evaluate(X, output, n_neighbors, which=names + (floors if index == 0 else []),
                              random_state=rng, progress=step, **evaluate_options)
        for name in names:
            values[name].append(evaluation.mean[name])
        if index == 0:
            floor_values = {name: evaluation.mean[name] for name in floors}
    return Yardsticks(
        random=types.MappingProxyType({name: float(np.mean(draws)) for name, draws in values.items()}),
        random_spread=types.MappingProxyType({name: float(np.std(draws)) for name, draws in values.items()}),
        best=types.MappingProxyType(best_values(which, floor_values)), n_draws=n_draws)


def best_values(which: typing.Iterable[str], floors: typing.Mapping[str, float]) -> dict:
    """The best attainable value of each measure of ``which`` that has one (:attr:`MeasureSpec.best`).

    Parameters
    ----------
    which : iterable of str
    floors : mapping of str to float
        The values on this input of the measures that are floors (``"lower_bound"``, GR Lemma 1); a
        measure whose floor is missing here is left out.

    Examples
    --------
    >>> best_values(["normalized", "trustworthiness", "stress"], {"lower_bound": 0.02})
    {'normalized': 0.02, 'trustworthiness': 1.0}
    """
    best = {}
    for name in which:
        target = spec(name).best
        if isinstance(target, str) and target in floors:
            best[name] = float(floors[target])
        elif isinstance(target, float):
            best[name] = target
    return best
