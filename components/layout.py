"""The page: control panel, headline cards, message line and the linked input/output views."""

import uuid

from dash import dcc, html

import algorithms
import datasets

from . import ids
from .controls import labelled, parameter_controls
from .figures import empty_figure
from .help import help_panel
from .normalization import ASPECT_RANGE, DEFAULT_NEIGHBORS, SHAPES
from .presets import PRESETS
import measures

from .runs import LOCAL_MEASURES, SUMMARY_MEASURES

__all__ = ["CARD_MEASURES", "TIME_CARD", "COMPARE_DEFAULTS", "DEFAULTS", "SWEEP_DEFAULTS", "make_layout", "color_options", "job_box"]

# The embedded default a new user sees: GR's swiss roll with Isomap. k = 10 rather than GR's 12:
# with seed 0 one k = 12 edge short-circuits two layers of the roll (the R_N heatmap shows it).
DEFAULTS = {"dataset": "swissroll", "algorithm": "isomap", "n_neighbors": 10, "seed": 0, "noise": 0.0}

# Isometric outputs (PCA, Isomap, GP, PSA) beside normalized ones (LLE, LTSA, Laplacian eigenmaps).
COMPARE_DEFAULTS = ["pca", "isomap", "gp", "psa", "lle", "ltsa", "laplacian"]
# GR §5 swept k over 6, 9, ..., 18 for GP, PSA, LLE, Isomap and LTSA.
SWEEP_DEFAULTS = {"algorithms": ["isomap", "gp", "psa", "lle", "ltsa"], "k_range": [6, 18], "k_step": 3,
                  "measure": "normalized"}

# Headline cards: measures of the measure registry (label and tooltip from there), then the run time.
CARD_MEASURES = ("normalized", "conformal", "lower_bound", "asim", "nieqa_global", "trustworthiness")
TIME_CARD = "time"

LOCAL_COLORINGS = tuple((key, f"local {label}") for key, label in LOCAL_MEASURES)

# The input drawn in 3-D, or projected on two of its (first three, or principal) coordinates.
INPUT_VIEWS = [{"label": "3-D (drag to rotate)", "value": "3d"},
               *[{"label": f"plane of coordinates {a + 1} and {b + 1}", "value": f"{a}{b}"}
                 for a, b in ((0, 1), (0, 2), (1, 2))]]

RESCALE_LABELS = {"authors": "authors' convention", "unit_variance": "unit variance", "unit_norm": "unit norm",
                  "best_global_scale": "best global scale"}


def color_options(truth_labels):
    """Colour-by choices: the data set's intrinsic coordinates (or labels), then the local measures."""
    intrinsic = [{"label": f"intrinsic: {label}", "value": f"truth-{i}"} for i, label in enumerate(truth_labels)]
    return intrinsic + [{"label": label, "value": value} for value, label in LOCAL_COLORINGS]


def job_box(job):
    """Progress bar, stage label and cancel button of background ``job``, hidden while idle."""
    job_ids = ids.job_controls(job)
    return html.Div([
        html.Progress(id=job_ids["progress"], value="0", max="100"),
        html.Span(id=job_ids["label"], className="job-label"),
        html.Button("Cancel", id=job_ids["cancel"], className="cancel-button"),
        dcc.Store(id=job_ids["running"], data=False),
    ], id=job_ids["box"], className="job idle")


def _cards():
    cards = [(name, measures.spec(name).label, f"{measures.spec(name).description} ({measures.spec(name).citation})")
             for name in CARD_MEASURES]
    cards.append((TIME_CARD, "Run time", "Embedding plus every measure, on the server."))
    return [_card(*card) for card in cards]


def _card(measure, title, help_text):
    return html.Div([html.Div(title, className="card-title"),
                     html.Div("…", id=ids.card_value(measure), className="card-value")],
                    className="card", title=help_text)


