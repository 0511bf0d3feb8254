"""One explore run as a single HTML file that opens offline: the linked views, every measure, the provenance.

Pure plotly and HTML (no Dash): the page's Report button, :func:`notebook.write_report` and
``python -m lab run … --report FILE.html`` all write :func:`run_report`'s text. The figures are the
page's own builders (:mod:`components.figures.views`); Plotly's JavaScript is inlined once and the
scripts linking the views after it (``assets/drawn_rows.js``, the page's own row mapping, and
``report.js``, beside this module), so the file loads nothing from anywhere: no CDN, no font, no style
sheet.

Arrays are embedded once, as float32 (int32 row numbers) base64 typed arrays. The views draw what the
page draws (every point in the output view, a seeded subsample of
:data:`lab.compute.catalogue.DISPLAY_CAP_3D` in the 3-D input view) but at most :data:`REPORT_CAP`
points each, by the same rule (:func:`lab.compute.runs.display_indices`), and the report says so; the
measures summarise every point.
"""

import html
import json
import pathlib

import plotly.offline

from lab.compute import catalogue
from lab.compute.yardsticks import summary_best
from lab.compute.runs import display_indices
from lab.compute.views import coloring, drawn_rows, explore_view, metadata_lines
from lab.view.exports import measure_summaries, provenance

from .figures import OUTPUT_AXES, color_update, input_figure, output_figure, robust_color_range
from .tables import measure_entries, measure_table_html

__all__ = ["REPORT_CAP", "report_name", "report_rows", "run_report", "write_report"]

