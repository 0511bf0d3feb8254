"""The run-level choices: which data set and which algorithm, each validated against the registries.

Part of ``lab.compute``: a run (:class:`lab.compute.runs.RunRequest`) and the studies over runs are
made of a :class:`DataChoice` and a :class:`MethodChoice`; the page's other choices (what it shows,
sweeps, compares) and the whole :class:`~lab.view.state.ViewState` are built on these in ``lab.view``.

Each choice validates itself: ``validated()`` fills every omitted value from the registries and
checks every value against the declarations the controls are built from, so a link asking for
``k = 400`` is refused with the message the slider's bound gives, before anything is computed.
:class:`Problems` collects the problems of one validation, :func:`validate_part` and
:func:`json_fields` are the pieces every choice (here and in ``lab.view.state``) is validated and
read from JSON with.
"""

import dataclasses
import reprlib
import typing

import algorithms
import datasets
import measures

from . import catalogue
from .shapes import SHAPES, NormalizationDefaults

__all__ = ["MAX_DIGITS", "DataChoice", "MethodChoice", "NormalizationChoice", "OutputRef", "Problems", "StateError",
           "UploadRef", "algorithm_list", "among", "check_run", "json_fields", "json_number", "neighbour_list",
           "validate_part"]

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


class Problems(list):
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


def validate_part(part, problems):
    """``part._validated(problems)``, raising the problems found when the caller collects none."""
    if problems is not None:
        return part._validated(problems)
    found = Problems()
    value = part._validated(found)
    found.raise_any()
    return value


def algorithm_list(names, where, problems):
    """Registry names in registry order without repeats (then the uploaded output); unknown ones are a problem."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
        problems.append(f"{where}: the algorithms must be a list of names; got {reprlib.repr(names)}.")
        return ()
    known = (*algorithms.available(), catalogue.UPLOADED_OUTPUT)  # whether the data has one: ViewState checks
    unknown = [name for name in dict.fromkeys(names) if name not in known]
    if unknown:  # one problem in the registry's words, however many names a request forged
        try:
            algorithms.spec(unknown[0])
        except measures.EmbeddingError as error:
            more = f" ({len(unknown) - 1} more unknown names)" if len(unknown) > 1 else ""
            problems.append(f"{where}: {error}{more}")
    return tuple(name for name in known if name in names)


def among(value, choices):
    """Whether ``value`` is one of ``choices`` (names): a list or an object from JSON is none of them."""
    return isinstance(value, str) and value in choices


def neighbour_list(values, where, problems):
    """Values of k, each checked against :data:`lab.compute.catalogue.NEIGHBORS`, sorted without repeats."""
    if not isinstance(values, (list, tuple)) or not values:
        problems.append(f"{where}: the values of k must be a non-empty list; got {values!r}.")
        return ()
    return tuple(sorted({problems.check(catalogue.NEIGHBORS, k, f"{where}: k") for k in values}))


def _overlong(value):
    """Whether ``value`` is an integer of more than :data:`MAX_DIGITS` digits (no float holds it exactly)."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS


def json_number(value):
    """Whether ``value``, read back from a page's store, is a number the page wrote: an int or a float, not a
    bool, and not an integer too long for a float (a forged 400-digit one would overflow where it is shown)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and not _overlong(value)


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


def json_fields(cls, values, where):
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
        given = dict(json_fields(cls, values, "upload: output"))
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

    The file itself stays on the server (:class:`lab.store.uploads.UploadStore`), private to the browser
    session that sent it; this reference enters run requests and cache keys. ``metadata_columns`` are
    columns carried with the points, searched by find (:func:`datasets.parse_upload`).
    """

    sha256: str
    filename: str
    columns: typing.Optional[tuple] = None
    color_column: typing.Optional[int] = None
    truth_columns: typing.Optional[tuple] = None
    drop_nonfinite: bool = False
    array: typing.Optional[str] = None
    output: OutputRef | None = None
    metadata_columns: typing.Optional[tuple] = None

    def to_dict(self):
        return {field.name: list(value) if isinstance(value, tuple) else
                value.to_dict() if isinstance(value, OutputRef) else value
                for field in dataclasses.fields(self) for value in [getattr(self, field.name)]}

    @classmethod
    def from_dict(cls, values):
        """The reference in a dict (JSON), lists as tuples."""
        given = dict(json_fields(cls, values, "upload"))
        for key in ("columns", "truth_columns", "metadata_columns"):
            given[key] = _columns(given.get(key), f"upload: {key}")
        given["metadata_columns"] = given["metadata_columns"] or None  # none chosen: one cache key, not two
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
                "metadata_columns": None if self.metadata_columns is None else list(self.metadata_columns),
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
        given = dict(json_fields(cls, values, "data"))
        if given.get("upload") is not None:
            given["upload"] = UploadRef.from_dict(given["upload"])
        given["params"] = tuple(_mapping(given.get("params") or {}, "data: params").items())
        return cls(**given)

    def validated(self, problems=None):
        """The canonical choice (see the module docstring); raises :class:`StateError` on a bad value."""
        return validate_part(self, problems)

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
        given = dict(json_fields(cls, values, "method"))
        given["params"] = tuple(_mapping(given.get("params") or {}, "method: params").items())
        return cls(**given)

    def validated(self, problems=None):
        """The canonical choice; raises :class:`StateError` on a bad value."""
        return validate_part(self, problems)

    def _validated(self, problems):
        random_state = (None if self.random_state is None else
                        problems.check(catalogue.RANDOM_STATE, self.random_state, "algorithm random state"))
        if self.algorithm == catalogue.UPLOADED_OUTPUT:  # measured as uploaded: k sets the neighbourhoods
            if self.params:
                problems.append(f"The uploaded output has no parameters; got {sorted(dict(self.params))}.")
            return MethodChoice(catalogue.UPLOADED_OUTPUT, problems.check(catalogue.NEIGHBORS, self.n_neighbors, "k"),
                                (), problems.check(catalogue.POST_REFINEMENT, self.post_refinement, "post-refinement"),
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
                            problems.check(catalogue.POST_REFINEMENT, self.post_refinement, "post-refinement"),
                            problems.check(catalogue.RESCALE, self.rescale, "rescale output"), random_state)


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
        return cls(**json_fields(cls, values, "normalization"))

    def validated(self, problems=None):
        return validate_part(self, problems)

    def _validated(self, problems):
        if not among(self.shape, SHAPES):
            problems.append(f"normalization: shape must be one of {list(SHAPES)}; got {self.shape!r}.")
            return NormalizationChoice()
        entry = datasets.spec(SHAPES[self.shape].dataset)
        aspect = problems.check(NormalizationDefaults.aspect_parameter, self.aspect, "normalization: aspect")
        n = None
        if self.n is not None and not entry.population:  # a grid has as many points as its size
            n = problems.check(entry.size_parameter, self.n, "normalization: n")
        n_neighbors = problems.check(catalogue.NEIGHBORS, self.n_neighbors, "normalization: k")
        normalized = [spec.name for spec in algorithms.specs() if spec.output == "normalized"]
        chosen = algorithm_list(self.algorithms, "normalization", problems)
        outside = [name for name in chosen if name not in normalized]
        if outside:
            problems.append(f"normalization: {', '.join(outside)} do not normalize their output; choose among "
                            f"{normalized}.")
        return NormalizationChoice(self.shape, float(aspect), n, n_neighbors, chosen)
