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
import threading
import urllib.parse

import numpy as np

import measures

from ..compute import catalogue
from ..compute.choices import DataChoice, MethodChoice, OutputRef, StateError, UploadRef
from ..compute.runs import RunRequest, parse_uploaded
from ..store.cache import host_results
from ..store.uploads import UploadStore
from .links import from_query, to_query
from .state import ViewState

__all__ = ["NotebookPage", "NotebookStart", "prepare"]


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


def _quoted(value):
    return '"' + str(value).replace('"', '""') + '"'


def _file(columns, labels, metadata):
    """The arrays as one file: an .npy of the numeric columns, or a CSV when text labels or metadata come along
    (the numeric columns ``c0, c1, ...``, then ``label``, then the metadata columns by name)."""
    values = np.column_stack(columns)
    if labels is None and not metadata:
        buffer = io.BytesIO()
        np.save(buffer, values, allow_pickle=False)
        return buffer.getvalue(), "notebook.npy"
    texts = ([] if labels is None else [labels]) + list(metadata.values())
    rows = ("".join(f"{value!r}," for value in row.tolist()) + ",".join(map(_quoted, cells)) + "\n"
            for row, *cells in zip(values, *texts))
    names = [f"c{index}" for index in range(values.shape[1])] + ([] if labels is None else ["label"]) + list(metadata)
    return (",".join(map(_quoted, names)) + "\n" + "".join(rows)).encode(), "notebook.csv"


