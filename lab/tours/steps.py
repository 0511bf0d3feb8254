"""Guided tours of the source papers: each figure or table a step whose numbers and claims are computed.

A :class:`Tour` is an ordered sequence of :class:`Step` objects. A step is

- a full, validated :class:`~lab.view.state.ViewState` (applying it sets every control and starts its
  run, as a link does) whose ``tour`` names the step;
- the runs of the paper's panels (:class:`Panel`), in the paper's order, each a
  :class:`~lab.compute.runs.RunRequest` computed through the result cache;
- a text template filled from those runs (``"R_N = {isomap.normalized:.2f}"``) and
  :class:`Claim` objects: each qualitative statement of the step (an ordering, a threshold,
  "collapses", "keeps the hole") is a plain predicate of the computed values, evaluated where the
  step is shown and in the tests. Nothing a step says about our numbers is typed in by hand; a
  paper's own numbers are, beside ours: a table's cells (``Step.paper``), a figure's series
  (:class:`Published`, drawn beside our curve and quoted by the text from that one declaration).

:func:`lab.compute.study.compute` of a step's :meth:`Step.request` computes it: every panel's run,
then :func:`run_values`, the numbers a step may quote. Their names are the measures' registry
names (``normalized`` is R_N; its median is ``normalized_median``) and a few global descriptions
of an output against the data set's ground truth (``shape``, ``aspect``, ``short_circuits``,
``phi_ratio``, ``central_share``). The tours themselves are in :mod:`lab.tours.presets`, and
:mod:`lab.tours.prepare` computes them before a lecture. No Dash here.
"""

import dataclasses
import re
import string
import time
import typing

import algorithms
import measures
from measures.normalization import NORMALIZED_ALGORITHMS

from ..compute import catalogue
from ..compute.choices import StateError
from ..compute.runs import RunRequest, failure_message
from ..compute.study import compute, register
from ..view.state import ViewState

__all__ = ["CHARTS", "VALUE_LABELS", "Claim", "Panel", "Published", "Step", "StepRequest", "StepResult", "Tour",
           "Values", "run_values", "value_label"]

# How a step draws its panels: each output in its own frame (a figure of the paper, with its curve
# of a measure against k if it has one), or the paper's table beside ours.
CHARTS = ("outputs", "table")


def run_values(request, result):
    """The numbers a step may quote about one run.

    Parameters
    ----------
    request : lab.compute.runs.RunRequest
    result : lab.compute.runs.RunResult

    Returns
    -------
    dict of str to float or None
        Every computed measure's mean under its registry name and its median as
        ``<name>_median``; ``k``, ``n`` and ``seconds``; ``aspect`` (:func:`measures.principal_aspect`
        of the output) and ``central_share`` (:func:`measures.central_share`). With a two-dimensional
        ground truth also ``truth_aspect``, ``shape`` (the :attr:`~measures.SimilarityFit.distance`
        of the output fitted onto the truth by :func:`measures.similarity_procrustes`, GR Eq. 7 over
        all points: 0 for a rotated, scaled truth; missing for an output of one repeated point),
        ``affine`` (:func:`measures.affine_residual`), ``short_circuits``
        (:func:`measures.short_circuits`), ``input_collapse``
        (PN's collapse score against the input's first two principal axes instead of the truth's)
        and, for the algorithms whose cost PN §2 writes down (LEM, LLE, LTSA), ``phi_ratio``: PN's
        ``Φ(Y)/Φ(Z)`` (above 1 the collapsed curve costs less).
    """
    k = request.method.n_neighbors
    values = {"k": k, "n": int(result.n_samples), "seconds": float(result.seconds)}
    for name, describe in (("aspect", measures.principal_aspect), ("central_share", measures.central_share)):
        try:
            values[name] = describe(result.Y)
        except measures.MeasureError:  # an output of one repeated point: no shape (a missing value)
            values[name] = None
    for name, (mean, median) in result.summary.items():
        values[name] = mean
        values[f"{name}_median"] = median
    intrinsic = result.truth.shape[1] >= 2  # a single column is a colouring (the digits' classes)
    if intrinsic:
        truth = result.truth[:, :2]
        values.update(truth_aspect=measures.principal_aspect(truth),
                      short_circuits=measures.short_circuits(result.X, truth, k))
        values["affine"] = measures.affine_residual(truth, result.Y)
        if result.Y.shape[1] == truth.shape[1]:
            try:
                values["shape"] = measures.similarity_procrustes(truth, result.Y).distance
            except measures.MeasureError:  # every point at one place: no shape to compare (a missing value)
                values["shape"] = None
        # A stretched round surface (PN's fishbowl) is long along the input's first principal axis,
        # not along its truth chart's: its collapse is measured against the input's own axes.
        values["input_collapse"] = measures.collapse_score(
            algorithms.embed("pca", result.X, n_neighbors=1, n_components=2), result.Y)
        if request.method.algorithm in NORMALIZED_ALGORITHMS:
            values["phi_ratio"] = measures.normalization_cost(truth, result.X, request.method.algorithm, k).ratio
    return values


