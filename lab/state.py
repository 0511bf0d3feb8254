"""The view state: every control of every tab in one frozen, validated value.

A :class:`ViewState` is what a link, a paper preset, a saved JSON file and the page's controls all
describe. Each converts to and from it by one function (:mod:`lab.links` for links,
:meth:`ViewState.to_dict`/:meth:`ViewState.from_dict` for files, ``components.state_sync`` for the
controls), and applying a state sets every control: nothing is inherited from the previous view.

Each part (:class:`DataChoice`, :class:`MethodChoice`, ...) validates itself: ``validated()`` fills
every omitted value from the registries and checks every value against the declarations the
controls are built from, so a link asking for ``k = 400`` is refused with the message the slider's
bound gives, before anything is computed.
"""

import dataclasses
import typing

import algorithms
import datasets
import measures

from . import catalogue
from .shapes import SHAPES, NormalizationDefaults

__all__ = ["PARTS", "CompareChoice", "DataChoice", "DisplayChoice", "MethodChoice", "NormalizationChoice",
           "OutputRef", "PairChoice", "StabilityChoice", "StateError", "SweepChoice", "UploadRef", "ViewState",
           "check_run", "check_tour_step", "stored_state"]

# The most digits a number of a view state may have: every declared bound is far below, and a longer
# integer (a link's or a file's 400 digits) would overflow the float it is compared as.
MAX_DIGITS = 18


class StateError(measures.ProcrustesLabError, ValueError):
    """A view state (a link, a saved file, a control's value) that the page cannot show.

    The message lists every problem found, each naming the value and the bound; ``problems`` holds
    them one by one.
    """

    def __init__(self, problems):
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__(" ".join(self.problems))


class _Problems(list):
    """Problems found while validating; :meth:`check` validates one value against a Parameter."""

    def check(self, parameter, value, name):
        """``value`` checked against ``parameter`` (None: its default); a failure is noted, the default kept."""
        if value is None:
            return parameter.default
        if _overlong(value):
            self.append(_overlong_message(name, value))
            return parameter.default
        try:
            return parameter.check(value, name, StateError)
        except StateError as error:
            # Parameter names its owner and itself ("k: parameter 'n_neighbors' must ..."); the page says "k".
            self.append(str(error).replace(f"{name}: parameter {parameter.name!r}", name))
            return parameter.default

    def raise_any(self):
        if self:
            raise StateError(self)


def _validated(part, problems):
    """``part._validated(problems)``, raising the problems found when the caller collects none."""
    if problems is not None:
        return part._validated(problems)
    found = _Problems()
    value = part._validated(found)
    found.raise_any()
    return value


def _overlong(value):
    """Whether ``value`` is an integer of more than :data:`MAX_DIGITS` digits (no float holds it exactly)."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS


def _overlong_message(name, value):
    return f"{name} must be a number of at most {MAX_DIGITS} digits; got one of {len(str(abs(value)))}."


def _parameters(declared, given, owner, error, problems):
    """``given`` (pairs or a dict) validated against ``declared``: every parameter, sorted by name."""
    given = dict(given or ())
    for name, value in list(given.items()):
        if _overlong(value):
            problems.append(_overlong_message(f"{owner}: {name}", value))
            del given[name]
    try:
        values = measures.validate_parameters(declared, given, owner, error)
    except error as problem:
        problems.append(str(problem))
        values = {parameter.name: parameter.default for parameter in declared}
    return tuple(sorted(values.items()))


def _algorithm_list(names, where, problems):
    """Registry names in registry order without repeats (then the uploaded output); unknown ones are a problem."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
        problems.append(f"{where}: the algorithms must be a list of names; got {names!r}.")
        return ()
    known = (*algorithms.available(), catalogue.UPLOADED_OUTPUT)  # whether the data has one: ViewState checks
    unknown = [name for name in names if name not in known]
    if unknown:
        problems.append(f"{where}: unknown algorithm(s) {', '.join(map(repr, unknown))}; available: "
                        f"{', '.join(algorithms.available())}.")
    return tuple(name for name in known if name in names)


