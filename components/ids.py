"""Every Dash component id of the app, in one place (kebab-case, area prefix)."""

# The papers' tours: the index (the former presets menu, the view state's tour control), the
# presentation toggle, and the tour's box: its bar (Back, Next, Close), text, claims, figures.
TOUR_INDEX = "tour-index"
PRESENTATION = "view-presentation"
TOUR_BOX = "tour-box"
TOUR_NAME = "tour-name"
TOUR_POSITION = "tour-position"
TOUR_BACK = "tour-back"
TOUR_NEXT = "tour-next"
TOUR_CLOSE = "tour-close"
TOUR_SLIDE = "tour-slide"
TOUR_STEP_TITLE = "tour-step-title"
TOUR_TEXT = "tour-text"
TOUR_CLAIMS = "tour-claims"
TOUR_FIGURES = "tour-figures"
TOUR_FIGURE = "tour-figure"
# The image of the point hovered in a tour figure (the image data sets: digits, globe).
TOUR_IMAGE = "tour-image"
TOUR_CURVE = "tour-curve"
TOUR_TABLE = "tour-table"
TOUR_REQUEST = "tour-request"
TOUR_DONE = "tour-done"
TOUR_SHOWN = "tour-shown"

# Data-set controls.
DATASET = "dataset-select"
DATASET_SIZE = "dataset-size"
DATASET_NOISE = "dataset-noise"
DATASET_RANDOM_STATE = "dataset-random-state"
DATASET_PARAMS = "dataset-params"
DATASET_HELP = "dataset-help"

# Uploaded data: the file box, its message and column pickers, the inspected file and the chosen
# upload (both kept in the browser session only).
UPLOAD = "upload-file"
UPLOAD_MESSAGE = "upload-message"
UPLOAD_PICKERS = "upload-pickers"
UPLOAD_COLUMNS = "upload-columns"
UPLOAD_COLOR = "upload-color"
UPLOAD_TRUTH = "upload-truth"
UPLOAD_METADATA = "upload-metadata"
UPLOAD_ARRAY = "upload-array"
UPLOAD_DROP = "upload-drop-nonfinite"
UPLOAD_USE = "upload-use"
UPLOAD_FILE = "upload-inspected"
UPLOAD_STORE = "upload-chosen"
# The output uploaded with the input (an embedding made elsewhere): columns of the same file, or a
# second file with its own box, message, column picker and inspected record.
UPLOAD_OUTPUT_COLUMNS = "upload-output-columns"
UPLOAD_OUTPUT = "upload-output-file"
UPLOAD_OUTPUT_MESSAGE = "upload-output-message"
UPLOAD_OUTPUT_FILE_COLUMNS = "upload-output-file-columns"
UPLOAD_OUTPUT_INSPECTED = "upload-output-inspected"

# Algorithm controls.
ALGORITHM = "algorithm-select"
ALGORITHM_NEIGHBORS = "algorithm-neighbors"
ALGORITHM_PARAMS = "algorithm-params"
ALGORITHM_HELP = "algorithm-help"
ALGORITHM_RESCALE = "algorithm-rescale"
ALGORITHM_POST_REFINEMENT = "algorithm-post-refinement"

# A fresh token per page load, passed to every background job (see jobs.job_options).
PAGE_TOKEN = "page-token"
# The browser session's upload namespace: a server-issued secret kept in session storage.
SESSION = "page-session"

# A notebook's page (components/notebook_link.py): its poll of Python's orders, the last order it applied, and
# where its reports to Python are acknowledged.
NOTEBOOK_POLL = "notebook-poll"
NOTEBOOK_SEEN = "notebook-seen"
NOTEBOOK_REPORTED = "notebook-reported"

# The view state: the URL holds it as a link; VIEW_STATE holds the validated state the controls
# show; APPLY_STATE hands a whole state (a preset, a saved file, a reverted run) to the controls.
URL = "page-url"
VIEW_STATE = "view-state"
APPLY_STATE = "view-apply-state"
STATE_MESSAGE = "view-state-message"

# Tabs.
TABS = "view-tabs"
TAB_EXPLORE = "explore"
TAB_SWEEP = "sweep"
TAB_COMPARE = "compare"
TAB_NORMALIZATION = "normalization"
TAB_HELP = "help"
TAB_PAIRS = "pairs"

