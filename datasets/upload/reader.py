"""The one reader behind :func:`~datasets.upload.inspect_upload` and :func:`~datasets.upload.parse_upload`.

Checks the arguments, refuses a file too large or empty, tells its format by extension or first
bytes, and hands it to the text or NumPy reader; :func:`upload_sha256` is the file's digest.
"""

import hashlib
import os
import re

from measures.errors import DatasetError

from .arrays import _read_npy, _read_npz
from .limits import UploadLimits
from .messages import EMPTY_FILE, JSON_FILE, SPREADSHEET_FILE, TOO_LARGE, _megabytes
from .text import _read_text

_TEXT_EXTENSIONS = (".csv", ".tsv", ".txt", ".dat")
_SPREADSHEET_EXTENSIONS = (".xlsx", ".xls", ".xlsm", ".ods")
_NPY_MAGIC = b"\x93NUMPY"
# A JSON object: no table of numbers starts with "{" (a JSON array could be a header cell "[x]").
_JSON_START = re.compile(rb"(\xef\xbb\xbf)?\s*\{")
# A zip archive starts with a local file header, or with the end record when it is empty (an
# .npz written by numpy.savez with no arrays).
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")


def upload_sha256(content: bytes) -> str:
    """Hex SHA-256 digest of an upload's bytes: the file's part of the cache key.

    Examples
    --------
    >>> upload_sha256(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(_check_content(content)).hexdigest()


def _check_content(content):
    """The upload as bytes; raise :class:`DatasetError` if it is not bytes-like."""
    if isinstance(content, (bytes, bytearray, memoryview)):
        return bytes(content)
    raise DatasetError(f"The upload content must be the file's bytes; got {type(content).__name__} "
                       "(decode a base64 upload first).")


def _file_format(content, filename):
    """``"text"``, ``"npy"`` or ``"npz"``: by extension, else by the file's first bytes."""
    extension = os.path.splitext(filename)[1].lower()
    if extension in _SPREADSHEET_EXTENSIONS:
        raise DatasetError(SPREADSHEET_FILE.format(extension=extension))
    if extension == ".json" or _JSON_START.match(content):
        raise DatasetError(JSON_FILE)
    if extension in _TEXT_EXTENSIONS:
        return "text"
    if extension in (".npy", ".npz"):
        return extension[1:]
    if content.startswith(_NPY_MAGIC):
        return "npy"
    if content.startswith(_ZIP_MAGICS):
        return "npz"
    return "text"


def _read(content, filename, limits, array):
    """The one reader behind :func:`inspect_upload` and :func:`parse_upload` (arguments checked)."""
    if len(content) > limits.max_bytes:
        raise DatasetError(TOO_LARGE.format(size_mb=_megabytes(len(content), ".1f"),
                                            limit_mb=_megabytes(limits.max_bytes, ".3g")))
    if not content:
        raise DatasetError(EMPTY_FILE)
    file_format = _file_format(content, filename)
    if array is not None and file_format != "npz":
        raise DatasetError(f"The option array = '{array}' chooses an array of an .npz file, but this file is "
                           f"read as {file_format}: leave array unset.")
    sha256 = upload_sha256(content)
    if file_format == "npy":
        return _read_npy(content, filename, sha256, limits)
    if file_format == "npz":
        return _read_npz(content, filename, sha256, limits, array)
    return _read_text(content, filename, sha256, limits)


def _check_read_arguments(content, filename, limits, array):
    """Check the arguments :func:`_read` takes; return ``(content, limits)`` with defaults filled in."""
    content = _check_content(content)
    if not isinstance(filename, str):
        raise DatasetError(f"The file name must be a string; got {filename!r}.")
    if limits is None:
        limits = UploadLimits()
    elif not isinstance(limits, UploadLimits):
        raise DatasetError(f"limits must be an UploadLimits or None; got {limits!r}.")
    if array is not None and not isinstance(array, str):
        raise DatasetError(f"array must be the name of an .npz array (a string) or None; got {array!r}.")
    return content, limits
