"""A cached result on the page: from the click to the views drawn, and the bytes that carry them.

Headless Chromium (Debian's chromium and chromedriver, as the browser tests use) against the app on a
loopback port, and, in the same run, against the app as it was at :data:`BASELINE_COMMIT` (checked
out into a temporary git worktree): the default swiss roll (n = 1 600) with Isomap, then LTSA is
computed once, then the algorithm menu switches between the two, both cached, :data:`SWITCHES`
times. A switch is timed from the option's click (the menu opened before it) to the output view's title
naming the algorithm (Plotly redraws the title with the data), and its bytes are the encoded sizes of the
callback responses in that interval (Chromium's performance log). With ``--large``, also the switch of a
20 000-point swiss roll between PCA and LTSA, its input drawn in 3-D and in the plane of its first two
coordinates (issue 24: within 0.5 s and 150 KB).

With ``--million``, also one run of a million points explored (PCA on a 6 x 1 strip, k = 10: a faithful
embedding whose every measure is quick; GP's memory estimate at 10^6 points, 5.7 GB, is above the 4 GB
budget, and PCA of a swiss roll is so unfaithful that its exact trustworthiness ranks most pairs): how
long until both views are drawn, how many points each draws, and whether a hover and a box selection
in the output mark the same data-set rows in the input view. It takes several minutes.

    python bench/browser.py [--quick] [--large] [--million] [--progressive] [--link] [--baseline COMMIT]
    (or: python -m bench --only browser)

With ``--progressive``, also an uncached Isomap run of a 20 000-point swiss roll opened from its link, here
and at the baseline: how long until the output is drawn and until every card is filled, and how long after
the job kept the output (read in the server's result cache every 0.02 s, here only) the page received its
record and drew it. Several minutes.

With ``--link``, also a cached 20 000-point run (PCA of the swiss roll, every measure) opened from its link
in a fresh browser, here and at the baseline, three times each after one opening computed it: how long
until both views are drawn (issue 24: within 5 s).

``--baseline`` sets the commit the switch is measured against (default :data:`BASELINE_COMMIT`), e.g.
the commit before a change, so the ratio is that change's.

Nothing here asserts a time (STYLE: speed lives in bench/).
"""

import json
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import requests

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.harness import Row, SuiteSkipped, Timing, checkouts, run_standalone  # noqa: E402

SUITE = "browser"
ROOT = pathlib.Path(__file__).resolve().parents[1]
BASELINE_COMMIT = "f09440c"  # main before the issue-12 and issue-16 work: every result through a job
SWITCHES = 6
TIMEOUT = 300
# The default page's run (a 1 600-point swiss roll) and its switch; at 20 000 points (``--large``) two
# algorithms quick to compute (Isomap's all-pairs geodesics take 45 s there), the input in 3-D and in a plane.
SWITCH_ALGORITHMS = (("isomap", "Isomap"), ("ltsa", "LTSA"))
LARGE_ALGORITHMS = (("pca", "PCA"), ("ltsa", "LTSA"))
LARGE_LINKS = {"3-D": "/?dataset=swissroll&n=20000&algorithm=pca&k=10",
               "plane": "/?dataset=swissroll&n=20000&algorithm=pca&k=10&view=01"}
SERVER = "import sys; from app import create_app; create_app(sys.argv[1]).run(host='127.0.0.1', port=int(sys.argv[2]))"


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    driver_path, browser_path = shutil.which("chromedriver"), shutil.which("chromium")
    if not driver_path or not browser_path:
        raise SuiteSkipped("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    options = Options()
    options.binary_location = browser_path
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1500,1000", "--disable-background-networking", "--disable-component-update",
                     "--no-first-run"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service(driver_path), options=options)


