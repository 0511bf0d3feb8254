"""Celery mode across machines (issue 16): a worker with its own cache directory, the app under gunicorn
with two workers and another directory, both on one Redis (broker, and the shared store of results,
uploads and the job ledger). No disk is shared, yet a run, the inspector, a CSV export and a run on an
uploaded file all work.
"""

import os
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest
import requests
from dash.testing.wait import until

import algorithms
import datasets
import measures
from components import ids

from .test_app_browser import WAIT, wait_for_output_title
from .test_celery_browser import _free_port, _stop, redis_url  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.celery, pytest.mark.filterwarnings("ignore:Call to deprecated setex:DeprecationWarning")]

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def hosts(redis_url, tmp_path_factory):  # noqa: F811
    """A worker host and a web host (gunicorn, 2 workers) sharing only Redis; yields the page's URL."""
    store_url = redis_url.rsplit("/", 1)[0] + "/1"  # the shared store beside the broker's database
    common = {**os.environ, "REDIS_URL": redis_url, "PROCRUSTES_STORE_URL": store_url,
              "PROCRUSTES_SECRET_KEY": "across-hosts-test"}
    worker_dir, web_dir = tmp_path_factory.mktemp("worker-host"), tmp_path_factory.mktemp("web-host")
    worker_log, web_log = worker_dir / "worker.log", web_dir / "web.log"
    with open(worker_log, "wb") as output:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "worker", "worker", "--concurrency=2", "--loglevel=INFO",
             "--without-gossip", "--without-mingle"],
            cwd=ROOT, env={**common, "PROCRUSTES_CACHE_DIR": str(worker_dir / "cache")}, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True)
    port = _free_port()
    with open(web_log, "wb") as output:
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}", "--timeout", "120",
             "app:server"],
            cwd=ROOT, env={**common, "PROCRUSTES_CACHE_DIR": str(web_dir / "cache")}, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"

    def ready():
        assert worker.poll() is None, worker_log.read_text()
        assert web.poll() is None, web_log.read_text()
        try:
            return " ready." in worker_log.read_text() and requests.get(url, timeout=5).status_code == 200
        except requests.ConnectionError:
            return False

    try:
        until(ready, timeout=180)
        yield url, worker_dir / "cache", web_dir / "cache"
    finally:
        _stop(web)
        _stop(worker)
        print(worker_log.read_text(errors="replace")[-3000:], web_log.read_text(errors="replace")[-3000:])


def test_a_run_the_inspector_an_export_and_an_upload_work_without_a_shared_disk(dash_duo, hosts, mouse_at, tmp_path):
    url, worker_cache, web_cache = hosts
    dash_duo.driver.get(url)
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    data = datasets.load("swissroll")
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    expected = measures.procrustes(data.X, Y, 10)
    dash_duo.wait_for_text_to_equal(f"#{ids.card_value('normalized')} .card-mean", f"{expected:.4g}", timeout=WAIT)
    # The worker computed it into its own directory; the web host read it from the shared store.
    assert any(worker_cache.rglob("*.val")) and not (web_cache / "dash").exists()

    # The inspector reads the cached run (all points) on whichever gunicorn worker answers.
    mouse_at(ids.OUTPUT_GRAPH, *Y[42], ("mousemove", "mousedown", "mouseup", "click"))
    dash_duo.wait_for_contains_text(f"#{ids.INSPECTOR_TEXT}", "and its k = 10 input neighbours", timeout=WAIT)

    # The points file: every point and its measures, written by the web host from the shared result.
    dash_duo.find_element(f"#{ids.EXPORT_POINTS}").click()
    download = pathlib.Path(dash_duo.download_path) / "procrustes-lab_swissroll_n1600_isomap_k10_points.csv"
    until(lambda: download.exists() and download.stat().st_size > 0, timeout=WAIT)
    time.sleep(1)  # the browser finishes writing
    table = np.loadtxt(download, delimiter=",", comments="#", skiprows=4)
    np.testing.assert_array_equal(table[:, 4:6], Y)

    # An upload on the web host, computed by the worker, which never saw the file on its disk.
    path = tmp_path / "roll.csv"
    points = datasets.load("swissroll", 300).X
    path.write_text("x,y,z\n" + "".join(f"{a!r},{b!r},{c!r}\n" for a, b, c in points.tolist()))
    dash_duo.find_element(".upload summary").click()
    dash_duo.find_element(f"#{ids.UPLOAD}").find_element("css selector", "input[type=file]").send_keys(str(path))
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_MESSAGE}", "Choose the columns", timeout=WAIT)
    dash_duo.find_element(f"#{ids.UPLOAD_USE}").click()
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "your file roll.csv, n = 300", timeout=WAIT)
    expected = measures.procrustes(points, algorithms.embed("isomap", points, n_neighbors=10), 10)
    dash_duo.wait_for_text_to_equal(f"#{ids.card_value('normalized')} .card-mean", f"{expected:.4g}", timeout=WAIT)
