"""The command line, ``python -m lab``: judge embeddings made elsewhere, or compute a run into the page's cache.

- ``python -m lab evaluate INPUT OUTPUT… -k K [--report DIR]``: every output file judged against the input
  file (:func:`lab.compute.judge.judge_files`), one row per output; with ``--report`` each judged output's
  offline HTML report in DIR, the page's report of the same two files uploaded (the run computed again
  as the page computes it: about twice the time).
- ``python -m lab run DATASET ALGORITHM -k K [--n N] … [--report FILE.html]``: one run of the dashboard
  computed into the result cache the page reads (:func:`lab.store.cache.host_results`), so the page then
  opens it at once; one row with its measures, and with ``--report`` the run's offline HTML report. The
  same validation and messages as the page (a value out of its range is refused with the control's words).
  The report is drawn with plotly, which lab/ never imports: :func:`main` takes the writer
  (``write_report``), and ``lab/__main__.py`` passes :func:`components.report.write_report`.

Rows go to standard output as CSV or JSON; progress and refusals to standard error. Exit status 0,
1 (bad input: a file, a value, a run that failed, with its message) or 2 (usage).
"""

import argparse
import csv
import json
import math
import pathlib
import sys

import measures

from ..store.cache import host_results
from . import catalogue
from .choices import StateError
from .judge import FileContents, judge_files, verdict_rows, yardstick_columns
from .runs import RunRequest, failure_message
from .study import compute
from .yardsticks import YardstickRequest

__all__ = ["main", "run_row"]


def _write(rows, stream, form):
    """``rows`` as CSV (one header of every column met, in order) or JSON (a list of objects)."""
    if form == "json":
        json.dump(rows, stream, indent=1, allow_nan=True)
        stream.write("\n")
        return
    columns = list(dict.fromkeys(column for row in rows for column in row))
    writer = csv.DictWriter(stream, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: repr(value) if isinstance(value, float) else value for key, value in row.items()}
                     for row in rows)


def _columns(text):
    """Comma-separated columns: 0-based indices where they are whole numbers, else names."""
    if text is None:
        return None
    return [int(part) if part.strip().isdigit() else part.strip() for part in text.split(",") if part.strip()]


def _parameters(pairs, option):
    """``NAME=VALUE`` pairs as a dict of numbers (or text where a value is not one); the registry validates them."""
    values = {}
    for pair in pairs or ():
        name, equals, text = pair.partition("=")
        if not equals or not name:
            raise StateError([f"{option} takes NAME=VALUE; got {pair!r}."])
        try:
            values[name] = float(text) if any(mark in text for mark in ".eE") else int(text)
        except ValueError:
            values[name] = text
    return values


def run_row(request, result, cached, yardsticks=None):
    """One row of a computed run: what it is, where it came from, each measure's mean and median, its
    yardsticks when given (:class:`lab.compute.yardsticks.YardstickResult`), its notes."""
    row = {"dataset": request.data.dataset, "n": int(result.n_samples), "algorithm": request.method.algorithm,
           "k": request.method.n_neighbors, "cached": cached, "seconds": float(result.seconds)}
    for name, (mean, median) in result.summary.items():
        row[name] = float("nan") if mean is None else float(mean)
        if median is not None and not math.isnan(median):
            row[f"{name} median"] = float(median)
    if yardsticks is not None:
        row.update(yardstick_columns(yardsticks.random, yardsticks.best))
    row["notes"] = " ".join([*result.notes, *(() if yardsticks is None else yardsticks.notes)])
    return row


PROGRESS_WIDTH = 30  # characters of the terminal bar
YARDSTICKS_HELP = ("also each measure's value on outputs that keep nothing of the input (columns '<measure> "
                   "random') and its best attainable value ('<measure> best'); inputs of at most "
                   f"{catalogue.YARDSTICK_MAX_SAMPLES:,} points")