class Served:
    """The app of checkout ``root`` on a loopback port, with a fresh cache."""

    def __init__(self, root, scratch):
        self.port, self.root = _free_port(), root
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(pathlib.Path(scratch) / f"server-{self.port}.log", "wb")
        cache = self.cache = pathlib.Path(scratch) / f"cache-{self.port}"
        self.process = subprocess.Popen([sys.executable, "-c", SERVER, str(cache), str(self.port)], cwd=root,
                                        stdout=self.log, stderr=subprocess.STDOUT)

        def ready():
            if self.process.poll() is not None:
                raise RuntimeError(f"the app of {root} exited")
            try:
                return requests.get(self.url, timeout=5).status_code == 200
            except requests.ConnectionError:
                return False

        _wait(ready, timeout=120, step=0.25)

    def stop(self):
        self.process.terminate()
        self.process.wait(30)
        self.log.close()


def _wait(condition, timeout=TIMEOUT, step=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError("the page did not reach the expected state")


def _output_title(driver):
    return driver.execute_script(
        "const e = document.getElementById('view-output-graph'), g = e && e.querySelector('.js-plotly-plot');"
        "return g && g.layout && g.layout.title ? g.layout.title.text : '';") or ""


def _open_menu(driver, value):
    """Open the algorithm menu as a user clicks it; its option ``value`` (an input inside the option's label)."""
    driver.find_element("css selector", "#algorithm-select").click()
    return _wait(lambda: driver.find_elements("css selector", f".dash-dropdown-options input[value='{value}']"))[0]


def _click_option(driver, option):
    driver.execute_script("arguments[0].closest('label').click();", option)


def _choose(driver, value):
    """Pick a dcc.Dropdown option of the algorithm menu as a user clicks it (the tests' ``choose``)."""
    _click_option(driver, _open_menu(driver, value))


def _measured(driver, label):
    """The output view draws ``label``'s whole run (not a run still measuring)."""
    title = _output_title(driver)
    return label in title and "measuring" not in title


def _response_bytes(driver):
    """Encoded bytes of the callback responses logged since the last call: (all of them, the largest)."""
    requests, sizes = {}, [0]
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.responseReceived" and "_dash-update-component" in \
                message["params"]["response"]["url"]:
            requests[message["params"]["requestId"]] = True
        elif message["method"] == "Network.loadingFinished" and message["params"]["requestId"] in requests:
            sizes.append(message["params"]["encodedDataLength"])
    return sum(sizes), max(sizes)


def switches(url, count, link="/", algorithms=SWITCH_ALGORITHMS):
    """Seconds and response bytes of ``count`` switches between two cached algorithms of the run at ``link``, each
    timed from the option's click (the menu is opened before) to the output view's title naming it."""
    (first, first_label), (second, second_label) = algorithms
    driver = _browser()
    try:
        driver.get(url + link)
        _wait(lambda: _measured(driver, first_label))
        _choose(driver, second)
        _wait(lambda: _measured(driver, second_label))  # computed once; cached from now on
        _choose(driver, first)
        _wait(lambda: _measured(driver, first_label))
        time.sleep(1.0)
        _response_bytes(driver)
        seconds, sizes = [], []
        for turn in range(count):
            algorithm, label = algorithms[(turn + 1) % 2]
            option = _open_menu(driver, algorithm)
            started = time.perf_counter()
            _click_option(driver, option)
            _wait(lambda: label in _output_title(driver))
            seconds.append(time.perf_counter() - started)
            time.sleep(1.0)  # any callback the switch set off has answered
            sizes.append(_response_bytes(driver))
        return seconds, sizes
    finally:
        driver.quit()


def _timing(seconds):
    return Timing(statistics.median(seconds), min(seconds), len(seconds), None, None)


def _each_alone(baseline_commit, prefix, measure):
    """``{"ours": measure(server), "baseline": measure(server)}``: this checkout's app (a :class:`Served`), then
    ``baseline_commit``'s, each server alone on the machine."""
    times = {}
    with checkouts(baseline_commit, prefix) as (scratch, roots):
        for name, root in roots.items():
            server = Served(root, scratch)
            try:
                times[name] = measure(server)
            finally:
                server.stop()
    return times


def switch_rows(count, baseline_commit=BASELINE_COMMIT, large=False):
    """The default page's switch, ours against ``baseline_commit``; with ``large`` the 20 000-point one too, with
    the input drawn in 3-D and in a plane."""
    cases = [("cached algorithm switch, click to views drawn", 1600, "/", SWITCH_ALGORITHMS)]
    if large:
        cases += [(f"cached algorithm switch, input in {view}, click to views drawn", 20_000, link, LARGE_ALGORITHMS)
                  for view, link in LARGE_LINKS.items()]
    found = []
    with checkouts(baseline_commit, "procrustes-browser-") as (scratch, roots):
        served = {name: Served(root, scratch) for name, root in roots.items()}
        try:
            for name, n, link, algorithms in cases:
                ours, ours_bytes = switches(served["ours"].url, count, link, algorithms)
                baseline_seconds, baseline_bytes = switches(served["baseline"].url, count, link, algorithms)
                found.append(Row.from_timing(
                    SUITE, name, n, _timing(ours), baseline=f"the app at {baseline_commit}",
                    baseline_timing=_timing(baseline_seconds),
                    note=(f"responses {_kilobytes(ours_bytes, 0)} KB per switch, the largest (the views) "
                          f"{_kilobytes(ours_bytes, 1)} KB (medians; baseline {_kilobytes(baseline_bytes, 0)} KB, the "
                          f"largest {_kilobytes(baseline_bytes, 1)} KB); {count} switches each")))
        finally:
            for server in served.values():
                server.stop()
    return found


PROGRESSIVE_LINK = "/?dataset=swissroll&n=20000&algorithm=isomap&k=10"


def progressive_run(server, read_cache=True):
    """An uncached run opened from ``server``'s :data:`PROGRESSIVE_LINK`: seconds from the page's opening until the
    job kept its output (a partial result with it in the server's result cache, read every 0.02 s by a thread of
    its own when ``read_cache``: None otherwise, or without partial runs), until the first partial record with
    the output reached the page, until the output was drawn (a title saying "measuring", or the whole run's),
    and until the whole run was drawn; and that record."""
    driver = _browser()
    published, arrived, drawn, record = [None], None, None, None
    done = threading.Event()
    started = time.perf_counter()

    def watch(kept):
        while not done.is_set():
            if kept():  # the job kept it before this read ended
                published[0] = time.perf_counter() - started
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, args=(_partial_output(server.cache),), daemon=True)
    try:
        driver.get(server.url + PROGRESSIVE_LINK)
        if read_cache:
            watcher.start()
        while True:
            title, now = _output_title(driver), time.perf_counter() - started
            seen = driver.execute_script(_STORE, "explore-run-partial") if record is None else None
            if seen and seen.get("embedded"):  # the first record with the output (the input comes before)
                arrived, record = now, seen
            if drawn is None and "Isomap" in title:
                drawn = now
            if "Isomap" in title and "measuring" not in title:
                return published[0], arrived, drawn, now, record
            if now > 3600:
                raise TimeoutError("the run was not drawn within an hour")
            time.sleep(0.05)
    finally:
        done.set()
        driver.quit()


