"""Landmark Isomap: Isomap for large n, from the geodesics of m landmarks only (isometric scale).

Isomap holds all n² graph geodesics and is refused above 20 000 points here. Landmark Isomap (de Silva &
Tenenbaum) runs Dijkstra from m landmarks only, embeds the landmarks by classical scaling of their
m x m geodesics, and places every other point by distance-based triangulation from its m geodesics to
the landmarks: O(m n) memory and m single-source shortest-path searches. With every point a landmark
it is Isomap.

References
----------
.. [dST03] V. de Silva and J. B. Tenenbaum, "Global versus local methods in nonlinear dimensionality
   reduction", Advances in Neural Information Processing Systems 15 (2003) 705-712.
.. [dST04] V. de Silva and J. B. Tenenbaum, "Sparse multidimensional scaling using landmark points",
   Technical report, Stanford University (2004): landmark MDS, its triangulation formula (§3) and
   the MaxMin choice of landmarks (§4).
"""

import numpy as np
from scipy.sparse.csgraph import dijkstra, reverse_cuthill_mckee

from measures import EmbeddingError, Parameter, check_random_state, geodesic_graph
from measures.chunks import chunk_slices

from .isomap import classical_scaling
from .longrun import RunHooks
from .registry import AlgorithmSpec, register

__all__ = [
    "LANDMARK_SELECTIONS",
    "landmark_geodesics",
    "landmark_isomap",
    "landmark_isomap_memory_bytes",
    "landmark_mds",
    "triangulate",
]

LANDMARK_SELECTIONS = ("maxmin", "random")
# The parameter's range (m x m classical scaling stays quick below it); memory is held against the budget.
MAX_LANDMARKS = 20_000

N_LANDMARKS = Parameter(
    "n_landmarks", "landmarks m", "int", 500, low=2, high=MAX_LANDMARKS,
    help="Points whose geodesics to all others are computed; time and memory grow like m n. Capped at n: "
         "with every point a landmark the result is Isomap's.")
LANDMARK_SELECTION = Parameter(
    "landmark_selection", "landmark choice", "choice", "maxmin", choices=LANDMARK_SELECTIONS,
    help="'maxmin': each new landmark is the point farthest (along the graph) from those already chosen, "
         "the first one seeded (de Silva & Tenenbaum's recommendation); 'random': m points drawn at random.")


def landmark_isomap_memory_bytes(n_samples, n_neighbors, n_components, *, n_landmarks=N_LANDMARKS.default, **_):
    """Peak memory of :func:`landmark_isomap`: the m x n geodesics (squared in place), the m x m block of
    classical scaling, the renumbered graph (2 n k edges, twice) and the n x d output."""
    m = min(n_landmarks, n_samples)
    return 8 * m * n_samples + 2 * 8 * m * m + 4 * 16 * n_samples * n_neighbors + 8 * n_samples * n_components


def _too_large(n_samples, n_neighbors, n_components, budget, *, n_landmarks=N_LANDMARKS.default, **_):
    """Advice when the estimate exceeds ``budget``: the largest m that fits at this n."""
    low, high = 0, min(n_landmarks, n_samples)  # the estimate grows with m; the largest m that fits, by bisection
    while high - low > 1:
        middle = (low + high) // 2
        fits = landmark_isomap_memory_bytes(n_samples, n_neighbors, n_components, n_landmarks=middle) <= budget
        low, high = (middle, high) if fits else (low, middle)
    return (f"Landmark Isomap keeps the geodesics from each of its m = {n_landmarks} landmarks to all {n_samples} "
            f"points. Use at most {low} landmarks at this n, or fewer points.")


