"""Five outputs of one input measured in one process, as Compare and a tour step do: the input's side of
the measures (its geodesic sweep, DEMaP's ranks of its distances) is kept for the next output.

Run from the repo root, and time it against ``--no-memo`` (both memos' budgets at 0) with farm-bench:

    farm-bench --vs 'python bench/one_input.py --no-memo' -- 'python bench/one_input.py'

It prints each output's R_N and DEMaP's rho, equal in both modes (the memos return the same arrays).
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import algorithms  # noqa: E402
import datasets  # noqa: E402
import measures  # noqa: E402
from measures import distances, geodesics  # noqa: E402

N_SAMPLES, K = 1600, 10
ALGORITHMS = ("pca", "isomap", "lle", "ltsa", "laplacian")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--no-memo" in argv:
        geodesics._sweeps.budget = distances._ranks.budget = 0
    data = datasets.load("swissroll", N_SAMPLES)
    for name in ALGORITHMS:
        Y = algorithms.embed(name, data.X, n_neighbors=K)
        result = measures.evaluate(data.X, Y, K, truth=data.truth)
        print(f"{name}: R_N {result.mean['normalized']:.6f}, DEMaP {result.mean['distance_spearman']:.6f}")


if __name__ == "__main__":
    main()
