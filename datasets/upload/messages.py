"""The messages of an upload's refusals, and how their fields are written.

Every problem with an upload raises :class:`~measures.errors.DatasetError` with a message the
dashboard shows as it is: one of the constants below (re-exported by :mod:`datasets.upload`),
filled with :meth:`str.format`. Their fields:

``where``, ``original``
    a place in the file: ``"line 12"`` (line number in a text file, from 1, header and blank
    lines counted) or ``"row index 11"`` (row of an array, from 0).
``column``, ``columns``
    ``column 3`` (counted from 1) followed by its header name in double quotes when the file has
    one, e.g. ``column 3 ("height")``; several are joined by ``", "``.
``rows``, ``points``, ``values``, ``header_columns``, ``width``
    a count with its noun, e.g. ``"1 row"``, ``"4 values"``, ``"3 columns"``.
``limit``, ``total``, ``line``, ``dim``
    a plain number: a bound of :class:`~datasets.upload.UploadLimits`, a product of counts, a
    line number, a dimension.
``place``
    where a limit was passed: ``"on line 12"``, ``"array of shape (3, 20000)"`` or ``"array 'X'
    of shape (3, 20000)"``.
``size_mb``, ``limit_mb``
    sizes in MB (2**20 bytes): the size with one decimal, the limit with up to 3 significant digits.
``arrays``
    the ``.npz`` arrays, e.g. ``'X' with shape (100, 3) and type float64, 'labels' with shape
    (100,) and type int64``.
``name``
    empty for an ``.npy`` file, `` 'X'`` (with a leading space) for an array of an ``.npz`` file.

Column indices given to the API count from 0, like Python's; messages count columns from 1
like a spreadsheet, and generated names (``"column 1"``, ...) agree with the messages.
This module imports nothing of the package: every other module of it may import this one.
"""


EMPTY_FILE = "The file is empty."
TOO_LARGE = ("The file is {size_mb} MB, more than the {limit_mb} MB limit: upload fewer rows or columns, "
             "or reduce the dimension with PCA first.")
BINARY_FILE = ("The file is neither text nor a NumPy array file: upload a CSV, TSV or text table of numbers, "
               "or an array saved with numpy.save (.npy) or numpy.savez (.npz).")
SPREADSHEET_FILE = ("Spreadsheet workbooks ({extension}) cannot be read: save the sheet as CSV (in Excel: "
                    "'CSV UTF-8') and upload that file.")
NOT_UTF8 = ("The file is not UTF-8 text ({detail}): save it as UTF-8 (in Excel: 'CSV UTF-8') "
            "and upload it again.")
NO_DATA_ROWS = ("The file holds no data rows, only a header, blank lines or # comments: "
                "add one row of numbers per point.")
UNCLOSED_QUOTE = ("Line {line} opens a double quote that is not closed on the same line: close the quote, "
                  "as every point must fit on one line.")
UNREADABLE_LINE = "Line {line} cannot be split into values ({reason}): check its quotes and separators."
RAGGED_HEADER = ("Line {line} has {values}, but the header has {header_columns}: "
                 "every row needs the same number of values.")
RAGGED = ("Line {line} has {values}, but line {first_line} has {expected}: "
          "every row needs the same number of values.")
TOO_MANY_ROWS = ("The file has {rows}, more than the {limit} allowed: upload a random subset of at most "
                 "{limit} rows.")
TOO_MANY_COLUMNS = ("The file has more than {limit} columns ({place}): upload at most {limit} (reduce the "
                    "dimension with PCA first, or transpose a table that holds one point per column).")
TOO_MANY_VALUES = ("The file holds {rows} of {width}, {total} values in all, more than the {limit} allowed: "
                   "upload fewer rows or columns, or reduce the dimension with PCA first.")
JSON_FILE = ("The file is JSON, not a table of points: save the points as CSV, TSV or text (one row per point), "
             "or as a NumPy .npy or .npz file.")
NON_NUMERIC = ("Line {line}, {column} holds '{text}', which is not a number: coordinate, ground-truth and "
               "output columns must hold numbers only, written with a dot as decimal mark (a column of labels "
               "can be the colour column).")
EMPTY_CELL = ("Line {line}, {column} is empty: coordinate, ground-truth and output columns need a number in "
              "every row (write nan for a missing value and drop its row with drop_nonfinite=True).")
NONFINITE = ("NaN or infinite values appear in {rows}, the first at {where}: fix or remove those rows, "
             "or drop them on upload (option drop_nonfinite=True).")
ALL_NONFINITE = ("Every row holds NaN or infinite values in the chosen columns, so dropping them leaves no "
                 "point: fix the file or choose other columns.")
TOO_FEW_POINTS = ("The data has {points}, but n_neighbors = {n_neighbors} needs at least {needed} "
                  "(n_neighbors + 2): upload more points or choose fewer neighbours.")
NO_COORDINATES = ("No coordinate column is left once the colour and ground-truth columns are set aside: "
                  "choose at least two coordinate columns.")
