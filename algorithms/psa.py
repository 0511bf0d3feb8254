"""Procrustes subspaces alignment (PSA, GR §4.2-4.3): align local PCA bases, solve GR Eq. 11, refine.

Each neighbourhood's local PCA basis ``P_i`` (q x d) describes its tangent plane in arbitrary
coordinates. PSA looks for ``O_i`` in O(d) making the aligned bases ``A_i = P_i O_i`` agree between
neighbours (GR Eq. 9), embeds with those fixed rotations by one sparse solve (GR Eq. 11), and then
refines (GR §4.4). The alignment is an O(d) synchronization problem: a spectral relaxation gives a
near-optimal start (SPEC §2, beyond the paper), which the paper's simulated annealing polishes; with
``initialization="random"`` annealing alone does the work, as in the paper.

Annealing sweeps are vectorized: the symmetrised neighbour graph is coloured once (greedily), and all
points of one colour, an independent set, take their Metropolis steps together. Their energy changes
are local (each depends on the neighbours' current bases only), so a colour's simultaneous update
equals the sequential one.

References
----------
.. [GR] Y. Goldberg and Y. Ritov, "Local Procrustes for manifold embedding: a measure of embedding
   quality and embedding algorithms", Machine Learning 77 (2009) 1-25.
.. [SBCB] P. Siarry, G. Berthiau, F. Durbin and J. Haussy, "Enhanced simulated annealing for globally
   minimizing functions of many-continuous variables", ACM Trans. Math. Softw. 23 (1997) 209-228.
.. [S] A. Singer, "Angular synchronization by eigenvectors and semidefinite programming", Appl.
   Comput. Harmon. Anal. 30 (2011) 20-36.
.. [SW] A. Singer and H.-T. Wu, "Vector diffusion maps and the connection Laplacian", Comm. Pure
   Appl. Math. 65 (2012) 1067-1144.
"""

import dataclasses
import math

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh

from measures import Parameter, SolverError, check_random_state, local_rotations, neighbor_graph

from .gp import gp_memory_bytes, greedy_procrustes, local_pca_bases
from .longrun import RunHooks
from .refine import (
    REFINE_ITERATIONS,
    REFINE_METHOD,
    AlignmentSystem,
    embed_from_rotations,
    refinement_memory_bytes,
    refinement_parameters,
    run_refinement,
)
from .registry import AlgorithmSpec, register

__all__ = ["PSA_PARAMETERS", "Alignment", "align_subspaces", "alignment_energy", "psa"]

INITIALIZATION = Parameter(
    "initialization", "Alignment start", "choice", "spectral", choices=("spectral", "gp", "random"),
    help="'spectral': top eigenvectors of the block matrix of tangent transports, rounded to O(d); 'gp': "
         "the rotations of a greedy Procrustes embedding (GR §4.3's example); 'random': uniformly random "
         "O_i, annealing alone. Annealing follows each.")
ANNEALING_STEPS = Parameter(
    "annealing_steps", "Annealing sweeps", "int", 100, low=0, high=100_000,
    help="Metropolis sweeps per annealing run (every point proposes once per sweep); 0 skips annealing.")
COOLING = Parameter(
    "cooling", "Cooling factor", "float", 0.95, low=0.5, high=0.9999,
    help="Geometric cooling: the temperature is multiplied by this after every sweep.")
OUTER_ITERATIONS = Parameter(
    "outer_iterations", "Re-annealing runs", "int", 3, low=1, high=50,
    help="Annealing runs; each after the first re-anneals the points outside the largest aligned cluster.")
ALIGNMENT_THRESHOLD = Parameter(
    "alignment_threshold", "Alignment criterion", "float", 0.5, low=0.01, high=2.0,
    help="Neighbours i, j count as aligned when ||P_i O_i - P_j O_j||_F is below this (the clusters of "
         "GR §4.3's outer iterations).")
PSA_PARAMETERS = (INITIALIZATION, ANNEALING_STEPS, COOLING, OUTER_ITERATIONS, ALIGNMENT_THRESHOLD)

