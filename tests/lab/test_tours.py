"""The papers' tours: the step machinery, the index, and every step computed with its claims checked.

The slow test computes every step (every run through one result cache, kept between sessions in
pytest's cache folder under the code version's key, which the browser walk reuses) and checks that
each claim holds and that every number of the text was filled in.
"""

import dataclasses
import re
import string

import numpy as np
import pytest

from lab import RunRequest, ViewState, from_query, to_query
from lab.compute import compute
from lab.tours.presets import STEPS, TOURS, applied, locate
from lab.tours.steps import Claim, Published, Values, run_values


# ------------------------------------------------------------------ the numbers a step quotes

def test_run_values_quote_the_run_s_summary_and_describe_its_output_against_the_truth():
    request = RunRequest.create("strip", "pca", n=300, n_neighbors=8, dataset_params={"length": 3.0})
    result = compute(request, cache=None).result
    values = run_values(request, result)
    assert values["normalized"] == result.summary["normalized"][0]
    assert values["normalized_median"] == result.summary["normalized"][1]
    assert values["shape"] < 1e-20 and values["affine"] < 1e-20 and values["short_circuits"] == 0
    assert values["truth_aspect"] == pytest.approx(values["aspect"], rel=1e-9)  # PCA of a flat strip: the strip
    assert "phi_ratio" not in values  # PCA has no Φ (PN §2 writes LEM's, LLE's and LTSA's)


def test_a_template_is_filled_by_panel_and_a_claim_on_a_missing_value_does_not_hold():
    values = Values({"gp": {"normalized": 0.0021}, "step": {"best": 12}})
    assert values.fill("{gp.normalized:.3f} at k = {step.best}; {lle.normalized:.2f}") == "0.002 at k = 12; —"
    assert Claim("GP below {gp.normalized:.2f}", lambda v: v.gp.normalized < 0.01).check(values) == \
        ("GP below 0.00", True)
    assert Claim("LLE {lle.normalized}", lambda v: v.lle.normalized < 1).check(values) == ("LLE —", False)
    assert Claim("LLE", lambda v: 1 > v.lle.normalized).check(values)[1] is False
    # Items, attributes and formats of a missing value are missing too: a template never raises.
    assert values.fill("{table[swissroll_gp].normalized:.2f}, {lle.n:d}, {step.missing}") == "—, —, —"
    for uses in (lambda v: v.table["swissroll_gp"].normalized < 1, lambda v: v.step.missing != 12,
                 lambda v: not v.lle.normalized, lambda v: np.float64(1) < v.lle.normalized,
                 lambda v: v[f"k{v.step.missing}"].normalized > 0, lambda v: round(v.lle.normalized) == 0):
        assert Claim("{lle.normalized}", uses).check(values) == ("—", False)


# ------------------------------------------------------------------ the index

STEP_NAMES = list(STEPS)


def test_there_is_a_tour_per_paper_and_the_lecture_and_step_names_are_unique():
    assert [tour.key for tour in TOURS] == ["gr", "nq", "pn", "ml", "lecture"]
    names = [step.name for tour in TOURS for step in tour.steps]
    assert len(names) == len(set(names)) == len(STEPS)
    assert all(len(tour.steps) >= 3 for tour in TOURS)


@pytest.mark.parametrize("name", STEP_NAMES)
def test_a_step_is_a_valid_state_that_a_link_opens_and_its_explore_run_is_one_of_its_panels(name):
    step = STEPS[name]
    assert step.state.tour == name and step.state.validated() == step.state
    assert from_query(f"?tour={name}") == step.state == from_query(to_query(step.state))
    assert ViewState.from_dict(step.state.to_dict()) == step.state
    assert RunRequest.from_state(step.state) in [panel.request for panel in step.panels]
    assert len({panel.key for panel in step.panels}) == len(step.panels)
    assert locate(name)[0].steps[locate(name)[1]] is step


def test_a_step_reads_the_measures_its_words_quote_and_those_its_predicates_declare():
    # Worked from the texts: NQ Fig. 2 quotes M_L, M_t, R_N and M_G, and draws bars of M_L, M_G, M_t.
    assert STEPS["nq-fig2-swissroll"].measures_read() == {"asim", "truth_match", "normalized", "nieqa_global"}
    # GR Table 2 quotes nothing by name: its captions (R_N, R_C) and its minima's lower bound (declared).
    assert STEPS["gr-table2"].measures_read() == {"normalized", "conformal", "lower_bound"}
    assert STEPS["gr-fig5-cylinder-lle"].measures_read() == {"conformal"}  # "{h1_k6.conformal:.3f}", its curve


