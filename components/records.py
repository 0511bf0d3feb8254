"""What the page keeps of a run (no arrays): the record of a computed or failed run, and its check.

The explore tab writes a record into its stores (:data:`ids.RUN_SHOWN`); a browser may send any value
back, so every reader checks it first (:func:`checked_record`).
"""

from lab import StateError, failure_message
from lab.compute.choices import json_number

__all__ = ["checked_record", "failure_record", "partial_record", "run_record"]


def run_record(request, result, cached):
    """What the page keeps of a run: its request, cards and notes (no arrays)."""
    return {"status": "done", "request": request.to_dict(), "cached": cached,
            "seconds": float(result.seconds), "n": int(result.n_samples),
            "summary": {name: list(pair) for name, pair in result.summary.items()}}


def partial_record(request, result):
    """What the page keeps of a run still computing: its input, whether its output is there yet (``embedded``),
    and the measures done so far (:meth:`lab.ResultCache.get_partial` holds the arrays)."""
    return {**run_record(request, result, False), "status": "partial", "embedded": bool(result.Y.shape[1])}


def failure_record(error):
    """The record of a run that failed: the message the page shows (the details go to the log)."""
    return {"status": "failed", "message": failure_message(error)}


def checked_record(record):
    """``record`` if it is one :func:`run_record`, :func:`partial_record` or :func:`failure_record` writes (the
    page's stores hold them, and a request may carry anything); a :class:`lab.StateError` otherwise."""
    if not isinstance(record, dict):
        raise StateError(["The run record must be an object."])
    if record.get("status") == "failed" and isinstance(record.get("message"), str):
        return record
    summary = record.get("summary")
    if (record.get("status") not in ("done", "partial") or not isinstance(record.get("request"), dict)
            or not isinstance(record.get("cached"), bool)
            or not json_number(record.get("seconds")) or not isinstance(summary, dict)
            or not all(isinstance(pair, list) and all(value is None or json_number(value) for value in pair)
                       for pair in summary.values())):
        raise StateError(["The run record is not one this page writes."])
    return record
