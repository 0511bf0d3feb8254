"""Embeddings made elsewhere, judged from their files as the page judges an uploaded output.

:func:`judge_files` reads one input file and one or many output files (any format the upload reads,
:func:`datasets.parse_upload`, with the page's limits and messages) and evaluates each output with
the measures a run computes (:func:`lab.compute.runs.run_measures`); :func:`verdict_rows` lays the
verdicts out one row per output. ``python -m lab evaluate`` (:mod:`lab.compute.commands`) is its command line.
"""

import dataclasses
import math
import pathlib
import warnings

import datasets
import measures

from . import catalogue
from .choices import OutputRef, UploadRef
from .runs import RunRequest, run_measures

__all__ = ["FileContents", "Verdict", "judge_files", "output_files", "uploaded_request", "verdict_rows",
           "yardstick_columns"]


class FileContents:
    """Files read into memory, served by content hash as a session's upload store serves them
    (``read(ref) -> bytes``), so a run of files judged here is computed as the page computes an upload's."""

    def __init__(self, *contents):
        self._by_hash = {datasets.upload_sha256(content): content for content in contents}

    def read(self, reference):
        """The bytes of ``reference`` (an :class:`UploadRef` or :class:`OutputRef`).

        Raises
        ------
        measures.DatasetError
            When no file given has its content (one changed on disk since it was judged).
        """
        if reference.sha256 not in self._by_hash:
            raise measures.DatasetError(f"{reference.filename} changed since it was read; judge it again.")
        return self._by_hash[reference.sha256]


def uploaded_request(data, n_neighbors):
    """The page's run request of a parsed input with its output file: "your file, measured as uploaded".

    Parameters
    ----------
    data : datasets.Dataset
        :func:`datasets.parse_upload`'s reading of the input with its ``output`` file (columns resolved
        to indices, each file's hash).
    n_neighbors : int

    Returns
    -------
    RunRequest
        Computed with :class:`FileContents` of the two files, its result is the run the page shows
        for the same two uploads (:func:`lab.compute.compute`), and its report is the page's.
    """
    read, output = data.upload, data.upload.output
    reference = UploadRef(read.sha256, read.filename, columns=read.columns, color_column=read.color_column,
                          truth_columns=read.truth_columns, drop_nonfinite=read.drop_nonfinite, array=read.array,
                          output=OutputRef(columns=output.columns, sha256=output.sha256, filename=output.filename,
                                           array=output.array))
    return RunRequest.create(catalogue.UPLOAD, catalogue.UPLOADED_OUTPUT, n_neighbors=n_neighbors, upload=reference)


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
    yardsticks : measures.Yardsticks or None
        When asked for: each measure's random-output and best values on this input (:func:`measures.yardsticks`).
    notes : tuple of str
        Besides the evaluation's: yardsticks asked for and not computed, and why.
    request : RunRequest or None
        The page's run of the input with this output (:func:`uploaded_request`), for its report.
    path : pathlib.Path or None
        The output file read (for the report's run; rows and messages name the file only).
    """

    output: str
    evaluation: "measures.Evaluation | None" = None
    error: "str | None" = None
    yardsticks: "measures.Yardsticks | None" = None
    notes: tuple = ()
    request: "RunRequest | None" = None
    path: "pathlib.Path | None" = None


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


def yardstick_columns(random, best):
    """A row's yardstick columns: ``<name> random`` and ``<name> best`` of each measure that has them.

    Examples
    --------
    >>> yardstick_columns({"stress": 0.6}, {"trustworthiness": 1.0})
    {'stress random': 0.6, 'trustworthiness best': 1.0}
    """
    return {**{f"{name} random": float(value) for name, value in random.items()},
            **{f"{name} best": float(value) for name, value in best.items()}}


def judge_files(input_path, output_paths, n_neighbors, *, which=None, truth_columns=None, color_column=None,
                yardsticks=False):
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
    yardsticks : bool, default=False
        Also each measure's random-output and best values (:func:`measures.yardsticks`, one seeded draw,
        as the page), for inputs of at most :data:`lab.compute.catalogue.YARDSTICK_MAX_SAMPLES` points (the
        page's limit; above it the row's notes say so).

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
                chosen = names if which is None else list(which)
                evaluation = measures.evaluate(data.X, data.Y, n_neighbors, truth=data.truth, labels=labels,
                                               which=chosen)
                sticks, notes = None, ()
                if yardsticks and len(data.X) > catalogue.YARDSTICK_MAX_SAMPLES:
                    notes = (f"Yardsticks not computed: at most {catalogue.YARDSTICK_MAX_SAMPLES:,} points; this "
                             f"input has {len(data.X):,}.",)
                elif yardsticks:
                    sticks = measures.yardsticks(data.X, data.Y, n_neighbors, chosen, truth=data.truth, labels=labels)
        except measures.ProcrustesLabError as error:  # the parser's and the measures' messages
            yield Verdict(path.name, error=str(error))
        else:
            request = uploaded_request(data, n_neighbors)
            yield Verdict(path.name, evaluation=evaluation, yardsticks=sticks, notes=notes,
                          request=request if which is None else request.measuring(which), path=path)


def verdict_rows(verdicts):
    """One dict per verdict: ``output``, ``error``, ``k``, each measure's mean and ``<name> median``, its
    yardsticks when computed (:func:`yardstick_columns`), ``notes``.

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
            if verdict.yardsticks is not None:
                row.update(yardstick_columns(verdict.yardsticks.random, verdict.yardsticks.best))
            row["notes"] = " ".join([*evaluation.notes, *verdict.notes])
        rows.append(row)
    return rows
