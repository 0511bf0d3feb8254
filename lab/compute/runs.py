"""One run of the pipeline (data set → algorithm → measures): its typed request, result and computation.

No Dash here: :func:`lab.compute.study.compute` takes a :class:`RunRequest` and a plain
``progress(fraction, stage)`` callable, so a background job, a Celery worker, a benchmark or a notebook
computes a run the same way, and the result cache (:mod:`lab.store.cache`) stores it under the
request's key.
"""

import dataclasses
import functools
import logging
import time
import typing
import warnings

import numpy as np

import algorithms
import datasets
import measures
from algorithms.scaling import rescale_output

from . import catalogue
from .choices import DataChoice, MethodChoice, StateError, check_run
from .study import register

__all__ = ["Landmarks", "RunRequest", "RunResult", "display_indices", "failure_message", "load_data",
           "output_of", "parse_uploaded", "run_measures"]

logger = logging.getLogger(__name__)

# Inputs of more dimensions are drawn by their first three principal components.
DRAWN_INPUT_DIMENSIONS = 3


@dataclasses.dataclass(frozen=True)
class Landmarks:
    """NIEQA's landmarks (NQ Eq. 19): their indices and their MDS configuration aligned to the output."""

    indices: np.ndarray
    configuration: np.ndarray


@dataclasses.dataclass(frozen=True, eq=False)
class RunResult:
    """A computed run: every point, every measure.

    Attributes
    ----------
    X, Y : ndarray
        Input (n, q) and output (n, d).
    drawn_X : ndarray of shape (n, min(q, 3))
        The input's first three coordinates, or its top principal components above three dimensions.
    input_axes : tuple of str
        Names of ``drawn_X``'s columns.
    truth : ndarray of shape (n, c)
        Ground truth, or the set's colouring as one column when it has none.
    truth_labels : tuple of str
    local : mapping of str to ndarray
        Per-point measures (registry names).
    summary : mapping of str to (float or None, float or None)
        Mean and median of each measure (median None for a global one; both None when not computed).
    landmarks : Landmarks or None
    image_shape : tuple or None
        Image data sets: the shape a row of X reshapes to.
    notes : tuple of str
        Warnings of the run, and measures left out.
    seconds : float
        Embedding plus measures.
    metadata : mapping of str to ndarray
        An upload's metadata columns by name (float64 numbers or ``str`` texts), row for row; find
        searches them (:mod:`lab.compute.find`).
    """

    X: np.ndarray
    Y: np.ndarray
    drawn_X: np.ndarray
    input_axes: tuple
    truth: np.ndarray
    truth_labels: tuple
    local: dict
    summary: dict
    landmarks: typing.Optional[Landmarks]
    image_shape: typing.Optional[tuple]
    notes: tuple
    seconds: float
    metadata: dict = dataclasses.field(default_factory=dict)

    @property
    def n_samples(self):
        return self.X.shape[0]

    def to_value(self):
        """Plain values and arrays for :mod:`lab.store.serialization`."""
        value = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        value["landmarks"] = None if self.landmarks is None else dataclasses.asdict(self.landmarks)
        # Names and columns apart: a column's name is the user's (``__array__`` is the store's own marker).
        value["metadata"] = {"names": list(self.metadata), "columns": list(self.metadata.values())}
        return value

    @classmethod
    def from_value(cls, value):
        """The result :meth:`to_value` wrote."""
        value = dict(value)
        value["landmarks"] = None if value["landmarks"] is None else Landmarks(**value["landmarks"])
        value["summary"] = {name: tuple(pair) for name, pair in value["summary"].items()}
        for name in ("input_axes", "truth_labels", "notes"):
            value[name] = tuple(value[name])
        value["image_shape"] = None if value["image_shape"] is None else tuple(value["image_shape"])
        metadata = value.get("metadata") or {"names": [], "columns": []}
        value["metadata"] = dict(zip(metadata["names"], metadata["columns"]))
        return cls(**value)