def _progress(stream):
    """``progress(fraction, stage)`` for a run: on a terminal one bar redrawn in place, else a line per stage.

    A terminal (``stream.isatty()``) shows ``[#########.....]  31.0 %  stage``, redrawn with a carriage
    return at each report and ended with a newline by ``report.finish()``; a file or a pipe gets one
    plain line each time the stage changes, a log a script can read.
    """
    last = [None]
    on_terminal = getattr(stream, "isatty", lambda: False)()

    def report(fraction, stage):
        fraction = min(max(float(fraction), 0.0), 1.0)
        if on_terminal:
            filled = round(PROGRESS_WIDTH * fraction)
            line = f"[{'#' * filled}{'.' * (PROGRESS_WIDTH - filled)}] {100 * fraction:5.1f} %  {stage}"
            # Pad over a longer previous line: \r returns to its start without clearing it.
            print(f"\r{line:<{len(last[0] or '')}}", end="", file=stream, flush=True)
            last[0] = line
        elif stage != last[0]:
            last[0] = stage
            print(f"{100 * fraction:5.1f} %  {stage}", file=stream, flush=True)

    def finish():
        if on_terminal and last[0] is not None:
            print(file=stream, flush=True)

    report.finish = finish
    return report


def _evaluate(args, parser, stdout, write_report):
    which = None if args.measures is None else [name.strip() for name in args.measures.split(",") if name.strip()]
    unknown = sorted(set(which or ()) - set(measures.available()))
    if unknown:
        parser.error(f"unknown measure {', '.join(unknown)}; measures: {', '.join(measures.available())}")
    try:
        verdicts = list(judge_files(args.input, args.outputs, args.n_neighbors, which=which,
                                    truth_columns=_columns(args.truth), color_column=args.labels,
                                    yardsticks=args.yardsticks))
    except OSError as error:  # a file that is not there or cannot be read: a usage error
        parser.error(f"cannot read {pathlib.Path(error.filename).name!r}" if error.filename else str(error))
    for verdict in verdicts:
        if verdict.error:
            print(f"{verdict.output}: {verdict.error}", file=sys.stderr)
    rows = verdict_rows(verdicts)
    failed = any(verdict.error for verdict in verdicts)
    if args.report is not None:
        written = set()  # outputs of one name in two folders, or "a.csv" beside "a.npy", get a file each
        for verdict, row in zip(verdicts, rows):
            if verdict.request is not None:
                row["report"] = _verdict_report(args, verdict, write_report, written)
                failed |= row["report"] == ""
    _write(rows, stdout, args.format)
    return 1 if failed else 0


def _verdict_report(args, verdict, write_report, written):
    """Write ``verdict``'s report into ``args.report`` (a folder, made if missing) under a name not in
    ``written`` (``<output>_report.html``, else ``<output>-2_report.html``, ...), add it there and return it;
    "" (the reason on standard error) when the run or the file fails."""
    folder = pathlib.Path(args.report)
    stem, number = pathlib.Path(verdict.output).stem, 1
    name = f"{stem}_report.html"
    while name in written:
        number += 1
        name = f"{stem}-{number}_report.html"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        files = FileContents(pathlib.Path(args.input).read_bytes(), verdict.path.read_bytes())
        result = compute(verdict.request, cache=None, uploads=files)
        write_report(folder / name, verdict.request, result.result, yardsticks=verdict.yardsticks)
    except OSError as error:
        print(f"{verdict.output}: cannot write its report: {error.strerror or error}", file=sys.stderr)
        return ""
    except measures.ProcrustesLabError as error:
        print(f"{verdict.output}: no report: {failure_message(error)}", file=sys.stderr)
        return ""
    written.add(name)
    print(f"report written to {folder / name}", file=sys.stderr)
    return name


