"""Celery mode under chaos (issue 15): a killed pool process, a killed worker, a Redis restart with a
queued job. Each job ends on the page as done or as a message, within seconds; nothing waits for ever,
and the worker survives a broker restart.

Each test starts its own Redis and worker (they are killed and restarted here), the way the README
says: ``celery -A worker worker`` with ``REDIS_URL`` and ``PROCRUSTES_CACHE_DIR``.
"""

import os
import pathlib
import shutil
import signal
import subprocess
import sys

import psutil
import pytest
import redis
from dash.testing.wait import until

from app import create_app
from components import ids
from components.jobs import LOST_JOB
from serving.celery_app import make_celery_app

from .test_app_browser import severe_logs, type_number, wait_for_output_title
from .test_celery_browser import _free_port, _stop

pytestmark = [pytest.mark.celery, pytest.mark.filterwarnings("ignore:Call to deprecated setex:DeprecationWarning")]

ROOT = pathlib.Path(__file__).resolve().parents[2]
WAIT = 180


class Redis:
    """A private redis-server on a fixed port, that a test can restart (its data is lost: no persistence)."""

    def __init__(self, directory):
        self.server = shutil.which("redis-server")
        if self.server is None:
            message = "redis-server is not installed (apt-get install redis-server); Celery mode is untested"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        self.port, self.log, self.process = _free_port(), directory / "redis.log", None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        with open(self.log, "ab") as output:
            self.process = subprocess.Popen([self.server, "--port", str(self.port), "--bind", "127.0.0.1", "--save",
                                             "", "--appendonly", "no"], stdout=output, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        until(self.answers, timeout=30)

    def answers(self):
        try:
            return redis.Redis.from_url(self.url).ping()
        except redis.ConnectionError:
            return False

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)


class Worker:
    """``celery -A worker worker`` of two pool processes on ``redis_url`` and ``cache_dir``."""

    def __init__(self, redis_url, cache_dir, log):
        self.redis_url, self.cache_dir, self.log, self.process = redis_url, cache_dir, log, None

    def start(self):
        environment = {**os.environ, "REDIS_URL": self.redis_url, "PROCRUSTES_CACHE_DIR": str(self.cache_dir)}
        with open(self.log, "ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "worker", "worker", "--concurrency=2", "--loglevel=INFO",
                 "--without-gossip", "--without-mingle"],
                cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        until(lambda: self.text().count(" ready.") > self.starts, timeout=120)
        self.starts += 1

    starts = 0

    def text(self):
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        """SIGKILL the worker and its pool at once, as a crashed host would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)

    def running_task_process(self):
        """The pool process running a task now (the task records its pid when it starts)."""
        for child in psutil.Process(self.process.pid).children():
            if child.cpu_percent(interval=0.5) > 20:
                return child.pid
        return None


@pytest.fixture
def chaos(tmp_path):
    broker = Redis(tmp_path)
    broker.start()
    worker = Worker(broker.url, tmp_path / "cache", tmp_path / "worker.log")
    worker.start()
    try:
        yield broker, worker
    finally:
        if worker.alive():
            _stop(worker.process)
        if broker.process.poll() is None:
            _stop(broker.process)
        print(worker.text())


def start_page(dash_duo, broker, worker):
    dash_duo.start_server(create_app(worker.cache_dir, celery_app=make_celery_app(broker.url)))
    wait_for_output_title(dash_duo, "Isomap, k = 10")


def test_a_killed_pool_process_costs_a_restart_not_the_job(dash_duo, chaos):
    broker, worker = chaos
    start_page(dash_duo, broker, worker)
    type_number(dash_duo, ids.DATASET_SIZE, 3000)
    dash_duo.wait_for_class_to_equal(f"#{ids.job_controls(ids.EXPLORE_JOB)['box']}", "job running", timeout=WAIT)
    pid = until(worker.running_task_process, timeout=WAIT)
    os.kill(pid, signal.SIGKILL)
    # Late acknowledgement and reject-on-worker-lost: the job goes back to the queue and runs again.
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "n = 3000", timeout=WAIT)
    wait_for_output_title(dash_duo, "k = 10", timeout=WAIT)  # the whole run, not its partial one
    assert worker.alive() and "card-mean" in dash_duo.find_element(f"#{ids.card_value('normalized')}").get_attribute(
        "innerHTML")
    assert severe_logs(dash_duo) == []


def test_a_killed_worker_is_reported_within_seconds_and_a_new_one_serves(dash_duo, chaos):
    broker, worker = chaos
    start_page(dash_duo, broker, worker)
    type_number(dash_duo, ids.DATASET_SIZE, 12000)
    dash_duo.wait_for_class_to_equal(f"#{ids.job_controls(ids.EXPLORE_JOB)['box']}", "job running", timeout=WAIT)
    until(worker.running_task_process, timeout=WAIT)
    worker.kill()
    dash_duo.wait_for_text_to_equal(f"#{ids.MESSAGE}", LOST_JOB, timeout=60)
    worker.start()
    type_number(dash_duo, ids.DATASET_SIZE, 500)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "n = 500", timeout=WAIT)


def test_a_redis_restart_erasing_a_queued_job_is_reported_and_the_worker_survives(dash_duo, chaos):
    broker, worker = chaos
    start_page(dash_duo, broker, worker)
    # Restarted under an idle worker, Redis loses nothing the worker needs: it reconnects and keeps serving.
    broker.kill()
    broker.start()
    type_number(dash_duo, ids.DATASET_SIZE, 700)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "n = 700", timeout=WAIT)
    assert worker.alive(), "the worker's main process exited after the broker restart"
    # A job queued while no worker takes it, then erased by a restart: the page stops waiting.
    _stop(worker.process)
    type_number(dash_duo, ids.DATASET_SIZE, 800)
    dash_duo.wait_for_class_to_equal(f"#{ids.job_controls(ids.EXPLORE_JOB)['box']}", "job running", timeout=WAIT)
    broker.kill()
    broker.start()
    dash_duo.wait_for_text_to_equal(f"#{ids.MESSAGE}", LOST_JOB, timeout=90)
    worker.start()
    type_number(dash_duo, ids.DATASET_SIZE, 900)
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "n = 900", timeout=WAIT)