@register
@dataclasses.dataclass(frozen=True)
class RunRequest:
    """Everything that determines a run: the data part and the method part of a validated view state.

    Build one from a state (:meth:`from_state`) or from plain values (:meth:`create`), which
    validates them against the registries; two requests that differ only in omitted defaults are
    equal and share one cache entry.

    ``measures``: None for every measure the run defines (:func:`run_measures`, what Explore shows),
    or the names of the only ones to compute, possibly none (:meth:`measuring`; a tour step's panel that
    no one opens in Explore computes just what the step reads). A request with a subset is another
    cache entry.
    """

    KIND: typing.ClassVar[str] = "run"
    RESULT: typing.ClassVar[type] = RunResult
    data: DataChoice
    method: MethodChoice
    measures: typing.Optional[tuple] = None

    def __post_init__(self):
        check_run(self.data, self.method)
        if self.measures is not None and not (
                isinstance(self.measures, tuple)
                and all(isinstance(name, str) and name in catalogue.RUN_MEASURES for name in self.measures)):
            raise StateError([f"A run's measures are a list of names among {list(catalogue.RUN_MEASURES)}; "
                              f"got {self.measures!r}."])

    def measuring(self, names):
        """This run computing only the measures ``names`` (in the registry's order, each once).

        Examples
        --------
        >>> RunRequest.create().measuring(["conformal", "normalized", "conformal"]).measures
        ('normalized', 'conformal')
        """
        chosen = set(names)
        return dataclasses.replace(self, measures=tuple(name for name in catalogue.RUN_MEASURES if name in chosen))

    @classmethod
    def from_state(cls, state):
        """The explore run of a validated :class:`~lab.view.state.ViewState`."""
        return cls(state.data, state.method)

    @classmethod
    def create(cls, dataset=catalogue.DEFAULT_DATASET, algorithm=catalogue.DEFAULT_ALGORITHM, *, n=None, noise=0.0,
               random_state=0, dataset_params=None, n_neighbors=catalogue.NEIGHBORS.default, algorithm_params=None,
               post_refinement=0, rescale="authors", upload=None):
        """A validated request from plain values (unnamed parameters at their defaults).

        Raises
        ------
        lab.compute.choices.StateError
            Naming every value out of its declared range.

        Examples
        --------
        >>> RunRequest.create("strip", "ltsa", n=300, dataset_params={"length": 4}).data.kwargs["length"]
        4.0
        """
        data = DataChoice(dataset, n, noise, random_state, tuple((dataset_params or {}).items()), upload)
        method = MethodChoice(algorithm, n_neighbors, tuple((algorithm_params or {}).items()), post_refinement,
                              rescale)
        return cls(data.validated(), method.validated())

    def to_dict(self):
        """Plain values (JSON), the request's canonical form and its cache key's content."""
        every = {"data": self.data.to_dict(), "method": self.method.to_dict()}
        # Absent for every measure: the key of a full run is the one it always was.
        return every if self.measures is None else {**every, "measures": list(self.measures)}

    @classmethod
    def from_dict(cls, values):
        """The request :meth:`to_dict` wrote, validated again (a browser may send anything).

        Raises
        ------
        lab.compute.choices.StateError
        """
        if not isinstance(values, dict):
            raise StateError([f"A run request must be an object; got {type(values).__name__}."])
        chosen = values.get("measures")
        if chosen is not None and not isinstance(chosen, list):
            raise StateError([f"A run's measures must be a list of names; got {type(chosen).__name__}."])
        return cls(DataChoice.from_dict(values.get("data", {})).validated(),
                   MethodChoice.from_dict(values.get("method", {})).validated(),
                   None if chosen is None else tuple(chosen))

    def slug(self):
        """The stem of this run's file names, e.g. ``swissroll_n1600_isomap_k10``."""
        size = "" if self.data.n is None else f"_n{self.data.n}"
        return f"{self.data.dataset}{size}_{self.method.algorithm}_k{self.method.n_neighbors}"

    def describe(self):
        """One line naming the run, e.g. "Swiss roll, n = 1600: Isomap, k = 10"."""
        size = "" if self.data.n is None else f", n = {self.data.n}"
        method = catalogue.method_label(self.method.algorithm)
        if self.method.algorithm == catalogue.UPLOADED_OUTPUT:
            method += f" ({self.data.upload.output.describe()})"
        elif self.method.random_state is not None:
            method += f" (random state {self.method.random_state})"
        return f"{self.data.label()}{size}: {method}, k = {self.method.n_neighbors}"

    def _compute(self, *, cache, progress, uploads, partial=None):
        """The run itself (:func:`lab.compute.study.compute` reads the cache first)."""
        return _compute_run(self, progress, uploads, partial)


