"""Greedy Procrustes (GP, GR §4.1): embed one neighbourhood at a time by Procrustes fits, then refine.

GP starts from one neighbourhood embedded by its local PCA and grows the embedding greedily: the
unembedded point with the most embedded neighbours is taken next, its embedded neighbours give the
best rigid motion (Procrustes rotation and translation) from input to output, and that motion places
its unembedded neighbours. Every fit is exact where the data are flat, so GP recovers an isometrically
placed flat surface up to a rigid motion; on curved data its errors accumulate where the growing
front meets itself, which GR §4.4's refinement (:mod:`algorithms.refine`) then removes.

References
----------
.. [GR] Y. Goldberg and Y. Ritov, "Local Procrustes for manifold embedding: a measure of embedding
   quality and embedding algorithms", Machine Learning 77 (2009) 1-25.
"""

import heapq
import warnings

import numpy as np

from measures import (
    DisconnectedGraphError,
    ProcrustesLabWarning,
    centred_stack,
    check_random_state,
    procrustes_rotation,
)
from measures.chunks import chunk_slices

from .longrun import RunHooks
from .refine import REFINE_ITERATIONS, REFINE_METHOD, refinement_memory_bytes, refinement_parameters, run_refinement
from .registry import AlgorithmSpec, register

__all__ = ["gp", "greedy_procrustes", "local_pca_bases"]

# The reference set of a step is enlarged (SPEC §2) while its cross-covariance M = X̄c'Ȳc is
# ill-conditioned, sigma_d / sigma_1 < WELL_CONDITIONED, not only while it is rank-deficient: the
# rotation about the reference's thin direction is then fixed by offsets of the size of the surface's
# curvature, and a wrong one mirrors everything embedded from it. On 100 000-point swiss rolls (k = 12)
# a threshold of 1e-3 left GP alone at R_N 0.98 and 4.5 (seeds 1, 2: thousands of folded points);
# 0.3 gives 2e-4 and 5e-5, the truth's level, for ~40% more time.
WELL_CONDITIONED = 0.3
# Below this ratio (or with <= d points) after all rings the rotation is undetermined: counted and warned.
RANK_TOLERANCE = 1e-8
# Rings of neighbours (2-hop, 3-hop, ...) searched for embedded points before settling for the best fit.
MAX_HOPS = 6


def local_pca_bases(X, neighbors, n_components):
    """Local PCA projection matrices ``P_i`` (GR §4.1-4.2): the top principal axes of each neighbourhood.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_neighbourhoods, k + 1)
        Neighbourhood indices (rows of :func:`measures.nearest_neighbors`).
    n_components : int
        d, the number of axes kept.

    Returns
    -------
    ndarray of shape (n_neighbourhoods, q, n_components)
        Orthonormal columns spanning the top-d principal subspace of ``H X_i``, in decreasing order of
        variance; each column's sign is arbitrary (PSA's alignment allows reflections).

    Notes
    -----
    One batched SVD per chunk of centred stacks, ``H X_i = U S V'``, ``P_i = V[:, :d]``. Where the
    neighbourhood spans fewer than d dimensions (coincident or collinear points) the trailing columns
    are still orthonormal, just not determined by the data.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.c_[np.random.default_rng(0).uniform(size=(50, 2)), np.zeros(50)]
    >>> P = local_pca_bases(X, np.arange(50)[None, :10], 2)
    >>> bool(np.allclose(np.abs(P[0].T @ P[0]), np.eye(2)) and np.allclose(P[0][2], 0))
    True
    """
    n_neighbourhoods, width = neighbors.shape
    q = X.shape[1]
    bases = np.empty((n_neighbourhoods, q, n_components))
    for part in chunk_slices(n_neighbourhoods, 8 * (2 * width * q + q * q)):
        _, _, right = np.linalg.svd(centred_stack(X, neighbors[part]), full_matrices=False)
        if right.shape[1] < n_components:
            # Fewer than d points in a neighbourhood is refused upstream (k >= d); guard the kernel anyway.
            raise ValueError(f"a neighbourhood of {width} points cannot span {n_components} dimensions.")
        bases[part] = np.swapaxes(right[:, :n_components, :], 1, 2)
    return bases


def _reverse_neighbors(neighbors):
    """For each point s, the neighbourhoods (rows other than s's own) that hold s, as CSR lists."""
    n_samples, width = neighbors.shape
    members = neighbors[:, 1:].ravel()
    order = np.argsort(members, kind="stable")
    holders = np.repeat(np.arange(n_samples), width - 1)[order]
    pointers = np.searchsorted(members[order], np.arange(n_samples + 1))
    return holders.tolist(), pointers.tolist()


