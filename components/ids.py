"""Every Dash component id of the app, in one place (kebab-case, area prefix)."""

# Paper presets.
PRESET = "preset-select"
PRESET_CAPTION = "preset-caption"

# Data-set controls.
DATASET = "dataset-select"
DATASET_SIZE = "dataset-size"
DATASET_NOISE = "dataset-noise"
DATASET_SEED = "dataset-seed"
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
UPLOAD_ARRAY = "upload-array"
UPLOAD_DROP = "upload-drop-nonfinite"
UPLOAD_USE = "upload-use"
UPLOAD_FILE = "upload-inspected"
UPLOAD_STORE = "upload-chosen"

# Algorithm controls.
ALGORITHM = "algorithm-select"
ALGORITHM_NEIGHBORS = "algorithm-neighbors"
ALGORITHM_PARAMS = "algorithm-params"
ALGORITHM_HELP = "algorithm-help"
ALGORITHM_RESCALE = "algorithm-rescale"
ALGORITHM_REFINE = "algorithm-refine"

# A fresh token per page load, passed to every background job (see callbacks._job_options).
PAGE_TOKEN = "page-token"

# Page address: the URL holds the view's state; the stores carry a link's values to the controls.
URL = "page-url"
LINK_APPLIED = "page-link-applied"
LINK_DATASET = "page-link-dataset"
LINK_ALGORITHM = "page-link-algorithm"

# Tabs.
TABS = "view-tabs"
TAB_EXPLORE = "explore"
TAB_SWEEP = "sweep"
TAB_COMPARE = "compare"
TAB_NORMALIZATION = "normalization"
TAB_HELP = "help"

# Explore tab: view controls and outputs.
COLOR_BY = "view-color-by"
SHOW_LANDMARKS = "view-show-landmarks"
INPUT_VIEW = "view-input-view"
SELECTION_TEXT = "view-selection-text"
INSPECTOR_GRAPH = "inspector-graph"
INSPECTOR_TEXT = "inspector-text"
INPUT_GRAPH = "view-input-graph"
OUTPUT_GRAPH = "view-output-graph"
RESULT_STORE = "result-store"
RESULT_REQUEST = "result-request"
POINT_IMAGE = "view-point-image"
MESSAGE = "result-message"
CARDS = "result-cards"
# Downloads: the explore run's points and configuration, sweep and comparison tables.
DOWNLOAD = "download"
EXPORT_POINTS = "export-points"
EXPORT_CONFIG = "export-config"
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
SWEEP_RUN = "sweep-run"
SWEEP_STORE = "sweep-store"
SWEEP_GRAPH = "sweep-graph"
SWEEP_TABLE = "sweep-table"
SWEEP_MESSAGE = "sweep-message"

# Compare tab.
COMPARE_ALGORITHMS = "compare-algorithms"
COMPARE_ALIGN = "compare-align"
COMPARE_RUN = "compare-run"
COMPARE_STORE = "compare-store"
COMPARE_GRID = "compare-grid"
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
NORMALIZATION_STORE = "normalization-store"
NORMALIZATION_GRID = "normalization-grid"
NORMALIZATION_CURVE = "normalization-curve"
NORMALIZATION_TABLE = "normalization-table"
NORMALIZATION_MESSAGE = "normalization-message"

# Background jobs, each with a progress bar, its label, a cancel button and a running flag.
EXPLORE_JOB = "explore"
SWEEP_JOB = "sweep"
COMPARE_JOB = "compare"
NORMALIZATION_JOB = "normalization"


def job_controls(job):
    """Ids of the progress bar, label, cancel button, running store and box of background ``job``."""
    return {"progress": f"{job}-progress", "label": f"{job}-progress-label", "cancel": f"{job}-cancel",
            "running": f"{job}-running", "box": f"{job}-job"}


def dataset_param(dataset, name):
    """Id of the control of data-set parameter ``name``; the owner keeps a stale control from being read."""
    return {"type": "dataset-param", "owner": dataset, "index": name}


def algorithm_param(algorithm, name):
    """Id of the control of algorithm parameter ``name`` of ``algorithm``."""
    return {"type": "algorithm-param", "owner": algorithm, "index": name}


def card_value(measure):
    """Id of the value text of a headline card: a measure's registry name, or ``"time"``."""
    return f"card-{measure}-value"
