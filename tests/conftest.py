"""Suite-wide pytest set-up: markers set from what a test uses, Chromium options for dash_duo, and the
one result cache of the papers' tours.

Every test that uses ``dash_duo`` is marked ``browser``, so ``-m "not browser"`` needs no Chromium;
the Celery and load tests carry their markers in their modules.
"""

import pytest


@pytest.fixture(scope="session")
def tour_cache(request, tmp_path_factory):
    """The result cache every test of the tours' runs shares, kept in pytest's cache folder when there is
    one (its keys carry the code version: a changed checkout computes afresh)."""
    from lab import ResultCache

    cache = getattr(request.config, "cache", None)
    return ResultCache(cache.mkdir("procrustes-tour-results") if cache is not None
                       else tmp_path_factory.mktemp("tours"))


@pytest.fixture(scope="session")
def computed_tours(tour_cache):
    """``tour_cache`` holding every run of every tour step (190 runs, about 5 minutes the first time): the
    browser tests then read them as the page does, and wait for no computation."""
    from lab.presets import STEPS
    from lab.tours import compute_step

    for step in STEPS.values():
        compute_step(step, tour_cache)
    return tour_cache


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
