"""One run of the pipeline (data set → algorithm → measures) as plain data, for callbacks and jobs.

No Dash here: a request is a JSON-able dict, a result a dict of arrays and scalars, so a background
job can compute it in another process and the result cache can store it.
"""

import logging
import time
import warnings

import numpy as np

import algorithms
import datasets
import measures

from .uploads import OPTION_NAMES, UPLOAD, load_upload

logger = logging.getLogger(__name__)

__all__ = [
    "LOCAL_MEASURES",
    "RUN_MEASURES",
    "SUMMARY_MEASURES",
    "align_to_reference",
    "cached_run",
    "compute_run",
    "display_indices",
    "failure_message",
    "make_request",
    "result_summary",
]

# The measures every run computes, in one measures.evaluate call (names of the measure registry).
RUN_MEASURES = ("normalized", "conformal", "lower_bound", "pca", "asim", "nieqa_global", "neighbourhood_agreement",
                "trustworthiness", "continuity", "residual_variance", "truth_match", "collapse")
# Per-point ones can colour the views.
LOCAL_MEASURES = tuple((name, measures.spec(name).label) for name in RUN_MEASURES if measures.spec(name).per_point)
# Scalar summaries that rank embeddings (the collapse score has no better direction): sweeps and bars.
SUMMARY_MEASURES = tuple((name, measures.spec(name).label) for name in RUN_MEASURES
                         if measures.spec(name).lower_is_better is not None)
# Measures whose cost grows with the square of n (ranks over all pairs, graph geodesics): above
# QUADRATIC_UP_TO points a run reports them as not computed (None) rather than take many minutes.
QUADRATIC_MEASURES = ("nieqa_global", "trustworthiness", "continuity", "residual_variance")
QUADRATIC_UP_TO = 20_000
# Inputs of more dimensions are drawn by their first three principal components.
DRAWN_INPUT_DIMENSIONS = 3
# Points drawn per view: WebGL draws 10^5 points, but the page would download every drawn value
# (coordinates and hover columns, ~1 MB per 10^4 points) on each run. Measures always use every point.
DISPLAY_CAP = 20_000


def make_request(dataset, n, noise, seed, dataset_params, algorithm, n_neighbors, algorithm_params,
                 output_scale="authors", refine_iterations=0, upload=None):
    """A canonical run request: plain values, every declared parameter filled in, names sorted.

    Parameters are validated against their registry declarations (an emptied number box, None,
    becomes the default), so a request that omits a default equals one that names it and both share
    one cache entry: a sweep cell and the explore run of the same settings are one computation.
    Floats stay floats, so a request that went through JSON (where 0.0 may come back as 0) is
    rebuilt to the same key by ``make_request(**request)``.

    An uploaded file is the data set :data:`components.uploads.UPLOAD`; ``upload`` then names it
    (``sha256``, ``filename``) with the parser options, and every row is used (no n, no noise).

    Raises
    ------
    DatasetError, EmbeddingError
        An unknown name or a parameter out of its declared range.
    """
    if dataset == UPLOAD:
        if not upload:
            raise measures.DatasetError("No uploaded file is chosen: upload one, or choose another data set.")
        upload = {key: upload[key] for key in ("sha256", "filename", *OPTION_NAMES)}
        n, noise, dataset_values = None, 0.0, {}
    else:
        upload = None
        dataset_values = measures.validate_parameters(datasets.spec(dataset).parameters, dataset_params, dataset,
                                                      measures.DatasetError)
    algorithm_values = measures.validate_parameters(algorithms.spec(algorithm).parameters, algorithm_params,
                                                    algorithm, measures.EmbeddingError)
    return {
        "dataset": dataset, "n": n, "noise": 0.0 if noise is None else float(noise),
        "seed": 0 if seed is None else seed,
        "dataset_params": dict(sorted(dataset_values.items())), "algorithm": algorithm,
        "n_neighbors": n_neighbors, "algorithm_params": dict(sorted(algorithm_values.items())),
        "output_scale": output_scale or "authors", "refine_iterations": refine_iterations or 0,
        "upload": upload,
    }


