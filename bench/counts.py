"""Exact trustworthiness + continuity of a noisy output, where nearly all the time is the KD-tree's counts of
the points within a radius (``measures.neighbors.OrderedTree.count``): the counting tree of today (leaves of
:data:`measures.neighbors.COUNT_LEAF_SIZE` points, queries visited in Morton order) against the search tree
itself (scipy's leaves of 10, queries in the caller's order; ``--search-tree``, the counts before). Time the
two from the repo root:

    farm-bench --vs 'python bench/counts.py --search-tree' -- 'python bench/counts.py'

The output is the swiss roll's arc-length chart plus Gaussian noise of sigma 2 (T about 0.976): most of
its 12 output neighbours rank past 48 in the input, so each needs two counts of about 2 400 points. It
prints T and C, equal in both modes.
"""

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import measures  # noqa: E402
from bench.measures import roll_output  # noqa: E402
from measures.interrupts import signals_deferred  # noqa: E402
from measures.neighbors import OrderedTree  # noqa: E402

N_SAMPLES, NOISE, N_NEIGHBORS = 50_000, 2.0, 12


def count_on_search_tree(tree, queries, radii):
    """The counts as they were: on the search tree, queries in the caller's order."""
    with signals_deferred():
        return tree.tree.query_ball_point(queries, radii, return_length=True, workers=-1)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--search-tree" in argv:
        OrderedTree.count = count_on_search_tree
    X, Y = roll_output(N_SAMPLES, NOISE)
    values = measures.trustworthiness(X, Y, N_NEIGHBORS), measures.continuity(X, Y, N_NEIGHBORS)
    print(f"n = {N_SAMPLES}, noise {NOISE:g}: T {values[0]!r}, C {values[1]!r}")
    return np.asarray(values)


if __name__ == "__main__":
    main()
