"""Browser tests of the control panel: the k slider's marks.

Run with ``python -m pytest --headless``.
"""

from dash.testing.wait import until
from selenium.webdriver.common.action_chains import ActionChains

from app import create_app
from components import ids

from .test_app_browser import WAIT, severe_logs, wait_for_output_title


def _marks(dash_duo):
    return dash_duo.find_elements(f"#{ids.ALGORITHM_NEIGHBORS} .dash-slider-mark")


def _slider_value(dash_duo):
    """The k the slider holds, as its thumb tells assistive technology (Radix's aria-valuenow)."""
    return int(dash_duo.find_element(f"#{ids.ALGORITHM_NEIGHBORS} [role='slider']").get_attribute("aria-valuenow"))


def test_clicking_a_k_mark_selects_its_value_and_no_mark_labels_overlap(dash_duo, tmp_path):
    dash_duo.start_server(create_app(tmp_path))  # an empty result cache, a fresh browser
    wait_for_output_title(dash_duo, "k = 10")
    dash_duo.driver.save_screenshot("/tmp/loose19/slider_after.png")
    boxes = sorted((mark.rect["x"], mark.rect["x"] + mark.rect["width"], mark.text) for mark in _marks(dash_duo))
    assert all(right + 2 <= next_left for (_, right, _), (next_left, _, _) in zip(boxes, boxes[1:])), boxes
    for label in [box[2] for box in boxes]:
        mark = next(mark for mark in _marks(dash_duo) if mark.text == label)
        ActionChains(dash_duo.driver).move_to_element(mark).click().perform()
        until(lambda: _slider_value(dash_duo) == int(label), timeout=WAIT,
              msg=f"clicking mark {label} gave k = {_slider_value(dash_duo)}")
    assert severe_logs(dash_duo) == []
