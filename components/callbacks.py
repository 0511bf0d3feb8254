"""Callbacks of the dashboard. Each one reads inputs, calls the libraries, calls a figure builder.

The work lives in plain functions (testable without a server); :func:`register_callbacks` wires them
to an app. Dash's global ``dash.callback`` registry would hand them to the first app only, and the
browser tests build one app per test. The explore run and the sweep are background jobs (progress,
cancel) whose computations go through the app's :class:`components.jobs.ResultCache`.
"""

import functools
import math
import time

import numpy as np
from dash import ALL, ClientsideFunction, Input, Output, State, ctx, html, no_update

import algorithms
import datasets
import measures

from . import ids
from .controls import parameter_controls, read_parameter_values
from .figures import (
    comparison_grid,
    empty_figure,
    image_figure,
    input_figure,
    inspector_figure,
    measure_bars,
    output_figure,
    phi_ratio_figure,
    point_columns,
    robust_color_range,
    sweep_figure,
)
from .layout import CARD_MEASURES, LOCAL_COLORINGS, TIME_CARD, color_options
from .runs import (
    SUMMARY_MEASURES,
    align_to_reference,
    cached_run,
    compute_run,
    display_indices,
    failure_message,
    make_request,
    result_summary,
)
from .normalization import SHAPES, normalization_study
from .presets import preset
from .file_callbacks import register_file_callbacks
from .uploads import UPLOAD, UploadStore
from .urlstate import decode_state, encode_state, owned_parameters

NO_RESULT = "—"
DATASET_INPUTS = (
    Input(ids.DATASET, "value"),
    Input(ids.DATASET_SIZE, "value"),
    Input(ids.DATASET_NOISE, "value"),
    Input(ids.DATASET_SEED, "value"),
    Input({"type": "dataset-param", "owner": ALL, "index": ALL}, "value"),
    State({"type": "dataset-param", "owner": ALL, "index": ALL}, "id"),
    # A State: the session store announces its data when the page loads, which would start the run
    # twice; choosing an upload sets the data-set menu too, and that triggers the run.
    State(ids.UPLOAD_STORE, "data"),
)
DATASET_STATES = tuple(State(i.component_id, i.component_property) for i in DATASET_INPUTS)
# The explore run's inputs.
RUN_INPUTS = (
    *DATASET_INPUTS,
    Input(ids.ALGORITHM, "value"),
    Input(ids.ALGORITHM_NEIGHBORS, "value"),
    Input({"type": "algorithm-param", "owner": ALL, "index": ALL}, "value"),
    State({"type": "algorithm-param", "owner": ALL, "index": ALL}, "id"),
    Input(ids.ALGORITHM_REFINE, "value"),
    Input(ids.ALGORITHM_RESCALE, "value"),
)
# The normalization tab's own controls, in the order of normalization_study's arguments.
NORMALIZATION_CONTROLS = (ids.NORMALIZATION_SHAPE, ids.NORMALIZATION_ASPECT, ids.NORMALIZATION_SIZE,
                          ids.NORMALIZATION_NEIGHBORS, ids.NORMALIZATION_ALGORITHMS)
# Everything the address bar records: the run, how it is drawn, the tab, the normalization study.
VIEW_INPUTS = (
    *RUN_INPUTS,
    Input(ids.COLOR_BY, "value"),
    Input(ids.INPUT_VIEW, "value"),
    Input(ids.TABS, "value"),
    *[Input(control, "value") for control in NORMALIZATION_CONTROLS[:-1]],
)
# Per-point measures a selection summarizes.
SELECTION_MEASURES = ("normalized", "conformal", "asim")


def _dataset_parameters(name):
    """The declared parameters of data set ``name`` (an upload has none: the file is the sample)."""
    return () if name == UPLOAD else datasets.spec(name).parameters


def _dataset_label(name, upload):
    return f"your file {upload['filename']}" if name == UPLOAD and upload else datasets.spec(name).label


