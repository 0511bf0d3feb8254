"""Dash's disk manager without the races of a job that ends during a poll (bench/load.py found them)."""

import subprocess
import sys

import pytest

from components import ids, jobs
from lab import (CompareRequest, NormalizationRequest, PairRequest, SeedNoiseRequest, StabilityRequest, SweepRequest,
                 ViewState, YardstickRequest)
from serving import managers, slots
from tests.strategies import run_part




@pytest.fixture
def manager(tmp_path):
    return managers.make_background_manager(tmp_path)


@pytest.fixture
def sleeper():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process
    process.kill()
    process.wait()


def test_a_process_reusing_a_finished_job_s_id_is_never_stopped(manager, sleeper):
    """Process ids are reused: a late stop of a finished job must leave a new process alone."""
    import psutil

    started = psutil.Process(sleeper.pid).create_time()
    manager.handle.set(manager._started_key(sleeper.pid), started - 5.0)  # the job that had this id started earlier
    manager.terminate_job(str(sleeper.pid))
    assert sleeper.poll() is None and not manager.job_running(str(sleeper.pid))
    manager.handle.set(manager._started_key(sleeper.pid), started)  # this process is the job: it is stopped
    manager.terminate_job(str(sleeper.pid))
    assert sleeper.wait(10) is not None


def test_a_job_that_stored_its_result_and_exited_during_a_poll_reads_as_running(manager, monkeypatch):
    """A poll reads the result (absent), then the job stores it and exits: the poll must go on, not report it lost."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    manager.handle.set(manager._started_key(ended.pid), 0.0)
    collect = manager._collect

    def job_stores_after_the_read(key, job):
        result = collect(key, job)
        manager.handle.set("key", {"answer": 42})  # written by the job between the read and the check
        return result

    monkeypatch.setattr(manager, "_collect", job_stores_after_the_read)
    assert manager.get_result("key", str(ended.pid)) is manager.UNDEFINED
    assert manager.job_running(str(ended.pid))  # Dash's own check after the read
    monkeypatch.undo()
    assert manager.get_result("key", str(ended.pid)) == {"answer": 42}
    assert not manager.job_running(str(ended.pid))  # collected: the job is over


class _FinishedTaskManager:
    """The part of Dash's manager the race needs: a result store, and a task that has just succeeded."""

    UNDEFINED = object()

    def __init__(self):
        self.results = {}

    def get_result(self, key, job):
        return self.results.pop(key, self.UNDEFINED)  # read once: Dash's managers clear a result they return

    def result_ready(self, key):
        return key in self.results


class _Accounted(managers._EveryJobAccountedFor, _FinishedTaskManager):
    def _running(self, job):
        return False  # Celery's SUCCESS: the task stored its result and returned

    def _stopped(self, job):
        return False

    def _note_poll(self, job, when):
        pass  # where a poll is noted is each manager's; this race does not read it


def test_both_managers_read_a_task_that_succeeded_during_a_poll_as_running_not_lost():
    """The Celery sweep's last poll read no result, its task then stored it and succeeded: the page
    stopped polling ("no update") with the result in the store. Both managers share the answer."""
    assert managers._CeleryManager.job_running is managers._EveryJobAccountedFor.job_running
    assert managers._DiskcacheManager.job_running is managers._EveryJobAccountedFor.job_running
    manager = _Accounted(slots=None)

    def task_stores_after_the_read(key, job):
        result = _FinishedTaskManager.get_result(manager, key, job)
        manager.results[key] = {"answer": 42}  # written by the task between the read and the check
        return result

    manager._collect = task_stores_after_the_read
    assert manager.get_result("key", "task-1") is manager.UNDEFINED  # not reported lost
    assert manager.job_running("task-1")  # Dash's own check after the read: poll again
    del manager._collect
    assert manager.get_result("key", "task-1") == {"answer": 42}
    assert not manager.job_running("task-1")  # no poll asked: the task is over
    # Without a result, a task that is over is lost, as before.
    assert manager.get_result("other", "task-2") == {"background_callback_error": {"msg": managers.LOST_JOB, "tb": ""}}