def _run(args, stdout, write_report):
    progress = _progress(sys.stderr)
    try:
        request = RunRequest.create(args.dataset, args.algorithm, n=args.n, noise=args.noise,
                                    random_state=args.random_state,
                                    dataset_params=_parameters(args.data_param, "--data-param"),
                                    n_neighbors=args.n_neighbors,
                                    algorithm_params=_parameters(args.algorithm_param, "--algorithm-param"))
        # Checked before the run is computed (a run above the yardsticks' cap is refused at once).
        yardsticks = YardstickRequest(request) if args.yardsticks else None
        cache = host_results(args.cache_dir)
        result, cached = compute(request, cache=cache, progress=progress)
        # Through the same cache: the page's Yardsticks button then shows them at once.
        sticks = None if yardsticks is None else compute(yardsticks, cache=cache, progress=progress).result
    except Exception as error:  # a value out of range, a run that fails: its message, never a traceback
        progress.finish()
        print(failure_message(error), file=sys.stderr)
        return 1
    progress(1.0, "done")
    progress.finish()
    print(f"{request.describe()}: {'read from' if cached else 'computed into'} the result cache", file=sys.stderr)
    _write([run_row(request, result, cached, sticks)], stdout, args.format)
    if args.report is None:
        return 0
    try:
        path = write_report(args.report, request, result, yardsticks=sticks)
    except OSError as error:  # a folder that is not there, a file that cannot be written: the message, no traceback
        print(f"cannot write the report {args.report!r}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"report written to {path}", file=sys.stderr)
    return 0


def main(argv=None, stdout=None, *, write_report=None):
    """``python -m lab evaluate …`` or ``python -m lab run …``: exit status 0, 1 (bad input) or 2 (usage).

    ``write_report(path, request, result, yardsticks=None)`` writes a ``--report`` file and returns its path
    (:func:`components.report.write_report`, which ``python -m lab`` passes); without it ``--report`` is a
    usage error, before anything is computed.
    """
    parser = argparse.ArgumentParser(prog="python -m lab", description="Procrustes Lab without the page: judge "
                                     "embeddings made elsewhere, or compute runs into the page's result cache.")
    commands = parser.add_subparsers(dest="command", required=True)
    evaluate = commands.add_parser("evaluate", help="judge output files (or folders of them) against one input file")
    evaluate.add_argument("input", metavar="INPUT", help="the points: a table (.csv, .tsv, .txt), .npy or .npz")
    evaluate.add_argument("outputs", nargs="+", metavar="OUTPUT", help="an embedding of INPUT's rows, row for row, "
                          "or a folder of them")
    evaluate.add_argument("-k", "--n-neighbors", type=int, required=True, help="k of every measure")
    evaluate.add_argument("--measures", help="comma-separated names (default: every measure a run computes)")
    evaluate.add_argument("--truth", help="comma-separated columns of INPUT holding a ground-truth chart")
    evaluate.add_argument("--labels", help="a column of INPUT holding class labels")
    evaluate.add_argument("--format", choices=("csv", "json"), default="csv")
    evaluate.add_argument("--yardsticks", action="store_true", help=YARDSTICKS_HELP)
    evaluate.add_argument("--report", metavar="DIR", help="also write each judged output's report into DIR "
                          "(<output>_report.html: one HTML file that opens offline, as the page's report of the two "
                          "files uploaded); its run is computed again as the page does, about twice the time")
    run = commands.add_parser("run", help="compute one run into the dashboard's result cache (the page then "
                              "opens it at once)")
    run.add_argument("dataset", metavar="DATASET", help="a data set of the registry, e.g. swissroll")
    run.add_argument("algorithm", metavar="ALGORITHM", help="an algorithm of the registry, e.g. isomap")
    run.add_argument("-k", "--n-neighbors", type=int, required=True, help="k of the algorithm and every measure")
    run.add_argument("--n", type=int, help="points (default: the data set's default size)")
    run.add_argument("--noise", type=float, default=0.0, help="Gaussian noise σ added to the points")
    run.add_argument("--random-state", type=int, default=0, help="seeds the sample and the noise")
    run.add_argument("--data-param", action="append", metavar="NAME=VALUE", help="a data-set parameter (repeat)")
    run.add_argument("--algorithm-param", action="append", metavar="NAME=VALUE",
                     help="an algorithm parameter (repeat)")
    run.add_argument("--cache-dir", help="the dashboard's cache directory (default: PROCRUSTES_CACHE_DIR, as app.py)")
    run.add_argument("--format", choices=("csv", "json"), default="csv")
    run.add_argument("--yardsticks", action="store_true", help=YARDSTICKS_HELP)
    run.add_argument("--report", metavar="FILE.html", help="also write the run's report: one HTML file that opens "
                     "offline in any browser (the linked views, every measure, the provenance)")
    args = parser.parse_args(argv)
    stdout = stdout or sys.stdout
    if args.report is not None and write_report is None:
        parser.error("--report needs a report writer: run it as python -m lab, which draws it with plotly")
    if args.command == "evaluate":
        return _evaluate(args, parser, stdout, write_report)
    return _run(args, stdout, write_report)
