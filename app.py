"""Procrustes Lab: the Dash app. Builds the app, sets the layout, registers the callbacks, runs.

Run ``python app.py`` (``--host``/``--port`` or ``PROCRUSTES_HOST``/``PROCRUSTES_PORT`` to override
127.0.0.1:8050). Everything is embedded: no external service is needed.
"""

import argparse
import os

from dash import Dash

from components.callbacks import register_callbacks
from components.jobs import ResultCache, cache_directory, make_background_manager
from components.layout import make_layout


def create_app(cache_dir=None):
    """A new Dash app with the Procrustes Lab layout (used by ``main`` and by the browser tests).

    Parameters
    ----------
    cache_dir : path-like, optional
        Where background jobs and cached results live (default ``$PROCRUSTES_CACHE_DIR`` or
        ``./cache``); the browser tests give each app its own.
    """
    directory = cache_directory(cache_dir)
    app = Dash(__name__, title="Procrustes Lab", suppress_callback_exceptions=True,
               background_callback_manager=make_background_manager(directory))
    app.layout = make_layout
    register_callbacks(app, ResultCache(directory / "results"))
    return app


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("PROCRUSTES_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PROCRUSTES_PORT", "8050")))
    parser.add_argument("--debug", action="store_true", help="Dash dev tools and reloader (never on a shared host)")
    args = parser.parse_args(argv)
    create_app().run(host=args.host, port=args.port, debug=args.debug)


if __name__ == "__main__":
    main()
