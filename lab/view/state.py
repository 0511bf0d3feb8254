"""The view state: every control of every tab in one frozen, validated value.

A :class:`ViewState` is what a link, a paper preset, a saved JSON file and the page's controls all
describe. Each converts to and from it by one function (:mod:`lab.view.links` for links,
:meth:`ViewState.to_dict`/:meth:`ViewState.from_dict` for files, ``components.state_sync`` for the
controls), and applying a state sets every control: nothing is inherited from the previous view.

Each part (:class:`DataChoice`, :class:`MethodChoice`, ...) validates itself: ``validated()`` fills
every omitted value from the registries and checks every value against the declarations the
controls are built from, so a link asking for ``k = 400`` is refused with the message the slider's
bound gives, before anything is computed. The run-level parts (:class:`DataChoice`,
:class:`MethodChoice`) are ``lab.compute``'s (:mod:`lab.compute.choices`): a run is made of them.

The tours (``lab.tours``) are made of view states, so this room imports none of them: they
register their steps here (:func:`register_tour_steps`, when :mod:`lab.tours.presets` is
imported, which ``import lab`` does), and a state, a link or a file naming a step is checked
against what was registered.
"""

import dataclasses

import algorithms
import datasets
import measures

from ..compute import catalogue
from ..compute.find import FIND_MAX_CHARS
from ..compute.choices import (DataChoice, MethodChoice, NormalizationChoice, Problems, StateError, algorithm_list,
                               among, check_run, json_fields, validate_part)

__all__ = ["PARTS", "CompareChoice", "DisplayChoice", "NormalizationChoice", "PairChoice", "StabilityChoice",
           "SweepChoice", "ViewState", "check_tour_step", "register_tour_steps", "stored_state", "tour_step_state"]

# The tours' steps by name, each its view state: registered by the tours (register_tour_steps).
_TOUR_STEPS = {}


@dataclasses.dataclass(frozen=True)
class DisplayChoice:
    """How the explore views draw a run: colouring, input view, landmark overlay, image format,
    presentation mode (no control panel, large type, views filling the window: for a projector), and the
    query whose points are marked in both views (:mod:`lab.compute.find`; read when the run is drawn, so a
    query the run cannot answer is a message there, not a refused view)."""

    color: str = "normalized"
    input_view: str = "3d"
    landmarks: bool = False
    figure_format: str = catalogue.FIGURE_FORMATS[0]
    presentation: bool = False
    find: str = ""

    def to_dict(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values):
        return cls(**json_fields(cls, values, "display"))

    def validated(self, data, problems=None):
        """The canonical choice for a run on ``data`` (a validated :class:`DataChoice`)."""
        found = Problems() if problems is None else problems
        colors = [value for value, _ in catalogue.color_choices(data.truth_labels)]
        if self.color not in colors:
            found.append(f"colour must be one of {colors} for {data.label()}; got {self.color!r}.")
        if not among(self.input_view, catalogue.INPUT_VIEWS):
            found.append(f"input view must be one of {list(catalogue.INPUT_VIEWS)}; got {self.input_view!r}.")
        if self.figure_format not in catalogue.FIGURE_FORMATS:
            found.append(f"figure format must be one of {list(catalogue.FIGURE_FORMATS)}; "
                         f"got {self.figure_format!r}.")
        find = self.find if isinstance(self.find, str) else ""
        if not isinstance(self.find, str) or len(self.find) > FIND_MAX_CHARS:
            found.append(f"find must be text of at most {FIND_MAX_CHARS} characters.")
        if problems is None:
            found.raise_any()
        return DisplayChoice(self.color, self.input_view, bool(self.landmarks), self.figure_format,
                             bool(self.presentation), find.strip()[:FIND_MAX_CHARS])


_K_STEP = measures.Parameter("k_step", "k step", "int", 3, low=1, high=catalogue.NEIGHBORS.high)