def show_dataset_controls(name, color_by, link, upload):
    """Swap in the chosen data set's own controls, sample size and intrinsic colourings.

    ``link`` holds a shared link's state while it is being applied: its values stand in for the
    defaults when it names this data set. It is consumed (cleared) here. ``upload`` is this
    session's chosen upload, shown when ``name`` is :data:`UPLOAD`.
    """
    # Keep a local-measure colouring; an intrinsic one names the previous set's coordinates.
    keep = color_by in {value for value, _ in LOCAL_COLORINGS}
    if name == UPLOAD:
        options = color_options(upload["truth_labels"] if upload else ())
        described = (f"Your file {upload['filename']}: {upload['n']} points in {upload['dim']} dimensions. "
                     "The file is the sample: n and noise do not apply, the seed seeds the algorithm."
                     if upload else "Upload a file first (Upload your own data, below).")
        return [], described, None, options, color_by if keep else options[0]["value"], None
    entry = datasets.spec(name)
    link = link if link and link.get("dataset") == name else {}
    controls = parameter_controls(entry.parameters, lambda parameter: ids.dataset_param(name, parameter),
                                  owned_parameters(link, "d"))
    options = color_options(entry.truth_labels)
    color = link.get("color", color_by if keep else options[0]["value"])
    # A finite set (lattice, image grid, digits) starts with all its points: an empty n box.
    size = link.get("n", None if entry.population else entry.default_n)
    return controls, f"{entry.description} ({entry.citation})", size, options, color, None


def show_algorithm_controls(name, link):
    """Swap in the chosen algorithm's own controls (a shared link's values if it names it)."""
    entry = algorithms.spec(name)
    link = link if link and link.get("algorithm") == name else {}
    controls = parameter_controls(entry.parameters, lambda parameter: ids.algorithm_param(name, parameter),
                                  owned_parameters(link, "a"))
    scale = algorithms.OUTPUT_SCALES[entry.output_scale]
    return controls, f"{entry.description} Output: {entry.output}, {scale}. ({entry.citation})", None


def view_state(dataset, size, noise, seed, dataset_values, dataset_ids, upload, algorithm, n_neighbors,
               algorithm_values, algorithm_ids, refine_iterations, rescale, color_by, input_view, tab,
               shape, aspect, shape_size, shape_neighbors):
    """The view as a flat dict (see :mod:`components.urlstate`); an upload stays out of links."""
    state = {"dataset": dataset, "n": size, "noise": noise, "seed": seed, "algorithm": algorithm,
             "k": n_neighbors, "refine": refine_iterations, "rescale": rescale, "color": color_by,
             "view": input_view, "tab": tab, "norm.shape": shape, "norm.aspect": aspect, "norm.n": shape_size,
             "norm.k": shape_neighbors}
    for prefix, owner, parameters, values, control_ids in (
            ("d", dataset, _dataset_parameters(dataset), dataset_values, dataset_ids),
            ("a", algorithm, algorithms.spec(algorithm).parameters, algorithm_values, algorithm_ids)):
        read = read_parameter_values(owner, parameters, control_ids, values)
        state.update({f"{prefix}.{name}": value for name, value in read.items()})
    return state


def state_to_url(*controls):
    """The address bar follows the view, so the page's link reproduces it."""
    return encode_state(view_state(*controls))


# Controls a link sets directly, in the order of apply_link's outputs.
LINK_KEYS = ("dataset", "n", "noise", "seed", "algorithm", "k", "refine", "rescale", "color", "view", "tab",
             "norm.shape", "norm.aspect", "norm.n", "norm.k")


def apply_link(search, applied, dataset, algorithm):
    """Set every control from a shared link, once, when the page loads.

    Controls of the data set and algorithm already shown are rebuilt with the link's values here;
    when the link names another one, the stores hand its values to :func:`show_dataset_controls`
    and :func:`show_algorithm_controls`, which the change of selection triggers.
    """
    link = decode_state(search)
    # A link naming an unknown data set or algorithm (an old or edited URL) keeps the current one.
    for key, registry in (("dataset", datasets), ("algorithm", algorithms)):
        if key in link and link[key] not in registry.available():
            del link[key]
    if applied or not link:
        return True, *[no_update] * (len(LINK_KEYS) + 4)
    same_dataset = link.get("dataset", dataset) == dataset
    same_algorithm = link.get("algorithm", algorithm) == algorithm
    dataset_controls = (show_dataset_controls(dataset, None, {**link, "dataset": dataset}, None)[0]
                        if same_dataset else no_update)
    algorithm_controls = (show_algorithm_controls(algorithm, {**link, "algorithm": algorithm})[0]
                          if same_algorithm else no_update)
    # A link without n asks for the set's default size (a finite set's, or a file's: all its points).
    target = link.get("dataset", dataset)
    link.setdefault("n", None if target == UPLOAD or datasets.spec(target).population
                    else datasets.spec(target).default_n)
    return (True, *[link.get(key, no_update) for key in LINK_KEYS],
            dataset_controls, algorithm_controls, None if same_dataset else link, None if same_algorithm else link)


def apply_preset(name):
    """A paper preset is a link: write its state to the address bar and let :func:`apply_link` apply it."""
    if not name:
        return no_update, no_update, ""
    chosen = preset(name)
    return encode_state(chosen.state), False, chosen.caption