# Explore tab: view controls and outputs.
COLOR_BY = "view-color-by"
SHOW_LANDMARKS = "view-show-landmarks"
INPUT_VIEW = "view-input-view"
SELECTION_TEXT = "view-selection-text"
# Find points: the query box (the view state's display.find), what it found (data-set rows), its line.
FIND = "view-find"
FIND_ROWS = "view-find-rows"
FIND_TEXT = "view-find-text"
INSPECTOR_GRAPH = "inspector-graph"
INSPECTOR_TEXT = "inspector-text"
INPUT_GRAPH = "view-input-graph"
OUTPUT_GRAPH = "view-output-graph"
# The explore run: a cache hit and a computed run arrive in their own stores; RUN_SHOWN is the run
# the views show (its state, request, cards), DRAWN what they draw now (for colour-only patches).
RUN_FROM_JOB = "explore-run-computed"
# A run still computing (its job sets it as the input is read, as the algorithm ends and after each group of
# measures): a store of its own, since a callback reading the job's output waits for the job to end.
RUN_PARTIAL = "explore-run-partial"
RUN_SHOWN = "explore-run-shown"
EXPLORE_REQUEST = "explore-request"
DRAWN = "explore-drawn"
# The clicked point's k neighbours (drawn rows), marked with its kNN edges in both views.
NEIGHBOURS = "explore-neighbours"
POINT_IMAGE = "view-point-image"
MESSAGE = "result-message"
CARDS = "result-cards"
# Every measure the run computed, one row each, under the cards.
MEASURE_TABLE = "result-measure-table"
# The run's yardsticks (random-output and best values): the button, its job's request, store and message.
YARDSTICK_RUN = "yardstick-run"
YARDSTICK_REQUEST = "yardstick-request"
YARDSTICK_STORE = "yardstick-store"
YARDSTICK_MESSAGE = "yardstick-message"
# Downloads: the explore run's points, configuration and offline report, sweep and comparison tables.
DOWNLOAD = "download"
EXPORT_POINTS = "export-points"
EXPORT_CONFIG = "export-config"
EXPORT_REPORT = "export-report"
EXPORT_SWEEP_CSV = "export-sweep-csv"
EXPORT_SWEEP_JSON = "export-sweep-json"
EXPORT_COMPARE_CSV = "export-compare-csv"
EXPORT_COMPARE_JSON = "export-compare-json"
FIGURE_FORMAT = "view-figure-format"

# Sweep tab.
SWEEP_ALGORITHMS = "sweep-algorithms"
SWEEP_K_RANGE = "sweep-k-range"
SWEEP_K_STEP = "sweep-k-step"
SWEEP_MEASURE = "sweep-measure"
SWEEP_LOG = "sweep-log-scale"
SWEEP_YARDSTICKS = "sweep-yardsticks"
SWEEP_RUN = "sweep-run"
SWEEP_REQUEST = "sweep-request"
SWEEP_STORE = "sweep-store"
SWEEP_GRAPH = "sweep-graph"
SWEEP_TABLE = "sweep-table"
SWEEP_AGREEMENT = "sweep-agreement"
SWEEP_MESSAGE = "sweep-message"

# Compare tab.
COMPARE_ALGORITHMS = "compare-algorithms"
COMPARE_ALIGN = "compare-align"
COMPARE_RUN = "compare-run"
COMPARE_REQUEST = "compare-request"
COMPARE_STORE = "compare-store"
COMPARE_GRID = "compare-grid"
COMPARE_AGREEMENT = "compare-agreement"
COMPARE_BARS = "compare-bars"
COMPARE_MESSAGE = "compare-message"

# Normalization tab.
NORMALIZATION_SHAPE = "normalization-shape"
NORMALIZATION_ASPECT = "normalization-aspect"
NORMALIZATION_ASPECT_LABEL = "normalization-aspect-label"
NORMALIZATION_SIZE = "normalization-size"
NORMALIZATION_NEIGHBORS = "normalization-neighbors"
NORMALIZATION_ALGORITHMS = "normalization-algorithms"
NORMALIZATION_RUN = "normalization-run"
NORMALIZATION_REQUEST = "normalization-request"
NORMALIZATION_STORE = "normalization-store"
NORMALIZATION_GRID = "normalization-grid"
NORMALIZATION_CURVE = "normalization-curve"
NORMALIZATION_TABLE = "normalization-table"
NORMALIZATION_MESSAGE = "normalization-message"