def test_only_explore_s_runs_compute_every_measure_and_a_shared_run_is_computed_once():
    steps = list(STEPS.values())
    opened = {RunRequest.from_state(step.state) for step in steps}
    reading = {}
    for step in steps:
        for panel in step.panels:
            reading.setdefault(dataclasses.replace(panel.request, measures=None), set()).update(step.measures_read())
    requests = {panel.request for step in steps for panel in step.panels}
    assert len(requests) == len(reading)  # narrowing split no run in two
    for run in requests:
        full = dataclasses.replace(run, measures=None)
        if full in opened:
            assert run.measures is None, run.describe()  # Explore shows every measure of a step's own run
        else:
            assert set(run.measures) == reading[full], run.describe()
    assert sum(run.measures is not None for run in requests) > 0.75 * len(requests)


@pytest.mark.parametrize("name", STEP_NAMES)
def test_a_step_s_templates_name_only_its_panels_and_the_values_they_have(name):
    step = STEPS[name]
    keys = {panel.key for panel in step.panels} | {"step"} | set(step.paper_values())
    for template in (step.text, *(claim.text for claim in step.claims)):
        for _, field, _, _ in string.Formatter().parse(template):
            if field:
                assert field.split(".")[0].split("[")[0] in keys, (name, field)
    assert step.claims and step.reproduced in ("yes", "partly", "no") and step.chart in ("outputs", "table")
    if step.reproduced != "yes":  # a step that does not reproduce the paper says so, and a claim checks it
        assert "not reproduced" in step.text.lower()
        assert any(claim.text.startswith("Not reproduced") for claim in step.claims)
    assert set(step.outputs) <= {panel.key for panel in step.panels}


def test_opening_a_step_keeps_the_presentation_mode_and_the_image_format():
    current = from_query("?present=1&format=svg&dataset=digits")
    opened = applied("gr-fig1", current)
    assert opened.display.presentation and opened.display.figure_format == "svg"
    step_display = STEPS["gr-fig1"].state.display
    assert dataclasses.replace(opened.display, presentation=False, figure_format="png") == step_display
    assert opened.replace(display=STEPS["gr-fig1"].state.display) == STEPS["gr-fig1"].state
    with pytest.raises(KeyError, match="no tour step 'nope'"):
        applied("nope")


def test_a_link_naming_a_step_and_a_change_opens_the_step_with_that_change():
    state = from_query("?tour=gr-fig1&k=9")
    assert state.method.n_neighbors == 9 and state.data == STEPS["gr-fig1"].state.data and state.tour == "gr-fig1"
    assert from_query(to_query(state)) == state and "tour=gr-fig1" in to_query(state)