def compute_run(request, progress=None, uploads=None):
    """Sample, embed and measure one request.

    Parameters
    ----------
    request : dict
        From :func:`make_request`.
    progress : callable, optional
        ``progress(fraction, stage)``, called before each stage.
    uploads : components.uploads.UploadStore, optional
        Where an uploaded data set's file is (needed only for those).

    Returns
    -------
    dict
        ``X``, ``Y``; ``drawn_X``, the input's first three coordinates or, above three dimensions,
        principal components (``input_axes`` names them); ``truth`` (the colouring when the set has
        none) and ``truth_labels``; per-point ``local`` measures; ``summary``, measure -> [mean,
        median] (median None for a global measure; both None for a measure of
        :data:`QUADRATIC_MEASURES` skipped above :data:`QUADRATIC_UP_TO` points); ``landmarks`` (NIEQA's landmark indices and
        their MDS configuration aligned to the output); ``image_shape``; ``notes`` (warnings);
        ``seconds``.

    Raises
    ------
    measures.ProcrustesLabError
        Whatever the libraries raise for bad input; the caller shows the message.
    """
    report = progress or (lambda fraction, stage: None)
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", measures.ProcrustesLabWarning)
        if request["dataset"] == UPLOAD:
            report(0.05, f"reading {request['upload']['filename']}")
            data = load_upload(uploads, request["upload"], request["n_neighbors"])
            seed = request["seed"]  # seeds the algorithm only: the file is the sample
        else:
            report(0.05, "sampling the data set")
            data = datasets.load(request["dataset"], request["n"], noise=request["noise"], seed=request["seed"],
                                 **request["dataset_params"])
            seed = data.params["seed"]
        label = algorithms.spec(request["algorithm"]).label
        report(0.15, f"embedding with {label}")
        Y = algorithms.embed(request["algorithm"], data.X, n_neighbors=request["n_neighbors"],
                             seed=seed, output_scale=request["output_scale"],
                             post_refinement=request["refine_iterations"],
                             progress=lambda fraction, info: report(0.15 + 0.5 * fraction, _stage(label, info)),
                             **request["algorithm_params"])
        report(0.7, "measuring")
        which = [name for name in RUN_MEASURES if data.truth is not None or not measures.spec(name).needs_truth]
        skipped = [name for name in which if name in QUADRATIC_MEASURES and len(data.X) > QUADRATIC_UP_TO]
        evaluation = measures.evaluate(data.X, Y, request["n_neighbors"], truth=data.truth,
                                       which=[name for name in which if name not in skipped])
        drawn_X, input_axes = _drawn_input(data.X)
    summary = {name: [evaluation.mean[name], evaluation.median.get(name)] for name in evaluation.measures}
    summary.update({name: [None, None] for name in skipped})
    notes = [str(w.message) for w in caught if issubclass(w.category, measures.ProcrustesLabWarning)]
    if skipped:
        notes.append(f"Above {QUADRATIC_UP_TO:,} points {', '.join(measures.spec(name).label for name in skipped)} "
                     "are not computed: their cost grows with the square of n.")
    return {
        "X": data.X, "Y": Y, "drawn_X": drawn_X, "input_axes": input_axes,
        "truth": data.truth if data.truth is not None else data.color[:, None],
        "truth_labels": list(data.truth_labels),
        "local": {name: evaluation.per_point[name] for name, _ in LOCAL_MEASURES if name in evaluation.per_point},
        "summary": summary,
        "landmarks": None if evaluation.nieqa is None else {
            "indices": evaluation.nieqa.landmark_indices,
            "configuration": evaluation.nieqa.aligned_landmark_configuration},
        "image_shape": data.image_shape,
        "notes": notes,
        "seconds": time.perf_counter() - started,
    }


