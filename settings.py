"""Procrustes Lab's configuration: every environment variable it reads, read once, checked once.

:class:`Settings` holds one field per variable; :meth:`Settings.from_environ` reads and checks them
all, and a bad value raises :class:`SettingsError` naming the variable, the value and what it must
be. :func:`settings` is the process's one copy, read on first use (``python app.py`` and the worker
read it at start, so a bad value stops them there). No other module reads ``os.environ`` for its
configuration; the README's table of the variables is this class's, in prose.

Why a top-level module: the store (``lab/store``: the cache directory, its size, the shared store's
URL) and the server (``serving/``: deadlines, job caps, proxies, Celery) both read it, and ``lab``
may import nothing above it (``tests/test_layering.py``). In ``lab/store`` it would put the web
server's settings (port, secret, proxies) inside the library; here it sits below every layer and
imports only the standard library, so each layer may read it.
"""

import dataclasses
import functools
import math
import os
import pathlib
import re
import urllib.parse

__all__ = ["Settings", "SettingsError", "settings"]

_ROOT = pathlib.Path(__file__).resolve().parent


class SettingsError(ValueError):
    """An environment variable of Procrustes Lab holds a value it cannot use; the message names it."""


def _positive_number(expected):
    """A parser of a positive, finite number (``expected`` words it for the message)."""
    def parse(variable, text):
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        # An infinite deadline cannot arm an alarm, nor an infinite size bound a store.
        if not (math.isfinite(number) and number > 0):
            raise SettingsError(f"{variable} must be {expected}; got {text!r}.")
        return number
    return parse


def _whole_number(expected, minimum, maximum=math.inf):
    """A parser of a whole number in ``[minimum, maximum]``, digits only (``expected`` words it)."""
    def parse(variable, text):
        if not re.fullmatch(r"[0-9]+", text) or not minimum <= int(text) <= maximum:
            raise SettingsError(f"{variable} must be {expected}; got {text!r}.")
        return int(text)
    return parse


def _url(schemes, example):
    """A parser of a URL whose scheme is one of ``schemes`` (``example`` shows one in the message)."""
    def parse(variable, text):
        if urllib.parse.urlsplit(text).scheme not in schemes:
            raise SettingsError(f"{variable} must be a Redis URL such as {example}; got {text!r}.")
        return text
    return parse


def _text(variable, text):
    return text


def _path(variable, text):
    return pathlib.Path(text)


def _variable(name, parse, default=None, **options):
    """A field of :class:`Settings` read from environment variable ``name`` by ``parse(name, text)``."""
    return dataclasses.field(default=default, metadata={"variable": name, "parse": parse}, **options)


