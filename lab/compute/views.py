"""What the explore views draw of a run, and what a hover, a click or a selection asks of it (no Dash).

The figures (``components.figures``) draw what :func:`explore_view` prepares: the drawn rows (all of
them, or a seeded subsample above :data:`lab.compute.catalogue.DISPLAY_CAP` that keeps NIEQA's landmarks),
the colouring, the titles and the notes. Events name drawn points; :func:`data_rows` maps them back to
the data set's rows, on which every number is computed.
"""

import dataclasses
import typing

import numpy as np

import measures

from . import catalogue
from .runs import display_indices

__all__ = ["DrawnPoints", "ExploreView", "MarkedNeighbourhood", "NeighbourLosses", "class_labels", "coloring",
           "data_rows", "drawn_rows", "explore_view", "inspect_point", "marked_neighbourhood", "metadata_lines",
           "neighbour_losses", "selection_summary"]

# Per-point measures a selection summarizes.
SELECTION_MEASURES = ("normalized", "conformal", "asim")


@dataclasses.dataclass(frozen=True, eq=False)
class DrawnPoints:
    """What one view draws of a run.

    Attributes
    ----------
    rows : ndarray of int or None
        Data-set rows drawn, sorted; None when every row is drawn (then a drawn point's number is
        its row).
    landmarks : ndarray of int or None
        Positions among the drawn rows of NIEQA's landmarks (when the overlay is on).
    """

    rows: typing.Optional[np.ndarray]
    landmarks: typing.Optional[np.ndarray]

    def take(self, values):
        """``values`` (one per data-set row) at the drawn rows."""
        return values if self.rows is None else values[self.rows]


@dataclasses.dataclass(frozen=True, eq=False)
class ExploreView:
    """The drawn part of a run: the input view's points, the output view's points, titles and notes.

    The 2-D views (the output, and the input drawn in a plane) draw every point up to
    :data:`lab.compute.catalogue.DISPLAY_CAP`; the 3-D input view draws at most
    :data:`lab.compute.catalogue.DISPLAY_CAP_3D` of them (a level of detail: a seeded subsample keeping NIEQA's
    landmarks), since WebGL's 3-D scatter slows past a few tens of thousands.
    """

    input: DrawnPoints
    output: DrawnPoints
    landmark_configuration: typing.Optional[np.ndarray]
    input_title: str
    output_title: str
    notes: str


def class_labels(result):
    """A run's class labels (its one-column colouring) when its measures treated them as classes, else None.

    The digits are coloured by class: the run then computed the measures that need labels.
    """
    labelled = any(measures.spec(name).needs_labels for name in result.summary if name in measures.available())
    return result.truth[:, 0] if labelled and result.truth.shape[1] == 1 else None


def coloring(result, color, rows=None):
    """Values, colour-bar title and whether they are a local measure, for colouring ``color`` of a run.

    ``color`` is a local measure's registry name or ``"truth-<i>"``. A measure the run did not
    compute falls back to local R_N, and a run without it yet (the embedding of a run still measuring,
    :func:`lab.compute.study.compute`'s ``partial``) to its first truth column. ``rows`` (None: all) picks
    the drawn rows.
    :data:`lab.compute.catalogue.NEIGHBOUR_LOSSES` has two values per point (:func:`neighbour_losses`
    paints them); its one-value stand-in here is local R_N, as for a measure not computed.
    """
    labels = dict(catalogue.LOCAL_MEASURES)
    chosen = slice(None) if rows is None else rows
    if color == catalogue.NEIGHBOUR_LOSSES:
        color = "normalized"
    if color in labels:
        name = color if color in result.local else "normalized"
        if name in result.local:
            return result.local[name][chosen], f"local {labels[name]} (2–98% range)", True
        color = "truth-0"
    column = int(color.rsplit("-", 1)[1])
    column = column if column < result.truth.shape[1] else 0
    return result.truth[chosen, column], result.truth_labels[column], False


