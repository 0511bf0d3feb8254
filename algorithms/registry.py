"""The algorithm registry: one :class:`AlgorithmSpec` per embedding method.

The dashboard builds its controls from these entries, :func:`algorithms.embed` dispatches through
them, and the common tests run over all of them; adding an algorithm means adding its module and
one entry here.
"""

import dataclasses

from measures.errors import EmbeddingError

__all__ = ["AlgorithmSpec", "OUTPUT_SCALES", "register", "spec", "specs", "available"]

# Output-scale conventions of SPEC §2. They decide R_N of normalized-output methods.
OUTPUT_SCALES = {
    "isometric": "distances kept at the input's scale",
    "unit_variance": "each output coordinate centred with unit variance (Roweis' LLE code; PN Eq. 3)",
    "unit_norm": "each output coordinate centred with unit Euclidean norm (Zhang's LTSA code)",
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
    output : {"isometric", "normalized"}
        Whether the method aims at an isometric embedding or normalizes its output (PN §1).
    output_scale : str
        Key of :data:`OUTPUT_SCALES`: the authors' convention, applied to every output.
    parameters : tuple of measures.Parameter
        The method's own tunables (k and d are common to all).
    fit : callable
        ``fit(X, neighbors, n_components, seed, **params) -> Y``; receives validated input and the
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

    def __post_init__(self):
        if self.output not in ("isometric", "normalized") or self.output_scale not in OUTPUT_SCALES:
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