def landmark_geodesics(graph, n_landmarks, random_state, *, selection="maxmin", hooks=None):
    """Choose landmarks and compute their graph geodesics to every vertex.

    Parameters
    ----------
    graph : sparse matrix of shape (n_samples, n_samples)
        Non-negative edge lengths with both directions of every edge stored (a symmetric matrix,
        e.g. :func:`measures.geodesic_graph` with ``both_directions=True``); connected.
    n_landmarks : int
        m, in [1, n_samples].
    random_state : int or numpy.random.Generator
        Draws the first landmark ("maxmin") or all of them ("random").
    selection : {"maxmin", "random"}, default="maxmin"
    hooks : algorithms.longrun.RunHooks, optional
        Progress (fraction of landmarks done) and cancellation.

    Returns
    -------
    landmark_indices : ndarray of shape (n_landmarks,), int64
        In the order chosen.
    geodesics : ndarray of shape (n_landmarks, n_samples)
        Row j: shortest-path lengths from landmark j to every vertex.

    Notes
    -----
    MaxMin [dST04 §4]: the first landmark is drawn at random, and each next one is the vertex whose
    geodesic distance to the nearest landmark so far is largest (the lowest index among ties). Every
    Dijkstra run that measures those distances yields one row of the result, so MaxMin costs no more
    shortest-path searches than random landmarks; it only runs them one at a time. The landmarks
    spread evenly over the graph, which keeps the landmark configuration well conditioned for the
    triangulation [dST04]; random landmarks can leave parts of the manifold uncovered.

    Examples
    --------
    On the path 0 - 1 - 2 - 3 - 4, MaxMin from vertex 4 (the seeded draw) goes to the far end 0,
    then to the middle vertex 2, farthest from both:

    >>> from scipy.sparse import diags_array
    >>> path = diags_array([[1.0] * 4, [1.0] * 4], offsets=[-1, 1]).tocsr()
    >>> indices, geodesics = landmark_geodesics(path, 3, random_state=0)
    >>> indices.tolist()
    [4, 0, 2]
    >>> geodesics[1].tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0]
    """
    if selection not in LANDMARK_SELECTIONS:
        raise EmbeddingError(f"landmark selection must be one of {list(LANDMARK_SELECTIONS)}; got {selection!r}.")
    hooks = RunHooks(label="Landmark Isomap") if hooks is None else hooks
    rng = check_random_state(random_state)
    n_samples = graph.shape[0]
    # Dijkstra spends its time reaching the neighbours of each settled vertex, scattered over memory in
    # sample order. Numbered along a reverse Cuthill-McKee ordering (small bandwidth) they lie close
    # together: each search on the 100 000-point swiss roll ran 1.3-1.7x faster (interleaved timings),
    # for a one-off 30 ms ordering. Distances come back in the original numbering, so nothing else sees
    # the renumbering.
    order = reverse_cuthill_mckee(graph, symmetric_mode=True)
    position = np.empty_like(order)
    position[order] = np.arange(n_samples, dtype=order.dtype)
    renumbered = graph[order][:, order]

    def search(sources):
        # directed=True on the stored symmetric graph: scipy would symmetrize it again on every call.
        return dijkstra(renumbered, directed=True, indices=position[sources])[..., position]

    geodesics = np.empty((n_landmarks, n_samples))
    if selection == "random":
        landmark_indices = rng.choice(n_samples, n_landmarks, replace=False).astype(np.int64)
        for part in chunk_slices(n_landmarks, 16 * n_samples):
            geodesics[part] = search(landmark_indices[part])
            hooks.tick(part.stop / n_landmarks,
                       lambda part=part: {"stage": "geodesics from landmarks", "step": part.stop})
        return landmark_indices, geodesics
    landmark_indices = np.empty(n_landmarks, dtype=np.int64)
    landmark_indices[0] = rng.integers(n_samples)
    nearest_landmark = np.full(n_samples, np.inf)
    for j in range(n_landmarks):
        if j:
            landmark_indices[j] = np.argmax(nearest_landmark)
        geodesics[j] = search(landmark_indices[j])
        np.minimum(nearest_landmark, geodesics[j], out=nearest_landmark)
        hooks.tick(j / n_landmarks, lambda j=j: {"stage": "MaxMin landmarks", "step": j})
    return landmark_indices, geodesics


