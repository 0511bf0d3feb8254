"""The explore tab's server side without a browser: a view state is drawn in one request when its run is
cached, a display change redraws only what changed, a change elsewhere reads nothing, a miss starts the job,
and a job's record for a run the view has left is not drawn."""

import xml.etree.ElementTree as ElementTree

import dash
import numpy as np
import pytest

import measures
from components.explore import show_computed, show_state
from components.explore_job import compute_record
from components.records import partial_record, run_record
from components.figures import fixed_point
from components.figures.marks import loss_index, loss_range
from components.yardsticks import keep_yardsticks, show_yardsticks
from lab import RunRequest, ViewState, YardstickRequest, from_query
from lab.compute import catalogue, compute
from lab.compute.views import explore_view, neighbour_losses
from serving.services import Services
from tests.strategies import run_part

LINK = "?dataset=swissroll&n=300&k=8&algorithm=pca"


@pytest.fixture
def services(tmp_path):
    return Services.in_directory(tmp_path)


@pytest.fixture
def reads(services, monkeypatch):
    """How often the result cache was read."""
    count = {"get": 0}
    original = services.results.get

    def counted(request):
        count["get"] += 1
        return original(request)

    monkeypatch.setattr(services.results, "get", counted)
    return count


def computed(services, link):
    state = from_query(link).to_dict()
    record = compute_record(services, {"request": run_part(state), "nonce": "n"}, "session", lambda *args: None)
    assert record["status"] == "done"
    return state, record


def drawn_values(column):
    """A view's column as the page decodes it (16-bit fixed point)."""
    return fixed_point.decode(column)


def carried(values):
    """``values`` as the page's views carry them: 16-bit fixed point, decoded."""
    return fixed_point.decode(fixed_point.encode(values))


def unchanged(outputs, *names):
    return all(outputs[name] is dash.no_update for name in names)


def patched(patch):
    """A view's patch as ``{location: value}``."""
    return {tuple(operation["location"]): operation["params"].get("value")
            for operation in patch.to_plotly_json()["operations"]}


def test_a_cached_run_is_drawn_in_the_request_that_brings_its_state(services):
    state, record = computed(services, LINK)
    outputs = show_state(services, state, None, None, "session", "token")
    assert outputs["request"] is dash.no_update  # no job
    assert outputs["shown"]["cached"] and outputs["shown"]["request"] == record["request"]
    assert outputs["shown"]["summary"] == record["summary"]
    assert len(drawn_values(outputs["output"].data[0].x)) == 300 and outputs["drawn"]["request"] == record["request"]
    # The camera saves each view under the run's name (assets/linked_views.js reads layout.meta).
    assert outputs["input"].layout.meta["filename"] == "procrustes-lab_swissroll_n300_pca_k8_input"
    assert outputs["output"].layout.meta["filename"] == "procrustes-lab_swissroll_n300_pca_k8_output"


def test_a_miss_starts_the_job_and_leaves_the_views(services):
    state = from_query(LINK).to_dict()
    outputs = show_state(services, state, None, None, "session", "token")
    assert outputs["request"]["request"] == run_part(state) and outputs["request"]["token"] == "token"
    assert unchanged(outputs, "input", "output", "shown", "drawn")
    again = show_state(services, state, None, None, "session", "token")
    assert again["request"]["nonce"] != outputs["request"]["nonce"]  # a retry is a new job


def test_a_change_on_another_tab_reads_nothing_and_draws_nothing(services, reads):
    state, _ = computed(services, LINK)
    first = show_state(services, state, None, None, "session", "token")
    read = reads["get"]
    elsewhere = ViewState.from_dict(state).replace(tab="sweep").to_dict()
    outputs = show_state(services, elsewhere, first["shown"], first["drawn"], "session", "token")
    assert unchanged(outputs, "input", "output", "shown", "drawn", "request", "message")
    assert reads["get"] == read


