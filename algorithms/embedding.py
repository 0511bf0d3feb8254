"""The one entry point that runs any registered algorithm: :func:`embed`."""

import numpy as np
from numpy.linalg import LinAlgError
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence

from measures import (
    DisconnectedGraphError,
    EmbeddingError,
    MeasureError,
    SolverError,
    check_points,
    nearest_neighbors,
    neighbor_graph_components,
    validate_parameters,
)
from measures.seeding import check_random_state

from .registry import spec
from .scaling import apply_output_scale, fix_signs

__all__ = ["embed"]


def _check_int(value, name, low, high, hint):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise EmbeddingError(f"{name} must be an integer in [{low}, {high}]; got {value!r}. {hint}")
    return int(value)


def embed(name, X, *, n_neighbors, n_components=2, seed=0, **params):
    """Embed ``X`` in ``n_components`` dimensions with the registered algorithm ``name``.

    Parameters
    ----------
    name : str
        A name from :func:`algorithms.available`.
    X : array-like of shape (n_samples, q)
        Input points.
    n_neighbors : int
        k, neighbours other than the point (SPEC §0). Accepted and checked by every algorithm;
        global methods (PCA) do not use it.
    n_components : int, default=2
        Output dimension d.
    seed : int or numpy.random.Generator, default=0
        Seeds every random step (eigensolver start vectors).
    **params
        The algorithm's own parameters, as declared in its registry entry.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        The embedding at the algorithm's authors' output scale (its entry's ``output_scale``), each
        column's largest-magnitude entry positive.

    Raises
    ------
    EmbeddingError
        Unknown algorithm or parameter, NaN/inf input, k or d out of range, n above the method's
        memory limit.
    DisconnectedGraphError
        The symmetrised kNN graph of a graph-based method has several components.
    SolverError
        The eigensolver failed or returned non-finite values.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.c_[np.random.default_rng(0).uniform(size=(300, 2)), np.zeros(300)]
    >>> Y = embed("pca", X, n_neighbors=8)
    >>> Y.shape
    (300, 2)
    """
    entry = spec(name)
    X = check_points(X, "X", error=EmbeddingError)
    n_samples, n_features = X.shape
    if entry.max_samples is not None and n_samples > entry.max_samples:
        raise EmbeddingError(f"{entry.label} is limited to {entry.max_samples} points here (its dense "
                             f"n x n step needs O(n^2) memory); got {n_samples}. Use fewer points.")
    n_components = _check_int(n_components, "n_components", 1, min(n_features, n_samples - 1),
                              "The output dimension cannot exceed the input's.")
    lowest_k = entry.min_neighbors(n_components)
    n_neighbors = _check_int(n_neighbors, "n_neighbors", lowest_k, n_samples - 1,
                             f"{entry.label} needs k >= {lowest_k} for d = {n_components} and k < n = "
                             f"{n_samples}; change k or the number of points.")
    params = validate_parameters(entry.parameters, params, entry.name, EmbeddingError)
    try:
        check_random_state(seed)
    except ValueError as e:
        raise EmbeddingError(str(e)) from e

    neighbors = None
    if entry.uses_neighbors:
        neighbors = nearest_neighbors(X, n_neighbors)
        n_parts, labels = neighbor_graph_components(neighbors)
        if n_parts > 1:
            sizes = np.bincount(labels)
            raise DisconnectedGraphError(
                f"the k-nearest-neighbour graph (k = {n_neighbors}) has {n_parts} connected components "
                f"(sizes {', '.join(map(str, sorted(sizes, reverse=True)[:5]))}{' ...' if n_parts > 5 else ''}); "
                f"{entry.label} cannot place them relative to each other. Raise k.", n_parts)
    try:
        Y = entry.fit(X, neighbors, n_components, seed, **params)
    except (ArpackNoConvergence, ArpackError, LinAlgError) as e:
        raise SolverError(f"{entry.label}: the eigensolver failed ({e}). Try another k, or the dense "
                          "solver where offered.") from e
    except MeasureError as e:
        raise EmbeddingError(str(e)) from e
    Y = np.asarray(Y, dtype=np.float64)
    if not np.isfinite(Y).all():
        raise SolverError(f"{entry.label} returned non-finite coordinates; try another k.")
    return fix_signs(apply_output_scale(Y, entry.output_scale))
