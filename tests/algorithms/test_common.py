"""Checks run over every entry of the algorithm registry, as scikit-learn's ``tests/test_common.py`` runs
one set of checks over ``all_estimators()``: output type, determinism, the declared output scale, the
sign rule, typed errors with their messages, and the libraries' import boundaries (STYLE)."""

import ast
import dataclasses
import doctest
import importlib
import pathlib
import pkgutil
import re
import sys

import numpy as np
import pytest

import algorithms
import measures
from algorithms import DisconnectedGraphError, EmbeddingError, SampleLimitError, TooFewNeighborsError, registry
from algorithms.errors import format_bytes
from algorithms.scaling import apply_output_scale

# One pytest-xdist worker runs this module (pytest.ini's --dist loadgroup): its module fixtures (every
# algorithm's default embedding of the roll) and numba's compilation of UMAP's kernels (10-15 s) are paid once.
pytestmark = pytest.mark.xdist_group("umap")

NAMES = algorithms.available()
GRAPH_NAMES = [entry.name for entry in algorithms.specs() if entry.uses_neighbors and entry.requires_connected]
GLOBAL_NAMES = [entry.name for entry in algorithms.specs() if not entry.uses_neighbors]
PARAMETERS = [(entry.name, parameter) for entry in algorithms.specs() for parameter in entry.parameters]
K = 8  # connected and free of short cuts on the 400-point roll of ``small_roll``
# Parameters for samples of 100 points or fewer, where a default is out of range (t-SNE's perplexity
# must stay below n).
SMALL_SAMPLE_PARAMETERS = {"tsne": {"perplexity": 10.0}, "tsne_sklearn": {"perplexity": 10.0}}
# The shortest runs of the iterative layouts, where a test checks finiteness, errors or that two ways of
# passing the same arguments give the same output, rather than quality.
QUICK_PARAMETERS = {"tsne": {"max_iter": 250}, "tsne_sklearn": {"max_iter": 250}, "umap": {"n_epochs": 50},
                    "pacmap": {"num_iters": 200}}

# SPEC §2: the authors' output scale of each method (names as they are, or will be, registered).
# SPEC names none for diffusion maps and t-SNE: Coifman & Lafon's diffusion coordinates and
# t-SNE's own layout are their authors' outputs, neither a normalization nor isometric.
SPEC_OUTPUT_SCALES = {
    "pca": "isometric", "isomap": "isometric", "mds": "isometric", "gp": "isometric", "psa": "isometric",
    "landmark_isomap": "isometric",  # Isomap's, by de Silva & Tenenbaum's construction (SPEC §2 predates it)
    "lle": "unit_variance", "mlle": "unit_variance", "laplacian": "unit_variance",
    "ltsa": "unit_norm", "hlle": "unit_norm", "diffusion_maps": "diffusion",
    # Issue 14: neither isometric nor normalized; their scale carries no meaning.
    "tsne": "neighbour_embedding", "tsne_sklearn": "neighbour_embedding", "umap": "neighbour_embedding",
    "pacmap": "neighbour_embedding",
}


@pytest.fixture(scope="module")
def roll_embedding(default_embedding):
    """``roll_embedding(name)``: the algorithm's default embedding of the 400-point roll at k = 8 (= K), computed
    once, by the first test that asks for it (so that each test's time is its own algorithm's)."""
    return default_embedding


@pytest.fixture(scope="module")
def quick_roll_embedding(small_roll, roll_embedding):
    """As ``roll_embedding``, with the iterative layouts' shortest runs (``QUICK_PARAMETERS``): the reference
    of the tests that compare ways of passing the same arguments (a full t-SNE run costs about 3 s; which
    seed or integer type reaches the optimizer shows as well after 250 iterations)."""
    computed = {}

    def embedding(name):
        if name not in QUICK_PARAMETERS:
            return roll_embedding(name)
        if name not in computed:
            computed[name] = algorithms.embed(name, small_roll.X, n_neighbors=K, **QUICK_PARAMETERS[name])
        return computed[name]

    return embedding


