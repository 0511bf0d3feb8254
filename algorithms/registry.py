"""The algorithm registry: one :class:`AlgorithmSpec` per embedding method.

The dashboard builds its controls from these entries, :func:`algorithms.embed` dispatches through
them, and the common tests run over all of them; adding an algorithm means adding its module and
one entry here.
"""

import dataclasses

from measures.errors import EmbeddingError

__all__ = [
    "OUTPUTS",
    "OUTPUT_SCALES",
    "RESCALE_OPTIONS",
    "AlgorithmSpec",
    "available",
    "register",
    "spec",
    "specs",
]

# What a method aims at (PN §1): keeping distances, or a quadratic form under a normalization
# constraint; t-SNE matches neighbour probabilities and is neither.
OUTPUTS = ("isometric", "normalized", "probabilistic")

# Output-scale conventions of SPEC §2. They decide R_N of normalized-output methods.
OUTPUT_SCALES = {
    "isometric": "distances kept at the input's scale",
    "unit_variance": "each output coordinate centred with unit variance (Roweis' LLE code; PN Eq. 3)",
    "unit_norm": "each output coordinate centred with unit Euclidean norm (Zhang's LTSA code)",
    "diffusion": "diffusion coordinates λ_j^t ψ_j, ψ_j of unit norm under the stationary distribution "
                 "(Coifman & Lafon 2006): Euclidean distance is diffusion distance",
    "tsne": "t-SNE's own coordinates, as its gradient descent leaves them: their scale carries no meaning",
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
    output : {"isometric", "normalized", "probabilistic"}
        Whether the method aims at an isometric embedding, normalizes its output (PN §1), or
        matches neighbour probabilities (t-SNE).
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
        Whether the method builds a k-nearest-neighbour graph (and so needs it connected).
    min_neighbors : callable
        ``min_neighbors(n_components) -> int``, the smallest k the method accepts.
    max_samples : int or None
        Largest n the method is allowed to run on here (a dense n x n step), or None.
    too_few_neighbors : callable or None
        ``too_few_neighbors(n_neighbors, n_components) -> str``: the method's own explanation of a
        k below ``min_neighbors`` (HLLE's bound), used instead of the generic message.
    reports_progress : bool
        Whether ``fit`` takes ``progress(fraction, info)`` and ``should_stop()`` hooks (the long
        runs: GP, PSA), which :func:`algorithms.embed` then forwards.
    dense_bytes : callable or None
        ``dense_bytes(n_samples) -> int``: memory of the method's dense n x n step, stated when
        ``max_samples`` refuses an input.
    alternative : str or None
        Registry name of the method to suggest when ``max_samples`` refuses an input: one that
        gives the same kind of embedding without the dense n x n step (Isomap: Landmark Isomap;
        classical MDS: PCA). Named in the refusal's message and carried by the error.
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
    min_neighbors: object = lambda n_components: 1
    max_samples: int = None
    reports_progress: bool = False
    too_few_neighbors: object = None
    dense_bytes: object = None
    alternative: str = None

    def __post_init__(self):
        if self.output not in OUTPUTS or self.output_scale not in OUTPUT_SCALES:
            raise ValueError(f"bad output metadata for {self.name!r}: {self.output!r}, {self.output_scale!r}")


_REGISTRY = {}


def register(entry):
    """Add ``entry`` (an :class:`AlgorithmSpec`) to the registry; names are unique."""
    if entry.name in _REGISTRY:
        raise ValueError(f"algorithm {entry.name!r} is registered twice")
    _REGISTRY[entry.name] = entry
    return entry


def spec(name):
    """The :class:`AlgorithmSpec` registered as ``name``; EmbeddingError listing the names otherwise."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise EmbeddingError(f"unknown algorithm {name!r}; available: {', '.join(available())}.") from None


def specs():
    """All registered algorithm specs, in registration order."""
    return list(_REGISTRY.values())


def available():
    """Names of all registered algorithms."""
    return list(_REGISTRY)
