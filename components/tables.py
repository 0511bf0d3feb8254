"""The table of every measure of a run as one HTML string (no Dash): the explore tab shows it in one Markdown
component, and the offline report (:mod:`components.report`) writes it into its page.

One string, not a Dash component per cell: the explore tab's table was about 150 components, and the
renderer took about 100 ms to replace them after each algorithm switch, holding the page's main thread
while the views waited to be drawn (issue 24).
"""

import html

__all__ = ["NO_BETTER_THAN_RANDOM", "NO_RESULT", "measure_table_html", "number_text"]

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