def test_a_job_that_ended_without_a_result_is_reported_lost_unless_the_page_stopped_it(manager):
    """Dash would answer "no update" and the page would say nothing (a killed tour job was never reported)."""
    for stopped in (False, True):
        ended = subprocess.Popen([sys.executable, "-c", "pass"])
        ended.wait()
        manager.handle.set(manager._started_key(ended.pid), 0.0)
        if stopped:  # the page's Cancel (or a newer job of the same callback) stopped it
            manager.terminate_job(str(ended.pid))
        answer = manager.get_result(f"key-{stopped}", str(ended.pid))
        if stopped:
            assert answer is manager.UNDEFINED
        else:
            assert answer == {"background_callback_error": {"msg": managers.LOST_JOB, "tb": ""}}


def _stuck_in_c():
    """Wait for ever on a mutex no thread will release, as a job forked with a held SQLite mutex did."""
    import threading

    lock = threading.Lock()
    lock.acquire()
    lock.acquire()


def test_an_embedded_job_stuck_where_no_alarm_reaches_ends_at_its_watchdog(monkeypatch):
    import multiprocessing
    import time

    monkeypatch.setenv("PROCRUSTES_JOB_DEADLINE", "0.5")
    monkeypatch.setattr(managers, "WATCHDOG_GRACE_SECONDS", 0.5)
    process = multiprocessing.get_context("fork").Process(target=managers._watched, args=(_stuck_in_c,))
    started = time.monotonic()
    process.start()
    process.join(timeout=30)
    assert process.exitcode == 70 and time.monotonic() - started < 30


def test_the_hand_over_store_holds_off_forks_while_it_is_read(tmp_path, monkeypatch):
    import threading

    import diskcache

    from lab.store import stores

    inside = []

    def get(self, key, *args, **kwargs):  # another thread cannot take the fork lock meanwhile
        probe = threading.Thread(target=lambda: inside.append(stores._OPEN.acquire(blocking=False)))
        probe.start()
        probe.join()
        return None

    monkeypatch.setattr(diskcache.Cache, "get", get)
    manager = managers.make_background_manager(tmp_path)
    manager.handle.get("key")
    assert inside == [False]


def test_no_except_exception_swallows_the_deadline_nor_celery_s_soft_limit():
    """A sweep's cell catches Exception to go on to the next cell; the deadline must pass it (issue 20)."""
    import os
    import signal
    import time

    for send in (None, signal.SIGUSR1):  # the alarm; Celery's soft time limit (SIGUSR1 from the pool's parent)
        cells = 0
        with pytest.raises(managers.JobDeadlineError, match="stopped at its deadline of (0.3|60) s"):
            with managers.job_deadline(0.3 if send is None else 60):
                if send is not None:
                    os.kill(os.getpid(), send)
                while cells < 100:
                    try:
                        time.sleep(0.05)
                    except Exception:  # noqa: BLE001 (what the cells do)
                        pass
                    cells += 1
        assert cells < 100
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_inner_deadline_keeps_the_outer_one():
    import signal
    import time

    with pytest.raises(managers.JobDeadlineError, match="of 0.5 s"):
        with managers.job_deadline(0.5):
            with managers.job_deadline(60):  # ends long before, and must not cancel the outer alarm
                time.sleep(0.05)
            assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] < 0.5
            time.sleep(5)


# Every kind of background job (its first output), and the arguments Dash passes it after set_progress: a study's
# job its request store (as the button's callback writes it, components.jobs.request_study) and the session (its
# nonce names the page). The tour's step is its slowest from an empty cache (PN Fig. 9, twelve runs; GR Fig. 1
# took 2.6 s on a fast machine, too close to a 2 s deadline to be sure to meet it).
def _job_arguments(state):
    def study(job):
        request_type = _STUDY_JOBS[job]
        request = request_type.from_state(ViewState.from_dict(state)).to_dict()
        return [{"request": request, "state": state, "nonce": jobs.study_job_id("page", job, 1)}, "session"]

    return {
        ids.EXPLORE_JOB: [{"request": run_part(state), "nonce": "deadline"}, "session"],
        **{job: study(job) for job in (ids.SWEEP_JOB, ids.COMPARE_JOB, ids.NORMALIZATION_JOB, ids.PAIR_JOB,
                                       ids.STABILITY_JOB, ids.SEED_NOISE_JOB)},
        ids.TOUR_JOB: [{"name": "pn-fig9-globe", "nonce": "deadline", "token": "page"}],
    }


