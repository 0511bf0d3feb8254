"""The table of every measure as one HTML string (``components/tables.py``): what it shows, escaped for HTML and
for the JSX reader of ``dcc.Markdown``."""

import xml.etree.ElementTree as ElementTree

from components.tables import NO_BETTER_THAN_RANDOM, NO_RESULT, measure_table_html

ENTRIES = [
    {"label": "R_N", "description": "local Procrustes, normalized", "direction": "↓ better", "mean": 0.0757123,
     "median": 0.04661, "best": 0.001371, "random": None},
    {"label": "stress <b>{x}</b> & co", "description": 'a "quoted" {brace}', "direction": "", "mean": float("nan"),
     "median": None, "best": None, "random": 0.5, "worse": True},
]


def test_the_table_holds_each_measure_s_row_in_order_with_four_digits_and_dashes():
    table = ElementTree.fromstring(measure_table_html(ENTRIES, table_id="t"))
    assert table.get("id") == "t"
    assert [cell.text for cell in table.find("thead").find("tr")][2:] == ["mean", "median", "best", "random output"]
    first, second = table.find("tbody").findall("tr")
    assert [cell.text or "" for cell in first] == ["R_N", "↓ better", "0.07571", "0.04661", "0.001371", NO_RESULT]
    assert first[0].get("title") == "local Procrustes, normalized" and first.get("class") is None
    assert [cell.text or "" for cell in second][2:] == [NO_RESULT, NO_RESULT, NO_RESULT, "0.5"]  # NaN, None: dashes
    assert second.get("class") == "no-better-than-random" and second.get("title") == NO_BETTER_THAN_RANDOM


def test_every_text_is_escaped_braces_included_and_the_table_is_one_line():
    text = measure_table_html(ENTRIES)
    assert "<b>" not in text and "{" not in text and "}" not in text and "\n" not in text
    second = ElementTree.fromstring(text).find("tbody").findall("tr")[1]
    assert second[0].text == "stress <b>{x}</b> & co" and second[0].get("title") == 'a "quoted" {brace}'
