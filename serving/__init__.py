"""The server side of Procrustes Lab: what runs the page's jobs and answers its HTTP, not the page itself.

- ``managers.py``: Dash's background managers (embedded or Celery), made to account for every job;
- ``deadlines.py``: every job's deadline and its message;
- ``slots.py``: caps on the jobs that run at once (per session, per client address, per host);
- ``celery_app.py``: the Celery app of Celery mode, the web server's and each worker's;
- ``server.py``: security headers, no version strings, client addresses read through trusted proxies;
- ``services.py``: the stores the callbacks and jobs compute and read through (results, uploads, the job ledger).

It sits between ``lab`` and ``app``: it may import the libraries, ``lab``, dash and flask, and of
``components`` only ``components.ids`` (a job's slots read its session from the page's stores by id);
``components`` and ``app`` import it (``tests/test_layering.py``).
"""
