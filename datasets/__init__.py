"""Data sets with known ground truth for comparing manifold embeddings (SPEC §1).

Public API: :func:`load` draws a seeded sample as a :class:`Dataset` (input points, ground-truth
chart or None, a plot colouring, the image shape of image sets and the parameters used);
:func:`available`, :func:`spec` and :func:`specs` expose the registry's :class:`DatasetSpec`
metadata (with the :class:`Chart` each set can return) from which the dashboard builds its
controls; :func:`parse_upload` reads a user's CSV/TSV/text table or NumPy ``.npy``/``.npz``
file as a :class:`Dataset`, after :func:`inspect_upload` has listed its columns in an
:class:`UploadTable` for the pickers (bounds in :class:`UploadLimits`; :func:`upload_sha256` is
the file's part of a cache key; the messages are constants of :mod:`datasets.upload`), with an
embedding of the points to judge (``Dataset.Y``) from columns of the same file or from a second
file (:class:`OutputFile`, inspected by :func:`inspect_output`); what a parse read and chose is
the Dataset's ``upload``, an :class:`UploadDescription` (its output's an :class:`OutputDescription`);
:class:`DatasetError` (from :mod:`measures.errors`) is raised for every bad request or upload.
No module here imports dash or plotly.
"""

from measures.errors import DatasetError

from .registry import Chart, Dataset, DatasetSpec, available, load, spec, specs
from .upload import (
    OutputDescription,
    OutputFile,
    UploadDescription,
    UploadLimits,
    UploadTable,
    inspect_output,
    inspect_upload,
    parse_upload,
    upload_sha256,
)

__all__ = ["Chart", "Dataset", "DatasetError", "DatasetSpec", "OutputDescription", "OutputFile", "UploadDescription",
           "UploadLimits", "UploadTable", "available", "inspect_output", "inspect_upload", "load", "parse_upload",
           "spec", "specs", "upload_sha256"]