@dataclasses.dataclass(frozen=True, eq=False)
class NeighbourLosses:
    """Each point's share of a run's false and missing neighbours: its losses of trustworthiness and continuity.

    Attributes
    ----------
    false : ndarray of shape (n_samples,)
        ``1 - t_i``: the point's output neighbours that are far in the input, penalized by their input rank.
    missing : ndarray of shape (n_samples,)
        ``1 - c_i``: the point's input neighbours that are far in the output, penalized by their output rank.
    trustworthiness, continuity : float
        The run's T and C (scikit-learn's exact expression; the losses average to ``1 - T`` and ``1 - C``).
    title : str
        What the colouring shows, with T and C.

    Notes
    -----
    With ``r(i, j)`` the rank of j among the input distances from i and ``r̂(i, j)`` among the output
    distances (Venna & Kaski; :func:`measures.trustworthiness`, :func:`measures.continuity`),

    .. math::

        1 - t_i = \\frac{2}{k (2n - 3k - 1)} \\sum_{j \\in N_k(y_i)} \\max(0, r(i, j) - k), \\qquad
        1 - c_i = \\frac{2}{k (2n - 3k - 1)} \\sum_{j \\in N_k(x_i)} \\max(0, \\hat r(i, j) - k),

    so that ``1 - T = (1/n) sum_i (1 - t_i)`` and ``1 - C = (1/n) sum_i (1 - c_i)``: point i adds
    ``(1 - t_i) / n`` to ``1 - T``, and its loss is 0 exactly when none of its k neighbours ranks past k
    in the other space. ``t_i`` and ``c_i`` are the per-point values of ``measures.evaluate`` (its
    ``trustworthiness_from_penalties``); T and C are scikit-learn's expression of the same sums, so the
    mean of the losses equals ``1 - T`` up to rounding (tested against a full-rank oracle).

    A point has as many false neighbours as missing ones (both ``k - |N_k(x_i) ∩ N_k(y_i)|``, ties
    apart), so the two losses are positive together; they differ in how far those neighbours lie: an
    intruder far in the input (a fold or short circuit) weighs on ``1 - t_i``, a neighbour torn far
    away in the output on ``1 - c_i``. The two hues show which dominates.
    """

    false: np.ndarray
    missing: np.ndarray
    trustworthiness: float
    continuity: float
    title: str


def neighbour_losses(result):
    """A run's per-point false- and missing-neighbour losses (:class:`NeighbourLosses`), or None.

    None when the run did not compute trustworthiness or continuity per point (a run restricted to
    other measures): the views then fall back to local R_N and the notes say why
    (:func:`explore_view`).
    """
    if not all(name in result.local and result.summary.get(name, (None,))[0] is not None
               for name in ("trustworthiness", "continuity")):
        return None
    trust, continuity = result.summary["trustworthiness"][0], result.summary["continuity"][0]
    return NeighbourLosses(
        false=1.0 - np.asarray(result.local["trustworthiness"], dtype=float),
        missing=1.0 - np.asarray(result.local["continuity"], dtype=float),
        trustworthiness=float(trust), continuity=float(continuity),
        title=f"false vs missing neighbours: T = {trust:.4f}, C = {continuity:.4f}")


@dataclasses.dataclass(frozen=True, eq=False)
class MarkedNeighbourhood:
    """One point's neighbourhood in both spaces, as NQ Fig. 1 and PN Fig. 1 E–F mark it.

    Attributes
    ----------
    point : int
        The row marked: the one whose truth lies nearest the truth's centre (its mean).
    input, output : ndarray of int, shape (k,)
        Its k nearest neighbours in the input and in the output (:func:`measures.nearest_neighbors`);
        ``output`` None where only the input is drawn.
    kept : int
        How many of the input's k are among the output's k: ``k M_LC`` at this point (NQ Eq. 2; the
        registry's ``1 − M_LC`` is the share missing).
    """

    point: int
    input: np.ndarray
    output: typing.Optional[np.ndarray]
    kept: int

    @property
    def caption(self):
        """What a panel writes under it: how many of the point's k input neighbours the output kept."""
        return f"marked point: {self.kept} of its {len(self.input)} neighbours kept"


def marked_neighbourhood(result, n_neighbors):
    """The neighbourhood a paper's figure marks in run ``result`` at its k (:class:`MarkedNeighbourhood`)."""
    truth = np.asarray(result.truth, dtype=float)
    point = int(np.argmin(((truth - truth.mean(axis=0)) ** 2).sum(axis=1)))
    near_in = measures.nearest_neighbors(result.X, n_neighbors)[point, 1:]
    near_out = measures.nearest_neighbors(result.Y, n_neighbors)[point, 1:]
    return MarkedNeighbourhood(point, near_in, near_out, int(np.isin(near_in, near_out).sum()))


def drawn_rows(result, view, input_view="3d"):
    """The data-set rows ``view`` ("input" or "output") draws (None: all), NIEQA's landmarks among them."""
    cap = catalogue.DISPLAY_CAP_3D if view == "input" and input_view == "3d" else catalogue.DISPLAY_CAP
    return display_indices(result.n_samples, cap=cap,
                           keep=() if result.landmarks is None else result.landmarks.indices)


def _points(result, view, input_view, show_landmarks):
    rows = drawn_rows(result, view, input_view)
    landmarks = None
    if show_landmarks and result.landmarks is not None:
        indices = result.landmarks.indices
        landmarks = indices if rows is None else np.searchsorted(rows, indices)
    return DrawnPoints(rows, landmarks)


