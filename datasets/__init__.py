"""Data sets with known ground truth for comparing manifold embeddings (SPEC §1).

Public API: :func:`load` draws a seeded sample as a :class:`Dataset` (input points, ground-truth
chart, a plot colouring and the parameters used); :func:`available`, :func:`spec` and :func:`specs`
expose the registry's :class:`DatasetSpec` metadata from which the dashboard builds its controls;
:class:`DatasetError` (from :mod:`measures.errors`) is raised for every bad request.
No module here imports dash or plotly.
"""

from measures.errors import DatasetError

from .registry import Dataset, DatasetSpec, available, load, spec, specs

__all__ = ["Dataset", "DatasetError", "DatasetSpec", "available", "load", "spec", "specs"]
