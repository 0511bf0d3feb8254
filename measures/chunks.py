"""Chunking of the point axis to a memory budget, the one helper every batched kernel uses."""

__all__ = ["CACHE_BYTES", "CHUNK_BYTES", "chunk_slices"]

# 64 MiB of float64 work per chunk keeps stacked (chunk, k+1, q) arrays in cache-friendly pieces on a
# 2-core machine while leaving per-chunk Python overhead negligible (measured in bench/measures.py).
CHUNK_BYTES = 64 * 2**20
# Kernels that gather or compare at random within rows of length n (rank counts, shortest-path
# trees) run 2-4x faster when a chunk fits in the CPU cache (measured in bench/measures.py).
CACHE_BYTES = 2**20


def chunk_slices(n_items: int, bytes_per_item: int, *, budget: "int | None" = None, cache: bool = False):
    """Yield ``slice`` objects covering ``range(n_items)`` with at most ``budget`` bytes of work each.

    Parameters
    ----------
    n_items : int
        Length of the axis to split (usually n_samples).
    bytes_per_item : int
        Working memory one item needs, e.g. ``8 * (k + 1) * (q + d)`` for a Procrustes stack.
    budget : int, optional
        Byte budget per chunk; every chunk holds at least one item. ``None`` reads
        :data:`CHUNK_BYTES` at call time (not at import), so setting it changes every kernel.
    cache : bool, default=False
        With ``budget=None``, use ``min(CHUNK_BYTES, CACHE_BYTES)``: for kernels whose speed
        depends on the chunk staying in cache.

    Examples
    --------
    >>> [(s.start, s.stop) for s in chunk_slices(5, 8, budget=16)]
    [(0, 2), (2, 4), (4, 5)]
    """
    if budget is None:
        budget = min(CHUNK_BYTES, CACHE_BYTES) if cache else CHUNK_BYTES
    size = max(1, int(budget // max(1, bytes_per_item)))
    for start in range(0, n_items, size):
        yield slice(start, min(start + size, n_items))
