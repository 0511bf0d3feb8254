"""Is the picture stable? One algorithm rerun over random states or random subsamples, the runs aligned to
their consensus, and each point's spread.

:func:`consensus` is generalized Procrustes analysis [G]_ with similarity transforms (the alignment of
:func:`measures.similarity_procrustes`), for runs that may each hold only some of the points (subsamples): every run
is moved onto the consensus over the points it holds, the consensus is the mean of the moved runs,
and the two steps alternate until the consensus stops moving. A point's spread is how far its
positions in the runs lie from its mean position, in units of the consensus's size, so a region the
algorithm places differently from run to run shows as such whatever the output's scale.
:class:`StabilityRequest` does it for the dashboard's runs. No Dash here.

References
----------
.. [G] J. C. Gower, "Generalized Procrustes analysis", Psychometrika 40 (1975) 33-51.
"""

import dataclasses
import time
import typing

import numpy as np

import measures

from . import catalogue
from .choices import DataChoice, MethodChoice, Problems, StateError, among
from .runs import RunRequest, algorithm_random_state, failure_message, load_data, output_of
from .study import register

__all__ = ["Consensus", "StabilityRequest", "StabilityResult", "consensus"]

# The consensus is of unit root-mean-square radius; iterations stop once no coordinate of it moves more.
CONSENSUS_TOLERANCE = 1e-10
MAX_ITERATIONS = 200


@dataclasses.dataclass(frozen=True, eq=False)
class Consensus:
    """Several embeddings of the same points aligned to their consensus.

    Attributes
    ----------
    consensus : ndarray of shape (n_samples, d)
        The mean of the aligned runs, centred, scaled to unit root-mean-square radius; NaN rows for
        points no run holds.
    aligned : tuple of ndarray of shape (m_r, d)
        Each run after its similarity transform onto the consensus (before the final rescaling to
        unit radius, which :attr:`spread` divides out).
    spread : ndarray of shape (n_samples,)
        Each point's root-mean-square distance from its mean position over the runs that hold it,
        over the consensus's root-mean-square radius; NaN for points held by fewer than two runs.
    counts : ndarray of shape (n_samples,), int
        How many runs hold each point.
    distances : ndarray of shape (n_runs,)
        Each run's Procrustes distance to the consensus (:attr:`measures.SimilarityFit.distance`).
    n_iterations : int
    converged : bool
        Whether the consensus moved less than :data:`CONSENSUS_TOLERANCE` in the last iteration.
    """

    consensus: np.ndarray
    aligned: tuple
    spread: np.ndarray
    counts: np.ndarray
    distances: np.ndarray
    n_iterations: int
    converged: bool


def _unit_radius(points):
    """``points`` centred over their defined rows and scaled to unit root-mean-square radius."""
    centred = points - np.nanmean(points, axis=0)
    return centred / np.sqrt(np.nanmean(np.einsum("ij,ij->i", centred, centred)))


def _mean_position(aligned, rows, counts, shape):
    """Each point's mean over the runs that hold it, and each run's deviation from it.

    The mean is taken as the first run's value plus the mean deviation from it, so that runs which
    agree exactly give deviations of exactly 0 (a plain mean of equal numbers can round away from them).
    A run's rows hold no repeats, so indexed ``+=`` adds each once (``np.add.at`` is ten times slower).
    """
    base = np.full(shape, np.nan)
    for values, held in zip(aligned, rows):
        unset = np.isnan(base[held, 0])
        base[held[unset]] = values[unset]
    total = np.zeros(shape)
    for values, held in zip(aligned, rows):
        total[held] += values - base[held]
    mean = base + total / np.maximum(counts, 1)[:, None]
    return mean, [values - mean[held] for values, held in zip(aligned, rows)]


