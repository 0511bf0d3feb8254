"""The normalization study (PN): do normalized-output algorithms collapse long shapes?

For one shape at one aspect ratio (or stretch), each chosen algorithm's output is computed through
the result cache, with its collapse score; for the algorithms whose cost ``Φ`` PN §2 writes down
(LEM, LLE, LTSA), PN's necessary condition ``Φ(Y) <= Φ(Z)`` is checked at this aspect and along a
range of aspects, so the page shows where the condition starts to fail and whether the output did.
No Dash here.
"""

import dataclasses
import typing

import numpy as np

import algorithms
import datasets
import measures
from measures.normalization import NORMALIZED_ALGORITHMS

from .choices import NormalizationChoice, StateError
from .runs import RunRequest, failure_message
from .shapes import CURVE_ASPECTS, SHAPES
from .study import compute, register

__all__ = ["NormalizationRequest", "NormalizationResult", "PhiCurveRequest"]


@dataclasses.dataclass(frozen=True)
class PhiCurve:
    """Algorithm -> Φ(Y)/Φ(Z) at each aspect of :data:`CURVE_ASPECTS`."""

    ratios: dict

    def to_value(self):
        return {"ratios": self.ratios}

    @classmethod
    def from_value(cls, value):
        return cls(value["ratios"])


