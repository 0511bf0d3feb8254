"""A notebook that answers back (issue 23): ``notebook.show`` in a real IPython kernel, its page in headless Chromium.

The kernel is started with ``jupyter_client`` as a notebook server starts one, and the test sends it cells. The
page is opened on the address ``show`` serves, from an empty cache and a fresh browser. What the user selects in
the page is read in the kernel; a view and a selection set in the kernel are read off the page.
"""

import json
import os
import pathlib
import socket

import numpy as np
import pytest
from dash.testing.wait import until

import algorithms
import datasets
import measures
from components import ids

from .conftest import _send_pointer_events
from .test_app_browser import WAIT, browser_array, carried, severe_logs, wait_for_output_title
from .test_explore_browser import choose_tool, marked, marked_count

jupyter_client = pytest.importorskip("jupyter_client")
ROOT = pathlib.Path(__file__).parents[2]
N_SAMPLES = 800


class Kernel:
    """An IPython kernel (``ipykernel``, this interpreter) that runs cells and hands back what they print."""

    def __init__(self, cwd):
        from jupyter_client.manager import start_new_kernel

        self.manager, self.client = start_new_kernel(
            startup_timeout=120, kernel_name="python3", cwd=str(cwd),
            env={**os.environ, "PYTHONPATH": str(ROOT)})

    def run(self, code, timeout=WAIT):
        """Run one cell; its printed text (an error's traceback fails the test)."""
        printed = []

        def hook(message):
            if message["msg_type"] == "stream":
                printed.append(message["content"]["text"])
            elif message["msg_type"] == "error":
                printed.append("\n".join(message["content"]["traceback"]))

        reply = self.client.execute_interactive(code, timeout=timeout, output_hook=hook)
        assert reply["content"]["status"] == "ok", "".join(printed)
        return "".join(printed)

    def value(self, expression):
        """An expression's value, through JSON."""
        return json.loads(self.run(f"import json; print(json.dumps({expression}))"))

    def close(self):
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


@pytest.fixture
def kernel(tmp_path):
    started = Kernel(tmp_path)
    yield started
    started.close()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_selection_in_the_page_reaches_python_and_python_s_view_and_selection_reach_the_page(dash_br, kernel,
                                                                                                tmp_path):
    port = free_port()
    kernel.run(f"""
import numpy as np
import algorithms, datasets
from notebook import show
data = datasets.load("swissroll", n={N_SAMPLES})
Y = algorithms.embed("isomap", data.X, n_neighbors=10)
page = show(data.X, Y, mode="external", port={port}, cache_dir={str(tmp_path / "cache")!r})
""")
    # The page, in a fresh browser, measures the kernel's arrays (an empty cache: its job computes them).
    dash_br.server_url = f"http://127.0.0.1:{port}"
    wait_for_output_title(dash_br, "your uploaded output, k = 10", timeout=2 * WAIT)
    data = datasets.load("swissroll", n=N_SAMPLES)
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    assert kernel.value("page.state.method.algorithm") == "uploaded"

    # A box in the output view: the rows it marks are the rows Python reads.
    choose_tool(dash_br, ids.OUTPUT_GRAPH, "select")
    low, high = np.percentile(Y, 20, axis=0), np.percentile(Y, 50, axis=0)
    path = [(1 - t) * low + t * high for t in np.linspace(0, 1, 11)]
    _send_pointer_events(dash_br, ids.OUTPUT_GRAPH, [("mousedown", *path[0]), *[("mousemove", *p) for p in path[1:]],
                                                     ("mouseup", *path[-1])])
    until(lambda: marked_count(dash_br, ids.OUTPUT_GRAPH) > 0, timeout=WAIT)
    Y_drawn = carried(Y)  # as the page draws it (16-bit fixed point)
    marks = marked(dash_br, ids.OUTPUT_GRAPH, "xy")
    rows = np.flatnonzero((Y_drawn[:, None, :] == marks[None, :, :]).all(axis=2).any(axis=1))
    assert 10 < len(rows) == len(marks) < N_SAMPLES // 2
    until(lambda: kernel.value("page.selected.tolist()") == rows.tolist(), timeout=WAIT)
    # ... with the shown run's per-point measures, the library's numbers.
    local = np.asarray(kernel.value("page.measures['normalized'].tolist()"))
    np.testing.assert_allclose(local, measures.evaluate(data.X, Y, 10, which=["normalized"]).per_point["normalized"],
                               rtol=1e-9)

    # A view set in Python: the page shows it, computed, and its link says so.
    kernel.run("page.set_view(algorithm='lle', k=12)")
    wait_for_output_title(dash_br, "LLE, k = 12", timeout=2 * WAIT)
    until(lambda: "algorithm=lle" in dash_br.driver.current_url and "k=12" in dash_br.driver.current_url,
          timeout=WAIT)
    assert kernel.value("[page.state.method.algorithm, page.state.method.n_neighbors]") == ["lle", 12]

    # A selection made in Python: marked in both views, summarized with the kernel's own numbers.
    chosen = [3, 141, 592]
    kernel.run(f"page.select({chosen})")
    until(lambda: marked_count(dash_br, ids.INPUT_GRAPH) == 3 and marked_count(dash_br, ids.OUTPUT_GRAPH) == 3,
          timeout=WAIT)
    drawn_X = carried(data.X)  # as the page draws it
    assert sorted(map(tuple, marked(dash_br, ids.INPUT_GRAPH, "xyz"))) == sorted(map(tuple, drawn_X[chosen]))
    lle = np.column_stack([browser_array(dash_br, ids.OUTPUT_GRAPH, f"data[0].{axis}") for axis in "xy"])
    assert sorted(map(tuple, marked(dash_br, ids.OUTPUT_GRAPH, "xy"))) == sorted(map(tuple, lle[chosen]))
    mean = kernel.value(f"float(np.nanmean(page.measures['normalized'][{chosen}]))")
    dash_br.wait_for_contains_text(f"#{ids.FIND_TEXT}", "From the notebook: 3 points selected", timeout=WAIT)
    assert f"R_N {mean:.4f}" in dash_br.find_element(f"#{ids.FIND_TEXT}").text
    assert kernel.value("page.selected.tolist()") == chosen
    dash_br.driver.save_screenshot(str(tmp_path / "notebook-selection.png"))
    assert severe_logs(dash_br) == []
