"""One entry point for every quality measure: :func:`evaluate`, sharing neighbour searches and graph sweeps.

The dashboard and the parameter sweeps call this, not the individual functions: it searches the
input's neighbours once (and the output's once, for the rank measures), runs one Dijkstra sweep
for M_G and the residual variance when they share a graph, and returns every requested measure
with its mean, its median (SPEC §0) and its per-point array.
"""

import dataclasses
import types
import warnings

import numpy as np

from .asim import local_asim, truth_match
from .errors import MeasureError, ProcrustesLabError, ProcrustesLabWarning
from .geodesics import _geodesic_sweep, _residual_variance_from_sums, check_connected, geodesic_graph, pivot_sources
from .neighbors import nearest_neighbors
from .nieqa import NIEQA, _global_assessment, _n_landmarks, landmark_graph
from .normalization import collapse_score
from .procrustes import _check_pair, local_pca_procrustes, local_pca_residual, local_procrustes, summarize
from .ranks import (
    _check_rank_neighbors,
    _rank_penalties,
    _shared_neighbours,
    _trustworthiness_from_penalties,
)
from .registry import available, spec

__all__ = ["Evaluation", "evaluate"]

_PROCRUSTES = ("raw", "normalized", "conformal")
_RANKS = ("neighbourhood_agreement", "trustworthiness", "continuity")


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """Result of :func:`evaluate`.

    Attributes
    ----------
    n_neighbors : int
    measures : tuple of str
        The measures computed, in registry order (:func:`measures.available`).
    mean : mapping of str to float
        Per-point measures: mean over the points where defined; global measures: their value
        (NaN where it could not be computed: see ``notes``).
    median : mapping of str to float
        Median of each per-point measure (SPEC §0); global measures have none.
    per_point : mapping of str to ndarray of shape (n_samples,)
        Each per-point measure's values (NaN where undefined).
    n_undefined : mapping of str to int
        Points left out of each per-point measure's mean (neighbourhoods of coincident points).
    nieqa : NIEQA or None
        Landmarks, their MDS configuration and path counts, when ``"nieqa_global"`` was computed.
    notes : tuple of str
        Warnings raised on the way (also issued as ``ProcrustesLabWarning``).
    """

    n_neighbors: int
    measures: tuple
    mean: types.MappingProxyType
    median: types.MappingProxyType
    per_point: types.MappingProxyType
    n_undefined: types.MappingProxyType
    nieqa: NIEQA
    notes: tuple


def _requested(which, truth):
    """The measure names to compute, in registry order, checked against the registry and the truth."""
    if which is None:
        return [name for name in available() if truth is not None or not spec(name).needs_truth]
    if isinstance(which, str):
        which = [which]
    names = {spec(name).name for name in which}  # spec() raises on an unknown name
    missing = [name for name in names if spec(name).needs_truth and truth is None]
    if missing:
        raise MeasureError(f"{', '.join(sorted(missing))} compare with the ground truth; pass truth=... or drop them.")
    return [name for name in available() if name in names]