def _compute_run(request, report, uploads, partial=None):
    """Sample (or read), embed and measure one request.

    Parameters
    ----------
    request : RunRequest
    report : callable
        ``report(fraction, stage)``, called before each stage and through long algorithms.
    uploads : object or None
        With ``read(upload_ref) -> bytes`` (:class:`lab.store.uploads.SessionUploads`); needed only when
        the data set is an uploaded file.
    partial : callable, optional
        ``partial(result)`` with a :class:`RunResult` of what is done: the input as soon as it is read
        (``Y`` of no column: no output yet), the embedding as soon as the algorithm ends (no measure
        yet), then after each group of measures (:func:`measures.evaluate`'s ``partial``) the measures
        done so far. Its ``summary`` and ``local`` hold only those; ``seconds`` is the time so far; the
        landmarks and the notes come with the final result only.

    Returns
    -------
    RunResult

    Raises
    ------
    measures.ProcrustesLabError
        Whatever the libraries raise for bad input; the caller shows the message.
    """
    started = time.perf_counter()
    data_choice, method = request.data, request.method
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", measures.ProcrustesLabWarning)
        data = _load(data_choice, method.n_neighbors, uploads, report)
        label = catalogue.method_label(method.algorithm)
        k = method.n_neighbors
        drawn_X, input_axes = _drawn_input(data.X)
        truth = np.asarray(data.truth if data.truth is not None else data.color[:, None])
        local_names = dict(catalogue.LOCAL_MEASURES)

        def publish(Y, mean, median, per_point):
            partial(RunResult(
                X=np.asarray(data.X), Y=Y, drawn_X=np.asarray(drawn_X), input_axes=tuple(input_axes), truth=truth,
                truth_labels=tuple(data.truth_labels),
                local={name: values for name, values in per_point.items() if name in local_names},
                summary={name: (mean[name], median.get(name)) for name in mean}, landmarks=None,
                image_shape=data.image_shape, notes=(), seconds=time.perf_counter() - started,
                metadata=dict(data.metadata)))

        if partial is not None:  # the input while the algorithm runs (an output of no column: none yet)
            publish(np.empty((len(data.X), 0)), {}, {}, {})
        report(0.1, "searching the neighbours")
        # One search for the algorithm and every measure (one more neighbour spares the rank measures
        # a second search); approximate only for many columns at large n, with its recall stated.
        search = measures.neighbor_search(data.X, k + 1 if k + 1 < len(data.X) else k,
                                          random_state=data_choice.random_state)
        report(0.15, f"embedding with {label}")
        Y = output_of(data.X, method, random_state=algorithm_random_state(data_choice, method), uploaded=data.Y,
                      neighbors=search.neighbors[:, :k + 1],
                      progress=lambda fraction, info: report(0.15 + 0.5 * fraction, _stage(label, info)))
        if partial is not None:
            publish(Y, {}, {}, {})
        report(0.7, "measuring")
        which, labels = run_measures(data, Y)
        if request.measures is not None:
            which = [name for name in which if name in request.measures]
        evaluation = measures.evaluate(data.X, Y, k, truth=data.truth, which=which, labels=labels,
                                       neighbors=search.neighbors,
                                       progress=lambda fraction, stage: report(0.7 + 0.3 * fraction,
                                                                               f"measuring: {stage}"),
                                       partial=None if partial is None else functools.partial(publish, Y))
    summary = {name: (evaluation.mean[name], evaluation.median.get(name)) for name in evaluation.measures}
    notes = [str(w.message) for w in caught if issubclass(w.category, measures.ProcrustesLabWarning)]
    approximations = {**({"neighbors": search.description} if search.description else {}),
                      **evaluation.approximations}
    notes += [f"{measures.spec(name).label if name in measures.available() else 'Neighbours'}: {text}"
              for name, text in approximations.items()]
    return RunResult(
        X=np.asarray(data.X), Y=Y, drawn_X=np.asarray(drawn_X), input_axes=tuple(input_axes), truth=truth,
        truth_labels=tuple(data.truth_labels),
        local={name: values for name, values in evaluation.per_point.items() if name in local_names},
        summary=summary,
        landmarks=None if evaluation.nieqa is None else Landmarks(
            np.asarray(evaluation.nieqa.landmark_indices), np.asarray(evaluation.nieqa.aligned_landmark_configuration)),
        image_shape=data.image_shape, notes=tuple(notes), seconds=time.perf_counter() - started,
        metadata=dict(data.metadata))


# Most classes a label colouring may have for the label measures to be computed (the digits have 10).
MAX_LABEL_CLASSES = 100