def _dataset_request_part(dataset, size, noise, seed, values, control_ids, upload):
    params = read_parameter_values(dataset, _dataset_parameters(dataset), control_ids, values)
    return dict(dataset=dataset, n=size, noise=noise, seed=seed, dataset_params=params,
                upload=upload if dataset == UPLOAD else None)


def _card_text(mean, median):
    """A card's mean (the value of a global measure) with the median beneath, SPEC §0."""
    if mean is None:  # not computed (a quadratic measure on a large input; the message says so)
        return [html.Span(NO_RESULT, className="card-mean"), html.Span("not computed", className="card-median")]
    # Four significant digits: GP's R_N of 2e-5 must not read as 0.0000.
    return [html.Span(f"{mean:.4g}", className="card-mean"),
            html.Span("" if median is None else f"median {median:.4g}", className="card-median")]


def explore(results, uploads, report, dataset, size, noise, seed, dataset_values, dataset_ids, upload, algorithm,
            n_neighbors, algorithm_values, algorithm_ids, refine_iterations, output_scale):
    """Run (or fetch from the cache) one embedding and its measures; outputs of the explore view."""
    cards = len(CARD_MEASURES) + 1
    try:
        request = make_request(
            **_dataset_request_part(dataset, size, noise, seed, dataset_values, dataset_ids, upload),
            algorithm=algorithm, n_neighbors=n_neighbors,
            algorithm_params=read_parameter_values(algorithm, algorithms.spec(algorithm).parameters,
                                                   algorithm_ids, algorithm_values),
            output_scale=output_scale, refine_iterations=refine_iterations)
        result, cached = results.get_or_compute(request, lambda r: compute_run(r, report, uploads))
    except Exception as error:  # every failure becomes a message; the server keeps serving
        return None, None, failure_message(error), "message error", *[NO_RESULT] * cards
    entry = algorithms.spec(algorithm)
    scale = entry.output_scale if output_scale in (None, "authors") else output_scale
    if refine_iterations:
        scale = f"{scale}, {refine_iterations} refinement sweeps"
    n_samples, dimensions = result["X"].shape
    landmarks = result["landmarks"]
    drawn = display_indices(n_samples, keep=() if landmarks is None else landmarks["indices"])
    rows = slice(None) if drawn is None else drawn
    if landmarks is not None and drawn is not None:  # landmark rows among the drawn ones
        landmarks = {**landmarks, "indices": np.searchsorted(drawn, landmarks["indices"])}
    subsample = "" if drawn is None else f" ({len(drawn)} drawn)"
    projected = "" if dimensions <= 3 else f", first 3 of {dimensions} dimensions by PCA"
    stored = {
        **{key: result[key][rows] for key in ("drawn_X", "Y", "truth")},
        "local": {key: values[rows] for key, values in result["local"].items()},
        "input_axes": result["input_axes"], "truth_labels": result["truth_labels"], "landmarks": landmarks,
        "points": drawn,
        "input_title": f"Input: {_dataset_label(dataset, upload)}, n = {n_samples}{projected}{subsample}",
        "output_title": f"Output: {entry.label}, k = {n_neighbors} ({scale.replace('_', ' ')})",
        "revision": f"{dataset}|{size}|{noise}|{seed}|{algorithm}|{n_neighbors}|{output_scale}|{refine_iterations}",
    }
    notes = " ".join([*result["notes"], *([] if drawn is None else [
        f"The views draw {len(drawn)} of the {n_samples} points (a seeded random subsample, NIEQA's landmarks "
        "included); every number uses all of them."])])
    seconds = f"{result['seconds']:.2f} s" + (" (cached)" if cached else "")
    # What the hover, click and selection callbacks need to find a drawn point's row in the cached run.
    run = {"request": request, "image_shape": result["image_shape"], "points": drawn}
    return (stored, run, notes, "message warning" if notes else "message",
            *[_card_text(*result["summary"][name]) for name in CARD_MEASURES], seconds)


def _event_point(input_event, output_event):
    """The first point of the triggering graph's hover or click event, if it is a drawn point."""
    event = input_event if ctx.triggered_id == ids.INPUT_GRAPH else output_event
    point = ((event or {}).get("points") or [{}])[0]
    return point if point.get("curveNumber") == 0 else None


def _rows(run, drawn_rows):
    """Data-set rows of drawn rows (trace 0's point numbers), through the display subsample if any."""
    return drawn_rows if run["points"] is None else [run["points"][row] for row in drawn_rows]