@dataclasses.dataclass(frozen=True)
class SweepChoice:
    """The sweep tab: algorithms, the k range and step, the plotted measure and its axis (linear or log), and
    whether each cell's yardsticks (random-output values) are computed too."""

    algorithms: tuple = catalogue.SWEEP_DEFAULTS["algorithms"]
    k_min: int = catalogue.SWEEP_DEFAULTS["k_min"]
    k_max: int = catalogue.SWEEP_DEFAULTS["k_max"]
    k_step: int = catalogue.SWEEP_DEFAULTS["k_step"]
    measure: str = catalogue.SWEEP_DEFAULTS["measure"]
    log_scale: bool = False
    yardsticks: bool = False

    @property
    def ks(self):
        """The swept k values, ``k_min, k_min + k_step, ..., <= k_max``."""
        return tuple(range(self.k_min, self.k_max + 1, self.k_step))

    def to_dict(self):
        return {**dataclasses.asdict(self), "algorithms": list(self.algorithms)}

    @classmethod
    def from_dict(cls, values):
        return cls(**json_fields(cls, values, "sweep"))

    def validated(self, problems=None):
        return validate_part(self, problems)

    def _validated(self, problems):
        chosen = algorithm_list(self.algorithms, "sweep", problems)
        k_min = problems.check(catalogue.NEIGHBORS, self.k_min, "sweep: lowest k")
        k_max = problems.check(catalogue.NEIGHBORS, self.k_max, "sweep: highest k")
        k_step = problems.check(_K_STEP, self.k_step, "sweep: k step")
        if k_min > k_max:
            problems.append(f"sweep: the lowest k ({k_min}) exceeds the highest ({k_max}).")
        swept = SweepChoice(chosen, k_min, k_max, k_step, self.measure, bool(self.log_scale), bool(self.yardsticks))
        cells = len(chosen) * len(swept.ks)
        if cells > catalogue.MAX_SWEEP_CELLS:
            problems.append(f"sweep: {len(chosen)} algorithms × {len(swept.ks)} values of k is {cells} runs; at most "
                            f"{catalogue.MAX_SWEEP_CELLS} per sweep. Widen the k step or choose fewer algorithms.")
        if not among(self.measure, dict(catalogue.SUMMARY_MEASURES)):
            problems.append(f"sweep: the plotted measure must be one of {list(dict(catalogue.SUMMARY_MEASURES))}; "
                            f"got {self.measure!r}.")
        return swept


@dataclasses.dataclass(frozen=True)
class CompareChoice:
    """The compare tab: algorithms at the explore k, optionally aligned to the truth for display."""

    algorithms: tuple = catalogue.COMPARE_DEFAULTS
    align: bool = True

    def to_dict(self):
        return {"algorithms": list(self.algorithms), "align": self.align}

    @classmethod
    def from_dict(cls, values):
        return cls(**json_fields(cls, values, "compare"))

    def validated(self, problems=None):
        return validate_part(self, problems)

    def _validated(self, problems):
        return CompareChoice(algorithm_list(self.algorithms, "compare", problems), bool(self.align))


@dataclasses.dataclass(frozen=True)
class PairChoice:
    """The pairs tab: run B (the explore run A with its algorithm, k or random state changed) and its views.

    None keeps A's value. A changed algorithm starts at its default parameters; B keeps A's
    refinement and rescaling. ``algorithm`` may be the uploaded output (an upload that carries one).
    ``color`` colours both views (:func:`lab.compute.catalogue.pair_color_choices`); ``segments`` draws each
    point's displacement.
    """

    algorithm: str | None = catalogue.PAIR_DEFAULT_ALGORITHM
    n_neighbors: int | None = None
    random_state: int | None = None
    color: str = next(iter(catalogue.PAIR_MEASURES))
    segments: bool = True

    def to_dict(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values):
        return cls(**json_fields(cls, values, "pair"))

    def validated(self, data, problems=None):
        """The canonical choice for ``data`` (a validated :class:`DataChoice`: its colourings)."""
        found = Problems() if problems is None else problems
        value = self._validated(data, found)
        if problems is None:
            found.raise_any()
        return value

    def _validated(self, data, problems):
        colors = [value for value, _ in catalogue.pair_color_choices(data.truth_labels)]
        color = self.color
        if color not in colors:
            problems.append(f"pair: colour must be one of {colors} for {data.label()}; got {color!r}.")
            color = PairChoice.color
        algorithm = self.algorithm
        if algorithm is not None and algorithm != catalogue.UPLOADED_OUTPUT:
            try:
                algorithms.spec(algorithm)
            except measures.EmbeddingError as error:  # the registry's message, naming the available ones
                problems.append(f"pair: run B: {error}")
                algorithm = catalogue.PAIR_DEFAULT_ALGORITHM
        n_neighbors = (None if self.n_neighbors is None else
                       problems.check(catalogue.NEIGHBORS, self.n_neighbors, "pair: k of run B"))
        random_state = (None if self.random_state is None else
                        problems.check(catalogue.RANDOM_STATE, self.random_state, "pair: random state of run B"))
        return PairChoice(algorithm, n_neighbors, random_state, color, bool(self.segments))

    def method_b(self, method_a, problems=None):
        """Run B's :class:`MethodChoice`, given run A's (validated); raises :class:`StateError` on a bad value.

        Examples
        --------
        >>> a = MethodChoice("isomap", 10).validated()
        >>> b = PairChoice("ltsa", random_state=3).method_b(a)
        >>> b.algorithm, b.n_neighbors, b.random_state
        ('ltsa', 10, 3)
        """
        algorithm = method_a.algorithm if self.algorithm is None else self.algorithm
        n_neighbors = method_a.n_neighbors if self.n_neighbors is None else self.n_neighbors
        random_state = method_a.random_state if self.random_state is None else self.random_state
        method = MethodChoice(algorithm, n_neighbors, method_a.params if algorithm == method_a.algorithm else (),
                              method_a.post_refinement, method_a.rescale, random_state)
        return method.validated(problems)


