"""The bounds of an upload (:class:`UploadLimits`) and the options of :func:`~datasets.upload.parse_upload`.

Both are declared once as :class:`~measures.parameters.Parameter` tuples and checked by
:func:`~measures.parameters.validate_parameters`.
"""

import dataclasses

from measures.errors import DatasetError
from measures.parameters import Parameter, validate_parameters

from .messages import _MEGABYTE, TOO_MANY_VALUES, _count

_LIMIT_PARAMETERS = (
    Parameter("max_bytes", "largest upload (bytes)", "int", 50 * _MEGABYTE, low=1,
              help="Largest file accepted, and largest array of an .npz once decompressed."),
    Parameter("max_rows", "most rows", "int", 1_000_000, low=1, help="Most points (data rows) accepted."),
    Parameter("max_columns", "most columns", "int", 10_000, low=1,
              help="Most columns accepted (all of them, whichever are chosen)."),
    Parameter("max_values", "most values", "int", 10_000_000, low=1,
              help="Most values (rows times columns) accepted: 80 MB once stored as float64."),
    Parameter("suggest_pca_above", "PCA advised above", "int", 50, low=1,
              help="More coordinate columns than this give a warning suggesting PCA first."),
)
_LIMIT_DEFAULTS = {parameter.name: parameter.default for parameter in _LIMIT_PARAMETERS}
_OPTION_PARAMETERS = (
    Parameter("drop_nonfinite", "drop NaN rows", "bool", False,
              help="Drop rows with NaN or infinite values in the chosen columns instead of refusing them."),
    Parameter("n_neighbors", "neighbours k", "int", None, low=1,
              help="When given, at least n_neighbors + 2 points are required."),
)


@dataclasses.dataclass(frozen=True)
class UploadLimits:
    """Bounds that keep an upload from exhausting the server, and the dimension that suggests PCA.

    Each bound is checked before the memory it bounds is taken, and each has its own message
    (:mod:`.messages`): the size first, the rows and columns before any cell is split into
    values, their product before the values are stored. Reading a file then takes time linear in
    its size and memory of about its size plus 8 bytes per value (measured in ``bench/uploads.py``).

    Attributes
    ----------
    max_bytes : int, default=50 MB (50 * 1024 * 1024)
        Largest file accepted (:data:`TOO_LARGE`); also the largest ``.npz`` array once
        decompressed (:data:`NPZ_TOO_LARGE`).
    max_rows : int, default=1_000_000
        Most data rows (points) accepted (:data:`TOO_MANY_ROWS`), as many as :func:`datasets.load`
        draws. A 10^6 x q upload costs 8q MB as float64 (24 MB for q = 3) and, while it is read,
        about 3 times its file (90 MB for 10^6 rows of three numbers and a label, 28 MB); within
        ``max_bytes`` such files have at most 5 or 6 columns (6.5 float64 values per row in 50 MB).
    max_columns : int, default=10_000
        Most columns accepted, chosen or not (:data:`TOO_MANY_COLUMNS`). A text line is refused as
        soon as it is seen to hold more, before it is split. 10 000 admits a 100 × 100-pixel image
        per row (the globe set's largest is 64 × 64) and any table of features we expect; past it
        a table is nearly always one point per column (transposed) or a file that is not a table,
        and every column costs the dashboard a picker entry.
    max_values : int, default=10_000_000
        Most values, rows times columns, accepted (:data:`TOO_MANY_VALUES`): at most 80 MB as
        float64. Without it the two bounds above would allow 10^9 values, and within 50 MB a text
        file of one-digit values holds 26 million of them (210 MB once stored), an int8 ``.npy``
        file 52 million (420 MB).
    suggest_pca_above : int, default=50
        More coordinate columns than this are accepted with a ``ProcrustesLabWarning`` suggesting PCA.

    Raises
    ------
    DatasetError
        If a value is not a whole number >= 1 (None means the default).
    """

    max_bytes: int = _LIMIT_DEFAULTS["max_bytes"]
    max_rows: int = _LIMIT_DEFAULTS["max_rows"]
    max_columns: int = _LIMIT_DEFAULTS["max_columns"]
    max_values: int = _LIMIT_DEFAULTS["max_values"]
    suggest_pca_above: int = _LIMIT_DEFAULTS["suggest_pca_above"]

    def __post_init__(self):
        values = validate_parameters(_LIMIT_PARAMETERS, dataclasses.asdict(self), "upload limits", DatasetError)
        for name, value in values.items():
            object.__setattr__(self, name, value)



def _check_values(n_rows, n_columns, limits):
    """Refuse a table of more than ``limits.max_values`` values (:data:`TOO_MANY_VALUES`), before it is stored."""
    if n_rows * n_columns > limits.max_values:
        raise DatasetError(TOO_MANY_VALUES.format(rows=_count(n_rows, "row"), width=_count(n_columns, "column"),
                                                  total=n_rows * n_columns, limit=limits.max_values))