@pytest.mark.parametrize("view", ["3d", "02"])
def test_a_colouring_patch_keeps_the_hover_of_the_drawn_view_but_its_colour_line(services, view):
    """The patch's hover names the axes the view draws (a projection's two) in the formats its coordinates carry;
    only the colour's line changes: compared with the whole figure of the new colouring."""
    state, _ = computed(services, LINK + f"&view={view}")
    first = show_state(services, state, None, None, "session", "token")
    recoloured = from_query(LINK + f"&view={view}&color=truth-0").to_dict()
    patched = show_state(services, recoloured, first["shown"], first["drawn"], "session", "token")
    whole = show_state(services, recoloured, None, None, "session", "token")  # nothing drawn yet: whole figures
    for name in ("input", "output"):
        operations = {tuple(operation["location"]): operation["params"]["value"]
                      for operation in patched[name].to_plotly_json()["operations"]}
        assert operations[("data", 0, "hovertemplate")] == whole[name].data[0].hovertemplate
    assert "x3 %{y:" in whole["input"].data[0].hovertemplate if view == "02" else "%{z:" in whole[
        "input"].data[0].hovertemplate
    # Another run of the same points: the input view's patch, likewise.
    other, _ = computed(services, LINK.replace("algorithm=pca", "algorithm=isomap") + f"&view={view}")
    switched = show_state(services, other, first["shown"], first["drawn"], "session", "token")
    operations = {tuple(operation["location"]): operation["params"]["value"]
                  for operation in switched["input"].to_plotly_json()["operations"]}
    assert operations[("data", 0, "hovertemplate")] == show_state(services, other, None, None, "session",
                                                                  "token")["input"].data[0].hovertemplate


def test_a_new_colouring_patches_one_array_per_view(services):
    state, _ = computed(services, LINK)
    first = show_state(services, state, None, None, "session", "token")
    recoloured = from_query(LINK + "&color=truth-0").to_dict()
    outputs = show_state(services, recoloured, first["shown"], first["drawn"], "session", "token")
    assert isinstance(outputs["output"], dash.Patch) and isinstance(outputs["input"], dash.Patch)
    assert outputs["drawn"]["color"] == "truth-0" and outputs["shown"] is dash.no_update
    # The landmarks overlay adds traces: the whole views are drawn again.
    marked = from_query(LINK + "&color=truth-0&landmarks=1").to_dict()
    redrawn = show_state(services, marked, first["shown"], outputs["drawn"], "session", "token")
    assert not isinstance(redrawn["output"], dash.Patch) and redrawn["drawn"]["landmarks"] is True


def test_another_run_of_the_same_points_recolours_the_input_view_and_sends_no_coordinates(services):
    """Issue 24: a switch of algorithm sends the input view its colouring, its title and emptied marks (the
    coordinates stay in the browser); other points, or the landmark overlay, redraw it whole."""
    state, _ = computed(services, LINK)
    first = show_state(services, state, None, None, "session", "token")
    other, record = computed(services, LINK.replace("algorithm=pca", "algorithm=isomap"))
    outputs = show_state(services, other, first["shown"], first["drawn"], "session", "token")
    assert isinstance(outputs["input"], dash.Patch) and not isinstance(outputs["output"], dash.Patch)
    operations = {tuple(operation["location"]): operation["params"]["value"]
                  for operation in outputs["input"].to_plotly_json()["operations"]}
    assert not [location for location in operations if location[0] == "data" and location[-1] in "xyz"
                and location[1] == 0]  # no coordinate of the points
    assert all(operations[("data", trace, axis)] == [] for trace in range(1, 5) for axis in "xyz")
    request = RunRequest.from_state(ViewState.from_dict(other))
    result = compute(request, cache=services.results).result
    color = operations[("data", 0, "marker")]["color"]  # 16-bit fixed point, as the figure sends it
    np.testing.assert_array_equal(fixed_point.decode(color), carried(result.local["normalized"]))
    assert operations[("data", 0, "hovertemplate")].endswith(
        f"%{{marker.color:{fixed_point.carried_format(result.local['normalized'])}}}<extra></extra>")
    assert operations[("layout", "title", "text")] == explore_view(request, result, False).input_title
    assert operations[("layout", "meta", "filename")] == "procrustes-lab_swissroll_n300_isomap_k8_input"
    assert outputs["drawn"]["request"] == record["request"]
    # Other points (n = 301) draw the input whole, and so does the landmark overlay (it adds traces).
    more, _ = computed(services, LINK.replace("n=300", "n=301"))
    assert not isinstance(show_state(services, more, outputs["shown"], outputs["drawn"], "session", "token")["input"],
                          dash.Patch)
    marked, _ = computed(services, LINK + "&landmarks=1")
    assert not isinstance(show_state(services, marked, outputs["shown"], outputs["drawn"], "session",
                                     "token")["input"], dash.Patch)


