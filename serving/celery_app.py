"""The Celery app of Celery mode (``REDIS_URL``): the web server's, which sends jobs, and each worker's.

:func:`make_celery_app` builds both alike, so that they agree on every task name and setting; only a
worker's carries the jobs' time limits (see its ``worker``).
"""

from celery import Celery

from settings import settings

from . import deadlines

__all__ = ["make_celery_app"]


def make_celery_app(redis_url=None, *, worker=False):
    """The Celery app of Celery mode: broker and result backend both on Redis, jobs that always end.

    The web server (``python app.py --backend celery``) and the workers (``celery -A worker worker``)
    each build it the same way, from the same ``REDIS_URL``.

    - A job is acknowledged when it ends, and re-queued if its worker process dies (late
      acknowledgement, reject on worker lost), so a killed pool process costs a restart, not the job.
    - Every job stops at its deadline (:func:`serving.deadlines.job_deadline`, set for every job by the
      manager); the soft time limit is a backstop seconds later, the hard limit kills a job a minute past it. The limits
      are the worker's (``worker=True``), read from its ``PROCRUSTES_JOB_DEADLINE`` like the job's own
      alarm: a sender's limits would travel in every message and override them (a web server on the
      20-minute default gave its jobs 20 minutes on a worker set to 2 s).
    - Workers record the start of each job (its host and process), so a lost worker is found
      (:class:`serving.managers._CeleryManager`), and keep retrying a broker that went away instead of
      exiting.

    Parameters
    ----------
    redis_url : str, optional
        ``redis://host:port/db``; default ``$REDIS_URL``.
    worker : bool, default=False
        Build a worker's app (``worker.py``): with the time limits. A sender's app sets none.

    Raises
    ------
    ValueError
        If no URL is given and ``REDIS_URL`` is not set.
    """
    configured = settings()
    redis_url = redis_url or configured.redis_url
    if not redis_url:
        raise ValueError("Celery mode needs a Redis server: set REDIS_URL (e.g. redis://127.0.0.1:6379/0), "
                         "or run without --backend celery for the embedded manager.")
    celery_app = Celery("procrustes_lab", broker=redis_url, backend=redis_url)
    celery_app.conf.update(
        # A job is minutes of CPU: a worker takes the next one only when it is free, so a queued job
        # never waits behind a long one while another worker idles.
        worker_prefetch_multiplier=1,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_track_started=True,
        # An unacknowledged job comes back only after this; longer than any job may run.
        broker_transport_options={"visibility_timeout": int(configured.job_deadline
                                                                + 2 * deadlines.KILL_GRACE_SECONDS),
                                  "health_check_interval": 1},
        broker_connection_retry=True,
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,
        # A connection idle across a Redis restart is dead: ping it before use, and reconnect, so that
        # the first request after the restart does not fail.
        redis_backend_health_check_interval=1,
        redis_socket_keepalive=True,
        worker_cancel_long_running_tasks_on_connection_loss=True,
    )
    if worker:
        # Every job's own alarm fires at the deadline (job_deadline); the soft limit is its backstop, a
        # little later so the two never race, and the hard limit kills a job that ignores both. Only
        # the worker sets them: Celery copies a sender's task_time_limit into each message's header,
        # where it takes precedence over the worker's own.
        celery_app.conf.update(
            task_soft_time_limit=configured.job_deadline + deadlines.SOFT_LIMIT_DELAY_SECONDS,
            task_time_limit=configured.job_deadline + deadlines.KILL_GRACE_SECONDS)
    return celery_app
