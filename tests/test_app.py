"""The server's configuration: where it listens, debug, the background manager, the request size cap."""

import html
import json
import os
import pathlib
import re
import socket
import subprocess
import sys

import pytest
import requests
from dash import CeleryManager, Dash, DiskcacheManager

import app as app_module
from tests.components.test_server import wait_until_serving
from app import main, max_request_bytes

ROOT = pathlib.Path(__file__).resolve().parents[1]
MiB = 2**20


@pytest.fixture
def launched(monkeypatch, tmp_path):
    """``launched(argv)``: run ``main(argv)`` without serving; return Dash.run's arguments and the manager."""
    for name in ("PROCRUSTES_HOST", "PROCRUSTES_PORT", "REDIS_URL", "PROCRUSTES_MAX_REQUEST_MB",
                 "PROCRUSTES_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PROCRUSTES_CACHE_DIR", str(tmp_path))
    record, make_background_manager = {}, app_module.make_background_manager

    def make_manager(directory, celery_app=None):
        record["manager"] = manager = make_background_manager(directory, celery_app)
        return manager

    monkeypatch.setattr(app_module, "make_background_manager", make_manager)
    monkeypatch.setattr(Dash, "run", lambda self, **options: record.update(options, server=self.server))

    def launch(argv):
        main(argv)
        return record

    return launch


def test_by_default_it_listens_on_localhost_without_debug_and_embeds_its_jobs(launched):
    record = launched([])
    assert (record["host"], record["port"], record["debug"]) == ("127.0.0.1", 8050, False)
    assert isinstance(record["manager"], DiskcacheManager)
    assert record["server"].config["MAX_CONTENT_LENGTH"] == 80 * MiB


def test_host_port_and_debug_are_asked_for_explicitly(launched, monkeypatch):
    monkeypatch.setenv("PROCRUSTES_HOST", "0.0.0.0")
    monkeypatch.setenv("PROCRUSTES_PORT", "8123")
    assert (launched([])["host"], launched([])["port"]) == ("0.0.0.0", 8123)
    record = launched(["--host", "10.0.0.7", "--port", "9000", "--debug"])
    assert (record["host"], record["port"], record["debug"]) == ("10.0.0.7", 9000, True)


def test_redis_url_selects_celery_mode_and_diskcache_can_still_be_chosen(launched, monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6399/0")  # nothing is sent before a job starts
    manager = launched([])["manager"]
    assert isinstance(manager, CeleryManager)
    assert manager.handle.conf.broker_url == manager.handle.conf.result_backend == "redis://127.0.0.1:6399/0"
    assert isinstance(launched(["--backend", "diskcache"])["manager"], DiskcacheManager)


def test_celery_mode_without_redis_url_names_the_fix(launched, capsys):
    with pytest.raises(SystemExit) as stop:
        launched(["--backend", "celery"])
    assert stop.value.code == 2
    assert "set REDIS_URL (e.g. redis://127.0.0.1:6379/0)" in capsys.readouterr().err


def test_secret_key_comes_from_the_environment(launched, monkeypatch):
    assert not launched([])["server"].secret_key
    monkeypatch.setenv("PROCRUSTES_SECRET_KEY", "shared by every web process")
    assert launched([])["server"].secret_key == "shared by every web process"


@pytest.mark.parametrize("program", [["app.py", "--port", "1"], ["-c", "import worker"]])
def test_a_bad_setting_stops_the_server_and_the_worker_at_start_naming_it(program, tmp_path):
    environment = {**os.environ, "PROCRUSTES_CACHE_DIR": str(tmp_path), "PROCRUSTES_JOB_DEADLINE": "abc"}
    environment.pop("REDIS_URL", None)
    started = subprocess.run([sys.executable, *program], cwd=ROOT, env=environment, capture_output=True, text=True,
                             timeout=120)
    assert started.returncode != 0
    assert "PROCRUSTES_JOB_DEADLINE must be a positive, finite number of seconds; got 'abc'." in started.stderr
    assert "Traceback" not in started.stderr


def test_request_cap_follows_the_environment_and_refuses_nonsense(monkeypatch):
    monkeypatch.setenv("PROCRUSTES_MAX_REQUEST_MB", "2.5")
    assert max_request_bytes() == int(2.5 * MiB)
    assert max_request_bytes(1) == MiB  # an explicit value wins
    for bad in ("eighty", "0", "-3", "nan", "inf"):
        monkeypatch.setenv("PROCRUSTES_MAX_REQUEST_MB", bad)
        with pytest.raises(ValueError, match=f"must be a positive number of MiB; got '{bad}'"):
            max_request_bytes()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``python app.py`` as a user starts it (a 1 MiB request cap from the environment); yields its URL."""
    tmp_path = tmp_path_factory.mktemp("served")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {**os.environ, "PROCRUSTES_CACHE_DIR": str(tmp_path), "PROCRUSTES_MAX_REQUEST_MB": "1"}
    environment.pop("REDIS_URL", None)
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen([sys.executable, "app.py", "--port", str(port)], cwd=ROOT, env=environment,
                                  stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(server, url, log)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_an_oversize_request_gets_413_and_the_server_keeps_serving(served):
    oversize = requests.post(f"{served}/_dash-update-component", data=b"x" * (2 * MiB),
                             headers={"Content-Type": "application/json"}, timeout=60)
    assert oversize.status_code == 413
    layout = requests.get(f"{served}/_dash-layout", timeout=60)
    assert layout.status_code == 200 and "Procrustes Lab" in layout.text


@pytest.mark.parametrize("path", ["/", "/_dash-layout", "/_dash-dependencies", "/assets/style.css", "/nowhere"])
def test_every_response_carries_the_security_headers_and_no_version(served, path):
    response = requests.get(served + path, timeout=60)
    policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy and "object-src 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Server"] == "Procrustes Lab"
    assert "Python" not in response.headers["Server"] and "Werkzeug" not in response.headers["Server"]


def test_the_page_states_no_software_version(served):
    page = requests.get(served + "/", timeout=60).text
    config = json.loads(html.unescape(re.search(r'id="_dash-config" type="application/json">(.*?)</script>',
                                                page, re.S).group(1)))
    assert not {"python_version", "dash_version", "plotly_version"} & set(config)
    assert sys.version.split()[0] not in page and "end_id" in config  # the renderer keeps what it needs