def _control_panel():
    dataset_spec = datasets.spec(DEFAULTS["dataset"])
    algorithm_spec = algorithms.spec(DEFAULTS["algorithm"])
    return html.Div([
        html.H3("Paper presets"),
        dcc.Dropdown(id=ids.PRESET, placeholder="Reproduce a figure of the papers…", clearable=True,
                     options=[{"label": p.label, "value": p.name} for p in PRESETS]),
        html.Div(id=ids.PRESET_CAPTION, className="help preset-caption"),
        html.H3("Data"),
        labelled("Data set", dcc.Dropdown(
            id=ids.DATASET, value=dataset_spec.name, clearable=False,
            options=[{"label": s.label, "value": s.name} for s in datasets.specs()])),
        html.Div(dataset_spec.description, id=ids.DATASET_HELP, className="help"),
        _upload_panel(),
        labelled("Points n", dcc.Input(id=ids.DATASET_SIZE, type="number", value=dataset_spec.default_n,
                                       step=1, debounce=True, className="number-input"),
                 "Number of points sampled; out-of-range values get a message naming the range."),
        labelled("Noise σ", dcc.Input(id=ids.DATASET_NOISE, type="number", value=DEFAULTS["noise"],
                                      step="any", debounce=True, className="number-input"),
                 "Isotropic Gaussian noise added to the input points."),
        labelled("Seed", dcc.Input(id=ids.DATASET_SEED, type="number", value=DEFAULTS["seed"], step=1,
                                   debounce=True, className="number-input"),
                 "Seeds the sample, the noise and every random step of the algorithm."),
        html.Div(parameter_controls(dataset_spec.parameters,
                                    lambda name: ids.dataset_param(dataset_spec.name, name)),
                 id=ids.DATASET_PARAMS),
        html.H3("Algorithm"),
        labelled("Algorithm", dcc.Dropdown(
            id=ids.ALGORITHM, value=algorithm_spec.name, clearable=False,
            options=[{"label": f"{s.label} ({s.output})", "value": s.name} for s in algorithms.specs()])),
        html.Div(algorithm_spec.description, id=ids.ALGORITHM_HELP, className="help"),
        labelled("Neighbours k", dcc.Slider(id=ids.ALGORITHM_NEIGHBORS, min=3, max=30, step=1,
                                            value=DEFAULTS["n_neighbors"],
                                            marks={k: str(k) for k in (3, 6, 9, 12, 15, 18, 24, 30)},
                                            tooltip={"placement": "bottom", "always_visible": True}),
                 "Neighbours other than the point; the algorithm's graph and every measure use the same k."),
        html.Div(parameter_controls(algorithm_spec.parameters,
                                    lambda name: ids.algorithm_param(algorithm_spec.name, name)),
                 id=ids.ALGORITHM_PARAMS),
        labelled("Extra Procrustes refinement", dcc.Input(
            id=ids.ALGORITHM_REFINE, type="number", value=0, step=1, debounce=True, className="number-input"),
                 "Iterations of GR §4.4's refinement (exact Y-step, Eq. 11) after any algorithm; 0 is off. "
                 "Each never raises R; the output ends at the input's scale. Range: [0, 1000]."),
        labelled("Rescale output", dcc.Dropdown(
            id=ids.ALGORITHM_RESCALE, value="authors", clearable=False,
            options=[{"label": RESCALE_LABELS[key], "value": key, "title": text}
                     for key, text in algorithms.RESCALE_OPTIONS.items()]),
                 "Applied after any algorithm: R_N moves with the output's scale, R_C and ASIM do not."),
        html.H3("View"),
        labelled("Colour by", dcc.Dropdown(id=ids.COLOR_BY, value="normalized", clearable=False,
                                           options=color_options(dataset_spec.truth_labels))),
        labelled("Input view", dcc.Dropdown(id=ids.INPUT_VIEW, value="3d", clearable=False,
                                            options=INPUT_VIEWS),
                 "Plotly selects points (box or lasso, in the view's toolbar) in the plane only: project "
                 "the input on two of its drawn coordinates to select in it."),
        labelled("Figure downloads", dcc.RadioItems(id=ids.FIGURE_FORMAT, value="png", inline=True,
                                                    options=[{"label": " PNG ", "value": "png"},
                                                             {"label": " SVG", "value": "svg"}]),
                 "The camera button of every figure saves it in this format, named after the run."),
        dcc.Checklist(id=ids.SHOW_LANDMARKS, value=[], options=[
            {"label": " NIEQA landmarks (and their MDS configuration, aligned to the output)", "value": "show"}]),
    ], className="panel")


