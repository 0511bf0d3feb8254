"""Two embeddings of the same points side by side: B moved onto A, how far each point moved, and how
each neighbourhood of B differs from the same neighbourhood of A.

:func:`measures.similarity_procrustes` moves B onto A by the similarity transform (a rotation or
reflection, one scale, a shift) that fits best in least squares. What is left, over A's centred size,
is the global Procrustes distance (``disparity`` of :func:`scipy.spatial.procrustes`).
:func:`compare_outputs` adds, per point, the local Procrustes statistics of B's neighbourhood against
the same neighbourhood of A, with A in the input's place (GR Eqs. 4 and 7), from the one kernel,
:func:`measures.local_procrustes`. :class:`PairRequest` does it for two runs
of the dashboard, each computed (or read) through the result cache. No Dash here.

References
----------
.. [GR] Y. Goldberg and Y. Ritov, "Local Procrustes for manifold embedding: a measure of embedding
   quality and embedding algorithms", Machine Learning 77 (2009) 1-25.
"""

import dataclasses
import typing

import numpy as np

import measures

from . import catalogue
from .choices import StateError
from .runs import RunRequest
from .study import compute, register

__all__ = ["PairComparison", "PairRequest", "PairResult", "compare_outputs", "pair_coloring", "selection_summary"]


@dataclasses.dataclass(frozen=True, eq=False)
class PairComparison:
    """Two embeddings compared: the global alignment and, per point, B's neighbourhood against A's.

    Attributes
    ----------
    alignment : measures.SimilarityFit
    local : measures.LocalProcrustes
        :func:`measures.local_procrustes` with A in the input's place and aligned B as the output:
        ``local.normalized`` is R_N of each neighbourhood of B against the same one of A (B at the
        global best scale, so local changes of scale count), ``local.conformal`` R_C (scale-free, in
        [0, 1] and symmetric in A and B).
    """

    alignment: measures.SimilarityFit
    local: measures.LocalProcrustes


def compare_outputs(A: np.ndarray, B: np.ndarray, neighbors: np.ndarray) -> PairComparison:
    """B aligned onto A, and each neighbourhood of B against the same neighbourhood of A.

    Parameters
    ----------
    A, B : array-like of shape (n_samples, d_A), (n_samples, d_B)
        Two embeddings of the same points.
    neighbors : ndarray of shape (n_samples, k + 1)
        The neighbourhoods, point first: the input's (:func:`measures.nearest_neighbors` on X), the
        graph every measure of the two runs uses (SPEC §0).

    Returns
    -------
    PairComparison

    Examples
    --------
    A similarity image of A agrees with A in every neighbourhood:

    >>> rng = np.random.default_rng(1)
    >>> A = rng.normal(size=(40, 2))
    >>> pair = compare_outputs(A, -2.0 * A + 1.0, measures.nearest_neighbors(A, 5))
    >>> bool(np.abs(pair.local.conformal).max() < 1e-12), bool(np.abs(pair.local.normalized).max() < 1e-12)
    (True, True)
    """
    alignment = measures.similarity_procrustes(A, B)
    return PairComparison(alignment, measures.local_procrustes(alignment.reference, alignment.aligned, neighbors))


@dataclasses.dataclass(frozen=True, eq=False)
class PairResult:
    """A computed pair: A's output, B aligned onto it, and what tells them apart.

    Attributes
    ----------
    A, aligned : ndarray of shape (n_samples, d)
        Run A's output and run B's after :func:`measures.similarity_procrustes` (the narrower padded with
        zero columns).
    displacement, local_normalized, local_conformal : ndarray of shape (n_samples,)
        Per point: the distance B's point lies from A's, and R_N, R_C of its neighbourhood in B
        against the same one in A (:class:`PairComparison`).
    distance, scale : float
        The global Procrustes distance and the scale applied to B.
    reflection : bool
        Whether B was mirrored.
    truth : ndarray of shape (n_samples, c)
    truth_labels : tuple of str
        The data's intrinsic colourings.
    summary_a, summary_b : dict
        Each run's measures, name -> (mean, median).
    label_a, label_b : str
        Each run in a few words (:meth:`RunRequest.describe`).
    """

    A: np.ndarray
    aligned: np.ndarray
    displacement: np.ndarray
    local_normalized: np.ndarray
    local_conformal: np.ndarray
    distance: float
    scale: float
    reflection: bool
    truth: np.ndarray
    truth_labels: tuple
    summary_a: dict
    summary_b: dict
    label_a: str
    label_b: str

    @property
    def n_samples(self):
        return self.A.shape[0]

    def to_value(self):
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    @classmethod
    def from_value(cls, value):
        value = dict(value)
        value["truth_labels"] = tuple(value["truth_labels"])
        for key in ("summary_a", "summary_b"):
            value[key] = {name: tuple(pair) for name, pair in value[key].items()}
        return cls(**value)