# Names of the values of :func:`run_values` that are not registry measures (those have their labels).
VALUE_LABELS = {"shape": "shape residual", "affine": "affine residual", "aspect": "aspect",
                "truth_aspect": "aspect of the truth", "short_circuits": "short circuits",
                "central_share": "central share", "input_collapse": "collapse (input axes)", "phi_ratio": "Φ(Y)/Φ(Z)",
                "k": "k", "n": "n", "seconds": "seconds"}


def value_label(name):
    """The label of a value of :func:`run_values`: a measure's registry label, or :data:`VALUE_LABELS`'."""
    return measures.spec(name).label if name in measures.available() else VALUE_LABELS[name]


class _Missing:
    """A value a failed (or not yet computed) run did not produce.

    It reads as a missing value wherever a template or a claim meets it: it formats as a dash and
    any attribute or item of it is missing too (``{step.best}``, ``v.step["cell"].normalized``), so
    :meth:`Values.fill` never raises. Any use that needs a number (arithmetic, comparison, truth
    value, conversion) raises :class:`_NotComputed`, which :meth:`Claim.check` reads as "does not
    hold".
    """

    def __format__(self, spec):
        return "—"

    def __getattr__(self, name):
        if name.startswith("__"):  # protocol look-ups (numpy's __array__…): not a missing field
            raise AttributeError(name)
        return self

    def __getitem__(self, key):
        return self

    def _fails(self, *_):
        raise _NotComputed()

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _fails
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fails
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = _fails
    __float__ = __int__ = __index__ = __round__ = __bool__ = __abs__ = __neg__ = __len__ = __iter__ = _fails
    __hash__ = object.__hash__  # comparing raises, yet a missing value can still be held in a set


class _NotComputed(Exception):
    pass


class Values:
    """A step's computed numbers, by panel: ``values.gp.normalized``, ``values["gp"]["normalized"]``.

    Used both by the text templates (``"{gp.normalized:.3f}"``, see :meth:`fill`) and by the
    claims' predicates. A value a failed panel did not produce reads as a missing value: it prints
    as "—" and a claim that uses it does not hold.

    Examples
    --------
    >>> values = Values({"gp": {"normalized": 0.00213}})
    >>> values.fill("R_N of GP: {gp.normalized:.3f}; PSA: {psa.normalized:.3f}.")
    'R_N of GP: 0.002; PSA: —.'
    """

    def __init__(self, values):
        self._values = {key: Values(value) if isinstance(value, dict) else value for key, value in values.items()}

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name):
        value = self._values.get(name)
        return _Missing() if value is None else value

    def __contains__(self, name):
        return self._values.get(name) is not None

    def fill(self, template):
        """``template`` with each ``{panel.value:format}`` replaced by its value."""
        return string.Formatter().vformat(template, (), self)


