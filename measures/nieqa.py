"""NIEQA: the local and global assessments of Zhang, Ren & Zhang (NQ §IV), built on ASIM.

- Local, M_L (NQ Eq. 18): the mean over points of ASIM between each input neighbourhood and its
  embedding (:func:`measures.local_asim`).
- Global, M_G (NQ Eq. 19): the ~10 % of points that the most shortest paths of the kNN graph pass
  through (the landmarks) are placed by classical MDS of their graph geodesics; M_G is the ASIM of
  that configuration (the reference) and the embedding of the landmarks.

Decisions of SPEC §3: the landmark graph uses k_l = k neighbours by default (NQ's k_l = 0.1 n,
offered as ``landmark_neighbors="paper"``, short-circuits a swiss roll so that M_G is ~0.8 for every
method); path counts are exact, from Dijkstra's shortest-path trees, up to
:data:`measures.geodesics.EXACT_UP_TO` points and estimated from seeded pivot sources above.

References
----------
.. [NQ] P. Zhang, Y. Ren and B. Zhang, "A new embedding quality assessment method for manifold
   learning", Neurocomputing 97 (2012) 251-266.
"""

import dataclasses

import numpy as np
import numpy.typing as npt
from scipy.linalg import eigh

from .asim import asim_fit, check_dimensions, local_asim
from .errors import MeasureError
from .geodesics import (
    check_connected,
    geodesic_graph,
    geodesic_sweep,
    geodesics_between,
    pivot_sources,
    sweep_approximation,
)
from .neighbors import (
    check_pair,
    nearest_neighbors,
    neighbor_graph_components,
    power_of_two_scaled,
)
from .parameters import check_integer
from .procrustes import summarize
from .seeding import check_random_state

__all__ = ["NIEQA", "SUBSAMPLE_ABOVE", "assess_globally", "check_landmark_neighbors", "classical_mds",
           "global_assessment", "landmark_count", "landmark_graph", "nieqa"]

PAPER_FRACTION = 0.1  # NQ §IV-B and Remark 1: 10 % landmarks, k_l = 0.1 n
# Above this many points M_G is computed on a uniform random subsample of this size
# (:func:`assess_globally`): at 20 000 points it takes ~20 s here, and it grows like n^2.
SUBSAMPLE_ABOVE = 20_000


@dataclasses.dataclass(frozen=True)
class NIEQA:
    """Result of :func:`nieqa`.

    Attributes
    ----------
    local_assessment : float
        M_L (NQ Eq. 18), mean ASIM over the neighbourhoods (undefined points left out).
    local_median : float
        Median of the per-point ASIM (SPEC §0).
    global_assessment : float
        M_G (NQ Eq. 19).
    asim_values : ndarray of shape (n_samples,) or None
        Per-point ASIM (``per_point=True``).
    landmark_indices : ndarray of shape (n_landmarks,)
        The landmarks, most important first.
    landmark_configuration : ndarray of shape (n_landmarks, d)
        Classical MDS of the landmarks' graph geodesics (the reference of M_G).
    aligned_landmark_configuration : ndarray of shape (n_landmarks, d)
        The same configuration mapped into the output's frame by its best rotation, axis scaling
        and translation onto ``Y[landmark_indices]`` (an ASIM fit with the output as reference),
        to draw beside the output.
    importance : ndarray of shape (n_samples,)
        Number of ordered pairs whose shortest path passes through each point (an unbiased
        estimate, scaled by n / n_sources, when pivot-sampled).
    landmark_neighbors : int
        k_l, the neighbours of the landmark graph actually used.
    n_sources : int
        Dijkstra sources of the count: n_samples when exact (the sample's size when sampled).
    approximation : str or None
        What was estimated rather than computed exactly (pivot sources, a subsample), or None.
    """

    local_assessment: float
    local_median: float
    global_assessment: float
    asim_values: np.ndarray
    landmark_indices: np.ndarray
    landmark_configuration: np.ndarray
    aligned_landmark_configuration: np.ndarray
    importance: np.ndarray
    landmark_neighbors: int
    n_sources: int
    approximation: str | None = None


