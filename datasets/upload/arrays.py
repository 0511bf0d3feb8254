"""NumPy uploads: ``.npy`` files and ``.npz`` archives, read without pickle and checked before they are loaded.

An array's header is parsed on its own, its text bounded in length and nesting depth first, so
that its shape and type are checked before any data is read; an archive's members are counted
from its bytes before :mod:`zipfile` opens it. A damaged file of either kind gives one message
(:data:`~.messages.NPY_INVALID`, :data:`~.messages.NPZ_INVALID`), whatever numpy or zipfile raised.
"""

import io
import math
import struct
import tokenize
import zipfile
import zlib

import numpy as np

from measures.errors import DatasetError

from .limits import _check_values
from .messages import (
    NON_NUMERIC_ARRAY,
    NOT_2D,
    NPY_INVALID,
    NPZ_INVALID,
    NPZ_NO_ARRAYS,
    NPZ_NO_NUMERIC_2D,
    NPZ_TOO_LARGE,
    NPZ_TOO_MANY_ARRAYS,
    NPZ_UNKNOWN_ARRAY,
    OBJECT_ARRAY,
    TOO_MANY_COLUMNS,
    TOO_MANY_ROWS,
    _count,
    _megabytes,
)
from .tables import UploadTable, _Contents

# Errors the zip and .npy readers raise on a damaged file; none of them can come from a sound one.
_ARCHIVE_ERRORS = (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error, NotImplementedError,
                   RuntimeError, struct.error)
# What numpy's header parser (ast.literal_eval, tokenize, a sort of the dict's keys, then
# descr_to_dtype on whatever 'descr' holds) lets escape on some damaged headers besides ValueError.
_HEADER_PARSE_ERRORS = (SyntaxError, tokenize.TokenError, TypeError, IndexError, KeyError, AttributeError)
# numpy refuses headers longer than this (numpy.lib.format's max_header_size default); the depth
# bound is ours: a plain array's header nests 2 deep, a structured one's a few more.
_NPY_HEADER_BYTES = 10_000
_NPY_HEADER_DEPTH = 16
# Most arrays an .npz may hold. zipfile builds an object per member on opening the archive, so
# they are counted from the bytes first (a 50 MB zip can list a million members).
_NPZ_MAX_MEMBERS = 1_000
# The end record of a zip archive takes 22 bytes, then a comment of at most 65 535.
_ZIP_END_RECORD_BYTES = 22


def _array_header(stream):
    """``(shape, dtype, data_offset)`` from the header of the .npy data ``stream`` starts with.

    Only the header is read (numpy parses it with ``ast.literal_eval``), so the shape and type can
    be checked before any data is: an object array is refused unread, and a shape larger than
    the bytes present is caught before numpy allocates for it. The header's text is checked first
    to be no longer than numpy's own bound and nested at most ``_NPY_HEADER_DEPTH`` deep (numpy's
    plain arrays nest 2 deep), so that no header reaches the parser's recursion.

    Raises
    ------
    ValueError
        If the stream does not start with a valid .npy header.
    """
    version = np.lib.format.read_magic(stream)
    # Format 3.0 differs from 2.0 only in encoding field names as UTF-8; structured arrays are
    # refused anyway, so the 2.0 reader serves both (read_array rejects unknown versions later).
    read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    start = stream.tell()
    length_format = "<H" if version == (1, 0) else "<I"
    length_bytes = stream.read(struct.calcsize(length_format))
    if len(length_bytes) != struct.calcsize(length_format):
        raise ValueError("the .npy header is truncated")
    (length,) = struct.unpack(length_format, length_bytes)
    if length > _NPY_HEADER_BYTES:
        raise ValueError(f"the .npy header takes {length} bytes, more than {_NPY_HEADER_BYTES}")
    if _nesting_depth(stream.read(length)) > _NPY_HEADER_DEPTH:
        raise ValueError(f"the .npy header is nested more than {_NPY_HEADER_DEPTH} deep")
    stream.seek(start)
    try:
        shape, _, dtype = read_header(stream)
    except _HEADER_PARSE_ERRORS as error:
        raise ValueError(f"cannot parse the .npy header: {error}") from error
    return shape, dtype, stream.tell()


