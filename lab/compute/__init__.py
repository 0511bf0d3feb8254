"""What is computed: runs of data set → algorithm → measures, and the studies over runs (no Dash).

- :mod:`lab.compute.choices`: the run-level choices (:class:`~lab.compute.choices.DataChoice`,
  :class:`~lab.compute.choices.MethodChoice`), validated against the registries;
- :mod:`lab.compute.catalogue`: what the pages offer, derived from the registries;
  :mod:`lab.compute.shapes`: the normalization study's shapes;
- :mod:`lab.compute.runs`: one run; :mod:`lab.compute.studies` (sweep, compare),
  :mod:`lab.compute.normalization`, :mod:`lab.compute.pairs`, :mod:`lab.compute.stability` and
  :mod:`lab.compute.seed_noise`: the studies over runs; :mod:`lab.compute.views`: the arrays the views draw of a run.

Every request is computed by one function, :func:`compute` (:mod:`lab.compute.study`, the study
interface). It imports ``lab.store`` and no higher room.
"""

from .study import REQUESTS, Computed, compute, held, request_from_dict

__all__ = ["REQUESTS", "Computed", "compute", "held", "request_from_dict"]
