"""DEMaP's average ranks of the 1.28 million pairwise distances of 1 600 points, twenty times:
``measures.distances.average_ranks`` (one SIMD sort of packed keys) against the same ranks from
numpy's argsort (``--argsort``, the order it used before). Time the two from the repo root:

    farm-bench --vs 'python bench/ranks.py --argsort' -- 'python bench/ranks.py'

It prints a checksum of the ranks, equal in both modes.
"""

import pathlib
import sys

import numpy as np
from scipy.spatial.distance import pdist

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from measures import distances  # noqa: E402

REPEATS = 20


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--argsort" in argv:
        distances._ordered = lambda values: (np.argsort(values), None)
    values = pdist(np.random.default_rng(0).normal(size=(1600, 2)))
    total = 0.0
    for _ in range(REPEATS):
        ranks = distances.average_ranks(values)
        total += float(ranks @ values)
    print(f"{values.size} distances, checksum {total:.6e}")


if __name__ == "__main__":
    main()
