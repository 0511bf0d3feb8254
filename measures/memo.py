"""What the measures compute from the input alone, kept for the next output of the same input.

A comparison, a tour step or a table scores several outputs of one input (GR Table 2: 75 runs on
15 inputs), and part of each measure depends on the input only: the geodesic rows of a graph sweep
(:func:`measures.geodesics.geodesic_sweep`), the ranks of the input's distances in DEMaP's Spearman
(:func:`measures.distances.spearman_from_rows`). :class:`InputMemo` keeps such values under a digest
of what they were computed from (:func:`digest`), so a hit is the same array bit for bit, within a
byte budget, least recently used out first.
"""

import collections
import hashlib
import threading

import numpy as np

__all__ = ["InputMemo", "digest"]


def digest(*parts):
    """A 32-hex-digit digest of arrays (their dtype, shape and bytes) and plain values (their ``repr``).

    Equal for equal inputs, so a memo keyed by it returns a value computed from exactly these.
    """
    hashed = hashlib.blake2b(digest_size=16)
    for part in parts:
        if isinstance(part, np.ndarray):
            part = np.ascontiguousarray(part)
            hashed.update(f"{part.dtype.str}{part.shape}".encode())
            hashed.update(part.view(np.uint8).reshape(-1))
        else:
            hashed.update(repr(part).encode())
    return hashed.hexdigest()


class InputMemo:
    """A thread-safe store of values by key, least recently used first, holding at most ``budget`` bytes.

    Parameters
    ----------
    budget : int
        Bytes the kept values may take together (each value's ``nbytes``); a value larger than the
        budget is not kept. A web server's request threads may read and write at once.
    """

    def __init__(self, budget):
        self.budget = budget
        self._values = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        """The value kept under ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key, value):
        """Keep ``value`` under ``key``, dropping the least recently used values beyond the budget."""
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while self._values and sum(kept.nbytes for kept in self._values.values()) > self.budget:
                self._values.popitem(last=False)

    def fits(self, nbytes):
        """Whether a value of ``nbytes`` bytes would be kept."""
        return nbytes <= self.budget

    def clear(self):
        with self._lock:
            self._values.clear()

    def __len__(self):
        return len(self._values)

    def keys(self):
        """The keys kept, least recently used first."""
        with self._lock:
            return list(self._values)
