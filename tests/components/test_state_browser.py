"""One view state through every door, in a browser: presets, links, cancel (issue 12).

A preset or a link sets every control, whatever was shown before; the page's controls are read from
Dash's own store of the layout (what the renderer holds), the cards from the page. Every preset is
applied after two different views at the callback level (``test_state_sync``); the browser applies
a few whose data sets, parameters, algorithms and tabs differ from each other and from the views
before them (each about 30 s in a browser: all 29 took a quarter of an hour of CI).
"""

import json

import pytest
from dash.testing.wait import until

import algorithms
import datasets
import measures
from app import create_app
from components import ids
from components.state_sync import CONTROLS, controls_from_state
from lab import RunRequest, from_query, to_query
from lab.tours.presets import preset

from .test_app_browser import WAIT, open_page, severe_logs, type_number

# The layout's props of every component that has an id, as the renderer's store holds them (also
# those of a tab not shown).
LAYOUT_PROPS = """
const found = {};
if (!window.store) { return found; }
(function walk(node) {
  if (Array.isArray(node)) { node.forEach(walk); return; }
  if (!node || typeof node !== 'object' || !node.props) { return; }
  if (node.props.id !== undefined) {
    const id = typeof node.props.id === 'string' ? node.props.id : JSON.stringify(node.props.id);
    found[id] = node.props;
  }
  walk(node.props.children);
})(window.store.getState().layout.components);
return found;
"""


def layout_props(dash_duo):
    return dash_duo.driver.execute_script(LAYOUT_PROPS)


def controls(dash_duo):
    """Every control's value as the renderer holds it."""
    return {key: props["value"] for key, props in layout_props(dash_duo).items() if "value" in props}


def graph_title(dash_duo, graph_id):
    """A figure's title as the renderer holds it."""
    figure = layout_props(dash_duo).get(graph_id, {}).get("figure") or {}
    return ((figure.get("layout") or {}).get("title") or {}).get("text", "")


def shown_run(dash_duo):
    """The run the explore views show (its record in the page), or None."""
    return layout_props(dash_duo).get(ids.RUN_SHOWN, {}).get("data")


def wait_for_run(dash_duo, state):
    """Until the page shows ``state``'s whole run (not a part of it drawn while it computes); returns its record
    (request, cards)."""
    request = RunRequest.from_state(state).to_dict()
    return until(lambda: (shown := shown_run(dash_duo) or {}).get("request") == request
                 and shown.get("status") == "done" and shown, timeout=WAIT)


# Two views no preset shares an algorithm and k with, so a preset's run is recognised when it shows.
PRIOR_VIEWS = ("?dataset=cylinder&n=900&noise=0.02&k=7&algorithm=pca&d.radius=2&color=asim&view=02",
               "?dataset=grid&d.half_width=20&k=5&algorithm=laplacian&tab=sweep&sweep.k_step=4&norm.shape=grid")


# Another data set (with its own parameter controls), algorithm and tab than the views above: the globe,
# an image manifold (the normalization tab's preset opens in test_tabs_browser's PN Fig. 5 test; every
# preset is checked at callback level, tests/components/test_tours.py).
BROWSER_PRESETS = ("pn-fig9-globe",)


def test_a_preset_sets_every_control_whatever_was_shown_before(dash_duo, tour_app_directory, choose):
    open_page(dash_duo, create_app(tour_app_directory), PRIOR_VIEWS[0])
    opened = PRIOR_VIEWS[0]  # the page the browser shows
    for entry in (preset(name) for name in BROWSER_PRESETS):
        seen = []
        for prior in PRIOR_VIEWS:
            if opened != prior:
                dash_duo.driver.get(f"{dash_duo.server.url}/{prior}")
            opened = None
            wait_for_run(dash_duo, from_query(prior))
            choose(ids.TOUR_INDEX, entry.name)
            record = wait_for_run(dash_duo, entry.state)
            until(lambda: dash_duo.driver.current_url.endswith(to_query(entry.state)), timeout=WAIT)
            seen.append((controls(dash_duo), record["summary"]["normalized"]))
        (first, first_card), (second, second_card) = seen
        expected = controls_from_state(entry.state)["controls"]
        shown = {name: first[control.component] for name, control in CONTROLS.items()}
        assert shown == json.loads(json.dumps(expected)), entry.name
        parameters = {key: value for key, value in first.items() if key.startswith("{")}
        assert parameters == {key: value for key, value in second.items() if key.startswith("{")}, entry.name
        assert shown == {name: second[control.component] for name, control in CONTROLS.items()}, entry.name
        assert first_card == second_card, entry.name
    assert severe_logs(dash_duo) == []


def test_a_link_opens_with_exactly_its_parameters_and_cancelling_a_run_goes_back_to_it(dash_duo, tmp_path):
    link = "?dataset=swissroll&n=2500&noise=0.5&random_state=3&d.stretch=3.0&k=12&algorithm=isomap"
    open_page(dash_duo, create_app(tmp_path), link)  # a fresh browser's first page, an empty result cache
    state = from_query(link)
    record = wait_for_run(dash_duo, state)
    shown = controls(dash_duo)
    assert (shown[ids.DATASET_SIZE], shown[ids.DATASET_NOISE], shown[ids.DATASET_RANDOM_STATE]) == (2500, 0.5, 3)
    assert shown[json.dumps(ids.dataset_param("swissroll", "stretch"), separators=(",", ":"))] == 3.0
    data = datasets.load("swissroll", 2500, noise=0.5, random_state=3, stretch=3.0)
    expected = measures.procrustes(data.X, algorithms.embed("isomap", data.X, n_neighbors=12), 12)
    assert record["summary"]["normalized"][0] == pytest.approx(expected, rel=1e-12)
    dash_duo.wait_for_text_to_equal(f"#{ids.card_value('normalized')} .card-mean", f"{expected:.4g}", timeout=WAIT)

    # Cancelling a run puts the controls back on the run shown, the link's.
    job = ids.job_controls(ids.EXPLORE_JOB)
    # Isomap and every measure on 12 000 points take tens of seconds here: time to cancel.
    type_number(dash_duo, ids.DATASET_SIZE, 12000)
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job running", timeout=WAIT)
    assert controls(dash_duo)[ids.DATASET_SIZE] == 12000
    dash_duo.find_element(f"#{job['cancel']}").click()
    dash_duo.wait_for_text_to_equal(
        f"#{ids.STATE_MESSAGE}",
        f"Cancelled. The views show the previous run: {RunRequest.from_state(state).describe()}.", timeout=WAIT)
    until(lambda: controls(dash_duo)[ids.DATASET_SIZE] == 2500, timeout=WAIT)
    assert "n = 2500" in graph_title(dash_duo, ids.INPUT_GRAPH)
    dash_duo.wait_for_class_to_equal(f"#{job['box']}", "job idle", timeout=WAIT)
    assert severe_logs(dash_duo) == []
