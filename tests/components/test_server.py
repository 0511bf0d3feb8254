"""The HTTP side: no software version in the page's script URLs or in gunicorn's answers; slow bodies (issue 20)."""

import os
import pathlib
import re
import socket
import subprocess
import sys

import dash
import pytest
import requests
from dash.testing.wait import until

from app import create_app
from serving.server import SERVER_NAME
from tests.components.test_celery_browser import _free_port, _stop

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_script_urls_name_no_dash_version_and_still_serve_their_files(tmp_path):
    client = create_app(tmp_path).server.test_client()
    page = client.get("/").get_data(as_text=True)
    scripts = re.findall(r'src="(/_dash-component-suites/[^"]+)"', page)
    assert scripts, page
    version = dash.__version__.replace(".", "_")
    assert version not in page and dash.__version__ not in page
    for script in scripts:
        response = client.get(script)
        assert response.status_code == 200 and len(response.data) > 100, script
        # The browser keeps them (the file time in the name changes with each install).
        assert "max-age" in response.headers.get("Cache-Control", ""), script


def wait_until_serving(server, url, log):
    """Wait until ``server`` (a process we started) answers ``url``; fail with its log if it exits."""
    def answers():
        assert server.poll() is None, f"the server exited:\n{log.read_text()}"
        try:
            return requests.get(url, timeout=10).status_code == 200
        except requests.ConnectionError:
            return False

    until(answers, timeout=120)


@pytest.fixture(scope="module")
def gunicorn_url(tmp_path_factory):
    """The app under gunicorn as the README starts it (gunicorn.conf.py), one worker."""
    directory = tmp_path_factory.mktemp("gunicorn")
    port, log = _free_port(), directory / "gunicorn.log"
    environment = {**os.environ, "PROCRUSTES_CACHE_DIR": str(directory / "cache")}
    environment.pop("REDIS_URL", None)
    with open(log, "wb") as output:
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "1", "--bind",
                                   f"127.0.0.1:{port}", "app:server"], cwd=ROOT, env=environment, stdout=output,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(server, url, log)
        yield url
    finally:
        _stop(server)


def test_gunicorn_names_no_server_software(gunicorn_url):
    response = requests.get(f"{gunicorn_url}/_dash-layout", timeout=30)
    assert response.headers["Server"] == SERVER_NAME
    assert "gunicorn" not in str(response.headers).lower()


def test_slow_request_bodies_do_not_block_page_loads(gunicorn_url):
    """Three clients sending a request body a byte at a time hold three of the worker's threads, not the worker."""
    port = int(gunicorn_url.rsplit(":", 1)[1])
    slow = []
    try:
        for _ in range(3):
            connection = socket.create_connection(("127.0.0.1", port), timeout=30)
            connection.sendall(b"POST /_dash-update-component HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                               b"Content-Length: 100000\r\n\r\n{")
            slow.append(connection)
        for _ in range(3):
            assert requests.get(gunicorn_url, timeout=15).status_code == 200
            assert requests.get(f"{gunicorn_url}/_dash-layout", timeout=15).status_code == 200
    finally:
        for connection in slow:
            connection.close()


def test_uploads_are_charged_to_the_client_address_read_through_the_trusted_proxy(tmp_path, monkeypatch):
    from components.files import client_address

    monkeypatch.setenv("PROCRUSTES_TRUSTED_PROXIES", "1")
    server = create_app(tmp_path).server
    seen = []
    server.add_url_rule("/address", "address", lambda: seen.append(client_address()) or "")
    client = server.test_client()
    client.get("/address", headers={"X-Forwarded-For": "203.0.113.7"}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    monkeypatch.setenv("PROCRUSTES_TRUSTED_PROXIES", "0")  # no proxy: the header is anyone's claim
    direct = create_app(tmp_path / "direct").server
    direct.add_url_rule("/address", "address", lambda: seen.append(client_address()) or "")
    direct.test_client().get("/address", headers={"X-Forwarded-For": "203.0.113.7"},
                             environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert seen == ["203.0.113.7", "10.0.0.1"]


def test_a_fresh_worker_answers_concurrent_script_requests(tmp_path):
    """Dash's first-request setup raced under threads: scripts asked for at once by a new page got HTTP 500."""
    from concurrent.futures import ThreadPoolExecutor

    scripts = re.findall(r'src="(/_dash-component-suites/[^"]+)"',
                         create_app(tmp_path / "page").server.test_client().get("/").get_data(as_text=True))
    port, log = _free_port(), tmp_path / "gunicorn.log"
    environment = {**os.environ, "PROCRUSTES_CACHE_DIR": str(tmp_path / "cache")}
    environment.pop("REDIS_URL", None)
    with open(log, "wb") as output:
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "1", "--bind", f"127.0.0.1:{port}",
                                   "app:server"], cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    try:
        def listening():
            assert server.poll() is None, log.read_text()
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", port)) == 0

        until(listening, timeout=120)  # the first requests a new worker gets are these, all at once
        with ThreadPoolExecutor(len(scripts)) as pool:
            answers = list(pool.map(lambda script: requests.get(f"http://127.0.0.1:{port}{script}", timeout=120)
                                    .status_code, scripts))
        assert answers == [200] * len(scripts), log.read_text()[-3000:]
    finally:
        _stop(server)