# Outer iterations stop once the largest aligned cluster holds this share of the points ("almost all").
ALMOST_ALL = 0.99
# Initial temperature T0 = <dE+> / -ln(chi0): a share chi0 of the mean uphill proposal of one trial sweep
# is accepted at first. Siarry et al.'s chi0 = 0.5 suits a search from scratch (a random start, and the
# re-annealing of misaligned points). From a near-optimal start (spectral, GP) it heated the swiss roll's
# f from 333 to 6400 and 100 sweeps did not bring it back; so a polish takes the median uphill change
# (most proposals near an optimum are tiny, the mean is set by a few large ones), chi0 = 0.01, and a
# proposal scale that may shrink but never grow.
SEARCH_UPHILL_ACCEPTANCE = 0.5
POLISH_UPHILL_ACCEPTANCE = 0.01
# Proposal scale sigma (the step's rotation angle ~ N(0, sigma²) for d = 2, polar(I + sigma Z) otherwise)
# is adapted per sweep to keep the acceptance rate in this band (Siarry et al.'s step adjustment);
# sigma ~ 1.5 is already close to a uniformly random rotation.
ACCEPTANCE_BAND = (0.2, 0.5)
SIGMA_RANGE = (1e-4, 1.5)
# GR §4.3: "stop if the lowest temperature is reached": a run ends once T < LOWEST_TEMPERATURE * T0
# (uphill moves are then accepted with probability < exp(-1e8) of their initial odds), or after
# ``annealing_steps`` sweeps, whichever comes first.
LOWEST_TEMPERATURE = 1e-8
# ARPACK's convergence tolerance for the spectral start: each Ritz pair's residual ||M v - λ v|| is at most
# this times |λ| = 1, so the start's frames are exact up to about SPECTRAL_TOLERANCE / (1 - λ_{d+1}).
SPECTRAL_TOLERANCE = 1e-10
# Share of proposals composed with a random reflection: PCA signs are arbitrary, so O_i lives in O(d),
# whose two components a continuous rotation step cannot connect.
REFLECTION_RATE = 0.1


def _polar(matrices):
    """Nearest orthogonal matrix (polar factor ``U V'``) of each square matrix in a stack.

    For 2 x 2 matrices a closed form replaces the SVD (a batched 2 x 2 SVD was 45% of an annealing
    sweep): ``M = [[e, -f], [f, e]] + [[g, h], [h, -g]]`` splits M into a scaled rotation and a scaled
    reflection, and the nearest orthogonal matrix is the normalized larger of the two (the rotation
    iff det M = e² + f² - g² - h² > 0). A zero matrix gives the identity.

    Examples
    --------
    >>> import numpy as np
    >>> M = np.random.default_rng(0).normal(size=(5, 2, 2))
    >>> U, _, Vt = np.linalg.svd(M)
    >>> bool(np.allclose(_polar(M), U @ Vt))
    True
    """
    if matrices.shape[-1] != 2:
        left, _, right = np.linalg.svd(matrices)
        return left @ right
    a, b = matrices[..., 0, 0], matrices[..., 0, 1]
    c, d = matrices[..., 1, 0], matrices[..., 1, 1]
    e, f, g, h = (a + d) / 2, (c - b) / 2, (a - d) / 2, (b + c) / 2
    rotation_size, reflection_size = np.hypot(e, f), np.hypot(g, h)
    rotation = rotation_size >= reflection_size
    size = np.where(rotation, rotation_size, reflection_size)
    # Only the zero matrix has size 0 (both parts vanish); its "nearest" orthogonal matrix is any one.
    size = np.where(size > 0, size, 1.0)
    e = np.where(rotation_size > 0, e, 1.0)
    cos = np.where(rotation, e, g) / size
    sin = np.where(rotation, f, h) / size
    out = np.empty(matrices.shape)
    out[..., 0, 0] = cos
    out[..., 1, 0] = sin
    out[..., 0, 1] = np.where(rotation, -sin, sin)
    out[..., 1, 1] = np.where(rotation, cos, -cos)
    return out


