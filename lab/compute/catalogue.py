"""What the pages offer, derived from the registries: one small Dash-free module both sides read.

The run's own controls (k, refinement, rescaling) are declared here as :class:`measures.Parameter`
objects, as data sets and algorithms declare theirs, so the slider's range and the server's check
are one declaration. The measures a run computes, the cards, the colourings and the defaults of
every tab are named here too; the view state (:mod:`lab.view.state`) validates against them.
"""

import algorithms
import datasets
import measures
from algorithms.refine import REFINE_ITERATIONS

__all__ = [
    "CARD_MEASURES",
    "COMPARE_DEFAULTS",
    "DEFAULT_ALGORITHM",
    "DEFAULT_DATASET",
    "DISPLAY_CAP",
    "DISPLAY_CAP_3D",
    "FIGURE_FORMATS",
    "INPUT_VIEWS",
    "LOCAL_MEASURES",
    "MAX_SWEEP_CELLS",
    "NEIGHBORS",
    "NEIGHBOUR_LOSSES",
    "PAIR_DEFAULT_ALGORITHM",
    "PAIR_MEASURES",
    "POST_REFINEMENT",
    "RANDOM_STATE",
    "RESCALE",
    "RESCALE_LABELS",
    "RUN_MEASURES",
    "STABILITY_MODES",
    "STABILITY_RUNS",
    "SEED_NOISE_COLOR",
    "SEED_NOISE_LABEL",
    "SUBSAMPLE_FRACTION",
    "SUMMARY_MEASURES",
    "SWEEP_DEFAULTS",
    "TABS",
    "UPLOAD",
    "UPLOADED_OUTPUT",
    "YARDSTICK_DRAWS",
    "YARDSTICK_MAX_SAMPLES",
    "color_choices",
    "default_size",
    "direction_key",
    "method_label",
    "method_output_scale",
    "pair_color_choices",
]

# The embedded default a new user sees: GR's swiss roll with Isomap. k = 10 rather than GR's 12:
# with random_state 0 one k = 12 edge short-circuits two layers of the roll (the R_N heatmap shows it).
DEFAULT_DATASET = "swissroll"
DEFAULT_ALGORITHM = "isomap"

# The data-set key of an uploaded file in requests, states and the data-set menu.
UPLOAD = "upload"
# The method of a run that measures the output uploaded with the input (its own columns, or a second
# file) instead of embedding: the algorithm menu offers it once an upload carries an output.
UPLOADED_OUTPUT = "uploaded"

# Neighbours other than the point (SPEC §0): one k for the algorithm's graph and every measure. The
# upper bound keeps a request's (n, k + 1) neighbour array and its stacks within memory at the
# largest n a data set allows.
NEIGHBORS = measures.Parameter(
    "n_neighbors", "neighbours k", "int", 10, low=3, high=50,
    help="Neighbours other than the point; the algorithm's graph and every measure use the same k.")
RANDOM_STATE = measures.Parameter(
    "random_state", "random state", "int", 0, low=0, high=2**32 - 1,
    help="Seeds the sample, the noise and every random step of the algorithm.")
POST_REFINEMENT = measures.Parameter(
    "post_refinement", "post-refinement sweeps", "int", 0, low=REFINE_ITERATIONS.low,
    high=REFINE_ITERATIONS.high,
    help="Sweeps of GR §4.4's Procrustes refinement (exact Y-step, Eq. 11) after any algorithm; 0 is off. Each "
         "never raises R; the output ends at the input's scale.")
RESCALE = measures.Parameter(
    "rescale", "rescale output", "choice", "authors", choices=tuple(algorithms.RESCALE_OPTIONS),
    help="Applied after any algorithm: R_N moves with the output's scale, R_C and ASIM do not.")
RESCALE_LABELS = {"authors": "authors' convention", "unit_variance": "unit variance", "unit_norm": "unit norm",
                  "best_global_scale": "best global scale"}

# The measures every run computes, in one measures.evaluate call: every measure of the registry but R
# (R_N is R per neighbourhood size); those needing the truth, class labels or d <= q only where defined.
RUN_MEASURES = tuple(name for name in measures.available() if name != "raw")
# Per-point ones colour the views: (key, label).
LOCAL_MEASURES = tuple((name, measures.spec(name).label) for name in RUN_MEASURES if measures.spec(name).per_point)
# The two-colour colouring of each point's false neighbours (its share of 1 - T) and missing ones (of
# 1 - C), painted by lab.compute.views.neighbour_losses; offered after the local measures.
NEIGHBOUR_LOSSES = "false_missing"
# Scalar summaries that rank embeddings (the collapse score has no direction): sweeps and bars.
SUMMARY_MEASURES = tuple((name, measures.spec(name).label) for name in RUN_MEASURES
                         if measures.spec(name).higher_is_better is not None)
# Headline cards of a run (measures of the registry), then its run time.
CARD_MEASURES = ("normalized", "conformal", "lower_bound", "asim", "nieqa_global", "trustworthiness")

# Points the 2-D views draw: every point of the largest data set (16-bit fixed-point coordinates and colour,
# 6 MB of codes a view at a million); the 3-D view, whose WebGL scatter slows past a few tens of thousands, draws a
# seeded subsample of at most DISPLAY_CAP_3D (a level of detail). Measures always use every point.
DISPLAY_CAP = 1_000_000
DISPLAY_CAP_3D = 20_000

TABS = ("explore", "sweep", "compare", "normalization", "help")
# Two runs side by side (aligned, displacement, morph) and the stability of one algorithm.
TABS += ("pairs",)
# The input drawn in 3-D, or projected on two of its (first three, or principal) coordinates.
INPUT_VIEWS = {"3d": "3-D (drag to rotate)",
               **{f"{a}{b}": f"plane of coordinates {a + 1} and {b + 1}" for a, b in ((0, 1), (0, 2), (1, 2))}}