def _bad_value(parameter):
    """A value ``parameter`` must refuse, and the phrase its message must contain."""
    if parameter.kind == "choice":
        return "no-such-choice", "must be one of"
    if parameter.kind == "bool":
        return "yes", "must be True or False"
    if parameter.high is not None:
        return parameter.high * 10 + 1, "must lie in"
    return parameter.low - 1, "must be >="


# --- output -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_output_is_finite_float64_with_one_row_per_point(name, small_roll, roll_embedding):
    Y = roll_embedding(name)
    assert Y.dtype == np.float64
    assert Y.shape == (small_roll.X.shape[0], 2)
    assert np.isfinite(Y).all()
    # A real embedding, not a collapse: both coordinates vary and are not proportional.
    assert np.linalg.matrix_rank(Y - Y.mean(axis=0), tol=1e-8 * np.abs(Y).max()) == 2


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_gives_identical_output(name, small_roll, quick_roll_embedding):
    quick = QUICK_PARAMETERS.get(name, {})
    again = algorithms.embed(name, small_roll.X, n_neighbors=K, random_state=0, **quick)
    assert np.array_equal(again, quick_roll_embedding(name))


@pytest.mark.parametrize("name", NAMES)
def test_generator_seed_acts_like_the_int_that_seeds_it(name, small_roll, quick_roll_embedding):
    quick = QUICK_PARAMETERS.get(name, {})
    from_generator = algorithms.embed(name, small_roll.X, n_neighbors=K, random_state=np.random.default_rng(0),
                                      **quick)
    assert np.array_equal(from_generator, quick_roll_embedding(name))


@pytest.mark.parametrize("name", NAMES)
def test_output_follows_the_declared_scale(name, small_roll, roll_embedding):
    Y = roll_embedding(name)
    convention = algorithms.spec(name).output_scale
    if convention == "unit_variance":
        np.testing.assert_allclose(Y.mean(axis=0), 0.0, atol=1e-12)
        np.testing.assert_allclose(Y.std(axis=0), 1.0, rtol=1e-12)
    elif convention == "unit_norm":
        np.testing.assert_allclose(Y.mean(axis=0), 0.0, atol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(Y, axis=0), 1.0, rtol=1e-12)
    elif convention in ("diffusion", "neighbour_embedding"):
        # A method's own coordinates: no rescaling applies (their scale is checked in their own tests).
        assert apply_output_scale(Y, convention) is Y
    else:
        assert convention == "isometric"
        # At the input's scale: neighbour distances keep their size (a unit-variance output of this
        # roll, whose arc length spans ~90, would shrink them ~25 times; a unit-norm one ~500 times).
        neighbors = measures.nearest_neighbors(small_roll.X, K)
        X = small_roll.X
        ratio = (np.linalg.norm(Y[neighbors[:, 1:]] - Y[:, None], axis=2)
                 / np.linalg.norm(X[neighbors[:, 1:]] - X[:, None], axis=2))
        assert 0.5 < np.median(ratio) < 1.5


@pytest.mark.parametrize("name", NAMES)
def test_each_column_has_its_largest_entry_positive(name, roll_embedding):
    Y = roll_embedding(name)
    largest = np.argmax(np.abs(Y), axis=0)
    assert (Y[largest, np.arange(Y.shape[1])] > 0).all()


@pytest.mark.parametrize("name", NAMES)
def test_numpy_integer_arguments_are_accepted_like_ints(name, small_roll, quick_roll_embedding):
    Y = algorithms.embed(name, small_roll.X, n_neighbors=np.int64(K), n_components=np.int32(2),
                         random_state=np.uint8(0), **QUICK_PARAMETERS.get(name, {}))
    assert np.array_equal(Y, quick_roll_embedding(name))