@dataclasses.dataclass(frozen=True)
class Settings:
    """Every setting Procrustes Lab reads from its environment, with the defaults of an unset variable.

    An empty variable counts as unset. The README (Configuration) says what each one is for.

    Attributes
    ----------
    cache_dir : pathlib.Path
        ``PROCRUSTES_CACHE_DIR``: results, uploads, the job ledger and the jobs' hand-over live there.
    cache_gb : float
        ``PROCRUSTES_CACHE_GB``: GiB of results this host keeps on its disk, least recently used out first.
    store_url : str or None
        ``PROCRUSTES_STORE_URL``: a Redis URL where results, uploads and the job ledger are shared by
        every host (each host's cache directory is then a local copy); None: this host's disk only.
    redis_url : str or None
        ``REDIS_URL``: Celery mode's broker and result backend; set, it selects Celery mode.
    job_deadline : float
        ``PROCRUSTES_JOB_DEADLINE``: seconds a background job may run.
    jobs_per_session, jobs_per_server, jobs_per_address : int
        ``PROCRUSTES_JOBS_PER_SESSION`` / ``_PER_SERVER`` / ``_PER_ADDRESS``: jobs that run at once for one
        browser session, on one host (embedded manager) and for one client address.
    max_request_mb : float
        ``PROCRUSTES_MAX_REQUEST_MB``: the largest request body the server accepts, in MiB.
    trusted_proxies : int
        ``PROCRUSTES_TRUSTED_PROXIES``: reverse proxies in front that set ``X-Forwarded-For``.
    secret_key : str or None
        ``PROCRUSTES_SECRET_KEY``: the Flask secret, which also signs background-job handles.
    host : str
        ``PROCRUSTES_HOST``: where ``python app.py`` listens.
    port : int
        ``PROCRUSTES_PORT``: the port ``python app.py`` listens on.
    """

    cache_dir: pathlib.Path = _variable("PROCRUSTES_CACHE_DIR", _path, _ROOT / "cache")
    cache_gb: float = _variable("PROCRUSTES_CACHE_GB", _positive_number("a positive number of GiB"), 4.0)
    store_url: str | None = _variable("PROCRUSTES_STORE_URL",
                                      _url({"redis", "rediss", "unix"}, "redis://127.0.0.1:6379/1"))
    redis_url: str | None = _variable("REDIS_URL", _url({"redis", "rediss"}, "redis://127.0.0.1:6379/0"))
    # 20 minutes: a sweep of 120 runs at n = 1 600 fits.
    job_deadline: float = _variable("PROCRUSTES_JOB_DEADLINE",
                                    _positive_number("a positive, finite number of seconds"), 1200.0)
    # One tab's sweep and comparison may run together. The session is the string the page sends: a client
    # that invents one per request escapes this cap, not the address's.
    jobs_per_session: int = _variable("PROCRUSTES_JOBS_PER_SESSION",
                                      _whole_number("a whole number of jobs, at least 1", 1), 2)
    # An embedded job is a process busy on a core (12 forged requests made 12 processes and 3.65 GiB):
    # more than the cores only slows every job and adds to the memory.
    jobs_per_server: int = _variable("PROCRUSTES_JOBS_PER_SERVER",
                                     _whole_number("a whole number of jobs, at least 1", 1),
                                     max(2, os.cpu_count() or 1))
    # None: half the server's, at least 2 (__post_init__). One client flooding jobs under new session
    # strings then leaves the other half to everyone else (issue 20); 2 is the session's own cap.
    jobs_per_address: int | None = _variable("PROCRUSTES_JOBS_PER_ADDRESS",
                                             _whole_number("a whole number of jobs, at least 1", 1))
    # Room for a 50 MB upload base64-encoded in a callback.
    max_request_mb: float = _variable("PROCRUSTES_MAX_REQUEST_MB", _positive_number("a positive number of MiB"),
                                      80.0)
    trusted_proxies: int = _variable("PROCRUSTES_TRUSTED_PROXIES",
                                     _whole_number("a whole number of proxies (0 without one)", 0), 0)
    secret_key: str | None = _variable("PROCRUSTES_SECRET_KEY", _text)
    host: str = _variable("PROCRUSTES_HOST", _text, "127.0.0.1")
    port: int = _variable("PROCRUSTES_PORT", _whole_number("a port number from 1 to 65535", 1, 65535), 8050)

    def __post_init__(self):
        if self.jobs_per_address is None:
            # A frozen dataclass sets a derived default through object.__setattr__.
            object.__setattr__(self, "jobs_per_address", max(2, self.jobs_per_server // 2))

    @classmethod
    def from_environ(cls, environ=os.environ):
        """The settings of ``environ``: each variable set (and not empty) parsed, the others their default.

        Parameters
        ----------
        environ : mapping of str to str, default=os.environ

        Raises
        ------
        SettingsError
            At the first variable whose value cannot be used, naming it, its value and what it must be.
        """
        values = {}
        for field in dataclasses.fields(cls):
            text = environ.get(field.metadata["variable"], "")
            if text:
                values[field.name] = field.metadata["parse"](field.metadata["variable"], text)
        return cls(**values)

    @classmethod
    def variables(cls):
        """``{field name: environment variable}`` of every setting."""
        return {field.name: field.metadata["variable"] for field in dataclasses.fields(cls)}


@functools.cache
def settings():
    """This process's :class:`Settings`, read from ``os.environ`` on first use and kept.

    Tests that change the environment call ``settings.cache_clear()`` (``tests/conftest.py`` does it
    around every ``monkeypatch.setenv``); a job process forked from the server inherits its copy.

    Raises
    ------
    SettingsError
        See :meth:`Settings.from_environ`.
    """
    return Settings.from_environ()