def _upload_panel():
    limits = datasets.UploadLimits()
    picker = {"clearable": True, "placeholder": "none"}
    return html.Details([
        html.Summary("Upload your own data"),
        dcc.Upload(id=ids.UPLOAD, max_size=limits.max_bytes, multiple=False, className="upload-box",
                   children=html.Div(["Drop a file here or ", html.A("choose one")])),
        html.Div(f"CSV, TSV or whitespace-separated text (header optional), NumPy .npy or .npz; at most "
                 f"{limits.max_bytes // 2**20} MB and {limits.max_rows:,} rows. Above {limits.suggest_pca_above} "
                 "columns, consider reducing with PCA first. A run configuration saved from this page (.json) "
                 "restores that run. The file stays on this server for a day and is visible only to this "
                 "browser tab.", className="help"),
        html.Div(id=ids.UPLOAD_MESSAGE, className="message", role="status"),
        html.Div([
            labelled("Coordinates", dcc.Dropdown(id=ids.UPLOAD_COLUMNS, multi=True, placeholder="numeric columns"),
                     "The columns that are the points' coordinates (at least two)."),
            labelled("Colour / label column", dcc.Dropdown(id=ids.UPLOAD_COLOR, **picker),
                     "Optional: colours the points (numbers, or text labels)."),
            labelled("Ground-truth columns", dcc.Dropdown(id=ids.UPLOAD_TRUTH, multi=True, **picker),
                     "Optional: 1-3 columns of the true intrinsic coordinates; enables M_t and the collapse score."),
            labelled("Array", dcc.Dropdown(id=ids.UPLOAD_ARRAY, clearable=False), "The .npz member to read."),
            dcc.Checklist(id=ids.UPLOAD_DROP, value=[], options=[
                {"label": " drop rows with NaN or infinite values (drop_nonfinite)", "value": "drop"}]),
            html.Button("Use this data", id=ids.UPLOAD_USE, className="run-button"),
        ], id=ids.UPLOAD_PICKERS, style={"display": "none"}),
        dcc.Store(id=ids.UPLOAD_FILE, storage_type="session"),
        dcc.Store(id=ids.UPLOAD_STORE, storage_type="session"),
    ], className="upload")


def _export_buttons(*buttons):
    """A row of download buttons: ``(id, text, tooltip)``."""
    return html.Div([html.Button(text, id=button, className="export-button", title=tooltip)
                     for button, text, tooltip in buttons], className="exports")


def _explore_tab():
    return html.Div([
        html.Div(_cards(), id=ids.CARDS, className="cards"),
        job_box(ids.EXPLORE_JOB),
        html.Div(id=ids.MESSAGE, className="message", role="status"),
        _export_buttons((ids.EXPORT_POINTS, "Points and measures (CSV)",
                         "Every point: index, input and output coordinates, ground truth, every local measure."),
                        (ids.EXPORT_CONFIG, "Run configuration (JSON)",
                         "The full request and view; upload it back (Data, Upload) to restore this run.")),
        html.Div([
            dcc.Graph(id=ids.INPUT_GRAPH, className="view", config={"displaylogo": False}),
            dcc.Graph(id=ids.OUTPUT_GRAPH, className="view", config={"displaylogo": False}),
            # Image data sets: the image of the hovered point.
            dcc.Graph(id=ids.POINT_IMAGE, className="point-image", style={"display": "none"},
                      config={"displayModeBar": False}),
        ], className="views"),
        html.Div("Hover a point to ring it in both views; select with the box or lasso tool of a 2-D view to "
                 "mark points in both; click a point to inspect its neighbourhood below.",
                 id=ids.SELECTION_TEXT, className="help selection-text", role="status"),
        html.H3("Neighbourhood inspector"),
        html.Div("Click a point in either view.", id=ids.INSPECTOR_TEXT, className="help"),
        dcc.Graph(id=ids.INSPECTOR_GRAPH, figure=empty_figure("Click a point in either view."),
                  className="inspector", config={"displaylogo": False}),
        dcc.Store(id=ids.RESULT_STORE),
        dcc.Store(id=ids.RESULT_REQUEST),
    ])