# Where two more default runs on the 400 points cost seconds (t-SNE's 1 000 iterations, about 3 s each), the
# defaults are compared on 150 of them (a random subset: the roll's points are drawn at random), every
# parameter at its default still.
DEFAULTS_SUBSET = {"tsne": 150, "tsne_sklearn": 150}


@pytest.mark.parametrize("name", sorted({name for name, _ in PARAMETERS}))
def test_explicit_defaults_and_none_give_the_default_embedding(name, small_roll, roll_embedding):
    parameters = algorithms.spec(name).parameters
    if name in DEFAULTS_SUBSET:
        X = small_roll.X[:DEFAULTS_SUBSET[name]]
        default = algorithms.embed(name, X, n_neighbors=K)
    else:
        X, default = small_roll.X, roll_embedding(name)
    explicit = algorithms.embed(name, X, n_neighbors=K, **{p.name: p.default for p in parameters})
    unset = algorithms.embed(name, X, n_neighbors=K, **{p.name: None for p in parameters})
    assert np.array_equal(explicit, default)
    assert np.array_equal(unset, default)


# Small samples of every data set: connected kNN graphs at k = 10, and fast (finite sets whole, or
# their small variants: a 21 × 11 grid, 30 × 10 globe views of 10 × 10 pixels, the digit '2').
CATALOGUE_SAMPLES = {
    "grid": {"half_width": 10, "half_height": 5},
    "digits": {"classes": "2"},
    "globe": {"image_size": 10, "elevation_rows": 10},
}


@pytest.fixture(scope="module")
def catalogue():
    """One small sample of every registered data set, by name."""
    import datasets

    return {name: datasets.load(name, None if datasets.spec(name).population else 200, random_state=0,
                                **CATALOGUE_SAMPLES.get(name, {}))
            for name in datasets.available()}


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_data_set_gets_a_finite_embedding(name, catalogue):
    quick = QUICK_PARAMETERS.get(name, {})  # the check is finiteness, not quality
    for dataset, data in catalogue.items():
        Y = algorithms.embed(name, data.X, n_neighbors=10, **quick)
        assert Y.shape == (data.X.shape[0], 2) and Y.dtype == np.float64, dataset
        assert np.isfinite(Y).all(), dataset
        assert np.ptp(Y, axis=0).min() > 0, dataset  # not collapsed to a point or a line


# --- typed errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_k_not_below_n_is_refused(name, small_roll):
    X = small_roll.X[:30]
    lowest = algorithms.spec(name).min_neighbors(2)
    with pytest.raises(EmbeddingError, match=rf"n_neighbors must be an integer in \[{lowest}, 29\]; got 30\."):
        algorithms.embed(name, X, n_neighbors=30)


@pytest.mark.parametrize("name", NAMES)
def test_k_below_the_entrys_minimum_is_refused(name, small_roll):
    entry = algorithms.spec(name)
    for n_components in (1, 2):
        lowest = entry.min_neighbors(n_components)
        assert lowest >= 1
        if entry.too_few_neighbors is None:
            expected = rf"got {lowest - 1}\. {re.escape(entry.label)} needs k >= {lowest} for d = {n_components}"
        else:  # the method's own explanation (HLLE's bound), which must still quote k and name the method
            message = entry.too_few_neighbors(lowest - 1, n_components)
            assert f"got {lowest - 1}." in message and entry.label in message
            expected = re.escape(message)
        with pytest.raises(TooFewNeighborsError, match=expected) as caught:
            algorithms.embed(name, small_roll.X, n_neighbors=lowest - 1, n_components=n_components)
        assert (caught.value.n_neighbors, caught.value.minimum) == (lowest - 1, lowest)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("k", [8.0, True, "8", None])
