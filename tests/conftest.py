"""Suite-wide pytest set-up: markers set from what a test uses, Chromium options for dash_duo, the
one result cache of the papers' tours, settings that follow a test's environment, and what lets
pytest-xdist's workers run side by side.

Every test that uses ``dash_duo`` or ``dash_br`` is marked ``browser``, so ``-m "not browser"`` needs no Chromium;
the Celery and load tests carry their markers in their modules. Under ``pytest -n N --dist loadgroup``
each file is one work unit, the tours' files one together, the heaviest first; each worker's dash
servers take ports of their own.
"""

import os

import pytest

import settings

# The suite calls umap-learn and PaCMAP directly too (references the algorithms are compared with), and the
# page's jobs fork from the pytest process: under numba's GNU OpenMP layer a child forked after such a call
# is killed ("Terminating: fork() called from a process already using GNU OpenMP"). The algorithms set the
# fork-safe layer before their own runs (algorithms/neighbor_embeddings.py); the suite's direct calls get it
# here, before numba loads. The test of the algorithms' own setting runs in a child without this variable.
os.environ.setdefault("NUMBA_THREADING_LAYER", "forksafe")


@pytest.fixture(autouse=True)
def settings_follow_the_environment(monkeypatch):
    """Every test reads the settings of its own environment, also after it changes a variable.

    :func:`settings.settings` reads the environment once per process; here it is read afresh at the
    start of each test and after each ``monkeypatch.setenv`` or ``delenv``, so a test that sets a
    variable sees it without knowing of the cache.
    """
    settings.settings.cache_clear()
    for name in ("setenv", "delenv"):
        def changed(*args, change=getattr(monkeypatch, name), **kwargs):
            change(*args, **kwargs)
            settings.settings.cache_clear()

        setattr(monkeypatch, name, changed)


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
    from lab.tours.presets import STEPS
    from lab.compute import compute

    # The tours' test files run on one worker (TOUR_FILES); another process reading the same cache folder
    # would wait for a key being computed rather than compute it twice (ResultCache.get_or_compute).
    for step in STEPS.values():
        compute(step.request(), cache=tour_cache).result
    return tour_cache


def pytest_configure(config):
    """Under pytest-xdist, give each worker's dash servers their own range of ports.

    dash[testing] numbers its servers' ports from one class counter that every process starts
    alike: two workers would both bind the first.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw"):
        from dash.testing.application_runners import BaseDashRunner

        BaseDashRunner._next_port += 1000 * (int(worker[2:]) + 1)


# The files whose tests read the tours' runs (``computed_tours``, ``steps_app_directory``): one xdist
# group, so one worker computes the 190 runs once, its per-process memos (measures.memo) serving every
# step of an input, where two workers would each wait on the other's runs and recompute each input's side.
TOUR_FILES = ("tests/lab/test_tours.py", "tests/components/test_tours.py", "tests/components/test_tours_browser.py",
              "tests/components/test_state_browser.py")
# The heaviest work units first (``--dist loadgroup --no-loadscope-reorder`` keeps this order): a long
# unit left for the end would run alone on one worker while the other idles.
_HEAVY_MARKERS = ("browser", "celery", "load", "slow")


def _work_unit(item):
    """The xdist group of ``item``: the tours' files together, a test that names its group (the UMAP tests,
    one started server's tests) in it, any other test with its file (so a module-scoped fixture is set up
    on one worker only)."""
    path = item.nodeid.split("::")[0]
    named = item.get_closest_marker("xdist_group")
    return "tours" if path in TOUR_FILES else named.args[0] if named else path


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups into the node ids
def pytest_collection_modifyitems(items):
    for item in items:
        if {"dash_duo", "dash_br"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(_work_unit(item)))
    heavy = {_work_unit(item) for item in items if any(item.get_closest_marker(name) for name in _HEAVY_MARKERS)}
    # A stable sort: the tours first, then every unit holding a browser, Celery, load or slow test.
    items.sort(key=lambda item: (_work_unit(item) != "tours", _work_unit(item) not in heavy))


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