def show_point_image(results, input_hover, output_hover, run):
    """For an image data set, the hovered point's image (its row of X, read from the result cache)."""
    if not run or not run["image_shape"]:
        return no_update, {"display": "none"}
    point = _event_point(input_hover, output_hover)
    result = cached_run(results, run)
    if point is None or result is None:
        return no_update, no_update
    index = _rows(run, [point["pointNumber"]])[0]
    truth = ", ".join(f"{label} {value:.3g}" for label, value in zip(result["truth_labels"], result["truth"][index]))
    pixels = result["X"][index].reshape(run["image_shape"])
    return image_figure(pixels, f"point {index}: {truth}"), {"display": "block"}


def inspect_point(results, input_click, output_click, run):
    """Clicking a point opens its neighbourhood, aligned as R_N, R_C and ASIM align it (PN Fig. 1E/F)."""
    point = _event_point(input_click, output_click)
    if not run or point is None:
        return no_update, no_update
    result = cached_run(results, run)
    if result is None:
        return empty_figure("This run is no longer cached."), "Run it again to inspect its points."
    index = _rows(run, [point["pointNumber"]])[0]
    k = run["request"]["n_neighbors"]
    try:
        view = measures.inspect_neighbourhood(result["X"], result["Y"], measures.nearest_neighbors(result["X"], k),
                                              index)
    except Exception as error:  # e.g. a neighbourhood of coincident points: say so, keep serving
        return empty_figure(failure_message(error)), failure_message(error)
    return inspector_figure(view), (
        f"Point {index} and its k = {k} input neighbours: local R_N {view.normalized:.4f}, R_C "
        f"{view.conformal_value:.4f}, ASIM {view.asim_value:.4f}, lower bound {view.lower_bound:.4f}. Circles: "
        "the input on its two principal axes; dots: the output after each measure's best alignment; each "
        "segment's squared length is what the measure sums (over the patch's squared size).")


def summarize_selection(results, input_selection, output_selection, run):
    """The selected points' mean local measures beside every point's: is this region worse?"""
    selection = input_selection if ctx.triggered_id == ids.INPUT_GRAPH else output_selection
    if not run or not selection:
        return ""
    drawn_rows = sorted({p["pointNumber"] for p in selection.get("points", []) if p.get("curveNumber") == 0})
    result = cached_run(results, run)
    if not drawn_rows or result is None:
        return "No drawn point is selected." if result is not None else "Run again to summarize a selection."
    rows = _rows(run, drawn_rows)
    labels = dict(LOCAL_COLORINGS)
    parts = [f"{labels[name].removeprefix('local ')} {np.nanmean(result['local'][name][rows]):.4f} "
             f"(all points {np.nanmean(result['local'][name]):.4f})"
             for name in SELECTION_MEASURES if name in result["local"]]
    return f"{len(rows)} points selected, marked in both views. Their mean local " + ", ".join(parts) + "."


def draw(result, color_by, show_landmarks, input_view):
    """Draw both views in one colouring on one robust colour range, NIEQA's landmarks on request.

    ``input_view`` is "3d" or two digits naming the input coordinates drawn in the plane ("02").
    """
    if not result:
        blank = empty_figure("No result: see the message above.")
        return blank, blank
    X, Y = np.asarray(result["drawn_X"], dtype=float), np.asarray(result["Y"], dtype=float)
    local = {key: np.asarray(values, dtype=float) for key, values in result["local"].items()}
    local_labels = dict(LOCAL_COLORINGS)
    if color_by in local_labels and color_by not in local:  # not computed for this run (large n)
        color_by = "normalized"
    if color_by in local:
        color, title = local[color_by], local_labels[color_by]
    else:
        column = int(color_by.rsplit("-", 1)[1])
        color, title = np.asarray(result["truth"], dtype=float)[:, column], result["truth_labels"][column]
    columns = point_columns(X, Y, {title: color, **{local_labels[k]: v for k, v in local.items()}},
                            points=result["points"])
    color_range = robust_color_range(color)
    bar_title = f"{title} (2–98% range)" if color_by in local else title
    landmarks = configuration = None
    if show_landmarks and result["landmarks"]:
        landmarks = np.asarray(result["landmarks"]["indices"], dtype=int)
        configuration = np.asarray(result["landmarks"]["configuration"], dtype=float)
    projection = None if input_view == "3d" else (int(input_view[0]), int(input_view[1]))
    return (input_figure(color, color_range, bar_title, columns, result["input_title"],
                         f"{result['revision']}|{input_view}", landmarks=landmarks, axis_titles=result["input_axes"],
                         projection=projection),
            output_figure(color, color_range, bar_title, columns, result["output_title"], result["revision"],
                          landmarks=landmarks, landmark_configuration=configuration))


