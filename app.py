"""Procrustes Lab: the Dash app. Builds the app, sets the layout, registers the callbacks, runs.

Run ``python app.py`` (``--host``/``--port`` or ``PROCRUSTES_HOST``/``PROCRUSTES_PORT`` to override
127.0.0.1:8050), or serve ``app:server`` with a WSGI server (``gunicorn --workers 2 app:server``, which
reads its threaded workers and server name from ``gunicorn.conf.py``).
By default everything is embedded: background jobs run in processes forked by the server. With
``REDIS_URL`` set (or ``--backend celery``) they run on Celery workers instead, started with
``celery -A worker worker`` (see :mod:`worker`).

Its configuration is read from the environment once, by :func:`settings.settings` (every variable,
its default and its check: :class:`settings.Settings`, and the README's Configuration table); a bad
value stops ``python app.py`` at start with the variable's name.
"""

import argparse
import functools

from components import compare, explore, files, normalization, notebook_link, pairs, state_sync, sweep, tours
from components.entry import guard, report_failure
from components.jobs import register_job_boxes, register_restores
from components.layout import make_layout
from lab.store.cache import cache_directory
from serving.celery_app import make_celery_app
from serving.managers import make_background_manager
from serving.server import ProcrustesDash, QuietRequestHandler, secure
from serving.services import Services
from settings import SettingsError, settings

__all__ = ["create_app", "main", "max_request_bytes"]

BACKENDS = ("diskcache", "celery")


def max_request_bytes(megabytes=None):
    """The request size cap in bytes: ``megabytes`` MiB, else ``PROCRUSTES_MAX_REQUEST_MB`` (80)."""
    return int((settings().max_request_mb if megabytes is None else megabytes) * 2**20)


def create_app(cache_dir=None, *, celery_app=None, max_request_mb=None, start=None, notebook=None):
    """A new Dash app with the Procrustes Lab layout (used by ``main``, the worker and the browser tests).

    Parameters
    ----------
    cache_dir : path-like, optional
        Where background jobs, cached results and uploads live (default ``PROCRUSTES_CACHE_DIR``); the
        browser tests give each app its own.
    celery_app : celery.Celery, optional
        Run background jobs on this Celery app's workers (see :func:`serving.celery_app.make_celery_app`)
        instead of processes forked by the server.
    max_request_mb : float, optional
        Request size cap in MiB (see :func:`max_request_bytes`).
    start : dict, optional
        What every page opens on (:func:`components.layout.make_layout`): a notebook's upload
        session, its upload record and link (:func:`notebook.show`).
    notebook : lab.view.notebook.NotebookPage, optional
        A notebook's page, which the page answers (:mod:`components.notebook_link`): its view and selection
        reach Python, Python's :meth:`~lab.view.notebook.NotebookPage.set_view` and ``select`` reach it.
    """
    directory = cache_directory(cache_dir)
    # Unforeseen callback failures are logged and told on the page instead of answered 500; every callback
    # request passes the entry check before Dash reads it. Responses are compressed (Flask-Compress): the
    # figures' base64 arrays and the components' JSON travel at about 40 % of their size.
    app = ProcrustesDash(__name__, title="Procrustes Lab", suppress_callback_exceptions=True, compress=True,
                         background_callback_manager=make_background_manager(directory, celery_app),
                         on_error=report_failure)
    guard(app)
    # Flask answers a larger body with 413 before any callback reads it.
    app.server.config["MAX_CONTENT_LENGTH"] = max_request_bytes(max_request_mb)
    if settings().secret_key:
        # Dash signs job handles with it; without one, each web process takes a secret stored in
        # the manager's store, which Celery's Redis backend expires after a day (result_expires).
        app.server.secret_key = settings().secret_key
    app.layout = (make_layout if start is None and notebook is None
                  else functools.partial(make_layout, start, answering=notebook is not None))
    services = Services.in_directory(directory)
    state_sync.register(app)
    for tab in (explore, sweep, compare, normalization, pairs, files, tours):
        tab.register(app, services)
    register_job_boxes(app)
    register_restores(app, services)
    if notebook is not None:
        notebook_link.register(app, services, notebook)
    return secure(app)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    try:
        configured = settings()
    except SettingsError as error:  # a bad variable stops the start, named, without a traceback
        parser.error(str(error))
    parser.add_argument("--host", default=configured.host)
    parser.add_argument("--port", type=int, default=configured.port)
    parser.add_argument("--backend", choices=BACKENDS, default="celery" if configured.redis_url else "diskcache",
                        help="where background jobs run: processes of this server (diskcache, the default) or "
                             "Celery workers on $REDIS_URL (celery, the default when REDIS_URL is set)")
    parser.add_argument("--debug", action="store_true", help="Dash dev tools and reloader (never on a shared host)")
    args = parser.parse_args(argv)
    celery_app = None
    if args.backend == "celery":
        try:
            celery_app = make_celery_app()
        except ValueError as error:
            parser.error(str(error))
    create_app(celery_app=celery_app).run(host=args.host, port=args.port, debug=args.debug,
                                          request_handler=QuietRequestHandler)


def __getattr__(name):
    """``app:server`` for a WSGI server (``gunicorn app:server``): the app built from the environment.

    Built on first use, not at import (the worker and the tests import this module too): Celery
    mode when ``REDIS_URL`` is set, as ``python app.py`` would choose.
    """
    if name != "server":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    global server
    server = create_app(celery_app=make_celery_app() if settings().redis_url else None).server
    return server


if __name__ == "__main__":
    main()
