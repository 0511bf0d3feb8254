"""Studies over runs: a k sweep and a comparison of algorithms, each a request and a progress callable.

Every (algorithm, k) cell is a :class:`~lab.compute.runs.RunRequest` computed through the result cache, so a
sweep cell and the explore run of the same settings are one computation, and a repeated study is
read from disk. One failing cell (a disconnected graph at a small k) is reported in its row and does
not stop the others. No Dash here.
"""

import dataclasses
import typing

import numpy as np

import algorithms
import measures

from . import catalogue
from .choices import (DataChoice, MethodChoice, Problems, StateError, algorithm_list, check_run, json_number,
                      neighbour_list)
from .runs import RunRequest, failure_message
from .study import compute, register
from .yardsticks import YardstickRequest, summary_best

__all__ = ["CompareRequest", "CompareResult", "SweepRequest", "SweepResult", "SweepYardsticks", "align_to_reference",
           "best_cells", "runs_agreement", "stored_sweep", "sweep_yardsticks"]


def _cell(data, algorithm, n_neighbors):
    """The run of one study cell: ``algorithm`` at ``n_neighbors`` with its default parameters."""
    return RunRequest(data, MethodChoice(algorithm, n_neighbors).validated())


@dataclasses.dataclass(frozen=True)
class SweepResult:
    """A sweep's rows: ``algorithm``, ``label``, ``k``, and ``summary`` (measure -> [mean, median]) and
    ``seconds``, or ``error`` for a failed cell; and how many cells were computed, read or failed.

    A sweep with yardsticks adds to each row ``random`` (measure -> its value on the random outputs,
    :class:`lab.compute.yardsticks.YardstickResult`), or ``random_error`` when they could not be computed."""

    rows: tuple
    computed: int
    cached: int
    failed: int

    @property
    def cacheable(self):
        """Never kept whole: its cells are, and its counts describe the computation that made it."""
        return False

    @property
    def message(self):
        total = self.computed + self.cached + self.failed
        text = f"{total} runs: {self.computed} computed, {self.cached} from the cache"
        return text + (f", {self.failed} failed (see the table)." if self.failed else ".")

    def to_value(self):
        return {"rows": list(self.rows), "computed": self.computed, "cached": self.cached, "failed": self.failed}

    @classmethod
    def from_value(cls, value):
        return cls(tuple(value["rows"]), value["computed"], value["cached"], value["failed"])


