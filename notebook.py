"""The dashboard on arrays in memory, from a notebook: one call, :func:`show`.

:func:`lab.view.notebook.prepare` puts the arrays where the dashboard reads its data (an upload of a
fresh session) and names the view to open; :func:`notebook_app` builds the app whose every page
starts there, and :func:`show` runs it with Dash's ``jupyter_mode`` (inline in the notebook by
default, or in a browser tab). The page is the full dashboard: every view, card, the inspector,
the two-runs tab and the downloads work on the arrays. It answers back: :func:`show` returns the page as
Python sees it (:class:`lab.view.notebook.NotebookPage`), whose view and selection follow the user and
whose ``set_view`` and ``select`` drive the page (:mod:`components.notebook_link`). :func:`write_report`
writes the run the page opens on as one HTML file instead, which opens offline in any browser
(:mod:`components.report`).

The server answers on 127.0.0.1 only. Its pages may be framed (the notebook shows them in an
iframe of another origin, which the site's ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``
forbid); every other security header stays.
"""

from app import create_app
from components.report import write_report as write_run_report
from lab import RunRequest, UploadStore
from lab.compute import compute
from lab.store.cache import host_results
from lab.view.notebook import NotebookPage, prepare

__all__ = ["notebook_app", "show", "write_report"]


class _FramingAllowed:
    """WSGI middleware: the responses without the two headers that forbid framing, the rest unchanged."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        def start(status, headers, exc_info=None):
            kept = []
            for name, value in headers:
                if name.lower() == "x-frame-options":
                    continue
                if name.lower() == "content-security-policy":
                    value = "; ".join(part for part in value.split("; ") if not part.startswith("frame-ancestors"))
                kept.append((name, value))
            return start_response(status, kept, exc_info)

        return self.application(environ, start)


def notebook_app(X, Y=None, *, cache_dir=None, **options):
    """The page Python reads and drives, and the dashboard app (not yet running) whose pages open on ``X`` (and its
    output ``Y``) and answer it: see :func:`show` for the options.

    Returns
    -------
    page : lab.view.notebook.NotebookPage
    app : dash.Dash
    """
    start = prepare(X, Y, directory=cache_dir, **options)
    page = NotebookPage(start)
    app = create_app(start.directory, start=start.to_dict(), notebook=page)
    app.server.wsgi_app = _FramingAllowed(app.server.wsgi_app)
    return page, app


def show(X, Y=None, *, mode="inline", port=8050, height=900, cache_dir=None, **options):
    """Open the dashboard on arrays in memory: the one call of a notebook.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        The points.
    Y : array-like of shape (n_samples, d), optional
        An embedding of them made elsewhere (UMAP, t-SNE, ...): the page measures it as it is. Without
        it, the page runs its default algorithm (or ``algorithm=``) on X.
    mode : {"inline", "external", "tab", "jupyterlab"}
        Dash's ``jupyter_mode``: in the notebook (an iframe), a link, or a browser tab.
    port : int
        The local port (127.0.0.1) the dashboard's server listens on.
    height : int
        Height of the inline frame, in pixels.
    cache_dir : path-like, optional
        Where results and the arrays' file are kept; default a new temporary directory.
    **options
        ``n_neighbors``, ``labels``, ``truth``, ``algorithm``: see :func:`lab.view.notebook.prepare`.

    Returns
    -------
    lab.view.notebook.NotebookPage
        The page as Python sees it, kept up to date while the user works: ``.state`` (the view shown),
        ``.selected`` (the rows of a box, lasso, clicked point or find), ``.measures`` (the shown run's
        per-point arrays), ``.result()``; and what drives it: ``.set_view(algorithm="lle", k=12)``,
        ``.select(rows)``.

    Raises
    ------
    DatasetError
        The upload parser's message for arrays it refuses (NaN, duplicate points, a Y of other rows
        than X, wider than X, or of one repeated point), before anything is served.

    Notes
    -----
    :func:`measures.evaluate` stays the library call for numbers without a page:
    ``measures.evaluate(X, Y, 10).mean["normalized"]`` is the R_N card's value.
    """
    page, app = notebook_app(X, Y, cache_dir=cache_dir, **options)
    app.run(jupyter_mode=mode, host="127.0.0.1", port=port, jupyter_height=height)
    return page


def write_report(path, X, Y=None, *, cache_dir=None, color="normalized", **options):
    """Write the run :func:`show` opens on (``X``, measured as ``Y`` or embedded) as one offline HTML file.

    The file holds the linked input and output views (hover, selection, a colour menu), every measure
    with its direction, mean and median, the run's notes and its provenance, with Plotly's JavaScript
    inline: it opens in any browser without a server or a network (:func:`components.report.run_report`).

    Parameters
    ----------
    path : path-like
        The file to write (``.html``).
    X, Y, cache_dir, **options
        As for :func:`show`; the run is computed into ``cache_dir``'s result cache, so a later
        :func:`show` on the same directory opens it at once.
    color : str
        The colouring shown first: a local measure's name (``"normalized"``, ...) or ``"truth-<i>"``.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    DatasetError
        As for :func:`show`, before anything is computed or written.
    """
    start = prepare(X, Y, directory=cache_dir, **options)
    request = RunRequest.from_state(start.state)
    uploads = UploadStore(start.directory / "uploads").for_session(start.session)
    result, _ = compute(request, cache=host_results(start.directory), uploads=uploads)
    return write_run_report(path, request, result, color=color)
