"""Prepare the tours before a lecture: ``python -m lab.tours prepare [TOUR|STEP …] [--cache-dir DIR]``.

:func:`prepare` computes tour steps (:mod:`lab.tours.presets`) into the dashboard's result cache
(:func:`lab.store.cache.host_results`), so that each opens at once; :func:`main` is the command line.
"""

import argparse
import time

from ..compute.study import compute
from ..store.cache import host_results
from .presets import STEPS, TOURS

__all__ = ["main", "prepare"]


def prepare(names=(), cache=None, *, say=print):
    """Compute tour steps into the result cache before a lecture, so that each opens at once.

    Parameters
    ----------
    names : sequence of str
        Tours (``"gr"``, ``"lecture"``, …) or step names; every step of every tour when empty.
    cache : lab.store.cache.ResultCache, optional
        Default the dashboard's own (:func:`lab.store.cache.host_results`), which the page reads.
    say : callable
        Takes each progress line (one per step, and a last one with the total time).

    Returns
    -------
    list of str
        The steps whose runs failed (each named with its message in ``say``'s lines).

    Raises
    ------
    KeyError
        Naming the tours and steps, for a name that is none of them.
    """
    tours = {tour.key: tour for tour in TOURS}
    unknown = [name for name in names if name not in tours and name not in STEPS]
    if unknown:
        raise KeyError(f"no tour or step {', '.join(map(repr, unknown))}; tours: {', '.join(tours)}; "
                       f"steps: {', '.join(STEPS)}")
    chosen = [step for name in names for step in (tours[name].steps if name in tours else (STEPS[name],))] \
        if names else list(STEPS.values())
    chosen = list({step.name: step for step in chosen}.values())  # a step named twice is computed once
    cache = host_results() if cache is None else cache
    failed, started = [], time.perf_counter()
    for done, step in enumerate(chosen, 1):
        began = time.perf_counter()
        result, cached = compute(step.request(), cache=cache)
        if cached:  # its counts are those of the run that computed it
            say(f"[{done}/{len(chosen)}] {step.name}: ready (already in the cache)")
            continue
        state = "ready" if not result.errors else "failed: " + "; ".join(
            f"{key}: {message}" for key, message in result.errors.items())
        if result.errors:
            failed.append(step.name)
        say(f"[{done}/{len(chosen)}] {step.name}: {state} ({time.perf_counter() - began:.1f} s; runs computed "
            f"{result.computed}, read from the cache {result.cached})")
    say(f"{len(chosen) - len(failed)} of {len(chosen)} steps ready in {time.perf_counter() - started:.1f} s.")
    return failed


def main(argv=None):
    """``python -m lab.tours prepare [TOUR|STEP …] [--cache-dir DIR]``: exit status 0, 1 (a step failed), 2 (usage)."""
    parser = argparse.ArgumentParser(prog="python -m lab.tours", description="Compute the papers' tours into the "
                                     "dashboard's result cache before a lecture, so that every step opens at once.")
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("prepare", help="compute tours or steps (every step when none is named)")
    command.add_argument("names", nargs="*", metavar="TOUR|STEP", help="gr, nq, pn, ml, lecture, or a step's name")
    command.add_argument("--cache-dir", help="the dashboard's cache directory (default $PROCRUSTES_CACHE_DIR or "
                         "./cache, as app.py)")
    args = parser.parse_args(argv)
    try:
        failed = prepare(args.names, host_results(args.cache_dir), say=lambda line: print(line, flush=True))
    except KeyError as error:
        parser.error(error.args[0])
    return 1 if failed else 0

