"""What the dashboard's pages ask for, without Dash: view states, runs, studies, the cache, files.

- :mod:`lab.state`: :class:`ViewState`, every control of every tab, validated against the
  registries; :mod:`lab.links` and :mod:`lab.exports` convert it to and from links and files.
- :mod:`lab.runs`: :class:`RunRequest`, :class:`RunResult` and :func:`compute_run`, one run of data
  set → algorithm → measures; :mod:`lab.studies` (:func:`sweep`, :func:`compare`) and
  :mod:`lab.normalization` (:func:`normalization_study`) compute over runs, each from a request and a
  ``progress(fraction, stage)`` callable.
- :mod:`lab.cache`: :class:`ResultCache` and the one :func:`cache_key`, over the byte stores of
  :mod:`lab.stores`; :mod:`lab.uploads`: uploaded files, private to their session.
- :mod:`lab.catalogue`: what the pages offer, derived from the registries; :mod:`lab.presets`: the
  papers' figures as view states.

Usable from a notebook::

    from lab import RunRequest, compute_run
    result = compute_run(RunRequest.create("swissroll", "isomap", n_neighbors=10))
    result.summary["normalized"]  # (mean R_N, median R_N)
"""

from .cache import CODE_VERSION, ResultCache, cache_key
from .links import from_query, to_query
from .normalization import NormalizationRequest, NormalizationResult, normalization_study
from .runs import RunRequest, RunResult, compute_run, failure_message
from .state import (CompareChoice, DataChoice, DisplayChoice, MethodChoice, NormalizationChoice, StateError,
                    SweepChoice, UploadRef, ViewState)
from .studies import CompareRequest, CompareResult, SweepRequest, SweepResult, compare, sweep
from .uploads import UploadStore

__all__ = ["CODE_VERSION", "CompareChoice", "CompareRequest", "CompareResult", "DataChoice", "DisplayChoice",
           "MethodChoice", "NormalizationChoice", "NormalizationRequest", "NormalizationResult", "ResultCache",
           "RunRequest", "RunResult", "StateError", "SweepChoice", "SweepRequest", "SweepResult", "UploadRef",
           "UploadStore", "ViewState", "cache_key", "compare", "compute_run", "failure_message", "from_query",
           "normalization_study", "sweep", "to_query"]