@pytest.mark.parametrize("forged", [[1], "views", 7, True, {"input": [[{"data": None}]], "view": {"3d": 1}}])
def test_a_forged_drawn_record_redraws_the_views_whole_without_an_error(services, forged):
    """The drawn record comes back from the browser: any other value there means nothing the server drew."""
    state, _ = computed(services, LINK)
    first = show_state(services, state, None, None, "session", "token")
    other, _ = computed(services, LINK.replace("algorithm=pca", "algorithm=isomap"))
    outputs = show_state(services, other, first["shown"], forged, "session", "token")
    assert not isinstance(outputs["input"], dash.Patch) and len(drawn_values(outputs["input"].data[0].x)) == 300
    assert outputs["drawn"]["request"] == outputs["shown"]["request"]


def test_a_job_s_record_is_drawn_unless_the_view_has_moved_to_another_run(services):
    state, record = computed(services, LINK)
    outputs = show_computed(services, record, state, None, "session")
    assert outputs["shown"] == record and len(drawn_values(outputs["output"].data[0].x)) == 300
    other = from_query(LINK.replace("k=8", "k=9")).to_dict()
    assert unchanged(show_computed(services, record, other, None, "session"), "input", "output", "shown")
    assert RunRequest.from_state(ViewState.from_dict(other)).to_dict() != record["request"]


def measured_in_parts(services, link, nonce="n"):
    """A job's partial records (the page receives each) and its final record."""
    state = from_query(link).to_dict()
    parts = []
    record = compute_record(services, {"request": run_part(state), "nonce": nonce}, "session", lambda *args: None,
                            show=parts.append)
    return state, parts, record


def test_the_job_hands_the_page_its_input_and_output_before_its_measures_then_each_group(services):
    """issue 24 item 2: the input, then the output, with every card pending, then the measures done so far."""
    state, parts, record = measured_in_parts(services, LINK)
    assert [part["status"] for part in parts] == ["partial"] * len(parts) and len(parts) >= 3
    assert parts[0]["summary"] == {} and record["status"] == "done"
    for part in parts[1:]:  # the values the whole run then holds, never others
        assert all(record["summary"][name] == values for name, values in part["summary"].items())
    assert len(parts[-1]["summary"]) < len(record["summary"])
    # The whole result replaced the partial one in the cache: a late partial record draws nothing.
    late = show_computed(services, parts[-1], state, None, "session")
    assert unchanged(late, "input", "output", "shown", "message")


