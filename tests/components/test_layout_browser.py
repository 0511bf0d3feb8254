"""Browser tests of the page's layout: no blank band above the tabs, inputs wide enough for their numbers.

Run with ``python -m pytest --headless``. Screenshots land in ``tmp_path`` for a look.
"""

from dash.testing.wait import until

from app import create_app
from components import ids

from .test_app_browser import WAIT, severe_logs, wait_for_output_title

# The tabs sit right under the panel's top edge: the page's margins, nothing more.
MAX_GAP_ABOVE_TABS = 20


def _open_tab(dash_duo, label):
    next(tab for tab in dash_duo.find_elements(f"#{ids.TABS} .tab") if tab.text == label).click()
    until(lambda: dash_duo.find_element(f"#{ids.TABS} .tab--selected").text == label, timeout=WAIT)


def _gap_above_tabs(dash_duo):
    panel_top = dash_duo.find_element(f"#{ids.DATASET}").find_element("xpath", "ancestor::*[contains(@class, "
                                                                             "'panel')][1]").rect["y"]
    return dash_duo.find_element(f"#{ids.TABS}").rect["y"] - panel_top


def test_no_blank_band_above_the_tabs_and_run_b_s_inputs_show_their_largest_numbers(dash_duo, tmp_path):
    dash_duo.start_server(create_app(tmp_path))  # an empty result cache, a fresh browser
    wait_for_output_title(dash_duo, "k = 10")
    _open_tab(dash_duo, "Sweep k")
    dash_duo.driver.save_screenshot(str(tmp_path / "sweep.png"))
    assert _gap_above_tabs(dash_duo) <= MAX_GAP_ABOVE_TABS
    dash_duo.find_element(".upload summary").click()
    _open_tab(dash_duo, "Explore")
    dash_duo.driver.save_screenshot(str(tmp_path / "upload_open.png"))
    assert _gap_above_tabs(dash_duo) <= MAX_GAP_ABOVE_TABS
    # The explore job's report, empty when no job failed, is no pink band either.
    report = dash_duo.find_element(f"#{ids.job_controls(ids.EXPLORE_JOB)['report']}")
    assert report.text == "" and report.value_of_css_property("background-color") == "rgba(0, 0, 0, 0)"

    # Run B's k and random-state inputs show their largest numbers whole.
    _open_tab(dash_duo, "Two runs")
    for component, number in ((ids.PAIR_NEIGHBORS, "50"), (ids.PAIR_RANDOM_STATE, str(2**32 - 1))):
        field = dash_duo.find_element(f"#{component}")
        field.send_keys(number)
        # The whole number shows: nothing scrolled out of the field.
        assert dash_duo.driver.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth;", field)
        assert field.rect["width"] >= 60
    dash_duo.driver.save_screenshot(str(tmp_path / "two_runs.png"))
    assert severe_logs(dash_duo) == []
