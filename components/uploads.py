"""Uploaded files on the server: kept by content hash, read only by :func:`datasets.parse_upload`.

An upload is visible only to the browser session that sent it: the page keeps its hash in session
storage, and a run names the file by that hash (unguessable, and the content's part of the cache
key). The bytes are never unpickled; they are parsed, each time a run needs them, by the one
parser in :mod:`datasets`. No Dash here.
"""

import base64
import binascii
import pathlib

import diskcache

import datasets

__all__ = ["UPLOAD", "UPLOAD_GONE", "UploadStore", "decode_contents", "load_upload", "upload_options"]

# The data-set key of an uploaded file in requests and in the data-set menu.
UPLOAD = "upload"
UPLOAD_GONE = "The uploaded file is no longer on the server (it is kept a day): upload it again."
MALFORMED_CONTENTS = "The browser sent the file in an unexpected form: upload it again."
# Uploads are kept a day after their last use.
EXPIRE_SECONDS = 24 * 3600
# The parser options a run records (its cache key holds them and the content hash).
OPTION_NAMES = ("columns", "color_column", "truth_columns", "drop_nonfinite", "array")


class UploadStore:
    """Uploaded bytes on disk by SHA-256, shared by the web process and the background jobs.

    Parameters
    ----------
    directory : path-like
    """

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)

    def put(self, content):
        """Store ``content`` (bytes); returns its SHA-256, the key runs name it by."""
        key = datasets.upload_sha256(content)
        with diskcache.Cache(str(self.directory)) as cache:
            cache.set(key, bytes(content), expire=EXPIRE_SECONDS, retry=True)
        return key

    def get(self, key):
        """The bytes stored under ``key``.

        Raises
        ------
        DatasetError
            When they have expired or were never stored here.
        """
        with diskcache.Cache(str(self.directory)) as cache:
            content = cache.get(key, default=None, retry=True)
            if content is None:
                raise datasets.DatasetError(UPLOAD_GONE)
            cache.touch(key, expire=EXPIRE_SECONDS, retry=True)
        return content


def decode_contents(contents):
    """The bytes of a ``dcc.Upload`` ``contents`` value (``"data:<type>;base64,<data>"``).

    Raises
    ------
    DatasetError
        When ``contents`` is not such a string.

    Examples
    --------
    >>> decode_contents("data:text/csv;base64,MSwyCjMsNAo=")
    b'1,2\\n3,4\\n'
    """
    header, separator, data = (contents or "").partition(",")
    if not separator or not header.startswith("data:") or not header.endswith(";base64"):
        raise datasets.DatasetError(MALFORMED_CONTENTS)
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise datasets.DatasetError(MALFORMED_CONTENTS) from None


def upload_options(columns, color_column, truth_columns, drop_nonfinite, array):
    """The parser options of a run, canonical (sorted lists, None for "not chosen"), for its request."""
    return {"columns": sorted(columns) if columns else None, "color_column": color_column,
            "truth_columns": list(truth_columns) if truth_columns else None,
            "drop_nonfinite": bool(drop_nonfinite), "array": array}


def load_upload(store, upload, n_neighbors=None):
    """The :class:`datasets.Dataset` of a request's ``upload`` part (hash, file name, options).

    Raises
    ------
    DatasetError
        When the file has expired or does not parse with these options.
    """
    options = {name: upload[name] for name in OPTION_NAMES}
    return datasets.parse_upload(store.get(upload["sha256"]), upload["filename"], n_neighbors=n_neighbors, **options)
