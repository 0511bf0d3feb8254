"""What the explore views draw of a run, and what a hover, a click or a selection asks of it (no Dash).

The figures (``components.figures``) draw what :func:`explore_view` prepares: the drawn rows (all of
them, or a seeded subsample above :data:`lab.catalogue.DISPLAY_CAP` that keeps NIEQA's landmarks),
the colouring, the titles and the notes. Events name drawn rows; :func:`data_rows` maps them back to
the data set's rows, on which every number is computed.
"""

import dataclasses
import typing

import numpy as np

import measures

from . import catalogue
from .runs import display_indices

__all__ = ["ExploreView", "coloring", "data_rows", "explore_view", "inspect_point", "selection_summary"]

# Per-point measures a selection summarizes.
SELECTION_MEASURES = ("normalized", "conformal", "asim")


@dataclasses.dataclass(frozen=True, eq=False)
class ExploreView:
    """The drawn part of a run.

    Attributes
    ----------
    rows : ndarray of int or None
        Data-set rows drawn, sorted; None when every row is drawn.
    drawn_X, Y : ndarray
        Drawn input coordinates (first three, or principal components) and output, for those rows.
    landmarks : ndarray of int or None
        Positions among the drawn rows of NIEQA's landmarks (when the overlay is on).
    landmark_configuration : ndarray or None
        Their MDS configuration aligned to the output (NQ Eq. 19).
    input_title, output_title : str
    notes : str
        The run's warnings, and what is drawn how.
    """

    rows: typing.Optional[np.ndarray]
    drawn_X: np.ndarray
    Y: np.ndarray
    landmarks: typing.Optional[np.ndarray]
    landmark_configuration: typing.Optional[np.ndarray]
    input_title: str
    output_title: str
    notes: str


def coloring(result, color, rows=None):
    """Values, colour-bar title and whether they are a local measure, for colouring ``color`` of a run.

    ``color`` is a local measure's registry name or ``"truth-<i>"``. A measure the run did not
    compute (a quadratic one at large n) falls back to local R_N.
    """
    labels = dict(catalogue.LOCAL_MEASURES)
    chosen = slice(None) if rows is None else rows
    if color in labels:
        name = color if color in result.local else "normalized"
        return result.local[name][chosen], f"local {labels[name]} (2–98% range)", True
    column = int(color.rsplit("-", 1)[1])
    column = column if column < result.truth.shape[1] else 0
    return result.truth[chosen, column], result.truth_labels[column], False


def explore_view(request, result, show_landmarks):
    """The drawn rows, coordinates, landmarks, titles and notes of a run.

    Parameters
    ----------
    request : lab.runs.RunRequest
    result : lab.runs.RunResult
    show_landmarks : bool
    """
    n_samples, dimensions = result.X.shape
    landmarks = result.landmarks
    rows = _drawn(result)
    chosen = slice(None) if rows is None else rows
    drawn_landmarks = configuration = None
    if show_landmarks and landmarks is not None:
        drawn_landmarks = (landmarks.indices if rows is None else np.searchsorted(rows, landmarks.indices))
        configuration = landmarks.configuration
    method = request.method
    scale = catalogue.method_output_scale(method.algorithm) if method.rescale == "authors" else method.rescale
    if method.post_refinement:
        scale = f"{scale}, {method.post_refinement} refinement sweeps"
    subsample = "" if rows is None else f" ({len(rows)} drawn)"
    projected = "" if dimensions <= 3 else f", first 3 of {dimensions} dimensions by PCA"
    notes = [*result.notes]
    if rows is not None:
        notes.append(f"The views draw {len(rows)} of the {n_samples} points (a seeded random subsample, NIEQA's "
                     "landmarks included); every number uses all of them.")
    return ExploreView(
        rows=rows, drawn_X=result.drawn_X[chosen], Y=result.Y[chosen], landmarks=drawn_landmarks,
        landmark_configuration=configuration,
        input_title=f"Input: {request.data.label()}, n = {n_samples}{projected}{subsample}",
        output_title=(f"Output: {catalogue.method_label(method.algorithm)}, k = {method.n_neighbors} "
                      f"({scale.replace('_', ' ')})"),
        notes=" ".join(notes))


def _drawn(result):
    """The data-set rows the views draw (None: all), NIEQA's landmarks always among them."""
    return display_indices(result.n_samples, keep=() if result.landmarks is None else result.landmarks.indices)


def data_rows(result, drawn_rows):
    """Data-set rows of drawn rows (trace 0's point numbers), through the display subsample if any."""
    rows = _drawn(result)
    drawn_rows = np.asarray(drawn_rows, dtype=int)
    return drawn_rows if rows is None else rows[drawn_rows]


def selection_summary(result, drawn_rows):
    """A line comparing the selected points' mean local measures with every point's."""
    rows = data_rows(result, drawn_rows)
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