def _greedy_colouring(graph):
    """Colour classes of a symmetric sparse graph, greedily in order of decreasing degree.

    Returns a list of sorted index arrays, each an independent set. Computed once per run; the Python
    loop takes ~0.3 s for 100 000 points at k = 12 (12 colours), small beside annealing.
    """
    n_samples = graph.shape[0]
    indptr, indices = graph.indptr, graph.indices
    order = np.argsort(-np.diff(indptr), kind="stable").tolist()
    adjacency = indices.tolist()
    pointers = indptr.tolist()
    colour = [-1] * n_samples
    for node in order:
        used = {colour[other] for other in adjacency[pointers[node]:pointers[node + 1]]}
        chosen = 0
        while chosen in used:
            chosen += 1
        colour[node] = chosen
    colour = np.array(colour)
    return [np.flatnonzero(colour == c) for c in range(colour.max() + 1)]


def _symmetric_graph(neighbors):
    """The symmetrised kNN graph ``W = S + S'`` (no self-loops); ``W_ij`` in {1, 2} counts the directed
    edges between i and j, so that sums over its entries equal sums over GR Eq. 9's directed pairs."""
    directed = neighbor_graph(neighbors)
    graph = (directed + directed.T).tocsr()
    graph.sort_indices()
    return graph


class _Field:
    """Per-edge couplings ``w_ij P_i'P_j`` and the gathers that give each point its local field.

    With ``C_ij = P_i'P_j``, ``||P_iO_i - P_jO_j||^2 = 2d - 2 tr(O_i' C_ij O_j)``, so GR Eq. 9 is

    .. math::

        f = \\sum_{(i,j) \\in W} w_{ij} (d - \\mathrm{tr}(O_i' C_{ij} O_j)),

    and the terms holding O_i are ``2 sum_j w_ij (d - tr(O_i' C_ij O_j))``: changing O_i alone changes f
    by ``-2 tr((O_i^new - O_i)' G_i)`` with the local field ``G_i = sum_j w_ij C_ij O_j``.
    """

    def __init__(self, bases, graph):
        self.graph = graph
        rows = np.repeat(np.arange(graph.shape[0]), np.diff(graph.indptr))
        self.rows, self.columns = rows, graph.indices.astype(np.int64)
        self.weights = graph.data.astype(np.float64)
        self.couplings = np.swapaxes(bases[rows], 1, 2) @ bases[self.columns]  # (E, d, d), unweighted
        self.d = bases.shape[2]
        self._coupling_matrix = None

    def block_matrix(self, blocks):
        """The sparse (nd, nd) matrix with the d x d block ``blocks[e]`` at edge e's (row, column)."""
        d, n_samples = self.d, self.graph.shape[0]
        offsets = np.arange(d)
        rows = (self.rows[:, None, None] * d + offsets[None, :, None]).repeat(d, axis=2)
        columns = (self.columns[:, None, None] * d + offsets[None, None, :]).repeat(d, axis=1)
        return csr_array((blocks.ravel(), (rows.ravel(), columns.ravel())), shape=(n_samples * d, n_samples * d))

    def gather(self, nodes):
        """The rows of ``[w_ij C_ij]`` for ``nodes``: times the stacked ``[O_j]`` they give the fields G_i.

        One sparse product per colour class replaces a gather, a batched 2 x 2 matmul and a segment sum
        (3x faster on the swiss roll).
        """
        if self._coupling_matrix is None:
            self._coupling_matrix = self.block_matrix(self.couplings * self.weights[:, None, None])
        return self._coupling_matrix[(nodes[:, None] * self.d + np.arange(self.d)).ravel()]

    def edge_misfit(self, rotations):
        """``||P_iO_i - P_jO_j||_F^2`` for every stored edge (i, j)."""
        traces = np.einsum("eab,eac,ecb->e", rotations[self.rows], self.couplings, rotations[self.columns])
        return 2.0 * self.d - 2.0 * traces

    def energy(self, rotations):
        """GR Eq. 9, ``f = sum_i sum_{j in N(i)} ||P_iO_i - P_jO_j||_F^2`` over the directed kNN pairs."""
        return float(0.5 * np.sum(self.weights * self.edge_misfit(rotations)))


