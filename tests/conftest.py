"""Suite-wide pytest set-up: markers set from what a test uses, Chromium options for dash_duo.

Every test that uses ``dash_duo`` is marked ``browser``, so ``-m "not browser"`` needs no Chromium;
the Celery and load tests carry their markers in their modules.
"""

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "dash_duo" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


def pytest_setup_options():
    """Options for Dash's Chromium driver (dash[testing] calls this hook when it starts a browser).

    The machines running the suite have no network: background networking and component updates
    would only fill the log with refused connections. A fixed window size makes screenshots and
    layout comparable between runs.
    """
    from selenium.webdriver.chrome.options import Options

    options = Options()
    for argument in ("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,1000",
                     "--disable-background-networking", "--disable-component-update", "--no-first-run"):
        options.add_argument(argument)
    return options