def triangulate(squared_distances, landmark_indices, landmark_coordinates):
    """Place every point from its squared distances to the landmarks (distance-based triangulation).

    Parameters
    ----------
    squared_distances : ndarray of shape (n_landmarks, n_samples)
        Row j: squared distances from landmark j to every point.
    landmark_indices : ndarray of shape (n_landmarks,)
        Column of each landmark in ``squared_distances``.
    landmark_coordinates : ndarray of shape (n_landmarks, d)
        The classical scaling ``L' = V_d Λ_d^{1/2}`` of the landmark block (centred, orthogonal
        columns), e.g. from :func:`algorithms.isomap.classical_scaling`.

    Returns
    -------
    ndarray of shape (n_samples, d)
        Coordinates in the landmarks' frame; landmark j lands on ``landmark_coordinates[j]``.

    Notes
    -----
    With ``Δ_m`` the m x m squared distances among the landmarks, ``δ_μ`` its mean column and
    ``δ_a`` the squared distances of point a to the landmarks [dST04 Eq. (3)]:

    .. math::

        \\vec y_a = -\\tfrac12 L^{\\#} (\\vec\\delta_a - \\vec\\delta_\\mu), \\qquad
        L^{\\#} = \\begin{pmatrix} \\vec v_1' / \\sqrt{\\lambda_1} \\\\ \\vdots \\\\
        \\vec v_d' / \\sqrt{\\lambda_d} \\end{pmatrix},

    the pseudo-inverse transpose of L. Since ``λ_i = ||L'_{:, i}||²``, ``L^{#'} = L' Λ^{-1}`` is
    read off the coordinates. For a landmark, ``δ_a`` is a column of ``Δ_m`` and the formula
    returns its own coordinates (``B = -½ H Δ_m H`` and ``v_i ⊥ 1``); for a point whose distances
    are Euclidean in d dimensions it is exact; otherwise it is the least-squares placement of
    [dST04 §3.2]. Memory: the (n, d) result beside the input.

    Examples
    --------
    Points in the plane are recovered from their distances to four of them:

    >>> from scipy.spatial.distance import cdist
    >>> from algorithms.isomap import classical_scaling
    >>> points = np.random.default_rng(1).uniform(size=(30, 2))
    >>> landmarks = np.array([0, 1, 2, 3])
    >>> squared = cdist(points[landmarks], points, "sqeuclidean")
    >>> L = classical_scaling(squared[:, landmarks].copy(), 2, 0)
    >>> Y = triangulate(squared, landmarks, L)
    >>> bool(np.allclose(cdist(Y, Y), cdist(points, points), atol=1e-10))
    True
    """
    mean_column = squared_distances[:, landmark_indices].mean(axis=1)  # δ_μ, (m,)
    eigenvalues = np.einsum("md,md->d", landmark_coordinates, landmark_coordinates)
    pseudo_inverse = landmark_coordinates / eigenvalues  # L^#', (m, d)
    return -0.5 * (squared_distances.T @ pseudo_inverse - mean_column @ pseudo_inverse)


def landmark_mds(squared_distances, landmark_indices, n_components, random_state):
    """Landmark multidimensional scaling: classical scaling of the landmarks, triangulation of the rest.

    Parameters
    ----------
    squared_distances : ndarray of shape (n_landmarks, n_samples)
        Squared (geodesic) distances from each landmark to every point.
    landmark_indices : ndarray of shape (n_landmarks,)
        Column of each landmark in ``squared_distances``.
    n_components : int
        d, below ``n_landmarks``.
    random_state : int or numpy.random.Generator
        Seeds the eigensolver's start vector.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        Centred on all points, on their principal axes in decreasing order of spread.

    Raises
    ------
    ConvergenceError, SolverError
        From :func:`algorithms.isomap.classical_scaling` (ARPACK fails; fewer than d positive
        eigenvalues in the landmark block).

    Notes
    -----
    The landmark block is symmetrized (Dijkstra sums a path's edges in either direction, which may
    differ in the last bit), embedded by classical scaling, and all points are triangulated
    (:func:`triangulate`). The result is then centred on all points and rotated onto its principal
    axes, the optional PCA normalisation of [dST04 §3.3]: a rigid motion, which makes the frame that
    of the whole sample rather than of the landmarks; with every point a landmark it changes nothing.
    """
    block = squared_distances[:, landmark_indices]
    block = 0.5 * (block + block.T)
    landmark_coordinates = classical_scaling(block, n_components, random_state)
    Y = triangulate(squared_distances, landmark_indices, landmark_coordinates)
    Y -= Y.mean(axis=0)
    spreads, axes = np.linalg.eigh(Y.T @ Y)  # d x d: the principal axes of all points
    return Y @ axes[:, np.argsort(spreads)[::-1]]