def consensus(outputs: typing.Sequence, rows: typing.Sequence | None = None, *, n_samples: int | None = None,
              max_iterations: int = MAX_ITERATIONS, tol: float = CONSENSUS_TOLERANCE) -> Consensus:
    """Align several embeddings of the same points to their consensus; each point's spread.

    Parameters
    ----------
    outputs : sequence of array-like of shape (m_r, d_r)
        The runs' outputs (at least two).
    rows : sequence of array-like of int, optional
        For each run, the points (rows of the data, no repeats) its output's rows are; default every
        run holds every point, in order.
    n_samples : int, optional
        The number of points; default one more than the largest row.
    max_iterations : int
    tol : float
        Stop once no coordinate of the (unit-radius) consensus moves more than this.

    Returns
    -------
    Consensus

    Raises
    ------
    MeasureError
        Fewer than two runs, rows that do not match a run (or repeat a point), a run sharing fewer than
        three points with the first, or a collapsed run.

    Notes
    -----
    Generalized Procrustes analysis [G]_: starting from the first run, repeat (1) move each run
    ``Y_r`` onto the consensus ``C`` over the points it holds by the best similarity
    (:func:`measures.similarity_procrustes`), (2) set ``C`` to the mean of the moved runs, centred and rescaled to
    unit root-mean-square radius (without the rescaling, averaging shrinks it towards 0). The sum of
    squared deviations from the mean never grows. Spread of point i:

    .. math::

        s_i = \\sqrt{\\tfrac{1}{m_i} \\sum_{r \\ni i} \\|\\tilde y_{ri} - \\bar y_i\\|^2} \\Big/
              \\sqrt{\\tfrac{1}{n} \\sum_j \\|\\bar y_j - \\bar y\\|^2},

    over the ``m_i`` runs holding it. Runs equal up to a similarity give spread 0.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.normal(size=(30, 2))
    >>> runs = [Y, -2 * Y + 1, 0.5 * Y[:, ::-1]]  # one shape in three similar poses
    >>> bool(np.abs(consensus(runs).spread).max() < 1e-12)
    True
    """
    outputs = [measures.check_points(values, f"output {index}") for index, values in enumerate(outputs)]
    if len(outputs) < 2:
        raise measures.MeasureError(f"A consensus needs at least two runs; got {len(outputs)}.")
    rows = ([np.arange(len(values)) for values in outputs] if rows is None
            else [np.asarray(held, dtype=int) for held in rows])
    for index, (values, held) in enumerate(zip(outputs, rows)):
        if held.shape != (len(values),) or np.unique(held).size != held.size:
            raise measures.MeasureError(f"Run {index} has {len(values)} rows but names {held.size} points (or names "
                                        "one twice): give each run the points of its rows, without repeats.")
    n_samples = int(max(held.max() for held in rows)) + 1 if n_samples is None else int(n_samples)
    width = max(values.shape[1] for values in outputs)
    outputs = [np.pad(values, ((0, 0), (0, width - values.shape[1]))) for values in outputs]
    counts = np.bincount(np.concatenate(rows), minlength=n_samples)
    reference = np.full((n_samples, width), np.nan)
    reference[rows[0]] = outputs[0]
    reference = _unit_radius(reference)
    converged = False
    for iteration in range(1, max_iterations + 1):
        aligned, distances = [], []
        for index, (values, held) in enumerate(zip(outputs, rows)):
            known = ~np.isnan(reference[held, 0])
            if known.sum() < 3:
                raise measures.MeasureError(f"Run {index} shares {known.sum()} points with the first run; aligning "
                                            "needs at least 3: draw larger subsamples.")
            fit = measures.similarity_procrustes(reference[held][known], values[known])
            aligned.append(fit.transform(values))
            distances.append(fit.distance)
        mean, _ = _mean_position(aligned, rows, counts, reference.shape)
        updated = _unit_radius(mean)
        change = np.nanmax(np.abs(updated - reference)) if np.isnan(reference).sum() == np.isnan(updated).sum() \
            else np.inf
        reference = updated
        if change <= tol:
            converged = True
            break
    mean, deviations = _mean_position(aligned, rows, counts, reference.shape)
    squared = np.zeros(n_samples)
    for deviation, held in zip(deviations, rows):
        squared[held] += np.einsum("ij,ij->i", deviation, deviation)
    centred = mean - np.nanmean(mean, axis=0)
    radius = np.sqrt(np.nanmean(np.einsum("ij,ij->i", centred, centred)))
    spread = np.where(counts >= 2, np.sqrt(squared / np.maximum(counts, 1)) / radius, np.nan)
    return Consensus(consensus=reference, aligned=tuple(aligned), spread=spread, counts=counts,
                     distances=np.asarray(distances), n_iterations=iteration, converged=converged)


