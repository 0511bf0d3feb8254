"""Uploaded files on the server: private to the browser session that sent them, with a quota each.

A file is stored under its session and its SHA-256, in a store of its own that never evicts (a full
store refuses new files rather than drop someone else's). A session holds at most ``session_quota``
bytes, and a client address at most ``client_quota`` in all its sessions (a client that invents a new
session string for each file would otherwise fill the store for everyone); files expire a day after
their last use. The bytes are read only by the one parser,
:func:`datasets.parse_upload`, each time a run needs them, and are never unpickled. The session is a
server-issued secret (the page never chooses it): knowing a file's hash is not enough to read it.
"""

import contextlib
import ctypes
import ctypes.util
import gc
import json
import threading
import time

import datasets

from .serialization import CorruptEntryError, seal, unseal
from .stores import DiskStore

__all__ = ["SessionUploads", "UploadStore", "UPLOAD_BUSY", "UPLOAD_CLIENT_QUOTA", "UPLOAD_GONE", "UPLOAD_QUOTA",
           "UPLOAD_SPACE_FULL"]

UPLOAD_GONE = "The uploaded file is no longer on the server (files are kept a day): upload it again."
UPLOAD_QUOTA = ("This session already keeps {used_mb:.0f} MB of uploads; this file ({size_mb:.1f} MB) would pass "
                "the {quota_mb:.0f} MB each session may keep. Uploads expire a day after their last use.")
UPLOAD_CLIENT_QUOTA = ("Your address already keeps {used_mb:.0f} MB of uploads in all its sessions; this file "
                       "({size_mb:.1f} MB) would pass the {quota_mb:.0f} MB each address may keep. Uploads expire a "
                       "day after their last use.")
UPLOAD_BUSY = ("The server is reading {slots} other uploads at the moment; try again in a minute (each upload is "
               "read with the whole file in memory, so only a few are read at once).")
UPLOAD_SPACE_FULL = ("The server's space for uploads is full ({limit_mb:.0f} MB); no file is evicted to make room. "
                     "Try again later, or use a smaller file.")
# Files are kept a day after their last use.
EXPIRE_SECONDS = 24 * 3600
DEFAULT_STORE_BYTES = 8 * 2**30
DEFAULT_SESSION_QUOTA = 256 * 2**20
# Several people behind one address (an office, a proxy the server is not told about) share this.
DEFAULT_CLIENT_QUOTA = 1024 * 2**20
# Uploads read at once by one web process (each holds its file several times over while it is read),
# and how long a new one waits for its turn.
READING_SLOTS = 2
SLOT_WAIT_SECONDS = 60.0


