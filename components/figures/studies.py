"""Figures of the studies: measure-vs-k curves, small multiples of outputs, measure bars, PN's Φ ratio,
the measures' agreement.

Pure builders: plain rows and arrays in, ``plotly.graph_objects.Figure`` out (no Dash, no globals).
"""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .theme import TEMPLATE
from .views import COLORSCALE, empty_figure, robust_color_range

__all__ = ["OUTPUT_KIND_COLORS", "PHI_RATIO_FLOOR", "agreement_figure", "comparison_grid", "measure_bars",
           "phi_ratio_figure", "sweep_figure"]


def sweep_figure(rows, measure, measure_label, best, yardsticks=None):
    """Measure-vs-k curves, one line per algorithm, each algorithm's best k starred, and the measure's
    yardsticks: its floor or best value (dashed) and the random outputs' band (grey).

    Parameters
    ----------
    rows : list of dict
        Sweep cells with keys ``algorithm``, ``label``, ``k`` and ``summary`` (measure -> [mean,
        median]); a failed cell has ``error`` instead and is left out of its line.
    measure : str
        Summary key to plot (its mean).
    measure_label : str
    best : dict of str to dict
        Each algorithm's best row for ``measure`` in the measure's own direction
        (:func:`lab.compute.studies.best_cells`), starred.
    yardsticks : lab.compute.studies.SweepYardsticks, optional

    Returns
    -------
    plotly.graph_objects.Figure
        The yardsticks first (named "random outputs" and "floor" or "best", no customdata: a click on
        them opens nothing), then one line trace per algorithm (customdata: algorithm name and k, for
        click-to-explore), then one star trace marking each algorithm's best k.
    """
    figure = go.Figure()
    if yardsticks is not None and yardsticks.random_ks:
        ks = list(yardsticks.random_ks)
        figure.add_trace(go.Scatter(  # the band: low along k, then high back, filled
            x=ks + ks[::-1], y=list(yardsticks.random_low) + list(yardsticks.random_high)[::-1], fill="toself",
            mode="lines", line=dict(width=0.5, color="#999"), fillcolor="rgba(120,120,120,0.25)",
            name="random outputs", hoverinfo="skip"))
    if yardsticks is not None and yardsticks.best_ks:
        figure.add_trace(go.Scatter(
            x=list(yardsticks.best_ks), y=list(yardsticks.best), mode="lines", name=yardsticks.best_label,
            line=dict(color="#444", dash="dash", width=1.5),
            hovertemplate=f"{yardsticks.best_label}<br>k = %{{x}}<br>%{{y:.4g}}<extra></extra>"))
    for algorithm in dict.fromkeys(row["algorithm"] for row in rows):
        cells = sorted((row for row in rows if row["algorithm"] == algorithm and "summary" in row
                        and row["summary"][measure][0] is not None), key=lambda row: row["k"])
        if not cells:
            continue
        ks = [row["k"] for row in cells]
        figure.add_trace(go.Scatter(
            x=ks, y=[row["summary"][measure][0] for row in cells], mode="lines+markers", name=cells[0]["label"],
            customdata=[[algorithm, k] for k in ks],
            hovertemplate=f"{cells[0]['label']}<br>k = %{{x}}<br>{measure_label} = %{{y:.4f}}<extra></extra>"))
    if best:
        starred = list(best.values())
        figure.add_trace(go.Scatter(
            x=[row["k"] for row in starred], y=[row["summary"][measure][0] for row in starred], mode="markers",
            name="best k", marker=dict(symbol="star", size=16, color="gold", line=dict(color="black", width=1)),
            text=[row["label"] for row in starred], customdata=[[row["algorithm"], row["k"]] for row in starred],
            hovertemplate="best k for %{text}: %{x}<extra></extra>"))
    figure.update_layout(template=TEMPLATE,
                         xaxis_title="neighbours k", yaxis_title=f"{measure_label} (mean)", plot_bgcolor="white",
                         margin=dict(l=60, r=10, t=30, b=50), legend=dict(orientation="h", y=1.08),
                         xaxis=dict(gridcolor="#eee", dtick=3), yaxis=dict(gridcolor="#eee", rangemode="tozero"))
    return figure


