"""The settings: every variable's default, a value it takes, a value it refuses and the message."""

import os
import pathlib
import re

import pytest

import settings
from settings import Settings, SettingsError

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORES = max(2, os.cpu_count() or 1)

# (field, variable, default, a good value and what it reads as)
GOOD = [
    ("cache_dir", "PROCRUSTES_CACHE_DIR", ROOT / "cache", ("/srv/lab", pathlib.Path("/srv/lab"))),
    ("cache_gb", "PROCRUSTES_CACHE_GB", 4.0, ("0.5", 0.5)),
    ("store_url", "PROCRUSTES_STORE_URL", None, ("redis://redis-host:6379/1", "redis://redis-host:6379/1")),
    ("redis_url", "REDIS_URL", None, ("rediss://:secret@redis-host:6380/0", "rediss://:secret@redis-host:6380/0")),
    ("job_deadline", "PROCRUSTES_JOB_DEADLINE", 1200.0, ("90", 90.0)),
    ("jobs_per_session", "PROCRUSTES_JOBS_PER_SESSION", 2, ("3", 3)),
    ("jobs_per_server", "PROCRUSTES_JOBS_PER_SERVER", CORES, ("16", 16)),
    ("jobs_per_address", "PROCRUSTES_JOBS_PER_ADDRESS", max(2, CORES // 2), ("1", 1)),
    ("max_request_mb", "PROCRUSTES_MAX_REQUEST_MB", 80.0, ("2.5", 2.5)),
    ("trusted_proxies", "PROCRUSTES_TRUSTED_PROXIES", 0, ("1", 1)),
    ("secret_key", "PROCRUSTES_SECRET_KEY", None, ("shared by every web process", "shared by every web process")),
    ("host", "PROCRUSTES_HOST", "127.0.0.1", ("0.0.0.0", "0.0.0.0")),
    ("port", "PROCRUSTES_PORT", 8050, ("8123", 8123)),
]

# (variable, a bad value, the message's expectation)
BAD = [
    ("PROCRUSTES_CACHE_GB", "four", "a positive number of GiB"),
    ("PROCRUSTES_CACHE_GB", "0", "a positive number of GiB"),
    ("PROCRUSTES_STORE_URL", "redis-host:6379", "a Redis URL such as redis://127.0.0.1:6379/1"),
    ("REDIS_URL", "http://redis-host:6379/0", "a Redis URL such as redis://127.0.0.1:6379/0"),
    # An infinite deadline passed an old check and then failed every job when its alarm was armed.
    *[("PROCRUSTES_JOB_DEADLINE", value, "a positive, finite number of seconds")
      for value in ("abc", "inf", "nan", "0", "-5")],
    *[(variable, value, "a whole number of jobs, at least 1")
      for variable in ("PROCRUSTES_JOBS_PER_SESSION", "PROCRUSTES_JOBS_PER_SERVER", "PROCRUSTES_JOBS_PER_ADDRESS")
      for value in ("0", "two", "1.5")],
    *[("PROCRUSTES_MAX_REQUEST_MB", value, "a positive number of MiB")
      for value in ("eighty", "0", "-3", "nan", "inf")],
    ("PROCRUSTES_TRUSTED_PROXIES", "-1", "a whole number of proxies (0 without one)"),
    ("PROCRUSTES_TRUSTED_PROXIES", "yes", "a whole number of proxies (0 without one)"),
    ("PROCRUSTES_PORT", "http", "a port number from 1 to 65535"),
    ("PROCRUSTES_PORT", "70000", "a port number from 1 to 65535"),
]


def test_every_variable_is_tested_here():
    assert {variable for _, variable, _, _ in GOOD} == set(Settings.variables().values())
    assert {variable for variable, _, _ in BAD} | {"PROCRUSTES_CACHE_DIR", "PROCRUSTES_SECRET_KEY",
                                                  "PROCRUSTES_HOST"} == set(Settings.variables().values())


@pytest.mark.parametrize("field, variable, default, good", GOOD, ids=[variable for _, variable, _, _ in GOOD])
def test_each_variable_has_its_default_and_takes_a_good_value(field, variable, default, good):
    assert getattr(Settings.from_environ({}), field) == default
    assert getattr(Settings.from_environ({variable: ""}), field) == default  # empty counts as unset
    text, value = good
    assert getattr(Settings.from_environ({variable: text}), field) == value


@pytest.mark.parametrize("variable, value, expected", BAD, ids=[f"{variable}={value}" for variable, value, _ in BAD])
def test_a_bad_value_is_refused_naming_the_variable_the_value_and_what_it_must_be(variable, value, expected):
    with pytest.raises(SettingsError, match=re.escape(f"{variable} must be {expected}; got {value!r}.")):
        Settings.from_environ({variable: value})


def test_the_address_cap_defaults_to_half_the_server_s_and_at_least_two():
    assert Settings.from_environ({"PROCRUSTES_JOBS_PER_SERVER": "16"}).jobs_per_address == 8
    assert Settings.from_environ({"PROCRUSTES_JOBS_PER_SERVER": "3"}).jobs_per_address == 2
    assert Settings.from_environ({"PROCRUSTES_JOBS_PER_SERVER": "16",
                                  "PROCRUSTES_JOBS_PER_ADDRESS": "1"}).jobs_per_address == 1


def test_settings_are_frozen_and_a_settings_error_is_a_value_error():
    with pytest.raises(AttributeError):
        Settings().port = 1
    assert issubclass(SettingsError, ValueError)


def test_the_process_settings_are_read_once_and_read_again_after_a_reset(monkeypatch):
    monkeypatch.setenv("PROCRUSTES_PORT", "9001")  # through monkeypatch (tests/conftest.py): read afresh
    first = settings.settings()
    os.environ["PROCRUSTES_PORT"] = "9002"  # behind its back (it still restores the variable at the end)
    assert settings.settings() is first and first.port == 9001
    settings.settings.cache_clear()
    assert settings.settings().port == 9002


def test_the_readme_tables_every_variable_with_its_default():
    readme = (ROOT / "README.md").read_text()
    rows = {match[0]: match[1] for match in re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \|", readme, flags=re.M)}
    assert set(rows) == set(Settings.variables().values())
    for field, variable, default, _ in GOOD:
        if isinstance(default, (int, float)) and field not in ("jobs_per_server", "jobs_per_address"):
            assert f"{default:g}" in rows[variable], (variable, rows[variable])