def sweep(results, uploads, report, dataset, size, noise, seed, dataset_values, dataset_ids, upload, chosen_algorithms,
          k_range, k_step):
    """Every (algorithm, k) cell of a sweep, each through the result cache; failures kept per cell."""
    if not chosen_algorithms:
        return None, "Choose at least one algorithm."
    if not isinstance(k_step, int) or k_step < 1:
        return None, f"The k step must be a positive whole number; got {k_step!r}."
    ks = list(range(k_range[0], k_range[1] + 1, k_step))
    cells = [(algorithm, k) for algorithm in chosen_algorithms for k in ks]
    data_part = _dataset_request_part(dataset, size, noise, seed, dataset_values, dataset_ids, upload)
    rows, computed = [], 0
    for done, (algorithm, k) in enumerate(cells):
        label = algorithms.spec(algorithm).label
        report(done / len(cells), f"{label}, k = {k} ({done + 1} of {len(cells)})")
        row = {"algorithm": algorithm, "label": label, "k": k}
        try:
            request = make_request(**data_part, algorithm=algorithm, n_neighbors=k, algorithm_params={})
            result, cached = results.get_or_compute(request, lambda r: compute_run(r, uploads=uploads))
            row.update(result_summary(result))
            computed += not cached
        except Exception as error:  # one failing cell (e.g. a disconnected graph at small k) is reported
            row["error"] = failure_message(error)
        rows.append(row)
    failures = sum("error" in row for row in rows)
    message = f"{len(cells)} runs: {computed} computed, {len(cells) - computed - failures} from the cache"
    return rows, message + (f", {failures} failed (see the table)." if failures else ".")


def draw_sweep(rows, measure):
    """The sweep's curves and its table (mean and median of every measure, per cell)."""
    if not rows:
        return empty_figure("Run a sweep to see quality against k."), None
    labels = {name: measures.spec(name).label for name in CARD_MEASURES}
    header = html.Tr([html.Th("algorithm"), html.Th("k"), *[html.Th(label) for label in labels.values()],
                      html.Th("seconds")])
    body = []
    for row in rows:
        if "error" in row:
            cells = [html.Td(row["error"], colSpan=len(labels) + 1, className="cell-error")]
        else:
            cells = [*[html.Td(_summary_text(*row["summary"][key])) for key in labels],
                     html.Td(f"{row['seconds']:.2f}")]
        body.append(html.Tr([html.Td(row["label"]), html.Td(row["k"]), *cells]))
    return (sweep_figure(rows, measure, dict(SUMMARY_MEASURES)[measure]),
            html.Table([html.Thead(header), html.Tbody(body)]))


def _summary_text(mean, median):
    """"mean / median" of a per-point measure, the value of a global one, a dash if not computed."""
    if mean is None:
        return NO_RESULT
    return f"{mean:.4g}" if median is None else f"{mean:.4g} / {median:.4g}"


def compare(results, uploads, report, dataset, size, noise, seed, dataset_values, dataset_ids, upload, n_neighbors,
            chosen_algorithms, align):
    """Each chosen algorithm at one k, through the result cache; failures named in the message."""
    if not chosen_algorithms:
        return None, "Choose at least one algorithm."
    data_part = _dataset_request_part(dataset, size, noise, seed, dataset_values, dataset_ids, upload)
    panels, failures, color = [], [], None
    for done, algorithm in enumerate(chosen_algorithms):
        entry = algorithms.spec(algorithm)
        report(done / len(chosen_algorithms), f"{entry.label} ({done + 1} of {len(chosen_algorithms)})")
        try:
            request = make_request(**data_part, algorithm=algorithm, n_neighbors=n_neighbors, algorithm_params={})
            result, _ = results.get_or_compute(request, lambda r: compute_run(r, uploads=uploads))
        except Exception as error:  # one failing algorithm does not hide the others
            failures.append(f"{entry.label}: {failure_message(error)}")
            continue
        truth = result["truth"]
        Y = result["Y"]
        if align and truth.shape[1] == Y.shape[1]:
            Y = align_to_reference(Y, truth)
        color, color_title = truth[:, 0], result["truth_labels"][0]
        panels.append({"label": entry.label, "output": entry.output, "Y": Y, **result_summary(result)})
    if not panels:
        return None, " ".join(failures)
    return ({"panels": panels, "color": color, "color_title": color_title},
            " ".join(failures) or f"{len(panels)} algorithms at k = {n_neighbors}.")


