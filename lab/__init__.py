"""What the dashboard's pages ask for, without Dash: view states, runs, studies, the cache, files.

Four rooms, each importing only the ones below it (``tests/test_layering.py`` checks it):

- :mod:`lab.store`: :class:`ResultCache` and the one :func:`cache_key`, over the byte stores of
  :mod:`lab.store.stores`; :mod:`lab.store.uploads`: uploaded files, private to their session.
- :mod:`lab.compute`: :class:`RunRequest`, :class:`RunResult` and :func:`compute_run`, one run of
  data set → algorithm → measures, made of a :class:`DataChoice` and a :class:`MethodChoice`
  (:mod:`lab.compute.choices`); :mod:`lab.compute.studies` (:func:`sweep`, :func:`compare`) and
  :mod:`lab.compute.normalization` (:func:`normalization_study`) compute over runs, each from a
  request and a ``progress(fraction, stage)`` callable; :mod:`lab.compute.catalogue`: what the
  pages offer, derived from the registries.
- :mod:`lab.view`: :class:`ViewState`, every control of every tab, validated against the
  registries; :mod:`lab.view.links` and :mod:`lab.view.exports` convert it to and from links and files.
- :mod:`lab.tours`: the papers' figures as tours of view states (:mod:`lab.tours.presets`, imported
  here so that the view state knows their steps).

Usable from a notebook::

    from lab import RunRequest, compute_run
    result = compute_run(RunRequest.create("swissroll", "isomap", n_neighbors=10))
    result.summary["normalized"]  # (mean R_N, median R_N)
"""

from .compute.choices import DataChoice, MethodChoice, StateError, UploadRef
from .compute.normalization import NormalizationRequest, NormalizationResult, normalization_study
from .compute.runs import RunRequest, RunResult, compute_run, failure_message
from .compute.studies import CompareRequest, CompareResult, SweepRequest, SweepResult, compare, sweep
from .store.cache import CODE_VERSION, ResultCache, cache_key
from .store.uploads import UploadStore
from .tours import presets  # noqa: F401 (imported to register the tours' steps with the view state)
from .view.links import from_query, to_query
from .view.state import CompareChoice, DisplayChoice, NormalizationChoice, SweepChoice, ViewState

__all__ = ["CODE_VERSION", "CompareChoice", "CompareRequest", "CompareResult", "DataChoice", "DisplayChoice",
           "MethodChoice", "NormalizationChoice", "NormalizationRequest", "NormalizationResult", "ResultCache",
           "RunRequest", "RunResult", "StateError", "SweepChoice", "SweepRequest", "SweepResult", "UploadRef",
           "UploadStore", "ViewState", "cache_key", "compare", "compute_run", "failure_message", "from_query",
           "normalization_study", "sweep", "to_query"]