def explore_view(request, result, show_landmarks, input_view="3d", color=None):
    """What the explore views draw of a run, their titles and notes.

    Parameters
    ----------
    request : lab.compute.runs.RunRequest
    result : lab.compute.runs.RunResult
    show_landmarks : bool
    input_view : str
        ``"3d"``, or two digits naming the input coordinates drawn in a plane.
    color : str, optional
        The colouring: a note says when false vs missing neighbours cannot be drawn.
    """
    n_samples, dimensions = result.X.shape
    inputs = _points(result, "input", input_view, show_landmarks)
    outputs = _points(result, "output", input_view, show_landmarks)
    method = request.method
    scale = catalogue.method_output_scale(method.algorithm) if method.rescale == "authors" else method.rescale
    if method.post_refinement:
        scale = f"{scale}, {method.post_refinement} post-refinement sweeps"
    projected = "" if dimensions <= 3 else f", first 3 of {dimensions} dimensions by PCA"
    drawn = "" if inputs.rows is None else f" ({len(inputs.rows)} drawn)"
    notes = [*result.notes]
    if inputs.rows is not None and outputs.rows is None:
        notes.append(f"The 3-D view draws {len(inputs.rows):,} of the {n_samples:,} points (a seeded subsample, "
                     "NIEQA's landmarks included); the output view, and the input drawn in a plane (Input view), "
                     "draw every point. Every number uses all of them.")
    elif outputs.rows is not None:
        notes.append(f"The views draw {len(outputs.rows):,} of the {n_samples:,} points (a seeded random subsample, "
                     "NIEQA's landmarks included); every number uses all of them.")
    if color == catalogue.NEIGHBOUR_LOSSES and neighbour_losses(result) is None:
        notes.append("This run did not compute trustworthiness and continuity per point, so false vs missing "
                     "neighbours cannot be drawn: the views are coloured by local R_N instead.")
    return ExploreView(
        input=inputs, output=outputs,
        landmark_configuration=None if outputs.landmarks is None else result.landmarks.configuration,
        input_title=f"Input: {request.data.label()}, n = {n_samples}{projected}{drawn}",
        output_title=(f"Output: {catalogue.method_label(method.algorithm)}, k = {method.n_neighbors} "
                      f"({scale.replace('_', ' ')})"),
        notes=" ".join(notes))


def metadata_lines(result):
    """Each point's metadata as one hover line, ``"name: ab · year: 1990"`` (an upload's metadata columns, as
    :func:`datasets.parse_upload` read them), or None when the run carries none.

    Examples
    --------
    >>> import types
    >>> run = types.SimpleNamespace(metadata={"name": np.array(["ab", "c"]), "id": np.array([1234567.0, np.nan])})
    >>> metadata_lines(run).tolist()
    ['name: ab · id: 1234567', 'name: c · id: nan']
    """
    if not result.metadata:
        return None
    # Numbers with up to 12 significant digits: an id or a year reads as written, not as 1.23457e+06.
    parts = [np.char.add(f"{name}: ", values if values.dtype.kind == "U" else np.char.mod("%.12g", values))
             for name, values in result.metadata.items()]
    lines = parts[0]
    for part in parts[1:]:
        lines = np.char.add(np.char.add(lines, " · "), part)
    return lines


def data_rows(result, drawn, view="output", input_view="3d"):
    """Data-set rows of the points ``drawn`` (trace 0's point numbers) in ``view``."""
    rows = drawn_rows(result, view, input_view)
    drawn = np.asarray(drawn, dtype=int)
    return drawn if rows is None else rows[drawn]


def selection_summary(result, rows):
    """A line comparing the selected points' mean local measures with every point's (``rows``: data-set rows)."""
    rows = np.asarray(rows, dtype=int)
    if not len(rows):
        return "No drawn point is selected."
    labels = dict(catalogue.LOCAL_MEASURES)
    parts = [f"{labels[name]} {np.nanmean(result.local[name][rows]):.4f} "
             f"(all points {np.nanmean(result.local[name]):.4f})"
             for name in SELECTION_MEASURES if name in result.local]
    return f"{len(rows)} points selected, marked in both views. Their mean local " + ", ".join(parts) + "."


def inspect_point(request, result, index):
    """One neighbourhood aligned as R_N, R_C and ASIM align it (:func:`measures.inspect_neighbourhood`)."""
    neighbors = measures.nearest_neighbors(result.X, request.method.n_neighbors)
    return measures.inspect_neighbourhood(result.X, result.Y, neighbors, int(index))