# The request type each study job computes.
_STUDY_JOBS = {ids.SWEEP_JOB: SweepRequest, ids.COMPARE_JOB: CompareRequest, ids.PAIR_JOB: PairRequest,
               ids.NORMALIZATION_JOB: NormalizationRequest, ids.STABILITY_JOB: StabilityRequest,
               ids.SEED_NOISE_JOB: SeedNoiseRequest, ids.YARDSTICK_JOB: YardstickRequest}


def _job_of(function):
    """The job (``ids.*_JOB``) a registered background callback runs (a study's: by the request type it computes)."""
    import inspect

    request_type = inspect.getclosurevars(function).nonlocals.get("request_type")
    if request_type is not None:
        return next(job for job, kind in _STUDY_JOBS.items() if kind is request_type)
    return {"run_explore": ids.EXPLORE_JOB, "run_step": ids.TOUR_JOB}[function.__name__]


def test_every_job_kind_stops_at_its_deadline_in_the_embedded_manager(tmp_path, monkeypatch):
    """Each job's every embedding takes a minute; with a 1.5 s deadline each job ends with the deadline's words."""
    import time

    from dash.background_callback.managers import BaseBackgroundCallbackManager
    from dash.testing.wait import until

    import algorithms
    from app import create_app
    from lab import ViewState

    def slow_embedding(*args, **kwargs):
        time.sleep(60)

    monkeypatch.setattr(algorithms, "embed", slow_embedding)
    monkeypatch.setenv("PROCRUSTES_JOB_DEADLINE", "1.5")
    manager = create_app(tmp_path)._background_manager
    functions = {_job_of(function): key for key, function, _ in BaseBackgroundCallbackManager.functions
                 if key in manager.func_registry}
    arguments = _job_arguments(ViewState().validated().to_dict())
    assert set(arguments) <= set(functions)
    running = {}
    for job, args in arguments.items():  # all at once: each must end at its own deadline
        key = f"deadline-{job}"
        running[job] = (key, manager.call_job_fn(key, manager.func_registry[functions[job]], args, {}))
    # The jobs run niced (serving.managers.JOB_NICENESS): on a machine another test keeps busy, eight of them may
    # take a while to write their answers. A job stuck past its deadline is ended by its watchdog a minute later
    # and answers as lost, which the assertion below names: the wait tells the two apart.
    for job, (key, process) in running.items():
        result = until(lambda: (lambda value: None if value is manager.UNDEFINED else value)(
            manager.get_result(key, process)), timeout=150)
        said = str(result)
        assert "stopped at its deadline of 1.5 s" in said, (job, said)


def test_a_job_failure_that_reaches_dash_is_reported_in_words_that_name_no_path():
    """``on_error`` of every job: the deadline and a lost job in their words; anything else points to the log."""
    from dash.exceptions import BackgroundCallbackError

    from components.jobs import JOB_FAILED, job_failure_message
    from lab.store.stores import StoreUnavailableError

    def from_job(message, traceback="Traceback (most recent call last):\n  File \"/srv/lab/lab/tours/steps.py\""):
        return BackgroundCallbackError(f"An error occurred inside a background callback: {message}\n{traceback}")

    deadline = str(managers.JobDeadlineError(5))
    assert job_failure_message(from_job(deadline)) == deadline
    assert job_failure_message(from_job(managers.LOST_JOB, "")) == managers.LOST_JOB
    assert job_failure_message(from_job("[Errno 28] No space left on device: '/srv/cache/x'")) == JOB_FAILED
    busy = StoreUnavailableError("The job ledger is full. Try again in a few minutes.")
    assert job_failure_message(busy) == str(busy)  # raised while the page polled: already the page's words


