"""One embedding timed in a fresh Python process, with that process's peak RSS: the helper of the
algorithm suites whose memory lives outside Python's allocator (SuperLU factors, ARPACK, numba, FFTW),
which :func:`bench.harness.measure`'s tracemalloc does not see.

:func:`run_fresh` starts ``python -c`` on :func:`embedding_run` with JSON arguments and reads one JSON
line back; the child loads the data, times one call, scores the output with ``measures.evaluate`` on
the input's kNN graph and reports ``ru_maxrss`` (Linux: KiB) of its whole life. Each case thus pays
its own imports (and numba's JIT, unless cached: ``NUMBA_CACHE_DIR``), which the peak includes and
the time does not.
"""

import json
import os
import pathlib
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
MARK = "BENCH-RESULT "


def _rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def embedding_run(kind, name, n_samples, n_neighbors, measures_to_score, parameters, warm_up=False):
    """Time one embedding of the swiss roll (seed 0) and score it; returns a JSON-able dict.

    Parameters
    ----------
    kind : {"ours", "sklearn_lle"}
        ``"ours"``: ``algorithms.embed(name, ...)``; ``"sklearn_lle"``: scikit-learn's
        ``LocallyLinearEmbedding(method=name, eigen_solver="arpack")``, the path its "auto" takes at
        these sizes.
    name : str
    n_samples, n_neighbors : int
    measures_to_score : list of str
        Names for ``measures.evaluate`` (empty: none).
    parameters : dict
        Extra keyword arguments of the call.
    warm_up : bool
        First run the same call, untimed, on 500 points: numba's JIT (or loading its cache) and
        first-call imports then stay out of the time, as for a dashboard that has run the method once.
    """
    sys.path.insert(0, str(ROOT))
    import datasets
    import measures

    X = datasets.load("swissroll", n_samples, random_state=0).X
    if warm_up and kind == "ours":
        import algorithms

        algorithms.embed(name, datasets.load("swissroll", 500, random_state=1).X, n_neighbors=n_neighbors, **parameters)
    before = _rss_mib()
    start = time.perf_counter()
    error = None
    Y = None
    try:
        if kind == "ours":
            import algorithms

            Y = algorithms.embed(name, X, n_neighbors=n_neighbors, random_state=0, **parameters)
        else:
            from sklearn.manifold import LocallyLinearEmbedding

            Y = LocallyLinearEmbedding(n_neighbors=n_neighbors, method=name, eigen_solver="arpack", random_state=0,
                                       **parameters).fit_transform(X)
    except Exception as e:  # noqa: BLE001  reported in the row, not raised: a failing baseline is a finding
        error = f"{type(e).__name__}: {e}"
    seconds = time.perf_counter() - start
    scores = {}
    if Y is not None and measures_to_score:
        evaluation = measures.evaluate(X, Y, n_neighbors, which=tuple(measures_to_score))
        scores = {name: float(evaluation.mean[name]) for name in measures_to_score}
    return {"seconds": seconds, "peak_rss_mib": _rss_mib(), "rss_before_mib": before, "error": error,
            "scores": scores}


def run_fresh(kind, name, n_samples, n_neighbors, measures_to_score=(), parameters=None, warm_up=False,
              timeout=1800):
    """:func:`embedding_run` in a new interpreter; its dict, or one with ``error`` set if the child died."""
    arguments = json.dumps([kind, name, n_samples, n_neighbors, list(measures_to_score), parameters or {}, warm_up])
    code = ("import json, sys; from bench.algorithm_runs import MARK, embedding_run; "
            "print(MARK + json.dumps(embedding_run(*json.loads(sys.argv[1]))))")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run([sys.executable, "-c", code, arguments], cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout, env=environment, check=False)
    except subprocess.TimeoutExpired:
        return {"seconds": float(timeout), "peak_rss_mib": None, "error": f"no result within {timeout} s",
                "scores": {}}
    for line in done.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return {"seconds": None, "peak_rss_mib": None, "error": f"exit {done.returncode}: {tail}", "scores": {}}
