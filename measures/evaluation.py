"""One entry point for every quality measure: :func:`evaluate`, sharing neighbour searches and graph sweeps.

The dashboard and the parameter sweeps call this, not the individual functions: it searches the
input's neighbours once (and the output's once, for the rank measures), runs one Dijkstra sweep
for M_G and the residual variance when they share a graph, and returns every requested measure
with its mean, its median (SPEC §0) and its per-point array.
"""

import dataclasses
import types
import warnings
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .asim import check_dimensions, local_asim, truth_match
from .benchmarks import (
    KNC_NEIGHBORS,
    class_neighbour_preservation,
    distance_correlation_on_a_subset,
    neighbourhood_hit_values,
)
from .coranking import auc_rnx_rows, auc_rnx_values
from .distances import (
    KL_SIGMA,
    columns_approximation,
    distance_spearman_values,
    joined_pair_rows,
    spearman_pair_rows,
    kl_from_sums,
    pair_columns,
    pair_sums,
    spearman_from_rows,
    spearman_sources,
    stress_from_sums,
    triplet_accuracy,
    with_self,
)
from .errors import MeasureError, ProcrustesLabError, ProcrustesLabWarning
from .geodesics import (
    check_connected,
    geodesic_graph,
    geodesic_sweep,
    pivot_sources,
    residual_variance_from_sums,
    sweep_approximation,
)
from .labels import (
    SILHOUETTE_EXACT_UP_TO,
    check_labels,
    label_trust_continuity,
    silhouette,
)
from .neighbors import (
    check_neighbors,
    check_pair,
    nearest_neighbors,
    neighbor_search,
    power_of_two_scaled,
)
from .nieqa import (
    NIEQA,
    SUBSAMPLE_ABOVE,
    assess_globally,
    check_landmark_neighbors,
    landmark_count,
)
from .normalization import collapse_score
from .parameters import check_integer
from .procrustes import (
    local_pca_procrustes,
    local_pca_residual,
    local_procrustes,
    summarize,
)
from .ranks import (
    check_rank_neighbors,
    mrre_values,
    neighbour_sets,
    rank_penalties,
    shared_neighbour_counts,
    trustworthiness_from_penalties,
)
from .registry import available, spec

__all__ = ["Evaluation", "evaluate"]