def _partial_output(cache):
    """Whether the result cache under ``cache`` (this checkout's server's) holds a partial result of the
    progressive link's run with its output, as a callable."""
    from lab import RunRequest, from_query
    from lab.store.cache import host_results

    results, request = host_results(cache), RunRequest.from_state(from_query(PROGRESSIVE_LINK.lstrip("/")))

    def kept():
        try:
            partial = results.get_partial(request)
        except Exception:  # noqa: BLE001 (a store busy with a write: read again)
            return False
        return partial is not None and bool(partial.Y.shape[1])

    return kept


# A dcc.Store's data as the renderer holds it (the layout's props, found by the component's id).
_STORE = (
    "const find = (node, id) => { if (!node || typeof node !== 'object') { return null; }"
    "  if (node.props && node.props.id === id) { return node.props.data; }"
    "  for (const value of Object.values(node.props || node)) { const hit = find(value, id); if (hit) { return hit; } }"
    "  return null; };"
    "return find(window.store.getState().layout, arguments[0]);")


def progressive_rows(baseline_commit=BASELINE_COMMIT):
    """The uncached 20 000-point Isomap run, here and at ``baseline_commit``, one after the other (each server
    alone on the machine)."""
    # The baseline's store is not read: opening it with this checkout's options would rewrite its settings.
    times = _each_alone(baseline_commit, "procrustes-progressive-",
                        lambda server: progressive_run(server, read_cache=server.root == ROOT))
    (published, arrived, drawn, whole, record), (*_, base_drawn, base_whole, _) = times["ours"], times["baseline"]
    if record is None:
        after = "no partial run drawn"
    elif published is None:
        after = "a partial run drawn, but its output was not seen in the server's result cache"
    else:
        holding = f"{len(record['summary'])} measures" if record["summary"] else "the output alone"
        after = (f"the job kept its output {published:.1f} s after the page opened (its algorithm had ended; read "
                 f"from the server's result cache every 0.02 s); the first partial record ({holding}, job time "
                 f"{record['seconds']:.1f} s) reached the page {arrived - published:.2f} s later, and the output "
                 f"was drawn {drawn - published:.2f} s after the job kept it")
    return [Row(SUITE, "uncached Isomap from its link, open to output drawn", 20_000, drawn, 1, None,
                baseline=f"the app at {baseline_commit}", baseline_seconds=base_drawn, note=after),
            Row(SUITE, "uncached Isomap from its link, open to every card filled", 20_000, whole, 1, None,
                baseline=f"the app at {baseline_commit}", baseline_seconds=base_whole)]