def _nesting_depth(text):
    """How deep brackets nest in ``text`` (bytes), quoted strings left out: ``b"{'a': (1, [2])}"`` -> 3."""
    depth = deepest = 0
    quote = None
    for character in text.decode("latin-1"):
        if quote is not None:
            if character == quote:
                quote = None
        elif character in "'\"":
            quote = character
        elif character in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in ")]}":
            depth -= 1
    return deepest


def _describe_arrays(headers):
    """``'X' with shape (100, 3) and type float64, ...``: the arrays of an .npz, for messages."""
    return ", ".join(f"'{name}' with shape {shape} and type {dtype}" for name, (shape, dtype, _) in headers.items())


def _is_numeric_2d(shape, dtype):
    """Whether an array of this header can hold points: 2-D, integers or real floats."""
    return len(shape) == 2 and dtype.kind in "iuf"


def _check_array_header(shape, dtype, name, limits):
    """Refuse an array by its header: objects, non-numbers, not 2-D or empty, too many rows, columns or values."""
    if dtype.hasobject:
        raise DatasetError(OBJECT_ARRAY.format(name=name))
    if dtype.kind not in "iuf":
        raise DatasetError(NON_NUMERIC_ARRAY.format(name=name, dtype=dtype))
    if len(shape) != 2 or 0 in shape:
        raise DatasetError(NOT_2D.format(name=name, shape=shape))
    if shape[0] > limits.max_rows:
        raise DatasetError(TOO_MANY_ROWS.format(rows=_count(shape[0], "row"), limit=limits.max_rows))
    if shape[1] > limits.max_columns:
        raise DatasetError(TOO_MANY_COLUMNS.format(place=f"array{name} of shape {shape}", limit=limits.max_columns))
    _check_values(shape[0], shape[1], limits)


def _load_array(open_stream, size, name, limits, invalid_message):
    """Check the header of the .npy data ``open_stream()`` gives, then load it without pickle.

    Parameters
    ----------
    open_stream : callable
        Returns a new binary stream at the start of the .npy data each time it is called.
    size : int
        Number of bytes the stream holds.
    name : str
        How messages name the array (``""`` or ``" 'X'"``).
    limits : UploadLimits
    invalid_message : str
        Message for a damaged file (:data:`NPY_INVALID` or :data:`NPZ_INVALID`).

    Returns
    -------
    ndarray of shape (n_rows, n_columns), float64
    """
    try:
        with open_stream() as stream:
            shape, dtype, offset = _array_header(stream)
        _check_array_header(shape, dtype, name, limits)
        if math.prod(shape) * dtype.itemsize > size - offset:
            raise DatasetError(invalid_message)
        with open_stream() as stream:
            array = np.load(stream, allow_pickle=False)
    except DatasetError:
        raise  # a ValueError too, but already the message to show
    except _ARCHIVE_ERRORS as error:
        raise DatasetError(invalid_message) from error
    return np.asarray(array, dtype=np.float64)


def _array_contents(points, filename, sha256, file_format, arrays=(), array=None):
    """The :class:`_Contents` of a loaded 2-D float64 array."""
    names = tuple(f"column {index + 1}" for index in range(points.shape[1]))
    table = UploadTable(filename=filename, format=file_format, columns=names, kinds=("numeric",) * len(names),
                        n_rows=points.shape[0], sha256=sha256, arrays=arrays, array=array)
    return _Contents(table, tuple(points.T))


def _read_npy(content, filename, sha256, limits):
    """Read a .npy file: one 2-D numeric array."""
    points = _load_array(lambda: io.BytesIO(content), len(content), "", limits, NPY_INVALID)
    return _array_contents(points, filename, sha256, "npy")


