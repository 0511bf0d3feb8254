"""Suite-wide pytest set-up: Chromium options for the dash_duo browser tests."""


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