FIGURE_FORMATS = ("png", "svg")

# GR §5 swept k over 6, 9, ..., 18 for GP, PSA, LLE, Isomap and LTSA.
SWEEP_DEFAULTS = {"algorithms": ("isomap", "gp", "psa", "lle", "ltsa"), "k_min": 6, "k_max": 18, "k_step": 3,
                  "measure": "normalized"}
# A sweep's (algorithm, k) cells are runs: at most this many per request (20 minutes of 10-second runs).
MAX_SWEEP_CELLS = 120
# Isometric outputs (PCA, Isomap, GP, PSA) beside normalized ones (LLE, LTSA, Laplacian eigenmaps).
COMPARE_DEFAULTS = ("pca", "isomap", "gp", "psa", "lle", "ltsa", "laplacian")


def color_choices(truth_labels):
    """Colourings of a run: ``(value, label)`` for its intrinsic coordinates, the local measures, then
    :data:`NEIGHBOUR_LOSSES` (false vs missing neighbours, two hues).

    Parameters
    ----------
    truth_labels : sequence of str
        Names of the data set's ground-truth columns (or of its colouring when it has no truth).

    Examples
    --------
    >>> [value for value, _ in color_choices(["u", "v"])][:3]
    ['truth-0', 'truth-1', 'normalized']
    >>> color_choices(["u"])[-1]
    ('false_missing', 'false vs missing neighbours (1 − T, 1 − C)')
    """
    intrinsic = [(f"truth-{i}", f"intrinsic: {label}") for i, label in enumerate(truth_labels)]
    return (intrinsic + [(key, f"local {label}") for key, label in LOCAL_MEASURES]
            + [(NEIGHBOUR_LOSSES, "false vs missing neighbours (1 − T, 1 − C)")])


def direction_key(measure):
    """Which end of a measure is good, from its registry entry: "↓ better", "↑ better", or nothing.

    Examples
    --------
    >>> direction_key("normalized"), direction_key("trustworthiness")
    ('↓ better', '↑ better')
    """
    higher = measures.spec(measure).higher_is_better
    return "" if higher is None else ("↑ better" if higher else "↓ better")


def default_size(dataset):
    """The n a data set starts with: its paper's size, or None (all points) for a finite set."""
    entry = datasets.spec(dataset)
    return None if entry.population else entry.default_n


# The pairs tab: run B differs from the explore run A by what the tab sets; its algorithm starts here
# (Isomap's isometric output beside LTSA's normalized one on the default swiss roll).
PAIR_DEFAULT_ALGORITHM = "ltsa"
# Per-point values of a pair of runs (lab.compute.pairs.PairResult attributes) and how the page names them.
PAIR_MEASURES = {"local_conformal": "local R_C between the runs", "displacement": "displacement",
                 "local_normalized": "local R_N between the runs"}
# The pair's displacements over run A's spread when re-seeded (lab.compute.seed_noise), computed on demand.
SEED_NOISE_COLOR = "seed_noise"
SEED_NOISE_LABEL = "displacement ÷ A's seed spread"
# The stability study: reruns of one algorithm over random states, or over random subsamples of
# the points (drawn without replacement: a bootstrap's repeated rows are duplicate points, which
# the algorithms refuse).
STABILITY_MODES = {"random_states": "random states of the algorithm", "subsamples": "random subsamples of the points"}
STABILITY_RUNS = measures.Parameter(
    "n_runs", "runs", "int", 5, low=2, high=20,
    help="How many times the algorithm runs; each point's spread is taken over these runs.")
SUBSAMPLE_FRACTION = measures.Parameter(
    "fraction", "subsample fraction", "float", 0.8, low=0.3, high=0.95,
    help="Share of the points each subsample run keeps (drawn without replacement).")
# The yardsticks of a run: two random outputs a draw, each evaluating every measure of the run once more.
YARDSTICK_DRAWS = measures.Parameter(
    "n_draws", "draws", "int", 1, low=1, high=5,
    help="Draws of each random output (Y's rows shuffled; an isotropic Gaussian of Y's scale).")
# Above this, one random output's trustworthiness and continuity alone take minutes (issue 22 item 6).
YARDSTICK_MAX_SAMPLES = 10_000


def method_label(algorithm):
    """The label of a run's method: its algorithm's, or the uploaded output's."""
    return "your uploaded output" if algorithm == UPLOADED_OUTPUT else algorithms.spec(algorithm).label


def method_output_scale(algorithm):
    """The output-scale convention of a run's method (:data:`algorithms.OUTPUT_SCALES` key, or "as uploaded").

    An uploaded output keeps the scale its method gave it: neither isometric nor normalized, so R_C
    (scale-free) is the measure to read, or R_N after the "best global scale" rescaling.
    """
    return "as uploaded" if algorithm == UPLOADED_OUTPUT else algorithms.spec(algorithm).output_scale


def pair_color_choices(truth_labels):
    """Colourings of the pairs tab's views: ``(value, label)`` of a pair's per-point values, its displacements
    against A's seed spread, then the intrinsic ones.

    Examples
    --------
    >>> [value for value, _ in pair_color_choices(["u"])]
    ['local_conformal', 'displacement', 'local_normalized', 'seed_noise', 'truth-0']
    """
    return [*PAIR_MEASURES.items(), (SEED_NOISE_COLOR, SEED_NOISE_LABEL),
            *[(f"truth-{i}", f"intrinsic: {label}") for i, label in enumerate(truth_labels)]]