@dataclasses.dataclass(frozen=True)
class Alignment:
    """Result of :func:`align_subspaces`.

    Attributes
    ----------
    rotations : ndarray of shape (n_samples, d, d)
        The ``O_i``; the aligned bases are ``P_i O_i``.
    initial_energy : float
        f (GR Eq. 9) at the start (after the spectral initialisation, if any).
    energy : float
        f of ``rotations`` (the lowest state met; recomputed, not accumulated).
    energy_trace : ndarray
        f after each annealing sweep, all runs concatenated.
    acceptance_trace : ndarray
        Share of accepted proposals in each sweep.
    temperature_trace : ndarray
        Temperature of each sweep.
    cluster_sizes : tuple of int
        Size of the largest aligned cluster after each annealing run.
    """

    rotations: np.ndarray
    initial_energy: float
    energy: float
    energy_trace: np.ndarray
    acceptance_trace: np.ndarray
    temperature_trace: np.ndarray
    cluster_sizes: tuple


class _Annealer:
    """Simulated annealing of GR Eq. 9 over O(d)^n (GR §4.3, after Siarry et al. 1997), sweep-vectorized."""

    def __init__(self, field, classes, rng, hooks):
        self.field, self.classes, self.rng, self.hooks = field, classes, rng, hooks
        self.energies, self.acceptances, self.temperatures = [], [], []

    def _propose(self, current, sigma):
        """``O_i Q`` with a random step Q: a rotation of scale sigma, or a uniform reflection.

        For d = 2, Q is the rotation by an angle ~ N(0, sigma²), or (at REFLECTION_RATE) the
        reflection across a uniformly random axis; in general ``polar(I + sigma Z)`` for a Gaussian Z
        (Stewart's random orthogonal matrix as sigma grows), composed at REFLECTION_RATE with a
        Householder reflection of random axis.
        """
        count, d = current.shape[0], current.shape[1]
        reflect = self.rng.random(count) < REFLECTION_RATE
        if d == 2:
            angle = np.where(reflect, self.rng.uniform(0.0, 2.0 * np.pi, count),
                             sigma * self.rng.standard_normal(count))
            cos, sin = np.cos(angle), np.sin(angle)
            step = np.empty((count, 2, 2))
            step[:, 0, 0], step[:, 1, 0] = cos, sin
            step[:, 0, 1] = np.where(reflect, sin, -sin)
            step[:, 1, 1] = np.where(reflect, -cos, cos)
        else:
            step = _polar(np.eye(d) + sigma * self.rng.standard_normal((count, d, d)))
            axis = self.rng.standard_normal((count, d))
            axis /= np.linalg.norm(axis, axis=1, keepdims=True)
            reflected = step - 2.0 * (step @ axis[:, :, None]) * axis[:, None, :]
            step = np.where(reflect[:, None, None], reflected, step)
        return current @ step

    def _energy_changes(self, rotations, nodes, coupling_rows, sigma):
        """Proposals for ``nodes`` (an independent set) and their exact energy changes."""
        d = rotations.shape[1]
        fields = (coupling_rows @ rotations.reshape(-1, d)).reshape(-1, d, d)
        current = rotations[nodes]
        proposed = self._propose(current, sigma)
        changes = -2.0 * np.einsum("nab,nab->n", proposed - current, fields)
        return proposed, changes

    def initial_temperature(self, rotations, plan, sigma, search):
        """Siarry et al.: ``exp(-<dE+> / T0) = chi0`` over one trial sweep (median dE+ for a polish)."""
        changes = np.concatenate([self._energy_changes(rotations, nodes, gathered, sigma)[1]
                                  for nodes, gathered in plan])
        uphill = changes[changes > 0]
        if uphill.size == 0:
            return 0.0
        if search:
            return float(uphill.mean() / -math.log(SEARCH_UPHILL_ACCEPTANCE))
        return float(np.median(uphill) / -math.log(POLISH_UPHILL_ACCEPTANCE))

    def run(self, rotations, free, steps, cooling, search, progress_span, outer):
        """One annealing run over the points flagged in ``free``; returns the lowest-energy state met.

        ``search`` selects a run from scratch (Siarry's initial temperature) over a polish of a good start.
        """
        plan = []
        for nodes in self.classes:
            nodes = nodes[free[nodes]]
            if nodes.size:
                plan.append((nodes, self.field.gather(nodes)))
        energy = self.field.energy(rotations)
        if not plan or steps == 0:
            return rotations, energy
        n_free = int(free.sum())
        free_edges = free[self.field.rows]
        # Start the step at the typical misfit of the free points' edges: ~1 (Haar-like) from a random
        # start, small from a spectral one, so annealing polishes rather than scrambles it.
        misfit = float(np.mean(self.field.edge_misfit(rotations)[free_edges])) if free_edges.any() else 0.0
        sigma = float(np.clip(math.sqrt(max(misfit, 0.0) / (2 * self.field.d)), *SIGMA_RANGE))
        temperature = self.initial_temperature(rotations, plan, sigma, search)
        largest_sigma = SIGMA_RANGE[1] if search else sigma
        best, best_energy = rotations.copy(), energy
        lowest = LOWEST_TEMPERATURE * temperature
        for step in range(steps):
            if temperature < lowest:
                break
            accepted = 0
            for nodes, gathered in plan:
                proposed, changes = self._energy_changes(rotations, nodes, gathered, sigma)
                # Metropolis: downhill always; uphill with probability exp(-dE / T). (T = 0 only
                # when no trial proposal went uphill; then the run is a descent.)
                if temperature > 0:
                    accept = self.rng.random(changes.size) < np.exp(-np.clip(changes, 0.0, None) / temperature)
                else:
                    accept = changes < 0
                rotations[nodes[accept]] = proposed[accept]
                energy += float(changes[accept].sum())
                accepted += int(accept.sum())
                self.hooks.tick(progress_span[0] + (progress_span[1] - progress_span[0]) * step / steps,
                                lambda step=step, temperature=temperature, energy=energy, accepted=accepted:
                                self._info(outer, step, temperature, energy, accepted / n_free))
            rate = accepted / n_free
            self.energies.append(energy)
            self.acceptances.append(rate)
            self.temperatures.append(temperature)
            if energy < best_energy:
                best, best_energy = rotations.copy(), energy
            if rate > ACCEPTANCE_BAND[1]:
                sigma = min(sigma * 1.25, largest_sigma)
            elif rate < ACCEPTANCE_BAND[0]:
                sigma = max(sigma / 1.25, SIGMA_RANGE[0])
            temperature *= cooling
        self.hooks.report(progress_span[1], self._info(outer, steps, temperature, best_energy, self.acceptances[-1]))
        return best, self.field.energy(best)

    @staticmethod
    def _info(outer, step, temperature, energy, acceptance):
        return {"stage": "anneal", "outer": outer, "step": step, "temperature": temperature,
                "energy": energy, "acceptance": acceptance}