@dataclasses.dataclass(frozen=True, eq=False)
class StabilityResult:
    """A stability study: the consensus, each point's spread, each run's distance to the consensus.

    Attributes
    ----------
    consensus : ndarray of shape (n_samples, d)
    spread : ndarray of shape (n_samples,)
    counts : ndarray of shape (n_samples,)
    distances : ndarray of shape (n_successful_runs,)
    random_states : tuple of int
        Of the runs that succeeded.
    truth : ndarray of shape (n_samples, c)
    truth_labels : tuple of str
    notes : tuple of str
        Failed runs (their message), an unconverged consensus.
    failed : int
    seconds : float
    """

    consensus: np.ndarray
    spread: np.ndarray
    counts: np.ndarray
    distances: np.ndarray
    random_states: tuple
    truth: np.ndarray
    truth_labels: tuple
    notes: tuple
    failed: int
    seconds: float

    @property
    def cacheable(self):
        """Only a study without failed runs is kept (a failure may be passing)."""
        return self.failed == 0

    @property
    def summary(self):
        """Mean and median spread, and the mean distance of the runs to their consensus."""
        return {"mean spread": float(np.nanmean(self.spread)), "median spread": float(np.nanmedian(self.spread)),
                "mean distance": float(np.mean(self.distances))}

    def to_value(self):
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    @classmethod
    def from_value(cls, value):
        value = dict(value)
        for key in ("random_states", "truth_labels", "notes"):
            value[key] = tuple(value[key])
        return cls(**value)


@register
@dataclasses.dataclass(frozen=True)
class StabilityRequest:
    """The explore run's algorithm rerun ``n_runs`` times over random states or random subsamples.

    Attributes
    ----------
    data : DataChoice
    method : MethodChoice
        The explore run's; its random state (or the data's) seeds the first run.
    mode : {"random_states", "subsamples"}
        Runs ``r = 0, 1, ...`` use random states ``s, s + 1, ...`` of the algorithm on the same
        points; or the same random state on a subsample of ``fraction`` of the points each, drawn
        without replacement with the seed ``(s, r)``.
    n_runs : int
    fraction : float or None
        The subsamples' share of the points (None for random states).
    """

    KIND: typing.ClassVar[str] = "stability"
    RESULT: typing.ClassVar[type] = StabilityResult
    data: DataChoice
    method: MethodChoice
    mode: str
    n_runs: int
    fraction: float | None

    @classmethod
    def from_state(cls, state):
        """The study of a validated :class:`~lab.view.state.ViewState`: its explore run, its stability settings.

        Raises
        ------
        StateError
            When the explore run is an uploaded output: it is one run of a method outside the app.
        """
        choice = state.stability
        return cls(state.data, state.method, choice.mode, choice.n_runs,
                   choice.fraction if choice.mode == "subsamples" else None)

    def __post_init__(self):
        if self.method.algorithm == catalogue.UPLOADED_OUTPUT:
            raise StateError("Stability reruns an algorithm, and the uploaded output is one run of a method outside "
                             "this app: choose an algorithm (its stability on your input is then shown).")

    def to_dict(self):
        return {"data": self.data.to_dict(), "method": self.method.to_dict(), "mode": self.mode,
                "n_runs": self.n_runs, "fraction": self.fraction}

    @classmethod
    def from_dict(cls, values):
        """The study :meth:`to_dict` wrote, validated again; a :class:`StateError` names every bad field."""
        run = RunRequest.from_dict({"data": values.get("data", {}), "method": values.get("method", {})})
        problems = Problems()
        mode = values.get("mode")
        if not among(mode, catalogue.STABILITY_MODES):
            problems.append(f"stability: the reruns must be one of {list(catalogue.STABILITY_MODES)}; got {mode!r}.")
        n_runs = problems.check(catalogue.STABILITY_RUNS, values.get("n_runs"), "stability: runs")
        fraction = None
        if mode == "subsamples":
            fraction = float(problems.check(catalogue.SUBSAMPLE_FRACTION, values.get("fraction"),
                                            "stability: subsample fraction"))
        problems.raise_any()
        return cls(run.data, run.method, mode, n_runs, fraction)

    def plan(self, n_samples):
        """Each run's ``(random_state, rows)``: rows None for all points, else a sorted subsample.

        Examples
        --------
        >>> request = StabilityRequest(DataChoice().validated(), MethodChoice().validated(), "subsamples", 3, 0.5)
        >>> [(state, len(rows)) for state, rows in request.plan(100)]
        [(0, 50), (0, 50), (0, 50)]
        """
        first = algorithm_random_state(self.data, self.method)
        if self.mode == "random_states":
            return [((first + run) % (catalogue.RANDOM_STATE.high + 1), None) for run in range(self.n_runs)]
        size = min(n_samples, max(self.method.n_neighbors + 2, round(self.fraction * n_samples)))
        return [(first, np.sort(np.random.default_rng([first, run]).choice(n_samples, size, replace=False)))
                for run in range(self.n_runs)]

    def slug(self):
        size = "" if self.data.n is None else f"_n{self.data.n}"
        return f"{self.data.dataset}{size}_{self.method.algorithm}_k{self.method.n_neighbors}_stability_{self.mode}"

    def describe(self):
        how = ("random states" if self.mode == "random_states"
               else f"subsamples of {self.fraction:.0%} of the points")
        return f"{catalogue.method_label(self.method.algorithm)}, k = {self.method.n_neighbors}: {self.n_runs} {how}"

    def _compute(self, *, cache, progress, uploads):
        return _stability_study(self, progress, uploads)


