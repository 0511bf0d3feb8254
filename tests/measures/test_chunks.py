"""Tests of ``measures/chunks.py``: splitting the point axis to a memory budget."""

import pytest

import measures.chunks
from measures.chunks import chunk_slices


@pytest.mark.parametrize("n_items, bytes_per_item, budget", [(10, 8, 24), (7, 1, 100), (1, 50, 10), (1000, 3, 7)])
def test_slices_cover_the_axis_in_order_within_budget(n_items, bytes_per_item, budget):
    parts = list(chunk_slices(n_items, bytes_per_item, budget=budget))
    covered = [i for part in parts for i in range(part.start, part.stop)]
    assert covered == list(range(n_items))
    per_chunk = max(1, budget // bytes_per_item)
    assert all(part.stop - part.start <= per_chunk for part in parts)
    assert len(parts) == -(-n_items // per_chunk)


def test_empty_axis_gives_no_slices():
    assert list(chunk_slices(0, 8)) == []


def test_default_budget_is_read_at_call_time(monkeypatch):
    assert len(list(chunk_slices(100, 8))) == 1
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 80)
    assert len(list(chunk_slices(100, 8))) == 10


def test_cache_sized_chunks_never_exceed_the_memory_budget(monkeypatch):
    # cache=True takes the smaller of the two budgets, both read at call time.
    assert len(list(chunk_slices(100, 2**14, cache=True))) == -(-100 // (measures.chunks.CACHE_BYTES // 2**14))
    monkeypatch.setattr(measures.chunks, "CHUNK_BYTES", 2**15)
    assert len(list(chunk_slices(100, 2**14, cache=True))) == 50
    assert len(list(chunk_slices(100, 2**14))) == 50
