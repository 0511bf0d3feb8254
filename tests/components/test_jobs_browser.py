"""Every way a job ends reaches the page (issue 15): a killed job process is reported lost, a job past
its deadline says so, and the page keeps working."""

import os
import signal

from dash.testing.wait import until

from app import create_app
from components import ids
from components.jobs import LOST_JOB

from .test_app_browser import WAIT, open_page, severe_logs, type_number, wait_for_output_title


def test_a_killed_job_process_is_reported_lost_and_the_page_recovers(dash_duo, tmp_path):
    app = create_app(tmp_path)
    dash_duo.start_server(app)
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    job = ids.job_controls(ids.EXPLORE_JOB)
    type_number(dash_duo, ids.DATASET_SIZE, 12000)  # Isomap and every measure: tens of seconds
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job running", timeout=WAIT)
    manager = app._background_manager
    processes = until(lambda: [int(key.rsplit(":", 1)[1]) for key in manager.handle.iterkeys()
                               if str(key).startswith("procrustes-job-started:")], timeout=WAIT)
    os.kill(processes[-1], signal.SIGKILL)  # as the kernel's out-of-memory killer would
    dash_duo.wait_for_text_to_equal(f"#{ids.MESSAGE}", LOST_JOB, timeout=WAIT)
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job idle", timeout=WAIT)
    type_number(dash_duo, ids.DATASET_SIZE, 400)
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "n = 400", timeout=WAIT)
    assert severe_logs(dash_duo) == []


def test_a_job_past_its_deadline_says_so(dash_duo, tmp_path, monkeypatch):
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap, k = 10")
    # Jobs are forked from this process: the next one reads the short deadline (the first run, under the
    # full one, may take more than 2 s on a loaded machine; it did, at a load of 10 on 2 cores).
    monkeypatch.setenv("PROCRUSTES_JOB_DEADLINE", "2.0")
    type_number(dash_duo, ids.DATASET_SIZE, 12000)
    dash_duo.wait_for_contains_text(f"#{ids.MESSAGE}", "stopped at its deadline of 2 s", timeout=WAIT)
    assert dash_duo.find_element(f"#{ids.card_value('normalized')}").text == "—"
    assert severe_logs(dash_duo) == []


def test_a_tour_step_past_its_deadline_says_so_under_its_box(dash_duo, tmp_path, monkeypatch):
    """Tour jobs had no deadline (a step ran 777 s) and their callback sets none: the manager's does (issue 20)."""
    import time

    import algorithms

    def slow_embedding(*args, **kwargs):  # every embedding of the step takes a minute
        time.sleep(60)

    monkeypatch.setattr(algorithms, "embed", slow_embedding)
    monkeypatch.setenv("PROCRUSTES_JOB_DEADLINE", "3.0")
    open_page(dash_duo, create_app(tmp_path), "?tour=gr-fig1")
    report = ids.job_controls(ids.TOUR_JOB)["report"]
    dash_duo.wait_for_contains_text(f"#{report}", "stopped at its deadline of 3 s", timeout=WAIT)
    dash_duo.wait_for_class_to_equal(f"#{ids.job_controls(ids.TOUR_JOB)['box']}", "job idle", timeout=WAIT)
    assert severe_logs(dash_duo) == []