class UploadStore:
    """Uploaded bytes by session and SHA-256, shared by the web processes and the background jobs.

    Parameters
    ----------
    store : DiskStore, TieredStore or path-like
        Where the files live (a path makes a :class:`~lab.store.stores.DiskStore` there that never evicts).
    size_limit : int
        Bytes the store may hold in all (it refuses, never evicts, beyond).
    session_quota : int
        Bytes one session may hold.
    client_quota : int
        Bytes one client address may hold, in all its sessions.
    """

    DEFAULT_BYTES = DEFAULT_STORE_BYTES

    def __init__(self, store, *, size_limit=DEFAULT_STORE_BYTES, session_quota=DEFAULT_SESSION_QUOTA,
                 client_quota=DEFAULT_CLIENT_QUOTA, reading_slots=READING_SLOTS):
        # A full store refuses a new file (UPLOAD_SPACE_FULL) rather than evict someone else's.
        self.store = store if hasattr(store, "get") else DiskStore(store, size_limit=size_limit,
                                                                    eviction_policy="none", name="the upload store")
        self.size_limit = int(size_limit)
        self.session_quota = int(session_quota)
        self.client_quota = int(client_quota)
        self._slots = threading.BoundedSemaphore(reading_slots)
        self._slot_count = reading_slots

    @contextlib.contextmanager
    def reading(self, wait=SLOT_WAIT_SECONDS):
        """A turn to read an uploaded file in this process: at most ``reading_slots`` at once.

        Six 48 MB files read at once took a web process to 1.5 GiB; a turn bounds that, and when it
        ends the memory the file took is handed back to the system (``malloc_trim``).

        Raises
        ------
        DatasetError
            :data:`UPLOAD_BUSY`, when no turn comes within ``wait`` seconds.
        """
        if not self._slots.acquire(timeout=wait):
            raise datasets.DatasetError(UPLOAD_BUSY.format(slots=self._slot_count))
        try:
            yield
        finally:
            self._slots.release()
            gc.collect()
            _release_memory()

    @property
    def directory(self):
        return self.store.directory

    @staticmethod
    def _key(session, sha256):
        return f"upload:{session}:{sha256}"

    @staticmethod
    def _index_key(session):
        return f"session:{session}"

    @staticmethod
    def _client_key(client):
        return f"client:{client}"

    def put(self, session, content, *, client=None):
        """Keep ``content`` (bytes) for ``session``, sent from address ``client``; returns its SHA-256, which runs
        name it by.

        Raises
        ------
        DatasetError
            When the session's or the client's quota, or the store's space, would be passed (nothing is evicted).
        """
        content = bytes(content)
        sha256 = datasets.upload_sha256(content)
        now = time.time()
        charged = [(self._index_key(session), self.session_quota, UPLOAD_QUOTA)]
        if client:
            charged.append((self._client_key(client), self.client_quota, UPLOAD_CLIENT_QUOTA))

        # Locks in one order (session, then client): two uploads never wait for each other's.
        with contextlib.ExitStack() as locks:
            indexes, new = {}, False
            for key, quota, refusal in charged:
                locks.enter_context(self.store.lock(key))
                indexes[key], added = self._charged(key, sha256, len(content), quota, refusal, now)
                new = new or added
            if new and self.store.volume() + len(content) > self.size_limit:
                raise datasets.DatasetError(UPLOAD_SPACE_FULL.format(limit_mb=self.size_limit / 2**20))
            self.store.put(self._key(session, sha256), seal(content), expire=EXPIRE_SECONDS)
            for key, index in indexes.items():
                self.store.put(key, json.dumps(index).encode(), expire=EXPIRE_SECONDS)
        return sha256

    def _charged(self, key, sha256, size, quota, refusal, now):
        """The index under ``key`` (a session's or a client's) with ``sha256`` added, if ``quota`` allows, and
        whether the file is new to it.

        Raises
        ------
        DatasetError
            ``refusal``, when the file is new to the index and would take it past ``quota`` bytes.
        """
        index = _live(json.loads(self.store.get(key) or b"{}"), now)
        added = sha256 not in index
        if added:
            used = sum(kept for kept, _ in index.values())
            if used + size > quota:
                raise datasets.DatasetError(refusal.format(used_mb=used / 2**20, size_mb=size / 2**20,
                                                           quota_mb=quota / 2**20))
        index[sha256] = (size, now + EXPIRE_SECONDS)
        return index, added

    def read(self, session, sha256):
        """The bytes ``session`` uploaded under ``sha256``.

        Raises
        ------
        DatasetError
            When they have expired, were damaged, or were never uploaded by this session.
        """
        key = self._key(session, sha256)
        stored = self.store.get(key)
        if stored is None:
            raise datasets.DatasetError(UPLOAD_GONE)
        try:
            content = unseal(stored)
        except CorruptEntryError:
            self.store.delete(key)
            raise datasets.DatasetError(UPLOAD_GONE) from None
        self.store.touch(key, expire=EXPIRE_SECONDS)
        self.store.touch(self._index_key(session), expire=EXPIRE_SECONDS)
        return content

    def holds(self, session, sha256):
        """Whether ``session`` keeps a file under ``sha256`` now (without reading it)."""
        index = self.store.get(self._index_key(session))
        return index is not None and sha256 in _live(json.loads(index), time.time())

    def for_session(self, session, client=None):
        """A :class:`SessionUploads` reading this session's files only (its new files charged to ``client`` too)."""
        return SessionUploads(self, session, client)

    def authorized(self, session, request):
        """``session``'s uploads, once :meth:`SessionUploads.authorize` let it read ``request``'s data (a request
        without data, a normalization study or a tour step, reads no upload).

        The one entry of every callback that reads a run of an upload (computes it, reads it from the
        result cache, draws or exports it): a request naming another session's file is refused here.

        Parameters
        ----------
        session : str
        request : object
            A request with a ``data`` (:class:`lab.compute.choices.DataChoice`): a run, a sweep, a comparison, a
            pair, a stability study, yardsticks; or one whose type declares ``READS_NO_UPLOAD = True`` (the
            normalization study and its curve, a tour step: the catalogue's data only).

        Raises
        ------
        DatasetError
            :data:`UPLOAD_GONE`, when ``request`` names a file this session did not send.
        TypeError
            For a request with neither: a new kind is checked here before anything of it is read (it failed
            open once, a request that kept its data under another name).
        """
        uploads = self.for_session(session)
        if getattr(type(request), "READS_NO_UPLOAD", False):
            return uploads
        if not hasattr(request, "data"):
            raise TypeError(f"{type(request).__name__} has no data to authorize and does not declare "
                            "READS_NO_UPLOAD.")
        uploads.authorize(request.data)
        return uploads


class SessionUploads:
    """One session's view of an :class:`UploadStore`: what a computation reads uploads through."""

    def __init__(self, store, session, client=None):
        self.store = store
        self.session = session
        self.client = client

    def read(self, upload):
        """The bytes of ``upload`` (a :class:`lab.compute.choices.UploadRef`), if this session sent them."""
        return self.store.read(self.session, upload.sha256)

    def put(self, content):
        """Keep ``content`` for this session (and its client address); returns its SHA-256."""
        return self.store.put(self.session, content, client=self.client)

    def authorize(self, data):
        """Refuse a run on an uploaded file (or output file) this session did not send
        (a :class:`lab.compute.choices.DataChoice`).

        A result cached for another session's file must not be read through a request naming its
        hash, so every read of a run on an upload passes here first.

        Raises
        ------
        DatasetError
            :data:`UPLOAD_GONE`, the same answer as for an expired file.
        """
        if data.upload is not None and not (self.session and self.store.holds(self.session, data.upload.sha256)):
            raise datasets.DatasetError(UPLOAD_GONE)
        output = None if data.upload is None else data.upload.output
        if output is not None and output.sha256 is not None and not self.store.holds(self.session, output.sha256):
            raise datasets.DatasetError(UPLOAD_GONE)  # an output file is the session's own, like its input


def _release_memory():
    """Hand freed heap memory back to the system (glibc's ``malloc_trim``; nothing elsewhere)."""
    library = ctypes.util.find_library("c")
    trim = getattr(ctypes.CDLL(library), "malloc_trim", None) if library else None
    if trim is not None:
        trim(0)


def _live(index, now):
    """The entries of a session index that have not expired: ``{sha256: (size, expires_at)}``."""
    return {sha: (size, expires) for sha, (size, expires) in index.items() if expires > now}
