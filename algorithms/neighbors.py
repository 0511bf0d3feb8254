"""Checks of a precomputed neighbour array handed to :func:`algorithms.embed` or :func:`algorithms.refine`.

A caller that scores an embedding computes :func:`measures.nearest_neighbors` once and passes the same
(n_samples, k + 1) array to the algorithm and to the measures, so the two share one kNN search and
score the same graph (SPEC §0). Such an array is checked here for what every algorithm relies on; it
is not searched again.
"""

import numpy as np

from measures import EmbeddingError, check_integer, is_integer, nearest_neighbors

__all__ = ["check_neighbors"]


def check_neighbors(X, neighbors, *, n_neighbors=None, error=EmbeddingError):
    """Neighbourhoods of ``X``: searched for an int k, or checked when given as an index array.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
        Checked input points.
    neighbors : int or array-like of shape (n_samples, k + 1)
        k (then :func:`measures.nearest_neighbors` searches), or the array it returned.
    n_neighbors : int, optional
        The k the array must have been searched with (its width is then k + 1).
    error : type, default=EmbeddingError
        Exception class raised for a bad array.

    Returns
    -------
    ndarray of shape (n_samples, k + 1), int64

    Raises
    ------
    error
        If the array is not integer, not (n_samples, n_neighbors + 1), holds an index outside
        ``[0, n_samples)``, does not start each row with the point itself, or repeats an index in a row.

    Notes
    -----
    What is checked is what the algorithms use: the shape, each row's own point first (SPEC §0), indices
    in range and distinct within a row (a repeated neighbour makes local Gram matrices singular). That the
    rows are the *nearest* neighbours is not re-checked: it would cost the search it saves.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).uniform(size=(20, 3))
    >>> bool(np.array_equal(check_neighbors(X, 4), check_neighbors(X, nearest_neighbors(X, 4), n_neighbors=4)))
    True
    >>> check_neighbors(X, nearest_neighbors(X, 4)[:, ::-1], n_neighbors=4)
    Traceback (most recent call last):
    ...
    measures.errors.EmbeddingError: neighbors must list each point first in its own row (measures.nearest_neighbors);
    row 0 starts with 6.
    """
    n_samples = X.shape[0]
    if is_integer(neighbors):
        k = check_integer(neighbors, "n_neighbors", 1, n_samples - 1, error=error,
                          hint="Choose a smaller k or use more points.")
        return nearest_neighbors(X, k)
    array = np.asarray(neighbors)
    width = None if n_neighbors is None else n_neighbors + 1
    if array.ndim != 2 or array.shape[0] != n_samples or array.shape[1] < 2 \
            or (width is not None and array.shape[1] != width) or not np.issubdtype(array.dtype, np.integer):
        expected = f"({n_samples}, {width})" if width is not None else f"({n_samples}, k + 1)"
        raise error(f"neighbors must be an integer array of shape {expected} from measures.nearest_neighbors(X, "
                    f"{'k' if n_neighbors is None else n_neighbors}); got {array.dtype} of shape {array.shape}.")
    low, high = int(array.min()), int(array.max())
    if low < 0 or high >= n_samples:
        bad = low if low < 0 else high
        raise error(f"neighbors must hold indices in [0, {n_samples - 1}]; got {bad}. Pass the array "
                    "measures.nearest_neighbors returned for this X.")
    not_first = np.flatnonzero(array[:, 0] != np.arange(n_samples))
    if not_first.size:
        row = int(not_first[0])
        raise error(f"neighbors must list each point first in its own row (measures.nearest_neighbors); row {row} "
                    f"starts with {int(array[row, 0])}.")
    ordered = np.sort(array, axis=1)
    repeated = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
    if repeated.size:
        raise error(f"neighbors must list distinct points in each row; row {int(repeated[0])} repeats one. Pass the "
                    "array measures.nearest_neighbors returned for this X.")
    return array.astype(np.int64, copy=False)