# Most points a view of the report draws: a 100 000-point run is drawn whole (16.6 MB with its 13 local
# measures and 2 truth columns, Plotly's 4.8 MB included: README); above it a seeded subsample keeps the
# file small.
REPORT_CAP = 100_000
# The row mapping the page's linked views use too (served there from assets/), then the report's own script.
_SCRIPTS = (pathlib.Path(__file__).parents[1] / "assets" / "drawn_rows.js",
            pathlib.Path(__file__).with_name("report.js"))
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
.views { display: flex; gap: 1em; flex-wrap: wrap; }
.view { flex: 1 1 520px; height: 520px; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
td, th { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: left; }
.number { text-align: right; font-variant-numeric: tabular-nums; }
tr.no-better-than-random td { color: #a4161a; }
.notes { background: #fff8e1; padding: 0.5em 1em; }
pre { background: #f5f5f5; padding: 0.8em; overflow-x: auto; }
"""


def report_name(request):
    """The report's file name, e.g. ``procrustes-lab_swissroll_n1600_isomap_k10_report.html``."""
    return f"procrustes-lab_{request.slug()}_report.html"


def report_rows(result, view):
    """The data-set rows ``view`` ("input", 3-D, or "output") of the report draws (None: all).

    The page's rows (:func:`lab.compute.views.drawn_rows`) while they number at most :data:`REPORT_CAP`,
    else a seeded subsample of :data:`REPORT_CAP` by the same rule, NIEQA's landmarks kept.
    """
    rows = drawn_rows(result, view, "3d")
    if rows is not None and len(rows) <= REPORT_CAP:
        return rows
    return display_indices(result.n_samples, cap=REPORT_CAP,
                           keep=() if result.landmarks is None else result.landmarks.indices)


def _colorings(result, rows):
    """Every colouring the run offers (its truth columns, its local measures): ``{key: {label, input, output}}``,
    each view's part the trace-0 attributes :func:`components.figures.color_update` sets, encoded as Plotly
    encodes a figure (typed arrays)."""
    offered = [(key, label) for key, label in catalogue.color_choices(result.truth_labels)
               if key.startswith("truth-") or key in result.local]
    colorings, described = {}, bool(result.metadata)
    for key, label in offered:
        output_values, title, _ = coloring(result, key, rows["output"])
        color_range = robust_color_range(output_values)  # as the page: every drawn point sets the range
        colorings[key] = {"label": label,
                          "input": color_update(coloring(result, key, rows["input"])[0], color_range, title,
                                                result.input_axes, rows["input"], False, described),
                          "output": color_update(output_values, color_range, title, OUTPUT_AXES, rows["output"],
                                                 True, described)}
    return colorings


def _figures(request, result, rows, color):
    """The input (3-D) and output views coloured by ``color``, with the page's titles."""
    view = explore_view(request, result, show_landmarks=False)
    output_values, title, _ = coloring(result, color, rows["output"])
    color_range = robust_color_range(output_values)
    lines = metadata_lines(result)
    hover = {name: None if lines is None else lines if drawn is None else lines[drawn] for name, drawn in rows.items()}
    return {
        "input": input_figure(result.drawn_X if rows["input"] is None else result.drawn_X[rows["input"]],
                              coloring(result, color, rows["input"])[0], color_range, title, point_ids=rows["input"],
                              title=view.input_title, axis_titles=result.input_axes, hover_text=hover["input"]),
        "output": output_figure(result.Y if rows["output"] is None else result.Y[rows["output"]], output_values,
                                color_range, title, point_ids=rows["output"], title=view.output_title,
                                hover_text=hover["output"]),
    }


def _drawn_notes(result, rows):
    """What the views leave out, in the report's words (every number still uses every point)."""
    notes = []
    for view, drawn in rows.items():
        if drawn is not None:
            notes.append(f"The {view} view draws {len(drawn):,} of the {result.n_samples:,} points (a seeded random "
                         f"subsample: at most {REPORT_CAP:,} in the report"
                         + (f", {catalogue.DISPLAY_CAP_3D:,} in a 3-D view" if view == "input" else "")
                         + "); every measure summarises all of them.")
    return notes


def _summaries(result, yardsticks):
    """Each measure's row of the table as the explore tab's (:func:`components.tables.measure_entries`: label,
    description, direction, mean and median, best value, random-output value and verdict), with the
    five-number summary of its per-point values (:func:`lab.view.exports.measure_summaries`)."""
    best = summary_best(result.summary) if yardsticks is None else yardsticks.best
    entries = measure_entries(result.summary, best, yardsticks)
    return {name: {**entry, **entries[name]} for name, entry in measure_summaries(result).items()}


def _json_block(element_id, value):
    """``value`` as a JSON script block (not run); every ``<`` written ``\\u003c``, so no string in it (a hover
    template's ``</extra>``, a note) can end the element or open a comment there."""
    text = json.dumps(value, allow_nan=True).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def run_report(request, result, *, color="normalized", yardsticks=None):
    """The report of one explore run: a whole HTML document that opens offline in any browser.

    Parameters
    ----------
    request : lab.compute.runs.RunRequest
    result : lab.compute.runs.RunResult
    color : str
        The colouring shown first (a local measure's name or ``"truth-<i>"``, as
        :func:`lab.compute.catalogue.color_choices` offers); the page's default, local R_N, or the first
        colouring the run offers when it did not compute that measure.
    yardsticks : lab.compute.yardsticks.YardstickResult, optional
        The run's yardsticks, when computed: each measure's random-output value beside its best.

    Returns
    -------
    str
        The HTML text. Its JSON block ``#report-measures`` holds every measure's label, direction, mean
        and median (``result.summary``, full precision), description, best and random-output values (None where
        unknown), whether the run is no better than a random output by it, the notes, the request and the provenance.
    """
    rows = {"input": report_rows(result, "input"), "output": report_rows(result, "output")}
    colorings = _colorings(result, rows)
    color = color if color in colorings else next(iter(colorings))
    figures = _figures(request, result, rows, color)
    summaries = _summaries(result, yardsticks)
    notes = [*result.notes, *_drawn_notes(result, rows)]
    record = {"request": request.to_dict(), "n_samples": int(result.n_samples), "seconds": float(result.seconds),
              "measures": summaries, "notes": notes, **provenance()}
    options = "".join(f'<option value="{html.escape(key)}"{" selected" if key == color else ""}>'
                      f"{html.escape(entry['label'])}</option>" for key, entry in colorings.items())
    title = html.escape(f"Procrustes Lab: {request.describe()}")
    notes_html = "".join(f"<p>{html.escape(note)}</p>" for note in notes)
    body = (
        f"<h1>{title}</h1>"
        f"<p>Colour <select id='report-color'>{options}</select> Hover a point to ring it in both views; choose "
        "the box or lasso tool of the output view to mark points in both (double-click clears).</p>"
        "<div class='views'><div id='report-input' class='view'></div><div id='report-output' class='view'></div>"
        "</div><p id='report-selection' role='status'></p>"
        + (f"<div class='notes' id='report-notes'>{notes_html}</div>" if notes else "")
        + f"<h2>Every measure ({result.n_samples:,} points, {result.seconds:.2f} s)</h2>" + measure_table_html(
            summaries.values(), table_id="report-measures-table")
        + "<h2>Provenance</h2><pre id='report-provenance'>"
        + html.escape(json.dumps({key: record[key] for key in ("request", "code_version", "packages")}, indent=2))
        + "</pre>")
    data = {"figures": {name: json.loads(figure.to_json()) for name, figure in figures.items()},
            "colorings": colorings}
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{title}</title><style>{_STYLE}</style></head><body>{body}"
            f"{_json_block('report-measures', record)}{_json_block('report-data', data)}"
            f"<script>{plotly.offline.get_plotlyjs()}</script>"
            + "".join(f"<script>{script.read_text()}</script>" for script in _SCRIPTS) + "</body></html>")


def write_report(path, request, result, **options):
    """Write :func:`run_report`'s text to ``path`` (UTF-8) and return the path (a :class:`pathlib.Path`)."""
    path = pathlib.Path(path)
    path.write_text(run_report(request, result, **options), encoding="utf-8")
    return path