@dataclasses.dataclass(frozen=True)
class Claim:
    """One qualitative statement of a step, and the predicate that checks it.

    Attributes
    ----------
    text : str
        A template filled from the step's values (:meth:`Values.fill`).
    holds : callable
        ``holds(values) -> bool`` of the step's :class:`Values`.
    identity : bool
        The statement holds on any data, by the mathematics (Lemma 1's LB ≤ R_C ≤ R_N, classical
        scaling of Euclidean distances being PCA, R_C's indifference to a global scale): it checks
        our code, it is not a finding about the data, and the page labels it so.
    """

    text: str
    holds: typing.Callable = dataclasses.field(compare=False)
    identity: bool = False

    def check(self, values):
        """``(filled text, whether it holds)``; a claim on a value a failed run lacks does not hold."""
        try:
            holds = bool(self.holds(values))
        except _NotComputed:
            holds = False
        return values.fill(self.text), holds


@dataclasses.dataclass(frozen=True)
class Panel:
    """One panel of a paper's figure (or one cell of its table): a run, and what the paper calls it.

    Attributes
    ----------
    key : str
        The name the step's templates and claims use, e.g. ``"gp"``.
    label : str
        The panel's caption, e.g. ``"B: GP"``.
    request : lab.compute.runs.RunRequest
    series : str
        For a curve: the line the panel belongs to (e.g. ``"cylinder 1 × 1"``), its k on the x axis.
    """

    key: str
    label: str
    request: RunRequest
    series: str = ""

    def position(self, name):
        """The panel's place on a curve's x axis: its k (``name == "k"``) or its data set's parameter ``name``."""
        return self.request.method.n_neighbors if name == "k" else self.request.data.kwargs[name]


@dataclasses.dataclass(frozen=True)
class Published:
    """A paper's own series of measures against a step's ``curve_x``, as the paper prints them.

    The one place a figure's published numbers are written: the step's curve draws them beside ours
    and its text and claims quote them as ``values.published`` (:meth:`values`).

    Attributes
    ----------
    name : str
        The figure, as the legend names the paper's line: ``"GR Fig. 5"``.
    citation : str
        Where the numbers are printed, e.g. ``"Goldberg & Ritov (2009), caption of Fig. 5"``.
    x : tuple of float
        The positions on the step's ``curve_x`` (its k's).
    y : tuple of (str, tuple of float)
        ``(measure, values at x)`` per published measure (registry names).

    Raises
    ------
    ValueError
        A series without one value per x.

    Examples
    --------
    >>> fig5 = Published("GR Fig. 5", "GR", (6, 9), (("conformal", (0.25, 0.15)),))
    >>> Values({"published": fig5.values()}).fill("{published.conformal[9]:.2f} at k = {published.conformal_argmin}")
    '0.15 at k = 9'
    """

    name: str
    citation: str
    x: tuple
    y: tuple

    def __post_init__(self):
        for measure, values in self.y:
            if len(values) != len(self.x):
                raise ValueError(f"{self.name}'s {measure} has {len(values)} values for {len(self.x)} x positions; "
                                 "give one value per position.")

    def points(self):
        """The series as a curve's points: ``[(x, {measure: value}), ...]``, in order."""
        return [(x, {measure: values[index] for measure, values in self.y}) for index, x in enumerate(self.x)]

    def values(self):
        """What a template quotes: ``{measure: {x: value}}`` and each measure's ``<measure>_argmin``, the x
        of its smallest value (``{published.conformal[12]:.2f}``, ``{published.conformal_argmin}``)."""
        quoted = {}
        for measure, values in self.y:
            quoted[measure] = dict(zip(self.x, values, strict=True))
            quoted[f"{measure}_argmin"] = self.x[min(range(len(values)), key=values.__getitem__)]
        return quoted


