"""What the dashboard's pages ask for, without Dash: view states, runs, studies, the cache, files.

Four rooms, each importing only the ones below it (``tests/test_layering.py`` checks it):

- :mod:`lab.store`: :class:`ResultCache` and the one :func:`cache_key`, over the byte stores of
  :mod:`lab.store.stores`; :mod:`lab.store.uploads`: uploaded files, private to their session.
- :mod:`lab.compute`: one study interface (:mod:`lab.compute.study`): every request (a run, a
  sweep, a comparison, a pair, a stability or normalization study; a tour step in ``lab.tours``)
  declares its ``KIND`` and ``RESULT``, round-trips ``to_dict`` / ``from_dict``, and is computed by
  :func:`lab.compute.compute` through the result cache. :class:`RunRequest` is one run of data set → algorithm →
  measures, made of a :class:`DataChoice` and a :class:`MethodChoice` (:mod:`lab.compute.choices`);
  :mod:`lab.compute.studies`, :mod:`lab.compute.pairs`, :mod:`lab.compute.stability`,
  :mod:`lab.compute.seed_noise` and :mod:`lab.compute.normalization` compute over runs;
  :mod:`lab.compute.catalogue`: what the pages offer, derived from the registries.
- :mod:`lab.view`: :class:`ViewState`, every control of every tab, validated against the
  registries; :mod:`lab.view.links` and :mod:`lab.view.exports` convert it to and from links and files.
- :mod:`lab.tours`: the papers' figures as tours of view states (:mod:`lab.tours.presets`, imported
  here so that the view state knows their steps).

Usable from a notebook::

    from lab import RunRequest
    from lab.compute import compute
    result, _ = compute(RunRequest.create("swissroll", "isomap", n_neighbors=10), cache=None)
    result.summary["normalized"]  # (mean R_N, median R_N)
"""

from .compute.choices import DataChoice, MethodChoice, StateError, UploadRef
from .compute.normalization import NormalizationRequest, NormalizationResult
from .compute.pairs import PairRequest, PairResult
from .compute.runs import RunRequest, RunResult, failure_message
from .compute.seed_noise import SeedNoiseRequest, SeedNoiseResult
from .compute.stability import StabilityRequest, StabilityResult
from .compute.studies import CompareRequest, CompareResult, SweepRequest, SweepResult
from .compute.yardsticks import YardstickRequest, YardstickResult
from .store.cache import CODE_VERSION, ResultCache, cache_key
from .store.uploads import UploadStore
from .tours import presets  # noqa: F401 (imported to register the tours' steps with the view state)
from .view.links import from_query, to_query
from .view.state import CompareChoice, DisplayChoice, NormalizationChoice, SweepChoice, ViewState

__all__ = ["CODE_VERSION", "CompareChoice", "CompareRequest", "CompareResult", "DataChoice", "DisplayChoice",
           "MethodChoice", "NormalizationChoice", "NormalizationRequest", "NormalizationResult",
           "PairRequest", "PairResult", "ResultCache", "RunRequest", "RunResult", "SeedNoiseRequest",
           "SeedNoiseResult", "StabilityRequest", "StabilityResult",
           "StateError", "SweepChoice", "SweepRequest", "SweepResult", "UploadRef", "UploadStore", "ViewState",
           "YardstickRequest", "YardstickResult",
           "cache_key", "failure_message", "from_query", "to_query"]