@dataclasses.dataclass(frozen=True)
class StabilityChoice:
    """The stability study: how the explore run's algorithm is rerun (random states or subsamples), how often."""

    mode: str = next(iter(catalogue.STABILITY_MODES))
    n_runs: int = catalogue.STABILITY_RUNS.default
    fraction: float = catalogue.SUBSAMPLE_FRACTION.default

    def to_dict(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values):
        return cls(**json_fields(cls, values, "stability"))

    def validated(self, problems=None):
        return validate_part(self, problems)

    def _validated(self, problems):
        mode = self.mode
        if not among(mode, catalogue.STABILITY_MODES):
            problems.append(f"stability: the reruns must be one of {list(catalogue.STABILITY_MODES)}; got {mode!r}.")
            mode = StabilityChoice.mode
        return StabilityChoice(mode, problems.check(catalogue.STABILITY_RUNS, self.n_runs, "stability: runs"),
                               float(problems.check(catalogue.SUBSAMPLE_FRACTION, self.fraction,
                                                    "stability: subsample fraction")))


# The parts of a view state, by field name: to_dict/from_dict and the links iterate over them.
PARTS = {"data": DataChoice, "method": MethodChoice, "display": DisplayChoice, "sweep": SweepChoice,
          "compare": CompareChoice, "normalization": NormalizationChoice, "pair": PairChoice,
          "stability": StabilityChoice}


