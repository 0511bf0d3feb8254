"""Loaded before ``tests/conftest.py`` and before numpy: each pytest-xdist worker gets its share of the cores.

Under ``pytest -n N`` the workers are the parallelism. OpenBLAS and OpenMP would otherwise start one thread
per core in every worker, N times too many; their waiting threads spin, and on 2 cores with ``-n 2`` a
dense eigensolver took 10 s instead of 0.5 s (tests/algorithms/test_locally_linear.py), the fast subset
3 min 38 s instead of 2 min 57 s. A variable already set is kept; without xdist nothing changes.
"""

import os

_workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
if _workers:
    _cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, str(max(1, _cores // int(_workers))))
