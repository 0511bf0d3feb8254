"""One run of the pipeline (data set → algorithm → measures) as plain data, for callbacks and jobs.

No Dash here: a request is a JSON-able dict, a result a dict of arrays and scalars, so a background
job can compute it in another process and the result cache can store it.
"""

import time
import warnings

import numpy as np

import algorithms
import datasets
import measures

__all__ = ["SUMMARY_MEASURES", "align_to_reference", "make_request", "compute_run", "result_summary"]

# Scalar measures of a run: key, label, per-point array key. Mean and median of each (SPEC §0).
SUMMARY_MEASURES = (
    ("normalized", "R_N"),
    ("conformal", "R_C"),
    ("lower_bound", "lower bound"),
)


def make_request(dataset, n, noise, seed, dataset_params, algorithm, n_neighbors, algorithm_params):
    """A canonical run request: plain values, every declared parameter filled in, names sorted.

    Parameters are validated against their registry declarations (an emptied number box, None,
    becomes the default), so a request that omits a default equals one that names it and both share
    one cache entry: a sweep cell and the explore run of the same settings are one computation.

    Raises
    ------
    DatasetError, EmbeddingError
        An unknown name or a parameter out of its declared range.
    """
    dataset_values = measures.validate_parameters(datasets.spec(dataset).parameters, dataset_params, dataset,
                                                  measures.DatasetError)
    algorithm_values = measures.validate_parameters(algorithms.spec(algorithm).parameters, algorithm_params,
                                                    algorithm, measures.EmbeddingError)
    return {
        "dataset": dataset, "n": n, "noise": 0.0 if noise is None else noise, "seed": 0 if seed is None else seed,
        "dataset_params": dict(sorted(dataset_values.items())), "algorithm": algorithm,
        "n_neighbors": n_neighbors, "algorithm_params": dict(sorted(algorithm_values.items())),
    }


def compute_run(request, progress=None):
    """Sample, embed and measure one request.

    Parameters
    ----------
    request : dict
        From :func:`make_request`.
    progress : callable, optional
        ``progress(fraction, stage)``, called before each stage.

    Returns
    -------
    dict
        ``X``, ``Y``, ``truth`` (the colouring when the set has none), ``truth_labels``, per-point
        ``local`` measures, ``summary`` (mean, median per measure), ``notes`` (warnings raised),
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
        report(0.05, "sampling the data set")
        data = datasets.load(request["dataset"], request["n"], noise=request["noise"], seed=request["seed"],
                             **request["dataset_params"])
        report(0.15, f"embedding with {algorithms.spec(request['algorithm']).label}")
        Y = algorithms.embed(request["algorithm"], data.X, n_neighbors=request["n_neighbors"],
                             seed=data.params["seed"], **request["algorithm_params"])
        report(0.85, "measuring")
        neighbors = measures.nearest_neighbors(data.X, request["n_neighbors"])
        local_fit = measures.local_procrustes(data.X, Y, neighbors)
        local = {"normalized": local_fit.normalized, "conformal": local_fit.conformal,
                 "lower_bound": measures.local_pca_residual(data.X, neighbors, Y.shape[1])}
        summary = {key: measures.summarize(local[key], label)[:2] for key, label in SUMMARY_MEASURES}
    return {
        "X": data.X, "Y": Y,
        "truth": data.truth if data.truth is not None else data.color[:, None],
        "truth_labels": list(datasets.spec(request["dataset"]).truth_labels),
        "local": local, "summary": summary,
        "notes": [str(w.message) for w in caught if issubclass(w.category, measures.ProcrustesLabWarning)],
        "seconds": time.perf_counter() - started,
    }


def result_summary(result):
    """The scalar part of a result (what a sweep table keeps): measure -> (mean, median), seconds."""
    return {"summary": {key: [float(v) for v in values] for key, values in result["summary"].items()},
            "seconds": float(result["seconds"])}


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
