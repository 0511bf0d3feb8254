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
