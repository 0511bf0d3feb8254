"""The shapes of the normalization study (PN) and the tab's defaults, read by the view state and the study."""

import dataclasses
import typing

import numpy as np

import measures

__all__ = ["CURVE_ASPECTS", "NormalizationDefaults", "SHAPES", "Shape"]


@dataclasses.dataclass(frozen=True)
class Shape:
    """A data set whose length-to-width ratio the tab's slider sets.

    Attributes
    ----------
    label : str
    dataset : str
        Data-set registry key.
    aspect_label : str
        What the slider sets, for its label.
    parameters : callable
        ``parameters(aspect) -> dict`` of data-set parameters.
    """

    label: str
    dataset: str
    aspect_label: str
    parameters: typing.Callable


def _grid_parameters(aspect):
    # 21 rows; the columns that bring (2w + 1) / 21 nearest to the aspect.
    return {"half_width": max(1, int(round((21 * aspect - 1) / 2))), "half_height": 10}


SHAPES = {
    "strip": Shape("strip [0, L] × [0, 1] (PN Fig. 1, §6.1)", "strip", "length L (the aspect ratio)",
                   lambda aspect: {"length": float(aspect)}),
    "grid": Shape("grid of (2w + 1) × 21 points (PN Fig. 4)", "grid", "aspect (2w + 1) / 21",
                  _grid_parameters),
    "swissroll": Shape("swiss roll, first coordinate stretched (PN Figs. 6A, 7)", "swissroll", "stretch",
                       lambda aspect: {"stretch": float(aspect)}),
    "fishbowl": Shape("fishbowl, first coordinate stretched (PN Figs. 6B, 8)", "fishbowl", "stretch",
                      lambda aspect: {"stretch": float(aspect)}),
}


class NormalizationDefaults:
    """The tab's defaults: PN Fig. 1's 6 × 1 strip, K = 8 (PN's Figs. 4, 5), the four normalized methods."""

    shape = "strip"
    aspect = 6.0
    n_neighbors = 8
    algorithms = ("lle", "laplacian", "diffusion_maps", "ltsa")
    aspect_parameter = measures.Parameter("aspect", "aspect", "float", 6.0, low=1.0, high=8.0,
                                          help="Length-to-width ratio, or the stretch of the first coordinate.")


# Where the Φ ratio curve is evaluated: every half unit over the slider's range.
CURVE_ASPECTS = tuple(np.arange(NormalizationDefaults.aspect_parameter.low,
                                NormalizationDefaults.aspect_parameter.high + 0.25, 0.5).tolist())
