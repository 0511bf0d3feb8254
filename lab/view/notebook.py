"""Arrays in memory as the dashboard's data: what a notebook's one call opens the page on (no Dash here).

:func:`prepare` writes the points X, and an embedding Y of them made elsewhere, their class labels
or their ground truth, as one uploaded file of a fresh upload session, parses it back as every run
will (so a bad array is refused here, with the upload parser's message), and returns that session,
the record the page keeps for the upload and the view the page opens on. The Dash side,
:func:`notebook.show`, serves the page on them with Dash's ``jupyter_mode`` (lab/ stays
free of Dash, so the call itself lives there).

Example (in a notebook)::

    from notebook import show
    show(X, umap.UMAP().fit_transform(X))   # the dashboard, measuring that output
"""

import dataclasses
import io
import pathlib
import secrets
import tempfile

import numpy as np

import measures

from ..compute import catalogue
from ..compute.choices import DataChoice, MethodChoice, OutputRef, UploadRef
from ..compute.runs import parse_uploaded
from ..store.uploads import UploadStore
from .links import to_query
from .state import ViewState

__all__ = ["NotebookStart", "prepare"]


@dataclasses.dataclass(frozen=True)
class NotebookStart:
    """What a notebook's page opens on.

    Attributes
    ----------
    directory : pathlib.Path
        The cache directory of the app (``results/`` and ``uploads/`` under it).
    session : str
        The upload session that holds the arrays' file (the page's session).
    upload : dict
        The page's record of its chosen upload: :class:`~lab.compute.choices.UploadRef` fields, ``n``, ``dim``
        and ``truth_labels``.
    state : ViewState
        The view the page opens on: the upload, measured as uploaded when Y was given.
    """

    directory: pathlib.Path
    session: str
    upload: dict
    state: ViewState

    @property
    def search(self):
        """The link of :attr:`state` (``?dataset=upload&algorithm=uploaded&k=...``)."""
        return to_query(self.state)

    def to_dict(self):
        """What :func:`components.layout.make_layout` starts a page from."""
        return {"session": self.session, "upload": self.upload, "search": self.search}


def _file(columns, labels):
    """The arrays as one file: an .npy of the numeric columns, or a CSV when text labels come along."""
    values = np.column_stack(columns)
    if labels is None:
        buffer = io.BytesIO()
        np.save(buffer, values, allow_pickle=False)
        return buffer.getvalue(), "notebook.npy"
    rows = ("".join(f"{value!r}," for value in row.tolist()) + '"' + str(label).replace('"', '""') + '"\n'
            for row, label in zip(values, labels))
    header = ",".join(f"c{index}" for index in range(values.shape[1])) + ",label\n"
    return (header + "".join(rows)).encode(), "notebook.csv"


def prepare(X: np.ndarray, Y: np.ndarray | None = None, *, n_neighbors: int = catalogue.NEIGHBORS.default,
            labels: np.ndarray | None = None, truth: np.ndarray | None = None, algorithm: str | None = None,
            directory: str | pathlib.Path | None = None) -> NotebookStart:
    """Put arrays in memory where the dashboard reads its data, and say what the page opens on.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        The points.
    Y : array-like of shape (n_samples, d), optional
        An embedding of them made elsewhere (UMAP, t-SNE, ...), row for row: the page measures it.
        Without it the page runs ``algorithm`` on X.
    n_neighbors : int, default=10
        k of the measures (and of the algorithm).
    labels : array-like of shape (n_samples,), optional
        Class labels (any values; compared as text): they colour the points and enable the label
        measures.
    truth : array-like of shape (n_samples, 1 to 3), optional
        A ground-truth chart of the points.
    algorithm : str, optional
        The algorithm to start with when no Y is given (default: the dashboard's).
    directory : path-like, optional
        The app's cache directory; default a new temporary one.

    Returns
    -------
    NotebookStart

    Raises
    ------
    DatasetError
        What the upload parser refuses (NaN, duplicate points, an output of other rows than X, wider
        than X or of one repeated point, ...), with its message.
    StateError
        An unknown algorithm or a k out of range.
    """
    X = measures.check_points(X, "X", error=measures.DatasetError)
    columns = [X]
    coordinates = tuple(range(X.shape[1]))
    output = truth_columns = color_column = None
    if Y is not None:
        Y = np.asarray(Y, dtype=float)
        Y = Y[:, None] if Y.ndim == 1 else Y
        if Y.shape[0] != X.shape[0]:
            raise measures.DatasetError(f"Y has {Y.shape[0]} rows but X has {X.shape[0]}: give one output row per "
                                        "point, in the same order.")
        output = OutputRef(columns=tuple(range(X.shape[1], X.shape[1] + Y.shape[1])))
        columns.append(Y)
    if truth is not None:
        truth = np.asarray(truth, dtype=float)
        truth = truth[:, None] if truth.ndim == 1 else truth
        start = sum(part.shape[1] for part in columns)
        truth_columns = tuple(range(start, start + truth.shape[1]))
        columns.append(truth)
    if labels is not None:
        labels = np.asarray(labels)
        color_column = sum(part.shape[1] for part in columns)
    content, filename = _file(columns, labels)
    directory = pathlib.Path(directory) if directory is not None else pathlib.Path(tempfile.mkdtemp(
        prefix="procrustes-lab-"))
    session = secrets.token_urlsafe(24)
    uploads = UploadStore(directory / "uploads").for_session(session)
    reference = UploadRef(uploads.put(content), filename, columns=coordinates, color_column=color_column,
                          truth_columns=truth_columns, output=output)
    data = parse_uploaded(reference, uploads, n_neighbors)
    chosen = DataChoice(catalogue.UPLOAD, upload=reference)
    state = ViewState(data=chosen, method=MethodChoice(algorithm or catalogue.DEFAULT_ALGORITHM, n_neighbors))
    state = state.with_dataset(catalogue.UPLOAD, reference).validated()
    record = {**reference.to_dict(), "n": int(data.X.shape[0]), "dim": int(data.X.shape[1]),
              "truth_labels": list(data.truth_labels)}
    return NotebookStart(directory, session, record, state)