@dataclasses.dataclass(frozen=True)
class Step:
    """One figure or table of a paper as a view state, its panels, a text and claims.

    Attributes
    ----------
    name : str
        Unique over every tour (a link's ``tour`` value); former preset names are kept.
    title : str
        E.g. ``"GR Fig. 1 (A–F): a swiss roll, five algorithms at k = 12"``.
    state : lab.view.state.ViewState
        The whole view, validated; its ``tour`` is ``name``. Its explore run is one of the panels.
    text : str
        What to see and why, a template filled from the panels' values.
    claims : tuple of Claim
    panels : tuple of Panel
        In the paper's order.
    reproduced : str
        ``"yes"``, ``"partly"`` or ``"no"``: whether our computation shows what the paper shows (the
        text and the claims say where and why not).
    chart : str
        One of :data:`CHARTS`.
    show_input : bool
        Draw the input (the paper's panel A) before the outputs.
    inputs : tuple of str
        For a figure of several inputs, each in its own row (PN Figs. 7–9: a data set and the same
        stretched): the inputs' names, one per row. The drawn panels are then that many equal runs of
        consecutive panels of one input each, and with ``show_input`` each row starts with its input.
    marked : bool
        Whether every panel marks one point's neighbourhood, as NQ Fig. 1 and PN Fig. 1 E–F do: its k
        nearest input neighbours and its k nearest output neighbours
        (:func:`lab.compute.views.marked_neighbourhood`).
    captions : tuple of str
        The values written under each panel (R_N and R_C, or the paper's own measure).
    outputs : tuple of str
        The panels drawn as outputs (all when empty).
    curve : tuple of str
        Measures drawn against the panels' ``curve_x``, one line per panel series (nothing when empty).
    curve_x : str
        ``"k"``, or a data-set parameter of the panels' runs (a strip's ``"length"``).
    published : Published, optional
        The paper's own values of (some of) the ``curve`` measures, drawn beside ours and quoted by the
        templates as ``published``.
    bars : tuple of str
        Measures drawn as bars, one chart per measure and one bar per drawn panel (NQ Figs. 2–4 (h)–(n)),
        where a curve would be: a step has a curve or bars, not both.
    rows, columns : tuple of (str, str)
        For a table: ``(key, label)`` of its rows and columns; cell ``<column>_<row>`` of
        ``values.step`` holds our numbers.
    paper : tuple of (str, str)
        For a table: the paper's text of each cell, ``("swissroll_gp", "0.00 [0.00]")``.
    tolerance : float
        For a table: how far each of our numbers may lie from the paper's (printed to two decimals)
        for the cell to match it (:meth:`cell_match`).
    derive : callable, optional
        ``derive(panel_values) -> dict``: step-wide values (a best k, a ranking), readable as
        ``values.step.<name>``.
    reads : tuple of str
        Measures a claim's predicate or ``derive`` reads that no template, caption, curve or bar names
        (:meth:`measures_read`).
    """

    name: str
    title: str
    state: ViewState
    text: str
    claims: tuple
    panels: tuple
    reproduced: str = "yes"
    chart: str = "outputs"
    show_input: bool = True
    inputs: tuple = ()
    marked: bool = False
    captions: tuple = ("normalized", "conformal")
    outputs: tuple = ()
    curve: tuple = ()
    curve_x: str = "k"
    published: Published | None = None
    bars: tuple = ()
    rows: tuple = ()
    columns: tuple = ()
    paper: tuple = ()
    tolerance: float = 0.05
    derive: typing.Callable | None = dataclasses.field(default=None, compare=False)
    reads: tuple = ()

    def __post_init__(self):
        # Both are drawn in the one graph under the step's figure (components.tours).
        if self.curve and self.bars:
            raise ValueError(f"Step {self.name!r} has a curve and bars; it may draw one of them.")
        if self.inputs and any(len({panel.request.data for panel in row}) != 1 for row in self.input_rows()):
            raise ValueError(f"Step {self.name!r}: each of its {len(self.inputs)} rows must draw one input's runs.")
        if self.published is not None and not {measure for measure, _ in self.published.y} <= set(self.curve):
            raise ValueError(f"Step {self.name!r}: {self.published.name}'s measures are drawn on its curve, so they "
                             f"must be among curve={self.curve}.")

    def measures_read(self):
        """The registry measures the step reads: those its text and claims quote, its captions, curve and
        bars, and ``reads`` (what a claim's predicate or ``derive`` reads without a template quoting it).

        Its panels compute only these (:func:`lab.tours.presets.measured_as_read`); a measure left out
        reads as missing, and the claim using it does not hold (which the tours' tests would report).
        """
        names = {*self.curve, *self.bars, *self.captions, *self.reads}
        for template in (self.text, *(claim.text for claim in self.claims)):
            for _, field, _, _ in string.Formatter().parse(template):
                parts = re.split(r"[.\[]", field or "")
                if len(parts) > 1:  # "panel.measure", "panel.measure_median", "panel.measure[...]"
                    names.add(parts[1].removesuffix("_median"))
        return {name for name in names if name in catalogue.RUN_MEASURES}

    @property
    def drawn(self):
        """The panels drawn as outputs, in order."""
        return tuple(panel for panel in self.panels if not self.outputs or panel.key in self.outputs)

    def input_rows(self):
        """The drawn panels, one tuple per input of :attr:`inputs` (one tuple of them all without ``inputs``).

        Raises
        ------
        ValueError
            The drawn panels do not split into ``len(inputs)`` equal rows.
        """
        drawn = self.drawn
        if not self.inputs:
            return (drawn,)
        width, left = divmod(len(drawn), len(self.inputs))
        if left or not width:
            raise ValueError(f"Step {self.name!r}: {len(drawn)} drawn panels make no {len(self.inputs)} equal rows.")
        return tuple(drawn[row * width:(row + 1) * width] for row in range(len(self.inputs)))

    def request(self):
        """The :class:`StepRequest` of this step (its cache key names every panel's run), computed by
        :func:`lab.compute.study.compute`."""
        return StepRequest(self.name, tuple(panel.key for panel in self.panels),
                           tuple(panel.request for panel in self.panels))

    def paper_values(self):
        """The numbers the step knows before any run: ``"published"``, its paper's series (:meth:`Published.values`)."""
        return {} if self.published is None else {"published": self.published.values()}

    def panel_values(self, result):
        """Each panel's numbers of a computed ``result``, :meth:`paper_values` and, when every run succeeded,
        ``"step"``: ``derive``'s.

        The step-wide values are derived here, where the step is shown, not kept with the runs' numbers:
        they belong to the tour's text (:mod:`lab.tours.presets`), which the cached values must not depend on.
        """
        values = {**result.values, **self.paper_values()}
        if self.derive is None or result.errors:
            return values
        return {**values, "step": self.derive(Values(result.values))}

    def values(self, result):
        """The step's :class:`Values` (:meth:`panel_values`)."""
        return Values(self.panel_values(result))

    def cell_match(self, key, ours):
        """Whether our table cell ``key`` matches the paper's, number by number (R_N, then R_C in brackets).

        Parameters
        ----------
        key : str
            ``"<column>_<row>"``, as in :attr:`paper`.
        ours : dict
            Our cell: ``normalized`` and, where the paper prints it, ``conformal``.

        Returns
        -------
        bool or None
            True when each of the paper's numbers lies within :attr:`tolerance` of ours; None when the
            paper has no such cell.

        Examples
        --------
        >>> step = Step("s", "t", None, "", (), (), chart="table", paper=(("roll_lle", "0.81 [0.23]"),))
        >>> step.cell_match("roll_lle", {"normalized": 0.79, "conformal": 0.30})
        False
        >>> step.cell_match("roll_lle", {"normalized": 0.79, "conformal": 0.25})
        True
        """
        text = dict(self.paper).get(key)
        if text is None:
            return None
        paper = [float(number) for number in re.findall(r"-?\d+(?:\.\d+)?", text)]
        mine = [ours["normalized"], ours.get("conformal")][:len(paper)]
        return all(value is not None and abs(value - number) <= self.tolerance for value, number in zip(mine, paper))

    def render(self, result):
        """``(text, ((claim text, holds), ...))`` of a computed step."""
        values = self.values(result)
        return values.fill(self.text), tuple(claim.check(values) for claim in self.claims)