def classical_mds(distances, n_components):
    """Classical (Torgerson) scaling of a distance matrix.

    Parameters
    ----------
    distances : ndarray of shape (m, m)
        Symmetric, zero diagonal.
    n_components : int

    Returns
    -------
    ndarray of shape (m, n_components)
        Top eigenvectors of ``B = -1/2 H D∘D H`` scaled by the square roots of their eigenvalues
        (largest first). Each column's sign makes its largest-magnitude entry positive, so equal
        input gives equal output.

    Raises
    ------
    MeasureError
        If fewer than ``n_components`` eigenvalues of B are positive, i.e. above 1e-10 times the
        largest (the distances are too far from Euclidean, or span fewer dimensions).

    Examples
    --------
    Distances of points on a line are reproduced up to a shift and a sign:

    >>> import numpy as np
    >>> x = np.array([0.0, 1.0, 3.0, 7.0])
    >>> coordinates = classical_mds(np.abs(x[:, None] - x[None, :]), 1)[:, 0]
    >>> bool(np.allclose(np.abs(coordinates[:, None] - coordinates[None, :]), np.abs(x[:, None] - x[None, :])))
    True
    """
    m = distances.shape[0]
    squared = distances**2
    # Double centring without forming H: subtract row and column means, add the grand mean.
    row_means = squared.mean(axis=1)
    gram = -0.5 * (squared - row_means[:, None] - row_means[None, :] + row_means.mean())
    eigenvalues, eigenvectors = eigh(gram, subset_by_index=[max(m - n_components, 0), m - 1])
    eigenvalues, eigenvectors = eigenvalues[::-1], eigenvectors[:, ::-1]
    # An eigenvalue at rounding level of the largest is no dimension: its axis would be noise.
    positive = eigenvalues > 1e-10 * max(eigenvalues[0], 0.0)
    if eigenvalues.size < n_components or not positive.all():
        positive = int(positive.sum())
        raise MeasureError(f"classical MDS: only {positive} positive eigenvalue(s) among the top {n_components} "
                           f"of the {m} landmarks' double-centred geodesics; M_G needs {n_components}. Use more "
                           "landmarks (landmark_fraction) or more neighbours.")
    largest = np.argmax(np.abs(eigenvectors), axis=0)
    signs = np.sign(eigenvectors[largest, np.arange(eigenvectors.shape[1])])
    return eigenvectors * signs * np.sqrt(eigenvalues)


def _smallest_connecting_k(X, start):
    """NQ Remark 1: the smallest k_l >= ``start`` whose kNN graph is connected, and its neighbours.

    Connectivity only grows with k (the graphs are nested), so k is doubled until the graph
    connects and then bisected on prefixes of that one neighbour search.
    """
    n_samples = X.shape[0]
    neighbors = nearest_neighbors(X, start)
    if neighbor_graph_components(neighbors)[0] == 1:
        return start, neighbors
    low, high = start, start
    while True:
        high = min(2 * high, n_samples - 1)
        neighbors = nearest_neighbors(X, high)
        if neighbor_graph_components(neighbors)[0] == 1:
            break
        low = high
    while high - low > 1:  # low: disconnected, high: connected
        middle = (low + high) // 2
        if neighbor_graph_components(neighbors[:, :middle + 1])[0] == 1:
            high = middle
        else:
            low = middle
    return high, neighbors[:, :high + 1]


