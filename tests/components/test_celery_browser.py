"""Celery mode in a browser: jobs run on a Celery worker over Redis, results land in the shared cache.

The fixtures start a private ``redis-server`` and a worker the way the README says
(``celery -A worker worker``, ``REDIS_URL``, ``PROCRUSTES_CACHE_DIR``); the web server under test is
built in this process on the same Redis and cache directory. Without ``redis-server`` the tests are
skipped on a developer's machine and fail in CI (``CI`` set), where the README's test command
installs it.
"""

import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys

import numpy as np
import pytest
import redis
from dash.testing.wait import until

import algorithms
import datasets
import measures
from app import create_app
from components import ids
from serving.celery_app import make_celery_app
from lab import ResultCache

from .test_app_browser import wait_for_output_title
from .test_sweep_browser import show_sweep_tab

# Celery 5.7's Redis backend still calls redis-py 8's deprecated ``setex``.
pytestmark = [pytest.mark.celery, pytest.mark.filterwarnings("ignore:Call to deprecated setex:DeprecationWarning")]

ROOT = pathlib.Path(__file__).resolve().parents[2]
WAIT = 180  # a sweep on a busy 2-core machine, the worker sharing the cores with the browser


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _stop(process, timeout=60):
    """Stop a process we started, and what it forked: TERM (Celery's warm shutdown), KILL if it hangs."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: only the worker and its pool
            process.wait(timeout)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A private Redis on a free port, without persistence."""
    server = shutil.which("redis-server")
    if server is None:
        message = "redis-server is not installed (apt-get install redis-server); Celery mode is untested"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    port = _free_port()
    log = tmp_path_factory.mktemp("redis") / "redis.log"
    with open(log, "wb") as output:
        process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                    "--appendonly", "no"], stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    url = f"redis://127.0.0.1:{port}/0"

    def answers():
        assert process.poll() is None, f"redis-server exited:\n{log.read_text()}"
        try:
            return redis.Redis.from_url(url).ping()
        except redis.ConnectionError:
            return False

    try:
        until(answers, timeout=30)
        yield url
    finally:
        _stop(process)


class Worker:
    """A running ``celery -A worker worker`` and what it has logged."""

    def __init__(self, process, log, cache_dir, redis_url):
        self.process, self.log, self.cache_dir, self.redis_url = process, log, cache_dir, redis_url

    def text(self):
        return self.log.read_text(errors="replace")

    def tasks(self, event):
        """``(task name, task id)`` of each background-callback task logged as ``event`` ("received", "succeeded").

        Dash names the task of a callback after its outputs and source: one name per callback.
        """
        return re.findall(rf"Task (background_callback_\w+)\[([\w-]+)\] {event}", self.text())

    def revoked_tasks(self):
        """Ids of the tasks revoked on the worker, as it answers a remote-control query.

        The page revokes a job it stops waiting for: a cancelled one, or one a new trigger of the
        same callback supersedes (the explore run, while the page settles).
        """
        (revoked,) = make_celery_app(self.redis_url).control.inspect(timeout=10).revoked().values()
        return revoked

    def results(self):
        return ResultCache(self.cache_dir / "results")


@pytest.fixture(scope="module")
def celery_worker(redis_url, tmp_path_factory):
    """A prefork worker of two processes on ``redis_url`` and a fresh cache directory."""
    yield from start_worker(redis_url, tmp_path_factory)


def start_worker(redis_url, tmp_path_factory, **settings):
    """Yield a :class:`Worker` started with ``settings`` added to its environment, then stop it."""
    cache_dir = tmp_path_factory.mktemp("celery-cache")
    log = tmp_path_factory.mktemp("celery-worker") / "worker.log"
    environment = {**os.environ, "REDIS_URL": redis_url, "PROCRUSTES_CACHE_DIR": str(cache_dir), **settings}
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "worker", "worker", "--concurrency=2", "--loglevel=INFO",
             "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    worker = Worker(process, log, cache_dir, redis_url)

    def ready():
        assert process.poll() is None, f"the Celery worker exited:\n{worker.text()}"
        return " ready." in worker.text()

    try:
        until(ready, timeout=120)
        yield worker
    finally:
        _stop(process)
        print(worker.text())  # shown by pytest when a test failed


def start_celery_app(dash_duo, celery_worker, redis_url):
    """The web server on the worker's Redis and cache directory, its first explore run done."""
    dash_duo.start_server(create_app(celery_worker.cache_dir, celery_app=make_celery_app(redis_url)))
    # The page's first run is a task unless it is cached already (then the page answers it without a
    # job). A worker that does not know a task drops it, and the page would wait for ever: Dash names a
    # task after its callback's source as read from disk when the app is built, so both sides must
    # build it from the same files.
    title = f"#{ids.OUTPUT_GRAPH} .gtitle"
    until(lambda: any("k = 10" in element.text for element in dash_duo.find_elements(title))
          or "unregistered task" in celery_worker.text(), timeout=WAIT)
    assert "unregistered task" not in celery_worker.text(), (
        "the worker does not know the web app's tasks: the callbacks' source changed on disk after the worker "
        "started (edited while the tests ran?)")


def plotted_trace(dash_duo, graph_id, name):
    script = (f"const gd = document.getElementById('{graph_id}').querySelector('.js-plotly-plot');"
              "return gd && gd.data ? gd.data : null;")
    traces = until(lambda: dash_duo.driver.execute_script(script), timeout=WAIT)
    return next(trace for trace in traces if trace["name"] == name)


