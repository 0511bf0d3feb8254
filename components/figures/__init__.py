"""Pure figure builders (no Dash, no globals): one run's views in :mod:`.views`, the studies' charts in
:mod:`.studies`."""

from .studies import (OUTPUT_KIND_COLORS, PHI_RATIO_FLOOR, agreement_figure, comparison_grid, measure_bars,
                      phi_ratio_figure, sweep_figure)
from .views import (COLORSCALE, HIGHLIGHT_TRACE, OUTPUT_AXES, SELECTION_TRACE, color_update, drawn_columns,
                    empty_figure, image_figure, input_axis_names, input_figure, inspector_figure, output_figure,
                    robust_color_range)

__all__ = ["COLORSCALE", "HIGHLIGHT_TRACE", "OUTPUT_AXES", "OUTPUT_KIND_COLORS", "PHI_RATIO_FLOOR", "SELECTION_TRACE",
           "agreement_figure", "color_update", "comparison_grid", "drawn_columns", "empty_figure", "image_figure",
           "input_axis_names", "input_figure", "inspector_figure", "measure_bars", "output_figure", "phi_ratio_figure",
           "robust_color_range", "sweep_figure"]