def test_a_ledger_that_fails_neither_stops_a_job_nor_answers_the_page_with_500(tmp_path):
    """report_lost / say_lost read the ledger as a job ends; a full or unreachable ledger gave HTTP 500 (issue 20)."""
    from dash import no_update

    from components.explore_job import report_lost
    from serving.services import JobLedger, Services
    from lab.store.stores import StoreUnavailableError

    class Unavailable:
        def put(self, *args, **kwargs):
            raise StoreUnavailableError("The job ledger cannot be reached. Try again in a few minutes.")

        get = put

    services = Services.in_directory(tmp_path)
    services = Services(services.results, services.uploads, JobLedger(Unavailable()))
    with services.jobs.running("job-1"):  # the job computes, and its result goes to the page
        pass
    assert report_lost(services, False, {"nonce": "job-1", "state": {}}) is no_update


# A process that writes Dash's hand-over store, then reads it after its SQLite file lost three quarters
# of its pages (as when its disk fails under it): through a memory map, the read is a SIGBUS.
_READ_A_SHRUNKEN_STORE = """
import os, sys
from serving import managers

directory = sys.argv[1]
cache = managers.make_background_manager(directory).handle
database = os.path.join(directory, "dash", "cache.db")
for index in range(1000):
    cache.set(f"key-{index}", b"x" * 2000)
os.truncate(database, os.path.getsize(database) // 4)
for index in range(1000):
    try:
        cache.get(f"key-{index}")
    except Exception:  # an error is what a damaged store may give; a signal is not
        pass
print("alive")
"""


@pytest.mark.slow  # over 10 s on 2 busy cores: CI runs it, the fast command does not
def test_a_store_whose_file_shrinks_under_a_reader_never_kills_it(tmp_path):
    """The web server died of SIGBUS on a job's first poll after its cache turned read-only (issue 20)."""
    import pathlib

    from lab.store.stores import DiskStore

    reader = subprocess.run([sys.executable, "-c", _READ_A_SHRUNKEN_STORE, str(tmp_path)],
                            cwd=pathlib.Path(__file__).resolve().parents[2], capture_output=True, text=True,
                            timeout=300)
    assert reader.returncode == 0 and "alive" in reader.stdout, (reader.returncode, reader.stderr[-2000:])
    # The result, upload and ledger stores open SQLite the same way.
    assert DiskStore(tmp_path / "store")._use(lambda cache: cache._sql("PRAGMA mmap_size").fetchone()[0]) == 0


def test_a_caller_that_answers_its_deadline_is_not_stopped_again_by_the_enclosing_one():
    """The manager's deadline encloses the explore job's own, of the same length: the job's message must get out."""
    import time

    with managers.job_deadline(0.5):  # the manager's
        try:
            with managers.job_deadline(0.5):  # the callback's own
                time.sleep(5)
        except managers.JobDeadlineError:
            time.sleep(0.2)  # writing the page's message
            answered = True
    assert answered


# Jobs under caps (issue 20, fair shares): a job that writes when it started and ended, and how long it
# ran; it also marks that it holds its slots (``<record>.started``) as soon as it runs.
def _timed_job(set_progress, record, seconds):
    import pathlib
    import time

    started = time.time()
    pathlib.Path(f"{record}.started").touch()
    time.sleep(seconds)
    with open(record, "a", encoding="utf-8") as file:
        file.write(f"{started} {time.time()}\n")
    return "done"


def _start(manager, key, record, seconds, session="session-a", address=""):
    job_fn = manager.make_job_fn(_timed_job, True, key)
    return manager.call_job_fn(key, job_fn, [str(record), seconds],
                               {"state_values": {f"{ids.SESSION}.data": session}, "remote": address})


def _progress(manager, key):
    """The job's progress as it is now, read as Dash reads it (no wait for news: :meth:`get_progress` waits)."""
    return super(managers._EveryJobAccountedFor, manager).get_progress(key)


def _result(manager, key, job, timeout=60):
    from dash.testing.wait import until

    return until(lambda: (lambda value: None if value is manager.UNDEFINED else value)(
        manager.get_result(key, job)), timeout=timeout)


def test_with_one_slot_per_server_two_jobs_started_together_run_one_after_the_other(tmp_path, monkeypatch):
    from dash.testing.wait import until

    monkeypatch.setenv("PROCRUSTES_JOBS_PER_SERVER", "1")
    manager = managers.make_background_manager(tmp_path)
    record = tmp_path / "runs.txt"
    # Two sessions: only the server's cap stands between them.
    jobs = [(key, _start(manager, key, record, 2.0, session=key)) for key in ("first", "second")]
    queued = until(lambda: next((progress for key, _ in jobs if (progress := _progress(manager, key))
                                 and "Queued" in progress[1]), None), timeout=30)
    assert queued[1].startswith("Queued behind 1 running job on this server")
    assert [_result(manager, key, job) for key, job in jobs] == ["done", "done"]
    (first_start, first_end), (second_start, second_end) = sorted(
        tuple(map(float, line.split())) for line in record.read_text().splitlines())
    assert first_end <= second_start