def _spectral_start(field, n_samples, rng, hooks):
    """O(d) synchronization: top-d eigenvectors of the block matrix of the edges' transports, rounded.

    If the aligned bases agreed exactly, ``P_i'P_j O_j = O_i`` on every edge, so the stacked ``[O_i]``
    (nd x d) would be eigenvectors of the block matrix ``[w_ij P_i'P_j]``. The relaxation takes the
    top-d eigenvectors of ``D^-1/2 B D^-1/2`` and rounds each d x d block to its polar factor (Singer
    2011; SPEC §2). The eigenvectors are fixed only up to one global O(d) factor, which changes no
    embedding's quality.

    Each block is the polar factor of ``P_i'P_j`` rather than ``P_i'P_j`` itself (as the connection
    Laplacian of vector diffusion maps, Singer & Wu 2012): on a curved surface ``P_i'P_j`` shrinks the
    direction in which the tangent plane turns (by the cosine of the turn), and with raw blocks that
    shrinkage outweighs the small cost of a slow twist along a long surface. On the 1600-point swiss
    roll (k = 12, seeds 0-2) raw blocks gave starts ten times above the true frames' energy (R_N 0.12 to
    0.27 after GR Eq. 11), orthogonal blocks the true frames' energy (R_N 0.0017 to 0.027, the truth's 0.0017 to 0.022).
    """
    d = field.d
    degrees = np.bincount(field.rows, weights=field.weights, minlength=n_samples)
    scale = 1.0 / np.sqrt(degrees)
    matrix = field.block_matrix(
        _polar(field.couplings) * (field.weights * scale[field.rows] * scale[field.columns])[:, None, None])
    # The top eigenvalue has multiplicity exactly d (M [O_i] Q = lambda [O_i] Q for every Q in O(d)), and
    # Lanczos from one start vector finds one vector per distinct eigenvalue: asked for d at once, ARPACK
    # returned one of the pair and the next eigenvalue (swiss roll, seed 1: a reflection wall across the
    # roll). So the d vectors are found one at a time, each with the previous ones deflated.
    found = np.zeros((n_samples * d, 0))

    def deflated(vector):
        hooks.tick()
        vector = vector - found @ (found.T @ vector)
        product = matrix @ vector
        return product - found @ (found.T @ product)

    for _ in range(d):
        operator = LinearOperator(matrix.shape, matvec=deflated, dtype=np.float64)
        start = rng.uniform(-1.0, 1.0, n_samples * d)
        try:
            _, vector = eigsh(operator, k=1, which="LA", v0=start - found @ (found.T @ start),
                              tol=SPECTRAL_TOLERANCE)
        except ArpackNoConvergence as e:
            raise SolverError(f"PSA's spectral initialisation: ARPACK did not converge for the top {d} "
                              "eigenvectors of the alignment matrix. Use initialization='random' or another k.") from e
        found = np.hstack([found, vector / np.linalg.norm(vector)])
    return _polar(found.reshape(n_samples, d, d))