@register
@dataclasses.dataclass(frozen=True)
class SweepRequest:
    """A k sweep: the data of the view, each chosen algorithm at each k (defaults otherwise), and with
    ``yardsticks`` each cell's random-output values (:class:`lab.compute.yardsticks.YardstickRequest`)."""

    KIND: typing.ClassVar[str] = "sweep"
    RESULT: typing.ClassVar[type] = SweepResult
    data: DataChoice
    algorithms: tuple
    ks: tuple
    yardsticks: bool = False

    def __post_init__(self):
        if self.yardsticks and self.data.n is not None and self.data.n > catalogue.YARDSTICK_MAX_SAMPLES:
            raise StateError([f"sweep: yardsticks are computed for at most {catalogue.YARDSTICK_MAX_SAMPLES:,} "
                              f"points; the data set has {self.data.n:,}. Untick them, or choose fewer points."])

    @classmethod
    def from_state(cls, state):
        """The sweep of a validated :class:`~lab.view.state.ViewState` (its data part, its sweep tab)."""
        return cls(state.data, state.sweep.algorithms, state.sweep.ks, state.sweep.yardsticks)

    def to_dict(self):
        values = {"data": self.data.to_dict(), "algorithms": list(self.algorithms), "ks": list(self.ks)}
        # Absent without yardsticks: a plain sweep keeps the key it always had.
        return {**values, "yardsticks": True} if self.yardsticks else values

    @classmethod
    def from_dict(cls, values):
        """The sweep :meth:`to_dict` wrote, validated again; a :class:`StateError` names every bad field."""
        problems = Problems()
        data = DataChoice.from_dict(values.get("data", {})).validated(problems)
        chosen = algorithm_list(values.get("algorithms"), "sweep", problems)
        if catalogue.UPLOADED_OUTPUT in chosen:  # a sweep measures an uploaded output at each k: the data needs one
            check_run(data, MethodChoice(catalogue.UPLOADED_OUTPUT), problems)
        ks = values.get("ks")
        if isinstance(ks, list) and len(ks) > catalogue.MAX_SWEEP_CELLS:
            problems.append(f"sweep: at most {catalogue.MAX_SWEEP_CELLS} values of k; got {len(ks)}.")
            ks = ks[:1]
        ks = neighbour_list(ks, "sweep", problems)
        if len(chosen) * len(ks) > catalogue.MAX_SWEEP_CELLS:
            problems.append(f"sweep: {len(chosen) * len(ks)} runs; at most {catalogue.MAX_SWEEP_CELLS} per sweep.")
        yardsticks = values.get("yardsticks", False)
        if not isinstance(yardsticks, bool):
            problems.append(f"sweep: yardsticks must be true or false; got {type(yardsticks).__name__}.")
        problems.raise_any()
        return cls(data, chosen, ks, yardsticks)

    def cells(self):
        """``(algorithm, k)`` of every cell, algorithm by algorithm."""
        return [(algorithm, k) for algorithm in self.algorithms for k in self.ks]

    def parts(self):
        """The requests the sweep reads (it is never kept whole: :func:`lab.compute.study.held`): each cell's run,
        and with yardsticks each cell's yardsticks."""
        runs = [_cell(self.data, algorithm, k) for algorithm, k in self.cells()]
        return runs + ([YardstickRequest(run) for run in runs] if self.yardsticks else [])

    def slug(self):
        """The stem of the sweep's file names, e.g. ``swissroll_n1600_sweep_k6-18``."""
        size = "" if self.data.n is None else f"_n{self.data.n}"
        return f"{self.data.dataset}{size}_sweep_k{min(self.ks)}-{max(self.ks)}"

    def _compute(self, *, cache, progress, uploads):
        return _sweep(self, cache, progress, uploads)


def _drawable(row):
    """Whether ``row`` is a sweep row as the sweep job writes it (a failed cell, or one with its measures)."""
    if not isinstance(row, dict) or not isinstance(row.get("label"), str) or not isinstance(row.get("algorithm"), str) \
            or not json_number(row.get("k")):
        return False
    if "error" in row:
        return isinstance(row["error"], str)
    summary, random = row.get("summary"), row.get("random", {})
    return json_number(row.get("seconds")) and isinstance(summary, dict) and all(
        isinstance(pair, list) and len(pair) == 2 and all(value is None or json_number(value) for value in pair)
        for pair in summary.values()) and all(key in summary for key in catalogue.CARD_MEASURES) \
        and isinstance(random, dict) and all(json_number(value) for value in random.values()) \
        and isinstance(row.get("random_error", ""), str)


def stored_sweep(stored):
    """The sweep a page's store holds (``{"state": ..., "result": SweepResult.to_value()}``), checked.

    The rows travel through the browser and come back with a redraw or an export, so they are read
    only once they have the shape a sweep writes (:class:`SweepResult`).

    Raises
    ------
    StateError
        When the store holds what the sweep job never writes.
    """
    result = stored.get("result") if isinstance(stored, dict) else None
    rows = result.get("rows") if isinstance(result, dict) else None
    if not isinstance(rows, list) or not all(map(_drawable, rows)):
        raise StateError(["The sweep shown is not one this page wrote: run the sweep again."])
    return SweepResult.from_value({"computed": 0, "cached": 0, "failed": 0, **result})


def _summary(result):
    """A run's measures as plain lists (JSON): measure -> [mean, median]."""
    return {name: [mean, median] for name, (mean, median) in result.summary.items()}