def _graph_measures(X, Y, neighbors, names, landmark_neighbors, landmark_fraction, random_state, asim_values):
    """M_G and the residual variance, in one Dijkstra sweep when both use the same graph.

    Returns ``({name: value}, nieqa_or_None, failures)``. A measure whose graph cannot carry it
    (disconnected, too few MDS dimensions) gets NaN and its message in ``failures``; the other
    one is still computed.
    """
    values, result, failures = {}, None, []
    n_samples, k = X.shape[0], neighbors.shape[1] - 1
    sources = pivot_sources(n_samples, random_state)
    n_sources = n_samples if sources is None else len(sources)
    rv_graph = None
    if "residual_variance" in names:
        try:
            check_connected(neighbors, "residual variance needs every geodesic distance finite", "Raise n_neighbors.")
            rv_graph = geodesic_graph(X, neighbors)
        except ProcrustesLabError as error:
            failures.append(f"{spec('residual_variance').label} not computed: {error}")
            values["residual_variance"] = np.nan
    if "nieqa_global" in names:
        try:
            n_landmarks = _n_landmarks(n_samples, landmark_fraction, Y.shape[1])
            k_l, landmark_neighbors_ = landmark_graph(X, k, landmark_neighbors, neighbors)
            shared = rv_graph is not None and k_l == k
            graph = rv_graph if shared else geodesic_graph(X, landmark_neighbors_)
            counts, sums = _geodesic_sweep(graph, sources, count_paths=True, output=Y if shared else None)
            if shared:
                values["residual_variance"] = _residual_variance_from_sums(sums)
            value, landmarks, configuration, aligned, importance = _global_assessment(
                Y, graph, counts, n_sources, n_landmarks)
        except ProcrustesLabError as error:
            failures.append(f"{spec('nieqa_global').label} not computed: {error}")
            values["nieqa_global"] = np.nan
        else:
            with warnings.catch_warnings():
                if "asim" in names:  # the per-point ASIM's own summary reports its undefined points
                    warnings.simplefilter("ignore", ProcrustesLabWarning)
                mean, median, _ = summarize(asim_values, "ASIM")
            values["nieqa_global"] = value
            result = NIEQA(local_assessment=mean, local_median=median, global_assessment=value,
                           asim_values=asim_values, landmark_indices=landmarks, landmark_configuration=configuration,
                           aligned_landmark_configuration=aligned, importance=importance, landmark_neighbors=k_l,
                           n_sources=n_sources)
    if rv_graph is not None and "residual_variance" not in values:
        values["residual_variance"] = _residual_variance_from_sums(_geodesic_sweep(rv_graph, sources, output=Y)[1])
    return values, result, failures


def _compute(X, Y, n_neighbors, truth, names, landmark_neighbors, landmark_fraction, random_state):
    """The work of :func:`evaluate`: ``(per_point, values, nieqa_result, failures)``.

    ``values`` holds global measures and the exact means of the rank measures; ``failures`` the
    messages of graph and truth measures that could not be computed (their value is NaN).
    """
    neighbors = nearest_neighbors(X, n_neighbors)
    per_point, values, failures = {}, {}, []
    if any(name in names for name in _PROCRUSTES):
        fit = local_procrustes(X, Y, neighbors)
        per_point.update({name: fit.per_point(name) for name in _PROCRUSTES if name in names})
    if "pca" in names:
        per_point["pca"] = local_pca_procrustes(X, Y, neighbors)
    if "lower_bound" in names:
        per_point["lower_bound"] = local_pca_residual(X, neighbors, Y.shape[1])
    asim_values = local_asim(X, Y, neighbors) if "asim" in names or "nieqa_global" in names else None
    if "asim" in names:
        per_point["asim"] = asim_values
    if any(name in names for name in _RANKS):
        input_neighbors = neighbors[:, 1:]
        output_neighbors = nearest_neighbors(Y, n_neighbors)[:, 1:]
        if "neighbourhood_agreement" in names:
            shared = _shared_neighbours(input_neighbors, output_neighbors)
            per_point["neighbourhood_agreement"] = 1.0 - shared / n_neighbors
            values["neighbourhood_agreement"] = float(1.0 - shared.sum() / (n_neighbors * shared.size))
        for name, reference, own, other in (("trustworthiness", X, input_neighbors, output_neighbors),
                                            ("continuity", Y, output_neighbors, input_neighbors)):
            if name in names:
                values[name], per_point[name] = _trustworthiness_from_penalties(
                    _rank_penalties(reference, own, other), n_neighbors)
    result = None
    if "nieqa_global" in names or "residual_variance" in names:
        graph_values, result, failures = _graph_measures(X, Y, neighbors, names, landmark_neighbors,
                                                         landmark_fraction, random_state, asim_values)
        values.update(graph_values)
    for name, function in (("truth_match", truth_match), ("collapse", collapse_score)):
        if name in names:
            try:
                values[name] = function(truth, Y)
            except ProcrustesLabError as error:
                failures.append(f"{spec(name).label} not computed: {error}")
                values[name] = np.nan
    return per_point, values, result, failures


