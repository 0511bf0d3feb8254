"""The one entry point that runs any registered algorithm: :func:`embed`."""

from collections.abc import Callable

import numpy as np
from numpy.linalg import LinAlgError
from numpy.typing import ArrayLike
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence

from measures import (
    EmbeddingError,
    MeasureError,
    SeedError,
    SolverError,
    check_connected,
    check_integer,
    check_points,
    check_random_state,
    is_integer,
    nearest_neighbors,
    validate_parameters,
)

from .errors import ConvergenceError, DuplicatePointsError, SampleLimitError, TooFewNeighborsError, format_bytes
from .neighbors import check_neighbors
from .refine import REFINE_ITERATIONS, REFINE_METHOD, refine
from .registry import RESCALE_OPTIONS, memory_budget, spec
from .scaling import apply_output_scale, fix_signs, rescale_output

__all__ = ["embed"]


def _check_memory(entry, n_samples, n_neighbors, n_components, params):
    """Refuse an input whose memory estimate (the entry's ``memory_bytes``) exceeds the budget, stating the
    estimate, the budget, the largest n that fits and the entry's ``alternative`` if it has one."""
    needed = entry.memory_bytes(n_samples, n_neighbors, n_components, **params)
    budget = memory_budget()
    if needed <= budget:
        return
    largest = entry.sample_limit(n_neighbors, n_components, budget=budget, **params)
    if entry.too_large is not None:
        fix = entry.too_large(n_samples, n_neighbors, n_components, budget, **params)
    else:
        fix = f"Use at most {largest} points"
        if entry.alternative is not None:
            fix += (f", or {spec(entry.alternative).label} (algorithm {entry.alternative!r}), which needs far less "
                    "memory")
        fix += "."
    raise SampleLimitError(
        f"{entry.label} would need about {format_bytes(needed)} at n = {n_samples} (k = {n_neighbors}, d = "
        f"{n_components}), above the memory budget of {format_bytes(budget)}. {fix}", n_samples, largest, needed,
        entry.alternative, budget=budget)


def _check_distinct(X):
    """Refuse repeated rows of ``X``, naming how many and the first one.

    Coincident points have no local geometry: a neighbourhood of copies has zero spread, so local
    fits (LLE weights, LTSA/HLLE tangent spaces) become singular and every normalized measure is
    0/0 there. Detected up front, with the count, rather than as a solver failure later.
    """
    # Adding 0.0 turns -0.0 into 0.0, so that the byte-wise comparison of unique sees them equal.
    _, first, inverse = np.unique(X + 0.0, axis=0, return_index=True, return_inverse=True)
    n_duplicates = X.shape[0] - first.size
    if n_duplicates:
        original = first[inverse.ravel()]
        repeat = int(np.flatnonzero(original != np.arange(X.shape[0]))[0])
        raise DuplicatePointsError(
            f"X has {n_duplicates} duplicate point(s): rows equal to an earlier row (first: row {repeat} repeats "
            f"row {original[repeat]}). Coincident points have no local shape, so local fits become singular "
            "and the measures undefined there. Remove them first (numpy.unique(X, axis=0)) or add a little "
            "noise.", n_duplicates)


