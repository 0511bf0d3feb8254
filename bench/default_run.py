"""The page's default run (a 1 600-point swiss roll, Isomap, k = 10, every measure) computed five
times in one process, each on another draw of the roll (random states 0-4), so no run reads another's
memo.

Isomap's geodesics are a sweep of the graph the measures build, with its path counts; M_G, the
residual variance and DEMaP then read its rows (one Dijkstra pass per run). ``--separate`` sets the
sweep memo's budget to 0, so Isomap and the measures each run their own pass, as before. Time the two
with farm-bench from the repo root:

    farm-bench --vs 'python bench/default_run.py --separate' -- 'python bench/default_run.py'

It prints each run's R_N, M_G and DEMaP, equal in both modes.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from lab.compute import compute  # noqa: E402
from lab.compute.runs import RunRequest  # noqa: E402
from measures import geodesics  # noqa: E402

RANDOM_STATES = range(5)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--separate" in argv:
        geodesics._sweeps.budget = 0
    for random_state in RANDOM_STATES:
        summary = compute(RunRequest.create(random_state=random_state), cache=None).result.summary
        print(f"random state {random_state}: R_N {summary['normalized'][0]:.12f}, "
              f"M_G {summary['nieqa_global'][0]:.12f}, DEMaP {summary['distance_spearman'][0]:.12f}")


if __name__ == "__main__":
    main()