# Pairs tab: run B's controls, the pair's views (A, B aligned onto A, the morph), cards, selection line.
PAIR_ALGORITHM = "pair-algorithm"
PAIR_NEIGHBORS = "pair-neighbors"
PAIR_RANDOM_STATE = "pair-random-state"
PAIR_COLOR = "pair-color"
PAIR_SEGMENTS = "pair-segments"
PAIR_RUN = "pair-run"
PAIR_REQUEST = "pair-request"
PAIR_STORE = "pair-store"
PAIR_MESSAGE = "pair-message"
PAIR_CARDS = "pair-cards"
PAIR_A_GRAPH = "pair-a-graph"
PAIR_B_GRAPH = "pair-b-graph"
PAIR_MORPH_GRAPH = "pair-morph-graph"
PAIR_MORPH_SPEED = "pair-morph-speed"
PAIR_SELECTION_TEXT = "pair-selection-text"
# The pair's displacements against run A's seed spread (in the pairs tab).
SEED_NOISE_RUN = "seed-noise-run"
SEED_NOISE_REQUEST = "seed-noise-request"
SEED_NOISE_STORE = "seed-noise-store"
SEED_NOISE_MESSAGE = "seed-noise-message"
SEED_NOISE_CARDS = "seed-noise-cards"
SEED_NOISE_TABLE = "seed-noise-table"
# Stability study (in the pairs tab).
STABILITY_MODE = "stability-mode"
STABILITY_RUNS = "stability-runs"
STABILITY_FRACTION = "stability-fraction"
STABILITY_RUN = "stability-run"
STABILITY_REQUEST = "stability-request"
STABILITY_STORE = "stability-store"
STABILITY_MESSAGE = "stability-message"
STABILITY_CARDS = "stability-cards"
STABILITY_GRAPH = "stability-graph"

# Background jobs, each with a progress bar, its label, a cancel button and a running flag. A study's button
# writes its job's request (``*_REQUEST``: ``{"request", "state", "nonce"}``), which starts the job; the job
# writes the study's store (``*_STORE``).
EXPLORE_JOB = "explore"
SWEEP_JOB = "sweep"
COMPARE_JOB = "compare"
NORMALIZATION_JOB = "normalization"
PAIR_JOB = "pair"
STABILITY_JOB = "stability"
SEED_NOISE_JOB = "seed-noise"
TOUR_JOB = "tour"
YARDSTICK_JOB = "yardsticks"
JOBS = (EXPLORE_JOB, SWEEP_JOB, COMPARE_JOB, NORMALIZATION_JOB, PAIR_JOB, STABILITY_JOB, SEED_NOISE_JOB, TOUR_JOB,
        YARDSTICK_JOB)


def job_controls(job):
    """Ids of the progress bar, label, cancel button, running store, box and report of background ``job``."""
    return {"progress": f"{job}-progress", "label": f"{job}-progress-label", "cancel": f"{job}-cancel",
            "running": f"{job}-running", "box": f"{job}-job", "report": f"{job}-report"}


def dataset_param(dataset, name):
    """Id of the control of data-set parameter ``name``; the owner keeps a stale control from being read."""
    return {"type": "dataset-param", "owner": dataset, "index": name}


def algorithm_param(algorithm, name):
    """Id of the control of algorithm parameter ``name`` of ``algorithm``."""
    return {"type": "algorithm-param", "owner": algorithm, "index": name}


def card_value(measure):
    """Id of the value text of a headline card: a measure's registry name, or ``"time"``."""
    return f"card-{measure}-value"


def card_yardstick(measure):
    """Id of the yardstick line (best and random-output values) under a headline card's value."""
    return f"card-{measure}-yardstick"


def pair_card_value(name):
    """Id of the value text of a card of the pairs tab (the pair's, the seed noise's or the stability study's)."""
    return f"pair-card-{name}-value"
