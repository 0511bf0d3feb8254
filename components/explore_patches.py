"""The explore views' patches and additions for a run (:func:`components.explore.draw_run`): another run of the
points a view holds is sent its colouring and title, not its coordinates (issue 24), and a whole figure gets its
class legend, loss key, neighbour traces and presentation type here.
"""

import hashlib

import numpy as np
from dash import Patch

from .figures import color_update, drawn_columns
from .figures.marks import color_by_class, color_by_losses, loss_range, neighbour_traces, presentation_style

__all__ = ["finish_views", "input_columns", "recoloured_input", "rows_digest", "titled"]


def titled(patch, title):
    """``patch`` (a view's), its figure titled ``title`` too."""
    patch["layout"]["title"]["text"] = title
    return patch


def rows_digest(rows):
    """A short name of the drawn rows (None: every point), so the drawn record tells one subsample from another."""
    return None if rows is None else hashlib.sha256(np.ascontiguousarray(rows, dtype=np.int64)).hexdigest()[:16]


def input_columns(result, view, projection):
    """The input view's drawn coordinates (:func:`components.figures.drawn_columns`): their hover formats."""
    return drawn_columns(view.input.take(result.drawn_X), 3, projection)


def recoloured_input(color, color_range, title, axes, view, columns, *, described, filename):
    """The input view's patch for another run of the points it draws (its drawn ``columns``): trace 0's
    colouring, the title and the file name; the hover ring (trace 1, or in a plane the layout's shapes), the
    selection and the neighbour marks (traces 2 to 4) emptied, as a new figure has them. Its coordinates stay in
    the browser (about a third of a switch's bytes at 1 600 points, most of them at 20 000: issue 24)."""
    patch = Patch()
    for key, value in color_update(color, color_range, title, axes, view.input.rows, False, described,
                                   fixed_columns=columns).items():
        patch["data"][0][key] = value
    three_d = "z" in columns
    for trace in range(1, 3 + len(neighbour_traces(three_d))):
        for axis in "xyz" if three_d else "xy":
            patch["data"][trace][axis] = []
    if not three_d:
        patch["layout"]["shapes"] = []  # the hover ring (assets/linked_views.js)
    patch["layout"]["title"]["text"] = view.input_title
    patch["layout"]["meta"]["filename"] = filename
    return patch


def finish_views(figures, drawn, classes, title, display, losses=None):
    """The views' additions, in place: a class legend or false vs missing neighbours (``losses``,
    :class:`lab.compute.views.NeighbourLosses`) with their key, the neighbour traces, presentation type."""
    top = None if losses is None else loss_range(losses.false, losses.missing)  # every point's losses
    for key, figure in figures.items():
        three_d = key == "input" and display.input_view == "3d"
        if classes is not None:
            color_by_class(figure, drawn[key].take(classes), title, legend=key == "output")
        if losses is not None:
            color_by_losses(figure, drawn[key].take(losses.false), drawn[key].take(losses.missing), top,
                            losses.title, key=key == "output")
        figure.add_traces(neighbour_traces(three_d))
        if display.presentation:
            presentation_style(figure, three_d=three_d)