def _zip_entry_count(content, most):
    """How many entries a zip archive's central directory lists, counted up to ``most + 1``.

    ``zipfile`` makes an object of every entry when it opens an archive (and a 50 MB archive can
    list a million), so they are counted first, from the bytes: the end record gives the
    directory's size, the directory ends where the end record (or zip64's) starts, and each entry
    gives its own length. Returns 0 when there is no end record to start from (then ``zipfile``
    refuses the archive itself).
    """
    end = content.rfind(b"PK\x05\x06", max(0, len(content) - _ZIP_END_RECORD_BYTES - 0xFFFF))
    if end < 0 or len(content) < end + _ZIP_END_RECORD_BYTES:
        return 0
    (size,) = struct.unpack_from("<I", content, end + 12)
    directory_end = end
    locator = end - 20  # a zip64 archive keeps its real sizes in a record the locator points to
    if locator >= 0 and content.startswith(b"PK\x06\x07", locator):
        (record,) = struct.unpack_from("<Q", content, locator + 8)
        if record + 56 <= len(content) and content.startswith(b"PK\x06\x06", record):
            (size,) = struct.unpack_from("<Q", content, record + 40)
            directory_end = record
    position, count = directory_end - size, 0
    while count <= most and position >= 0 and content.startswith(b"PK\x01\x02", position) \
            and position + 46 <= len(content):
        name, extra, comment = struct.unpack_from("<HHH", content, position + 28)
        position += 46 + name + extra + comment
        count += 1
    return count


def _read_npz(content, filename, sha256, limits, array):
    """Read the array ``array`` of a .npz file, or its first 2-D numeric array when ``array`` is None."""
    if _zip_entry_count(content, _NPZ_MAX_MEMBERS) > _NPZ_MAX_MEMBERS:
        raise DatasetError(NPZ_TOO_MANY_ARRAYS.format(limit=_NPZ_MAX_MEMBERS))
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            if len(archive.infolist()) > _NPZ_MAX_MEMBERS:  # counted by zipfile's rules, should ours differ
                raise DatasetError(NPZ_TOO_MANY_ARRAYS.format(limit=_NPZ_MAX_MEMBERS))
            members = {info.filename[:-len(".npy")]: info for info in archive.infolist()
                       if info.filename.endswith(".npy")}
            if len(members) != sum(info.filename.endswith(".npy") for info in archive.infolist()):
                # Two members of one name: numpy would read one while we checked the other.
                raise DatasetError(NPZ_INVALID)
            if not members:
                raise DatasetError(NPZ_NO_ARRAYS)
            headers = {}
            for member_name, info in members.items():
                with archive.open(info) as stream:
                    headers[member_name] = _array_header(stream)
            if array is None:
                array = next((member_name for member_name, (shape, dtype, _) in headers.items()
                              if _is_numeric_2d(shape, dtype)), None)
                if array is None:
                    raise DatasetError(NPZ_NO_NUMERIC_2D.format(arrays=_describe_arrays(headers)))
            elif array not in members:
                raise DatasetError(NPZ_UNKNOWN_ARRAY.format(array=array, arrays=_describe_arrays(headers)))
            info = members[array]
            if info.file_size > limits.max_bytes:
                raise DatasetError(NPZ_TOO_LARGE.format(name=f" '{array}'", size_mb=_megabytes(info.file_size, ".1f"),
                                                        limit_mb=_megabytes(limits.max_bytes, ".3g")))
            points = _load_array(lambda: archive.open(info), info.file_size, f" '{array}'", limits, NPZ_INVALID)
    except DatasetError:
        raise  # a ValueError too, but already the message to show
    except _ARCHIVE_ERRORS as error:
        raise DatasetError(NPZ_INVALID) from error
    return _array_contents(points, filename, sha256, "npz", arrays=tuple(members), array=array)
