"""The one k-nearest-neighbour routine of the project (SPEC §0).

Every measure and every algorithm of our own builds its neighbourhoods here, so that a measure
scores an embedding on the same graph the algorithm used.
"""

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components
from scipy.spatial import KDTree

from .errors import MeasureError

__all__ = ["check_points", "nearest_neighbors", "neighbor_graph", "neighbor_graph_components"]


def check_points(X, name="X", error=MeasureError):
    """Return ``X`` as a C-contiguous float64 array of shape (n_samples, n_features).

    Raises ``error`` on a wrong number of dimensions, an empty array, or a NaN/inf entry (naming
    the first bad row, so a user can find it in their file).
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise error(f"{name} must be a non-empty 2-D array (n_samples, n_features); got shape {X.shape}.")
    finite = np.isfinite(X)
    if not finite.all():
        bad_rows = np.flatnonzero(~finite.all(axis=1))
        raise error(f"{name} contains NaN or infinite values in {bad_rows.size} row(s), first at row "
                    f"{bad_rows[0]}; drop or impute those rows first.")
    return np.ascontiguousarray(X)


def nearest_neighbors(X, n_neighbors):
    """Indices of each point and its ``n_neighbors`` nearest neighbours, the point itself first.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Points, one per row.
    n_neighbors : int
        Number of neighbours other than the point (scikit-learn's convention); each neighbourhood
        holds ``n_neighbors + 1`` points.

    Returns
    -------
    ndarray of shape (n_samples, n_neighbors + 1), int64
        Row ``i`` is ``i`` followed by its neighbours in order of increasing Euclidean distance.

    Raises
    ------
    MeasureError
        If ``n_neighbors`` is not in ``[1, n_samples - 1]`` or ``X`` is not finite.

    Notes
    -----
    Exact search with ``scipy.spatial.KDTree`` on all cores. With duplicate points a tree may return
    a twin before the point itself; the point is moved to the front (and a twin, not the point, is
    dropped), so ``x_i`` is always in its own neighbourhood as SPEC §0 requires. Ties between
    equidistant neighbours are broken by the tree, deterministically for a given input.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [0.0]])  # rows 0 and 3 coincide
    >>> nearest_neighbors(X, 1)[:, 0].tolist()
    [0, 1, 2, 3]
    """
    X = check_points(X)
    n_samples = X.shape[0]
    if isinstance(n_neighbors, bool) or not isinstance(n_neighbors, (int, np.integer)) \
            or not 1 <= n_neighbors <= n_samples - 1:
        raise MeasureError(f"n_neighbors must be an integer in [1, n_samples - 1] = [1, {n_samples - 1}]; "
                           f"got {n_neighbors!r}. Choose a smaller k or use more points.")
    _, candidates = KDTree(X).query(X, k=n_neighbors + 1, workers=-1)
    candidates = candidates.astype(np.int64, copy=False)
    rows = np.arange(n_samples)
    is_self = candidates == rows[:, None]
    has_self = is_self.any(axis=1)
    # A stable sort on "not self" moves the point to the front and keeps the others in distance order.
    order = np.argsort(~is_self, axis=1, kind="stable")
    self_first = np.take_along_axis(candidates, order, axis=1)
    neighbors = np.empty_like(candidates)
    neighbors[:, 0] = rows
    # Rows whose query missed the point itself (k + 1 twins at distance 0) drop their farthest candidate.
    neighbors[:, 1:] = np.where(has_self[:, None], self_first[:, 1:], candidates[:, :-1])
    return neighbors


def neighbor_graph(neighbors, weights=None):
    """The directed k-nearest-neighbour graph as a sparse matrix, without self-loops.

    Parameters
    ----------
    neighbors : ndarray of shape (n_samples, n_neighbors + 1)
        Output of :func:`nearest_neighbors` (the point first).
    weights : ndarray of shape (n_samples, n_neighbors), optional
        Weight of the edge from ``i`` to ``neighbors[i, j + 1]``; 1 when omitted. Zero weights stay
        stored, so scipy's graph routines see edges between duplicate points.

    Returns
    -------
    scipy.sparse.csr_array of shape (n_samples, n_samples)
    """
    n_samples, width = neighbors.shape
    if weights is None:
        weights = np.ones((n_samples, width - 1))
    # 32-bit indices: scikit-learn's graph routines refuse int64-indexed sparse input.
    rows = np.repeat(np.arange(n_samples, dtype=np.int32), width - 1)
    columns = neighbors[:, 1:].ravel().astype(np.int32)
    return csr_array((weights.ravel(), (rows, columns)), shape=(n_samples, n_samples))


def neighbor_graph_components(neighbors):
    """Connected components of the symmetrised k-nearest-neighbour graph.

    Parameters
    ----------
    neighbors : ndarray of shape (n_samples, n_neighbors + 1)
        Output of :func:`nearest_neighbors`.

    Returns
    -------
    n_components : int
    labels : ndarray of shape (n_samples,)
        Component index of each point.
    """
    return connected_components(neighbor_graph(neighbors), directed=True, connection="weak")
