"""Differences against seed noise: how far each point of run B lies from run A, in units of how far A's own
points wander when A's algorithm is only re-seeded.

The pair (:mod:`.pairs`) gives each point's displacement after B's best similarity onto A, in A's
units; the stability study over random states (:mod:`.stability`) gives each point's spread, as a
share of the consensus's root-mean-square radius. Over A's root-mean-square radius, the displacement
is a share of the same shape's size, and the two divide: a point at 3 spreads moved three times as
far as re-seeding A's algorithm moves it. :class:`SeedNoiseRequest` computes the pair and the study
(each through the result cache) and divides. No Dash here.
"""

import dataclasses
import typing

import numpy as np

from . import catalogue
from .choices import Problems, StateError
from .pairs import PairRequest
from .stability import StabilityRequest
from .study import compute, register

__all__ = ["BEYOND_SPREADS", "ROUNDING_SPREAD", "SeedNoiseRequest", "SeedNoiseResult", "relative_displacement",
           "seed_noise_ratio"]

# A point beyond this many spreads moved more than re-seeding moves it (the card's share).
BEYOND_SPREADS = 2.0
# Spreads (and displacements) up to this share of the radius are rounding, not seed noise: re-seeding
# PCA gives 0, Isomap, LTSA, HLLE and Laplacian eigenmaps (random ARPACK start vectors) at most 1e-14,
# LLE 5e-12 (a 400-point swiss roll, 3 random states); t-SNE's median is 0.08. 1e-8 leaves three
# orders of magnitude to the largest rounding seen and six to any noise a view could show.
ROUNDING_SPREAD = 1e-8


def relative_displacement(A, displacement):
    """Each point's displacement as a share of A's root-mean-square radius (the unit of a stability spread).

    Parameters
    ----------
    A : ndarray of shape (n_samples, d)
        Run A's output, the pair's reference.
    displacement : ndarray of shape (n_samples,)
        ``||a_i - aligned b_i||`` (:attr:`measures.SimilarityFit.displacement`).

    Returns
    -------
    ndarray of shape (n_samples,)
        ``displacement / sqrt(mean_i ||a_i - mean a||^2)``; its root mean square is the square root
        of the pair's Procrustes distance.

    Examples
    --------
    >>> A = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0], [0.0, -2.0]])  # radius sqrt(2.5)
    >>> relative_displacement(A, np.full(4, np.sqrt(2.5))).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    centred = A - A.mean(axis=0)
    return np.asarray(displacement, dtype=float) / np.sqrt(np.einsum("ij,ij->", centred, centred) / len(A))


def seed_noise_ratio(displacement, spread):
    """Each point's displacement over its seed spread, both shares of the shape's radius.

    Parameters
    ----------
    displacement : ndarray of shape (n_samples,)
        :func:`relative_displacement` of the pair.
    spread : ndarray of shape (n_samples,)
        Run A's spread over random states (:attr:`.stability.StabilityResult.spread`); NaN for a
        point fewer than two runs hold.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``displacement / spread``; where the spread is rounding (at most :data:`ROUNDING_SPREAD`)
        there is no seed noise to divide by: ``inf`` if the point moved more than rounding, else 0
        (it moved no more than re-seeding, which is not at all). NaN where the spread is NaN.

    Notes
    -----
    With run A's output :math:`a`, B after its best similarity onto A :math:`\\tilde b`, and A's
    runs over random states aligned to their consensus :math:`\\bar y` (generalized Procrustes,
    :func:`.stability.consensus`), point i's ratio is

    .. math::

        \\rho_i = \\frac{\\|a_i - \\tilde b_i\\| \\big/ \\sqrt{\\tfrac1n \\sum_j \\|a_j - \\bar a\\|^2}}
                       {s_i}, \\qquad
        s_i = \\frac{\\sqrt{\\tfrac{1}{m} \\sum_r \\|\\tilde y_{ri} - \\bar y_i\\|^2}}
                   {\\sqrt{\\tfrac1n \\sum_j \\|\\bar y_j - \\bar y\\|^2}}.

    Both are distances over the root-mean-square radius of one shape (A's, and the consensus of A's
    reruns, of which A is the first), so the ratio has no unit; it does not change when B is moved,
    turned, mirrored or scaled (the alignment absorbs it), nor when A's output is scaled.

    Examples
    --------
    >>> seed_noise_ratio(np.array([0.2, 0.05, 0.3, 0.0, 0.1]), np.array([0.1, 0.1, 0.0, 0.0, np.nan])).tolist()
    [2.0, 0.5, inf, 0.0, nan]
    """
    displacement, spread = np.asarray(displacement, dtype=float), np.asarray(spread, dtype=float)
    noiseless = spread <= ROUNDING_SPREAD
    # Rounding over rounding is no ratio: a point with no seed noise is beyond it iff it moved at all.
    moved = np.where(displacement > ROUNDING_SPREAD, np.inf, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(noiseless, moved, displacement / spread)


@dataclasses.dataclass(frozen=True, eq=False)
class SeedNoiseResult:
    """A pair's displacements against run A's seed spread.

    Attributes
    ----------
    displacement : ndarray of shape (n_samples,)
        :func:`relative_displacement`: a share of A's radius.
    spread : ndarray of shape (n_samples,)
        Run A's spread over its random states (a share of the consensus's radius).
    ratio : ndarray of shape (n_samples,)
        :func:`seed_noise_ratio`.
    random_states : tuple of int
        A's reruns.
    label_a, label_b : str
        Each run in a few words.
    notes : tuple of str
        The stability study's (failed reruns, an unconverged consensus).
    failed : int
        A's reruns that failed.
    """

    displacement: np.ndarray
    spread: np.ndarray
    ratio: np.ndarray
    random_states: tuple
    label_a: str
    label_b: str
    notes: tuple
    failed: int

    @property
    def cacheable(self):
        """Kept only when no rerun failed (a failure may be passing), as the stability study."""
        return self.failed == 0

    @property
    def deterministic(self):
        """Whether re-seeding A's algorithm moves no point more than rounding (:data:`ROUNDING_SPREAD`)."""
        spread = self.spread[np.isfinite(self.spread)]
        return bool(np.all(spread <= ROUNDING_SPREAD))

    @property
    def beyond(self):
        """The share of the points (with a spread) beyond :data:`BEYOND_SPREADS` spreads."""
        held = ~np.isnan(self.ratio)
        return float(np.mean(self.ratio[held] > BEYOND_SPREADS)) if held.any() else float("nan")

    @property
    def median_ratio(self):
        """The median ratio over the points with a spread (``inf`` when most have no seed noise but moved)."""
        held = ~np.isnan(self.ratio)
        return float(np.median(self.ratio[held])) if held.any() else float("nan")

    def ranked(self, count=10):
        """The rows of the ``count`` points that moved most beyond re-seeding: highest ratio first, then
        largest displacement (which orders the infinite ratios of a deterministic run A)."""
        ratio = np.where(np.isnan(self.ratio), -np.inf, self.ratio)
        return np.lexsort((-self.displacement, -ratio))[:count]

    def coloring(self, rows=None):
        """Values and colour-bar title painting the pair's views: the ratio, or (A deterministic, every ratio
        infinite) the displacement as a share of A's radius."""
        chosen = slice(None) if rows is None else rows
        if self.deterministic:
            return self.displacement[chosen], "displacement ÷ A's radius (A deterministic)"
        return self.ratio[chosen], catalogue.SEED_NOISE_LABEL

    def to_value(self):
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    @classmethod
    def from_value(cls, value):
        value = dict(value)
        for key in ("random_states", "notes"):
            value[key] = tuple(value[key])
        return cls(**value)