class _Grower:
    """The state of one GP run: embedded flags, embedded-neighbour counts, the lazy max-heap.

    Python lists, not numpy arrays, hold the per-point bookkeeping: each step touches a dozen
    scalars, where numpy's per-call overhead would dominate.
    """

    def __init__(self, X, neighbors, n_components):
        self.X = X
        self.n_samples = X.shape[0]
        self.d = n_components
        self.neighbors = neighbors
        self.rows = neighbors.tolist()
        self.holders, self.pointers = _reverse_neighbors(neighbors)
        self.embedded = [False] * self.n_samples
        self.count = [0] * self.n_samples  # embedded members of each row, the row's own point excluded
        self.heap = []  # entries (-count, point); stale ones are skipped when popped (lazy deletion)
        self.n_embedded = 0
        self.Y = np.zeros((self.n_samples, n_components))
        self.n_enlarged = 0
        self.n_undetermined = 0

    def mark(self, new):
        """Flag ``new`` as embedded and raise the counts (and heap keys) of the rows holding them."""
        embedded, count, heap, holders, pointers = self.embedded, self.count, self.heap, self.holders, self.pointers
        for point in new:
            embedded[point] = True
        for point in new:
            for row in holders[pointers[point]:pointers[point + 1]]:
                count[row] += 1
                if not embedded[row]:
                    heapq.heappush(heap, (-count[row], row))
        self.n_embedded += len(new)

    def next_row(self):
        """The neighbourhood to embed next: that of the unembedded point with most embedded neighbours.

        When no unembedded point has an embedded neighbour (the kNN graph is directed: an embedded
        point may list an unembedded one that does not list it back), the row of an embedded point
        with unembedded members and the most embedded ones is taken instead (GR §4.1 leaves this out).
        """
        heap, embedded, count = self.heap, self.embedded, self.count
        while heap:
            key, point = heapq.heappop(heap)
            if not embedded[point] and -key == count[point]:
                return self.rows[point]
        done = np.array(embedded)
        candidates = np.flatnonzero(done & ~done[self.neighbors].all(axis=1))
        if candidates.size == 0:
            raise DisconnectedGraphError(
                f"GP embedded {int(done.sum())} of {done.size} points and found no edge to the rest: the "
                "k-nearest-neighbour graph is disconnected. Raise k.", 2)
        best = candidates[np.argmax(np.asarray(count)[candidates])]
        return self.rows[best]

    def _fit(self, reference):
        """Centred reference stacks, their means, and the conditioning sigma_d / sigma_1 of ``X̄c'Ȳc``."""
        X_ref, Y_ref = self.X[reference], self.Y[reference]
        x_mean, y_mean = X_ref.mean(axis=0), Y_ref.mean(axis=0)
        Xc, Yc = X_ref - x_mean, Y_ref - y_mean
        if len(reference) <= self.d:
            return Xc, Yc, x_mean, y_mean, 0.0
        singular = np.linalg.svd(Xc.T @ Yc, compute_uv=False)
        return Xc, Yc, x_mean, y_mean, float(singular[-1] / singular[0]) if singular[0] > 0 else 0.0

    def _enlarged(self, row, reference, fit):
        """SPEC §2's fix: grow the reference set by embedded 2-hop (then 3-hop ...) neighbours.

        Hops follow edges both ways: the embedded points near a point on the front are often those
        that list it as a neighbour, not those it lists. Returns the first well-conditioned fit, or
        the best-conditioned one met.
        """
        seen = set(row)
        frontier = list(row)
        reference = list(reference)
        best = fit
        for _ in range(MAX_HOPS - 1):
            ring = set()
            for point in frontier:
                ring.update(self.rows[point])
                ring.update(self.holders[self.pointers[point]:self.pointers[point + 1]])
            ring -= seen
            if not ring:
                break
            seen |= ring
            frontier = list(ring)
            reference.extend(point for point in frontier if self.embedded[point])
            fit = self._fit(reference)
            if fit[-1] >= WELL_CONDITIONED:
                return fit
            if fit[-1] > best[-1]:
                best = fit
        return best

    def step(self, row):
        """Place the unembedded members of ``row`` by the Procrustes fit of its embedded members."""
        embedded = self.embedded
        reference = [point for point in row if embedded[point]]
        new = [point for point in row if not embedded[point]]
        fit = self._fit(reference)
        if fit[-1] < WELL_CONDITIONED:
            self.n_enlarged += 1
            fit = self._enlarged(row, reference, fit)
            self.n_undetermined += fit[-1] <= RANK_TOLERANCE
        Xc, Yc, x_mean, y_mean, _ = fit
        rotation = procrustes_rotation(Xc, Yc)  # q x d; Yc A' fits Xc, so x -> (x - x_mean) A + y_mean
        self.Y[new] = (self.X[new] - x_mean) @ rotation + y_mean
        self.mark(new)