def test_a_sweep_runs_on_the_worker_and_its_results_land_in_the_shared_cache(dash_duo, celery_worker, redis_url):
    start_celery_app(dash_duo, celery_worker, redis_url)
    # The page's first run came from the worker (its log line may follow the page by a moment).
    until(lambda: celery_worker.tasks("succeeded"), timeout=WAIT)
    show_sweep_tab(dash_duo, 400)
    explore = {name for name, _ in celery_worker.tasks("received")}
    before = celery_worker.results().stats()

    dash_duo.find_element(f"#{ids.SWEEP_RUN}").click()
    job = ids.job_controls(ids.SWEEP_JOB)
    # Progress travels worker → Redis → page.
    dash_duo.wait_for_contains_text(f"#{job['label']}", " of 25)", timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.SWEEP_MESSAGE}", "25 runs: 25 computed, 0 from the cache", timeout=WAIT)
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job idle", timeout=WAIT)

    # The worker computed every cell into the directory the web server reads (the page's own explore
    # runs, also on the worker, may add to the count while it settles).
    after = celery_worker.results().stats()
    assert after["computed"] >= before["computed"] + 25
    data = datasets.load("swissroll", 400)
    ks = [6, 9, 12, 15, 18]
    scores = [measures.procrustes(data.X, algorithms.embed("isomap", data.X, n_neighbors=k), k) for k in ks]
    np.testing.assert_allclose(plotted_trace(dash_duo, ids.SWEEP_GRAPH, "Isomap")["y"], scores, rtol=1e-10)

    # Again: the worker answers every cell from the shared cache.
    dash_duo.find_element(f"#{ids.SWEEP_RUN}").click()
    dash_duo.wait_for_contains_text(f"#{ids.SWEEP_MESSAGE}", "25 runs: 0 computed, 25 from the cache", timeout=WAIT)
    assert celery_worker.results().stats()["hits"] >= after["hits"] + 25

    # Both sweeps ran to the end on the worker, and fetching their outputs revoked neither
    # (components.jobs._CeleryManager; Dash's own manager revokes, and may kill, every finished job).
    def sweeps():
        return [task for name, task in celery_worker.tasks("succeeded") if name not in explore]

    until(lambda: len(sweeps()) == 2, timeout=WAIT)
    assert not set(sweeps()) & set(celery_worker.revoked_tasks())
    dash_duo.driver.save_screenshot("/tmp/procrustes-lab-celery-sweep.png")
    assert dash_duo.get_logs() == []


def test_cancel_terminates_the_job_on_the_worker_and_stores_nothing_partial(dash_duo, celery_worker, redis_url):
    earlier = len(celery_worker.tasks("received"))  # by other tests on this worker
    start_celery_app(dash_duo, celery_worker, redis_url)
    show_sweep_tab(dash_duo, 1600)
    for name in ("PCA", "Laplacian eigenmaps"):  # more, slower cells: time to cancel
        position = [entry.label for entry in algorithms.specs()].index(name) + 1
        dash_duo.find_element(f"#{ids.SWEEP_ALGORITHMS} label:nth-child({position})").click()
    results = celery_worker.results()
    start = results.stats()["computed"]
    explore = {name for name, _ in celery_worker.tasks("received")[earlier:]}  # the page's runs so far
    job = ids.job_controls(ids.SWEEP_JOB)
    dash_duo.find_element(f"#{ids.SWEEP_RUN}").click()
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job running", timeout=WAIT)
    until(lambda: results.stats()["computed"] >= start + 2, timeout=WAIT)
    (sweep_task,) = [task for name, task in celery_worker.tasks("received")[earlier:] if name not in explore]
    dash_duo.find_element(f"#{job['cancel']}").click()
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job idle", timeout=WAIT)

    # Dash revokes the task with terminate=True: the prefork pool kills the process running it
    # (a solo pool could not, and the sweep would go on computing unseen).
    until(lambda: f"Terminating {sweep_task} " in celery_worker.text(), timeout=WAIT)
    assert sweep_task in celery_worker.revoked_tasks()
    assert sweep_task not in [task for _, task in celery_worker.tasks("succeeded")]
    stopped_at = results.stats()["computed"]
    assert stopped_at < start + 35
    # No partial sweep is shown, and the page says the sweep was cancelled.
    dash_duo.wait_for_text_to_equal(f"#{ids.SWEEP_MESSAGE}", "Cancelled. Shown: nothing has finished yet.",
                                    timeout=WAIT)

    # The worker keeps serving (the pool replaces the killed process), and what the sweep stored is whole.
    dash_duo.find_element(f"#{ids.TABS} .tab:nth-child(1)").click()
    dash_duo.select_dcc_dropdown(f"#{ids.ALGORITHM}", "LLE (normalized)")
    wait_for_output_title(dash_duo, "LLE, k = 10", timeout=WAIT)
    assert float(dash_duo.find_element(f"#{ids.card_value('normalized')} .card-mean").text) > 0.5
    assert results.stats()["computed"] <= stopped_at + 1  # the LLE run only: the sweep is not going on unseen
    assert [entry for entry in dash_duo.get_logs() if entry["level"] == "SEVERE"] == []
