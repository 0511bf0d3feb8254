"""Which measures say the same thing: Spearman's rho between measures across a set of runs.

A sweep or a comparison scores several runs with every measure. Two measures agree when they rank
the runs alike; each is first turned so that higher is better (its registry direction), so that
R_N (an error) and trustworthiness (a score) that both prefer the same runs correlate positively.
"""

import numpy as np
import numpy.typing as npt

from .distances import average_ranks
from .errors import MeasureError
from .registry import spec

__all__ = ["MIN_SHARED_RUNS", "comparable", "measure_agreement"]

# Fewer runs than this give no agreement: two or three points always lie on a monotone curve.
MIN_SHARED_RUNS = 4


def comparable(name: str) -> bool:
    """Whether measure ``name`` can enter :func:`measure_agreement`: it has a better direction and it reads
    the output (R_PCA and the lower bound, of the input alone, rank no runs)."""
    entry = spec(name)
    return entry.higher_is_better is not None and entry.reads_output


def measure_agreement(values: npt.ArrayLike, names) -> np.ndarray:
    """Spearman's rho between every two measures over the runs both were computed on.

    Parameters
    ----------
    values : array-like of shape (n_runs, n_measures)
        Each run's value of each measure, NaN where a run lacks it (a failed or an undefined measure).
    names : sequence of str
        The columns' registry names, each :func:`comparable`: a direction (``higher_is_better`` not
        None), and it reads the output (``reads_output``).

    Returns
    -------
    ndarray of shape (n_measures, n_measures)
        ``rho[i, j]``: the Pearson correlation of the average ranks (ties averaged, as
        :func:`scipy.stats.spearmanr`) of the measures turned so that higher is better, over the runs
        where both are finite. NaN where fewer than :data:`MIN_SHARED_RUNS` runs share them or where one
        of the two is constant over those runs. Symmetric; 1 on the diagonal where defined.

    Raises
    ------
    MeasureError
        For a measure without a direction or of the input alone, or a shape that does not match ``names``.

    Examples
    --------
    R_N (lower is better) and trustworthiness (higher is better) preferring the same runs agree:

    >>> rho = measure_agreement([[0.1, 0.99], [0.3, 0.95], [0.2, 0.97], [0.5, 0.90]],
    ...                         ["normalized", "trustworthiness"])
    >>> float(rho[0, 1])
    1.0
    """
    table = np.array(values, dtype=float, ndmin=2)
    names = list(names)
    if table.ndim != 2 or table.shape[1] != len(names):
        raise MeasureError(f"measure agreement: {len(names)} names for a table of shape {table.shape}.")
    for name in names:
        if not comparable(name):
            entry = spec(name)
            raise MeasureError(f"measure agreement: {entry.label} "
                               f"{'has no better direction' if entry.higher_is_better is None else 'reads no output'}"
                               "; leave it out.")
    turned = table * np.array([1.0 if spec(name).higher_is_better else -1.0 for name in names])
    finite = np.isfinite(turned)
    size = len(names)
    rho = np.full((size, size), np.nan)
    for i in range(size):  # a few dozen measures: pairs, each over its own shared runs
        for j in range(i, size):
            shared = finite[:, i] & finite[:, j]
            if shared.sum() < MIN_SHARED_RUNS:
                continue
            first, second = (average_ranks(turned[shared, column]) for column in (i, j))
            first, second = first - first.mean(), second - second.mean()
            denominator = np.sqrt((first @ first) * (second @ second))
            if denominator > 0.0:
                rho[i, j] = rho[j, i] = float(first @ second / denominator)
    return rho