def embed(name: str, X: ArrayLike, *, n_neighbors: int, n_components: int = 2,
          random_state: int | np.random.Generator = 0, rescale: str | None = None,
          post_refinement: int = 0, post_refinement_method: str = REFINE_METHOD.default,
          neighbors: ArrayLike | None = None, progress: Callable[[float, dict], None] | None = None,
          should_stop: Callable[[], bool] | None = None, **params) -> np.ndarray:
    """Embed ``X`` in ``n_components`` dimensions with the registered algorithm ``name``.

    Parameters
    ----------
    name : str
        A name from :func:`algorithms.available`.
    X : array-like of shape (n_samples, q)
        Input points.
    n_neighbors : int
        k, neighbours other than the point (SPEC §0). Accepted and checked by every algorithm;
        global methods (PCA) do not use it, but refinement and ``rescale="best_global_scale"`` do.
    n_components : int, default=2
        Output dimension d.
    random_state : int or numpy.random.Generator, default=0
        Seeds every random step (eigensolver start vectors, t-SNE's and UMAP's optimizers). A
        Generator gives the same output as the int that seeded it. ``None`` is refused: unseeded
        randomness would break reproducibility and cache keys.
    rescale : {None, "authors", "unit_variance", "unit_norm", "best_global_scale"}, default=None
        The "rescale output" option (:data:`algorithms.RESCALE_OPTIONS`), applied after any
        algorithm: None or ``"authors"`` keeps the authors' convention (the entry's
        ``output_scale``); ``"unit_variance"`` and ``"unit_norm"`` centre and normalize each column;
        ``"best_global_scale"`` multiplies the output by the factor minimizing R_N(X, cY) on the kNN
        graph of X with this k (SPEC §2).
    post_refinement : int, default=0
        Procrustes refinement sweeps (GR §4.4, :func:`algorithms.refine`) after ANY algorithm; 0 is
        off. A refined output is at the input's scale (refinement fits the overall scale first),
        so the authors' normalization is not re-applied after it. (GP and PSA also refine as part
        of their own fit: their ``refine_iterations`` parameter.)
    post_refinement_method : {"exact", "iterative"}, default="exact"
        The Y-step of the refinement (GR Eq. 11 by sparse CG, or Eq. 13).
    neighbors : array-like of shape (n_samples, n_neighbors + 1), optional
        The neighbourhoods ``measures.nearest_neighbors(X, n_neighbors)`` if the caller has them
        already: the algorithm, the refinement and the best global scale use them instead of
        searching again, so one kNN search serves the embedding and its measures. Checked for shape,
        index range, each point first and distinct rows (:func:`algorithms.neighbors.check_neighbors`).
        Without it, embed searches at most once, and only when something needs the graph.
    progress, should_stop : callable, optional
        ``progress(fraction, info)`` and ``should_stop()`` hooks, forwarded to algorithms whose entry
        ``reports_progress`` (GP, PSA: annealing step, temperature, energy); cancelling raises
        :class:`algorithms.Cancelled`. Others ignore them.
    **params
        The algorithm's own parameters, as declared in its registry entry.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        The embedding at the requested output scale (by default its authors', the entry's
        ``output_scale``), each column's largest-magnitude entry positive.

    Raises
    ------
    EmbeddingError
        Unknown algorithm, parameter or rescale option, NaN/inf input, k or d out of range, a bad
        ``neighbors`` array or seed. An unknown parameter is also a TypeError, as Python's own
        unexpected keyword is (the old ``seed=`` and ``output_scale=`` among them: now
        ``random_state=`` and ``rescale=``).
    TooFewNeighborsError
        k below the method's bound for this d (HLLE: k > d(d+3)/2).
    SampleLimitError
        The method's memory estimate at this n exceeds the budget; the message states the estimate,
        the budget, and names the scalable alternative where there is one (Isomap: Landmark Isomap).
    DuplicatePointsError
        Repeated rows in X; the message gives their number and the first one.
    DisconnectedGraphError
        The symmetrised kNN graph of a graph-based method has several components.
    ConvergenceError
        ARPACK did not converge.
    SolverError
        Another eigensolver failure (a singular factor: ``SingularFactorError``), or non-finite output.

    Examples
    --------
    >>> import numpy as np
    >>> from measures import nearest_neighbors
    >>> X = np.c_[np.random.default_rng(0).uniform(size=(300, 2)), np.zeros(300)]
    >>> Y = embed("pca", X, n_neighbors=8)
    >>> Y.shape
    (300, 2)
    >>> shared = nearest_neighbors(X, 8)  # one search for the algorithm and the measures
    >>> bool(np.array_equal(embed("isomap", X, n_neighbors=8, neighbors=shared), embed("isomap", X, n_neighbors=8)))
    True
    """
    entry = spec(name)
    X = check_points(X, "X", error=EmbeddingError)
    n_samples, n_features = X.shape
    n_components = check_integer(n_components, "n_components", 1, min(n_features, n_samples - 1),
                                 error=EmbeddingError, hint="The output dimension cannot exceed the input's.")
    lowest_k = entry.min_neighbors(n_components)
    hint = (f"{entry.label} needs k >= {lowest_k} for d = {n_components} and k < n = {n_samples}; change k or "
            "the number of points.")
    if is_integer(n_neighbors) and n_neighbors < lowest_k:
        message = (entry.too_few_neighbors(int(n_neighbors), n_components) if entry.too_few_neighbors else
                   f"n_neighbors must be an integer in [{lowest_k}, {n_samples - 1}]; got {n_neighbors!r}. {hint}")
        raise TooFewNeighborsError(message, int(n_neighbors), lowest_k)
    n_neighbors = check_integer(n_neighbors, "n_neighbors", lowest_k, n_samples - 1, error=EmbeddingError, hint=hint)
    params = validate_parameters(entry.parameters, params, entry.name, EmbeddingError)
    _check_memory(entry, n_samples, n_neighbors, n_components, params)
    post_refinement = REFINE_ITERATIONS.check(post_refinement, "embed: post_refinement", EmbeddingError)
    post_refinement_method = REFINE_METHOD.check(post_refinement_method, "embed: post_refinement_method",
                                                 EmbeddingError)
    try:
        check_random_state(random_state)
    except SeedError as e:
        raise EmbeddingError(f"random_state must be a non-negative int or a numpy.random.Generator; got "
                             f"{random_state!r}.") from e
    rescale = "authors" if rescale is None else rescale
    if not isinstance(rescale, str) or rescale not in RESCALE_OPTIONS:
        raise EmbeddingError(f"rescale must be None or one of {list(RESCALE_OPTIONS)}; got {rescale!r}.")
    if neighbors is not None:
        neighbors = check_neighbors(X, neighbors, n_neighbors=n_neighbors)
    _check_distinct(X)

    if entry.uses_neighbors:
        if neighbors is None:
            neighbors = nearest_neighbors(X, n_neighbors)
        if entry.requires_connected:
            check_connected(neighbors, f"{entry.label} cannot place them relative to each other", "Raise k.")
    if entry.reports_progress:
        params.update(progress=progress, should_stop=should_stop)
    if entry.takes_n_neighbors:
        params["n_neighbors"] = n_neighbors
    try:
        Y = entry.fit(X, neighbors if entry.uses_neighbors else None, n_components, random_state, **params)
    except ArpackNoConvergence as e:
        raise ConvergenceError(f"{entry.label}: ARPACK did not converge ({e}). Raise k (a better connected "
                               "graph converges faster), use fewer points, or choose the dense eigensolver "
                               "where offered.") from e
    except (ArpackError, LinAlgError) as e:
        raise SolverError(f"{entry.label}: the eigensolver failed ({e}). Try another k, or the dense "
                          "solver where offered.") from e
    except MeasureError as e:
        raise EmbeddingError(str(e)) from e
    Y = np.asarray(Y, dtype=np.float64)
    if not np.isfinite(Y).all():
        raise SolverError(f"{entry.label} returned non-finite coordinates; try another k.")
    Y = apply_output_scale(Y, entry.output_scale)
    if (post_refinement or rescale == "best_global_scale") and neighbors is None:
        neighbors = nearest_neighbors(X, n_neighbors)  # a global method: the graph the measures will use
    if post_refinement:
        Y, _ = refine(X, Y, neighbors, refine_iterations=post_refinement, refine_method=post_refinement_method)
    return fix_signs(rescale_output(Y, rescale, X, neighbors))