def _sweep(request, cache, report, uploads):
    """Every (algorithm, k) cell of a sweep, each through ``cache``; failures kept per cell.

    Parameters
    ----------
    request : SweepRequest
    cache : lab.store.cache.ResultCache or None
    report : callable
        ``report(fraction, stage)``.
    uploads : lab.store.uploads.SessionUploads or None
        Where an uploaded data set is read.

    Returns
    -------
    SweepResult
    """
    cells = request.cells()
    rows, computed, cached = [], 0, 0
    for done, (algorithm, k) in enumerate(cells):
        label = catalogue.method_label(algorithm)  # an algorithm, or the uploaded output measured at this k
        report(done / len(cells), f"{label}, k = {k} ({done + 1} of {len(cells)})")
        row = {"algorithm": algorithm, "label": label, "k": k}
        try:
            result, hit = compute(_cell(request.data, algorithm, k), cache=cache, uploads=uploads)
            row.update(summary=_summary(result), seconds=float(result.seconds))
            cached += hit
            computed += not hit
        except Exception as error:  # one failing cell (e.g. a disconnected graph at small k) is reported
            row["error"] = failure_message(error)
        if request.yardsticks and "error" not in row:
            try:
                sticks, _ = compute(YardstickRequest(_cell(request.data, algorithm, k)), cache=cache, uploads=uploads)
                # NaN (a random output's M_G may not be defined) is no JSON number: left out.
                row["random"] = {name: value for name, value in sticks.random.items() if value == value}
            except Exception as error:  # e.g. an upload above the yardsticks' cap: the run's values still stand
                row["random_error"] = failure_message(error)
        rows.append(row)
    return SweepResult(tuple(rows), computed, cached, len(cells) - computed - cached)


@dataclasses.dataclass(frozen=True)
class SweepYardsticks:
    """What a sweep's plot draws of a measure's yardsticks, k by k (:func:`sweep_yardsticks`).

    Attributes
    ----------
    best_label : str
        "floor" (R_N, R_C: GR Lemma 1's lower bound at each k) or "best" (by definition).
    best_ks, best : tuple
        The best attainable value at each k; empty where the measure has none.
    random_ks, random_low, random_high : tuple
        The lowest and highest random-output value over the sweep's algorithms at each k; empty
        without yardsticks.
    """

    best_label: str
    best_ks: tuple
    best: tuple
    random_ks: tuple
    random_low: tuple
    random_high: tuple


def sweep_yardsticks(rows, measure):
    """The yardsticks of ``measure`` across a sweep's ``rows``: its best value and its random-output band.

    The floor of R_N and R_C is each k's lower bound (:func:`measures.best_values` of the row; equal for every
    algorithm at one k: it reads only the input); the random band spans the algorithms' random-output
    values, which differ with each output's scale (R_N, stress) and barely for the rank measures.

    Examples
    --------
    >>> rows = [{"algorithm": "pca", "k": 6, "summary": {"normalized": [0.3, 0.2], "lower_bound": [0.01, None]},
    ...          "random": {"normalized": 40.0}},
    ...         {"algorithm": "lle", "k": 6, "summary": {"normalized": [0.9, 0.8], "lower_bound": [0.01, None]},
    ...          "random": {"normalized": 0.95}}]
    >>> sticks = sweep_yardsticks(rows, "normalized")
    >>> sticks.best_label, sticks.best, sticks.random_low, sticks.random_high
    ('floor', (0.01,), (0.95,), (40.0,))
    """
    best, low, high = {}, {}, {}
    for row in rows:
        if "summary" not in row:
            continue
        value = summary_best(row["summary"]).get(measure)
        if value is not None:
            best[row["k"]] = value
        random = row.get("random", {}).get(measure)
        if random is not None:
            low[row["k"]] = min(random, low.get(row["k"], random))
            high[row["k"]] = max(random, high.get(row["k"], random))
    ks = sorted(low)
    return SweepYardsticks("floor" if isinstance(measures.spec(measure).best, str) else "best",
                           tuple(sorted(best)), tuple(best[k] for k in sorted(best)),
                           tuple(ks), tuple(low[k] for k in ks), tuple(high[k] for k in ks))