def draw_compare(stored):
    """Small multiples and measure bars of a comparison."""
    if not stored:
        blank = empty_figure("Press Compare.")
        return blank, blank
    panels = stored["panels"]
    return (comparison_grid(panels, np.asarray(stored["color"], dtype=float), stored["color_title"]),
            measure_bars(panels, [(name, measures.spec(name).label) for name in CARD_MEASURES]))


def draw_normalization(stored):
    """The normalization study's table (collapse, Φ(Y), Φ(Z), verdict), Φ ratio curve and outputs."""
    if not stored:
        blank = empty_figure("Press Run.")
        return blank, blank, None
    header = html.Tr([html.Th(text) for text in ("algorithm", "collapse score", "Φ(Y)", "Φ(Z)", "Φ(Y)/Φ(Z)",
                                                 "verdict")])
    body = [html.Tr([html.Td(row["label"]), html.Td(f"{row['collapse']:.3f}"),
                     *[html.Td("—" if row[key] is None else f"{row[key]:.4g}") for key in ("phi_y", "phi_z", "ratio")],
                     html.Td(row["verdict"], className="cell-error" if (row["ratio"] or 0) > 1 else "")])
            for row in stored["rows"]]
    curve = stored["curve"]
    return (comparison_grid(stored["panels"], np.asarray(stored["color"], dtype=float), stored["color_title"]),
            phi_ratio_figure(curve["aspects"], curve["ratios"], stored["aspect"], stored["aspect_label"])
            if curve["ratios"] else empty_figure("Φ is written for LEM, LLE and LTSA only (PN §2)."),
            html.Table([html.Thead(header), html.Tbody(body)]))


def open_sweep_point(click):
    """Clicking a sweep curve opens that algorithm and k in the explore tab."""
    point = (click or {}).get("points", [{}])[0]
    if "customdata" not in point:
        return no_update, no_update, no_update
    algorithm, k = point["customdata"]
    return ids.TAB_EXPLORE, algorithm, k


def show_job_state(running):
    """Show a job's progress box and enable its cancel button only while it runs."""
    return ("job running" if running else "job idle"), not running


# Dash keys a job's hand-over entry by the callback's arguments: two pages asking for the same run
# shared one entry, the first poll consumed it and the other page waited forever (bench/load.py
# found it). Every background callback therefore also reads the page's token, which its work never
# sees; results are still shared, through the result cache.
PAGE_TOKEN_STATE = State(ids.PAGE_TOKEN, "data")
# Seconds between two progress writes of one job: GP and PSA report every step, and each write
# goes to the store every job and poll shares.
PROGRESS_INTERVAL = 0.25


def _job_options(job, *extra_running):
    """Background-callback options of ``job``: progress bar and label, cancel button, running flag.

    ``running=`` only sets the job's store (and ``extra_running`` outputs); :func:`show_job_state`
    turns the store into UI state, so a page change mid-job cannot leave a control stuck.
    """
    job_ids = ids.job_controls(job)
    return dict(
        background=True,
        # Dash keys a job's hand-over entry by its arguments. Two triggers with equal arguments (a
        # link setting a control to the value it has) would share one entry, and the page polling the
        # second would never see the result the first poll consumed. The trigger keeps them apart.
        cache_ignore_triggered=False,
        progress=[Output(job_ids["progress"], "value"), Output(job_ids["label"], "children")],
        cancel=[Input(job_ids["cancel"], "n_clicks")],
        running=[(Output(job_ids["running"], "data"), True, False), *extra_running],
    )


def _progress_reporter(set_progress, interval=PROGRESS_INTERVAL):
    """Adapt a library's ``progress(fraction, stage)`` to Dash's ``set_progress`` of the job box.

    At most one write per ``interval`` seconds: every write goes to the store all jobs share.
    """
    last = [-math.inf]

    def report(fraction, stage):
        now = time.monotonic()
        if now - last[0] < interval:
            return
        last[0] = now
        set_progress((str(int(100 * fraction)), stage))

    return report


def _register_button_job(app, job, button, store, message, states, work):
    """A background job started by ``button``, reading ``states``.

    ``work(report, *state_values)`` returns ``(stored, message)``; the button is disabled while the
    job runs, its click count stays out of the work.
    """
    @app.callback(
        Output(store, "data"),
        Output(message, "children"),
        Input(button, "n_clicks"),
        *states,
        PAGE_TOKEN_STATE,
        prevent_initial_call=True,
        **_job_options(job, (Output(button, "disabled"), True, False)),
    )
    def run_job(set_progress, _clicks, *inputs):
        try:
            return work(_progress_reporter(set_progress), *inputs[:-1])
        except Exception as error:  # a bad control value: the message line says so, the server keeps serving
            return None, failure_message(error)


