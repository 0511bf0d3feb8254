"""Bytes for the result stores: plain values and arrays, no pickle, with a checksum verified on read.

Cached results travel between processes (background jobs, Celery workers, web processes) and may
sit on a shared disk or in Redis. They are written as a NumPy ``.npz`` archive read back with
``allow_pickle=False`` (arrays) and a JSON skeleton (everything else), inside a sealed envelope: a
magic prefix, the SHA-256 of the payload, then the payload. A file overwritten, truncated or swapped
fails the checksum and is never decoded, so damaged bytes cannot come back as wrong numbers, and
nothing read from a store can run code.
"""

import hashlib
import io
import json

import numpy as np

import measures

__all__ = ["CorruptEntryError", "decode", "encode", "seal", "unseal"]

_MAGIC = b"PLAB1"
_DIGEST = hashlib.sha256().digest_size
_ARRAY = "__array__"
_TUPLE = "__tuple__"


class CorruptEntryError(measures.ProcrustesLabError, ValueError):
    """Bytes from a store that fail their checksum or do not decode: the entry must be recomputed."""


def seal(payload):
    """``payload`` (bytes) in an envelope carrying its SHA-256.

    Examples
    --------
    >>> unseal(seal(b"numbers"))
    b'numbers'
    """
    return _MAGIC + hashlib.sha256(payload).digest() + payload


def unseal(sealed):
    """The payload of an envelope written by :func:`seal`.

    Raises
    ------
    CorruptEntryError
        When the prefix is wrong or the payload does not match its checksum.
    """
    sealed = bytes(sealed)
    head, digest, payload = sealed[:len(_MAGIC)], sealed[len(_MAGIC):len(_MAGIC) + _DIGEST], \
        sealed[len(_MAGIC) + _DIGEST:]
    if head != _MAGIC or len(digest) != _DIGEST:
        raise CorruptEntryError("the entry is not a sealed Procrustes Lab value")
    if hashlib.sha256(payload).digest() != digest:
        raise CorruptEntryError("the entry's checksum does not match its content (the bytes were altered)")
    return payload


def encode(value):
    """Sealed bytes of ``value``: dicts with str keys, lists, tuples, str, numbers, bools, None, arrays.

    Numeric arrays go to an ``.npz`` member each (exact, any dtype but object); the rest to JSON
    (NaN and infinities included). Tuples come back as tuples.

    Raises
    ------
    TypeError
        For any other type (a result type converts itself to these first).

    Examples
    --------
    >>> value = {"Y": np.eye(2), "summary": {"R_N": (0.5, None)}, "notes": ["ok"]}
    >>> back = decode(encode(value))
    >>> bool(np.array_equal(back["Y"], np.eye(2))), back["summary"], back["notes"]
    (True, {'R_N': (0.5, None)}, ['ok'])
    """
    arrays = []

    def skeleton(item):
        if isinstance(item, np.ndarray):
            if item.dtype == object:
                raise TypeError("object arrays are not stored (they would need pickle)")
            arrays.append(item)
            return {_ARRAY: len(arrays) - 1}
        if isinstance(item, dict):
            if not all(isinstance(key, str) for key in item):
                raise TypeError("dict keys must be str")
            return {key: skeleton(entry) for key, entry in item.items()}
        if isinstance(item, tuple):
            return {_TUPLE: [skeleton(entry) for entry in item]}
        if isinstance(item, list):
            return [skeleton(entry) for entry in item]
        if isinstance(item, (np.floating, np.integer, np.bool_)):
            return item.item()
        if item is None or isinstance(item, (str, int, float, bool)):
            return item
        raise TypeError(f"cannot store a {type(item).__name__}")

    document = json.dumps(skeleton(value), allow_nan=True, separators=(",", ":")).encode()
    buffer = io.BytesIO()
    np.savez(buffer, skeleton=np.frombuffer(document, dtype=np.uint8),
             **{f"a{i}": array for i, array in enumerate(arrays)})
    return seal(buffer.getvalue())


def decode(sealed):
    """The value :func:`encode` wrote.

    Raises
    ------
    CorruptEntryError
        When the checksum fails or the payload is not such an archive.
    """
    payload = unseal(sealed)
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            document = json.loads(archive["skeleton"].tobytes().decode())
            arrays = {name: archive[name] for name in archive.files if name != "skeleton"}
    except (OSError, ValueError, KeyError, UnicodeDecodeError) as error:
        raise CorruptEntryError(f"the entry does not decode ({error})") from error

    def rebuild(item):
        if isinstance(item, dict):
            if set(item) == {_ARRAY}:
                return arrays[f"a{item[_ARRAY]}"]
            if set(item) == {_TUPLE}:
                return tuple(rebuild(entry) for entry in item[_TUPLE])
            return {key: rebuild(entry) for key, entry in item.items()}
        if isinstance(item, list):
            return [rebuild(entry) for entry in item]
        return item

    try:
        return rebuild(document)
    except KeyError as error:
        raise CorruptEntryError(f"the entry names a missing array ({error})") from error
