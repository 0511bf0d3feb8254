"""Data sets with known ground truth for comparing manifold embeddings (SPEC §1).

Public API: :func:`load` draws a seeded sample as a :class:`Dataset` (input points, ground-truth
chart or None, a plot colouring, the image shape of image sets and the parameters used);
:func:`available`, :func:`spec` and :func:`specs` expose the registry's :class:`DatasetSpec`
metadata (with the :class:`Chart` each set can return) from which the dashboard builds its
controls; :class:`DatasetError` (from :mod:`measures.errors`) is raised for every bad request.
No module here imports dash or plotly.
"""

from measures.errors import DatasetError

from .registry import Chart, Dataset, DatasetSpec, available, load, spec, specs

__all__ = ["Chart", "Dataset", "DatasetError", "DatasetSpec", "available", "load", "spec", "specs"]