def run_measures(data, Y):
    """The measures a run of ``data`` with output ``Y`` computes, and the class labels they read.

    Returns
    -------
    which : list of str
        :data:`lab.compute.catalogue.RUN_MEASURES` defined here: those needing a truth only with
        one, those reading class labels only with them, those needing d <= q only then.
    labels : ndarray or None
        The points' classes (see :func:`_class_labels`).
    """
    labels = _class_labels(data)
    return [name for name in catalogue.RUN_MEASURES if _defined(measures.spec(name), data, Y, labels)], labels


def _class_labels(data):
    """The points' classes, when the colouring is one of 2 to :data:`MAX_LABEL_CLASSES` classes (the digits; an
    upload's text label column), else None: the label measures need them. More labels than that (an upload's
    name or id column as its colour) are no classes: the run is measured without the label measures, whose
    cost grows with the classes' square (label-trustworthiness) and which a class per point leaves undefined
    (the silhouette)."""
    classes = data.truth is None and (data.name in datasets.available()
                                      or (data.upload is not None and data.upload.color_categories))
    count = np.unique(data.color).size
    return data.color if classes and 1 < count <= min(MAX_LABEL_CLASSES, len(data.color) - 1) else None


def _defined(spec, data, Y, labels):
    """Whether measure ``spec`` is defined for this run: its truth, its labels, its d <= q."""
    return ((data.truth is not None or not spec.needs_truth) and (labels is not None or not spec.needs_labels)
            and (Y.shape[1] <= data.X.shape[1] or not spec.needs_d_at_most_q))


def _load(data_choice, n_neighbors, uploads, report):
    """The :class:`datasets.Dataset` of a request's data part: sampled, or parsed from the upload."""
    if data_choice.dataset == catalogue.UPLOAD:
        upload = data_choice.upload
        report(0.05, f"reading {upload.filename}")
        if uploads is None:
            raise measures.DatasetError("This run reads an uploaded file, but no upload store was given.")
        return parse_uploaded(upload, uploads, n_neighbors)
    report(0.05, "sampling the data set")
    return datasets.load(data_choice.dataset, data_choice.n, noise=data_choice.noise,
                         random_state=data_choice.random_state, **data_choice.kwargs)


def load_data(data_choice, n_neighbors, *, uploads=None, progress=None):
    """The :class:`datasets.Dataset` of a data choice, as a run reads it (:meth:`RunRequest._compute`).

    Parameters
    ----------
    data_choice : lab.compute.choices.DataChoice
        Validated.
    n_neighbors : int
        k: an upload needs at least k + 2 points.
    uploads : object, optional
        With ``read(ref) -> bytes`` (:class:`lab.store.uploads.SessionUploads`), for an uploaded file.
    progress : callable, optional
        ``progress(fraction, stage)``.

    Raises
    ------
    DatasetError
    """
    return _load(data_choice, n_neighbors, uploads, progress or (lambda fraction, stage: None))


def parse_uploaded(upload, uploads, n_neighbors=None):
    """An uploaded file, with the output uploaded with it, as :func:`datasets.parse_upload` reads them.

    Parameters
    ----------
    upload : lab.compute.choices.UploadRef
    uploads : object
        With ``read(ref) -> bytes`` for the input's and the output file's references (both name a
        ``sha256`` of this session's store).
    n_neighbors : int, optional

    Returns
    -------
    datasets.Dataset
        With ``Y`` the uploaded output when the reference names one.

    Raises
    ------
    DatasetError
        The parser's messages (a row-count mismatch, NaN, an output wider than the input, an output of
        one repeated point, ...), or :data:`lab.store.uploads.UPLOAD_GONE`.
    """
    options = upload.parser_options()
    output = upload.output
    if output is not None and output.in_input_file:
        options["output_columns"] = list(output.columns)
    elif output is not None:
        options["output"] = datasets.OutputFile(uploads.read(output), output.filename,
                                                columns=None if output.columns is None else list(output.columns),
                                                array=output.array)
    return datasets.parse_upload(uploads.read(upload), upload.filename, n_neighbors=n_neighbors, **options)


def algorithm_random_state(data_choice, method):
    """The random state the algorithm of a run starts from: the method's own, else the data's."""
    return data_choice.random_state if method.random_state is None else method.random_state


