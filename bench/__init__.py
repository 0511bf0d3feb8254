"""Benchmarks: ``python -m bench`` runs every suite and prints one table (see ``bench/__main__.py``).

Each suite module (``bench/measures.py``, ``bench/algorithms.py``, ...) exposes
``rows(quick=False) -> list[bench.harness.Row]`` and runs on its own as ``python bench/<name>.py``.
Nothing here asserts a time (STYLE: speed lives in bench/, tests never assert it).
"""