def best_cells(rows, measure):
    """Each algorithm's best cell for ``measure``, in the measure's own direction (its registry entry).

    Parameters
    ----------
    rows : sequence of dict
        Sweep rows (failed cells and cells where the measure was not computed are skipped).
    measure : str
        A measure with a direction (``higher_is_better`` not None).

    Returns
    -------
    dict of str to dict
        Algorithm -> its best row: the lowest mean of an error measure, the highest of
        trustworthiness or continuity; the first such k on ties.

    Examples
    --------
    >>> rows = [{"algorithm": "ltsa", "k": k, "summary": {"trustworthiness": [t, None]}}
    ...         for k, t in ((6, 0.998), (18, 0.857))]
    >>> best_cells(rows, "trustworthiness")["ltsa"]["k"]
    6
    """
    higher = measures.spec(measure).higher_is_better
    if higher is None:
        raise measures.MeasureError(f"{measures.spec(measure).label} has no better direction: no best k.")
    best = {}
    for row in rows:
        value = row.get("summary", {}).get(measure, [None])[0]
        if value is None or not np.isfinite(value):
            continue
        current = best.get(row["algorithm"])
        if current is None or (value > current[0] if higher else value < current[0]):
            best[row["algorithm"]] = (value, row)
    return {algorithm: row for algorithm, (_, row) in best.items()}


def runs_agreement(rows):
    """Which measures rank a study's runs alike: :func:`measures.measure_agreement` over its rows.

    Parameters
    ----------
    rows : sequence of dict
        A sweep's rows or a comparison's panels (each a ``summary`` of measure -> [mean, median], or
        an ``error``; failed ones are left out).

    Returns
    -------
    names : tuple of str
        The measures with a direction that read the output and that some run computed, in the
        registry's order.
    rho : ndarray of shape (len(names), len(names))
        Spearman's rho between them across the runs (NaN where too few runs share them).
    runs : int
        How many runs it is computed over.

    Examples
    --------
    >>> rows = [{"summary": {"normalized": [r, r], "trustworthiness": [t, t]}}
    ...         for r, t in ((0.1, 0.99), (0.2, 0.97), (0.3, 0.96), (0.4, 0.90))]
    >>> names, rho, runs = runs_agreement([*rows, {"error": "failed"}])
    >>> names, float(rho[0, 1]), runs
    (('normalized', 'trustworthiness'), 1.0, 4)
    """
    done = [row for row in rows if "error" not in row]

    def mean(row, name):
        value = row["summary"].get(name, [None])[0]
        return np.nan if value is None else value

    names = tuple(name for name in catalogue.RUN_MEASURES
                  if measures.comparable(name) and any(np.isfinite(mean(row, name)) for row in done))
    table = np.array([[mean(row, name) for name in names] for row in done], dtype=float).reshape(len(done),
                                                                                               len(names))
    return names, measures.measure_agreement(table, names), len(done)


