"""Browser-test helpers shared by the component tests."""

import pytest
from dash.testing.wait import until
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


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


@pytest.fixture
def mouse_at(dash_duo):
    """``mouse_at(graph_id, x, y, events=("mousemove",))``: mouse events at data coordinates (x, y).

    Plotly maps data to pixels with each axis's ``l2p``; the events go to the plot's drag layer, where
    a user's pointer lands, so Plotly's own hover and click handling runs.
    """
    def send(graph_id, x, y, events=("mousemove",)):
        dash_duo.driver.execute_script(
            f"const gd = document.getElementById('{graph_id}').querySelector('.js-plotly-plot');"
            "const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();"
            "const px = box.left + xa._offset + xa.l2p(arguments[0]), py = box.top + ya._offset + ya.l2p(arguments[1]);"
            "const drag = gd.querySelector('.nsewdrag');"
            "for (const type of arguments[2])"
            "  drag.dispatchEvent(new MouseEvent(type, {clientX: px, clientY: py, bubbles: true}));",
            float(x), float(y), list(events))

    return send