def test_k_of_the_wrong_type_is_refused(name, k, small_roll):
    with pytest.raises(EmbeddingError, match=rf"n_neighbors must be an integer .*; got {re.escape(repr(k))}\."):
        algorithms.embed(name, small_roll.X, n_neighbors=k)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n_components", [0, 4])
def test_output_dimension_outside_one_to_q_is_refused(name, n_components, small_roll):
    with pytest.raises(EmbeddingError, match=rf"n_components must be an integer in \[1, 3\]; got {n_components}\. "
                                             "The output dimension cannot exceed the input's"):
        algorithms.embed(name, small_roll.X, n_neighbors=K, n_components=n_components)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_parameter_is_refused(name, small_roll):
    with pytest.raises(EmbeddingError, match=rf"{name} has no parameter 'bandwidth'; its parameters are"):
        algorithms.embed(name, small_roll.X, n_neighbors=K, bandwidth=30)


@pytest.mark.parametrize(("name", "parameter"), PARAMETERS, ids=[f"{n}-{p.name}" for n, p in PARAMETERS])
def test_out_of_range_parameter_is_refused(name, parameter, small_roll):
    value, phrase = _bad_value(parameter)
    with pytest.raises(EmbeddingError, match=rf"{name}: parameter '{parameter.name}' {phrase}.*; "
                                             rf"got {re.escape(repr(value))}\."):
        algorithms.embed(name, small_roll.X, n_neighbors=K, **{parameter.name: value})


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_input_is_refused_naming_the_row(name, bad, small_roll):
    X = np.array(small_roll.X)
    X[[7, 19], 1] = bad
    with pytest.raises(EmbeddingError, match=r"X contains NaN or infinite values in 2 row\(s\), first at row 7"):
        algorithms.embed(name, X, n_neighbors=K)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("random_state", [-1, None, 2.5, "0", True])
def test_bad_random_state_is_refused(name, random_state, small_roll):
    with pytest.raises(EmbeddingError, match=rf"random_state must be a non-negative int or a numpy.random.Generator; "
                                             rf"got {re.escape(repr(random_state))}\."):
        algorithms.embed(name, small_roll.X, n_neighbors=K, random_state=random_state)


@pytest.mark.parametrize("name", GRAPH_NAMES)
def test_disconnected_neighbour_graph_is_refused(name, two_clusters):
    k = max(5, algorithms.spec(name).min_neighbors(2))  # still far below the 40 points of a cluster
    with pytest.raises(DisconnectedGraphError, match=rf"\(k = {k}\) has 2 connected components \(sizes 60, 40\);.*"
                                                     r"Raise k\.") as caught:
        algorithms.embed(name, two_clusters, n_neighbors=k)
    assert caught.value.n_components == 2


@pytest.mark.parametrize("name", GLOBAL_NAMES)
def test_global_method_embeds_separated_clusters(name, two_clusters):
    Y = algorithms.embed(name, two_clusters, n_neighbors=5, **SMALL_SAMPLE_PARAMETERS.get(name, {}))
    # The gap between the clusters (100 * sqrt(3) in R³) dominates the first coordinate: the two
    # occupy disjoint intervals with a clear gap (at the input's scale for an isometric method;
    # t-SNE's gap is of the order of its clusters' size).
    first, second = Y[:60, 0], Y[60:, 0]
    lower, upper = (first, second) if first.mean() < second.mean() else (second, first)
    gap = upper.min() - lower.max()
    assert gap > 0.25 * max(np.ptp(first), np.ptp(second))
    if algorithms.spec(name).output == "isometric":
        assert gap > 100