def alignment_energy(bases, neighbors, rotations):
    """GR Eq. 9, ``f = sum_i sum_{j in N(i)} ||P_iO_i - P_jO_j||_F^2``, by a plain gather (no graph).

    Parameters
    ----------
    bases : ndarray of shape (n_samples, q, d)
        Local bases ``P_i``.
    neighbors : ndarray of shape (n_samples, k + 1)
    rotations : ndarray of shape (n_samples, d, d)

    Returns
    -------
    float
    """
    aligned = bases @ rotations
    return float(np.sum((aligned[:, None] - aligned[neighbors[:, 1:]]) ** 2))


def align_subspaces(bases, neighbors, *, random_state=0, initialization=INITIALIZATION.default,
                    annealing_steps=ANNEALING_STEPS.default, cooling=COOLING.default,
                    outer_iterations=OUTER_ITERATIONS.default, alignment_threshold=ALIGNMENT_THRESHOLD.default,
                    hooks=None):
    """Find ``O_i`` in O(d) minimizing GR Eq. 9 for local bases ``P_i`` (GR §4.3).

    Parameters
    ----------
    bases : ndarray of shape (n_samples, q, d)
        Local PCA bases (:func:`algorithms.gp.local_pca_bases`).
    neighbors : ndarray of shape (n_samples, k + 1)
    random_state : int or numpy.random.Generator
        Seeds the random start or the eigensolver's start vector, and every proposal.
    initialization : {"spectral", "random"} or ndarray of shape (n_samples, d, d)
        The start, or given start rotations (PSA's ``"gp"`` start is built by :func:`psa`).
    annealing_steps, cooling, outer_iterations, alignment_threshold
        As declared in :data:`PSA_PARAMETERS`.
    hooks : RunHooks, optional
        Progress with ``stage``, ``outer``, ``step``, ``temperature``, ``energy``, ``acceptance``.

    Returns
    -------
    Alignment

    Notes
    -----
    Each run (Siarry et al. 1997, as GR §4.3 suggests): proposals ``O_i -> O_i Q`` with Q a random
    rotation of adaptive scale sigma or a random reflection (``_Annealer._propose``); initial temperature from the
    mean uphill change of one trial sweep; geometric
    cooling by ``cooling`` per sweep; sigma adapted per sweep to keep the acceptance rate in
    ``ACCEPTANCE_BAND``; Metropolis acceptance with the local change ``-2 tr((O_new - O_i)' G_i)``. The
    lowest-energy state met is kept, so f never ends above its start. Outer iterations (GR §4.3 step 3):
    the largest cluster of points joined by aligned edges (``||P_iO_i - P_jO_j||_F <
    alignment_threshold``; connected components by graph search) is frozen and the rest re-annealed
    from a fresh temperature, until the cluster holds ``ALMOST_ALL`` of the points.
    """
    hooks = hooks if hooks is not None else RunHooks(label="PSA")
    rng = check_random_state(random_state)
    n_samples, _, d = bases.shape
    graph = _symmetric_graph(neighbors)
    field = _Field(bases, graph)
    if isinstance(initialization, np.ndarray):
        rotations = np.array(initialization, dtype=np.float64)
    elif initialization == "spectral":
        rotations = _spectral_start(field, n_samples, rng, hooks)
    else:
        rotations = _polar(rng.standard_normal((n_samples, d, d)))
    initial_energy = field.energy(rotations)
    hooks.report(0.0, {"stage": "anneal", "outer": 0, "step": 0, "energy": initial_energy})
    annealer = _Annealer(field, _greedy_colouring(graph) if annealing_steps else [], rng, hooks)
    free = np.ones(n_samples, dtype=bool)
    cluster_sizes = []
    for outer in range(outer_iterations if annealing_steps else 0):
        search = outer > 0 or (isinstance(initialization, str) and initialization == "random")
        rotations, _ = annealer.run(rotations, free, annealing_steps, cooling, search,
                                    (outer / outer_iterations, (outer + 1) / outer_iterations), outer)
        aligned = field.edge_misfit(rotations) < alignment_threshold**2
        aligned_graph = csr_array((np.ones(int(aligned.sum())), (field.rows[aligned], field.columns[aligned])),
                                  shape=graph.shape)
        _, labels = connected_components(aligned_graph, directed=False)
        largest = labels == np.argmax(np.bincount(labels))
        cluster_sizes.append(int(largest.sum()))
        if largest.sum() >= ALMOST_ALL * n_samples:
            break
        free = ~largest
    return Alignment(rotations=rotations, initial_energy=initial_energy, energy=field.energy(rotations),
                     energy_trace=np.array(annealer.energies), acceptance_trace=np.array(annealer.acceptances),
                     temperature_trace=np.array(annealer.temperatures), cluster_sizes=tuple(cluster_sizes))


