"""gunicorn's settings for Procrustes Lab (read from the working directory: ``gunicorn app:server``).

- Threaded workers (``gthread``): a client that sends its request body slowly holds one thread,
  not a whole worker; with sync workers two slow bodies blocked every page load for 20 s (issue 20).
- Responses name no server software: gunicorn's ``Server: gunicorn`` header is its module constant,
  read when each response is built, so it is set here, in the master, before the workers fork.
- Each worker renders the page once before it serves (:func:`post_worker_init`).
"""

import gunicorn.http.wsgi

from serving.server import SERVER_NAME

worker_class = "gthread"
threads = 8
# A worker silent this long is restarted; above the slowest request (an upload parse, a cached draw).
timeout = 120
# Seconds a kept-alive connection may idle between requests (a thread waits on it meanwhile).
keepalive = 5

gunicorn.http.wsgi.SERVER = SERVER_NAME


def post_worker_init(worker):
    """Render the page once in each worker before it serves anyone.

    Dash sets itself up on a process's first request and marks that done before it is (its scripts are
    registered last): with threads, requests arriving meanwhile found no script registered and got
    HTTP 500, and the page never drew (tests/components/test_across_hosts.py, two fresh workers).
    """
    worker.wsgi.test_client().get("/")