def test_the_readme_lists_every_step_with_whether_it_reproduces():
    readme = (__import__("pathlib").Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## What the tours reproduce"):]
    section = section[:section.index("\n## ", 3)]
    for step in STEPS.values():
        row = re.search(rf"^\|[^|\n]*\|\s*{re.escape(step.title)}\s*\|\s*(\w+)", section, flags=re.MULTILINE)
        assert row is not None, step.title
        assert row.group(1) == step.reproduced, step.title


# GR Fig. 5's caption, as printed (papers/local-procrustes-goldberg-ritov-2009.txt).
GR_FIG5_CAPTION = ("(B)-(F) show the output of LLE for k=6,9,12,15 and 18, respectively. The respective values of "
                   "$R_C(X,Y)$ are 0.25, 0.15, 0.13, 0.19, 0.17. While qualitatively the results are similar, "
                   "$R_C(X,Y)$ indicates that k=12 is optimal")


def test_gr_fig5_declares_gr_s_published_r_c_and_its_text_quotes_them_from_there():
    step = STEPS["gr-fig5-cylinder-lle"]
    ks = [int(k) for k in re.findall(r"\d+", re.search(r"k=(.*?), respectively", GR_FIG5_CAPTION).group(1))]
    printed = [float(value) for value in re.findall(r"0\.\d+", re.search(r"are (.*?)\. ", GR_FIG5_CAPTION).group(1))]
    best = re.search(r"k=(\d+) is optimal", GR_FIG5_CAPTION).group(1)
    assert step.published.x == tuple(ks) == tuple(panel.position("k") for panel in step.drawn)
    assert step.published.y == (("conformal", tuple(printed)),) and step.curve == ("conformal",)
    assert step.published.name == "GR Fig. 5" and "Goldberg & Ritov" in step.published.citation
    # The text quotes the declaration, before any run: the same numbers in the caption's order and its best k.
    quoted = Values(step.paper_values()).fill(step.text)
    assert f"GR's R_C are {', '.join(f'{value:.2f}' for value in printed)}, smallest at k = {best} " in quoted
    assert not re.search(r"0\.(25|15|13|19|17)\b", step.text)  # typed once: in the declaration, not the text
    # A changed declaration changes the text: nothing of it is typed twice.
    changed = dataclasses.replace(step.published, y=(("conformal", (0.3, 0.2, 0.1, 0.05, 0.4)),))
    assert "GR's R_C are 0.30, 0.20, 0.10, 0.05, 0.40, smallest at k = 15 " in Values(
        {"published": changed.values()}).fill(step.text)


def test_a_published_series_needs_a_value_per_x_and_a_curve_that_draws_it():
    with pytest.raises(ValueError, match="has 2 values for 3 x positions"):
        Published("GR Fig. 5", "GR", (6, 9, 12), (("conformal", (0.25, 0.15)),))
    step = STEPS["gr-fig5-cylinder-lle"]
    with pytest.raises(ValueError, match=r"must be among curve=\('normalized',\)"):
        dataclasses.replace(step, curve=("normalized",))
    with pytest.raises(ValueError, match="has a curve and bars"):
        dataclasses.replace(step, bars=("asim",))


def test_a_paired_figure_s_rows_are_one_input_each():
    """PN Figs. 7–9 draw each input first in its row (issue 19): the rows must split evenly, one input each."""
    step = STEPS["pn-fig7-stretched"]
    rows = step.input_rows()
    assert [len(row) for row in rows] == [6, 6]
    assert [{dict(panel.request.data.params)["stretch"] for panel in row} for row in rows] == [{1.0}, {3.0}]
    with pytest.raises(ValueError, match="make no 5 equal rows"):
        dataclasses.replace(step, inputs=tuple("abcde"))
    mixed = (*step.panels[:5], step.panels[6], step.panels[5], *step.panels[7:])  # a stretched run in row 1
    with pytest.raises(ValueError, match="must draw one input's runs"):
        dataclasses.replace(step, panels=mixed)


# ------------------------------------------------------------------ every step computed

@pytest.mark.slow
@pytest.mark.parametrize("name", STEP_NAMES)
def test_every_claim_of_the_step_holds_on_its_computed_runs(name, tour_cache):
    step = STEPS[name]
    result = compute(step.request(), cache=tour_cache).result
    assert result.errors == {}
    values = step.values(result)
    for template in (step.text, *(claim.text for claim in step.claims)):  # every number quoted was computed
        for _, field, _, _ in string.Formatter().parse(template):
            if field:
                found = values
                # Attributes and items alike ("published.conformal[12]"), a digit item an int as Formatter reads it.
                for part in re.findall(r"[^.\[\]]+", field):
                    part = int(part) if part.isdigit() else part
                    assert part in found, (name, field)
                    found = found[part]
    failing = [claim for claim, holds in step.render(result)[1] if not holds]
    assert failing == [], failing


# A number as the README's table and the steps' texts write them: 0.835, 8.2e-21, 1600 (not a part of a name).
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:e-?\d+)?")


@pytest.mark.slow
def test_the_readme_s_verdicts_quote_only_numbers_the_step_computes_or_sets(tour_cache):
    """Issue 19: every number in a step's row of the README's table is one its page shows, computed (its text,
    claims and title filled from its runs) or set (its runs' parameters: n, k, random state), never one
    typed in by hand (the rows read 1e-19, 0.027 and 4.2 where the runs gave 8.2e-21, 0.023 and 4.3)."""
    readme = (__import__("pathlib").Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## What the tours reproduce"):]
    section = section[:section.index("\n## ", 3)]
    unshown = {}
    for step in STEPS.values():
        row = re.search(rf"^\|[^|\n]*\|\s*{re.escape(step.title)}\s*\|\s*\w+\s*\|(.*)\|\s*$", section,
                        flags=re.MULTILINE)
        text, claims = step.render(compute(step.request(), cache=tour_cache).result)
        shown = " ".join([step.title, text, *(claim for claim, _ in claims)])
        known = set(_NUMBER.findall(shown)) | set(_NUMBER.findall(str(step.request().to_dict())))
        unshown[step.name] = [number for number in _NUMBER.findall(row.group(1)) if number not in known]
    assert {name: numbers for name, numbers in unshown.items() if numbers} == {}


@pytest.mark.slow
def test_gr_table2_marks_the_cells_that_match_gr_as_its_claims_say(tour_cache):
    """The table's marks and the step's claims read the same numbers: LLE's and LTSA's roll match GR, our
    cylinder's LLE does not, and a mark needs both R_N and R_C within the tolerance."""
    step = STEPS["gr-table2"]
    cells = step.panel_values(compute(step.request(), cache=tour_cache).result)["step"]
    assert step.cell_match("swissroll_lle", cells["swissroll_lle"]) is (
        abs(cells["swissroll_lle"]["conformal"] - 0.23) <= step.tolerance)
    assert step.cell_match("swissroll_ltsa", {**cells["swissroll_ltsa"], "conformal": 0.22})
    assert step.cell_match("cylinder_lle", cells["cylinder_lle"]) is False
    assert step.cell_match("swissroll_lower_bound", cells["swissroll_lower_bound"]) is True
    assert step.cell_match("faces_lle", cells["swissroll_lle"]) is None  # GR's column we do not reproduce
