"""The algorithm registry: one :class:`AlgorithmSpec` per embedding method.

The dashboard builds its controls from these entries, :func:`algorithms.embed` dispatches through
them, and the common tests run over all of them; adding an algorithm means adding its module and
one entry here.
"""

import dataclasses

from measures.errors import EmbeddingError
from measures.registries import Registry

__all__ = ["MEASURES_TO_READ", "MEMORY_BUDGET", "OUTPUTS", "OUTPUT_SCALES", "RESCALE_OPTIONS", "AlgorithmSpec",
           "available", "memory_budget", "register", "sparse_factor_bytes", "spec", "specs"]

# Peak memory one embedding may take here (bytes). Every entry estimates its own peak for the solver
# it will run (AlgorithmSpec.memory_bytes); an input whose estimate exceeds this is refused before any
# allocation, with the estimate, this budget and an alternative in the message. 4 GB: the 100 000-point
# runs of issue 16 fit (LTSA 1.1 GB measured), and so does Isomap up to ~22 000 points (8 n² bytes).
MEMORY_BUDGET = 4_000_000_000


def memory_budget():
    """The memory budget in force (:data:`MEMORY_BUDGET`, read at call time so that it can be changed)."""
    return MEMORY_BUDGET


def sparse_factor_bytes(n_samples, nonzeros, n_components):
    """Estimated memory of a sparse LU factor (SuperLU, minimum-degree ordering) of an n x n matrix.

    Parameters
    ----------
    n_samples : int
    nonzeros : int
        Stored entries of the matrix factorized.
    n_components : int
        The intrinsic dimension assumed for the graph behind the matrix (the output dimension d).

    Returns
    -------
    int

    Notes
    -----
    Fill-in of a neighbour graph sampled from a d-dimensional manifold grows like that of a d-dimensional
    mesh: on swiss rolls (d = 2, k = 12) the factor held 3.4, 5.5 and 10 times the matrix's entries at
    n = 2 000, 10 000 and 100 000, i.e. 0.56 n^(1/4) (a band for d = 1; faster growth for d = 3). The
    estimate takes ``0.6 n^((d - 1)/4)`` times the entries, at 16 bytes each (value, index and SuperLU's
    supernode bookkeeping). Data whose intrinsic dimension exceeds d fill more than estimated.
    """
    fill = 0.6 * n_samples ** (max(n_components - 1, 0) / 4)
    return int(16 * fill * nonzeros)


# What a method aims at (PN §1): keeping distances, or a quadratic form under a normalization
# constraint; or, like t-SNE, UMAP and PaCMAP, a layout of the kNN graph by attraction between
# neighbours and repulsion between the rest (Böhm, Berens & Kobak, JMLR 23 (2022): one spectrum of
# "neighbour embeddings"), which is neither.
OUTPUTS = ("isometric", "normalized", "neighbour_embedding")

# Output-scale conventions of SPEC §2. They decide R_N of normalized-output methods.
OUTPUT_SCALES = {
    "isometric": "distances kept at the input's scale",
    "unit_variance": "each output coordinate centred with unit variance (Roweis' LLE code; PN Eq. 3)",
    "unit_norm": "each output coordinate centred with unit Euclidean norm (Zhang's LTSA code)",
    "diffusion": "diffusion coordinates λ_j^t ψ_j, ψ_j of unit norm under the stationary distribution "
                 "(Coifman & Lafon 2006): Euclidean distance is diffusion distance",
    "neighbour_embedding": "the optimizer's own coordinates (t-SNE, UMAP, PaCMAP): neither isometric nor "
                           "normalized; the overall scale, cluster sizes and the gaps between clusters carry no "
                           "meaning, so R_N says nothing: read R_C, ASIM, trustworthiness and continuity",
}

# The measures (keys of measures.available()) that judge an output of each convention fairly. R_N (GR
# Eq. 4) compares scales as well as shapes, so it is meaningful only at the input's scale; R_C (Eq. 7)
# allows one scale per neighbourhood, ASIM one per output axis, and the rank measures none at all.
MEASURES_TO_READ = {
    "isometric": ("normalized", "conformal", "asim", "trustworthiness", "continuity"),
    "unit_variance": ("conformal", "asim", "trustworthiness", "continuity"),
    "unit_norm": ("conformal", "asim", "trustworthiness", "continuity"),
    "diffusion": ("conformal", "asim", "trustworthiness", "continuity"),
    "neighbour_embedding": ("conformal", "asim", "trustworthiness", "continuity"),
}

# The "rescale output" choices of :func:`algorithms.embed` (``rescale=``), applied after any
# algorithm; "authors" (or None) keeps the entry's own convention.
RESCALE_OPTIONS = {
    "authors": "the algorithm's authors' convention (its entry's output_scale)",
    "unit_variance": OUTPUT_SCALES["unit_variance"],
    "unit_norm": OUTPUT_SCALES["unit_norm"],
    "best_global_scale": "multiplied by the one factor c > 0 minimizing R_N(X, cY) on the same kNN graph "
                         "(R_C and ASIM do not change)",
}