def greedy_procrustes(X, neighbors, n_components, random_state, *, hooks=None):
    """GP without refinement: the greedy neighbourhood-by-neighbourhood embedding of GR §4.1.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods, point first, of a weakly connected kNN graph (:func:`algorithms.embed` checks).
    n_components : int
        d, with ``k >= d``.
    random_state : int or numpy.random.Generator
        Picks the first neighbourhood.
    hooks : RunHooks, optional
        Progress (``stage="gp"``, ``step``, ``embedded``) and cancellation.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        At the input's scale (isometric).

    Warns
    -----
    ProcrustesLabWarning
        If some rotations stayed undetermined (rank < d) even after enlarging the reference set
        (data of intrinsic dimension below d); their count is in the message.

    Notes
    -----
    Step 3 of GR §4.1 picks ``j = argmax_{p not embedded} |N(p) ∩ N|`` from a lazy max-heap keyed by
    the number of embedded neighbours; the rotation ``A_j = UV'`` from the SVD of ``X̄c' Ȳc`` (q x d)
    and ``b_j`` map the unembedded members, ``Ỹ = X̃ A_j + b_j``. GR omit the case of fewer than
    d + 1 embedded neighbours, or of a rank-deficient set, where ``A_j`` is undetermined; SPEC §2
    enlarges the reference set with embedded 2-hop neighbours, which makes GP exact on a flat strip.
    We enlarge (up to ``MAX_HOPS`` rings) also while the set is merely ill-conditioned
    (``sigma_d / sigma_1 < WELL_CONDITIONED`` for ``X̄c'Ȳc``): on curved data a thin reference set
    lets curvature choose a mirrored rotation (see ``WELL_CONDITIONED``).
    The first neighbourhood is ``Y_i = H X_i P_i`` with P_i its local PCA basis.

    Examples
    --------
    A flat strip placed isometrically in R^5 is recovered up to a rigid motion:

    >>> import numpy as np
    >>> from measures import nearest_neighbors, procrustes
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.uniform(size=(400, 2)) * [6.0, 1.0]
    >>> X = Z @ np.linalg.qr(rng.normal(size=(5, 2)))[0].T
    >>> Y = greedy_procrustes(X, nearest_neighbors(X, 8), 2, random_state=0)
    >>> procrustes(X, Y, 8) < 1e-10
    True
    """
    hooks = hooks if hooks is not None else RunHooks(label="GP")
    grower = _Grower(X, neighbors, n_components)
    start = int(check_random_state(random_state).integers(X.shape[0]))
    first = neighbors[start]
    grower.Y[first] = centred_stack(X, first[None])[0] @ local_pca_bases(X, first[None], n_components)[0]
    grower.mark(first.tolist())
    n_samples, steps = X.shape[0], 0
    while grower.n_embedded < n_samples:
        grower.step(grower.next_row())
        steps += 1
        hooks.tick(grower.n_embedded / n_samples,
                   lambda steps=steps: {"stage": "gp", "step": steps, "embedded": grower.n_embedded})
    if grower.n_undetermined:
        warnings.warn(f"GP: {grower.n_undetermined} of {steps} Procrustes rotations were undetermined (reference "
                      f"sets of rank < {n_components} even within {MAX_HOPS} hops); the data may have intrinsic "
                      f"dimension below {n_components}. Lower n_components or raise k.",
                      ProcrustesLabWarning, stacklevel=2)
    hooks.report(1.0, {"stage": "gp", "step": steps, "embedded": n_samples})
    return grower.Y


def gp(X, neighbors, n_components, random_state, *, refine_iterations=REFINE_ITERATIONS.default,
       refine_method=REFINE_METHOD.default, progress=None, should_stop=None):
    """Greedy Procrustes followed by Procrustes refinement (GR §4.1 then §4.4), the registry's ``fit``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
    n_components : int
    random_state : int or numpy.random.Generator
    refine_iterations : int
        Refinement sweeps after the greedy pass (0: GP alone).
    refine_method : {"exact", "iterative"}
        Y-step of the refinement (:func:`algorithms.refine.refine`).
    progress, should_stop : callable, optional
        Long-run hooks (:class:`algorithms.longrun.RunHooks`).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
    """
    hooks = RunHooks(progress, should_stop, "GP")
    greedy_share = 0.3 if refine_iterations else 1.0
    Y = greedy_procrustes(X, neighbors, n_components, random_state, hooks=hooks.stage(0.0, greedy_share))
    if refine_iterations:
        Y, _ = run_refinement(X, Y, neighbors, refine_iterations, refine_method, hooks.stage(greedy_share, 1.0))
    return Y


def gp_memory_bytes(n_samples, n_neighbors, n_components, *, refine_iterations=REFINE_ITERATIONS.default, **_):
    """Peak memory of :func:`gp`: the growth's per-point Python lists (rows, reverse neighbourhoods, heap:
    about 400 bytes per neighbourhood entry, measured: 0.7 GB at n = 100 000, k = 12 with refinement),
    then the refinement (:func:`algorithms.refine.refinement_memory_bytes`)."""
    growth = 400 * n_samples * (n_neighbors + 1)
    return growth + (refinement_memory_bytes(n_samples, n_neighbors, n_components) if refine_iterations else 0)


register(AlgorithmSpec(
    name="gp",
    label="Greedy Procrustes",
    output="isometric",
    output_scale="isometric",
    parameters=refinement_parameters(),
    fit=gp,
    reports_progress=True,
    citation="Goldberg & Ritov (2009), §4.1 and §4.4",
    description="Grows the embedding one neighbourhood at a time by Procrustes fits, then refines it to "
                "lower R; exact on flat, isometrically placed data.",
    min_neighbors=lambda n_components: n_components,
    memory_bytes=gp_memory_bytes,
))
