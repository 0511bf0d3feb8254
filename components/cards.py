"""A run's numbers on the page: the headline cards and their text."""

from dash import html

from . import ids
from .tables import NO_RESULT

__all__ = ["card", "card_text"]


def card(measure, title, help_text, key="", yardstick=True):
    """A headline card: its title and direction key, its value (id :func:`ids.card_value`), and under it the
    measure's yardstick line (id :func:`ids.card_yardstick`) unless ``yardstick`` is False."""
    return html.Div([html.Div([title, html.Span(key, className="card-key")], className="card-title"),
                     html.Div("…", id=ids.card_value(measure), className="card-value"),
                     *([html.Div(id=ids.card_yardstick(measure), className="card-yardstick")] if yardstick else [])],
                    className="card", title=help_text)


def card_text(pair):
    """A card's mean (the value of a global measure) with the median beneath, SPEC §0."""
    mean, median = (list(pair) + [None, None])[:2] if pair else (None, None)
    if mean is None:  # not computed (a quadratic measure on a large input; the message says so)
        return [html.Span(NO_RESULT, className="card-mean"), html.Span("not computed", className="card-median")]
    # Four significant digits: GP's R_N of 2e-5 must not read as 0.0000.
    return [html.Span(f"{mean:.4g}", className="card-mean"),
            html.Span("" if median is None else f"median {median:.4g}", className="card-median")]
