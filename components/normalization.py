"""The normalization tab's study: do normalized-output algorithms collapse long shapes? (PN, no Dash)

For one shape at one aspect ratio (or stretch), each chosen algorithm's output is computed through
the result cache, with its collapse score; for the algorithms whose cost ``Φ`` PN §2 writes down
(LEM, LLE, LTSA), PN's necessary condition ``Φ(Y) <= Φ(Z)`` is checked at this aspect and along a
range of aspects, so the page shows where the condition starts to fail and whether the output did.
"""

import dataclasses

import numpy as np

import algorithms
import datasets
import measures
from measures.normalization import NORMALIZED_ALGORITHMS

from .runs import compute_run, failure_message, make_request

__all__ = ["ASPECT_RANGE", "CURVE_ASPECTS", "DEFAULT_NEIGHBORS", "SHAPES", "Shape", "normalization_study"]

# PN's figures use K = 8 neighbours (Figs. 4, 5).
DEFAULT_NEIGHBORS = 8
ASPECT_RANGE = (1.0, 8.0)
# Where the Φ ratio curve is evaluated: every half unit over the slider's range.
CURVE_ASPECTS = tuple(np.arange(ASPECT_RANGE[0], ASPECT_RANGE[1] + 0.25, 0.5).tolist())


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
    parameters: object


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


def _phi_curve(results, shape, n, k, chosen, report):
    """``Φ(Y)/Φ(Z)`` of each chosen algorithm with a Φ, along the aspect grid (cached as one entry)."""
    entry = SHAPES[shape]
    request = {"study": "phi_ratio_curve", "dataset": entry.dataset, "n": n, "k": k,
               "algorithms": [name for name in chosen if name in NORMALIZED_ALGORITHMS],
               "parameters": [entry.parameters(aspect) for aspect in CURVE_ASPECTS]}

    def compute(request):
        ratios = {name: [] for name in request["algorithms"]}
        for done, parameters in enumerate(request["parameters"]):
            report(0.6 + 0.4 * done / len(request["parameters"]), f"Φ along the aspect range ({done + 1} of "
                   f"{len(request['parameters'])})")
            data = datasets.load(request["dataset"], request["n"], seed=0, **parameters)
            for name in ratios:
                ratios[name].append(measures.normalization_cost(data.truth, data.X, name, request["k"]).ratio)
        return ratios

    if not request["algorithms"]:
        return {}
    return results.get_or_compute(request, compute)[0]


def normalization_study(results, report, shape, aspect, n, k, chosen):
    """Each chosen algorithm on ``shape`` at ``aspect``: output, collapse score, Φ(Y) vs Φ(Z) and its curve.

    Parameters
    ----------
    results : components.jobs.ResultCache
    report : callable
        ``report(fraction, stage)``.
    shape : str
        A key of :data:`SHAPES`.
    aspect : float
        The slider's value.
    n : int or None
        Points (None: the data set's default).
    k : int
        Neighbours, for the algorithms and for Φ.
    chosen : list of str
        Algorithm registry keys.

    Returns
    -------
    dict or None, str
        ``panels`` (label, output kind, Y, summary, title), ``color`` and ``color_title`` (the truth's
        first coordinate), ``rows`` (label, collapse, phi_y, phi_z, ratio, verdict), ``curve``
        (aspects and each algorithm's Φ ratio), ``aspect``; and the message line.
    """
    if not chosen:
        return None, "Choose at least one algorithm."
    entry = SHAPES[shape]
    k = k or DEFAULT_NEIGHBORS
    n = None if datasets.spec(entry.dataset).population else n  # a grid has as many points as its size
    panels, rows, failures, color = [], [], [], None
    for done, name in enumerate(chosen):
        spec = algorithms.spec(name)
        report(0.6 * done / len(chosen), f"{spec.label} ({done + 1} of {len(chosen)})")
        try:
            request = make_request(entry.dataset, n, 0.0, 0, entry.parameters(aspect), name, k, {})
            result, _ = results.get_or_compute(request, compute_run)
            collapse = result["summary"]["collapse"][0]
            row = {"label": spec.label, "collapse": collapse, "phi_y": None, "phi_z": None, "ratio": None,
                   "verdict": "No Φ: PN §2 writes the cost of LEM, LLE and LTSA only."}
            if name in NORMALIZED_ALGORITHMS:
                cost = measures.normalization_cost(result["truth"], result["X"], name, k)
                row.update(phi_y=cost.phi_y, phi_z=cost.phi_z, ratio=cost.ratio, verdict=cost.verdict)
        except Exception as error:  # one failing algorithm does not hide the others
            failures.append(f"{spec.label}: {failure_message(error)}")
            continue
        rows.append(row)
        color, color_title = result["truth"][:, 0], result["truth_labels"][0]
        panels.append({"label": spec.label, "output": spec.output, "Y": result["Y"], "summary": result["summary"],
                       "title": f"{spec.label}<br>collapse {collapse:.2f}"
                                + ("" if row["ratio"] is None else f", Φ(Y)/Φ(Z) {row['ratio']:.2g}")})
    if not panels:
        return None, " ".join(failures)
    ratios = _phi_curve(results, shape, n, k, chosen, report)
    stored = {"panels": panels, "color": color, "color_title": color_title, "rows": rows, "aspect": aspect,
              "aspect_label": entry.aspect_label,
              "curve": {"aspects": list(CURVE_ASPECTS),
                        "ratios": {algorithms.spec(name).label: values for name, values in ratios.items()}}}
    return stored, " ".join(failures) or (f"{entry.label}, {entry.aspect_label} = {aspect:g}, k = {k}: "
                                          f"{len(panels)} algorithms.")
