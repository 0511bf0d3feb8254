"""The figures' template: Plotly's default look, kept for what the page draws.

Plotly's default template ("plotly") is 7.1 KB of JSON in every figure the server sends, and most of it
styles trace types and subplots the page never draws (contours, surfaces, maps, polar and ternary
axes). :data:`TEMPLATE` keeps that template's layout (fonts, colours, axes, the 3-D scene) and its
defaults for the trace types of :data:`TRACE_TYPES`: the figures look the same in 3.2 KB
(``tests/components/test_figures.py`` checks both).
"""

import plotly.graph_objects as go
import plotly.io as pio

__all__ = ["TEMPLATE", "TRACE_TYPES"]

# Every trace type the figure builders draw.
TRACE_TYPES = ("bar", "heatmap", "scatter", "scatter3d", "scattergl")
_UNDRAWN_LAYOUT = ("geo", "mapbox", "polar", "ternary")


def _kept(name="plotly"):
    """Plotly's template ``name`` without the parts no figure of the page reads."""
    template = pio.templates[name].to_plotly_json()
    return go.layout.Template(
        data={kind: template["data"][kind] for kind in TRACE_TYPES if kind in template["data"]},
        layout={key: value for key, value in template["layout"].items() if key not in _UNDRAWN_LAYOUT})


TEMPLATE = _kept()
