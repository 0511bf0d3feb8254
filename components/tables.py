"""The table of every measure of a run as one HTML string (no Dash): the explore tab shows it in one Markdown
component, and the offline report (:mod:`components.report`) writes it into its page.

One string, not a Dash component per cell: the explore tab's table was about 150 components, and the
renderer took about 100 ms to replace them after each algorithm switch, holding the page's main thread
while the views waited to be drawn (issue 24).
"""

import html

import measures
from lab.compute import catalogue

__all__ = ["NO_BETTER_THAN_RANDOM", "NO_RESULT", "measure_entries", "measure_table_html", "number_text"]

NO_RESULT = "—"
NO_BETTER_THAN_RANDOM = "no better than a random output"
_NUMBERS = ("mean", "median", "best", "random")


def number_text(value):
    """A table's number: 4 significant digits, or :data:`NO_RESULT` for None and NaN."""
    return NO_RESULT if value is None or value != value else f"{value:.4g}"


def _text(value):
    """``value`` escaped for HTML and for the JSX reader ``dcc.Markdown`` hands raw HTML to (braces open an
    expression there)."""
    return html.escape(value).replace("{", "&#123;").replace("}", "&#125;")


def measure_entries(summary, best, sticks):
    """The table's row of each measure of ``summary`` that runs compute, in registry order.

    Parameters
    ----------
    summary : mapping
        ``{name: (mean, median)}``, a run's (a record's may come from a page: other names are left out).
    best : mapping
        ``{name: best attainable value}`` (:func:`lab.compute.yardsticks.summary_best`).
    sticks : lab.compute.yardsticks.YardstickResult or None
        The run's yardsticks, when computed.

    Returns
    -------
    dict
        ``{name: entry}``, each entry as :func:`measure_table_html` reads it.
    """
    entries = {}
    for name in catalogue.RUN_MEASURES:
        if name in summary:
            mean, median = (list(summary[name]) + [None, None])[:2]
            spec = measures.spec(name)
            entries[name] = {"label": spec.label, "description": spec.description,
                             "direction": catalogue.direction_key(name), "mean": mean, "median": median,
                             "best": best.get(name), "random": None if sticks is None else sticks.random.get(name),
                             "worse": sticks is not None and sticks.verdict(name)}
    return entries


def measure_table_html(entries, *, table_id=None):
    """Every measure's row: label, direction, then mean, median, best and random-output value (4 digits).

    Parameters
    ----------
    entries : iterable of dict
        One per measure, in the table's order: ``label``, ``direction`` (its key, e.g. "↑ better"),
        ``mean``, ``median``, ``best``, ``random`` (a number, or None or NaN: shown as —); optionally
        ``description`` (the label's tooltip) and ``worse`` (True: the run is no better than a random
        output by it, and its row says so).
    table_id : str, optional

    Returns
    -------
    str
        A ``<table>`` with a ``<thead>`` and a ``<tbody>`` on one line, every text escaped (braces too).
    """
    rows = []
    for entry in entries:
        worse = bool(entry.get("worse"))
        marked = f' class="no-better-than-random" title="{NO_BETTER_THAN_RANDOM}"' if worse else ""
        described = f' title="{_text(entry["description"])}"' if entry.get("description") else ""
        cells = "".join(f'<td class="number">{number_text(entry.get(key))}</td>' for key in _NUMBERS)
        rows.append(f'<tr{marked}><td{described}>{_text(entry["label"])}</td>'
                    f'<td class="direction">{_text(entry["direction"])}</td>{cells}</tr>')
    header = "".join(f'<th class="number">{text}</th>' for text in ("mean", "median", "best", "random output"))
    identity = f' id="{_text(table_id)}"' if table_id else ""
    return (f"<table{identity}><thead><tr><th>Measure</th><th></th>{header}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")
