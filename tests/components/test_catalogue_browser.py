"""Browser tests over the catalogue: every data set and algorithm offered, chosen ones run without a page error."""

from dash.testing.wait import until
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import algorithms
import datasets
from app import create_app
from components import ids

from .test_app_browser import wait_for_output_title
from .test_state_browser import layout_props

WAIT = 120


def shown(dash_duo):
    """The output title, or the error message, once the run for the current controls has settled."""
    title = dash_duo.find_elements(f"#{ids.OUTPUT_GRAPH} .gtitle")
    message = dash_duo.find_element(f"#{ids.MESSAGE}").text
    return (title[0].text if title else ""), message


def failed(dash_duo):
    return dash_duo.find_element(f"#{ids.MESSAGE}").get_attribute("class") == "message error"


# Chosen in the browser: an image manifold, a surface with its own parameters, one with a hole; then
# a local-tangent, a Procrustes and a neighbour-embedding method. Every entry of both registries runs
# at the catalogue's defaults at the callback level (tests/lab/test_runs.py); each run here costs a
# browser round of about 8 s (all 31 took four minutes of CI).
CHOSEN_DATASETS = ("digits", "fishbowl", "swisshole")
CHOSEN_ALGORITHMS = ("hlle", "gp", "umap")


def test_the_menus_offer_every_entry_and_chosen_data_sets_then_algorithms_run(dash_duo, tmp_path, choose):
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap, k = 10", timeout=WAIT)
    props = layout_props(dash_duo)
    assert [option["value"] for option in props[ids.DATASET]["options"]] == [entry.name for entry in datasets.specs()]
    assert [option["value"] for option in props[ids.ALGORITHM]["options"]] == [
        entry.name for entry in algorithms.specs()]
    for entry in map(datasets.spec, CHOSEN_DATASETS):
        choose(ids.DATASET, entry.name)
        until(lambda: f"Input: {entry.label}," in dash_duo.find_element(f"#{ids.INPUT_GRAPH}").text  # noqa: B023
              or failed(dash_duo), timeout=WAIT)
        assert not failed(dash_duo), (entry.name, shown(dash_duo)[1])
    # Back to a small swiss roll, then the algorithms.
    choose(ids.DATASET, "swissroll")
    size = dash_duo.find_element(f"#{ids.DATASET_SIZE}")
    size.send_keys(Keys.CONTROL, "a")
    size.send_keys("400\n")
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "n = 400", timeout=WAIT)
    for entry in map(algorithms.spec, CHOSEN_ALGORITHMS):
        choose(ids.ALGORITHM, entry.name)
        until(lambda: f"{entry.label}, k = 10" in shown(dash_duo)[0] or failed(dash_duo),  # noqa: B023
              timeout=WAIT)
        assert f"{entry.label}, k = 10" in shown(dash_duo)[0], shown(dash_duo)[1]
    assert [entry for entry in dash_duo.get_logs() if entry["level"] == "SEVERE"] == []


def test_hovering_a_digit_shows_its_image(dash_duo, tmp_path, choose, mouse_at):
    dash_duo.start_server(create_app(tmp_path))
    wait_for_output_title(dash_duo, "Isomap", timeout=WAIT)
    choose(ids.DATASET, "digits")
    dash_duo.wait_for_contains_text(f"#{ids.INPUT_GRAPH} .gtitle", "PCA", timeout=WAIT)
    wait_for_output_title(dash_duo, "Isomap", timeout=WAIT)  # the whole run: a part has no hover
    data = datasets.load("digits")
    Y = algorithms.embed("isomap", data.X, n_neighbors=10)
    # The pointer over the views (the image box shows only while it is there), then at the point.
    ActionChains(dash_duo.driver).move_to_element(dash_duo.find_element(f"#{ids.OUTPUT_GRAPH}")).perform()
    mouse_at(ids.OUTPUT_GRAPH, *Y[5])
    dash_duo.wait_for_style_to_equal(f"#{ids.POINT_IMAGE}", "display", "block", timeout=WAIT)
    dash_duo.wait_for_contains_text(f"#{ids.POINT_IMAGE} .gtitle", "digit class", timeout=WAIT)

    def shown_index():
        return int(dash_duo.find_element(f"#{ids.POINT_IMAGE} .gtitle").text.split(":")[0].split()[-1])

    # Entering the views may have hovered another point first (the pointer lands at their centre): wait
    # for the image of the point under the pointer, or of one drawn on top of it.
    until(lambda: abs(Y[shown_index()] - Y[5]).max() < abs(Y).max() / 5, timeout=WAIT)
    assert [entry for entry in dash_duo.get_logs() if entry["level"] == "SEVERE"] == []