def test_one_address_s_jobs_under_new_sessions_take_its_slots_and_leave_the_server_s_rest(tmp_path, monkeypatch):
    """Issue 20: a client inventing a session per job is held by its address's cap; another address's
    job meanwhile takes a server slot at once."""
    from dash.testing.wait import until

    monkeypatch.setenv("PROCRUSTES_JOBS_PER_SERVER", "2")
    monkeypatch.setenv("PROCRUSTES_JOBS_PER_ADDRESS", "1")
    manager = managers.make_background_manager(tmp_path)
    record = tmp_path / "runs.txt"
    flood = [(key, _start(manager, key, record, 2.0, session=key, address="10.0.0.7")) for key in ("first", "second")]
    queued = until(lambda: next((progress for key, _ in flood if (progress := _progress(manager, key))
                                 and "Queued" in progress[1]), None), timeout=30)
    assert queued[1].startswith("Queued behind 1 running job from this address")
    other = _start(manager, "other", tmp_path / "other.txt", 0.0, session="user", address="10.0.0.8")
    assert _result(manager, "other", other) == "done"
    assert [_result(manager, key, job) for key, job in flood] == ["done", "done"]
    (first_start, first_end), (second_start, second_end) = sorted(
        tuple(map(float, line.split())) for line in record.read_text().splitlines())
    assert first_end <= second_start
    # The other address's job did not wait for the flood's second one: it ran while the first held its slot.
    assert float((tmp_path / "other.txt").read_text().split()[0]) < second_start


def test_a_session_over_its_cap_waits_and_its_deadline_still_fires(tmp_path, monkeypatch):
    monkeypatch.setenv("PROCRUSTES_JOBS_PER_SESSION", "1")
    monkeypatch.setenv("PROCRUSTES_JOB_DEADLINE", "1.5")
    manager = managers.make_background_manager(tmp_path)
    slots = manager.slots  # another job of the session holds its only slot throughout
    with slots.slot_lock(slots.session_store, slots.scope("session", "session-a"), 0):
        job = _start(manager, "waiting", tmp_path / "runs.txt", 0.0)
        said = str(_result(manager, "waiting", job))
    assert "stopped at its deadline of 1.5 s" in said and not (tmp_path / "runs.txt").exists()


def _one_slot_held_and_one_job_queued(tmp_path, monkeypatch, lease):
    """A manager with one slot per session under a ``lease`` of that many seconds, a 10-minute job
    holding it, and a 0 s job queued behind it: ``(manager, holder, waiting, record of the waiting job)``."""
    from dash.testing.wait import until

    monkeypatch.setenv("PROCRUSTES_JOBS_PER_SESSION", "1")
    monkeypatch.setattr(slots, "SLOT_LEASE_SECONDS", lease)
    manager = managers.make_background_manager(tmp_path)
    holder = _start(manager, "holder", tmp_path / "held.txt", 600.0)
    # The second job starts once the first holds the slot: started together, either may take it first.
    until(lambda: (tmp_path / "held.txt.started").exists(), timeout=60)
    record = tmp_path / "runs.txt"
    waiting = _start(manager, "waiting", record, 0.0)
    until(lambda: "Queued" in (_progress(manager, "waiting") or ["", ""])[1], timeout=30)
    return manager, holder, waiting, record


def test_a_killed_job_frees_its_slot_within_the_lease(tmp_path, monkeypatch):
    import os
    import signal
    import time

    manager, holder, waiting, record = _one_slot_held_and_one_job_queued(tmp_path, monkeypatch, 2.0)
    os.kill(int(holder), signal.SIGKILL)  # out of memory, say: no code of the job runs to let the slot go
    killed = time.time()
    assert _result(manager, "waiting", waiting) == "done"
    started = float(record.read_text().split()[0])
    assert started - killed < slots.SLOT_LEASE_SECONDS + 2 * slots.SLOT_POLL_SECONDS + 5.0