def landmark_isomap(X, neighbors, n_components, random_state, *, n_landmarks=N_LANDMARKS.default,
                    landmark_selection=LANDMARK_SELECTION.default, progress=None, should_stop=None):
    """Landmark Isomap embedding [dST03], the registry's ``fit``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods from :func:`measures.nearest_neighbors`, the point first, of a connected
        graph (:func:`algorithms.embed` checks), without duplicate points.
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds the landmarks, then the eigensolver's start vector.
    n_landmarks : int, default=500
        m; at most n are used (all points: Isomap itself).
    landmark_selection : {"maxmin", "random"}, default="maxmin"
        See :func:`landmark_geodesics`.
    progress, should_stop : callable, optional
        Long-run hooks (:class:`algorithms.longrun.RunHooks`): the fraction of landmarks whose
        geodesics are done; a stop raises :class:`algorithms.Cancelled`.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        At the input's scale (isometric), centred, on its principal axes.

    Raises
    ------
    EmbeddingError
        Fewer landmarks than ``n_components + 1`` (they span at most m - 1 dimensions).

    Notes
    -----
    The graph is Isomap's (:func:`algorithms.isomap.isomap`): each point joined to its k nearest
    neighbours by its Euclidean length, undirected. Geodesics from the m landmarks (Dijkstra, m x n)
    are squared in place and handed to :func:`landmark_mds`. Memory ``8 m n`` bytes (0.4 GB for
    m = 500 at n = 100 000) instead of Isomap's ``8 n²``; time m single-source searches,
    O(m n (k + log n)).

    The default m = 500: on every surface of the catalogue at its default size (swiss roll, swiss
    hole, strip, hemisphere, fishbowl, cylinder, s-curve, gaussian, three peaks; k = 10), R_N is at
    most 3 % above Isomap's (and often below it), and the Procrustes disparity to Isomap's
    embedding is below 3e-4. More landmarks buy little, while time grows like m: 25-35 s at
    n = 100 000 on a shared two-core machine (bench/landmark_isomap.py).

    Examples
    --------
    With every point a landmark, Landmark Isomap is Isomap:

    >>> import algorithms, datasets
    >>> X = datasets.load("swissroll", 300, random_state=0).X
    >>> Y = algorithms.embed("landmark_isomap", X, n_neighbors=8, n_landmarks=300)
    >>> bool(np.allclose(Y, algorithms.embed("isomap", X, n_neighbors=8), atol=1e-8))
    True
    """
    hooks = RunHooks(progress, should_stop, "Landmark Isomap")
    rng = check_random_state(random_state)  # one stream for the landmarks, then the eigensolver
    n_samples = X.shape[0]
    n_landmarks = min(n_landmarks, n_samples)
    if n_landmarks <= n_components:
        raise EmbeddingError(
            f"Landmark Isomap needs more landmarks than output dimensions: m landmarks span at most m - 1; "
            f"got n_landmarks = {n_landmarks} for n_components = {n_components}. Raise n_landmarks.")
    landmark_indices, geodesics = landmark_geodesics(geodesic_graph(X, neighbors, both_directions=True), n_landmarks,
                                                     rng, selection=landmark_selection, hooks=hooks.stage(0.0, 0.95))
    Y = landmark_mds(np.square(geodesics, out=geodesics), landmark_indices, n_components, rng)
    hooks.report(1.0, {"stage": "triangulated", "step": n_landmarks})
    return Y


register(AlgorithmSpec(
    name="landmark_isomap",
    label="Landmark Isomap",
    output="isometric",
    output_scale="isometric",
    parameters=(N_LANDMARKS, LANDMARK_SELECTION),
    fit=landmark_isomap,
    citation="de Silva & Tenenbaum (2003, 2004)",
    description="Isomap from the graph geodesics of m landmarks only: classical scaling of the landmarks, "
                "triangulation of every other point; O(m n) memory, for samples too large for Isomap.",
    reports_progress=True,
    memory_bytes=landmark_isomap_memory_bytes,
    too_large=_too_large,
))