def landmark_graph(X, n_neighbors, *, landmark_neighbors=None, neighbors=None):
    """The k_l and the neighbourhoods of NIEQA's landmark graph.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    n_neighbors : int
        k of the measures.
    landmark_neighbors : None, int or "paper"
        ``None``: k_l = k (SPEC §3). An int: that k_l. ``"paper"``: k_l = round(0.1 n), raised to
        the smallest value that connects the graph (NQ Remark 1).
    neighbors : ndarray of shape (n_samples, K + 1), optional
        A neighbour search already made with ``K >= k_l`` (``evaluate`` shares one); its first
        ``k_l + 1`` columns are used.

    Returns
    -------
    k_l : int
    neighbors : ndarray of shape (n_samples, k_l + 1)

    Raises
    ------
    DisconnectedGraphError
        If the graph with the k_l asked for (None or int) is not connected.
    """
    n_samples = X.shape[0]
    landmark_neighbors = check_landmark_neighbors(landmark_neighbors)
    if landmark_neighbors == "paper":
        return _smallest_connecting_k(X, min(max(1, int(np.floor(PAPER_FRACTION * n_samples + 0.5))), n_samples - 1))
    k_l = n_neighbors if landmark_neighbors is None else landmark_neighbors
    if neighbors is None or neighbors.shape[1] <= k_l:
        neighbors = nearest_neighbors(X, k_l)
    neighbors = neighbors[:, :k_l + 1]
    check_connected(neighbors, "NIEQA's global assessment M_G needs every geodesic distance finite",
                    "Raise n_neighbors or landmark_neighbors, or pass landmark_neighbors='paper' (NQ Remark 1).")
    return k_l, neighbors


def check_landmark_neighbors(landmark_neighbors):
    """``landmark_neighbors`` if it is None, "paper" or an integer >= 1; MeasureError otherwise."""
    if landmark_neighbors is None or (isinstance(landmark_neighbors, str) and landmark_neighbors == "paper"):
        return landmark_neighbors
    return check_integer(landmark_neighbors, "landmark_neighbors", 1, error=MeasureError,
                         hint="Pass None (k_l = k), an integer, or 'paper' (NQ Remark 1).")


def landmark_count(n_samples, landmark_fraction, n_components):
    """round(fraction n) landmarks, checked: MDS into d dimensions needs at least d + 1 of them.

    Returns
    -------
    int

    Raises
    ------
    MeasureError
        If the fraction is not in (0, 1] or gives fewer than d + 1 landmarks.
    """
    if not 0.0 < landmark_fraction <= 1.0:
        raise MeasureError(f"landmark_fraction must lie in (0, 1]; got {landmark_fraction!r}.")
    count = int(np.floor(landmark_fraction * n_samples + 0.5))
    if count < n_components + 1:
        raise MeasureError(f"NIEQA needs at least d + 1 = {n_components + 1} landmarks; landmark_fraction = "
                           f"{landmark_fraction} of n = {n_samples} gives {count}. Raise landmark_fraction or n.")
    return count


def global_assessment(Y, graph, counts, n_sources, n_landmarks, *, progress=None):
    """M_G and its pieces from the path counts of the landmark graph (NQ §IV-B, steps 1-3).

    Parameters
    ----------
    Y : ndarray of shape (n_samples, d)
    graph : sparse matrix of shape (n_samples, n_samples)
        The landmark graph, both directions of every edge stored (:func:`measures.geodesic_graph`
        with ``both_directions=True``).
    counts : ndarray of shape (n_samples,)
        Shortest-path counts (:func:`measures.geodesics.geodesic_sweep`).
    n_sources : int
        Sources the counts came from (n_samples when exact).
    n_landmarks : int
    progress : callable, optional
        ``progress(done, n_landmarks)`` as the landmarks' geodesics are computed
        (:func:`measures.geodesics.geodesics_between`).

    Returns
    -------
    value, landmark_indices, configuration, aligned_configuration, importance
    """
    n_samples, d = Y.shape
    importance = counts * (n_samples / n_sources) if n_sources < n_samples else counts
    # Most important first; a stable sort breaks ties by index (SPEC §3).
    landmark_indices = np.argsort(-counts, kind="stable")[:n_landmarks]
    geodesics = geodesics_between(graph, landmark_indices, progress=progress)
    # Both directions are computed; their mean is exactly symmetric for eigh.
    configuration = classical_mds(0.5 * (geodesics + geodesics.T), d)
    landmark_output = Y[landmark_indices]
    value = asim_fit(configuration, landmark_output).value
    aligned = asim_fit(landmark_output, configuration).transform(configuration)
    return value, landmark_indices, configuration, aligned, importance


