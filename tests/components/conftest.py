"""Browser-test helpers shared by the component tests."""

import numpy as np
import pytest
from dash.testing.wait import until
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


@pytest.fixture
def tour_app_directory(tmp_path, computed_tours):
    """An app folder whose result cache is the tours' shared one, every step's runs computed (the
    ``computed_tours`` fixture): the page reads them, the test waits for no computation."""
    (tmp_path / "results").symlink_to(computed_tours.directory, target_is_directory=True)
    return tmp_path


@pytest.fixture
def steps_app_directory(tmp_path, tour_cache):
    """``steps_app_directory(*names)``: an app folder on the tours' shared result cache with the steps
    ``names`` computed (only those: a test of a few steps need not wait for all 29)."""
    from lab.tours.presets import STEPS
    from lab.compute import compute

    def make(*names):
        for name in names:
            compute(STEPS[name].request(), cache=tour_cache).result
        (tmp_path / "results").symlink_to(tour_cache.directory, target_is_directory=True)
        return tmp_path

    return make


@pytest.fixture
def choose(dash_duo):
    """``choose(dropdown_id, value)``: pick a dcc.Dropdown option by its value, as a user clicks it.

    Dash's own ``select_dcc_dropdown`` matches option text and silently does nothing when an option
    is scrolled out of a long list; this finds the option by value, clicks it, and waits for the
    menu to close, so the next dropdown starts from a closed menu.
    """
    def pick(dropdown_id, value):
        dash_duo.find_element(f"#{dropdown_id}").click()
        option = dash_duo.wait_for_element(f".dash-dropdown-options input[value='{value}']", timeout=30)
        # The option's own click handler, even when a sticky search box covers it in a scrolled list.
        dash_duo.driver.execute_script("arguments[0].click();", option.find_element(By.XPATH, "./ancestor::label"))
        if dash_duo.find_elements(".dash-dropdown-options"):  # re-choosing the current value keeps it open
            ActionChains(dash_duo.driver).send_keys(Keys.ESCAPE).perform()
        until(lambda: not dash_duo.find_elements(".dash-dropdown-options"), timeout=30)

    return pick


def _send_pointer_events(dash_duo, graph_id, events):
    """Dispatch ``(type, x, y)`` mouse events at data coordinates to a 2-D graph's drag layer.

    Plotly maps data to pixels with each axis's ``l2p``; the events go where a user's pointer
    lands, and bubble to the document, where Plotly follows a drag, so its own hover, click and
    select handling runs.
    """
    dash_duo.driver.execute_script(
        f"const gd = document.getElementById('{graph_id}').querySelector('.js-plotly-plot');"
        "const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();"
        "const drag = gd.querySelector('.nsewdrag');"
        "for (const [type, x, y] of arguments[0]) {"
        "  const px = box.left + xa._offset + xa.l2p(x), py = box.top + ya._offset + ya.l2p(y);"
        "  drag.dispatchEvent(new MouseEvent(type, {clientX: px, clientY: py, bubbles: true, buttons: 1}));"
        "}",
        [[kind, float(x), float(y)] for kind, x, y in events])


@pytest.fixture
def mouse_at(dash_duo):
    """``mouse_at(graph_id, x, y, events=("mousemove",))``: mouse events at data coordinates (x, y)."""
    def send(graph_id, x, y, events=("mousemove",)):
        _send_pointer_events(dash_duo, graph_id, [(kind, x, y) for kind in events])

    return send


@pytest.fixture
def drag(dash_duo):
    """``drag(graph_id, start, end)``: press at data point ``start``, move in steps, release at ``end``.

    With the box-select tool chosen this selects the points in the box, as a user's drag does.
    """
    def send(graph_id, start, end, steps=10):
        path = [(1 - t) * np.asarray(start, dtype=float) + t * np.asarray(end, dtype=float)
                for t in np.linspace(0.0, 1.0, steps + 1)]
        _send_pointer_events(dash_duo, graph_id, [("mousedown", *path[0]), *[("mousemove", *p) for p in path[1:]],
                                                  ("mouseup", *path[-1])])

    return send