@dataclasses.dataclass(frozen=True)
class Tour:
    """A paper (or lecture) as an ordered sequence of steps.

    Attributes
    ----------
    key : str
        ``"gr"``, ``"nq"``, ...
    title : str
    source : str
        The paper's citation.
    steps : tuple of Step
    """

    key: str
    title: str
    source: str
    steps: tuple


@dataclasses.dataclass(frozen=True)
class StepResult:
    """A computed step: each panel's values (:func:`run_values`) and errors (the step-wide values are
    derived where it is shown: :meth:`Step.panel_values`).

    Attributes
    ----------
    values : dict
        Panel key -> ``{name: number}``.
    errors : dict
        Panel key -> the message of a run that failed.
    computed, cached : int
        Runs computed for this step, and read from the cache.
    """

    values: dict
    errors: dict
    computed: int = 0
    cached: int = 0

    @property
    def cacheable(self):
        """Only a step whose every run succeeded is kept (a failure may be passing: a store busy)."""
        return not self.errors

    def to_value(self):
        return {"values": self.values, "errors": self.errors, "computed": self.computed, "cached": self.cached}

    @classmethod
    def from_value(cls, value):
        return cls(value["values"], value["errors"], value["computed"], value["cached"])


@register
@dataclasses.dataclass(frozen=True)
class StepRequest:
    """What a step computes: its name and every panel's key and run (the cache key of its values).

    The step's title and captions stay out: editing a tour's words keeps its cached numbers.
    """

    KIND: typing.ClassVar[str] = "tour_step"
    # Catalogue data only: no upload to authorize (lab.store.uploads.UploadStore.authorized).
    READS_NO_UPLOAD: typing.ClassVar[bool] = True
    RESULT: typing.ClassVar[type] = StepResult
    step: str
    keys: tuple
    runs: tuple

    def to_dict(self):
        return {"step": self.step,
                "panels": [{"key": key, "run": run.to_dict()} for key, run in zip(self.keys, self.runs)]}

    @classmethod
    def from_dict(cls, values):
        """The step :meth:`to_dict` wrote, every run validated again; a :class:`StateError` names what is wrong."""
        panels = values.get("panels")
        if not (isinstance(values.get("step"), str) and isinstance(panels, list)
                and 0 < len(panels) <= catalogue.MAX_SWEEP_CELLS
                and all(isinstance(panel, dict) and isinstance(panel.get("key"), str) for panel in panels)):
            raise StateError([f"A tour step names itself and 1 to {catalogue.MAX_SWEEP_CELLS} panels, each a key "
                              "and a run."])
        return cls(values["step"], tuple(panel["key"] for panel in panels),
                   tuple(RunRequest.from_dict(panel.get("run", {})) for panel in panels))

    def _compute(self, *, cache, progress, uploads):
        """Every panel's run through ``cache``; a failed run is reported in ``errors`` and does not stop the others."""
        started = time.perf_counter()
        values, errors, computed, cached = {}, {}, 0, 0
        for done, (key, run) in enumerate(zip(self.keys, self.runs)):
            label = algorithms.spec(run.method.algorithm).label
            progress(done / len(self.runs), f"{self.step}: {key} ({label}, {done + 1} of {len(self.runs)})")
            try:
                result, hit = compute(run, cache=cache)
                values[key] = run_values(run, result)
            except Exception as error:  # one failing run is reported in its panel; the others go on
                errors[key] = failure_message(error)
                continue
            cached += hit
            computed += not hit
        progress(1.0, f"{self.step}: done in {time.perf_counter() - started:.1f} s")
        return StepResult(values, errors, computed, cached)