def nieqa(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *, landmark_neighbors: "int | str | None" = None,
          landmark_fraction: float = 0.1, per_point: bool = False,
          random_state: "int | np.random.Generator" = 0) -> NIEQA:
    """NIEQA's local and global assessments of an embedding, M_L and M_G (NQ Eqs. 18, 19).

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        Input points.
    Y : array-like of shape (n_samples, d)
        Embedding, ``d <= q``.
    n_neighbors : int
        k of the local neighbourhoods (k + 1 points each, SPEC §0).
    landmark_neighbors : None, int or "paper", default=None
        k_l of the landmark graph: k when None (SPEC §3), or ``"paper"`` for NQ's 0.1 n raised to
        the smallest connecting value (Remark 1).
    landmark_fraction : float, default=0.1
        Share of points taken as landmarks (NQ: 10 %).
    per_point : bool, default=False
        Keep the per-point ASIM in the result.
    random_state : int or numpy.random.Generator, default=0
        Draws the pivot sources of the path count above
        :data:`measures.geodesics.EXACT_UP_TO` points.

    Returns
    -------
    NIEQA

    Raises
    ------
    MeasureError
        On bad input, too few landmarks, or landmark geodesics with fewer than d positive MDS
        eigenvalues.
    DimensionError
        If Y has more columns than X (ASIM needs d <= q).
    DisconnectedGraphError
        If the landmark graph is not connected (with ``"paper"`` it is made connected).

    Notes
    -----
    Importance of a vertex (NQ §IV-B step 1) is the number of ordered pairs whose shortest path
    passes through it as an interior vertex, twice its betweenness
    (:func:`measures.shortest_path_counts`). The round(fraction n) most important points are the
    landmarks; classical MDS of their geodesics in d dimensions is the reference configuration
    and :math:`M_G = \\mathrm{ASIM}(\\tilde Y_l, Y_l)`. Both assessments are in [0, 1], lower is better,
    and neither changes when each output axis is rescaled (the point of NIEQA).

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(400, 2)) * [4.0, 1.0]
    >>> result = nieqa(Z, Z / Z.std(axis=0), 8)
    >>> result.local_assessment < 1e-12 and result.global_assessment < 0.01
    True
    """
    X, Y = check_pair(X, Y)
    check_dimensions(X.shape[1], Y.shape[1], "NIEQA")
    landmark_count(X.shape[0], landmark_fraction, Y.shape[1])
    # Each by a power of two (exact; ASIM is invariant to both scales), undone on the configurations.
    (X, x_exponent), (Y, y_exponent) = power_of_two_scaled(X), power_of_two_scaled(Y)
    neighbors = nearest_neighbors(X, n_neighbors)
    values = local_asim(X, Y, neighbors)
    mean, median, _ = summarize(values, "ASIM")
    result = assess_globally(X, Y, n_neighbors, landmark_neighbors=landmark_neighbors,
                             landmark_fraction=landmark_fraction, random_state=random_state, neighbors=neighbors)
    return dataclasses.replace(
        result, local_assessment=mean, local_median=median, asim_values=values if per_point else None,
        landmark_configuration=np.ldexp(result.landmark_configuration, x_exponent),
        aligned_landmark_configuration=np.ldexp(result.aligned_landmark_configuration, y_exponent))