LINK = "/?dataset=swissroll&n=20000&algorithm=pca&k=10"
LINK_OPENINGS = 3


def _both_drawn(driver):
    """Whether the output view draws the whole PCA run and the input view draws points (titles differ by commit)."""
    title = _output_title(driver)
    return "PCA" in title and "measuring" not in title and driver.execute_script(
        "const e = document.getElementById('view-input-graph'), g = e && e.querySelector('.js-plotly-plot');"
        "return Boolean(g && g.data && g.data.length && g.data[0].x && (g.data[0].x.length || g.data[0].x.bdata));")


def cached_link(url, openings):
    """Seconds from opening ``url`` + :data:`LINK` in a fresh browser to both views drawn, its run cached (one
    opening computes it first), ``openings`` times; and the bytes of the callback responses of the last."""
    driver = _browser()
    try:
        driver.get(url + LINK)
        _wait(lambda: _both_drawn(driver), timeout=3600, step=0.5)
    finally:
        driver.quit()
    seconds = []
    for _ in range(openings):
        driver = _browser()  # a fresh browser: nothing of the page cached
        try:
            started = time.perf_counter()
            driver.get(url + LINK)
            _wait(lambda: _both_drawn(driver))
            seconds.append(time.perf_counter() - started)
            time.sleep(1.0)
            total, _ = _response_bytes(driver)
        finally:
            driver.quit()
    return seconds, total


def link_rows(baseline_commit=BASELINE_COMMIT):
    """A cached 20 000-point run opened from its link in a fresh browser, here and at ``baseline_commit``."""
    times = _each_alone(baseline_commit, "procrustes-link-", lambda server: cached_link(server.url, LINK_OPENINGS))
    (ours, ours_bytes), (base, base_bytes) = times["ours"], times["baseline"]
    return [Row.from_timing(SUITE, "cached run opened from its link, fresh browser to both views drawn", 20_000,
                            _timing(ours), baseline=f"the app at {baseline_commit}", baseline_timing=_timing(base),
                            note=f"callback responses {ours_bytes / 1024:.0f} KB (baseline {base_bytes / 1024:.0f} "
                                 f"KB); {LINK_OPENINGS} openings each, the run computed by one before")]


def _kilobytes(sizes, which):
    """Median over the switches of the total (``which`` 0) or largest (1) response, in KB."""
    return f"{statistics.median(size[which] for size in sizes) / 1024:.0f}"


