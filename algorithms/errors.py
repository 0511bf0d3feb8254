"""Finer embedding errors: one class per diagnostic a user can act on.

They refine :class:`measures.EmbeddingError` and :class:`measures.SolverError` (the project's one
hierarchy lives in :mod:`measures.errors`), so ``except EmbeddingError`` still catches them all and
the dashboard shows their messages as they are. Each message names what failed, the offending
value, the bound and what to try.
"""

from measures.errors import EmbeddingError, SolverError

__all__ = [
    "ConvergenceError",
    "DuplicatePointsError",
    "SampleLimitError",
    "SingularFactorError",
    "TooFewNeighborsError",
    "format_bytes",
]


def format_bytes(size):
    """A memory size for a message, in decimal units.

    >>> format_bytes(8 * 30_000**2)
    '7.2 GB'
    """
    for unit, factor in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= factor:
            return f"{size / factor:.1f} {unit}"
    return f"{int(size)} B"


class TooFewNeighborsError(EmbeddingError):
    """k is below the smallest value the method accepts for this output dimension (HLLE: k > d(d+3)/2).

    Attributes
    ----------
    n_neighbors, minimum : int
        The k given and the smallest k accepted.
    """

    def __init__(self, message, n_neighbors, minimum):
        super().__init__(message)
        self.n_neighbors, self.minimum = n_neighbors, minimum


class DuplicatePointsError(EmbeddingError):
    """The input has repeated rows; coincident points have no local geometry to preserve.

    Attributes
    ----------
    n_duplicates : int
        Rows equal to an earlier row (rows minus distinct rows).
    """

    def __init__(self, message, n_duplicates):
        super().__init__(message)
        self.n_duplicates = n_duplicates


class SampleLimitError(EmbeddingError):
    """The method's memory estimate for this input exceeds the memory budget.

    Attributes
    ----------
    n_samples : int
    max_samples : int or None
        The largest n whose estimate fits the budget at the same k, d and parameters, where known.
    bytes_needed : int or None
        The estimate at ``n_samples``.
    alternative : str or None
        Registry name of a method that fits at this n (the refused entry's ``alternative``), which
        the message names too.
    budget : int or None
        The memory budget (bytes) the estimate was held against.
    """

    def __init__(self, message, n_samples, max_samples=None, bytes_needed=None, alternative=None, *, budget=None):
        super().__init__(message)
        self.n_samples, self.max_samples, self.bytes_needed = n_samples, max_samples, bytes_needed
        self.alternative, self.budget = alternative, budget


class ConvergenceError(SolverError):
    """An iterative eigensolver (ARPACK) stopped before its eigenpairs converged."""


class SingularFactorError(SolverError):
    """The factorisation behind a shift-invert eigensolver was singular and the dense retry failed or was refused."""