@dataclasses.dataclass(frozen=True)
class CompareResult:
    """A comparison's panels, isometric outputs first: ``algorithm``, ``label``, ``output``, ``Y``,
    ``summary``, ``seconds`` (or ``error``); the colouring they share and the message."""

    panels: tuple
    color: typing.Optional[np.ndarray]
    color_title: str
    message: str

    @property
    def cacheable(self):
        """Only a comparison without failures is kept (a failure may be passing: a store busy)."""
        return all("error" not in panel for panel in self.panels)

    def to_value(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_value(cls, value):
        return cls(**{**value, "panels": tuple(value["panels"])})


@register
@dataclasses.dataclass(frozen=True)
class CompareRequest:
    """A comparison: the chosen algorithms on the view's data at one k, optionally aligned to the truth."""

    KIND: typing.ClassVar[str] = "compare"
    RESULT: typing.ClassVar[type] = CompareResult
    data: DataChoice
    n_neighbors: int
    algorithms: tuple
    align: bool

    @classmethod
    def from_state(cls, state):
        """The comparison of a validated :class:`~lab.view.state.ViewState` (its data, its k, its compare tab)."""
        return cls(state.data, state.method.n_neighbors, state.compare.algorithms, state.compare.align)

    def to_dict(self):
        return {"data": self.data.to_dict(), "n_neighbors": self.n_neighbors, "algorithms": list(self.algorithms),
                "align": self.align}

    @classmethod
    def from_dict(cls, values):
        """The comparison :meth:`to_dict` wrote, validated again; a :class:`StateError` names every bad field."""
        problems = Problems()
        data = DataChoice.from_dict(values.get("data", {})).validated(problems)
        n_neighbors = problems.check(catalogue.NEIGHBORS, values.get("n_neighbors"), "compare: k")
        chosen = algorithm_list(values.get("algorithms"), "compare", problems)
        if catalogue.UPLOADED_OUTPUT in chosen:
            problems.append("compare: the comparison runs algorithms on the data, not the uploaded output.")
        align = values.get("align", True)
        if not isinstance(align, bool):
            problems.append(f"compare: align must be true or false; got {align!r}.")
        problems.raise_any()
        return cls(data, n_neighbors, chosen, align)

    def slug(self):
        size = "" if self.data.n is None else f"_n{self.data.n}"
        return f"{self.data.dataset}{size}_comparison_k{self.n_neighbors}"

    def _compute(self, *, cache, progress, uploads):
        return _compare(self, cache, progress, uploads)


def _compare(request, cache, report, uploads):
    """Each chosen algorithm at one k, through ``cache``; failures named in the message.

    Returns
    -------
    CompareResult
        Panels ordered isometric outputs first (PCA, Isomap, GP, PSA), then the others, as in the
        registry; with ``align``, outputs of the truth's dimension are moved onto it by the best
        similarity (display only: see :func:`align_to_reference`).
    """
    if not request.algorithms:
        return CompareResult((), None, "", "Choose at least one algorithm.")
    ordered = sorted(request.algorithms, key=lambda name: algorithms.spec(name).output != "isometric")
    panels, color, color_title = [], None, ""
    for done, algorithm in enumerate(ordered):
        entry = algorithms.spec(algorithm)
        report(done / len(ordered), f"{entry.label} ({done + 1} of {len(ordered)})")
        panel = {"algorithm": algorithm, "label": entry.label, "output": entry.output}
        try:
            result, _ = compute(_cell(request.data, algorithm, request.n_neighbors), cache=cache, uploads=uploads)
        except Exception as error:  # one failing algorithm does not hide the others
            panels.append({**panel, "error": failure_message(error)})
            continue
        Y = result.Y
        if request.align and result.truth.shape[1] == Y.shape[1]:
            Y = align_to_reference(Y, result.truth)
        color, color_title = result.truth[:, 0], result.truth_labels[0]
        panels.append({**panel, "Y": Y, "summary": _summary(result), "seconds": float(result.seconds)})
    failures = [f"{panel['label']}: {panel['error']}" for panel in panels if "error" in panel]
    done = len(panels) - len(failures)
    return CompareResult(tuple(panels), color, color_title,
                         " ".join(failures) or f"{done} algorithms at k = {request.n_neighbors}.")


def align_to_reference(Y, reference):
    """``Y`` moved by the similarity (rotation, reflection, one scale, shift) that best fits ``reference``.

    For display only: outputs of different algorithms, each in its own arbitrary frame and scale,
    become comparable by eye. No measure changes under a similarity of Y except R_N (scale).

    Parameters
    ----------
    Y : ndarray of shape (n_samples, d)
    reference : ndarray of shape (n_samples, d)
        The ground truth, same dimension.

    Returns
    -------
    ndarray of shape (n_samples, d)
        :attr:`measures.SimilarityFit.aligned` of :func:`measures.similarity_procrustes`; an output
        with no shape to fit (every point at one place) is returned as it is, to be drawn where it lies.
    """
    try:
        return measures.similarity_procrustes(reference, Y, names=("The ground truth", "The output")).aligned
    except measures.MeasureError:  # a collapsed output: nothing to turn or scale, and the panel still shows it
        return Y