def million_rows():
    """One run of a million points explored: time to both views drawn, points each draws, a linked hover."""
    with tempfile.TemporaryDirectory(prefix="procrustes-million-") as scratch:
        server = Served(ROOT, scratch)
        driver = _browser()
        try:
            started = time.perf_counter()
            driver.get(server.url + "/?dataset=strip&n=1000000&algorithm=pca&view=01")
            _wait(lambda: "n = 1000000" in driver.execute_script(
                "const e = document.getElementById('view-input-graph'), g = e && e.querySelector('.js-plotly-plot');"
                "return g && g.layout && g.layout.title ? g.layout.title.text : '';"), timeout=3600, step=1)
            _wait(lambda: "PCA" in _output_title(driver), timeout=3600, step=1)  # drawn, maybe still measuring
            seconds = time.perf_counter() - started
            _wait(lambda: _measured(driver, "PCA"), timeout=3600, step=1)
            measured = time.perf_counter() - started
            counts = driver.execute_script(_COLUMNS + "return ['view-input-graph', 'view-output-graph'].map("
                                           "(id) => column(graph(id).data[0].x).length);")
            hovered = _hover_and_select(driver, counts[1] // 3)
        finally:
            driver.quit()
            server.stop()
    return [Row(SUITE, "a million-point run (PCA of a strip), page open to both views drawn", 1_000_000, seconds, 1,
                None,
                note=f"every measure shown at {measured:.1f} s; points drawn: input plane {int(counts[0]):,}, output "
                     f"{int(counts[1]):,}; then {hovered}")]


# Browser helpers: a graph's Plotly element, a trace column decoded (plain, or Plotly's typed-array spec).
_COLUMNS = (
    "const graph = (id) => document.getElementById(id).querySelector('.js-plotly-plot');"
    "const column = (v) => { if (v.bdata === undefined) { return v; }"
    "  const bytes = Uint8Array.from(atob(v.bdata), (c) => c.charCodeAt(0));"
    "  return new ({f4: Float32Array, f8: Float64Array, i4: Int32Array}[v.dtype])(bytes.buffer); };"
    "const events = (gd, kinds, points) => { const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;"
    "  const box = gd.getBoundingClientRect(), drag = gd.querySelector('.nsewdrag');"
    "  kinds.forEach((kind, i) => drag.dispatchEvent(new MouseEvent(kind, {bubbles: true, buttons: 1,"
    "    clientX: box.left + xa._offset + xa.l2p(points[i][0]), clientY: box.top + ya._offset + ya.l2p(points[i][1])"
    "  }))); };")


def _hover_and_select(driver, index):
    """Hover point ``index`` of the output view, then box-select around it, as a pointer does; whether the
    ring and the selection land on the same data-set rows in the input view (drawn in the plane of its
    coordinates 0 and 1, every point in data-set order)."""
    started = time.perf_counter()
    driver.execute_script(_COLUMNS + "const gd = graph('view-output-graph'), i = arguments[0];"
                          "const x = column(gd.data[0].x), y = column(gd.data[0].y);"
                          "events(gd, ['mousemove'], [[x[i], y[i]]]);", index)
    ring = _COLUMNS + (
        "const out = graph('view-output-graph'), inp = graph('view-input-graph');"
        "const ox = column(out.data[0].x), oy = column(out.data[0].y);"
        "const ix = column(inp.data[0].x), iy = column(inp.data[0].y);"
        "if (arguments[0] === 1) {"
        # the hover ring, which a 2-D view draws as a circle shape named 'hovered' around the point: its centre is
        # the point's to within rounding, so the rows drawn within a millionth of the view of it are its candidates
        "  const centre = (gd) => (gd.layout.shapes || []).filter((shape) => shape.name === 'hovered').map("
        "    (shape) => [(shape.x0 + shape.x1) / 2, (shape.y0 + shape.y1) / 2, shape.x1 - shape.x0])[0];"
        "  const at = centre(out), there = centre(inp);"
        "  if (!at || !there) { return null; }"
        "  const near = (xs, ys, c) => { const found = [];"
        "    for (let r = 0; r < xs.length; r += 1) {"
        "      if (Math.abs(xs[r] - c[0]) <= 1e-6 * c[2] && Math.abs(ys[r] - c[1]) <= 1e-6 * c[2]) { found.push(r); } }"
        "    return found; };"
        "  const rows = near(ox, oy, at), inRows = new Set(near(ix, iy, there));"
        "  return [1, 1, rows.some((r) => inRows.has(r))]; }"
        "const outMarks = out.data[2], inMarks = inp.data[2];"  # the selection's marks
        "if (!outMarks.x || !outMarks.x.length) { return null; }"
        # x -> the data-set rows drawn at it, once (at most 65 535 keys: 16-bit fixed point puts a few points
        # on one spot, so a marked point is any of the rows drawn at its x and y)
        "if (!window.outputRows) { window.outputRows = new Map();"
        "  for (let r = 0; r < ox.length; r += 1) { const found = window.outputRows.get(ox[r]);"
        "    if (found) { found.push(r); } else { window.outputRows.set(ox[r], [r]); } } }"
        "const rows = Array.from(outMarks.x, (x, j) => (window.outputRows.get(x) || []).filter("
        "  (r) => oy[r] === outMarks.y[j]));"
        "const same = rows.every((found, j) => found.some("
        "  (r) => ix[r] === inMarks.x[j] && iy[r] === inMarks.y[j]));"
        "return [rows.length, inMarks.x.length, same];")
    hover = _wait(lambda: driver.execute_script(ring, 1), timeout=120, step=0.05)
    ringed = time.perf_counter() - started
    driver.execute_script(_COLUMNS + "const gd = graph('view-output-graph'), i = arguments[0];"
                          "window.Plotly.relayout(gd, {dragmode: 'select'}).then(() => {"
                          "const x = column(gd.data[0].x), y = column(gd.data[0].y);"
                          # a box of 10% of each axis: Plotly ignores a selection box under 12 pixels
                          "const dx = 0.05 * (gd._fullLayout.xaxis.range[1] - gd._fullLayout.xaxis.range[0]);"
                          "const dy = 0.05 * (gd._fullLayout.yaxis.range[1] - gd._fullLayout.yaxis.range[0]);"
                          "const path = [0, 0.25, 0.5, 0.75, 1].map("
                          "  (t) => [x[i] - dx + 2 * t * dx, y[i] - dy + 2 * t * dy]);"
                          "events(gd, ['mousedown', 'mousemove', 'mousemove', 'mousemove', 'mouseup'], path); });",
                          index)
    selection = _wait(lambda: driver.execute_script(ring, 2), timeout=600, step=1)
    return (f"hover ringed {hover[0]} point in the output and {hover[1]} in the input ({ringed:.2f} s from the "
            f"mouse's move to both rings found), the same row: {hover[2]}; "
            f"a box selection marked {selection[0]:,} points in the output and {selection[1]:,} in the input, "
            f"the same rows: {selection[2]}")


def rows(quick=False, million=False, baseline=BASELINE_COMMIT, progressive=False, link=False, large=False):
    """The switch (ours against the ``baseline`` commit; with ``large`` at 20 000 points too); with ``million`` the
    million-point run, with
    ``progressive`` the uncached 20 000-point run against the baseline, with ``link`` the cached 20 000-point
    run opened from its link against the baseline."""
    found = switch_rows(2 if quick else SWITCHES, baseline, large)
    return (found + (million_rows() if million else []) + (progressive_rows(baseline) if progressive else [])
            + (link_rows(baseline) if link else []))


def main(argv=None):
    arguments = list(sys.argv[1:] if argv is None else argv)
    million, progressive, link = "--million" in arguments, "--progressive" in arguments, "--link" in arguments
    large = "--large" in arguments
    for flag in ("--million", "--progressive", "--link", "--large"):
        if flag in arguments:
            arguments.remove(flag)
    baseline = BASELINE_COMMIT
    if "--baseline" in arguments:
        at = arguments.index("--baseline")
        if at + 1 == len(arguments):
            raise SystemExit("--baseline needs a commit, e.g. --baseline HEAD~1")
        baseline = arguments[at + 1]
        del arguments[at:at + 2]
    run_standalone(lambda quick=False: rows(quick, million, baseline, progressive, link, large),
                   f"{SUITE} (times in seconds)", "2 switches", arguments)


if __name__ == "__main__":
    main()
