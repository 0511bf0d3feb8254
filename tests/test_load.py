"""The reduced load test of issue 7: ``bench/load.py`` with 5 simulated users for 10 s.

A real server (a subprocess on a loopback port) gets the requests the browser's Dash renderer
would send: page loads, control changes, background jobs polled to their end, a job replaced while
it runs, a sweep, with a hostile client beside the users (issue 20). Asserted: no server error,
every user served, memory that stays bounded, nothing of the users' lost. Never a time, nor a
ratio of times (STYLE: speed lives in bench/; the machines are shared):
``python bench/load.py --hostile --versus-quiet`` measures issue 20's ratio of the users' p95
beside the hostile client to the same run's without it.
"""

import pytest

from bench.load import run_load_test

pytestmark = pytest.mark.load

USERS, SECONDS, GRACE = 5, 10.0, 120.0
# Generous: the server process starts near 200 MiB and grows by a few tens while serving.
RSS_GROWTH_BOUND_MIB = 300


@pytest.fixture(scope="module")
def report():
    """The users with a hostile client beside them (issue 20): what they must get holds with it too."""
    result = run_load_test(users=USERS, seconds=SECONDS, grace=GRACE, seed=0, hostile=True)
    print(result)  # the figures, shown with pytest -s
    return result


def test_server_answers_without_errors(report):
    assert report["errors"] == 0, str(report)
    assert report["server_tracebacks"] == [], str(report)
    assert report["client_errors"] == 0, str(report)


def test_every_user_is_served_to_the_end(report):
    assert report["client_failures"] == [] and report["stuck_users"] == 0, str(report)
    assert report["counters"]["page loads"] >= USERS
    # Each page load shows a run (from the cache, or from a job); no job is left unfinished.
    assert report["counters"].get("runs shown", 0) >= USERS, str(report)
    assert report["counters"].get("jobs completed", 0) >= 1, str(report)
    assert report["counters"].get("jobs abandoned at the deadline", 0) == 0, str(report)


@pytest.fixture(scope="module")
def upload_report():
    """The upload scenario alone: every user a browser session sending 8 MB files, then using them."""
    result = run_load_test(users=USERS, seconds=15.0, grace=GRACE, seed=1, upload_mb=8.0, actions={"upload": 1})
    print(result)
    return result


def test_many_sessions_uploading_large_files_get_no_error_and_bounded_memory(upload_report):
    assert upload_report["errors"] == 0 and upload_report["server_tracebacks"] == [], str(upload_report)
    assert upload_report["counters"].get("uploads used", 0) >= USERS, str(upload_report)
    memory = upload_report["memory_mib"]
    # Each web process reads two uploads at once (lab.store.uploads.READING_SLOTS) and hands the memory back.
    assert memory["server_end"] - memory["server_start"] < RSS_GROWTH_BOUND_MIB, str(upload_report)
    assert memory["server_peak"] - memory["server_start"] < 2 * RSS_GROWTH_BOUND_MIB, str(upload_report)


def test_server_memory_stays_bounded(report):
    memory = report["memory_mib"]
    assert memory["samples"] > 0
    assert memory["server_end"] - memory["server_start"] < RSS_GROWTH_BOUND_MIB, str(report)
    assert memory["server_peak"] - memory["server_start"] < 2 * RSS_GROWTH_BOUND_MIB, str(report)


def test_a_hostile_client_loses_the_users_nothing(report):
    """Upload and job floods under new session strings and slow bodies, from another address, beside the users."""
    hostile = report["hostile"]
    assert hostile["errors"] == [] and hostile["client_failures"] == [], str(report)
    assert hostile["counters"].get("slow bodies held to the end", 0) + hostile["counters"].get(
        "slow bodies cut off by the server", 0) > 0, str(report)
    assert hostile["counters"].get("jobs started", 0) > 0 and hostile["counters"].get("uploads accepted", 0) > 0
    counters = report["counters"]
    # Every job a user started showed its result, unless the user replaced it while it ran.
    assert counters["jobs completed"] + counters.get("jobs replaced while running", 0) >= counters["jobs started"]