def evaluate(X, Y, n_neighbors, *, truth=None, which=None, landmark_neighbors=None, landmark_fraction=0.1,
             random_state=0):
    """Compute any subset of the quality measures of an embedding, sharing the expensive steps.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        Input points; neighbourhoods are taken here (SPEC §0).
    Y : array-like of shape (n_samples, d)
        Embedding, ``d <= q``.
    n_neighbors : int
        k, for every measure.
    truth : array-like of shape (n_samples, d_truth), optional
        Ground truth; enables ``truth_match`` (M_t) and ``collapse``.
    which : str or iterable of str, optional
        Names from :func:`measures.available`; by default every measure that can be computed
        (those needing the truth only when it is given).
    landmark_neighbors : None, int or "paper", default=None
        k_l of NIEQA's landmark graph (see :func:`measures.nieqa`).
    landmark_fraction : float, default=0.1
    random_state : int or numpy.random.Generator, default=0
        Pivot sources of the graph sweeps above :data:`measures.geodesics.EXACT_UP_TO` points.

    Returns
    -------
    Evaluation

    Raises
    ------
    MeasureError
        On bad input (shapes, NaN, k), an unknown measure name, or a truth measure without truth.
        Graph and truth measures that cannot be computed on this input (a disconnected graph, a
        truth of other dimension) do not raise: their value is NaN, and the reason is in
        ``notes`` and issued as a ``ProcrustesLabWarning``.

    Notes
    -----
    Work shared between measures: one neighbour search in X (R, R_N, R_C, R_PCA, lower bound,
    ASIM, the rank measures' input side, the graphs of M_RV and of M_G when k_l = k); one in Y
    (neighbourhood agreement, trustworthiness, continuity); one Procrustes kernel pass for R, R_N
    and R_C; one Dijkstra sweep for M_G and M_RV when k_l = k. Each value equals the one of its own
    function (:func:`measures.procrustes`, :func:`measures.nieqa`, :func:`measures.trustworthiness`,
    ...) on the same input.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(300, 2)) * [3.0, 1.0]
    >>> result = evaluate(Z, Z / Z.std(axis=0), 8, which=["normalized", "asim"])
    >>> result.mean["asim"] < 1e-12 < result.mean["normalized"]
    True
    """
    X, Y = _check_pair(X, Y)
    if truth is not None:
        truth, _ = _check_pair(truth, X, ("truth", "X"))
    names = _requested(which, truth)
    if any(name in names for name in _RANKS):
        _check_rank_neighbors(X.shape[0], n_neighbors)
    if "nieqa_global" in names:
        # Bad options raise here; a graph that cannot carry M_G only makes it NaN (below).
        _n_landmarks(X.shape[0], landmark_fraction, Y.shape[1])
        if not (landmark_neighbors is None or landmark_neighbors == "paper" or (
                isinstance(landmark_neighbors, (int, np.integer)) and not isinstance(landmark_neighbors, bool))):
            raise MeasureError(f"landmark_neighbors must be None, an int or 'paper'; got {landmark_neighbors!r}.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ProcrustesLabWarning)
        per_point, values, result, failures = _compute(X, Y, n_neighbors, truth, names, landmark_neighbors,
                                                       landmark_fraction, random_state)
        means, medians, undefined = {}, {}, {}
        for name in names:
            if name in per_point:
                mean, medians[name], undefined[name] = summarize(per_point[name], spec(name).label)
                means[name] = values.get(name, mean)  # trustworthiness keeps scikit-learn's exact expression
            else:
                means[name] = values[name]
    # Re-issue what was caught (with this call as its origin) and keep our own warnings as notes.
    for caught_warning in caught:
        warnings.warn(caught_warning.message, caught_warning.category, stacklevel=2)
    for failure in failures:
        warnings.warn(failure, ProcrustesLabWarning, stacklevel=2)
    notes = tuple(str(w.message) for w in caught if issubclass(w.category, ProcrustesLabWarning)) + tuple(failures)
    return Evaluation(n_neighbors=n_neighbors, measures=tuple(names), mean=types.MappingProxyType(means),
                      median=types.MappingProxyType(medians), per_point=types.MappingProxyType(per_point),
                      n_undefined=types.MappingProxyType(undefined), nieqa=result, notes=notes)