def _stability_study(request, report, uploads):
    """Rerun the algorithm as ``request`` says, align the runs to their consensus, measure each point's spread.

    Parameters
    ----------
    request : StabilityRequest
    report : callable
        ``report(fraction, stage)``.
    uploads : lab.store.uploads.SessionUploads or None
        Where an uploaded data set is read.

    Returns
    -------
    StabilityResult

    Raises
    ------
    measures.ProcrustesLabError
        When fewer than two runs succeed (the first failure's message), or the data cannot be read.

    Notes
    -----
    Only the embeddings are computed (no measures): a study of ``n_runs`` costs about ``n_runs``
    embeddings. A failed run (a subsample whose graph falls apart) is noted and left out.
    """
    started = time.perf_counter()
    data = load_data(request.data, request.method.n_neighbors, uploads=uploads, progress=report)
    plan = request.plan(data.X.shape[0])
    outputs, rows, states, notes, errors = [], [], [], [], []
    label = catalogue.method_label(request.method.algorithm)
    for run, (random_state, held) in enumerate(plan):
        report(0.05 + 0.9 * run / len(plan), f"{label}: run {run + 1} of {len(plan)}")
        points = data.X if held is None else data.X[held]
        try:
            outputs.append(output_of(points, request.method, random_state=random_state))
        except measures.ProcrustesLabError as error:  # one failing run (a disconnected subsample) is noted
            errors.append(error)
            notes.append(f"Run {run + 1} (random state {random_state}) failed: {failure_message(error)}")
            continue
        rows.append(np.arange(data.X.shape[0]) if held is None else held)
        states.append(random_state)
    if len(outputs) < 2:
        raise errors[0]
    report(0.95, "aligning the runs to their consensus")
    fit = consensus(outputs, rows, n_samples=data.X.shape[0])
    if not fit.converged:
        notes.append(f"The consensus still moved after {fit.n_iterations} iterations: the spreads are approximate.")
    return StabilityResult(
        consensus=fit.consensus, spread=fit.spread, counts=fit.counts, distances=fit.distances,
        random_states=tuple(states), truth=np.asarray(data.truth if data.truth is not None else data.color[:, None]),
        truth_labels=tuple(data.truth_labels), notes=tuple(notes), failed=len(errors),
        seconds=time.perf_counter() - started)