def test_a_partial_record_draws_the_output_coloured_by_the_truth_with_its_cards_pending(services, monkeypatch):
    state = from_query(LINK).to_dict()
    kept = {}
    put = services.results.put_partial

    def keep_first(request, result):  # what the page meets when the algorithm has ended
        if result.Y.shape[1]:
            kept.setdefault("result", result)
            kept.setdefault("request", request)

    monkeypatch.setattr(services.results, "put_partial", keep_first)
    parts = []
    compute_record(services, {"request": run_part(state), "nonce": "n"}, "session", lambda *args: None,
                   show=parts.append)
    put(kept["request"], kept["result"])  # the embedding alone, as the algorithm ended
    outputs = show_computed(services, parts[1], state, None, "session")
    assert outputs["shown"] == parts[1] and outputs["message"].startswith("Measuring")
    assert set(outputs["cards"].values()) == {"…"}
    drawn = outputs["output"].data[0]
    np.testing.assert_array_equal(fixed_point.decode(drawn.x), carried(kept["result"].Y[:, 0]))
    # No measure yet: coloured by the truth, and the colour bar says so.
    np.testing.assert_array_equal(fixed_point.decode(drawn.marker.color), carried(kept["result"].truth[:, 0]))
    assert drawn.marker.colorbar.title.text == kept["result"].truth_labels[0]


def test_while_its_job_measures_a_new_colouring_redraws_the_partial_run_and_starts_no_job(services):
    state = from_query(LINK).to_dict()
    request = RunRequest.from_state(ViewState.from_dict(state))
    partial_result = compute(request, cache=None).result  # stands for the partial one a running job keeps
    services.results.put_partial(request, partial_result)
    shown = partial_record(request, partial_result)
    job = {"request": request.to_dict(), "nonce": "running-job", "token": "token"}
    services.jobs.set_status("running-job", "running")
    recoloured = from_query(LINK + "&color=truth-0").to_dict()
    outputs = show_state(services, recoloured, shown, None, "session", "token", job)
    assert outputs["request"] is dash.no_update and outputs["message"].startswith("Measuring")
    assert outputs["drawn"]["color"] == "truth-0"
    # Its job has ended (cancelled, or lost): a new job computes the run, which is never left half-measured.
    services.jobs.set_status("running-job", "cancelled")
    again = show_state(services, recoloured, shown, None, "session", "token", job)
    assert again["request"]["request"] == request.to_dict() and again["request"]["nonce"] != "running-job"


def test_a_failed_record_blanks_the_views_and_says_why(services):
    failed = {"status": "failed", "message": "It broke."}
    outputs = show_computed(services, failed, from_query(LINK).to_dict(), None, "session")
    assert outputs["message"] == "It broke." and outputs["message_class"] == "message error"
    assert outputs["shown"] == failed and outputs["drawn"] is None


def table_rows(markdown):
    """The body rows of the measure table's HTML (one Markdown component; ``components.tables``)."""
    assert markdown.dangerously_allow_html
    return ElementTree.fromstring(markdown.children).find("tbody").findall("tr")


def test_the_measure_table_shows_every_measure_the_run_computed_with_its_best_value(services):
    state, record = computed(services, LINK)
    shown = show_state(services, state, None, None, "session", "token")["shown"]
    outputs = show_yardsticks(services, shown, None, "session")
    rows = [[cell.text or "" for cell in row] for row in table_rows(outputs["table"])]
    assert [row[0] for row in rows] == [measures.spec(name).label for name in record["summary"]]
    assert len(rows) > len(catalogue.CARD_MEASURES) and "continuity" in record["summary"]
    floor = record["summary"]["lower_bound"][0]
    for row, (name, (mean, median)) in zip(rows, record["summary"].items()):
        assert row[1] == {True: "↑ better", False: "↓ better", None: ""}[measures.spec(name).higher_is_better]
        assert row[2] == f"{mean:.4g}"
        assert row[3] == ("—" if median is None else f"{median:.4g}")
        best = {"normalized": floor, "conformal": floor, "trustworthiness": 1.0, "continuity": 1.0}.get(name)
        assert best is None or row[4] == f"{best:.4g}"
        assert row[5] == "—"  # no random value before the yardsticks are computed
    assert outputs["lines"]["normalized"] == f"floor {floor:.3g}"
    assert outputs["lines"]["trustworthiness"] == "best 1" and outputs["lines"]["asim"] == ""