@dataclasses.dataclass(frozen=True)
class ViewState:
    """Every control of every tab.

    Build one with keyword arguments (omitted parts take their defaults), then call
    :meth:`validated` for the canonical, checked state that links, files and controls exchange.

    Examples
    --------
    >>> state = ViewState(data=DataChoice("strip", n=500)).validated()
    >>> state.data.kwargs["length"], state.method.algorithm, state.tab
    (6.0, 'isomap', 'explore')
    >>> ViewState(method=MethodChoice(n_neighbors=400)).validated()
    Traceback (most recent call last):
    ...
    lab.compute.choices.StateError: k must lie in [3, 50]; got 400.
    """

    data: DataChoice = DataChoice()
    method: MethodChoice = MethodChoice()
    display: DisplayChoice = DisplayChoice()
    sweep: SweepChoice = SweepChoice()
    compare: CompareChoice = CompareChoice()
    normalization: NormalizationChoice = NormalizationChoice()
    tab: str = catalogue.TABS[0]
    pair: PairChoice = PairChoice()
    stability: StabilityChoice = StabilityChoice()
    # The open step of a paper's tour (lab.tours.presets: "gr-fig1"), or "" when no tour is open.
    tour: str = ""

    def replace(self, **parts):
        """A copy with some parts replaced, e.g. ``state.replace(tab="sweep")``."""
        return dataclasses.replace(self, **parts)

    def with_dataset(self, dataset, upload=None):
        """The state after choosing another data set in its menu: its own defaults, the rest kept.

        Its size and parameters start at the set's defaults; an intrinsic colouring (which names the
        previous set's coordinates) becomes the new set's first one.
        """
        is_upload = dataset == catalogue.UPLOAD
        # An unknown name (a menu's value before its options arrive) is kept for validated() to refuse.
        sizeless = is_upload or dataset not in datasets.available()
        data = DataChoice(dataset, None if sizeless else catalogue.default_size(dataset), self.data.noise,
                          self.data.random_state, (), upload if is_upload else None)
        color = "truth-0" if self.display.color.startswith("truth-") else self.display.color
        # An upload that carries its output shows that output; leaving it, its runs go back to an algorithm.
        method, pair = self.method, self.pair
        if data.has_output:
            method = dataclasses.replace(method, algorithm=catalogue.UPLOADED_OUTPUT, params=())
        elif method.algorithm == catalogue.UPLOADED_OUTPUT:
            method = dataclasses.replace(method, algorithm=catalogue.DEFAULT_ALGORITHM, params=())
        if pair.algorithm == catalogue.UPLOADED_OUTPUT and not data.has_output:
            pair = dataclasses.replace(pair, algorithm=catalogue.PAIR_DEFAULT_ALGORITHM)
        if pair.color.startswith("truth-"):
            pair = dataclasses.replace(pair, color="truth-0")
        sweep = self.sweep
        if catalogue.UPLOADED_OUTPUT in sweep.algorithms and not data.has_output:
            sweep = dataclasses.replace(sweep, algorithms=tuple(name for name in sweep.algorithms
                                                                if name != catalogue.UPLOADED_OUTPUT))
        return self.replace(data=data, display=dataclasses.replace(self.display, color=color), method=method,
                            pair=pair, sweep=sweep)

    def with_algorithm(self, algorithm):
        """The state after choosing another algorithm: its own parameters at their defaults, k kept."""
        return self.replace(method=dataclasses.replace(self.method, algorithm=algorithm, params=()))

    def to_dict(self):
        """Plain values (JSON): one object per part, and the tab."""
        return {**{name: getattr(self, name).to_dict() for name in PARTS}, "tab": self.tab, "tour": self.tour}

    @classmethod
    def from_dict(cls, values):
        """The validated state in a dict :meth:`to_dict` wrote; omitted parts and settings take defaults.

        Raises
        ------
        StateError
            On an unknown part or setting, or any value :meth:`validated` refuses.
        """
        values = json_fields(cls, values, "the view")
        parts = {name: part.from_dict(values[name]) for name, part in PARTS.items() if name in values}
        return cls(**parts, **{key: values[key] for key in ("tab", "tour") if key in values}).validated()

    def validated(self):
        """The canonical state: every omitted value filled from the registries, every value checked.

        Returns
        -------
        ViewState
            Numbers converted to their declared types, parameters complete and sorted by name,
            algorithm lists in registry order without repeats. Validating it again returns an
            equal state.

        Raises
        ------
        StateError
            Listing every value out of its declared range or not among its choices, with the bound.
        """
        problems = Problems()
        data = self.data.validated(problems)
        state = ViewState(data, self.method.validated(problems), self.display.validated(data, problems),
                          self.sweep.validated(problems), self.compare.validated(problems),
                          self.normalization.validated(problems), self.tab, pair=self.pair.validated(data, problems),
                          stability=self.stability.validated(problems), tour=self.tour)
        check_run(data, state.method, problems)
        if not problems:  # run B builds on a sound run A
            check_run(data, state.pair.method_b(state.method, problems), problems)
        if catalogue.UPLOADED_OUTPUT in state.sweep.algorithms and not data.has_output:
            problems.append("sweep: your uploaded output is swept over k only when the data carries it; upload the "
                            "input with its output, or leave it out of the sweep.")
        if catalogue.UPLOADED_OUTPUT in state.compare.algorithms:
            problems.append("compare: the comparison runs algorithms on the data; set the uploaded output beside a "
                            "run in the Two runs tab instead.")
        if self.tab not in catalogue.TABS:
            problems.append(f"tab must be one of {list(catalogue.TABS)}; got {self.tab!r}.")
        if self.tour:
            check_tour_step(self.tour, problems)
        problems.raise_any()
        return state


def register_tour_steps(states):
    """Make ``states`` the steps of the papers' tours that a view state may name.

    Parameters
    ----------
    states : mapping
        Each step's name to its :class:`ViewState` (the base a link naming the step opens from);
        :mod:`lab.tours.presets` registers its steps so when it is imported.
    """
    _TOUR_STEPS.clear()
    _TOUR_STEPS.update(states)


def check_tour_step(name, problems=None):
    """Refuse ``name`` unless it is a registered step of a paper's tour (:func:`register_tour_steps`).

    Parameters
    ----------
    name : object
        A step's name, as a link, a file or the tours' index gives it.
    problems : list, optional
        Where to note the problem; without it a :class:`StateError` is raised.
    """
    if not among(name, _TOUR_STEPS):
        message = f"tour: no step {name!r}; the steps are {', '.join(_TOUR_STEPS)}."
        if problems is None:
            raise StateError([message])
        problems.append(message)


def tour_step_state(name):
    """The view state of tour step ``name`` (a :class:`StateError` naming the steps if there is none)."""
    check_tour_step(name)
    return _TOUR_STEPS[name]


def stored_state(stored):
    """The validated view state a page's store keeps under ``"state"`` (a study's, or a run's record).

    Raises
    ------
    StateError
        When ``stored`` is not such a record, or its state does not validate.
    """
    if not isinstance(stored, dict):
        raise StateError([f"A stored study must be an object; got {type(stored).__name__}."])
    return ViewState.from_dict(stored.get("state"))