def psa(X, neighbors, n_components, random_state, *, initialization=INITIALIZATION.default,
        annealing_steps=ANNEALING_STEPS.default, cooling=COOLING.default, outer_iterations=OUTER_ITERATIONS.default,
        alignment_threshold=ALIGNMENT_THRESHOLD.default, refine_iterations=REFINE_ITERATIONS.default,
        refine_method=REFINE_METHOD.default, progress=None, should_stop=None):
    """PSA (GR §4.2): local PCA, alignment, GR Eq. 11, refinement; the registry's ``fit``.

    Parameters
    ----------
    X, neighbors, n_components, random_state
        As for every registry ``fit`` (:class:`algorithms.AlgorithmSpec`); ``random_state`` seeds the
        alignment's start and every annealing proposal.
    initialization, annealing_steps, cooling, outer_iterations, alignment_threshold
        Alignment options (:func:`align_subspaces`); ``"gp"`` starts from the rotations of
        :func:`algorithms.gp.greedy_procrustes`.
    refine_iterations, refine_method
        Refinement after the solve (:func:`algorithms.refine.refine`).
    progress, should_stop : callable, optional
        Long-run hooks; a stop raises :class:`algorithms.longrun.Cancelled`.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        At the input's scale (isometric).

    Examples
    --------
    A flat strip in R^5 comes back up to a rigid motion:

    >>> import numpy as np
    >>> from measures import nearest_neighbors, procrustes
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.uniform(size=(300, 2)) * [4.0, 1.0]) @ np.linalg.qr(rng.normal(size=(5, 2)))[0].T
    >>> Y = psa(X, nearest_neighbors(X, 8), 2, random_state=0, refine_iterations=0)
    >>> procrustes(X, Y, 8) < 1e-8
    True
    """
    hooks = RunHooks(progress, should_stop, "PSA")
    rng = check_random_state(random_state)
    bases = local_pca_bases(X, neighbors, n_components)
    hooks.check()
    if initialization == "gp":
        # GR §4.3 step 1: O_i = polar(P_i' A_i) with A_i the Procrustes rotations of GP's embedding.
        greedy = greedy_procrustes(X, neighbors, n_components, rng, hooks=hooks.stage(0.0, 0.05))
        initialization = _polar(np.swapaxes(bases, 1, 2) @ local_rotations(X, greedy, neighbors))
    alignment = align_subspaces(bases, neighbors, random_state=rng, initialization=initialization,
                                annealing_steps=annealing_steps, cooling=cooling, outer_iterations=outer_iterations,
                                alignment_threshold=alignment_threshold, hooks=hooks.stage(0.0, 0.8))
    solve_hooks = hooks.stage(0.8, 0.85)
    system = AlignmentSystem(X, neighbors)  # one factorization for GR Eq. 11 and the refinement
    Y = embed_from_rotations(X, neighbors, bases @ alignment.rotations, hooks=solve_hooks, system=system)
    solve_hooks.report(1.0, {"stage": "solve", "energy": alignment.energy})
    if refine_iterations:
        Y, _ = run_refinement(X, Y, neighbors, refine_iterations, refine_method, hooks.stage(0.85, 1.0), system=system)
    return Y