def test_computed_yardsticks_reach_the_cards_and_the_table_and_the_job_names_what_random_beats(services):
    state, record = computed(services, LINK)
    shown = show_state(services, state, None, None, "session", "token")["shown"]
    request = YardstickRequest(RunRequest.from_dict(record["request"]))
    sticks, _ = compute(request, cache=services.results)
    outputs = show_yardsticks(services, shown, {"run": record["request"]}, "session")
    random_t = sticks.random["trustworthiness"]
    assert 0.45 < random_t < 0.55  # Venna & Kaski: ~1/2 for an output unrelated to the input
    assert outputs["lines"]["trustworthiness"] == f"best 1 · random {random_t:.3g}"
    rows = {row[0].text: row for row in table_rows(outputs["table"])}
    assert rows["stress"][5].text == f"{sticks.random['stress']:.4g}"
    worse = [name for name in sticks.random if sticks.verdict(name)]
    assert [row.get("class") for row in rows.values() if row.get("class")] == ["no-better-than-random"] * len(worse)
    kept, said = keep_yardsticks(request, sticks)
    assert kept == {"run": record["request"]}
    assert said.startswith(f"Yardsticks of {request.run.describe()}: {len(sticks.random)} measures on 2 random")
    assert all(measures.spec(name).label in said for name in worse)


@pytest.mark.parametrize("shown", [{"status": "done", "request": {"data": 3}}, {"status": "done"}, [1, 2], "x",
                                   {"status": "done", "request": {}, "cached": True, "seconds": 1.0,
                                    "summary": {"normalized": [10**400, None]}}])
def test_a_forged_shown_record_leaves_the_yardsticks_blank_without_an_error(services, shown):
    outputs = show_yardsticks(services, shown, {"run": [None] * 10**4}, "session")
    assert outputs["table"] is None and set(outputs["lines"].values()) == {""}


def test_a_record_holding_a_number_no_float_holds_is_refused_with_a_message(services):
    state, record = computed(services, LINK)
    forged = {**record, "summary": {**record["summary"], "normalized": [10**400, None]}}
    outputs = show_computed(services, forged, state, None, "session")
    assert outputs["message"] == "The run record is not one this page writes."
    assert outputs["message_class"] == "message error"


def test_false_vs_missing_neighbours_paint_both_views_and_redraw_them_whole(services):
    state, record = computed(services, LINK)
    first = show_state(services, state, None, None, "session", "token")
    chosen = from_query(LINK + "&color=false_missing").to_dict()
    outputs = show_state(services, chosen, first["shown"], first["drawn"], "session", "token")
    # The key is added: the whole views are drawn again, not patched.
    assert not isinstance(outputs["output"], dash.Patch) and outputs["drawn"]["losses"] == "drawn"
    result = services.results.get(RunRequest.from_dict(record["request"]))
    losses = neighbour_losses(result)
    expected = loss_index(losses.false, losses.missing, loss_range(losses.false, losses.missing))
    for view in ("input", "output"):  # n = 300: both views draw every point
        np.testing.assert_array_equal(outputs[view].data[0].marker.color, expected)
    T, C = record["summary"]["trustworthiness"][0], record["summary"]["continuity"][0]
    assert outputs["output"].layout.annotations[-1].text.startswith(
        f"false vs missing<br>neighbours<br>T = {T:.4f}<br>C = {C:.4f}<br>full hue from ")
    assert "key" in [trace.name for trace in outputs["output"].data]
    assert "key" not in [trace.name for trace in outputs["input"].data]
    back = show_state(services, state, first["shown"], outputs["drawn"], "session", "token")
    assert not isinstance(back["output"], dash.Patch) and "key" not in [trace.name for trace in back["output"].data]


