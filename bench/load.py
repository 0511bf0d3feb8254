"""Bounded load test of the dashboard (issue 7): simulated users on loopback, errors, latency, memory.

Starts the app (``app.create_app(cache_dir=<new temporary folder>)``, its Flask server on
127.0.0.1 at a free port) in a subprocess, so that its memory can be read from outside
(``/proc/<pid>/status``), and lets ``--users`` simulated users (threads) use it for ``--seconds``.
Each user loads the page and then, with pauses, changes the data set, the algorithm or k (each
change runs the explore job), changes the colouring, runs a small sweep, or changes k twice in a
row so that the first job is replaced while it runs. After ``--seconds`` no user starts anything
new; a user still waiting for a job waits at most ``--grace`` seconds more, then gives up. The
server and its job processes are then stopped (by process id).

How a user talks to the server is read from the live app, as the browser's Dash renderer does it
(dash 4.4.1, ``dash-renderer/build/dash_renderer.dev.js`` and ``dash/_callback.py``):

- ``GET /`` gives the page's ``_dash-config``, whose ``end_id`` the renderer echoes as ``?endId=``
  on every callback request (background-job handles are signed for it); ``GET /_dash-layout`` and
  ``GET /_dash-dependencies`` give the component tree and the callbacks, so nothing here depends on
  the layout beyond the stable ids of ``components/ids.py`` it acts on.
- A callback is a ``POST /_dash-update-component`` with ``{output, outputs, inputs, state,
  changedPropIds}``; ``ALL`` wildcards are filled with every matching component of the tree. The
  answer's ``response`` props go into the user's copy of the tree, and the callbacks they feed
  fire next, one that waits on another's output after it (on page load: every callback without
  ``prevent_initial_call``).
- A background callback (``background=True``, here the explore run, the sweep and the comparison)
  first answers ``{cacheKey, job}``; the renderer then re-posts the same request with the input and
  state values nulled and ``?cacheKey=&job=`` every ``interval`` ms until an answer holds
  ``response`` (or is 204). Its ``running`` props are set before and reset after, as the renderer
  does; ``progress`` and ``sideUpdate`` props are applied while polling. A job whose outputs are
  requested again while it runs is replaced: the new request carries ``?oldJob=<job>``, on which the
  server kills it, and the old job is no longer polled.

Simplifications: each user waits for one request at a time (a browser sends independent callbacks
at once), clientside callbacks (hover, selection, neighbour marks) are not run (none feeds a server
callback), and ``MATCH``/``ALLSMALLER`` callbacks are not fired (the app has none on the controls used).

Counted as errors (target 0): HTTP status >= 500, a 200 answer that is not JSON, an answer
carrying the app's "Internal error (...)" message (a bug reported to the user), a background job
whose polling ends in 204 without a result (the job died: the page gets nothing), and failed
connections. 4xx answers are counted apart, and so are the tracebacks in the server's log (a job
process's crash is only seen there). Memory: RSS of the server process (start, peak, end;
bounded memory means the end stays near the start) and, apart, the peak of its job processes.

With ``--hostile``, a :class:`HostileClient` (issue 20) floods uploads and jobs under new session
strings and sends slow request bodies, from its own loopback address, beside the users; its figures
are reported apart, and the users' p95 (``p95_seconds``) is what it must not spoil. With
``--versus-quiet`` as well, the same users and seed run first without it, and the ratios of the
users' p95 (requests; jobs, start to result) beside it to those without it are printed last: issue
20 asks for at most 2. A ratio of two runs of one machine, so it is measured here, never asserted
in a test.

Usage (from the repo root)::

    python bench/load.py [--users 20] [--seconds 60] [--grace 60] [--seed 0] [--hostile [--versus-quiet]]
                         [--json PATH]

Only loopback is used; every loop is bounded in time, and the test stops by itself.
"""

import argparse
import base64
import collections
import html
import json
import os
import pathlib
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import requests

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from components import ids  # noqa: E402

__all__ = ["DashUser", "LoadReport", "ServerProcess", "run_load_test"]

HOST = "127.0.0.1"
SERVER_CODE = """
import sys
from app import create_app
create_app(cache_dir=sys.argv[1]).run(host=sys.argv[2], port=int(sys.argv[3]), debug=False)
"""
REQUEST_TIMEOUT = 120  # seconds; one request never waits longer
STARTUP_TIMEOUT = 90
MAX_CALLBACKS_PER_ACTION = 60  # a chain of callbacks longer than this is cut (none is, in this app)
INTERNAL_ERROR = "Internal error ("  # the app's message for an unexpected exception (lab.failure_message)
# User actions and their weights. Sweeps use cheap algorithms and three k, so one sweep is seconds of work.
ACTIONS = {"dataset": 2, "algorithm": 3, "k": 3, "colour": 1, "sweep": 1, "replace_job": 1, "reload": 0.5,
           "upload": 1}
# The upload scenario: a CSV of this many MB (3 000 points of a noisy plane in 40 columns, long numbers),
# sent as the browser sends it (base64 in the callback), then "Use this data" with PCA; each user is its
# own browser session (its own upload quota).
UPLOAD_MB = 4.0
UPLOAD_ROWS, UPLOAD_COLUMNS = 3_000, 40
UPLOAD_ACCEPTED = "Choose the columns, then Use this data."
UPLOAD_USED = "Using "
# The hostile client (issue 20): its own loopback address (Linux routes all of 127/8 to the loopback), a
# pause between two requests of each flood, its slow bodies and the pause between two of their bytes.
HOSTILE_ADDRESS = "127.0.0.2"
# User i connects from 127.0.1.(i + 1): each user is another client, as people on their own machines
# are (the server caps jobs per client address).
USER_ADDRESS = "127.0.1.{}"
HOSTILE_PAUSE_SECONDS = 0.5
SLOW_BODIES = 4
SLOW_BODY_PAUSE_SECONDS = 1.0
SWEEP_CHOICES = ("pca", "isomap", "lle", "laplacian", "diffusion_maps", "gp")
THINK_SECONDS = (0.5, 2.0)
MEMORY_SAMPLE_SECONDS = 0.2