def test_a_job_the_page_stops_lets_its_slot_go_at_once(tmp_path, monkeypatch):
    """Issue 20: a job replaced by a newer one (or cancelled) was killed and held its slot until the lease
    lapsed. Asked to stop, it lets the slot go: the queued job runs long before a 10-minute lease ends."""
    manager, holder, waiting, _ = _one_slot_held_and_one_job_queued(tmp_path, monkeypatch, 600.0)
    manager.terminate_job(holder)
    assert _result(manager, "waiting", waiting, timeout=120) == "done"
    assert not (tmp_path / "held.txt").exists()  # the stopped job wrote nothing after it was stopped


def test_a_queued_job_no_page_polls_gives_its_place_up_and_a_polled_one_waits_its_turn(tmp_path, monkeypatch):
    """Issue 20: a client that started jobs and never polled them had each run in its turn, ahead of the
    users queued behind them (a user's job waited past 130 s in CI's load test). Unpolled for
    ``UNWATCHED_SECONDS`` in the queue, a job gives its place up, and says why if a page asks later."""
    import time

    from components.jobs import _DASH_JOB_ERROR, job_failure_message

    monkeypatch.setattr(slots, "UNWATCHED_SECONDS", 2.0)
    monkeypatch.setattr(managers, "POLL_NOTE_SECONDS", 0.25)  # a poll noted at once, as 5 s are to 30
    manager, holder, unpolled, record = _one_slot_held_and_one_job_queued(tmp_path, monkeypatch, 600.0)
    polled = _start(manager, "polled", tmp_path / "polled.txt", 0.0)
    until = time.time() + 3 * slots.UNWATCHED_SECONDS
    while time.time() < until:  # a page polls one of the two queued jobs, twice a second
        assert manager.get_result("polled", polled) is manager.UNDEFINED
        time.sleep(0.5)
    said = _result(manager, "waiting", unpolled)["background_callback_error"]["msg"]
    assert said.startswith(slots.UNWATCHED_MESSAGE_START) and "2 s" in said
    assert job_failure_message(Exception(f"{_DASH_JOB_ERROR}{said}\nTraceback ...")) == said
    manager.terminate_job(holder)
    assert _result(manager, "polled", polled, timeout=120) == "done"
    assert not record.exists()  # the job that gave its place up computed nothing


def test_a_poll_note_that_cannot_be_written_or_read_never_fails_the_poll_nor_drops_the_job(manager, monkeypatch):
    """The notes are advice: a store that is locked or down is logged, the poll answered, the job kept."""
    def down(*args):
        raise OSError("store down")

    monkeypatch.setattr(manager, "_note_poll", down)
    assert manager.get_result("no-such-key", None) is manager.UNDEFINED  # no job: nothing noted
    manager._noted.clear()
    manager._polled_now("12345")  # a poll: logged, not raised
    monkeypatch.setattr(manager, "_read_poll", down)
    before = manager._last_polled()
    assert isinstance(before, float)  # unreadable: counts as a poll now, so a queued job keeps waiting
    watch = slots._Watch(manager._last_polled)
    monkeypatch.setattr(slots, "UNWATCHED_SECONDS", 0.05)
    import time

    time.sleep(0.1)
    assert watch.still_wanted()  # each unreadable read is a fresh note


def test_a_queued_job_s_watch_reads_changes_of_the_notes_not_their_clock(monkeypatch):
    """A note written by a web server whose clock is hours off (Celery: another host) still counts."""
    import time

    notes = iter([3.0, 3.0, 3.0, 7.0])  # another host's clock: far in the past
    monkeypatch.setattr(slots, "UNWATCHED_SECONDS", 0.2)
    watch = slots._Watch(lambda: next(notes))
    assert watch.still_wanted()
    time.sleep(0.3)
    assert not watch.still_wanted()  # unchanged past the limit
    assert watch.still_wanted()  # a new note: polled again