def register_callbacks(app, results, uploads=None):
    """Wire every callback to ``app``; background jobs compute through ``results`` (a ResultCache).

    ``uploads`` (an :class:`~components.uploads.UploadStore`) holds uploaded files; by default the
    folder ``uploads`` beside the results, so background jobs and web processes share it.
    """
    uploads = uploads or UploadStore(results.directory.with_name("uploads"))
    register_file_callbacks(app, results, uploads)
    app.callback(
        Output(ids.DATASET_PARAMS, "children", allow_duplicate=True),
        Output(ids.DATASET_HELP, "children"),
        Output(ids.DATASET_SIZE, "value", allow_duplicate=True),
        Output(ids.COLOR_BY, "options"),
        Output(ids.COLOR_BY, "value", allow_duplicate=True),
        Output(ids.LINK_DATASET, "data", allow_duplicate=True),
        Input(ids.DATASET, "value"),
        State(ids.COLOR_BY, "value"),
        State(ids.LINK_DATASET, "data"),
        State(ids.UPLOAD_STORE, "data"),
        prevent_initial_call=True,
    )(show_dataset_controls)
    app.callback(
        Output(ids.ALGORITHM_PARAMS, "children", allow_duplicate=True),
        Output(ids.ALGORITHM_HELP, "children"),
        Output(ids.LINK_ALGORITHM, "data", allow_duplicate=True),
        Input(ids.ALGORITHM, "value"),
        State(ids.LINK_ALGORITHM, "data"),
        prevent_initial_call=True,
    )(show_algorithm_controls)
    app.callback(
        Output(ids.LINK_APPLIED, "data"),
        Output(ids.DATASET, "value"),
        Output(ids.DATASET_SIZE, "value", allow_duplicate=True),
        Output(ids.DATASET_NOISE, "value"),
        Output(ids.DATASET_SEED, "value"),
        Output(ids.ALGORITHM, "value", allow_duplicate=True),
        Output(ids.ALGORITHM_NEIGHBORS, "value", allow_duplicate=True),
        Output(ids.ALGORITHM_REFINE, "value"),
        Output(ids.ALGORITHM_RESCALE, "value"),
        Output(ids.COLOR_BY, "value", allow_duplicate=True),
        Output(ids.INPUT_VIEW, "value"),
        Output(ids.TABS, "value", allow_duplicate=True),
        *[Output(control, "value") for control in NORMALIZATION_CONTROLS[:-1]],
        Output(ids.DATASET_PARAMS, "children", allow_duplicate=True),
        Output(ids.ALGORITHM_PARAMS, "children", allow_duplicate=True),
        Output(ids.LINK_DATASET, "data", allow_duplicate=True),
        Output(ids.LINK_ALGORITHM, "data", allow_duplicate=True),
        Input(ids.URL, "search"),
        State(ids.LINK_APPLIED, "data"),
        State(ids.DATASET, "value"),
        State(ids.ALGORITHM, "value"),
        prevent_initial_call="initial_duplicate",
    )(apply_link)
    app.callback(
        Output(ids.URL, "search"),
        *VIEW_INPUTS,
        prevent_initial_call=True,
    )(state_to_url)
    app.callback(
        Output(ids.URL, "search", allow_duplicate=True),
        Output(ids.LINK_APPLIED, "data", allow_duplicate=True),
        Output(ids.PRESET_CAPTION, "children"),
        Input(ids.PRESET, "value"),
        prevent_initial_call=True,
    )(apply_preset)

    @app.callback(
        Output(ids.RESULT_STORE, "data"),
        Output(ids.RESULT_REQUEST, "data"),
        Output(ids.MESSAGE, "children"),
        Output(ids.MESSAGE, "className"),
        *[Output(ids.card_value(name), "children") for name in (*CARD_MEASURES, TIME_CARD)],
        *RUN_INPUTS,
        PAGE_TOKEN_STATE,
        **_job_options(ids.EXPLORE_JOB),
    )
    def run_explore(set_progress, *inputs):
        return explore(results, uploads, _progress_reporter(set_progress), *inputs[:-1])

    # Events on the points of either view, answered from the cached run (all its points): hover
    # shows an image data set's image, a click opens the inspector, a selection is summarized.
    for outputs, event, handler in (
            ((Output(ids.POINT_IMAGE, "figure"), Output(ids.POINT_IMAGE, "style")), "hoverData", show_point_image),
            ((Output(ids.INSPECTOR_GRAPH, "figure"), Output(ids.INSPECTOR_TEXT, "children")), "clickData",
             inspect_point),
            ((Output(ids.SELECTION_TEXT, "children"),), "selectedData", summarize_selection)):
        app.callback(*outputs, Input(ids.INPUT_GRAPH, event), Input(ids.OUTPUT_GRAPH, event),
                     State(ids.RESULT_REQUEST, "data"), prevent_initial_call=True)(
            functools.partial(handler, results))
    app.callback(
        Output(ids.INPUT_GRAPH, "figure"),
        Output(ids.OUTPUT_GRAPH, "figure"),
        Input(ids.RESULT_STORE, "data"),
        Input(ids.COLOR_BY, "value"),
        Input(ids.SHOW_LANDMARKS, "value"),
        Input(ids.INPUT_VIEW, "value"),
    )(draw)

    _register_button_job(app, ids.SWEEP_JOB, ids.SWEEP_RUN, ids.SWEEP_STORE, ids.SWEEP_MESSAGE,
                         [*DATASET_STATES, State(ids.SWEEP_ALGORITHMS, "value"), State(ids.SWEEP_K_RANGE, "value"),
                          State(ids.SWEEP_K_STEP, "value")], functools.partial(sweep, results, uploads))
    app.callback(
        Output(ids.SWEEP_GRAPH, "figure"),
        Output(ids.SWEEP_TABLE, "children"),
        Input(ids.SWEEP_STORE, "data"),
        Input(ids.SWEEP_MEASURE, "value"),
    )(draw_sweep)
    _register_button_job(app, ids.COMPARE_JOB, ids.COMPARE_RUN, ids.COMPARE_STORE, ids.COMPARE_MESSAGE,
                         [*DATASET_STATES, State(ids.ALGORITHM_NEIGHBORS, "value"),
                          State(ids.COMPARE_ALGORITHMS, "value"), State(ids.COMPARE_ALIGN, "value")],
                         functools.partial(compare, results, uploads))
    app.callback(
        Output(ids.COMPARE_GRID, "figure"),
        Output(ids.COMPARE_BARS, "figure"),
        Input(ids.COMPARE_STORE, "data"),
    )(draw_compare)
    _register_button_job(app, ids.NORMALIZATION_JOB, ids.NORMALIZATION_RUN, ids.NORMALIZATION_STORE,
                         ids.NORMALIZATION_MESSAGE,
                         [State(control, "value") for control in NORMALIZATION_CONTROLS],
                         functools.partial(normalization_study, results))
    app.callback(
        Output(ids.NORMALIZATION_GRID, "figure"),
        Output(ids.NORMALIZATION_CURVE, "figure"),
        Output(ids.NORMALIZATION_TABLE, "children"),
        Input(ids.NORMALIZATION_STORE, "data"),
    )(draw_normalization)
    app.callback(
        Output(ids.NORMALIZATION_ASPECT_LABEL, "children"),
        Input(ids.NORMALIZATION_SHAPE, "value"),
    )(lambda shape: SHAPES[shape].aspect_label)
    app.callback(
        Output(ids.TABS, "value"),
        Output(ids.ALGORITHM, "value"),
        Output(ids.ALGORITHM_NEIGHBORS, "value"),
        Input(ids.SWEEP_GRAPH, "clickData"),
        prevent_initial_call=True,
    )(open_sweep_point)
    for job in (ids.EXPLORE_JOB, ids.SWEEP_JOB, ids.COMPARE_JOB, ids.NORMALIZATION_JOB):
        job_ids = ids.job_controls(job)
        app.callback(
            Output(job_ids["box"], "className"),
            Output(job_ids["cancel"], "disabled"),
            Input(job_ids["running"], "data"),
        )(show_job_state)

    # Ringing the hovered point, and marking selected ones (box, lasso), in both views runs in the
    # browser (assets/linked_views.js): a hover should not wait for the server, and only one marker
    # trace changes.
    for function_name, event in (("markHovered", "hoverData"), ("markSelected", "selectedData")):
        app.clientside_callback(
            ClientsideFunction(namespace="procrustes", function_name=function_name),
            Output(ids.INPUT_GRAPH, "figure", allow_duplicate=True),
            Output(ids.OUTPUT_GRAPH, "figure", allow_duplicate=True),
            Input(ids.INPUT_GRAPH, event),
            Input(ids.OUTPUT_GRAPH, event),
            State(ids.INPUT_GRAPH, "figure"),
            State(ids.OUTPUT_GRAPH, "figure"),
            prevent_initial_call=True,
        )