_PROCRUSTES = ("raw", "normalized", "conformal")
_RANKS = ("neighbourhood_agreement", "trustworthiness", "continuity")
_MRRE = ("mrre_false", "mrre_missing")
_PAIRS = ("stress", "scale_normalized_stress", "kl_divergence")
# Per-point measures computed on a seeded sample of the points above a size (NaN elsewhere, stated in
# the run's approximations): their NaN are no coincident points.
_SAMPLED_ROWS = ("auc_rnx", "silhouette")


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
    approximations : mapping of str to str
        For each measure (or ``"neighbors"``) that was estimated rather than computed exactly, one
        sentence saying how: M_RV and M_G from pivot sources above
        :data:`measures.geodesics.EXACT_UP_TO` points, M_G on a subsample above
        :data:`measures.nieqa.SUBSAMPLE_ABOVE`. Empty when every value is exact.
    """

    n_neighbors: int
    measures: tuple
    mean: types.MappingProxyType
    median: types.MappingProxyType
    per_point: types.MappingProxyType
    n_undefined: types.MappingProxyType
    nieqa: NIEQA
    notes: tuple
    approximations: types.MappingProxyType = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))


def _requested(which, truth, labels, q, d):
    """The measure names to compute, in registry order, and notes on the ones left out by default.

    Measures that need the truth are computed only when it is given; those that need ``d <= q``
    (ASIM's Stiefel P) are left out of the default set, with a note, when the output has more
    columns than the input, and refused with :class:`DimensionError` when asked for by name.
    """
    if which is None:
        names = [name for name in available() if (truth is not None or not spec(name).needs_truth)
                 and (labels is not None or not spec(name).needs_labels)]
        dropped = [name for name in names if spec(name).needs_d_at_most_q and d > q]
        notes = []
        if dropped:
            notes.append(f"{', '.join(spec(name).label for name in dropped)} not computed: the output has more "
                         f"columns (d = {d}) than the input (q = {q}), and ASIM needs d <= q.")
        return [name for name in names if name not in dropped], notes
    if isinstance(which, str):
        which = [which]
    names = {spec(name).name for name in which}  # spec() raises on an unknown name
    missing = [name for name in names if spec(name).needs_truth and truth is None]
    if missing:
        raise MeasureError(f"{', '.join(sorted(missing))} compare with the ground truth; pass truth=... or drop them.")
    unlabelled = [name for name in names if spec(name).needs_labels and labels is None]
    if unlabelled:
        raise MeasureError(f"{', '.join(sorted(unlabelled))} read class labels; pass labels=... or drop them.")
    for name in names:
        if spec(name).needs_d_at_most_q:
            check_dimensions(q, d, spec(name).label)
    return [name for name in available() if name in names], []


def _graph_measures(X, Y, neighbors, names, landmark_neighbors, landmark_fraction, random_state, asim_values,
                    on_rows=None, on_sources=None, on_landmarks=None):
    """M_G and the residual variance, in one Dijkstra sweep when both use the same graph; ``on_rows``
    is handed each batch of that sweep's rows and ``on_sources(done, total)`` told of its sources done
    (:func:`measures.geodesics.geodesic_sweep`), ``on_landmarks(done, total)`` of M_G's landmark
    geodesics as they are computed.

    Returns ``({name: value}, nieqa_or_None, failures, approximations, graph)``, ``graph`` the
    two-way kNN graph of the residual variance (None if not built), which DEMaP reuses. A measure whose graph
    cannot carry it (disconnected, too few MDS dimensions) gets NaN and its message in
    ``failures``; the other one is still computed. ``approximations`` maps a measure to the
    sentence that states what was estimated (pivot sources, a subsample).
    """
    values, result, failures, approximations = {}, None, [], {}
    n_samples, k = X.shape[0], neighbors.shape[1] - 1
    sources = pivot_sources(n_samples, random_state=random_state)
    rv_graph = None
    if "residual_variance" in names:
        try:
            check_connected(neighbors, "residual variance needs every geodesic distance finite", "Raise n_neighbors.")
            rv_graph = geodesic_graph(X, neighbors, both_directions=True)
        except ProcrustesLabError as error:
            failures.append(f"{spec('residual_variance').label} not computed: {error}")
            values["residual_variance"] = np.nan
    if "nieqa_global" in names:
        try:
            shared = rv_graph is not None and n_samples <= SUBSAMPLE_ABOVE and landmark_neighbors in (None, k)
            if shared:
                counts, sums = geodesic_sweep(rv_graph, sources, count_paths=True, output=Y, both_directions=True,
                                              on_rows=on_rows, progress=on_sources)
                values["residual_variance"] = residual_variance_from_sums(sums)
                result = assess_globally(X, Y, k, landmark_neighbors=landmark_neighbors,
                                         landmark_fraction=landmark_fraction, neighbors=neighbors, graph=rv_graph,
                                         counts=counts, sources=sources, progress=on_landmarks)
            else:
                result = assess_globally(X, Y, k, landmark_neighbors=landmark_neighbors,
                                         landmark_fraction=landmark_fraction, random_state=random_state,
                                         neighbors=neighbors, progress=on_landmarks)
        except ProcrustesLabError as error:
            failures.append(f"{spec('nieqa_global').label} not computed: {error}")
            values["nieqa_global"] = np.nan
        else:
            with warnings.catch_warnings():
                if "asim" in names:  # the per-point ASIM's own summary reports its undefined points
                    warnings.simplefilter("ignore", ProcrustesLabWarning)
                mean, median, _ = summarize(asim_values, "ASIM")
            values["nieqa_global"] = result.global_assessment
            result = dataclasses.replace(result, local_assessment=mean, local_median=median, asim_values=asim_values)
            if result.approximation is not None:
                approximations["nieqa_global"] = result.approximation
    if rv_graph is not None and "residual_variance" not in values:
        values["residual_variance"] = residual_variance_from_sums(
            geodesic_sweep(rv_graph, sources, output=Y, both_directions=True, on_rows=on_rows,
                           progress=on_sources)[1])
    if rv_graph is not None and sources is not None:
        approximations["residual_variance"] = sweep_approximation("ρ", n_samples, sources)
    return values, result, failures, approximations, rv_graph


class _SweptSpearmanPairs:
    """DEMaP's pairs, read from the rows of the residual variance's sweep when it visits every source
    DEMaP ranks from (the one Dijkstra of both, where they used to run one each)."""

    def __init__(self, Y, n_samples, random_state):
        self.Y, self.sources = Y, spearman_sources(n_samples, random_state=random_state)
        self.wanted = None if self.sources is None else np.isin(np.arange(n_samples), self.sources)
        self.expected = n_samples if self.sources is None else len(self.sources)
        self.parts, self.seen = [], 0

    def __call__(self, batch, distances):
        if self.wanted is not None:
            chosen = self.wanted[batch]
            batch, distances = batch[chosen], distances[chosen]
        self.parts.append(spearman_pair_rows(batch, distances, self.Y, every_pair_once=self.sources is None))
        self.seen += len(batch)

    def rows(self):
        """``(input, output)`` distances of every pair, or None unless a sweep handed every source's row."""
        if self.seen != self.expected:
            return None
        return joined_pair_rows(self.parts)


def _sweep_reporter(report):
    """``on_sources`` for the graph sweep: reports its sources done (fractions 0.3 to 0.6 of the measures)."""
    report(0.3, "geodesics (M_G, residual variance)")

    def on_sources(done, total):
        report(0.3 + 0.3 * done / total, f"geodesics (M_G, residual variance): {done:,} of {total:,} sources")

    return on_sources


def _peer_measures(X, Y, Y_own, k, names, search, output_search, labels, kl_sigma, random_state, per_point, values,
                   failures, graph, swept=None):
    """The distance and label measures of issue 14, into ``per_point`` and ``values``.

    Returns ``{name: approximation sentence}`` for the ones estimated from samples. ``X`` and ``Y``
    share X's power of two (stress compares their scales); ``Y_own`` has its own. ``swept``: DEMaP's
    pairs gathered by the graph sweep, if it ran.
    """
    approximations = {}
    n_samples = X.shape[0]
    if any(name in names for name in _PAIRS):
        columns = pair_columns(n_samples, random_state=random_state)
        sums = pair_sums(X, Y, columns=columns, sigma=kl_sigma if "kl_divergence" in names else None)
        for name, scale_normalized in (("stress", False), ("scale_normalized_stress", True)):
            if name in names:
                values[name], per_point[name] = stress_from_sums(sums, scale_normalized=scale_normalized)
        if "kl_divergence" in names:
            values["kl_divergence"] = kl_from_sums(with_self(sums, columns))
        sentence = columns_approximation("the pair sums", n_samples, columns)
        if sentence is not None:
            approximations.update({name: sentence for name in _PAIRS if name in names})
    if "distance_spearman" in names:
        try:
            check_connected(search[:, :k + 1], "DEMaP needs every geodesic distance finite", "Raise n_neighbors.")
            sources = spearman_sources(n_samples, random_state=random_state)
            pairs = None if swept is None else swept.rows()
            if pairs is None:
                pairs = distance_spearman_values(X, Y_own, search[:, :k + 1], sources=sources, graph=graph)
            values["distance_spearman"] = spearman_from_rows(*pairs)
            if sources is not None:
                approximations["distance_spearman"] = sweep_approximation("Spearman's ρ", n_samples, sources)
        except ProcrustesLabError as error:
            failures.append(f"{spec('distance_spearman').label} not computed: {error}")
            values["distance_spearman"] = np.nan
    if "mrre_false" in names:
        per_point["mrre_false"] = mrre_values(X, search, output_search, k)
    if "mrre_missing" in names:
        per_point["mrre_missing"] = mrre_values(Y_own, output_search, search, k)
    if "auc_rnx" in names:
        rows = auc_rnx_rows(n_samples, random_state)
        per_point["auc_rnx"] = auc_rnx_values(X, Y_own, rows)
        if rows is not None:
            drawn, per_point["auc_rnx"] = per_point["auc_rnx"], np.full(n_samples, np.nan)
            per_point["auc_rnx"][rows] = drawn
            # The sample mean's standard error, with the finite-population correction of drawing without replacement.
            error = drawn.std(ddof=1) / np.sqrt(rows.size) * np.sqrt(1.0 - rows.size / n_samples)
            approximations["auc_rnx"] = (f"AUC of R_NX from a uniform random sample of {rows.size:,} of the "
                                         f"{n_samples:,} points (each its own exact area; NaN elsewhere): "
                                         f"standard error {error:.1g}.")
    if "shepard" in names:
        sources = spearman_sources(n_samples, random_state=random_state)
        values["shepard"] = spearman_from_rows(*distance_spearman_values(X, Y_own, geodesic=False, sources=sources))
        if sources is not None:
            approximations["shepard"] = (f"Shepard ρ over the pairs (s, j) of {sources.size:,} random points s "
                                         f"({sources.size * (n_samples - 1):,} of the {n_samples * (n_samples - 1):,} "
                                         "ordered pairs), not all pairs.")
    if "cpd" in names:
        values["cpd"] = distance_correlation_on_a_subset(X, Y_own, random_state=random_state)
    if "triplet_accuracy" in names:
        values["triplet_accuracy"], per_point["triplet_accuracy"] = triplet_accuracy(
            X, Y_own, per_point=True, random_state=random_state)
    if "label_trustworthiness" in names or "label_continuity" in names:
        trust, continuity = label_trust_continuity(X, Y_own, labels)
        values.update({"label_trustworthiness": trust, "label_continuity": continuity})
    if "neighbourhood_hit" in names:
        per_point["neighbourhood_hit"] = neighbourhood_hit_values(Y_own, labels, k)
    if "class_neighbour_preservation" in names:  # evaluate refuses labels of fewer than two classes
        values["class_neighbour_preservation"] = class_neighbour_preservation(
            X, Y_own, labels, min(KNC_NEIGHBORS, np.unique(labels).size - 1))
    if "silhouette" in names:
        values["silhouette"], per_point["silhouette"] = silhouette(Y_own, labels, per_point=True,
                                                                   random_state=random_state)
        if n_samples > SILHOUETTE_EXACT_UP_TO:
            approximations["silhouette"] = (f"silhouette on a uniform random sample of {SILHOUETTE_EXACT_UP_TO:,} "
                                            f"of the {n_samples:,} points (NaN elsewhere), not all points.")
    return approximations


def _ranked(names):
    """Whether trustworthiness or continuity is asked for: they read one neighbour more of X."""
    return "trustworthiness" in names or "continuity" in names


def _search(X, n_neighbors, names, neighbors, neighbor_method, random_state):
    """The input's neighbour search shared by every measure: ``(search, approximation)``.

    ``search`` has ``k + 1`` columns, or ``k + 2`` for the rank measures; it is the caller's
    ``neighbors`` when given (validated), None when no requested measure uses neighbourhoods.
    ``approximation`` states an approximate search (:func:`measures.neighbors.neighbor_search`).
    """
    n_samples = X.shape[0]
    if not any(spec(name).uses_neighbors for name in names):
        return None, None
    if neighbors is not None:
        neighbors = np.asarray(neighbors)
        wide = neighbors.ndim == 2 and neighbors.shape[1] >= n_neighbors + 2 and _ranked(names)
        return check_neighbors(neighbors, n_samples, n_neighbors + 1 if wide else n_neighbors), None
    extra = _ranked(names) and n_neighbors + 1 <= n_samples - 1
    found = neighbor_search(X, n_neighbors + 1 if extra else n_neighbors, method=neighbor_method,
                            random_state=random_state)
    return found.neighbors, found.description


def _forward_only(report):
    """``report`` with a fraction that never goes back: where M_G runs its own sweep and landmarks (another
    k_l, a subsample) before the residual variance's sweep, the bar stays where it was."""
    furthest = 0.0

    def forward(fraction, stage):
        nonlocal furthest
        furthest = max(furthest, fraction)
        report(furthest, stage)

    return forward


def _compute(X, Y, n_neighbors, truth, names, landmark_neighbors, landmark_fraction, random_state, neighbors,
             neighbor_method, labels, kl_sigma, report, publish):
    """The work of :func:`evaluate`: ``(per_point, values, nieqa_result, failures, approximations)``.

    ``X`` and ``Y`` come scaled by one power of two (X's); ``values`` holds global measures and the
    exact means of the rank measures; ``failures`` the messages of graph and truth measures that
    could not be computed (their value is NaN). ``report(fraction, stage)``: see :func:`evaluate`'s ``progress``.
    ``publish(per_point, values)`` after each group but the last, cheapest groups first: local Procrustes
    and ASIM, the ranks, the truth's measures, the graph sweep, then the distance measures.
    """
    k = n_neighbors
    report = _forward_only(report)
    report(0.0, "neighbours and local Procrustes")
    search, searched_approximately = _search(X, k, names, neighbors, neighbor_method, random_state)
    neighbors = None if search is None else search[:, :k + 1]
    # Y by its own power of two where only Y's shape matters (every measure but R, R_N, R_PCA).
    Y_own, _ = power_of_two_scaled(Y)
    per_point, values, failures = {}, {}, []
    if any(name in names for name in _PROCRUSTES):
        fit = local_procrustes(X, Y, neighbors)
        per_point.update({name: fit.per_point(name) for name in _PROCRUSTES if name in names})
    if "pca" in names:
        per_point["pca"] = local_pca_procrustes(X, Y, neighbors)
    if "lower_bound" in names:
        per_point["lower_bound"] = local_pca_residual(X, neighbors, Y.shape[1])
    if "asim" in names or "nieqa_global" in names:
        report(0.1, "ASIM")
    asim_values = local_asim(X, Y_own, neighbors) if "asim" in names or "nieqa_global" in names else None
    if "asim" in names:
        per_point["asim"] = asim_values
    output_search = None
    if any(name in names for name in _RANKS + _MRRE):
        report(0.15, "neighbour ranks (trustworthiness, continuity)")
        output_search = nearest_neighbors(Y_own, k + 1)
        output_sets = output_search[:, 1:k + 1]
        if "neighbourhood_agreement" in names:
            shared = shared_neighbour_counts(neighbors[:, 1:], output_sets)
            per_point["neighbourhood_agreement"] = 1.0 - shared / k
            values["neighbourhood_agreement"] = float(1.0 - shared.sum() / (k * shared.size))
        if "trustworthiness" in names:
            values["trustworthiness"], per_point["trustworthiness"] = trustworthiness_from_penalties(
                rank_penalties(X, search, neighbour_sets(Y_own, output_search, k)), k)
        if "continuity" in names:
            values["continuity"], per_point["continuity"] = trustworthiness_from_penalties(
                rank_penalties(Y_own, output_search, neighbour_sets(X, search, k)), k)
    publish(per_point, values)
    for name, function in (("truth_match", truth_match), ("collapse", collapse_score)):
        if name in names:
            report(0.2, "the truth's measures (M_t, collapse)")
            try:
                values[name] = function(truth, Y_own)
            except ProcrustesLabError as error:
                failures.append(f"{spec(name).label} not computed: {error}")
                values[name] = np.nan
    if "truth_match" in names or "collapse" in names:
        publish(per_point, values)
    result, approximations, graph = None, {}, None
    # DEMaP reads the sweep's rows when the sweep visits every vertex (pivot_sources None).
    swept = (_SweptSpearmanPairs(Y_own, X.shape[0], random_state)
             if "distance_spearman" in names and pivot_sources(X.shape[0], random_state=random_state) is None else None)
    if "nieqa_global" in names or "residual_variance" in names:
        graph_values, result, graph_failures, approximations, graph = _graph_measures(
            X, Y_own, neighbors, names, landmark_neighbors, landmark_fraction, random_state, asim_values, swept,
            _sweep_reporter(report),
            lambda done, total: report(0.6 + 0.15 * done / total,
                                       f"landmark geodesics (M_G): {done:,} of {total:,} landmarks"))
        values.update(graph_values)
        failures += graph_failures
        publish(per_point, values)
    if searched_approximately is not None:
        approximations["neighbors"] = (f"{searched_approximately} Every measure on input neighbourhoods "
                                       "(all but M_t and the collapse score) reads them.")
    if any(name in names for name in _PAIRS + ("distance_spearman", "triplet_accuracy", "silhouette", "auc_rnx",
                                               "shepard", "cpd")):
        report(0.75, "distances and ranks (stress, DEMaP, AUC R_NX, Shepard, triplets)")
    approximations.update(_peer_measures(X, Y, Y_own, k, names, search, output_search, labels, kl_sigma,
                                         random_state, per_point, values, failures, graph, swept))
    return per_point, values, result, failures, approximations


def _unscaled(per_point, exponent):
    """``per_point`` with R (``raw``, in squared units) back in the units of the caller's X."""
    return {**per_point, "raw": np.ldexp(per_point["raw"], 2 * exponent)} if "raw" in per_point else dict(per_point)


def _summaries(names, per_point, values, *, sampled):
    """``(means, medians, n_undefined)`` of the measures among ``names`` that are computed.

    ``sampled`` names the per-point measures computed on a sample of the points (NaN off it, no warning).
    """
    means, medians, undefined = {}, {}, {}
    for name in names:
        if name in per_point:
            mean, medians[name], undefined[name] = summarize(per_point[name], spec(name).label,
                                                             sampled=name in sampled)
            means[name] = values.get(name, mean)  # trustworthiness keeps scikit-learn's exact expression
        elif name in values:
            means[name] = values[name]
    return means, medians, undefined


def evaluate(X: npt.ArrayLike, Y: npt.ArrayLike, n_neighbors: int, *,
             truth: "npt.ArrayLike | None" = None, which: "str | list[str] | None" = None,
             landmark_neighbors: "int | str | None" = None, landmark_fraction: float = 0.1,
             random_state: "int | np.random.Generator" = 0,
             neighbors: "npt.ArrayLike | None" = None, neighbor_method: str = "auto",
             labels: "npt.ArrayLike | None" = None, kl_sigma: float = KL_SIGMA,
             progress: "Callable[[float, str], None] | None" = None,
             partial: "Callable[[dict, dict, dict], None] | None" = None) -> Evaluation:
    """Compute any subset of the quality measures of an embedding, sharing the expensive steps.

    Parameters
    ----------
    X : array-like of shape (n_samples, q)
        Input points; neighbourhoods are taken here (SPEC §0).
    Y : array-like of shape (n_samples, d)
        Embedding. ``d > q`` is allowed: the measures that need ``d <= q`` (ASIM, M_G) are then
        left out of the default set with a note, and raise :class:`DimensionError` by name.
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
    neighbors : array-like of shape (n_samples, K + 1), optional
        The input's neighbour search, :func:`measures.nearest_neighbors` ``(X, K)`` with
        ``K >= n_neighbors``, made once and shared (e.g. with the algorithm): its first
        ``n_neighbors + 1`` columns are every measure's neighbourhoods (they equal the search
        with ``n_neighbors``). Pass ``K = n_neighbors + 1`` to spare continuity a count of the
        points at each k-th distance (its tie check) and the rank measures most of their ranks. Checked for
        shape, range and the point first.
    progress : callable, optional
        ``progress(fraction, stage)``, fraction from 0 to 1: before each group of measures, and after each
        batch of sources of the graph sweep (its longest step at large n), e.g. ``(0.45, "geodesics (M_G,
        residual variance): 1,000 of 2,000 sources")``.
    partial : callable, optional
        ``partial(mean, median, per_point)``, three dicts over the measures done so far (the values the
        result will hold), cheapest first: after local Procrustes, ASIM and the ranks, after the truth's
        measures and after the graph sweep (M_G, M_RV), when asked for; the distance measures, last, come
        with the result. A reader shows the quick measures while the slow ones run.

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
    DimensionError
        If a measure that needs ``d <= q`` is named in ``which`` and ``d > q``.

    Notes
    -----
    Work shared between measures: one neighbour search in X (R, R_N, R_C, R_PCA, lower bound,
    ASIM, the rank measures' input side, the graphs of M_RV and of M_G when k_l = k), none when no
    requested measure uses neighbourhoods; one in Y (neighbourhood agreement, trustworthiness,
    continuity); one Procrustes kernel pass for R, R_N and R_C; one Dijkstra sweep for M_G and
    M_RV when k_l = k. Each value equals the one of its own function
    (:func:`measures.procrustes`, :func:`measures.nieqa`, :func:`measures.trustworthiness`, ...)
    on the same input. X and Y are first scaled by powers of two (exact), so no value changes when
    both are multiplied by any c from 1e-150 to 1e150 (R, in squared units, by c^2).

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.random.default_rng(0).uniform(size=(300, 2)) * [3.0, 1.0]
    >>> result = evaluate(Z, Z / Z.std(axis=0), 8, which=["normalized", "asim"])
    >>> result.mean["asim"] < 1e-12 < result.mean["normalized"]
    True
    """
    X, Y = check_pair(X, Y)
    if truth is not None:
        truth, _ = check_pair(truth, X, names=("truth", "X"))
    if labels is not None:
        check_labels(labels, X.shape[0])
    k = check_integer(n_neighbors, "n_neighbors", 1, X.shape[0] - 1, error=MeasureError,
                      hint="Choose a smaller k or use more points.")
    names, dropped_notes = _requested(which, truth, labels, X.shape[1], Y.shape[1])
    if "kl_divergence" in names and not (isinstance(kl_sigma, (int, float)) and not isinstance(kl_sigma, bool)
                                         and np.isfinite(kl_sigma) and kl_sigma > 0):
        raise MeasureError(f"kl_sigma must be a positive number; got {kl_sigma!r}.")
    if any(name in names for name in _RANKS):
        check_rank_neighbors(X.shape[0], k)
    if "nieqa_global" in names:
        # Bad options raise here; a graph that cannot carry M_G only makes it NaN (below).
        landmark_count(X.shape[0], landmark_fraction, Y.shape[1])
        check_landmark_neighbors(landmark_neighbors)
    # One power of two for both (exact): R_N compares their scales; R's G is in X's units squared.
    X, exponent = power_of_two_scaled(X)
    Y = np.ldexp(Y, -exponent)

    def publish(per_point, values):
        per_point = _unscaled(per_point, exponent)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ProcrustesLabWarning)  # the final summaries warn, once
            means, medians, _ = _summaries(names, per_point, values, sampled=_SAMPLED_ROWS)
        partial(means, medians, per_point)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ProcrustesLabWarning)
        per_point, values, result, failures, approximations = _compute(
            X, Y, k, truth, names, landmark_neighbors, landmark_fraction, random_state, neighbors, neighbor_method,
            labels, kl_sigma, progress or (lambda fraction, stage: None),
            (lambda per_point, values: None) if partial is None else publish)
        per_point = _unscaled(per_point, exponent)
        if result is not None:
            y_exponent = power_of_two_scaled(Y)[1] + exponent
            result = dataclasses.replace(
                result, landmark_configuration=np.ldexp(result.landmark_configuration, exponent),
                aligned_landmark_configuration=np.ldexp(result.aligned_landmark_configuration, y_exponent))
        means, medians, undefined = _summaries(names, per_point, values,
                                               sampled=[name for name in _SAMPLED_ROWS if name in approximations])
    # Re-issue what was caught (with this call as its origin) and keep our own warnings as notes.
    for caught_warning in caught:
        warnings.warn(caught_warning.message, caught_warning.category, stacklevel=2)
    for failure in failures + dropped_notes:
        warnings.warn(failure, ProcrustesLabWarning, stacklevel=2)
    notes = (tuple(str(w.message) for w in caught if issubclass(w.category, ProcrustesLabWarning))
             + tuple(failures) + tuple(dropped_notes))
    return Evaluation(n_neighbors=k, measures=tuple(names), mean=types.MappingProxyType(means),
                      median=types.MappingProxyType(medians), per_point=types.MappingProxyType(per_point),
                      n_undefined=types.MappingProxyType(undefined), nieqa=result, notes=notes,
                      approximations=types.MappingProxyType(approximations))