@register
@dataclasses.dataclass(frozen=True)
class SeedNoiseRequest:
    """A pair of runs, and run A's algorithm rerun over ``n_runs`` random states (A's the first).

    Attributes
    ----------
    pair : PairRequest
    n_runs : int
    """

    KIND: typing.ClassVar[str] = "seed_noise"
    RESULT: typing.ClassVar[type] = SeedNoiseResult
    pair: PairRequest
    n_runs: int

    @classmethod
    def from_state(cls, state):
        """The pair of a validated :class:`~lab.view.state.ViewState`, with its stability study's number of runs.

        Raises
        ------
        StateError
            When run A is an uploaded output (it cannot be re-seeded).
        """
        return cls(PairRequest.from_state(state), state.stability.n_runs)

    def __post_init__(self):
        self.stability  # noqa: B018 (refuses an uploaded run A here, where the request is made)

    @property
    def data(self):
        """The data both runs embed."""
        return self.pair.data

    @property
    def stability(self):
        """Run A's stability study over random states."""
        return StabilityRequest(self.pair.a.data, self.pair.a.method, "random_states", self.n_runs, None)

    def to_dict(self):
        return {"pair": self.pair.to_dict(), "n_runs": self.n_runs}

    @classmethod
    def from_dict(cls, values):
        """The request :meth:`to_dict` wrote, validated again; a :class:`StateError` names every bad field."""
        pair = values.get("pair")
        if not isinstance(pair, dict):
            raise StateError([f"seed noise: the pair must be an object; got {type(pair).__name__}."])
        pair = PairRequest.from_dict(pair)
        problems = Problems()
        n_runs = problems.check(catalogue.STABILITY_RUNS, values.get("n_runs"), "seed noise: runs")
        problems.raise_any()
        return cls(pair, n_runs)

    def slug(self):
        return f"{self.pair.slug()}_seed_noise_{self.n_runs}"

    def _compute(self, *, cache, progress, uploads):
        stability = self.stability
        pair, _ = compute(self.pair, cache=cache, uploads=uploads,
                          progress=lambda fraction, stage: progress(0.3 * fraction, stage))
        study, _ = compute(stability, cache=cache, uploads=uploads,
                           progress=lambda fraction, stage: progress(0.3 + 0.7 * fraction, f"A's seed spread: {stage}"))
        displacement = relative_displacement(pair.A, pair.displacement)
        return SeedNoiseResult(displacement=displacement, spread=study.spread,
                               ratio=seed_noise_ratio(displacement, study.spread), random_states=study.random_states,
                               label_a=pair.label_a, label_b=pair.label_b, notes=study.notes,
                               failed=study.failed)