def output_of(X, method, *, random_state, uploaded=None, neighbors=None, progress=None):
    """The output a run measures: the algorithm's embedding of ``X``, or the uploaded output.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
        The input (``Dataset.X`` of :func:`load_data`).
    method : lab.compute.choices.MethodChoice
        Validated; :data:`lab.compute.catalogue.UPLOADED_OUTPUT` takes ``uploaded`` instead of embedding.
    random_state : int
        Seeds the algorithm.
    uploaded : ndarray of shape (n_samples, d), optional
        The output uploaded with the input (``Dataset.Y``).
    neighbors : ndarray of shape (n_samples, k + 1), optional
        The input's neighbour search, shared with the measures (searched here when omitted).
    progress : callable, optional
        ``progress(fraction, info)`` of :func:`algorithms.embed`.

    Returns
    -------
    ndarray of shape (n_samples, d)

    Notes
    -----
    An uploaded output is taken as it is, then refined and rescaled as the method asks, in the order
    :func:`algorithms.embed` applies them to its own outputs (refinement on the input's kNN graph,
    then the rescaling; "authors" keeps the uploaded scale). No sign rule is applied: the
    coordinates stay the file's.
    """
    if method.algorithm != catalogue.UPLOADED_OUTPUT:
        return algorithms.embed(method.algorithm, X, n_neighbors=method.n_neighbors, random_state=random_state,
                                rescale=method.rescale, post_refinement=method.post_refinement,
                                neighbors=neighbors, progress=progress, **method.kwargs)
    if uploaded is None:
        raise measures.DatasetError("The method is the uploaded output, but the upload holds none: choose its "
                                    "output columns or an output file, or choose an algorithm.")
    Y = np.array(uploaded, dtype=np.float64)
    if method.post_refinement or method.rescale == "best_global_scale":
        if neighbors is None:
            neighbors = measures.nearest_neighbors(X, method.n_neighbors)
        if method.post_refinement:
            Y, _ = algorithms.refine(X, Y, neighbors, refine_iterations=method.post_refinement)
        return rescale_output(Y, method.rescale, X, neighbors)
    return rescale_output(Y, method.rescale)


def _stage(label, info):
    """A long algorithm's progress info as one line, e.g. "PSA: anneal, step 400, T 0.12, f 35.1"."""
    names = {"step": "step", "temperature": "T", "energy": "f", "acceptance": "accepted"}
    parts = [f"{short} {info[key]:.3g}" if isinstance(info[key], float) else f"{short} {info[key]}"
             for key, short in names.items() if key in info]
    return f"{label}: {', '.join([str(info.get('stage', 'running')), *parts])}"


def _drawn_input(X):
    """Coordinates to draw the input in 3-D: X itself, or its top principal components above 3-D."""
    if X.shape[1] <= DRAWN_INPUT_DIMENSIONS:
        return X, [f"x{i + 1}" for i in range(X.shape[1])]
    return (algorithms.embed("pca", X, n_neighbors=1, n_components=DRAWN_INPUT_DIMENSIONS),
            [f"PC{i + 1}" for i in range(DRAWN_INPUT_DIMENSIONS)])


def display_indices(n_samples, cap=catalogue.DISPLAY_CAP, keep=()):
    """The rows a view draws: all of them up to ``cap``, else a seeded uniform subsample plus ``keep``.

    Parameters
    ----------
    n_samples : int
    cap : int
        Most rows drawn (``keep`` may add a few more).
    keep : array-like of int
        Rows always drawn (NIEQA's landmarks, so their overlay has its points).

    Returns
    -------
    ndarray of int or None
        Sorted row indices, or None when every row is drawn. The same for the same arguments: a
        redraw, and the other view, show the same points.

    Examples
    --------
    >>> display_indices(10, cap=20) is None
    True
    >>> rows = display_indices(1000, cap=50, keep=[999])
    >>> len(rows) == len(set(rows)) and 999 in rows and 50 <= len(rows) <= 51
    True
    """
    if n_samples <= cap:
        return None
    drawn = np.random.default_rng(0).choice(n_samples, size=cap, replace=False)
    return np.union1d(drawn, np.asarray(keep, dtype=int))


def failure_message(error, *, otherwise=None, logged_as="computation failed"):
    """The page's message for an exception: a library error as it is, a bug as a pointer to the log.

    Parameters
    ----------
    error : BaseException
    otherwise : str, optional
        The words for anything but a :class:`measures.ProcrustesLabError` (a bug, whose text may name
        server paths); by default "Internal error (its type); the server log has the details."
    logged_as : str
        The server log's line for such an error, with its traceback.

    Tracebacks stay in the server log; the page never shows one.
    """
    if isinstance(error, measures.ProcrustesLabError):
        return str(error)
    logger.error(logged_as, exc_info=error)
    return otherwise or f"Internal error ({type(error).__name__}); the server log has the details."