# ------------------------------------------------------------------ the server and its memory

def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _rss_mib(pid):
    """Resident set size of process ``pid`` in MiB (``VmRSS``), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        return None
    return 0.0  # a zombie has no VmRSS line


def _descendants(pid):
    """Process ids of every descendant of ``pid`` (from ``/proc/*/stat``)."""
    children = collections.defaultdict(list)
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the fields after the last ")" are fixed.
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children[parent].append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


class ServerProcess:
    """The app's Flask server in a subprocess on a free loopback port, its memory sampled meanwhile.

    Parameters
    ----------
    cache_dir : path-like
        The app's cache folder (results and background-job hand-over).
    log_path : path-like
        The server's stdout and stderr (request log, tracebacks).
    """

    def __init__(self, cache_dir, log_path):
        self.port = _free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log_path = pathlib.Path(log_path)
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen([sys.executable, "-c", SERVER_CODE, str(cache_dir), HOST, str(self.port)],
                                        cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT)
        self.samples = []  # (time, server RSS MiB, jobs' RSS MiB, number of job processes)
        self._stop_sampling = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def wait_until_ready(self):
        """Wait until ``GET /`` answers 200; raise RuntimeError (with the log) if it never does."""
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.process.returncode}:\n{self.log_tail()}")
            try:
                if requests.get(self.url + "/", timeout=5).status_code == 200:
                    self._sampler.start()
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.25)
        raise RuntimeError(f"the server did not answer within {STARTUP_TIMEOUT} s:\n{self.log_tail()}")

    def _sample(self):
        while not self._stop_sampling.is_set():
            server = _rss_mib(self.process.pid)
            if server is None:
                return
            jobs = [rss for rss in map(_rss_mib, _descendants(self.process.pid)) if rss]
            self.samples.append((time.monotonic(), server, sum(jobs), len(jobs)))
            self._stop_sampling.wait(MEMORY_SAMPLE_SECONDS)

    def rss_mib(self):
        """The server process's RSS now, in MiB."""
        return _rss_mib(self.process.pid)

    def log_tail(self, characters=4000):
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-characters:]

    def tracebacks(self):
        """Every traceback the server printed, as text blocks."""
        self._log.flush()
        lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        blocks, current = [], None
        for line in lines:
            if line.startswith("Traceback (most recent call last)"):
                current = [line]
                blocks.append(current)
            elif current is not None:
                current.append(line)
                if line and not line.startswith((" ", "\t")) and not line.startswith("Traceback"):
                    current = None  # the exception line closes the block
        return ["\n".join(block) for block in blocks]

    def stop(self):
        """Stop the sampler, then the job processes and the server, each by its process id."""
        self._stop_sampling.set()
        if self._sampler.is_alive():
            self._sampler.join(timeout=5)
        jobs = _descendants(self.process.pid)
        for pid in [*jobs, self.process.pid]:
            try:
                signal_process(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        deadline = time.monotonic() + 10
        for pid in jobs:
            while _rss_mib(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _rss_mib(pid):
                try:
                    signal_process(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self._log.close()


def signal_process(pid, number):
    """Send signal ``number`` to the one process ``pid`` (never a group or a name)."""
    os.kill(pid, number)


# ------------------------------------------------------------------ one simulated user

def _stringify_id(component_id):
    """Dash's string form of a component id (``dash._utils.stringify_id``: sorted keys, no spaces)."""
    if isinstance(component_id, dict):
        items = (f"{json.dumps(key)}:{json.dumps(component_id[key])}" for key in sorted(component_id))
        return "{" + ",".join(items) + "}"
    return component_id


def _split_prop_id(prop_id):
    """``"id.prop"`` (the id possibly a JSON dict) → (id string, prop)."""
    component, _, prop = prop_id.rpartition(".")
    return component, prop


def _parse_id(text):
    """A dependency's id: a plain string, or the dict of a pattern-matching id."""
    return json.loads(text) if text.startswith("{") else text


def _wildcard(component_id):
    """The wildcard of a pattern id (``"ALL"``, ``"MATCH"``, ``"ALLSMALLER"``), or None."""
    if isinstance(component_id, dict):
        for value in component_id.values():
            if isinstance(value, list) and len(value) == 1 and value[0] in ("ALL", "MATCH", "ALLSMALLER"):
                return value[0]
    return None


def _matches(pattern, component_id):
    """Whether concrete dict id ``component_id`` fits the pattern id ``pattern``."""
    return (isinstance(component_id, dict) and component_id.keys() == pattern.keys()
            and all(isinstance(value, list) or component_id[key] == value for key, value in pattern.items()))


class Callback:
    """One server-side callback of ``/_dash-dependencies``, parsed."""

    def __init__(self, spec):
        self.spec = spec
        self.output = spec["output"]
        parts = self.output[2:-2].split("...") if self.output.startswith("..") else [self.output]
        self.multi = self.output.startswith("..")
        self.outputs = [(_parse_id(component), prop) for component, prop in map(_split_prop_id, parts)]
        self.inputs = [(_parse_id(dep["id"]), dep["property"]) for dep in spec["inputs"]]
        self.state = [(_parse_id(dep["id"]), dep["property"]) for dep in spec["state"]]
        self.background = spec.get("background")
        self.running = spec.get("running") or {}
        self.initial = not spec.get("prevent_initial_call")
        self.fires = not spec.get("clientside_function") and not any(
            _wildcard(component) in ("MATCH", "ALLSMALLER") for component, _ in [*self.inputs, *self.outputs])
        first = self.outputs[0]
        self.name = f"{_stringify_id(first[0])}.{first[1].split('@')[0]}" + ("+" if len(self.outputs) > 1 else "")

    def listens_to(self, prop_id):
        """Whether a change of ``prop_id`` ("id.prop") triggers this callback."""
        component, prop = _split_prop_id(prop_id)
        concrete = _parse_id(component)
        for dependency, dependency_prop in self.inputs:
            if dependency_prop != prop:
                continue
            if dependency == concrete or (_wildcard(dependency) == "ALL" and _matches(dependency, concrete)):
                return True
        return False

    def feeds(self, other):
        """Whether one of this callback's outputs is an input of ``other`` (the renderer runs this first)."""
        return any(other.listens_to(f"{_stringify_id(component)}.{prop.split('@')[0]}")
                   for component, prop in self.outputs if not _wildcard(component))


class Recorder:
    """Thread-safe record of requests (kind, seconds, status), errors and counters, shared by all users."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = collections.defaultdict(list)
        self.statuses = collections.Counter()
        self.errors = []
        self.client_errors = []
        self.client_failures = []  # exceptions of the load test's own code, with tracebacks
        self.abandoned = []  # jobs still running when the users' grace ended: what they were, how far
        self.started = time.monotonic()
        self.counters = collections.Counter()

    def request(self, kind, seconds, status):
        with self.lock:
            self.latencies[kind].append(seconds)
            self.statuses[status] += 1

    def error(self, kind, detail):
        with self.lock:
            self.errors.append({"kind": kind, "at_seconds": round(time.monotonic() - self.started, 1), **detail})

    def client_error(self, kind, detail):
        with self.lock:
            self.client_errors.append({"kind": kind, **detail})

    def client_failure(self, text):
        with self.lock:
            self.client_failures.append(text)

    def count(self, name, amount=1):
        with self.lock:
            self.counters[name] += amount

    def abandoned_job(self, detail):
        with self.lock:
            self.counters["jobs abandoned at the deadline"] += 1
            self.abandoned.append(detail)


class DashUser:
    """One simulated browser tab: its copy of the layout, its page load token, its running jobs.

    Parameters
    ----------
    url : str
        The server, ``http://127.0.0.1:<port>``.
    recorder : Recorder
    rng : random.Random
    give_up_at : float
        ``time.monotonic()`` after which a job is no longer polled (the test's deadline plus grace).
    """

    def __init__(self, url, recorder, rng, give_up_at, source_address=None):
        self.url = url
        self.recorder = recorder
        self.rng = rng
        self.give_up_at = give_up_at
        self.session = requests.Session()
        if source_address:
            self.session.mount(url, _FromAddress(source_address))
        self.jobs = {}  # running background jobs this tab still knows: job handle -> JSON of its outputs
        self.polls_jobs = True  # False: jobs are started and forgotten (the hostile client's flood)

    # -- HTTP

    def _get(self, path):
        kind = f"GET {path}"
        start = time.monotonic()
        try:
            response = self.session.get(self.url + path, timeout=REQUEST_TIMEOUT)
        except requests.RequestException as error:
            self.recorder.error(kind, {"error": repr(error)})
            return None
        self.recorder.request(kind, time.monotonic() - start, response.status_code)
        if response.status_code >= 400:
            self._bad_status(kind, response, None)
            return None
        return response

    def _post(self, kind, payload, params):
        start = time.monotonic()
        try:
            response = self.session.post(self.url + "/_dash-update-component", params=params, json=payload,
                                         timeout=REQUEST_TIMEOUT)
        except requests.RequestException as error:
            self.recorder.error(kind, {"error": repr(error), "request": _summary(payload, params)})
            return None
        self.recorder.request(kind, time.monotonic() - start, response.status_code)
        if response.status_code == 204:  # PreventUpdate, or a replaced job's last poll
            return {}
        if response.status_code != 200:
            self._bad_status(kind, response, _summary(payload, params))
            return None
        try:
            data = response.json()
        except ValueError:
            self.recorder.error(kind, {"status": 200, "error": "answer is not JSON", "body": response.text[:1000],
                                       "request": _summary(payload, params)})
            return None
        if INTERNAL_ERROR in response.text:
            self.recorder.error(kind, {"status": 200, "error": "the app reported an internal error",
                                       "body": _excerpt(response.text, INTERNAL_ERROR),
                                       "request": _summary(payload, params)})
        return data

    def _bad_status(self, kind, response, request):
        detail = {"status": response.status_code, "body": response.text[:1000], "request": request}
        if response.status_code >= 500:
            self.recorder.error(kind, detail)
        else:
            self.recorder.client_error(kind, detail)

    # -- the page and its copy of the layout

    def load_page(self):
        """``GET /``, the layout and the callbacks, then every initial callback. False if the page failed."""
        self.recorder.count("page loads")
        page = self._get("/")
        layout = self._get("/_dash-layout")
        dependencies = self._get("/_dash-dependencies")
        if page is None or layout is None or dependencies is None:
            return False
        match = re.search(r'<script id="_dash-config" type="application/json">(.*?)</script>', page.text, re.S)
        config = json.loads(html.unescape(match.group(1))) if match else {}
        self.end_id = config.get("end_id")
        self.layout = layout.json()
        self.callbacks = [callback for callback in map(Callback, dependencies.json()) if callback.fires]
        self.jobs = {}
        self._index()
        # dcc.Location reports the address when it mounts.
        self._set(f"{ids.URL}.pathname", "/")
        self._set(f"{ids.URL}.search", "")
        self._run([callback for callback in self.callbacks if callback.initial and self._present(callback)], {})
        return True

    def _index(self):
        """Map every component id (string form) to its node of the layout tree (through ``children``)."""
        self.components = {}
        stack = [self.layout]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(reversed(node))
            elif isinstance(node, dict) and "props" in node:
                props = node["props"]
                if "id" in props:
                    self.components[_stringify_id(props["id"])] = node
                if isinstance(props.get("children"), (list, dict)):
                    stack.append(props["children"])

    def _present(self, callback):
        return any(_wildcard(component) or _stringify_id(component) in self.components
                   for component, _ in callback.outputs)

    def prop(self, component, prop, default=None):
        node = self.components.get(_stringify_id(component))
        return default if node is None else node["props"].get(prop, default)

    def _set(self, prop_id, value):
        """Set one prop in the tree (re-index after new children); returns the prop id."""
        component, prop = _split_prop_id(prop_id)
        node = self.components.get(component)
        if node is not None:
            node["props"][prop] = value
            if prop == "children":
                self._index()
        return prop_id

    def _apply(self, updates):
        """Apply ``{"id.prop": value}`` or ``{id: {prop: value}}`` updates; returns the changed prop ids."""
        changed = set()
        for key, value in (updates or {}).items():
            if isinstance(value, dict) and "." not in key.rpartition("}")[2]:
                changed |= {self._set(f"{key}.{prop}", item) for prop, item in value.items()}
            else:
                changed.add(self._set(key, value))
        return changed

    # -- callbacks

    def _dependency_values(self, dependencies):
        values = []
        for component, prop in dependencies:
            if _wildcard(component) == "ALL":
                values.append([self._value_entry(node["props"]["id"], prop) for node in self.components.values()
                               if _matches(component, node["props"]["id"])])
            else:
                values.append(self._value_entry(component, prop))
        return values

    def _value_entry(self, component, prop):
        entry = {"id": component, "property": prop}
        node = self.components.get(_stringify_id(component))
        if node is not None and prop in node["props"]:  # the renderer leaves out an unset prop's value
            entry["value"] = node["props"][prop]
        return entry

    def _payload(self, callback, triggers):
        outputs = []
        for component, prop in callback.outputs:
            if _wildcard(component) == "ALL":
                outputs.append([{"id": node["props"]["id"], "property": prop} for node in self.components.values()
                                if _matches(component, node["props"]["id"])])
            else:
                outputs.append({"id": component, "property": prop})
        payload = {"output": callback.output, "outputs": outputs if callback.multi else outputs[0],
                   "inputs": self._dependency_values(callback.inputs), "changedPropIds": sorted(triggers)}
        if callback.state:
            payload["state"] = self._dependency_values(callback.state)
        return payload

    def _run(self, callbacks, triggers):
        """Fire ``callbacks`` (with their trigger sets) and every callback their outputs feed, in order."""
        pending = {id(callback): (callback, set(triggers.get(id(callback), ()))) for callback in callbacks}
        fired = 0
        while pending and fired < MAX_CALLBACKS_PER_ACTION:
            waiting = [entry for entry in pending.values()
                       if any(other is not entry[0] and other.feeds(entry[0]) for other, _ in pending.values())]
            ready = [entry for entry in pending.values() if entry not in waiting] or list(pending.values())
            callback, callback_triggers = ready[0]
            del pending[id(callback)]
            changed = self._fire(callback, callback_triggers)
            if f"{ids.RUN_SHOWN}.data" in changed:  # a run reached the views, from the cache or a job
                self.recorder.count("runs shown")
            fired += 1
            for other in self.callbacks:
                hits = {prop_id for prop_id in changed if other.listens_to(prop_id)}
                if hits and self._present(other):
                    entry = pending.setdefault(id(other), (other, set()))
                    entry[1].update(hits)

    def changed(self, prop_id, value):
        """A user's change of one prop (a dropdown, a slider, a click): set it and run what it triggers."""
        self._set(prop_id, value)
        self._run([callback for callback in self.callbacks if callback.listens_to(prop_id)],
                  {id(callback): {prop_id} for callback in self.callbacks if callback.listens_to(prop_id)})

    def _fire(self, callback, triggers, abandon_after_first_poll=False):
        """One callback, a background one polled to its end; returns the prop ids it changed."""
        payload = self._payload(callback, triggers)
        params = {"endId": self.end_id} if self.end_id else {}
        if not callback.background:
            data = self._post(f"callback {callback.name}", payload, params)
            return self._apply((data or {}).get("response")) | self._apply((data or {}).get("sideUpdate"))
        # The renderer replaces a job still running for the same outputs: oldJob makes the server kill it.
        outputs_json = json.dumps(payload["outputs"])
        old_jobs = [job for job, outputs in self.jobs.items() if outputs == outputs_json]
        for job in old_jobs:
            del self.jobs[job]
        self.recorder.count("jobs replaced while running", len(old_jobs))
        changed = self._apply(callback.running.get("running"))
        started = time.monotonic()
        data = self._post(f"job start {callback.name}", payload, {**params, "oldJob": old_jobs} if old_jobs else params)
        if data is None or "job" not in data:
            return changed | self._apply(callback.running.get("runningOff"))
        self.recorder.count("jobs started")
        if not self.polls_jobs:  # never polled, never replaced: the job runs on (or waits) by itself
            return changed
        job, cache_key = data["job"], data["cacheKey"]
        self.jobs[job] = outputs_json
        polled = json.loads(json.dumps(payload))
        for entry in [*polled["inputs"], *polled.get("state", [])]:  # the renderer nulls them when polling
            for item in entry if isinstance(entry, list) else [entry]:
                item["value"] = None
        interval = (callback.background.get("interval") or 500) / 1000
        progress = None
        while True:
            time.sleep(interval)
            if time.monotonic() > self.give_up_at:
                self.recorder.abandoned_job({"seconds": round(time.monotonic() - started, 1),
                                             "last progress": progress, "request": _summary(payload, params)})
                return changed
            data = self._post(f"job poll {callback.name}", polled, {**params, "cacheKey": cache_key, "job": job})
            if data is None:
                self.jobs.pop(job, None)
                return changed | self._apply(callback.running.get("runningOff"))
            progress = data.get("progress") or progress
            changed |= self._apply(data.get("progress")) | self._apply(data.get("sideUpdate"))
            if abandon_after_first_poll:
                return changed  # still in self.jobs: the next request for these outputs replaces it
            if data == {} and job in self.jobs:
                # 204 for a job this tab did not replace: the job ended without storing a result (it
                # died, or was killed), and the page gets nothing, not even a message.
                self.recorder.error(f"job poll {callback.name}", {"status": 204, "error": "job ended without a result",
                                                                    "request": _summary(polled, params)})
            if "response" in data or data == {}:
                self.jobs.pop(job, None)
                self.recorder.request(f"job total {callback.name}", time.monotonic() - started, "job")
                self.recorder.count("jobs completed")
                return changed | self._apply(data.get("response")) | self._apply(callback.running.get("runningOff"))

    # -- what a user does

    def _options(self, component):
        return [option["value"] if isinstance(option, dict) else option
                for option in self.prop(component, "options", [])]

    def act(self, action):
        """Perform one user action (see ``ACTIONS``); False when a page (re)load failed."""
        self.recorder.count(f"action {action}")
        if action == "reload":
            return self.load_page()
        if action == "dataset":
            choices = [v for v in self._options(ids.DATASET) if v != self.prop(ids.DATASET, "value")]
            self.changed(f"{ids.DATASET}.value", self.rng.choice(choices))
        elif action == "algorithm":
            choices = [v for v in self._options(ids.ALGORITHM) if v != self.prop(ids.ALGORITHM, "value")]
            self.changed(f"{ids.ALGORITHM}.value", self.rng.choice(choices))
        elif action == "k":
            self.changed(f"{ids.ALGORITHM_NEIGHBORS}.value", self._new_k())
        elif action == "colour":
            choices = [v for v in self._options(ids.COLOR_BY) if v != self.prop(ids.COLOR_BY, "value")]
            if choices:
                self.changed(f"{ids.COLOR_BY}.value", self.rng.choice(choices))
        elif action == "sweep":
            # Each setting goes into the view state, which the sweep job reads, as a user's clicks do.
            offered = [v for v in self._options(ids.SWEEP_ALGORITHMS) if v in SWEEP_CHOICES]
            self.changed(f"{ids.SWEEP_ALGORITHMS}.value", self.rng.sample(offered, min(2, len(offered))))
            low = self.rng.randint(5, 14)
            self.changed(f"{ids.SWEEP_K_RANGE}.value", [low, low + 4])
            self.changed(f"{ids.SWEEP_K_STEP}.value", 2)
            self.changed(f"{ids.SWEEP_RUN}.n_clicks", (self.prop(ids.SWEEP_RUN, "n_clicks") or 0) + 1)
        elif action == "upload":
            self.upload()
        elif action == "replace_job":
            # Change k, and change it again once the job it started is running: the second replaces it.
            prop_id = f"{ids.ALGORITHM_NEIGHBORS}.value"
            self._set(prop_id, self._new_k())
            for callback in self.callbacks:
                if callback.background and callback.listens_to(prop_id):
                    self._fire(callback, {prop_id}, abandon_after_first_poll=True)
            self.changed(prop_id, self._new_k())
        return True

    def upload_contents(self):
        """A CSV of :data:`UPLOAD_MB` MB (a noisy plane), as the browser's upload box sends it (base64)."""
        digits = max(1, int(UPLOAD_MB * 2**20 / (UPLOAD_ROWS * UPLOAD_COLUMNS)) - 4)  # characters per value
        lines = []
        for _ in range(UPLOAD_ROWS):
            u, v = self.rng.uniform(-1, 1), self.rng.uniform(-1, 1)
            values = [u, v] + [0.01 * self.rng.random() for _ in range(UPLOAD_COLUMNS - 2)]
            lines.append(",".join(f"{value:.{digits}f}" for value in values))
        text = ",".join(f"c{i}" for i in range(UPLOAD_COLUMNS)) + "\n" + "\n".join(lines) + "\n"
        return "data:text/csv;base64," + base64.b64encode(text.encode()).decode()

    def send_upload(self, contents):
        """Send ``contents`` through the upload box; the box's message after it."""
        self._set(f"{ids.UPLOAD}.filename", f"plane-{self.rng.randrange(10**6)}.csv")
        self.changed(f"{ids.UPLOAD}.contents", contents)
        return str(self.prop(ids.UPLOAD_MESSAGE, "children") or "")

    def upload(self):
        """Upload a CSV of :data:`UPLOAD_MB` MB, as the browser does, then use it as the data set."""
        contents = self.upload_contents()
        if self.prop(ids.ALGORITHM, "value") != "pca":
            self.changed(f"{ids.ALGORITHM}.value", "pca")
        message = self.send_upload(contents)
        if UPLOAD_ACCEPTED not in message:
            self.recorder.error("upload", {"error": "upload not accepted", "message": str(message)[:300]})
            return
        self.recorder.count("uploads accepted")
        self.changed(f"{ids.UPLOAD_USE}.n_clicks", (self.prop(ids.UPLOAD_USE, "n_clicks") or 0) + 1)
        message = self.prop(ids.UPLOAD_MESSAGE, "children") or ""
        if not str(message).startswith(UPLOAD_USED):
            self.recorder.error("upload", {"error": "uploaded file not used", "message": str(message)[:300]})
            return
        self.recorder.count("uploads used")

    def _new_k(self):
        low = self.prop(ids.ALGORITHM_NEIGHBORS, "min", 3)
        high = min(self.prop(ids.ALGORITHM_NEIGHBORS, "max", 30), 20)
        current = self.prop(ids.ALGORITHM_NEIGHBORS, "value")
        return self.rng.choice([k for k in range(max(low, 5), high + 1) if k != current])


def _summary(payload, params):
    """A request in a few hundred characters, for an error report."""
    return {"output": payload.get("output"), "changedPropIds": payload.get("changedPropIds"),
            "params": {key: (value if key != "endId" else "...") for key, value in params.items()},
            "inputs": json.dumps(payload.get("inputs"))[:600]}


def _excerpt(text, needle, width=300):
    at = text.find(needle)
    return text[max(0, at - width):at + width]


class _FromAddress(requests.adapters.HTTPAdapter):
    """Connections from a chosen loopback address (the hostile client is another client than the users)."""

    def __init__(self, address):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, source_address=(self.address, 0), **kwargs)


class HostileClient:
    """One client that tries to starve the others (issue 20), from its own loopback address.

    Three floods at once, until ``stop_at``: uploads of :data:`UPLOAD_MB` MB, each under a new session
    string (the upload quota per session would let it fill the store); explore jobs started under a new
    session string each, never polled nor replaced (the cap per session would not hold it back); and
    :data:`SLOW_BODIES` requests whose bodies arrive a byte at a time (each holds a server thread).
    Its requests go to its own :class:`Recorder`, apart from the users' figures.

    Parameters
    ----------
    url : str
    recorder : Recorder
    seed : int
    stop_at, give_up_at : float
        ``time.monotonic()`` at which the floods stop, and after which no request is waited for.
    """

    def __init__(self, url, recorder, seed, stop_at, give_up_at):
        self.url, self.recorder, self.seed = url, recorder, seed
        self.stop_at, self.give_up_at = stop_at, give_up_at

    def run(self):
        """The three floods, each in its own thread, to their end; the load test's own failures are recorded."""
        floods = [threading.Thread(target=self._recorded, args=(flood,), daemon=True)
                  for flood in (self.flood_uploads, self.flood_jobs, *[self.slow_body] * SLOW_BODIES)]
        for flood in floods:
            flood.start()
        for flood in floods:
            flood.join(timeout=max(0.0, self.give_up_at - time.monotonic()) + REQUEST_TIMEOUT)

    def _recorded(self, flood):
        try:
            flood()
        except Exception:  # the load test's own failure, never mixed with the server's errors
            self.recorder.client_failure(traceback.format_exc())

    def _tab(self, offset):
        tab = DashUser(self.url, self.recorder, random.Random(self.seed + offset), self.give_up_at,
                       source_address=HOSTILE_ADDRESS)
        tab.polls_jobs = False
        return tab if tab.load_page() else None

    def _new_session(self, tab):
        tab._set(f"{ids.SESSION}.data", f"forged-{tab.rng.getrandbits(96):024x}")

    def flood_uploads(self):
        tab = self._tab(1)
        contents = tab.upload_contents() if tab else None
        sent = 0
        # At least one upload, however late the page loaded on a loaded machine: the flood's reach is checked.
        while tab and (not sent or time.monotonic() < self.stop_at) and time.monotonic() < self.give_up_at:
            sent += 1
            self._new_session(tab)
            accepted = UPLOAD_ACCEPTED in tab.send_upload(contents)
            self.recorder.count("uploads accepted" if accepted else "uploads refused")
            time.sleep(HOSTILE_PAUSE_SECONDS)

    def flood_jobs(self):
        tab = self._tab(2)
        while tab and time.monotonic() < self.stop_at:
            self._new_session(tab)
            tab.act(tab.rng.choice(("dataset", "algorithm", "k")))
            time.sleep(HOSTILE_PAUSE_SECONDS)

    def slow_body(self):
        """A callback request whose body comes a byte every :data:`SLOW_BODY_PAUSE_SECONDS` until ``stop_at``."""
        host, port = self.url.rpartition("/")[2].split(":")
        with socket.create_connection((host, int(port)), timeout=REQUEST_TIMEOUT,
                                      source_address=(HOSTILE_ADDRESS, 0)) as connection:
            connection.sendall(f"POST /_dash-update-component HTTP/1.1\r\nHost: {host}:{port}\r\n"
                               "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n".encode())
            sent = 0
            while time.monotonic() < self.stop_at:
                try:
                    connection.sendall(b" ")
                except OSError:  # the server stopped waiting for it: what a server should do
                    self.recorder.count("slow bodies cut off by the server")
                    return
                sent += 1
                time.sleep(SLOW_BODY_PAUSE_SECONDS)
            self.recorder.count("slow bodies held to the end")
            self.recorder.count("slow body bytes sent", sent)


# ------------------------------------------------------------------ the test

class LoadReport(dict):
    """The outcome of :func:`run_load_test` (a dict, JSON-able); ``str()`` is the printed report."""

    def __str__(self):
        lines = [f"load test: {self['users']} users for {self['seconds']:g} s (+ up to {self['grace']:g} s for jobs "
                 f"under way), seed {self['seed']}, server {self['server']}; {self['wall_seconds']:.0f} s in all",
                 f"requests served: {self['requests']} (HTTP status: "
                 + ", ".join(f"{status} x{count}" for status, count in sorted(self["statuses"].items())) + ")",
                 f"errors (HTTP >= 500, non-JSON or internal-error answers, jobs without a result, failed "
                 f"connections): {self['errors']}",
                 f"4xx answers: {self['client_errors']}; "
                 f"tracebacks in the server log: {len(self['server_tracebacks'])}",
                 "counts: " + ", ".join(f"{name} {count}" for name, count in sorted(self["counters"].items())),
                 "", f"{'request kind':<58}{'count':>7}{'p50 s':>9}{'p95 s':>9}{'max s':>9}"]
        for kind, row in sorted(self["latency"].items()):
            lines.append(f"{kind:<58}{row['count']:>7}{row['p50']:>9.3f}{row['p95']:>9.3f}{row['max']:>9.3f}")
        p95 = self["p95_seconds"]
        lines.append(f"{'all requests; all jobs (start to result)':<58}{'':>7}{'':>9}"
                     f"{p95['requests'] or 0:>9.3f}{p95['jobs'] or 0:>9.3f} (p95 s)")
        if self["hostile"]:
            hostile = self["hostile"]
            lines += ["", f"hostile client ({HOSTILE_ADDRESS}): {hostile['requests']} requests (HTTP status: "
                      + ", ".join(f"{status} x{count}" for status, count in sorted(hostile["statuses"].items()))
                      + f"), errors {len(hostile['errors'])}, its own failures {len(hostile['client_failures'])}",
                      "  counts: " + ", ".join(f"{name} {n}" for name, n in sorted(hostile["counters"].items()))]
        memory = self["memory_mib"]
        lines += ["", f"server RSS (MiB): start {memory['server_start']:.0f}, peak {memory['server_peak']:.0f}, "
                      f"end {memory['server_end']:.0f} (growth {memory['server_end'] - memory['server_start']:+.0f})",
                  f"job processes: at most {memory['job_processes_peak']} at once, their RSS peak "
                  f"{memory['jobs_peak']:.0f} MiB in all; server + jobs peak {memory['total_peak']:.0f} MiB"]
        if self["errors_by_kind"]:
            lines += ["", "errors by kind:"] + [f"  {kind}: {count}" for kind, count in self["errors_by_kind"].items()]
        if self["error_samples"]:
            lines += ["", "first errors:"] + [f"  {json.dumps(error)[:1500]}" for error in self["error_samples"]]
        if self["abandoned_jobs"]:
            lines += ["", "jobs abandoned at the deadline:"] + [f"  {json.dumps(job)[:1200]}"
                                                               for job in self["abandoned_jobs"][:3]]
        if self["client_error_samples"]:
            lines += ["", "first 4xx answers:"] + [f"  {json.dumps(e)[:800]}" for e in self["client_error_samples"]]
        if self["client_failures"] or self["stuck_users"]:
            lines += ["", f"load-test client failures (not the server's): {len(self['client_failures'])}, "
                          f"users still waiting at the end: {self['stuck_users']}"] + self["client_failures"][:2]
        if self["server_tracebacks"]:
            lines += ["", f"server tracebacks ({len(self['server_tracebacks'])}), the first:",
                      self["server_tracebacks"][0]]
        return "\n".join(lines)


def _user_loop(url, recorder, seed, stop_at, give_up_at, weights=None, address=None):
    """One user's session, from loopback ``address``: a page load, then actions with pauses until ``stop_at``.

    An exception here is the load test's own failure (say, a control it acts on left the layout), not
    the server's: it is recorded apart, with its traceback, and ends this user.
    """
    rng = random.Random(seed)
    user = DashUser(url, recorder, rng, give_up_at, source_address=address)
    actions, weights = zip(*(weights or ACTIONS).items())
    try:
        loaded = user.load_page()
        while time.monotonic() < stop_at:
            time.sleep(rng.uniform(*THINK_SECONDS))
            if time.monotonic() >= stop_at:
                break
            loaded = user.act(rng.choices(actions, weights)[0] if loaded else "reload")
    except Exception:  # reported as a client failure, never mixed with the server's errors
        recorder.client_failure(traceback.format_exc())


def _percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _timeline(samples, origin, step=5.0):
    """One memory sample per ``step`` seconds, times relative to ``origin``."""
    timeline, next_time = [], None
    for moment, server, jobs, processes in samples:
        if next_time is None or moment >= next_time:
            timeline.append((round(moment - origin, 1), round(server, 1), round(jobs, 1), processes))
            next_time = moment + step
    return timeline


def run_load_test(users=20, seconds=60.0, grace=60.0, seed=0, cache_dir=None, server_log=None, upload_mb=None,
                  actions=None, hostile=False):
    """Start the server, run ``users`` simulated users for ``seconds``, stop everything, report.

    Parameters
    ----------
    users : int
        Simulated users (threads), each its own page load.
    seconds : float
        How long users keep starting actions.
    grace : float
        How long after that a user may still wait for a job under way.
    seed : int
        Seeds every user's choices (user i: ``seed * 1000 + i``).
    cache_dir : path-like, optional
        The app's cache folder; a new temporary one by default (so every run computes).
    server_log : path-like, optional
        Keep a copy of the server's log (request lines, tracebacks) here.
    upload_mb : float, optional
        Size of the uploaded files (default :data:`UPLOAD_MB`).
    actions : dict of str to float, optional
        The users' actions and their weights (default :data:`ACTIONS`); ``{"upload": 1}`` is the
        upload scenario alone.
    hostile : bool
        Also run a :class:`HostileClient` beside the users for the same ``seconds``; its figures are
        reported apart (``hostile``), the users' are what it must not spoil.

    Returns
    -------
    LoadReport
    """
    if not 1 <= users <= 254:  # one loopback address each (USER_ADDRESS)
        raise ValueError(f"users must lie in [1, 254]; got {users}.")
    if upload_mb is not None:
        global UPLOAD_MB
        UPLOAD_MB = upload_mb
    with tempfile.TemporaryDirectory(prefix="procrustes-load-") as scratch:
        cache = pathlib.Path(cache_dir) if cache_dir else pathlib.Path(scratch) / "cache"
        server = ServerProcess(cache, pathlib.Path(scratch) / "server.log")
        started = time.monotonic()
        try:
            server.wait_until_ready()
            time.sleep(1.0)  # a few memory samples before the load
            server_start = server.rss_mib()
            recorder = Recorder()
            stop_at = time.monotonic() + seconds
            give_up_at = stop_at + grace
            threads = [threading.Thread(target=_user_loop, args=(server.url, recorder, seed * 1000 + i, stop_at,
                                                                 give_up_at, actions, USER_ADDRESS.format(i + 1)),
                                        daemon=True)
                       for i in range(users)]
            hostile_recorder = Recorder()
            if hostile:
                client = HostileClient(server.url, hostile_recorder, seed * 1000 + users, stop_at, give_up_at)
                threads.append(threading.Thread(target=client.run, daemon=True))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=max(0.0, give_up_at - time.monotonic()) + REQUEST_TIMEOUT + 10)
            time.sleep(2.0)  # let finished jobs' processes exit before the last reading
            server_end = server.rss_mib()
            samples = list(server.samples)
            tracebacks = server.tracebacks()
        finally:
            server.stop()
            if server_log:
                shutil.copyfile(server.log_path, server_log)
        wall = time.monotonic() - started
    latency = {kind: {"count": len(values), "p50": statistics.median(values), "p95": _percentile(values, 0.95),
                      "max": max(values)} for kind, values in recorder.latencies.items()}
    requests_seconds = [value for kind, values in recorder.latencies.items() if not kind.startswith("job total")
                        for value in values]
    jobs_seconds = [value for kind, values in recorder.latencies.items() if kind.startswith("job total")
                    for value in values]
    return LoadReport(
        users=users, seconds=seconds, grace=grace, seed=seed, server=server.url, wall_seconds=wall,
        requests=sum(count for status, count in recorder.statuses.items() if status != "job"),
        statuses={str(status): count for status, count in recorder.statuses.items() if status != "job"},
        errors=len(recorder.errors), error_samples=recorder.errors[:5],
        errors_by_kind=dict(collections.Counter(f"{error['kind']}: {error.get('error') or error.get('status')}"
                                                for error in recorder.errors)),
        all_errors=recorder.errors,
        client_errors=len(recorder.client_errors), client_error_samples=recorder.client_errors[:5],
        abandoned_jobs=recorder.abandoned,
        counters=dict(recorder.counters), latency=latency,
        memory_mib={"server_start": server_start, "server_end": server_end,
                    "server_peak": max((sample[1] for sample in samples), default=server_start),
                    "jobs_peak": max((sample[2] for sample in samples), default=0.0),
                    "total_peak": max((sample[1] + sample[2] for sample in samples), default=server_start),
                    "job_processes_peak": max((sample[3] for sample in samples), default=0),
                    "samples": len(samples),
                    # (seconds since the load began, server MiB, jobs' MiB, job processes), every 5 s
                    "timeline": _timeline(samples, stop_at - seconds)},
        # The users' requests and their jobs (start to result), all kinds together: what a hostile client may slow.
        p95_seconds={"requests": _percentile(requests_seconds, 0.95) if requests_seconds else None,
                     "jobs": _percentile(jobs_seconds, 0.95) if jobs_seconds else None},
        hostile=({"requests": sum(hostile_recorder.statuses.values()), "counters": dict(hostile_recorder.counters),
                  "statuses": {str(status): count for status, count in hostile_recorder.statuses.items()},
                  "errors": hostile_recorder.errors, "client_failures": hostile_recorder.client_failures}
                 if hostile else None),
        server_tracebacks=tracebacks, client_failures=recorder.client_failures,
        stuck_users=sum(thread.is_alive() for thread in threads))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20, help="simulated users (default 20)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long users start actions (default 60)")
    parser.add_argument("--grace", type=float, default=60.0,
                        help="how long a user may still wait for a job afterwards (default 60)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=pathlib.Path, help="also write the report as JSON here")
    parser.add_argument("--server-log", type=pathlib.Path, help="keep a copy of the server's log here")
    parser.add_argument("--upload-mb", type=float, default=UPLOAD_MB, help=f"uploaded file size (default {UPLOAD_MB})")
    parser.add_argument("--hostile", action="store_true", help="add a hostile client beside the users (issue 20)")
    parser.add_argument("--versus-quiet", action="store_true",
                        help="with --hostile: run without it first and print the users' p95 ratios")
    args = parser.parse_args(argv)
    if args.versus_quiet and not args.hostile:
        parser.error("--versus-quiet compares a run with --hostile to one without it: give --hostile too")
    settings = dict(users=args.users, seconds=args.seconds, grace=args.grace, seed=args.seed,
                    upload_mb=args.upload_mb)
    quiet = run_load_test(**settings) if args.versus_quiet else None
    if quiet is not None:
        print("without the hostile client:", quiet, "", "with it:", sep="\n")
    report = run_load_test(**settings, server_log=args.server_log, hostile=args.hostile)
    print(report)
    if quiet is not None:
        for kind in ("requests", "jobs"):
            before, after = quiet["p95_seconds"].get(kind), report["p95_seconds"].get(kind)
            ratio = f"{after / before:.2f}" if before and after is not None else "n/a (no sample)"
            print(f"users' p95 of {kind} beside the hostile client / without it: {ratio} (issue 20: at most 2)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    return 1 if report["errors"] or report["server_tracebacks"] or report["client_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
