"""Celery mode: a job's deadline holds on the worker, in a sweep's cells and a tour step too (issue 20).

A sweep ran 934 s under a 5 s deadline (its cells caught Celery's soft limit) and a tour step 777 s.
Here a worker with a 2 s deadline runs every kind of job, each far longer than that, sent as the
web server sends them.
"""

import dataclasses

import pytest
from dash.testing.wait import until

from app import create_app
from serving.celery_app import make_celery_app
from lab import ViewState

from .test_celery_browser import redis_url, start_worker  # noqa: F401  (a fixture)
from .test_jobs import _job_arguments, _job_of

pytestmark = [pytest.mark.celery, pytest.mark.filterwarnings("ignore:Call to deprecated setex:DeprecationWarning")]


@pytest.fixture(scope="module")
def hurried_worker(redis_url, tmp_path_factory):  # noqa: F811
    yield from start_worker(redis_url, tmp_path_factory, PROCRUSTES_JOB_DEADLINE="2", PYTHONFAULTHANDLER="1")


def test_every_job_kind_stops_at_its_deadline_on_a_celery_worker(hurried_worker, redis_url):  # noqa: F811
    from dash.background_callback.managers import BaseBackgroundCallbackManager

    manager = create_app(hurried_worker.cache_dir, celery_app=make_celery_app(redis_url))._background_manager
    functions = {_job_of(function): key for key, function, _ in BaseBackgroundCallbackManager.functions
                 if key in manager.func_registry}
    state = ViewState().validated()
    # Every run large enough to take far longer than 2 s (a sweep: many of them); the tour's first step
    # is GR's, several runs from an empty cache.
    state = state.replace(data=dataclasses.replace(state.data, n=20000),
                          normalization=dataclasses.replace(state.normalization, n=20000)).validated().to_dict()
    running = {}
    for job, args in _job_arguments(state).items():
        key = f"celery-deadline-{job}"
        running[job] = (key, manager.call_job_fn(key, manager.func_registry[functions[job]], args, {}))
    for job, (key, task) in running.items():
        result = until(lambda: (lambda value: None if value is manager.UNDEFINED else value)(
            manager.get_result(key, task)), timeout=120)
        assert "stopped at its deadline of 2 s" in str(result), (job, result, hurried_worker.text()[-3000:])


def test_the_time_limits_are_the_workers_never_the_senders():
    """Celery copies a task's limits into each message, where they override the worker's: a sender sets none.

    A web server on the 20-minute default sent its limits to a worker set to 2 s: the worker's hard
    limit never came, and an Isomap job ran 135 s.
    """
    from serving import deadlines
    from settings import settings

    sender, worker = (make_celery_app("redis://127.0.0.1:9/0", worker=side) for side in (False, True))
    def probe():
        """A task as Dash's manager makes one (``celery_app.task(name=...)``)."""

    for app in (sender, worker):
        app.task(name="probe")(probe)
    assert (sender.tasks["probe"].time_limit, sender.tasks["probe"].soft_time_limit) == (None, None)
    assert worker.tasks["probe"].time_limit == settings().job_deadline + deadlines.KILL_GRACE_SECONDS
    assert worker.tasks["probe"].soft_time_limit == settings().job_deadline + deadlines.SOFT_LIMIT_DELAY_SECONDS