@dataclasses.dataclass(frozen=True)
class AlgorithmSpec:
    """Metadata and entry function of one embedding algorithm.

    Attributes
    ----------
    name : str
        Registry key, e.g. ``"ltsa"``.
    label : str
        Display name.
    output : {"isometric", "normalized", "neighbour_embedding"}
        Whether the method aims at an isometric embedding, normalizes its output (PN §1), or lays
        out the neighbour graph by attraction and repulsion (t-SNE, UMAP, PaCMAP).
    output_scale : str
        Key of :data:`OUTPUT_SCALES`: the authors' convention, applied to every output.
    parameters : tuple of measures.Parameter
        The method's own tunables (k and d are common to all).
    fit : callable
        ``fit(X, neighbors, n_components, random_state, **params) -> Y``; receives validated input and the
        (n_samples, k + 1) neighbourhoods of :func:`measures.nearest_neighbors` (None when
        ``uses_neighbors`` is False), so the graph is searched once per embedding.
    citation : str
        Where the method comes from.
    description : str
        One sentence for the help text.
    uses_neighbors : bool
        Whether the method builds on the k-nearest-neighbour graph of :func:`measures.nearest_neighbors`
        (then handed to ``fit``).
    requires_connected : bool
        Whether that graph must be connected (a spectral or alignment method cannot place separate
        components relative to each other); :func:`algorithms.embed` refuses a disconnected one.
        UMAP lays out components separately and says False.
    takes_n_neighbors : bool
        Whether ``fit`` receives k as the keyword ``n_neighbors``: a method that searches its own
        neighbours with the user's k (PaCMAP) rather than taking the shared graph.
    min_neighbors : callable
        ``min_neighbors(n_components) -> int``, the smallest k the method accepts.
    memory_bytes : callable
        ``memory_bytes(n_samples, n_neighbors, n_components, **params) -> int``: the method's estimated
        peak memory for this input size with these (validated) parameters, e.g. the chosen
        eigensolver's. :func:`algorithms.embed` refuses an input whose estimate exceeds
        :func:`memory_budget` (:class:`algorithms.SampleLimitError`, naming both and the
        ``alternative``); :meth:`sample_limit` gives the largest n that fits.
    too_few_neighbors : callable or None
        ``too_few_neighbors(n_neighbors, n_components) -> str``: the method's own explanation of a
        k below ``min_neighbors`` (HLLE's bound), used instead of the generic message.
    reports_progress : bool
        Whether ``fit`` takes ``progress(fraction, info)`` and ``should_stop()`` hooks (the long
        runs: GP, PSA), which :func:`algorithms.embed` then forwards.
    too_large : callable or None
        ``too_large(n_samples, n_neighbors, n_components, budget, **params) -> str``: the method's own
        advice when its estimate exceeds the budget (Landmark Isomap: the largest m that fits), used in
        the refusal instead of the generic "use at most N points".
    alternative : str or None
        Registry name of the method to suggest when the memory estimate refuses an input: one that
        gives the same kind of embedding with less memory (Isomap: Landmark Isomap; classical MDS:
        PCA). Named in the refusal's message and carried by the error.
    """

    name: str
    label: str
    output: str
    output_scale: str
    parameters: tuple
    fit: object
    citation: str
    description: str
    uses_neighbors: bool = True
    requires_connected: bool = True
    takes_n_neighbors: bool = False
    min_neighbors: object = lambda n_components: 1
    memory_bytes: object = None
    reports_progress: bool = False
    too_few_neighbors: object = None
    alternative: str = None
    too_large: object = None

    def __post_init__(self):
        if self.output not in OUTPUTS or self.output_scale not in OUTPUT_SCALES:
            raise ValueError(f"bad output metadata for {self.name!r}: {self.output!r}, {self.output_scale!r}")
        if not callable(self.memory_bytes):
            raise TypeError(f"algorithm {self.name!r} has no memory_bytes estimate (a callable)")

    def sample_limit(self, n_neighbors, n_components=2, *, budget=None, **params):
        """The largest n whose :attr:`memory_bytes` estimate fits ``budget`` (default :func:`memory_budget`).

        Parameters
        ----------
        n_neighbors, n_components : int
        budget : int, optional
        **params
            The method's parameters (defaults filled in for those not given).

        Returns
        -------
        int
            At least ``n_neighbors + 1`` is not guaranteed: 0 when even that does not fit.

        Examples
        --------
        >>> import algorithms
        >>> entry = algorithms.spec("isomap")
        >>> limit = entry.sample_limit(12, budget=4 * 10**9)
        >>> entry.memory_bytes(limit, 12, 2) <= 4 * 10**9 < entry.memory_bytes(limit + 1, 12, 2)
        True
        """
        budget = memory_budget() if budget is None else budget
        params = {**{parameter.name: parameter.default for parameter in self.parameters}, **params}

        def fits(n_samples):
            return self.memory_bytes(n_samples, n_neighbors, n_components, **params) <= budget

        low, high = 0, 1
        while fits(high):
            low, high = high, 2 * high
            if high > 10**12:
                return high
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if fits(middle) else (low, middle)
        return low


_ALGORITHMS = Registry("algorithm", EmbeddingError)


def register(entry):
    """Add ``entry`` (an :class:`AlgorithmSpec`) to the registry and return it; names are unique.

    Raises
    ------
    ValueError
        If an algorithm of that name is registered already.
    """
    return _ALGORITHMS.register(entry)


def spec(name):
    """The :class:`AlgorithmSpec` registered as ``name``; EmbeddingError listing the names otherwise."""
    return _ALGORITHMS.spec(name)


def specs():
    """All registered algorithm specs, in registration order."""
    return _ALGORITHMS.specs()


def available():
    """Names of all registered algorithms, in registration order."""
    return _ALGORITHMS.available()