def psa_memory_bytes(n_samples, n_neighbors, n_components, *, refine_iterations=REFINE_ITERATIONS.default,
                     initialization=INITIALIZATION.default, **_):
    """Peak memory of :func:`psa`: local bases (n q d, q taken as 64 at most), the couplings ``C_ij`` of the
    ~2 n k graph edges (d x d each), their sparse block matrix twice (values and 2 indices), the spectral
    start's Lanczos basis (20 vectors of n d), then the GR Eq. 11 system and its refinement
    (:func:`algorithms.refine.refinement_memory_bytes`); a GP start adds GP's growth."""
    d, edges = n_components, 2 * n_samples * n_neighbors
    alignment = 8 * n_samples * 64 * d + 8 * edges * d * d * 3 + 2 * 16 * edges * d * d + 8 * 20 * n_samples * d
    start = gp_memory_bytes(n_samples, n_neighbors, n_components, refine_iterations=0) \
        if initialization == "gp" else 0
    return alignment + start + refinement_memory_bytes(n_samples, n_neighbors, n_components)


register(AlgorithmSpec(
    name="psa",
    label="Procrustes subspaces alignment",
    output="isometric",
    output_scale="isometric",
    parameters=PSA_PARAMETERS + refinement_parameters(),
    fit=psa,
    reports_progress=True,
    citation="Goldberg & Ritov (2009), §4.2-4.4; spectral start after Singer (2011)",
    description="Aligns the local PCA planes (spectral start, simulated annealing), embeds them by one "
                "sparse solve, then refines to lower R.",
    min_neighbors=lambda n_components: n_components,
    memory_bytes=psa_memory_bytes,
))
