"""Embeddings made elsewhere, judged from their files as the page judges an uploaded output.

:func:`judge_files` reads one input file and one or many output files (any format the upload reads,
:func:`datasets.parse_upload`, with the page's limits and messages) and evaluates each output with
the measures a run computes (:func:`lab.compute.runs.run_measures`); :func:`verdict_rows` lays the
verdicts out one row per output. ``python -m lab evaluate`` (:mod:`lab.__main__`) is its command line.
"""

import argparse
import csv
import dataclasses
import json
import math
import pathlib
import sys
import warnings

import datasets
import measures

from .runs import run_measures

__all__ = ["Verdict", "judge_files", "main", "output_files", "verdict_rows"]


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One output file's verdict: its evaluation, or the message that refused it.

    Attributes
    ----------
    output : str
        The output file's name.
    evaluation : measures.Evaluation or None
        None when the file (or the pair) was refused.
    error : str or None
        The parser's or the measures' message, naming no server path.
    """

    output: str
    evaluation: "measures.Evaluation | None" = None
    error: "str | None" = None


def output_files(paths):
    """The output files named by ``paths``: each file, and every file of each folder (sorted by name).

    Raises
    ------
    FileNotFoundError
        For a path that is neither a file nor a folder.
    """
    found = []
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            found += sorted(entry for entry in path.iterdir() if entry.is_file() and not entry.name.startswith("."))
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"No file or folder {path.name!r}.")
    return found


def judge_files(input_path, output_paths, n_neighbors, *, which=None, truth_columns=None, color_column=None):
    """Evaluate each output file as an embedding of the input file's points, row for row.

    Parameters
    ----------
    input_path : path-like
        The points (a table, ``.npy``, ``.npz``, ... as the upload reads them).
    output_paths : sequence of path-like
        Output files, or folders of them (see :func:`output_files`).
    n_neighbors : int
        k of every measure.
    which : sequence of str, optional
        Measure names (:func:`measures.available`); default those a run computes on this data.
    truth_columns, color_column : optional
        As :func:`datasets.parse_upload`: a ground-truth chart of the input (truth measures), a label
        column (the label measures read its classes).

    Yields
    ------
    Verdict
        One per output file, in order; a refused file's message does not stop the others.
    """
    input_path = pathlib.Path(input_path)
    content = input_path.read_bytes()
    for path in output_files(output_paths):
        try:
            data = datasets.parse_upload(content, input_path.name, n_neighbors=n_neighbors,
                                         output=datasets.OutputFile(path.read_bytes(), path.name),
                                         truth_columns=truth_columns, color_column=color_column)
            names, labels = run_measures(data, data.Y)
            with warnings.catch_warnings():  # kept in the evaluation's notes, which the rows carry
                warnings.simplefilter("ignore", measures.ProcrustesLabWarning)
                evaluation = measures.evaluate(data.X, data.Y, n_neighbors, truth=data.truth, labels=labels,
                                               which=names if which is None else list(which))
        except measures.ProcrustesLabError as error:  # the parser's and the measures' messages
            yield Verdict(path.name, error=str(error))
        else:
            yield Verdict(path.name, evaluation=evaluation)


def verdict_rows(verdicts):
    """One dict per verdict: ``output``, ``error``, ``k``, each measure's mean and ``<name> median``, ``notes``.

    A refused output's row holds its message and no values; a measure with no median (a global
    value) has none; ``notes`` joins the evaluation's notes (a measure not computed, and why; an
    estimate, and how). Floats stay floats (``repr`` gives them back exactly).
    """
    rows = []
    for verdict in verdicts:
        row = {"output": verdict.output, "error": verdict.error or ""}
        evaluation = verdict.evaluation
        if evaluation is not None:
            row["k"] = evaluation.n_neighbors
            for name in evaluation.measures:
                row[name] = float(evaluation.mean[name])
                median = evaluation.median.get(name)
                if median is not None and not math.isnan(median):
                    row[f"{name} median"] = float(median)
            row["notes"] = " ".join(evaluation.notes)
        rows.append(row)
    return rows


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


def main(argv=None, stdout=None):
    """``python -m lab evaluate INPUT OUTPUT… -k K``: exit status 0, 1 (an output refused), 2 (usage).

    Every output is judged; a refused one's message goes to standard error, and its row says it.
    """
    parser = argparse.ArgumentParser(prog="python -m lab", description="Judge embeddings made elsewhere against "
                                     "their input, with every measure the dashboard computes.")
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("evaluate", help="judge output files (or folders of them) against one input file")
    command.add_argument("input", metavar="INPUT", help="the points: a table (.csv, .tsv, .txt), .npy or .npz")
    command.add_argument("outputs", nargs="+", metavar="OUTPUT", help="an embedding of INPUT's rows, row for row, "
                         "or a folder of them")
    command.add_argument("-k", "--n-neighbors", type=int, required=True, help="k of every measure")
    command.add_argument("--measures", help="comma-separated names (default: every measure a run computes)")
    command.add_argument("--truth", help="comma-separated columns of INPUT holding a ground-truth chart")
    command.add_argument("--labels", help="a column of INPUT holding class labels")
    command.add_argument("--format", choices=("csv", "json"), default="csv")
    args = parser.parse_args(argv)
    which = None if args.measures is None else [name.strip() for name in args.measures.split(",") if name.strip()]
    unknown = sorted(set(which or ()) - set(measures.available()))
    if unknown:
        parser.error(f"unknown measure {', '.join(unknown)}; measures: {', '.join(measures.available())}")
    try:
        verdicts = list(judge_files(args.input, args.outputs, args.n_neighbors, which=which,
                                    truth_columns=_columns(args.truth), color_column=args.labels))
    except OSError as error:  # a file that is not there or cannot be read: a usage error
        parser.error(f"cannot read {pathlib.Path(error.filename).name!r}" if error.filename else str(error))
    for verdict in verdicts:
        if verdict.error:
            print(f"{verdict.output}: {verdict.error}", file=sys.stderr)
    _write(verdict_rows(verdicts), stdout or sys.stdout, args.format)
    return 1 if any(verdict.error for verdict in verdicts) else 0


def _columns(text):
    """Comma-separated columns: 0-based indices where they are whole numbers, else names."""
    if text is None:
        return None
    return [int(part) if part.strip().isdigit() else part.strip() for part in text.split(",") if part.strip()]