@dataclasses.dataclass(frozen=True)
class NormalizationResult:
    """What the tab shows.

    Attributes
    ----------
    rows : tuple of dict
        Per algorithm: ``algorithm``, ``label``, ``output``, ``collapse``, ``phi_y``, ``phi_z``, ``ratio``
        (None where PN write no Φ), ``verdict``, ``Y``, ``summary``; or ``algorithm``, ``label`` and
        ``error`` for a failed run.
    color : ndarray
        The truth's first coordinate, colouring every panel.
    color_title : str
    curve : dict of str to list of float
        Algorithm label -> Φ(Y)/Φ(Z) at each of ``aspects``.
    aspects : tuple of float
        :data:`lab.compute.shapes.CURVE_ASPECTS`.
    aspect : float
        The study's aspect.
    aspect_label : str
    message : str
    """

    rows: tuple
    color: typing.Optional[np.ndarray]
    color_title: str
    curve: dict
    aspects: tuple
    aspect: float
    aspect_label: str
    message: str

    @property
    def cacheable(self):
        """Only a study without failures is kept (a failure may be passing: a store busy)."""
        return all("error" not in row for row in self.rows)

    def to_value(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_value(cls, value):
        return cls(**{**value, "rows": tuple(value["rows"]), "aspects": tuple(value["aspects"])})


@register
@dataclasses.dataclass(frozen=True)
class NormalizationRequest:
    """A study of the normalization tab: a validated :class:`lab.compute.choices.NormalizationChoice`."""

    KIND: typing.ClassVar[str] = "normalization"
    # Catalogue data only: no upload to authorize (lab.store.uploads.UploadStore.authorized).
    READS_NO_UPLOAD: typing.ClassVar[bool] = True
    RESULT: typing.ClassVar[type] = NormalizationResult
    shape: str
    aspect: float
    n: typing.Optional[int]
    n_neighbors: int
    algorithms: tuple

    @classmethod
    def from_state(cls, state):
        """The study of a validated :class:`~lab.view.state.ViewState`'s normalization tab."""
        choice = state.normalization
        return cls(choice.shape, choice.aspect, choice.n, choice.n_neighbors, choice.algorithms)

    def to_dict(self):
        return {**dataclasses.asdict(self), "algorithms": list(self.algorithms)}

    @classmethod
    def from_dict(cls, values):
        """The study :meth:`to_dict` wrote, validated as the tab's choice is."""
        return cls(*dataclasses.astuple(NormalizationChoice.from_dict(values).validated()))

    def run_request(self, algorithm):
        """``algorithm``'s run on the shape at this aspect, with the study's n and k.

        Raises
        ------
        lab.compute.choices.StateError
            When the algorithm refuses this k (HLLE needs k > 5 in 2-D).
        """
        entry = SHAPES[self.shape]
        return RunRequest.create(entry.dataset, algorithm, n=self.n, dataset_params=entry.parameters(self.aspect),
                                 n_neighbors=self.n_neighbors)

    def _compute(self, *, cache, progress, uploads):
        return _normalization_study(self, cache, progress)


@register
@dataclasses.dataclass(frozen=True)
class PhiCurveRequest:
    """The Φ ratio curve of a study (cached as one entry, shared by every aspect of one shape):
    Φ(Y)/Φ(Z) (PN Eq. 5-7) of each chosen algorithm with a Φ, at every aspect of :data:`CURVE_ASPECTS`."""

    KIND: typing.ClassVar[str] = "phi_ratio_curve"
    # Catalogue data only: no upload to authorize (lab.store.uploads.UploadStore.authorized).
    READS_NO_UPLOAD: typing.ClassVar[bool] = True
    RESULT: typing.ClassVar[type] = PhiCurve
    dataset: str
    n: typing.Optional[int]
    n_neighbors: int
    algorithms: tuple
    parameters: tuple

    @classmethod
    def of_study(cls, study):
        """The curve of a :class:`NormalizationRequest`'s shape, n, k and algorithms (its aspect aside)."""
        entry = SHAPES[study.shape]
        return cls(entry.dataset, study.n, study.n_neighbors,
                   tuple(name for name in study.algorithms if name in NORMALIZED_ALGORITHMS),
                   tuple(tuple(sorted(entry.parameters(aspect).items())) for aspect in CURVE_ASPECTS))

    def to_dict(self):
        return {**dataclasses.asdict(self), "algorithms": list(self.algorithms),
                "parameters": [[list(pair) for pair in aspect] for aspect in self.parameters]}

    @classmethod
    def from_dict(cls, values):
        """The curve :meth:`to_dict` wrote, validated as the study it belongs to (its parameters derived again)."""
        shapes = [name for name, entry in SHAPES.items() if entry.dataset == values.get("dataset")]
        if not shapes:
            raise StateError([f"phi curve: the data set must be one of the shapes' {sorted(SHAPES)}; "
                              f"got {values.get('dataset')!r}."])
        study = NormalizationRequest.from_dict({key: values.get(key) for key in ("n", "n_neighbors", "algorithms")}
                                               | {"shape": shapes[0]})
        curve = cls.of_study(study)
        if curve.to_dict() != values:
            raise StateError(["phi curve: the parameters and algorithms must be those of the shape's aspect range."])
        return curve

    def _compute(self, *, cache, progress, uploads):
        ratios = {name: [] for name in self.algorithms}
        for done, parameters in enumerate(self.parameters):
            progress(done / len(self.parameters), f"Φ along the aspect range ({done + 1} of {len(self.parameters)})")
            data = datasets.load(self.dataset, self.n, random_state=0, **dict(parameters))
            for name in ratios:
                ratios[name].append(measures.normalization_cost(data.truth, data.X, name, self.n_neighbors).ratio)
        return PhiCurve(ratios)




def _phi_curve(cache, request, report):
    """``Φ(Y)/Φ(Z)`` of each chosen algorithm with a Φ, along the aspect grid (:class:`PhiCurveRequest`)."""
    curve = PhiCurveRequest.of_study(request)
    if not curve.algorithms:
        return {}
    computed = compute(curve, cache=cache, progress=lambda fraction, stage: report(0.6 + 0.4 * fraction, stage))
    return computed.result.ratios


def _normalization_study(request, cache, report):
    """Each chosen algorithm on the shape at the aspect: output, collapse score, Φ(Y) vs Φ(Z) and its curve.

    Parameters
    ----------
    request : NormalizationRequest
    cache : lab.store.cache.ResultCache or None
        Each run, and the Φ curve, go through it.
    report : callable
        ``report(fraction, stage)``.

    Returns
    -------
    NormalizationResult
    """
    if not request.algorithms:
        return NormalizationResult((), None, "", {}, CURVE_ASPECTS, request.aspect, SHAPES[request.shape].aspect_label,
                                   "Choose at least one algorithm.")
    entry = SHAPES[request.shape]
    rows, color, color_title = [], None, ""
    for done, name in enumerate(request.algorithms):
        spec = algorithms.spec(name)
        report(0.6 * done / len(request.algorithms), f"{spec.label} ({done + 1} of {len(request.algorithms)})")
        try:
            result, _ = compute(request.run_request(name), cache=cache)
            row = {"algorithm": spec.name, "label": spec.label, "output": spec.output,
                   "collapse": result.summary["collapse"][0], "phi_y": None, "phi_z": None, "ratio": None,
                   "verdict": "No Φ: PN §2 writes the cost of LEM, LLE and LTSA only.", "Y": result.Y,
                   "summary": {name: list(pair) for name, pair in result.summary.items()}}
            if spec.name in NORMALIZED_ALGORITHMS:
                cost = measures.normalization_cost(result.truth, result.X, spec.name, request.n_neighbors)
                row.update(phi_y=cost.phi_y, phi_z=cost.phi_z, ratio=cost.ratio, verdict=cost.verdict)
        except Exception as error:  # one failing algorithm does not hide the others
            rows.append({"algorithm": spec.name, "label": spec.label, "error": failure_message(error)})
            continue
        rows.append(row)
        color, color_title = result.truth[:, 0], result.truth_labels[0]
    failures = [f"{row['label']}: {row['error']}" for row in rows if "error" in row]
    ratios = _phi_curve(cache, request, report) if color is not None else {}
    done = len(rows) - len(failures)
    message = " ".join(failures) or (f"{entry.label}, {entry.aspect_label} = {request.aspect:g}, "
                                     f"k = {request.n_neighbors}: {done} algorithms.")
    return NormalizationResult(tuple(rows), color, color_title,
                               {algorithms.spec(name).label: values for name, values in ratios.items()},
                               CURVE_ASPECTS, request.aspect, entry.aspect_label, message)
