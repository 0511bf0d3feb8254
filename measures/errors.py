"""The one error hierarchy of Procrustes Lab.

Every library error derives from :class:`ProcrustesLabError` and from the builtin that fits it
(``ValueError`` for bad input, ``RuntimeError`` for a numerical method that failed), so callers can
catch either. Messages say what failed, the offending value, the bound and the fix; the dashboard
shows them as they are.

``measures`` is the numerical base of the project (``datasets`` and ``algorithms`` import it, never
the reverse), so the whole hierarchy lives here and the other packages re-export their names.
"""

__all__ = [
    "DatasetError",
    "DimensionError",
    "DisconnectedGraphError",
    "EmbeddingError",
    "MeasureError",
    "ProcrustesLabError",
    "ProcrustesLabWarning",
    "SeedError",
    "SolverError",
]


class ProcrustesLabError(Exception):
    """Base class of every error raised by the Procrustes Lab libraries."""


class MeasureError(ProcrustesLabError, ValueError):
    """A quality measure was given input it cannot be computed on (shapes, NaN, k too large)."""


class DimensionError(MeasureError):
    """An output with more columns than a measure allows (ASIM and the NIEQA measures need d <= q).

    Policy (SPEC §3 note): R, R_N, R_C, R_PCA, the lower bound, the rank measures, the residual
    variance and the distance measures are defined for an output of any dimension; ASIM's P lies
    on the Stiefel manifold St(q, d), which is empty for d > q, so ASIM, M_L, M_G and M_t raise this.
    """


class DatasetError(ProcrustesLabError, ValueError):
    """A data set cannot be built or parsed: unknown name, parameter out of range, bad upload."""


class EmbeddingError(ProcrustesLabError, ValueError):
    """An embedding algorithm cannot run on this input with these parameters."""


class DisconnectedGraphError(EmbeddingError):
    """The k-nearest-neighbour graph has several connected components.

    Attributes
    ----------
    n_components : int
        Number of connected components found.
    """

    def __init__(self, message, n_components):
        super().__init__(message)
        self.n_components = n_components


class SolverError(EmbeddingError, RuntimeError):
    """A numerical solver (eigensolver, factorisation) failed or did not converge."""


class SeedError(ProcrustesLabError, ValueError):
    """A seed that is neither a non-negative int nor a ``numpy.random.Generator``."""


class ProcrustesLabWarning(UserWarning):
    """A recoverable problem (a retried solver, degenerate neighbourhoods left out of a mean)."""