def test_false_vs_missing_neighbours_paint_a_drawn_subsample_on_every_point_s_common_top(services, monkeypatch):
    monkeypatch.setattr(catalogue, "DISPLAY_CAP_3D", 120)  # the 3-D input view draws a level of detail
    state, record = computed(services, LINK + "&color=false_missing")
    outputs = show_state(services, state, None, None, "session", "token")
    result = services.results.get(RunRequest.from_dict(record["request"]))
    losses = neighbour_losses(result)
    top = loss_range(losses.false, losses.missing)  # from all 300 points, not the drawn ones
    rows = np.asarray(outputs["input"].data[0].customdata)
    assert 120 <= len(rows) < 300
    np.testing.assert_array_equal(outputs["input"].data[0].marker.color,
                                  loss_index(losses.false[rows], losses.missing[rows], top))
    np.testing.assert_array_equal(outputs["output"].data[0].marker.color, loss_index(losses.false, losses.missing, top))
    assert outputs["input"].data[0].text[0] == f"{losses.false[rows[0]]:.3g}"


def test_each_later_part_of_a_run_sends_its_cards_and_a_colouring_only_when_it_changes(services):
    """A 20 000-point run's views were sent again with every group of measures; now the input and the output
    points once each, then the colouring when its measure arrives (the truth, then local R_N), then the cards
    alone."""
    state = from_query(LINK).to_dict()
    request = RunRequest.from_state(ViewState.from_dict(state))
    results = []
    compute(request, cache=None, partial=results.append)
    drawn, answers = None, []
    for result in results:
        services.results.put_partial(request, result)
        answer = show_computed(services, partial_record(request, result), state, drawn, "session")
        drawn = answer["drawn"]
        answers.append(answer)
    read, first, recoloured, *later = answers
    # The input while the algorithm runs; the output, as it ends, beside the input kept in the browser.
    assert len(drawn_values(read["input"].data[0].x)) == 300 and "Embedding with PCA" in str(read["output"].layout)
    assert read["message"].startswith("Embedding: the input is drawn")
    assert len(drawn_values(first["output"].data[0].x)) == 300 and first["input"] is dash.no_update  # coloured alike
    assert first["drawn"]["colored_by"] == results[0].truth_labels[0]
    assert isinstance(recoloured["output"], dash.Patch) and recoloured["drawn"]["colored_by"].startswith("local R_N")
    assert recoloured["cards"]["normalized"] != "…"
    for answer in later:
        assert unchanged(answer, "input", "output") and answer["cards"]["trustworthiness"] != "…"
    assert len(later) >= 1 and later[-1]["cards"]["nieqa_global"] != "…"
    # The whole run: its views hold its points and colours, so its output loses its "measuring" mark in a patch of
    # its title (a million points redrawn took Plotly 5 s), and the message gives its notes.
    whole, cached = compute(request, cache=services.results)
    final = show_computed(services, run_record(request, whole, cached), state, drawn, "session")
    view = explore_view(request, whole, False)
    assert patched(final["output"]) == {("layout", "title", "text"): view.output_title}
    assert final["input"] is dash.no_update and "measuring" not in view.output_title
    assert final["message"] == view.notes and final["drawn"]["status"] == "done"
    assert "…" not in final["cards"].values()


def test_cancel_keeps_a_measured_output_blanks_a_missing_one_and_goes_back_to_an_earlier_run(services):
    """Cancel while a run is drawn in part: its output and measures done stay; before its algorithm ended, the
    output view says so; part of an earlier run (its job replaced by the one cancelled) is computed again."""
    from components.explore_job import revert_cancelled

    state = from_query(LINK).to_dict()
    request = RunRequest.from_state(ViewState.from_dict(state))
    results = []
    compute(request, cache=None, partial=results.append)
    input_only, embedded = (partial_record(request, result) for result in results[:2])
    job = {"request": request.to_dict(), "nonce": "job", "token": "t"}
    apply, message, output = revert_cancelled(services, 1, embedded, state, job)
    assert apply is dash.no_update and output is dash.no_update and message.startswith("Cancelled while measuring")
    assert services.jobs.ended("job")
    apply, message, output = revert_cancelled(services, 1, input_only, state, job)
    assert apply is dash.no_update and message.startswith("Cancelled before its algorithm ended")
    assert "Cancelled" in str(output.layout)
    other = {**job, "request": RunRequest.from_state(from_query(LINK.replace("k=8", "k=9")).validated()).to_dict()}
    apply, message, output = revert_cancelled(services, 1, embedded, state, other)
    assert apply["state"]["method"]["n_neighbors"] == 8 and "computed again" in apply["message"]


