"""Browser tests of the k sliders' marks: the panel's k and the sweep's range of k.

Run with ``python -m pytest --headless``.
"""

from dash.testing.wait import until
from selenium.webdriver.common.action_chains import ActionChains

from app import create_app
from components import ids

from .test_app_browser import WAIT, severe_logs, wait_for_output_title


def _marks(dash_duo, slider=ids.ALGORITHM_NEIGHBORS):
    return dash_duo.find_elements(f"#{slider} .dash-slider-mark")


def _slider_values(dash_duo, slider=ids.ALGORITHM_NEIGHBORS):
    """The values a slider holds, as its thumbs tell assistive technology (Radix's aria-valuenow)."""
    return [int(thumb.get_attribute("aria-valuenow"))
            for thumb in dash_duo.find_elements(f"#{slider} [role='slider']")]


def _click_mark(dash_duo, slider, label):
    mark = next(mark for mark in _marks(dash_duo, slider) if mark.text == label)
    ActionChains(dash_duo.driver).move_to_element(mark).click().perform()


def test_clicking_a_k_mark_or_a_sweep_range_mark_selects_it_and_no_mark_labels_overlap(dash_duo, tmp_path):
    dash_duo.start_server(create_app(tmp_path))  # an empty result cache, a fresh browser
    wait_for_output_title(dash_duo, "k = 10")
    dash_duo.driver.save_screenshot("/tmp/loose19/slider_after.png")
    boxes = sorted((mark.rect["x"], mark.rect["x"] + mark.rect["width"], mark.text) for mark in _marks(dash_duo))
    assert all(right + 2 <= next_left for (_, right, _), (next_left, _, _) in zip(boxes, boxes[1:])), boxes
    for label in [box[2] for box in boxes]:
        _click_mark(dash_duo, ids.ALGORITHM_NEIGHBORS, label)
        until(lambda: _slider_values(dash_duo) == [int(label)], timeout=WAIT,
              msg=f"clicking mark {label} gave k = {_slider_values(dash_duo)}")

    # A mark of the sweep tab's k range moves the range's nearest end to it.
    next(tab for tab in dash_duo.find_elements(f"#{ids.TABS} .tab") if tab.text == "Sweep k").click()
    until(lambda: _slider_values(dash_duo, ids.SWEEP_K_RANGE) == [6, 18], timeout=WAIT)
    _click_mark(dash_duo, ids.SWEEP_K_RANGE, "15")
    until(lambda: _slider_values(dash_duo, ids.SWEEP_K_RANGE) == [6, 15], timeout=WAIT,
          msg=f"clicking 15 gave {_slider_values(dash_duo, ids.SWEEP_K_RANGE)}")
    _click_mark(dash_duo, ids.SWEEP_K_RANGE, "3")
    until(lambda: _slider_values(dash_duo, ids.SWEEP_K_RANGE) == [3, 15], timeout=WAIT)
    assert severe_logs(dash_duo) == []
