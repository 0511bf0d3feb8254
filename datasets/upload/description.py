"""What :func:`~datasets.upload.parse_upload` read and chose: :class:`UploadDescription`, :class:`OutputDescription`.

An uploaded :class:`~datasets.registry.Dataset` carries one as ``Dataset.upload``: the file (its
name, hash, format and array), the columns taken as coordinates, colour, truth and output, the
options as resolved, the rows dropped and the warnings given. Column indices are 0-based in the
file that holds the column; :meth:`UploadDescription.parser_options` passes them back to the
parser, which then reads the same data.
"""

import dataclasses

from measures.errors import DatasetError

from .tables import OutputFile


@dataclasses.dataclass(frozen=True)
class OutputDescription:
    """Where the output (the embedding to judge) of an upload came from, and which of its columns were read.

    Attributes
    ----------
    source : {"columns", "file"}
        Columns of the input file (``output_columns``), or a second file (``output``).
    columns : tuple of int
        0-based indices of the output's columns in the file that holds them.
    column_names : tuple of str
        Their names (``"column 1"``, ... where that file has none); ``Dataset.output_labels``.
    dim : int
        How many columns, the output's dimension d.
    filename : str or None
        For a file, the name it was uploaded under; None for columns of the input.
    sha256 : str or None
        For a file, its :func:`~datasets.upload.upload_sha256`; None for columns of the input.
    format : {"text", "npy", "npz"} or None
        For a file, how it was read; None for columns of the input.
    array : str or None
        For an ``.npz`` file, the array read; None otherwise.
    """

    source: str
    columns: tuple[int, ...]
    column_names: tuple[str, ...]
    dim: int
    filename: str | None = None
    sha256: str | None = None
    format: str | None = None
    array: str | None = None


@dataclasses.dataclass(frozen=True)
class UploadDescription:
    """What :func:`~datasets.upload.parse_upload` read from an uploaded file and chose in it.

    Attributes
    ----------
    filename : str
        The name the file was uploaded under.
    sha256 : str
        :func:`~datasets.upload.upload_sha256` of the file.
    format : {"text", "npy", "npz"}
        How it was read.
    array : str or None
        For an ``.npz`` file, the array read; None otherwise.
    columns : tuple of int
        0-based indices of the coordinate columns, in the order of ``X``'s columns.
    column_names : tuple of str
        Their names: the header's, or ``"column 1"``, ... where the file has none.
    color_column : int or None
        The colour column's index, if one was chosen.
    color_categories : tuple of str or None
        For a colour column of text labels, the labels its codes 0..m-1 stand for, in order of
        first appearance; None for a numeric colouring.
    truth_columns : tuple of int or None
        The ground-truth columns' indices (1 to 3), if chosen.
    output : OutputDescription or None
        Where the output came from, if one was given.
    drop_nonfinite : bool
        The option as given: rows with NaN or infinite values were dropped, not refused.
    n_neighbors : int or None
        The option as given: the bound ``n >= n_neighbors + 2`` checked, if any.
    dropped_rows : int
        How many rows were dropped for NaN or infinite values (of the input or of the output).
    n : int
        How many points were kept, ``X.shape[0]``.
    dim : int
        How many coordinates, ``X.shape[1]``.
    warnings : tuple of str
        The messages of the warnings given (e.g. :data:`~datasets.upload.PCA_SUGGESTED`).
    metadata_columns : tuple of int
        The metadata columns' indices (carried with the points, not embedded); empty when none.

    Examples
    --------
    >>> from datasets.upload import parse_upload
    >>> upload = parse_upload(b"x,y,kind\\n0,0,a\\n1,0,b\\n0,1,a\\n", "points.csv", color_column="kind").upload
    >>> upload.columns, upload.column_names, upload.color_column, upload.color_categories
    ((0, 1), ('x', 'y'), 2, ('a', 'b'))
    >>> upload.parser_options()["color_column"]
    2
    """

    filename: str
    sha256: str
    format: str
    array: str | None
    columns: tuple[int, ...]
    column_names: tuple[str, ...]
    color_column: int | None
    color_categories: tuple[str, ...] | None
    truth_columns: tuple[int, ...] | None
    output: OutputDescription | None
    drop_nonfinite: bool
    n_neighbors: int | None
    dropped_rows: int
    n: int
    dim: int
    warnings: tuple[str, ...]
    metadata_columns: tuple[int, ...] = ()

    def parser_options(self, output_content: bytes | None = None) -> dict:
        """Keyword arguments of :func:`~datasets.upload.parse_upload` that read the same data from the same file.

        Parameters
        ----------
        output_content : bytes, optional
            The output file's bytes, needed when the output came from a second file (this
            description keeps its hash, not its content).

        Returns
        -------
        dict
            ``columns``, ``color_column``, ``truth_columns``, ``metadata_columns``, ``drop_nonfinite``,
            ``n_neighbors`` and ``array`` as resolved, and ``output_columns`` or ``output`` (an
            :class:`~datasets.upload.OutputFile`) when there was an output.

        Raises
        ------
        DatasetError
            If the output came from a file and ``output_content`` is not given.
        """
        options = {"columns": list(self.columns), "color_column": self.color_column,
                   "truth_columns": None if self.truth_columns is None else list(self.truth_columns),
                   "metadata_columns": list(self.metadata_columns) or None,
                   "drop_nonfinite": self.drop_nonfinite, "n_neighbors": self.n_neighbors, "array": self.array}
        output = self.output
        if output is None:
            return options
        if output.source == "columns":
            return {**options, "output_columns": list(output.columns)}
        if output_content is None:
            raise DatasetError(f"The output was read from '{output.filename}': pass its bytes as output_content "
                               "to replay this parse.")
        return {**options, "output": OutputFile(output_content, output.filename, columns=list(output.columns),
                                                array=output.array)}