def _stage(label, info):
    """A long algorithm's progress info as one line, e.g. "PSA: anneal, step 400, T 0.12, f 35.1"."""
    names = {"step": "step", "temperature": "T", "energy": "f", "acceptance": "accepted"}
    parts = [f"{short} {info[key]:.3g}" if isinstance(info[key], float) else f"{short} {info[key]}"
             for key, short in names.items() if key in info]
    return f"{label}: {', '.join([str(info.get('stage', 'running')), *parts])}"


def _drawn_input(X):
    """Coordinates to draw the input in 3-D: X itself, or its top principal components above 3-D."""
    if X.shape[1] <= DRAWN_INPUT_DIMENSIONS:
        return X, [f"x{i + 1}" for i in range(X.shape[1])]
    return (algorithms.embed("pca", X, n_neighbors=1, n_components=DRAWN_INPUT_DIMENSIONS),
            [f"PC{i + 1}" for i in range(DRAWN_INPUT_DIMENSIONS)])


def display_indices(n_samples, cap=DISPLAY_CAP, keep=()):
    """The rows a view draws: all of them up to ``cap``, else a seeded uniform subsample plus ``keep``.

    Parameters
    ----------
    n_samples : int
    cap : int
        Most rows drawn (``keep`` may add a few more).
    keep : array-like of int
        Rows always drawn (NIEQA's landmarks, so their overlay has its points).

    Returns
    -------
    ndarray of int or None
        Sorted row indices, or None when every row is drawn. The same for the same arguments: a
        redraw, and the other view, show the same points.

    Examples
    --------
    >>> display_indices(10, cap=20) is None
    True
    >>> rows = display_indices(1000, cap=50, keep=[999])
    >>> len(rows) == len(set(rows)) and 999 in rows and 50 <= len(rows) <= 51
    True
    """
    if n_samples <= cap:
        return None
    drawn = np.random.default_rng(0).choice(n_samples, size=cap, replace=False)
    return np.union1d(drawn, np.asarray(keep, dtype=int))


def failure_message(error):
    """The page's message for an exception: a library error as it is, a bug as a pointer to the log.

    Tracebacks stay in the server log; the page never shows one.
    """
    if isinstance(error, measures.ProcrustesLabError):
        return str(error)
    logger.error("computation failed", exc_info=error)
    return f"Internal error ({type(error).__name__}); the server log has the details."


def cached_run(results, run):
    """The explore run's full result from the cache (all points), or None if it has been evicted."""
    return results.get(make_request(**run["request"]))  # same key after the JSON round trip


def result_summary(result):
    """The scalar part of a result (what a sweep table keeps): measure -> [mean, median], seconds."""
    return {"summary": result["summary"], "seconds": float(result["seconds"])}


def align_to_reference(Y, reference):
    """``Y`` moved by the similarity (rotation, reflection, one scale, shift) that best fits ``reference``.

    For display only: outputs of different algorithms, each in its own arbitrary frame and scale,
    become comparable by eye. No measure changes under a similarity of Y except R_N (scale).

    Parameters
    ----------
    Y : ndarray of shape (n_samples, d)
    reference : ndarray of shape (n_samples, d)
        The ground truth, same dimension.

    Returns
    -------
    ndarray of shape (n_samples, d)
        ``c (Y - mean Y) A' + mean(reference)`` with ``A`` the Procrustes rotation (GR Eq. 1) and
        ``c = tr(A' Rc' Yc) / ||Yc||^2`` the least-squares scale.
    """
    Yc = Y - Y.mean(axis=0)
    Rc = reference - reference.mean(axis=0)
    rotation = measures.procrustes_rotation(Rc, Yc)
    rotated = Yc @ rotation.T
    norm = np.einsum("ij,ij->", Yc, Yc)
    scale = np.einsum("ij,ij->", rotated, Rc) / norm if norm > 0 else 0.0
    return scale * rotated + reference.mean(axis=0)