def _sweep_tab():
    return html.Div([
        html.P("Quality against the algorithm's own k on the data set chosen on the left; each cell is "
               "cached, so a repeated sweep is instant. Click a point to open that embedding.", className="help"),
        html.Div([
            labelled("Algorithms", dcc.Checklist(
                id=ids.SWEEP_ALGORITHMS, value=SWEEP_DEFAULTS["algorithms"], inline=True,
                options=[{"label": s.label, "value": s.name} for s in algorithms.specs()])),
            labelled("k from … to", dcc.RangeSlider(id=ids.SWEEP_K_RANGE, min=3, max=30, step=1,
                                                   value=SWEEP_DEFAULTS["k_range"],
                                                   marks={k: str(k) for k in (3, 6, 9, 12, 15, 18, 24, 30)},
                                                   tooltip={"placement": "bottom", "always_visible": True})),
            labelled("step", dcc.Input(id=ids.SWEEP_K_STEP, type="number", value=SWEEP_DEFAULTS["k_step"],
                                       step=1, debounce=True, className="number-input")),
            labelled("Plot", dcc.Dropdown(id=ids.SWEEP_MEASURE, value=SWEEP_DEFAULTS["measure"], clearable=False,
                                          options=[{"label": label, "value": key}
                                                   for key, label in SUMMARY_MEASURES])),
            html.Button("Run sweep", id=ids.SWEEP_RUN, className="run-button"),
        ], className="sweep-controls"),
        job_box(ids.SWEEP_JOB),
        html.Div(id=ids.SWEEP_MESSAGE, className="message", role="status"),
        _export_buttons((ids.EXPORT_SWEEP_CSV, "Sweep table (CSV)", "One row per algorithm and k, every measure."),
                        (ids.EXPORT_SWEEP_JSON, "Sweep (JSON)", "The cells as stored, with the data set's request.")),
        dcc.Graph(id=ids.SWEEP_GRAPH, className="sweep-view", config={"displaylogo": False}),
        html.Div(id=ids.SWEEP_TABLE, className="sweep-table"),
        dcc.Store(id=ids.SWEEP_STORE),
    ])


def _compare_tab():
    return html.Div([
        html.P("The chosen algorithms' outputs at the k set on the left, isometric ones first, each with "
               "its R_N and R_C; bars compare every measure. Normalized outputs score a high R_N by "
               "construction (their scale is fixed by a constraint, PN §2): read R_C for them.",
               className="help"),
        html.Div([
            labelled("Algorithms", dcc.Checklist(
                id=ids.COMPARE_ALGORITHMS, value=COMPARE_DEFAULTS, inline=True,
                options=[{"label": s.label, "value": s.name} for s in algorithms.specs()])),
            dcc.Checklist(id=ids.COMPARE_ALIGN, value=["align"], inline=True,
                          options=[{"label": " align each output to the ground truth (display only)",
                                    "value": "align"}]),
            html.Button("Compare", id=ids.COMPARE_RUN, className="run-button"),
        ], className="compare-controls"),
        job_box(ids.COMPARE_JOB),
        html.Div(id=ids.COMPARE_MESSAGE, className="message", role="status"),
        _export_buttons((ids.EXPORT_COMPARE_CSV, "Comparison table (CSV)", "One row per algorithm, every measure."),
                        (ids.EXPORT_COMPARE_JSON, "Comparison (JSON)", "Every algorithm's measures, as stored.")),
        dcc.Graph(id=ids.COMPARE_BARS, className="compare-bars", config={"displaylogo": False}),
        dcc.Graph(id=ids.COMPARE_GRID, config={"displaylogo": False}),
        dcc.Store(id=ids.COMPARE_STORE),
    ])


# PN's normalized-output algorithms: Laplacian eigenmaps, diffusion maps, LLE and LTSA.
NORMALIZATION_DEFAULTS = {"shape": "strip", "aspect": 6.0, "algorithms": ["laplacian", "diffusion_maps", "lle", "ltsa"]}