@pytest.mark.parametrize("name", NAMES)
def test_memory_budget_is_enforced_with_the_estimate_in_the_message(name, monkeypatch):
    import datasets

    X = datasets.load("strip", 51, random_state=0).X
    entry = algorithms.spec(name)
    params = {p.name: p.default for p in entry.parameters} | SMALL_SAMPLE_PARAMETERS.get(name, {})
    needed = entry.memory_bytes(51, K, 2, **params)
    assert needed > entry.memory_bytes(50, K, 2, **params) > 0  # grows with n
    monkeypatch.setattr(registry, "MEMORY_BUDGET", needed - 1)
    with pytest.raises(SampleLimitError,
                       match=rf"^{re.escape(entry.label)} would need about "
                             rf"{re.escape(format_bytes(needed))} at n = 51 \(k = {K}, d = 2\), above "
                             rf"the memory budget of {re.escape(format_bytes(needed - 1))}\. ") as caught:
        algorithms.embed(name, X, n_neighbors=K, **SMALL_SAMPLE_PARAMETERS.get(name, {}))
    error = caught.value
    assert (error.n_samples, error.bytes_needed, error.budget, error.alternative) == (51, needed, needed - 1,
                                                                                      entry.alternative)
    # The largest n that fits is stated, and it does fit.
    assert error.max_samples == entry.sample_limit(K, 2, budget=needed - 1, **params) == 50
    if entry.too_large is None:
        assert f"Use at most {error.max_samples} points" in str(error)
    if entry.alternative is not None:
        assert f"or {algorithms.spec(entry.alternative).label} (algorithm '{entry.alternative}')" in str(error)
    assert algorithms.embed(name, X[:50], n_neighbors=K, **SMALL_SAMPLE_PARAMETERS.get(name, {})).shape == (50, 2)


def test_unknown_algorithm_is_refused_listing_the_available_ones(small_roll):
    listing = re.escape(", ".join(NAMES))
    for name in ("trimap", "Isomap", None):
        with pytest.raises(EmbeddingError, match=rf"unknown algorithm {re.escape(repr(name))}; available: {listing}\."):
            algorithms.embed(name, small_roll.X, n_neighbors=K)
    with pytest.raises(EmbeddingError, match="unknown algorithm \\[\\]"):
        algorithms.spec([])


# --- registry metadata --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_declared_output_scale_is_the_authors_one(name):
    if name not in SPEC_OUTPUT_SCALES:
        pytest.skip(f"SPEC §2 fixes no output scale for {name!r}")
    entry, convention = algorithms.spec(name), SPEC_OUTPUT_SCALES[name]
    assert entry.output_scale == convention
    assert (entry.output == "isometric") == (convention == "isometric")
    assert convention in algorithms.OUTPUT_SCALES


@pytest.mark.parametrize(("name", "parameter"), PARAMETERS, ids=[f"{n}-{p.name}" for n, p in PARAMETERS])
def test_declared_default_passes_its_own_check(name, parameter):
    assert parameter.check(parameter.default, name, EmbeddingError) == parameter.default


def test_registry_lists_each_name_once_in_order():
    assert [entry.name for entry in algorithms.specs()] == NAMES
    assert len(set(NAMES)) == len(NAMES)
    # Display order of __init__: linear and isometric methods, then the normalized ones, then t-SNE.
    assert NAMES == ["pca", "isomap", "landmark_isomap", "mds", "lle", "mlle", "hlle", "ltsa", "laplacian",
                     "diffusion_maps", "tsne", "tsne_sklearn", "umap", "pacmap", "gp", "psa"]


@pytest.mark.parametrize("name", [entry.name for entry in algorithms.specs() if entry.alternative is not None])
def test_alternative_is_a_registered_method_of_the_same_kind_that_fits_far_more_points(name):
    entry = algorithms.spec(name)
    alternative = algorithms.spec(entry.alternative)
    assert alternative.output == entry.output and alternative.name != name
    assert alternative.sample_limit(12) > 10 * entry.sample_limit(12)


def test_every_entry_runs_100_000_points_except_the_dense_ones():
    # Issue 16: no fixed n; only the methods with an n x n step (Isomap, classical MDS) stop below it.
    limits = {entry.name: entry.sample_limit(12) for entry in algorithms.specs()}
    assert {name for name, limit in limits.items() if limit < 100_000} == {"isomap", "mds"}
    assert 20_000 <= limits["isomap"] == limits["mds"] < 25_000