def global_sample(n_samples, rng):
    """``None`` up to :data:`SUBSAMPLE_ABOVE` points, else that many distinct indices drawn from ``rng``, sorted."""
    if n_samples <= SUBSAMPLE_ABOVE:
        return None
    return np.sort(rng.choice(n_samples, SUBSAMPLE_ABOVE, replace=False))


def assess_globally(X, Y, n_neighbors, *, landmark_neighbors=None, landmark_fraction=0.1, random_state=0,
                    neighbors=None, graph=None, counts=None, sources=None, progress=None):
    """M_G and its pieces (NQ Eq. 19), on all points or, above :data:`SUBSAMPLE_ABOVE`, on a sample.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    Y : ndarray of shape (n_samples, d)
    n_neighbors : int
    landmark_neighbors, landmark_fraction, random_state
        As :func:`nieqa`.
    neighbors : ndarray of shape (n_samples, K + 1), optional
        The input's neighbour search, reused when it serves the landmark graph.
    graph, counts, sources : optional
        The landmark graph (both directions of every edge stored), its path counts and their sources
        when a caller's sweep already made them (``evaluate`` shares one sweep with the residual
        variance); only without sampling.
    progress : callable, optional
        ``progress(done, total)`` as the landmarks' geodesics are computed.

    Returns
    -------
    NIEQA
        With ``local_assessment`` and ``local_median`` NaN (the caller's), ``asim_values`` None.

    Notes
    -----
    Above :data:`SUBSAMPLE_ABOVE` points M_G is computed on a uniform random subsample of that
    many points (drawn from ``random_state``) with its own kNN graph, and ``approximation`` says
    so: the landmarks' MDS would otherwise need their ``(0.1 n)^2`` geodesics (80 GB at a million
    points) and one Dijkstra per landmark. Graph geodesics of the sample approximate the same
    manifold distances as those of the full graph, on edges about ``(n/m)^{1/d}`` times longer.
    ``landmark_indices`` are indices of the full data; ``importance`` is NaN off the sample.
    """
    n_samples, d = X.shape[0], Y.shape[1]
    rng = check_random_state(random_state)
    sample = global_sample(n_samples, rng)
    approximation = None
    if sample is not None:
        X, Y, neighbors, graph = X[sample], Y[sample], None, None
    n_landmarks = landmark_count(X.shape[0], landmark_fraction, d)
    k_l, landmark_neighbors_ = landmark_graph(X, n_neighbors, landmark_neighbors=landmark_neighbors,
                                              neighbors=neighbors)
    if graph is None:
        graph = geodesic_graph(X, landmark_neighbors_, both_directions=True)
        sources = pivot_sources(X.shape[0], random_state=rng)
        counts, _ = geodesic_sweep(graph, sources, count_paths=True, both_directions=True)
    n_sources = X.shape[0] if sources is None else len(sources)
    value, landmark_indices, configuration, aligned, importance = global_assessment(
        Y, graph, counts, n_sources, n_landmarks, progress=progress)
    if sample is not None:
        landmark_indices = sample[landmark_indices]
        full_importance = np.full(n_samples, np.nan)
        full_importance[sample] = importance
        importance = full_importance
        approximation = (f"M_G on a uniform random subsample of {len(sample):,} of the {n_samples:,} points (its own "
                         f"kNN graph, k_l = {k_l}, {n_landmarks} landmarks), not on all points.")
    pivots = sweep_approximation("landmark importance", X.shape[0], sources)
    if pivots is not None:
        approximation = pivots if approximation is None else f"{approximation} Its {pivots[0].lower()}{pivots[1:]}"
    return NIEQA(local_assessment=np.nan, local_median=np.nan, global_assessment=value, asim_values=None,
                 landmark_indices=landmark_indices, landmark_configuration=configuration,
                 aligned_landmark_configuration=aligned, importance=importance, landmark_neighbors=k_l,
                 n_sources=n_sources, approximation=approximation)