def _among(value, choices):
    """Whether ``value`` is one of ``choices`` (names): a list or an object from JSON is none of them."""
    return isinstance(value, str) and value in choices


def _columns(values, where):
    """A list of column indices from JSON as a tuple (None stays None); anything else is refused."""
    if values is None:
        return None
    if not isinstance(values, (list, tuple)) or not all(isinstance(value, int) and not isinstance(value, bool)
                                                        and 0 <= value < 10**MAX_DIGITS for value in values):
        raise StateError([f"{where} must be a list of column numbers."])
    return tuple(values)


def _mapping(values, where):
    """``values`` if it is a dict (from JSON), else a :class:`StateError` naming ``where``."""
    if not isinstance(values, dict):
        raise StateError([f"{where} must be an object of settings; got {type(values).__name__}."])
    return values


def _fields(cls, values, where):
    """``values`` (a dict from JSON) as keyword arguments of ``cls``; other types and unknown keys refused."""
    _mapping(values, where)
    known = {field.name for field in dataclasses.fields(cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise StateError([f"{where} has no setting {', '.join(map(repr, unknown))}; its settings are "
                          f"{sorted(known)}."])
    return values


@dataclasses.dataclass(frozen=True)
class OutputRef:
    """The output (an embedding) uploaded with an input: columns of the input's file, or a second file.

    Attributes
    ----------
    columns : tuple of int, optional
        The output's columns (0-based) in the file that holds it; None (a second file only): every
        column that holds numbers.
    sha256, filename : str, optional
        The second file's content hash and name (kept in the session's upload store like the
        input); None when the output is columns of the input's file.
    array : str, optional
        For a second ``.npz`` file, the array holding the output.
    """

    columns: tuple | None = None
    sha256: str | None = None
    filename: str | None = None
    array: str | None = None

    @property
    def in_input_file(self):
        """Whether the output is columns of the input's own file."""
        return self.sha256 is None

    def to_dict(self):
        return {"columns": None if self.columns is None else list(self.columns), "sha256": self.sha256,
                "filename": self.filename, "array": self.array}

    @classmethod
    def from_dict(cls, values):
        """The reference in a dict (JSON); refuses a same-file output without its columns."""
        given = dict(_fields(cls, values, "upload: output"))
        given["columns"] = _columns(given.get("columns"), "upload: output columns")
        output = cls(**given)
        if output.in_input_file and not output.columns:
            raise StateError(["upload: an output in the input's file needs its columns."])
        if not output.in_input_file and not (isinstance(output.sha256, str) and isinstance(output.filename, str)):
            raise StateError(["upload: an output file needs its sha256 and filename as text."])
        return output

    def describe(self):
        """A few words naming the output: "umap.csv", or "columns 4, 5" of the input's file (counted from 1)."""
        if not self.in_input_file:
            return self.filename
        return "columns " + ", ".join(str(column + 1) for column in self.columns)


@dataclasses.dataclass(frozen=True)
class UploadRef:
    """An uploaded file as a run names it: its content hash, its name and the parser's options.

    The file itself stays on the server (:class:`lab.uploads.UploadStore`), private to the browser
    session that sent it; this reference enters run requests and cache keys.
    """

    sha256: str
    filename: str
    columns: typing.Optional[tuple] = None
    color_column: typing.Optional[int] = None
    truth_columns: typing.Optional[tuple] = None
    drop_nonfinite: bool = False
    array: typing.Optional[str] = None
    output: OutputRef | None = None

    def to_dict(self):
        return {field.name: list(value) if isinstance(value, tuple) else
                value.to_dict() if isinstance(value, OutputRef) else value
                for field in dataclasses.fields(self) for value in [getattr(self, field.name)]}

    @classmethod
    def from_dict(cls, values):
        """The reference in a dict (JSON), lists as tuples."""
        given = dict(_fields(cls, values, "upload"))
        for key in ("columns", "truth_columns"):
            given[key] = _columns(given.get(key), f"upload: {key}")
        if given.get("output") is not None:
            given["output"] = OutputRef.from_dict(given["output"])
        if not isinstance(given.get("sha256"), str) or not isinstance(given.get("filename"), str):
            raise StateError(["upload: sha256 and filename must be text."])
        _columns([] if given.get("color_column") is None else [given["color_column"]], "upload: color_column")
        if not (isinstance(given.get("drop_nonfinite", False), bool)
                and isinstance(given.get("array"), (str, type(None)))):
            raise StateError(["upload: drop_nonfinite must be true or false, and array a name."])
        return cls(**given)

    def parser_options(self):
        """Keyword arguments of :func:`datasets.parse_upload` for this file."""
        return {"columns": None if self.columns is None else list(self.columns), "color_column": self.color_column,
                "truth_columns": None if self.truth_columns is None else list(self.truth_columns),
                "drop_nonfinite": self.drop_nonfinite, "array": self.array}


@dataclasses.dataclass(frozen=True)
class DataChoice:
    """The data set: a registry entry with its size, noise, random state and own parameters, or an upload.

    ``params`` holds ``(name, value)`` pairs sorted by name; validated, it names every declared
    parameter. ``n`` None means every point of a finite set (a grid, the digits) or of an upload.
    """

    dataset: str = catalogue.DEFAULT_DATASET
    n: typing.Optional[int] = None
    noise: float = 0.0
    random_state: int = 0
    params: tuple = ()
    upload: typing.Optional[UploadRef] = None

    @property
    def kwargs(self):
        """The data set's own parameters as keyword arguments of :func:`datasets.load`."""
        return dict(self.params)

    @property
    def has_output(self):
        """Whether the data is an upload that carries its own output (an embedding made elsewhere)."""
        return self.dataset == catalogue.UPLOAD and self.upload is not None and self.upload.output is not None

    @property
    def truth_labels(self):
        """Names of the set's intrinsic colourings: its truth's columns, or its one colouring."""
        if self.dataset != catalogue.UPLOAD:
            return datasets.spec(self.dataset).truth_labels
        columns = self.upload.truth_columns if self.upload is not None else None
        return tuple(f"truth column {column}" for column in columns) if columns else ("colour",)

    def label(self):
        """A few words naming the data (menu label, or the uploaded file's name)."""
        if self.dataset == catalogue.UPLOAD:
            return f"your file {self.upload.filename}" if self.upload else "your file"
        return datasets.spec(self.dataset).label

    def to_dict(self):
        return {"dataset": self.dataset, "n": self.n, "noise": self.noise, "random_state": self.random_state,
                "params": dict(self.params), "upload": None if self.upload is None else self.upload.to_dict()}

    @classmethod
    def from_dict(cls, values):
        """The choice in a dict (JSON); call :meth:`validated` on it."""
        given = dict(_fields(cls, values, "data"))
        if given.get("upload") is not None:
            given["upload"] = UploadRef.from_dict(given["upload"])
        given["params"] = tuple(_mapping(given.get("params") or {}, "data: params").items())
        return cls(**given)

    def validated(self, problems=None):
        """The canonical choice (see the module docstring); raises :class:`StateError` on a bad value."""
        return _validated(self, problems)

    def _validated(self, problems):
        noise = problems.check(datasets.registry.NOISE_PARAMETER, self.noise, "noise σ")
        random_state = problems.check(catalogue.RANDOM_STATE, self.random_state, "random state")
        if self.dataset == catalogue.UPLOAD:
            if self.upload is None:
                problems.append("The data set is an uploaded file, but no file is chosen: upload one, or choose "
                                "another data set.")
            return DataChoice(catalogue.UPLOAD, None, 0.0, random_state, (), self.upload)
        try:
            entry = datasets.spec(self.dataset)
        except measures.DatasetError as error:
            problems.append(str(error))
            return DataChoice(random_state=random_state)
        n = (catalogue.default_size(entry.name) if self.n is None
             else problems.check(entry.size_parameter, self.n, f"{entry.label}: n"))
        params = _parameters(entry.parameters, self.params, entry.name, measures.DatasetError, problems)
        return DataChoice(entry.name, n, float(noise), random_state, params, None)


@dataclasses.dataclass(frozen=True)
class MethodChoice:
    """The algorithm with its own parameters, k, and what is done to its output."""

    algorithm: str = catalogue.DEFAULT_ALGORITHM
    n_neighbors: int = catalogue.NEIGHBORS.default
    params: tuple = ()
    post_refinement: int = catalogue.POST_REFINEMENT.default
    rescale: str = catalogue.RESCALE.default
    # The algorithm's own random state; None: the data's (which seeds both). Set by the pairs tab's run B
    # and the stability study, so that the algorithm reruns on the very same sample.
    random_state: int | None = None

    @property
    def kwargs(self):
        """The algorithm's own parameters as keyword arguments of :func:`algorithms.embed`."""
        return dict(self.params)

    def to_dict(self):
        return {"algorithm": self.algorithm, "n_neighbors": self.n_neighbors, "params": dict(self.params),
                "post_refinement": self.post_refinement, "rescale": self.rescale, "random_state": self.random_state}

    @classmethod
    def from_dict(cls, values):
        given = dict(_fields(cls, values, "method"))
        given["params"] = tuple(_mapping(given.get("params") or {}, "method: params").items())
        return cls(**given)

    def validated(self, problems=None):
        """The canonical choice; raises :class:`StateError` on a bad value."""
        return _validated(self, problems)

    def _validated(self, problems):
        random_state = (None if self.random_state is None else
                        problems.check(catalogue.RANDOM_STATE, self.random_state, "algorithm random state"))
        if self.algorithm == catalogue.UPLOADED_OUTPUT:  # measured as uploaded: k sets the neighbourhoods
            if self.params:
                problems.append(f"The uploaded output has no parameters; got {sorted(dict(self.params))}.")
            return MethodChoice(catalogue.UPLOADED_OUTPUT, problems.check(catalogue.NEIGHBORS, self.n_neighbors, "k"),
                                (), problems.check(catalogue.POST_REFINEMENT, self.post_refinement, "extra refinement"),
                                problems.check(catalogue.RESCALE, self.rescale, "rescale output"), random_state)
        try:
            entry = algorithms.spec(self.algorithm)
        except measures.EmbeddingError as error:
            problems.append(str(error))
            return MethodChoice()
        n_neighbors = problems.check(catalogue.NEIGHBORS, self.n_neighbors, "k")
        lowest = entry.min_neighbors(2)
        if n_neighbors < lowest:
            problems.append(entry.too_few_neighbors(n_neighbors, 2) if entry.too_few_neighbors else
                            f"{entry.label} needs k >= {lowest}; got {n_neighbors}.")
        params = _parameters(entry.parameters, self.params, entry.name, measures.EmbeddingError, problems)
        return MethodChoice(entry.name, n_neighbors, params,
                            problems.check(catalogue.POST_REFINEMENT, self.post_refinement, "extra refinement"),
                            problems.check(catalogue.RESCALE, self.rescale, "rescale output"), random_state)


@dataclasses.dataclass(frozen=True)
class DisplayChoice:
    """How the explore views draw a run: colouring, input view, landmark overlay, image format, and
    presentation mode (no control panel, large type, views filling the window: for a projector)."""

    color: str = "normalized"
    input_view: str = "3d"
    landmarks: bool = False
    figure_format: str = catalogue.FIGURE_FORMATS[0]
    presentation: bool = False

    def to_dict(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values):
        return cls(**_fields(cls, values, "display"))

    def validated(self, data, problems=None):
        """The canonical choice for a run on ``data`` (a validated :class:`DataChoice`)."""
        found = _Problems() if problems is None else problems
        colors = [value for value, _ in catalogue.color_choices(data.truth_labels)]
        if self.color not in colors:
            found.append(f"colour must be one of {colors} for {data.label()}; got {self.color!r}.")
        if not _among(self.input_view, catalogue.INPUT_VIEWS):
            found.append(f"input view must be one of {list(catalogue.INPUT_VIEWS)}; got {self.input_view!r}.")
        if self.figure_format not in catalogue.FIGURE_FORMATS:
            found.append(f"figure format must be one of {list(catalogue.FIGURE_FORMATS)}; "
                         f"got {self.figure_format!r}.")
        if problems is None:
            found.raise_any()
        return DisplayChoice(self.color, self.input_view, bool(self.landmarks), self.figure_format,
                             bool(self.presentation))


_K_STEP = measures.Parameter("k_step", "k step", "int", 3, low=1, high=catalogue.NEIGHBORS.high)


@dataclasses.dataclass(frozen=True)
class SweepChoice:
    """The sweep tab: algorithms, the k range and step, the plotted measure and its axis (linear or log)."""

    algorithms: tuple = catalogue.SWEEP_DEFAULTS["algorithms"]
    k_min: int = catalogue.SWEEP_DEFAULTS["k_min"]
    k_max: int = catalogue.SWEEP_DEFAULTS["k_max"]
    k_step: int = catalogue.SWEEP_DEFAULTS["k_step"]
    measure: str = catalogue.SWEEP_DEFAULTS["measure"]
    log_scale: bool = False

    @property
    def ks(self):
        """The swept k values, ``k_min, k_min + k_step, ..., <= k_max``."""
        return tuple(range(self.k_min, self.k_max + 1, self.k_step))

    def to_dict(self):
        return {**dataclasses.asdict(self), "algorithms": list(self.algorithms)}

    @classmethod
    def from_dict(cls, values):
        return cls(**_fields(cls, values, "sweep"))

    def validated(self, problems=None):
        return _validated(self, problems)

    def _validated(self, problems):
        chosen = _algorithm_list(self.algorithms, "sweep", problems)
        k_min = problems.check(catalogue.NEIGHBORS, self.k_min, "sweep: lowest k")
        k_max = problems.check(catalogue.NEIGHBORS, self.k_max, "sweep: highest k")
        k_step = problems.check(_K_STEP, self.k_step, "sweep: k step")
        if k_min > k_max:
            problems.append(f"sweep: the lowest k ({k_min}) exceeds the highest ({k_max}).")
        swept = SweepChoice(chosen, k_min, k_max, k_step, self.measure, bool(self.log_scale))
        cells = len(chosen) * len(swept.ks)
        if cells > catalogue.MAX_SWEEP_CELLS:
            problems.append(f"sweep: {len(chosen)} algorithms × {len(swept.ks)} values of k is {cells} runs; at most "
                            f"{catalogue.MAX_SWEEP_CELLS} per sweep. Widen the k step or choose fewer algorithms.")
        if not _among(self.measure, dict(catalogue.SUMMARY_MEASURES)):
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
        return cls(**_fields(cls, values, "compare"))

    def validated(self, problems=None):
        return _validated(self, problems)

    def _validated(self, problems):
        return CompareChoice(_algorithm_list(self.algorithms, "compare", problems), bool(self.align))


@dataclasses.dataclass(frozen=True)
class NormalizationChoice:
    """The normalization tab (PN): a shape, its aspect ratio, n, k and the normalized algorithms."""

    shape: str = NormalizationDefaults.shape
    aspect: float = NormalizationDefaults.aspect
    n: typing.Optional[int] = None
    n_neighbors: int = NormalizationDefaults.n_neighbors
    algorithms: tuple = NormalizationDefaults.algorithms

    def to_dict(self):
        return {**dataclasses.asdict(self), "algorithms": list(self.algorithms)}

    @classmethod
    def from_dict(cls, values):
        return cls(**_fields(cls, values, "normalization"))

    def validated(self, problems=None):
        return _validated(self, problems)

    def _validated(self, problems):
        if not _among(self.shape, SHAPES):
            problems.append(f"normalization: shape must be one of {list(SHAPES)}; got {self.shape!r}.")
            return NormalizationChoice()
        entry = datasets.spec(SHAPES[self.shape].dataset)
        aspect = problems.check(NormalizationDefaults.aspect_parameter, self.aspect, "normalization: aspect")
        n = None
        if self.n is not None and not entry.population:  # a grid has as many points as its size
            n = problems.check(entry.size_parameter, self.n, "normalization: n")
        n_neighbors = problems.check(catalogue.NEIGHBORS, self.n_neighbors, "normalization: k")
        normalized = [spec.name for spec in algorithms.specs() if spec.output == "normalized"]
        chosen = _algorithm_list(self.algorithms, "normalization", problems)
        outside = [name for name in chosen if name not in normalized]
        if outside:
            problems.append(f"normalization: {', '.join(outside)} do not normalize their output; choose among "
                            f"{normalized}.")
        return NormalizationChoice(self.shape, float(aspect), n, n_neighbors, chosen)


@dataclasses.dataclass(frozen=True)
class PairChoice:
    """The pairs tab: run B (the explore run A with its algorithm, k or random state changed) and its views.

    None keeps A's value. A changed algorithm starts at its default parameters; B keeps A's
    refinement and rescaling. ``algorithm`` may be the uploaded output (an upload that carries one).
    ``color`` colours both views (:func:`lab.catalogue.pair_color_choices`); ``segments`` draws each
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
        return cls(**_fields(cls, values, "pair"))

    def validated(self, data, problems=None):
        """The canonical choice for ``data`` (a validated :class:`DataChoice`: its colourings)."""
        found = _Problems() if problems is None else problems
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
        if algorithm is not None and algorithm != catalogue.UPLOADED_OUTPUT and algorithm not in algorithms.available():
            problems.append(f"pair: unknown algorithm {algorithm!r} for run B; available: "
                            f"{', '.join(algorithms.available())}.")
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
        return cls(**_fields(cls, values, "stability"))

    def validated(self, problems=None):
        return _validated(self, problems)

    def _validated(self, problems):
        mode = self.mode
        if not _among(mode, catalogue.STABILITY_MODES):
            problems.append(f"stability: the reruns must be one of {list(catalogue.STABILITY_MODES)}; got {mode!r}.")
            mode = StabilityChoice.mode
        return StabilityChoice(mode, problems.check(catalogue.STABILITY_RUNS, self.n_runs, "stability: runs"),
                               float(problems.check(catalogue.SUBSAMPLE_FRACTION, self.fraction,
                                                    "stability: subsample fraction")))


def check_run(data, method, problems=None):
    """Refuse a run that measures an uploaded output when the data carries none.

    Parameters
    ----------
    data : DataChoice
    method : MethodChoice
    problems : list, optional
        Where to note the problem; without it a :class:`StateError` is raised.
    """
    if method.algorithm == catalogue.UPLOADED_OUTPUT and not data.has_output:
        message = ("The method is your uploaded output, but the data carries none: upload an input with its "
                   "output (Upload your own data), or choose an algorithm.")
        if problems is None:
            raise StateError([message])
        problems.append(message)


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
    lab.state.StateError: k must lie in [3, 50]; got 400.
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
    # The open step of a paper's tour (lab.presets: "gr-fig1"), or "" when no tour is open.
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
        values = _fields(cls, values, "the view")
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
        problems = _Problems()
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


def check_tour_step(name, problems=None):
    """Refuse ``name`` unless it is a step of a paper's tour (:mod:`lab.presets`).

    Parameters
    ----------
    name : object
        A step's name, as a link, a file or the tours' index gives it.
    problems : list, optional
        Where to note the problem; without it a :class:`StateError` is raised.
    """
    # Imported here: the tours are made of view states, so lab.presets imports this module.
    from .presets import STEPS

    if not _among(name, STEPS):
        message = f"tour: no step {name!r}; the steps are {', '.join(STEPS)}."
        if problems is None:
            raise StateError([message])
        problems.append(message)


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