def test_registering_a_name_twice_is_refused():
    with pytest.raises(ValueError, match="algorithm 'pca' is registered twice"):
        registry.register(dataclasses.replace(algorithms.spec("pca")))
    assert algorithms.available() == NAMES


def test_inconsistent_output_metadata_is_refused():
    with pytest.raises(ValueError, match="bad output metadata for 'pca'"):
        dataclasses.replace(algorithms.spec("pca"), output_scale="unit_length")
    with pytest.raises(ValueError, match="bad output metadata"):
        dataclasses.replace(algorithms.spec("pca"), output="linear")


# --- package ------------------------------------------------------------------------------------------

ROOT = pathlib.Path(algorithms.__file__).resolve().parent.parent
LIBRARIES = ("algorithms", "measures", "datasets")
LIBRARY_FILES = [path for library in LIBRARIES for path in sorted((ROOT / library).rglob("*.py"))]
# STYLE, module boundaries: numpy, scipy, scikit-learn and each other, one way (measures is the base).
ALLOWED_PROJECT_IMPORTS = {"algorithms": {"measures"}, "datasets": {"measures"}, "measures": set()}
# Third-party packages a library may import: the numerical stack; threadpoolctl, scikit-learn's own
# dependency for limiting its OpenMP threads (algorithms/tsne.py says why); and the neighbour-embedding
# packages of issue 14 (imported inside their fits: algorithms/tsne.py, algorithms/neighbor_embeddings.py).
THIRD_PARTY = {"numpy", "scipy", "sklearn", "threadpoolctl", "openTSNE", "umap", "pacmap", "numba", "faiss"}
NEIGHBOUR_EMBEDDING_PACKAGES = {"openTSNE", "umap", "pacmap", "numba"}


def _imported_roots(path):
    """Top-level names of every absolute import in ``path``, nested imports and ``import_module`` calls included."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant)):
            roots.add(str(node.args[0].value).split(".")[0])
    return roots


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_library_imports_no_ui_and_respects_the_layering(path):
    library = path.relative_to(ROOT).parts[0]
    roots = _imported_roots(path)
    assert not roots & {"dash", "plotly"}, f"{library}/{path.name} imports {roots & {'dash', 'plotly'}}"
    project = roots - set(sys.stdlib_module_names) - THIRD_PARTY
    assert project <= ALLOWED_PROJECT_IMPORTS[library], f"{library}/{path.name} imports {project}"
    if roots & NEIGHBOUR_EMBEDDING_PACKAGES:
        # Only inside the fits: "import algorithms" must not pay for numba's imports.
        top_level = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Import):
                top_level |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                top_level.add(node.module.split(".")[0])
        assert not top_level & NEIGHBOUR_EMBEDDING_PACKAGES, f"{library}/{path.name} imports them at module level"


def test_import_scan_sees_ui_imports(tmp_path):
    # The scan above must be able to fail: nested and dynamic imports are found too.
    source = tmp_path / "module.py"
    source.write_text("def f():\n    import plotly.graph_objects as go\n    return importlib.import_module('dash')\n")
    assert _imported_roots(source) >= {"plotly", "dash"}


@pytest.mark.parametrize("module_name", sorted(info.name for info in pkgutil.iter_modules(algorithms.__path__)))
def test_doctests_pass(module_name):
    module = importlib.import_module(f"algorithms.{module_name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_public_names_are_exported():
    for name in algorithms.__all__:
        assert hasattr(algorithms, name), name
    assert algorithms.SolverError is measures.SolverError
    assert issubclass(algorithms.DisconnectedGraphError, EmbeddingError)
    assert issubclass(algorithms.SolverError, RuntimeError) and issubclass(EmbeddingError, ValueError)