def test_progress_writes_every_new_stage_and_throttles_the_numbers_within_one(monkeypatch):
    """A run's quick stages all fell within one throttle interval, and the box named the first one ("sampling
    the data set") through a long graph sweep; a stage's counts still cost one write per interval."""
    clock = {"now": 100.0}
    monkeypatch.setattr(jobs.time, "monotonic", lambda: clock["now"])
    written = []
    report = jobs.progress_reporter(written.append, interval=0.25)
    for stage in ("sampling the data set", "searching the neighbours", "measuring: geodesics",
                  "measuring: geodesics: 1,000 of 2,000 sources", "measuring: geodesics: 1,500 of 2,000 sources"):
        report(0.5, stage)
    assert [stage for _, stage in written] == ["sampling the data set", "searching the neighbours",
                                               "measuring: geodesics", "measuring: geodesics: 1,000 of 2,000 sources"]
    clock["now"] += 0.3  # an interval later, the count moves on
    report(0.6, "measuring: geodesics: 2,000 of 2,000 sources")
    assert written[-1] == ("60", "measuring: geodesics: 2,000 of 2,000 sources")


@pytest.fixture
def clock(monkeypatch):
    """The managers' clock, moved on by their sleeps: how long a poll waited, without waiting."""
    now = {"t": 1000.0, "sleeps": 0}

    def sleep(seconds):
        now["t"] += seconds
        now["sleeps"] += 1

    monkeypatch.setattr(managers.time, "monotonic", lambda: now["t"])
    monkeypatch.setattr(managers.time, "sleep", sleep)
    return now


def test_a_poll_answers_at_once_with_a_result_or_set_props_and_waits_for_progress_or_nothing(manager, clock):
    """issue 24 item 3: a poll waits on the server for news, so a page learns of it at once and a quiet job costs
    a poll every few seconds; a progress label alone waits PROGRESS_WAIT_SECONDS, nothing LONG_POLL_SECONDS."""
    handle = manager.handle
    handle.set("result-key", {"answer": 1})
    assert manager.get_progress("result-key") is None and clock["sleeps"] == 0
    handle.set(manager._make_set_props_key("props-key"), {"store": {"data": 1}})
    assert manager.get_progress("props-key") is None and clock["sleeps"] == 0
    handle.set(manager._make_progress_key("progress-key"), ["40", "measuring"])
    started = clock["t"]
    assert manager.get_progress("progress-key") == ["40", "measuring"]
    assert managers.PROGRESS_WAIT_SECONDS <= clock["t"] - started < managers.LONG_POLL_SECONDS
    started = clock["t"]
    assert manager.get_progress("quiet-key") is None
    assert clock["t"] - started == pytest.approx(managers.LONG_POLL_SECONDS, abs=managers.LONG_POLL_STEP)


def test_polls_beyond_the_waiters_cap_answer_at_once(manager, clock):
    """A web process keeps most of its threads for other requests: past LONG_POLL_WAITERS waiting polls, a poll
    is a plain one."""
    for _ in range(managers.LONG_POLL_WAITERS):
        assert manager._waiters.acquire(blocking=False)
    assert manager.get_progress("quiet-key") is None and clock["sleeps"] == 0
    manager._waiters.release()
    assert manager.get_progress("quiet-key") is None and clock["sleeps"] > 0


def test_a_store_that_fails_during_the_wait_ends_it(manager, clock, monkeypatch):
    def broken(key):
        raise OSError("the hand-over store is gone")

    monkeypatch.setattr(manager, "_handed_over", broken)
    monkeypatch.setattr(manager, "result_ready", lambda key: False)
    assert manager._news("key", progress=True) and clock["sleeps"] == 0


def test_celery_s_props_are_read_once_and_its_result_is_kept():
    """Dash 4.4's Celery manager deleted the job's result key when it read the props the job set: the props came
    at every poll, and a result stored between the poll's two reads was lost."""
    class Backend(dict):
        def delete(self, key):
            self.pop(key, None)

    manager = object.__new__(managers._CeleryManager)
    manager.handle = type("App", (), {"backend": Backend()})()
    backend = manager.handle.backend
    backend["key"] = '{"answer": 1}'
    backend[manager._make_set_props_key("key")] = '{"store": {"data": 2}}'
    assert manager.get_updated_props("key") == {"store": {"data": 2}}
    assert manager.get_updated_props("key") == {} and backend["key"] == '{"answer": 1}'
