"""A tour figure's hover: the panel and point it names, and what a forged hover or state gets (nothing)."""

import dash
import numpy as np
import pytest

from components.figures.tours import step_figure
from components.tour_images import show_tour_image
from lab import ViewState
from lab.compute import compute
from lab.tours.presets import STEPS
from serving.services import Services

STEP = STEPS["ml-fig5-digits"]


def test_every_panel_of_a_step_figure_carries_its_key_as_customdata():
    panels = [{"label": label, "Y": np.zeros((4, 2)), "caption": "", "color": np.zeros(4), "color_title": "t",
               "key": key} for key, label in ((3, "A"), (0, "B"))]
    figure = step_figure(panels)
    assert [list(trace.customdata) for trace in figure.data[:2]] == [[3] * 4, [0] * 4]


def test_a_hover_over_a_digit_panel_shows_that_rows_image(tmp_path):
    services = Services.in_directory(tmp_path)
    result = compute(STEP.drawn[1].request, cache=services.results).result
    state = STEP.state.to_dict()
    figure, style = show_tour_image(services, {"points": [{"customdata": 1, "pointNumber": 5}]}, state)
    assert style == {"display": "block"}
    np.testing.assert_array_equal(figure.data[0].z, result.X[5].reshape(result.image_shape))


@pytest.mark.parametrize("hover", [None, [], {"points": "x"}, {"points": [{"customdata": -1, "pointNumber": 5}]},
                                   {"points": [{"customdata": 99, "pointNumber": 5}]},
                                   {"points": [{"customdata": 1, "pointNumber": 10**9}]},
                                   {"points": [{"customdata": [1, 2], "pointNumber": 5}]},
                                   {"points": [{"customdata": True, "pointNumber": 5}]}])
def test_a_hover_that_names_no_drawn_point_shows_nothing(tmp_path, hover):
    services = Services.in_directory(tmp_path)
    figure, style = show_tour_image(services, hover, STEP.state.to_dict())
    assert figure is dash.no_update and style in (dash.no_update, {"display": "none"})


def test_a_state_that_is_no_tour_or_not_one_the_page_wrote_shows_nothing(tmp_path):
    services = Services.in_directory(tmp_path)
    hover = {"points": [{"customdata": 0, "pointNumber": 1}]}
    assert show_tour_image(services, hover, {"tour": 3})[1] == {"display": "none"}
    assert show_tour_image(services, hover, ViewState().to_dict())[1] == {"display": "none"}