SINGLE_COORDINATE = ("Only one coordinate column is chosen, {column}: an embedding needs at least two, "
                     "so choose more coordinate columns.")
CONSTANT_COLUMNS = ("Some coordinate columns hold the same value in every row: {columns}. Leave them out "
                    "of the coordinates, as constant columns carry no information.")
DUPLICATE_POINTS = ("The data holds {rows} repeating an earlier row's coordinates, the first at {where} "
                    "(a copy of {original}): remove the copies, as embedding algorithms break on "
                    "duplicate points.")
MORE_COLUMNS_THAN_ROWS = ("The data has {dim} coordinate columns but only {rows}: each row must be one "
                          "point, so transpose the table if it holds one point per column, or choose "
                          "fewer columns.")
OUTPUT_AND_COLUMNS = ("Both output_columns and output give the output: choose its columns in the same file "
                      "(output_columns) or give the file that holds it (output), not both.")
OUTPUT_ROWS = ("The output file has {output_rows}, but the input has {input_rows}: the output must hold one row "
               "per input point, in the same order (blank and # comment lines do not count), so upload the "
               "output made from this very input.")
OUTPUT_TOO_FEW_COLUMNS = ("The output has {columns}: an embedding to judge needs at least two output columns, "
                          "so choose more (or check that the file holds the embedding's coordinates).")
OUTPUT_WIDER_THAN_INPUT = ("The output has {output_dim} columns but the input only {input_dim} coordinates: an "
                           "embedding has at most as many dimensions as its input (the local Procrustes measures "
                           "align the output into the input's space), so choose at most {input_dim} output "
                           "columns, or check that the input and the output are not swapped.")
OUTPUT_OVERLAP = ("The output's columns include a coordinate, {column}: the output is the embedding of the "
                  "coordinates, so leave its columns out of the coordinates.")
OUTPUT_NON_NUMERIC = ("In the output file, line {line}, {column} holds '{text}', which is not a number: output "
                      "columns must hold numbers only, written with a dot as decimal mark.")
OUTPUT_EMPTY_CELL = ("In the output file, line {line}, {column} is empty: output columns need a number in every "
                     "row (write nan for a missing value and drop its row with drop_nonfinite=True).")
OUTPUT_NONFINITE = ("NaN or infinite values appear in the output in {rows}, the first at {where}: fix or remove "
                    "those rows, or drop them on upload (option drop_nonfinite=True drops every row that is bad "
                    "in the input or in the output, from both).")
OUTPUT_COLLAPSED = ("The output puts every point at one place: its largest spread along a column, {spread:.3g}, "
                    "is at most {tolerance:.0e} times its largest value, {scale:.3g}. An embedding must keep the "
                    "points apart, so check that the right output was chosen (a collapsed run of the method that "
                    "made it cannot be judged).")
PCA_SUGGESTED = ("The data has {dim} coordinate columns, more than {limit}: consider reducing them with "
                 "PCA first, as neighbourhoods in high dimension are slow to find and dominated by noise.")
OBJECT_ARRAY = ("The array{name} holds Python objects, which are refused because loading them would "
                "execute code stored in the file (pickle): save a plain array of numbers.")
NON_NUMERIC_ARRAY = ("The array{name} holds values of type {dtype}, not real numbers: save a 2-D array of "
                     "floats or integers.")
NOT_2D = ("The array{name} has shape {shape}: save a 2-D array with one row per point and one column per "
          "coordinate.")
NPY_INVALID = ("The file is not a readable .npy file (it is damaged, truncated or not a NumPy array file): "
               "save the array again with numpy.save.")
NPZ_INVALID = ("The file is not a readable .npz file (it is damaged, truncated or not a NumPy archive): "
               "save the arrays again with numpy.savez.")
NPZ_NO_ARRAYS = "The .npz file holds no arrays: save the points with numpy.savez(file, X=points)."
NPZ_NO_NUMERIC_2D = ("The .npz file holds no 2-D array of numbers (it holds {arrays}): save the points as "
                     "one 2-D array, one row per point.")
NPZ_UNKNOWN_ARRAY = "The .npz file has no array named '{array}'; it holds {arrays}: choose one of those."
NPZ_TOO_MANY_ARRAYS = ("The .npz file holds more than {limit} arrays: save the points on their own with "
                       "numpy.save (.npy) or numpy.savez(file, X=points).")
NPZ_TOO_LARGE = ("The array{name} takes {size_mb} MB once decompressed, more than the {limit_mb} MB limit: "
                 "upload fewer rows or columns.")


_MEGABYTE = 1024 * 1024


def _count(number, noun):
    """``"1 row"``, ``"3 rows"``: a count with its noun, for messages."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _megabytes(size, digits):
    """A byte count in MB: ``digits=".1f"`` for a size, ``".3g"`` for a limit."""
    return format(size / _MEGABYTE, digits)
