"""Celery workers of Procrustes Lab's Celery mode: ``celery -A worker worker``.

Dash's :class:`~dash.CeleryManager` turns every background callback into a Celery task when the
callback is registered, naming it ``background_callback_<hash>`` after the callback's outputs and
source. So a worker builds the same app as the web server (:func:`app.create_app`, same code, same
environment) on the same Celery app; both then agree on every task name, Dash hand-over key and
result-cache key. Configuration (:mod:`settings`), shared with the web server: ``REDIS_URL``, the
broker and result backend (required), and ``PROCRUSTES_CACHE_DIR``, the result cache, which must be
the directory the web server uses; the worker's own ``PROCRUSTES_JOB_DEADLINE`` sets its time limits.
A bad value stops the worker at start, naming the variable.

Use the default prefork pool (``--concurrency`` = the cores to give it): a cancelled job's process is
terminated there; the solo pool cannot stop a running job.
"""

from app import create_app
from serving.celery_app import make_celery_app
from settings import SettingsError, settings

try:
    settings()
except SettingsError as error:  # a bad variable stops the worker at start, named, without a traceback
    raise SystemExit(f"worker.py: {error}") from None
celery_app = make_celery_app(worker=True)
# Building the app registers one task per background callback on celery_app (``celery -A worker``
# finds it there); the app itself never serves in a worker.
dash_app = create_app(celery_app=celery_app)
