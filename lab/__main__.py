"""``python -m lab evaluate INPUT OUTPUT… -k K [--report DIR]`` and ``python -m lab run DATASET ALGORITHM -k K
[--report FILE]`` (:func:`lab.compute.commands.main`)."""

from .compute.commands import main


def _write_report(path, request, result, yardsticks=None):
    """``--report``'s writer, :func:`components.report.write_report`: lab/'s one import from above it (the
    report is drawn with plotly; it imports no Dash), named in tests/test_layering.py, and made only when a
    report is asked for, so a command without ``--report`` never loads plotly."""
    from components.report import write_report

    return write_report(path, request, result, yardsticks=yardsticks)


raise SystemExit(main(write_report=_write_report))