# One colour per kind of output (algorithms.OUTPUTS): isometric, normalized, neighbour embedding.
OUTPUT_KIND_COLORS = {"isometric": "#1f77b4", "normalized": "#d62728", "neighbour_embedding": "#2ca02c"}


def comparison_grid(panels, color, color_title, columns=3):
    """Small multiples of several algorithms' outputs, isometric ones first, then normalized ones.

    Parameters
    ----------
    panels : list of dict
        One per algorithm: ``label``, ``output`` ("isometric" or "normalized"), ``Y`` (n, d) and
        ``summary`` (measure -> [mean, median]); the title shows R_N and R_C unless the panel
        has its own ``title``.
    color : ndarray of shape (n_samples,)
        One colouring for every panel (an intrinsic coordinate), so panels read alike.
    color_title : str
    columns : int

    Returns
    -------
    plotly.graph_objects.Figure
    """
    ordered = sorted(panels, key=lambda panel: panel["output"] != "isometric")
    rows = max(1, -(-len(ordered) // columns))
    titles = [p.get("title") or f"{p['label']} ({p['output']})<br>R_N {p['summary']['normalized'][0]:.3f}, "
              f"R_C {p['summary']['conformal'][0]:.3f}" for p in ordered]
    figure = make_subplots(rows=rows, cols=columns, subplot_titles=titles, horizontal_spacing=0.04,
                           vertical_spacing=0.14)
    low, high = robust_color_range(color)
    for i, panel in enumerate(ordered):
        Y = np.asarray(panel["Y"], dtype=float)
        figure.add_trace(go.Scattergl(
            x=Y[:, 0], y=Y[:, 1] if Y.shape[1] > 1 else np.zeros(len(Y)), mode="markers", name=panel["label"],
            marker=dict(color=color, colorscale=COLORSCALE, cmin=low, cmax=high, size=3, showscale=i == 0,
                        colorbar=dict(title=dict(text=color_title, side="right"), thickness=12)),
            hovertemplate=f"{panel['label']}<br>point %{{pointNumber}}<extra></extra>"),
            row=i // columns + 1, col=i % columns + 1)
        # Equal axis scales in every panel: an isometry must look like one.
        axis = "" if i == 0 else str(i + 1)
        figure.update_layout({f"yaxis{axis}": dict(scaleanchor=f"x{axis}", scaleratio=1)})
    for annotation in figure.layout.annotations:
        annotation.font = dict(size=12)
    figure.update_layout(template=TEMPLATE,
                         showlegend=False, plot_bgcolor="white", height=320 * rows, margin=dict(l=30, r=10, t=60, b=20))
    figure.update_xaxes(showgrid=False, zeroline=False, showticklabels=False)
    figure.update_yaxes(showgrid=False, zeroline=False, showticklabels=False)
    return figure


def measure_bars(panels, measures):
    """One bar chart per measure: each algorithm's mean, coloured by isometric or normalized output.

    Parameters
    ----------
    panels : list of dict
        As for :func:`comparison_grid`.
    measures : sequence of (key, label)
        The summary measures to chart, side by side (NQ Fig. 2 style).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    figure = make_subplots(rows=1, cols=len(measures), subplot_titles=[label for _, label in measures],
                           horizontal_spacing=0.06)
    for column, (key, label) in enumerate(measures, start=1):
        for kind, bar_color in OUTPUT_KIND_COLORS.items():
            chosen = [p for p in panels if p["output"] == kind]
            if not chosen:
                continue
            figure.add_trace(go.Bar(
                x=[p["label"] for p in chosen], y=[p["summary"][key][0] for p in chosen], name=kind,
                marker_color=bar_color, showlegend=column == 1, legendgroup=kind,
                customdata=[p["summary"][key][1] for p in chosen],
                hovertemplate=f"%{{x}}<br>{label} mean %{{y:.4f}}, median %{{customdata:.4f}}<extra></extra>"),
                row=1, col=column)
    figure.update_layout(template=TEMPLATE,
                         barmode="group", plot_bgcolor="white", height=360, margin=dict(l=40, r=10, t=70, b=60),
                         legend=dict(orientation="h", x=1, xanchor="right", y=1.3))
    figure.update_yaxes(gridcolor="#eee", rangemode="tozero")
    return figure


def agreement_figure(labels, rho, runs, least):
    """Which measures say the same thing: Spearman's rho between them across a study's runs, as a matrix.

    Parameters
    ----------
    labels : sequence of str
        The measures' labels, in the order of ``rho``'s rows.
    rho : ndarray of shape (len(labels), len(labels))
        :func:`measures.measure_agreement`'s matrix (NaN cells are drawn blank).
    runs : int
        How many runs it is computed over (the title says).
    least : int
        The fewest runs that give an agreement (:data:`measures.MIN_SHARED_RUNS`): below, a blank
        figure says so.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    if runs < least:
        return empty_figure(f"Measure agreement needs {least} runs or more; this study has {runs}.")
    labels = list(labels)
    shown = [[None if not np.isfinite(value) else float(value) for value in row] for row in np.asarray(rho)]
    figure = go.Figure(go.Heatmap(
        z=shown, x=labels, y=labels, zmin=-1.0, zmax=1.0, colorscale="RdBu", reversescale=False,
        texttemplate="%{z:.2f}", hoverongaps=False, colorbar=dict(title=dict(text="ρ"), thickness=12),
        hovertemplate="%{y} and %{x}: ρ = %{z:.3f}<extra></extra>"))
    size = 40 + 26 * len(labels)
    figure.update_layout(
        template=TEMPLATE,
        title=dict(text=f"Measure agreement: Spearman ρ across the {runs} runs (each measure turned so that "
                        "higher is better; 1: they rank the runs alike)", font=dict(size=13)),
        height=max(260, size + 120), plot_bgcolor="white", margin=dict(l=10, r=10, t=50, b=10))
    figure.update_yaxes(autorange="reversed", scaleanchor="x", scaleratio=1)
    return figure


# The Φ ratio chart's floor: LTSA's Φ(Y) on flat input is 0 up to rounding (ratios near 1e-27).
PHI_RATIO_FLOOR = 1e-3


def phi_ratio_figure(aspects, ratios, aspect, aspect_label):
    """PN's necessary condition along the aspect ratio: ``Φ(Y)/Φ(Z)`` per algorithm, 1 marked.

    Parameters
    ----------
    aspects : sequence of float
    ratios : dict of str to sequence of float
        Algorithm label -> ``Φ(Y)/Φ(Z)`` at each aspect.
    aspect : float
        The current aspect, marked by a vertical line.
    aspect_label : str

    Returns
    -------
    plotly.graph_objects.Figure
        Log-scale ratios; above the dashed line at 1 the algorithm prefers the collapsed Z. Ratios
        below :data:`PHI_RATIO_FLOOR` are drawn at the floor, their legend entry says so.
    """
    figure = go.Figure()
    for label, values in ratios.items():
        values = np.asarray(values, dtype=float)
        floored = values < PHI_RATIO_FLOOR
        name = label + (f" (below {PHI_RATIO_FLOOR:g} where drawn on the floor)" if floored.any() else "")
        figure.add_trace(go.Scatter(x=list(aspects), y=np.maximum(values, PHI_RATIO_FLOOR), mode="lines+markers",
                                    name=name, customdata=values,
                                    hovertemplate=f"{label}<br>{aspect_label} %{{x}}<br>Φ(Y)/Φ(Z) = "
                                                  "%{customdata:.3g}<extra></extra>"))
    figure.add_hline(y=1.0, line=dict(color="black", dash="dash", width=1),
                     annotation_text="Φ(Y) = Φ(Z): above, the collapsed output costs less",
                     annotation_position="top left")
    figure.add_vline(x=aspect, line=dict(color="crimson", width=1))
    figure.update_layout(template=TEMPLATE,
                         xaxis_title=aspect_label, yaxis_title="Φ(Y) / Φ(Z)", plot_bgcolor="white", height=340,
                         margin=dict(l=60, r=10, t=30, b=50), legend=dict(orientation="h", y=1.12),
                         xaxis=dict(gridcolor="#eee"), yaxis=dict(type="log", gridcolor="#eee"))
    return figure