def test_a_lost_job_s_part_is_dropped_so_that_no_late_draw_covers_the_report(services):
    """A job killed as it started had published its input: that part, drawn after the report of the loss, hid
    it (the full suite's killed-job test)."""
    from components.explore_job import report_lost

    state = from_query(LINK).to_dict()
    request = RunRequest.from_state(ViewState.from_dict(state))
    results = []
    compute(request, cache=None, partial=results.append)
    services.results.put_partial(request, results[0])
    services.jobs.set_status("killed", "running")  # its process died before it could say it ended
    job = {"request": request.to_dict(), "nonce": "killed", "token": "t"}
    assert report_lost(services, False, job)["message"].startswith("The computation ended without a result")
    assert not services.results.holds_partial(request)
    late = show_computed(services, partial_record(request, results[0]), state, None, "session")
    assert unchanged(late, "input", "output", "shown", "message")


def test_a_run_measured_in_parts_draws_false_vs_missing_neighbours_whole_once_t_and_c_arrive(services):
    """Coloured by false vs missing neighbours, a run's parts fall back to another colouring until trustworthiness and
    continuity are measured; then both views are drawn whole with the two hues and their key, not patched with the
    fallback's values."""
    state = from_query(LINK + "&color=false_missing").to_dict()
    request = RunRequest.from_state(ViewState.from_dict(state))
    results = []
    compute(request, cache=None, partial=results.append)
    drawn, arrived = None, None
    for result in results:
        services.results.put_partial(request, result)
        answer = show_computed(services, partial_record(request, result), state, drawn, "session")
        drawn = answer["drawn"]
        if neighbour_losses(result) is not None and arrived is None:
            arrived = answer, result
    answer, result = arrived
    assert not isinstance(answer["output"], dash.Patch) and answer["drawn"]["losses"] == "drawn"
    losses = neighbour_losses(result)
    expected = loss_index(losses.false, losses.missing, loss_range(losses.false, losses.missing))
    np.testing.assert_array_equal(answer["output"].data[0].marker.color, expected)
    assert "key" in [trace.name for trace in answer["output"].data]


def test_a_run_measured_in_parts_is_drawn_whole_when_its_landmarks_arrive_with_the_whole_result(services):
    """NIEQA's landmarks, marked, come with the whole result and add traces: the output is drawn whole then, not
    retitled (the test above)."""
    state = from_query(LINK + "&landmarks=1").to_dict()
    request = RunRequest.from_state(ViewState.from_dict(state))
    results = []
    whole = compute(request, cache=None, partial=results.append).result
    drawn = None
    for result in results:
        services.results.put_partial(request, result)
        drawn = show_computed(services, partial_record(request, result), state, drawn, "session")["drawn"]
    assert drawn["status"] == "partial" and not drawn["marked"]
    services.results.get_or_compute(request, lambda _: whole)  # the whole result replaces the parts
    answer = show_computed(services, run_record(request, whole, False), state, drawn, "session")
    assert not isinstance(answer["output"], dash.Patch) and answer["drawn"]["marked"]
    assert "landmarks" in [trace.name for trace in answer["output"].data]
    assert answer["output"].layout.title.text == explore_view(request, whole, True).output_title