def prepare(X: np.ndarray, Y: np.ndarray | None = None, *, n_neighbors: int = catalogue.NEIGHBORS.default,
            labels: np.ndarray | None = None, truth: np.ndarray | None = None, algorithm: str | None = None,
            directory: str | pathlib.Path | None = None, metadata: dict | None = None) -> NotebookStart:
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
    metadata : mapping of str to array-like of shape (n_samples,), optional
        Columns carried with the points (names, dates, ...; a DataFrame's columns: ``dict(frame)``),
        searched by the page's Find (``"name starts with ab"``, ``"year >= 1990"``); up to 16.

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
    metadata = {str(name): np.asarray(values).ravel() for name, values in (metadata or {}).items()}
    for name, values in ([] if labels is None else [("labels", labels)]) + list(metadata.items()):
        if values.shape != (X.shape[0],):
            raise measures.DatasetError(f"{name} has {values.size} values for {X.shape[0]} points: give one per point, "
                                        "in the same order.")
    first = sum(part.shape[1] for part in columns) + (labels is not None)
    metadata_columns = tuple(range(first, first + len(metadata))) or None
    content, filename = _file(columns, labels, metadata)
    directory = pathlib.Path(directory) if directory is not None else pathlib.Path(tempfile.mkdtemp(
        prefix="procrustes-lab-"))
    session = secrets.token_urlsafe(24)
    uploads = UploadStore(directory / "uploads").for_session(session)
    reference = UploadRef(uploads.put(content), filename, columns=coordinates, color_column=color_column,
                          truth_columns=truth_columns, output=output, metadata_columns=metadata_columns)
    data = parse_uploaded(reference, uploads, n_neighbors)
    chosen = DataChoice(catalogue.UPLOAD, upload=reference)
    state = ViewState(data=chosen, method=MethodChoice(algorithm or catalogue.DEFAULT_ALGORITHM, n_neighbors))
    state = state.with_dataset(catalogue.UPLOAD, reference).validated()
    record = {**reference.to_dict(), "n": int(data.X.shape[0]), "dim": int(data.X.shape[1]),
              "truth_labels": list(data.truth_labels)}
    return NotebookStart(directory, session, record, state)


class NotebookPage:
    """The page a notebook opened, as Python sees it: what the page reports, and what Python asks of it.

    The page's callbacks (:mod:`components.notebook_link`) tell it the view state the page shows
    (:meth:`report_state`) and the rows the user selected (:meth:`report_selection`); the page polls
    :meth:`orders_after` for the views and selections Python asked for (:meth:`set_view`,
    :meth:`select`). Both sides run in the notebook's kernel (the page's server is a thread of it), so
    the exchange is in memory, under a lock.

    Parameters
    ----------
    start : NotebookStart
        What the page opens on.

    Examples
    --------
    In a notebook, with ``page = show(X, Y)``::

        page.selected                        # the rows of the box, lasso or clicked point, as an array
        page.measures["normalized"][page.selected]   # their local R_N
        page.set_view(algorithm="lle", k=12)         # the page shows LLE at k = 12
        page.select(np.flatnonzero(labels == "3"))   # marked in both views
    """

    def __init__(self, start: NotebookStart):
        self.start = start
        self._lock = threading.Lock()
        self._state = start.state
        self._selection = np.empty(0, dtype=np.intp)
        self._orders = {}  # kind ("view", "select") -> (number, payload): the latest of each kind
        self._number = 0
        # The view Python asked for, until a page that received it reports what it shows: a selection asked
        # meanwhile selects in that view's run. (number of its order, state)
        self._asked = None
        self._handed = 0  # the latest view order handed to a page

    # What the page reports.

    def report_state(self, state: dict) -> ViewState:
        """The view state the page now shows (its store's dict); refused with :class:`StateError`."""
        shown = ViewState.from_dict(state).validated()
        with self._lock:
            self._state = shown
            if self._asked is not None and (shown == self._asked[1] or self._handed >= self._asked[0]):
                self._asked = None
        return shown

    def report_selection(self, rows) -> np.ndarray:
        """The data-set rows the user now selects (none: an empty selection) in the run shown."""
        rows = self._checked_rows(rows)
        with self._lock:
            self._selection = rows
        return rows

    def orders_after(self, number: int) -> list:
        """What Python asked after order ``number`` (a page's last one seen; 0: none): ``[(number, kind,
        payload)]`` in the order asked, the latest of each kind only."""
        with self._lock:
            return sorted((order, kind, payload) for kind, (order, payload) in self._orders.items() if order > number)

    def handed(self, number: int):
        """A page received view order ``number``: what it reports from now on is its answer to it."""
        with self._lock:
            self._handed = max(self._handed, number)

    # What Python reads.

    @property
    def state(self) -> ViewState:
        """The view state the page shows (the one it opened on until it reports another)."""
        with self._lock:
            return self._state

    @property
    def selected(self) -> np.ndarray:
        """The data-set rows selected in the page (box, lasso, a clicked point, a find, or :meth:`select`)."""
        with self._lock:
            return self._selection.copy()

    @property
    def link(self) -> str:
        """The link of the view the page shows (``?algorithm=...``), as its address bar has it."""
        return to_query(self.state)

    def result(self):
        """The shown run's result if it is computed (:class:`~lab.compute.runs.RunResult`), else None."""
        return host_results(self.start.directory).get(RunRequest.from_state(self.state))

    @property
    def measures(self) -> dict:
        """The shown run's per-point measures, ``{name: array of shape (n_samples,)}`` (empty until computed)."""
        result = self.result()
        return {} if result is None else {name: values.copy() for name, values in result.local.items()}

    # What Python asks of the page.

    def set_view(self, state: ViewState | dict | None = None, /, **link) -> ViewState:
        """Show another view: a :class:`ViewState`, or the shown one with some link keys changed.

        Parameters
        ----------
        state : ViewState or dict, optional
            A whole view state, or link keys to change (``{"d.noise": 0.1}``: keys Python names cannot spell).
        **link
            Link keys (:mod:`lab.view.links`) and their values, e.g. ``algorithm="lle", k=12, color="asim"``;
            a list gives a list key's names.

        Returns
        -------
        ViewState
            The validated state the page will show.

        Raises
        ------
        StateError
            An unknown key or a value out of range, with the page's message.
        """
        if isinstance(state, ViewState):
            if link:
                raise TypeError("set_view takes a ViewState or link keys, not both.")
            shown = state.validated()
        else:
            changes = {**(state or {}), **link}
            given = dict(urllib.parse.parse_qsl(self.link.lstrip("?"), keep_blank_values=True))
            given.update({key: ",".join(map(str, value)) if isinstance(value, (list, tuple)) else
                          str(value).lower() if isinstance(value, bool) else str(value)
                          for key, value in changes.items()})
            # The upload the page shows (the user may have brought another file), else the notebook's arrays.
            upload = self.state.data.upload or self.start.state.data.upload
            shown = from_query("?" + urllib.parse.urlencode(given), upload=upload)
        number = self._order("view", shown.to_dict())
        with self._lock:
            self._asked = (number, shown)
        return shown

    def select(self, rows) -> np.ndarray:
        """Select data-set ``rows`` of the run shown, or of the view :meth:`set_view` asked for and the page has not
        shown yet: the page marks them in both views, summarized beneath them, once that run is drawn (another
        view first drops them).

        Raises
        ------
        StateError
            A row that is not a whole number from 0 to n - 1.
        """
        with self._lock:
            target = self._state if self._asked is None else self._asked[1]
        rows = self._checked_rows(rows, target)
        with self._lock:
            self._selection = rows
        self._order("select", {"rows": rows.tolist(), "request": RunRequest.from_state(target).to_dict()})
        return rows

    def _order(self, kind, payload):
        with self._lock:
            self._number += 1
            self._orders[kind] = (self._number, payload)
            return self._number

    def _row_count(self, state):
        """How many rows the data of ``state`` has: its run's, once computed; the arrays' or the set's size; else
        None (a finite set at its default size before its run: the page checks the rows it marks)."""
        result = host_results(self.start.directory).get(RunRequest.from_state(state))
        if result is not None:
            return result.n_samples
        data = state.data
        return self.start.upload["n"] if data.upload == self.start.state.data.upload else data.n

    def _checked_rows(self, rows, state=None):
        values = np.asarray(rows if rows is not None else [], dtype=object)
        n = self._row_count(state or self.state)
        whole = (isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value
                 and (n is None or value < n) for value in values)
        if values.ndim != 1 or not all(whole):
            bound = "" if n is None else f" to {n - 1}"
            raise StateError([f"A selection names data-set rows: whole numbers from 0{bound}."])
        return np.unique(values.astype(np.intp))