@register
@dataclasses.dataclass(frozen=True)
class PairRequest:
    """Two runs on the same data: A, the explore run, and B with its method changed (the pairs tab).

    Raises
    ------
    StateError
        When A and B are runs on different data (their points would not correspond).
    """

    KIND: typing.ClassVar[str] = "pair"
    RESULT: typing.ClassVar[type] = PairResult
    a: RunRequest
    b: RunRequest

    def __post_init__(self):
        if self.a.data != self.b.data:
            raise StateError("pair: runs A and B must embed the same points (the same data part); "
                             f"got {self.a.describe()} and {self.b.describe()}.")

    @classmethod
    def from_state(cls, state):
        """The pair of a validated :class:`~lab.view.state.ViewState`: its explore run, and run B of its pairs tab."""
        return cls(RunRequest.from_state(state), RunRequest(state.data, state.pair.method_b(state.method)))

    @property
    def data(self):
        """The data both runs embed."""
        return self.a.data

    @property
    def n_neighbors(self):
        """k of the neighbourhoods B is compared on: run A's."""
        return self.a.method.n_neighbors

    def to_dict(self):
        return {"a": self.a.to_dict(), "b": self.b.to_dict()}

    @classmethod
    def from_dict(cls, values):
        """The pair :meth:`to_dict` wrote, both runs validated again."""
        return cls(RunRequest.from_dict(values.get("a")), RunRequest.from_dict(values.get("b")))

    def slug(self):
        """The stem of the pair's file names, e.g. ``swissroll_n1600_isomap_k10_vs_ltsa_k10``."""
        seed = "" if self.b.method.random_state is None else f"_rs{self.b.method.random_state}"
        return f"{self.a.slug()}_vs_{self.b.method.algorithm}_k{self.b.method.n_neighbors}{seed}"

    def _compute(self, *, cache, progress, uploads):
        return _compute_pair(self, cache, progress, uploads)


def _compute_pair(request, cache, report, uploads):
    """Both runs of a pair through ``cache`` (a run the explore tab showed is read, not computed), then B onto A.

    Parameters
    ----------
    request : PairRequest
    cache : lab.store.cache.ResultCache or None
    report : callable
        ``report(fraction, stage)``.
    uploads : lab.store.uploads.SessionUploads or None
        Where an uploaded data set (and its output) is read.

    Returns
    -------
    PairResult

    Raises
    ------
    measures.ProcrustesLabError
        What a run raises (the message names it), or :class:`measures.MeasureError` for a collapsed output.
    """
    results = []
    for start, name, run in ((0.0, "A", request.a), (0.45, "B", request.b)):
        report(start, f"run {name}: {run.describe()}")

        def step(fraction, stage, start=start, name=name):
            report(start + 0.45 * fraction, f"run {name}: {stage}")

        result, _ = compute(run, cache=cache, progress=step, uploads=uploads)
        results.append(result)
    result_a, result_b = results
    report(0.9, "aligning B onto A")
    pair = compare_outputs(result_a.Y, result_b.Y, measures.nearest_neighbors(result_a.X, request.n_neighbors))
    alignment = pair.alignment
    return PairResult(
        A=alignment.reference, aligned=alignment.aligned,
        displacement=alignment.displacement, local_normalized=pair.local.normalized,
        local_conformal=pair.local.conformal, distance=alignment.distance, scale=alignment.scale,
        reflection=alignment.reflection, truth=result_a.truth, truth_labels=result_a.truth_labels,
        summary_a=dict(result_a.summary), summary_b=dict(result_b.summary), label_a=request.a.describe(),
        label_b=request.b.describe())


def selection_summary(result, rows):
    """A line comparing the selected points' mean per-point values of a pair with every point's.

    Parameters
    ----------
    result : PairResult
    rows : array-like of int
        The selected points (rows of the data).

    Examples
    --------
    >>> points = np.zeros((3, 2))
    >>> result = PairResult(points, points, np.array([0.0, 1.0, 2.0]), np.zeros(3), np.zeros(3), 0.5, 1.0, False,
    ...                     points, ("u", "v"), {}, {}, "A", "B")
    >>> selection_summary(result, [2]).split(", ")[2]
    'displacement 2 (all points 1)'
    """
    rows = np.asarray(rows, dtype=int)
    if not rows.size:
        return "No drawn point is selected."
    parts = [f"{label} {np.nanmean(getattr(result, key)[rows]):.4g} (all points "
             f"{np.nanmean(getattr(result, key)):.4g})" for key, label in catalogue.PAIR_MEASURES.items()]
    noun = "point" if rows.size == 1 else "points"
    return f"{rows.size} {noun} selected, marked in both views. Mean " + ", ".join(parts) + "."


def pair_coloring(result, color, rows=None, seed_noise=None):
    """Values and colour-bar title of colouring ``color`` of a pair (:func:`.catalogue.pair_color_choices`).

    ``seed_noise`` is the pair's :class:`.seed_noise.SeedNoiseResult`, if computed: without it, the
    colouring by displacement over A's seed spread shows the displacement and says what is missing.
    """
    chosen = slice(None) if rows is None else rows
    if color == catalogue.SEED_NOISE_COLOR:
        if seed_noise is None:
            return result.displacement[chosen], "displacement (A's seed spread not computed)"
        return seed_noise.coloring(rows)
    if color in catalogue.PAIR_MEASURES:
        return getattr(result, color)[chosen], catalogue.PAIR_MEASURES[color]
    column = int(color.rsplit("-", 1)[1]) if color.startswith("truth-") else 0
    column = column if column < result.truth.shape[1] else 0
    return result.truth[chosen, column], result.truth_labels[column]