def _normalization_tab():
    return html.Div([
        html.P("Normalized-output algorithms fix their output's covariance; on a long shape the faithful "
               "output then costs more than a curve folded along the long axis (PN §5). Φ(Y) is the cost of "
               "the faithful output, Φ(Z) that of the folded one: Φ(Y) > Φ(Z) predicts failure. The collapse "
               "score says whether the output did collapse: about 0.5 for a faithful 2-D output, near 0 for a "
               "curve.", className="help"),
        html.Div([
            labelled("Shape", dcc.Dropdown(id=ids.NORMALIZATION_SHAPE, value=NORMALIZATION_DEFAULTS["shape"],
                                           clearable=False,
                                           options=[{"label": s.label, "value": key} for key, s in SHAPES.items()])),
            html.Div([
                html.Label(SHAPES[NORMALIZATION_DEFAULTS["shape"]].aspect_label, id=ids.NORMALIZATION_ASPECT_LABEL,
                           className="control-label"),
                dcc.Slider(id=ids.NORMALIZATION_ASPECT, min=ASPECT_RANGE[0], max=ASPECT_RANGE[1], step=0.01,
                           value=NORMALIZATION_DEFAULTS["aspect"], marks={a: str(a) for a in range(1, 9)},
                           tooltip={"placement": "bottom", "always_visible": True}),
            ], className="control aspect-control"),
            labelled("Points n", dcc.Input(id=ids.NORMALIZATION_SIZE, type="number", step=1, debounce=True,
                                           placeholder="data set's default", className="number-input"),
                     "Empty: the data set's default size (a grid has as many points as its size)."),
            labelled("Neighbours k", dcc.Input(id=ids.NORMALIZATION_NEIGHBORS, type="number", step=1, debounce=True,
                                               value=DEFAULT_NEIGHBORS, className="number-input"),
                     "For the algorithms and for Φ (PN's figures use K = 8)."),
            labelled("Algorithms", dcc.Checklist(
                id=ids.NORMALIZATION_ALGORITHMS, value=NORMALIZATION_DEFAULTS["algorithms"], inline=True,
                options=[{"label": s.label, "value": s.name} for s in algorithms.specs()
                         if s.output == "normalized"])),
            html.Button("Run", id=ids.NORMALIZATION_RUN, className="run-button"),
        ], className="normalization-controls"),
        job_box(ids.NORMALIZATION_JOB),
        html.Div(id=ids.NORMALIZATION_MESSAGE, className="message", role="status"),
        html.Div(id=ids.NORMALIZATION_TABLE, className="sweep-table"),
        dcc.Graph(id=ids.NORMALIZATION_CURVE, config={"displaylogo": False}),
        dcc.Graph(id=ids.NORMALIZATION_GRID, config={"displaylogo": False}),
        dcc.Store(id=ids.NORMALIZATION_STORE),
    ])


def make_layout():
    """The whole page (a function, so each page load gets fresh components)."""
    return html.Div([
        dcc.Location(id=ids.URL, refresh=False),
        dcc.Store(id=ids.PAGE_TOKEN, data=uuid.uuid4().hex),
        dcc.Download(id=ids.DOWNLOAD),
        dcc.Store(id=ids.LINK_APPLIED, data=False),
        dcc.Store(id=ids.LINK_DATASET),
        dcc.Store(id=ids.LINK_ALGORITHM),
        html.Header([html.H1("Procrustes Lab"),
                     html.Span("is this embedding faithful, or merely pretty? Local Procrustes measures "
                               "(Goldberg & Ritov 2009) on every point.", className="tagline")]),
        html.Div([
            _control_panel(),
            html.Main(dcc.Tabs(id=ids.TABS, value=ids.TAB_EXPLORE, children=[
                dcc.Tab(_explore_tab(), label="Explore", value=ids.TAB_EXPLORE),
                dcc.Tab(_sweep_tab(), label="Sweep k", value=ids.TAB_SWEEP),
                dcc.Tab(_compare_tab(), label="Compare", value=ids.TAB_COMPARE),
                dcc.Tab(_normalization_tab(), label="Normalization", value=ids.TAB_NORMALIZATION),
                dcc.Tab(help_panel(), label="Help", value=ids.TAB_HELP),
            ]), className="main"),
        ], className="body"),
    ])
