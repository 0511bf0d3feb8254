"""The explore tab's background job: compute a run, hand the page its partial records, report a lost or
cancelled job.

:func:`compute_record` is the job (:mod:`components.explore` wires it); a record of the run in progress
(:func:`components.records.partial_record`) reaches the page as the input is read, as the algorithm ends and
after each group of measures, its arrays kept in the result cache (:meth:`lab.ResultCache.put_partial`).
"""

import functools
import logging
import secrets

from dash import no_update

from lab import RunRequest, StateError, ViewState
from lab.compute import compute
from serving.managers import job_deadline

from .figures import empty_figure
from .jobs import LOST_JOB, job_nonce
from .records import checked_record, failure_record, partial_record, run_record

__all__ = ["EMBEDDING_MESSAGE", "EXPLORE_REQUEST", "MEASURING", "MEASURING_MESSAGE", "compute_record", "partial_of",
           "report_lost", "revert_cancelled"]

logger = logging.getLogger(__name__)

EXPLORE_REQUEST = "explore request"  # how a refusal names the explore job's request store (jobs.job_nonce)

# A card whose measure the run shown is still computing.
MEASURING = "…"
MEASURING_MESSAGE = ("Measuring: the output is drawn; each card fills in as its measure is computed (the job box "
                     "names the one under way).")
EMBEDDING_MESSAGE = ("Embedding: the input is drawn; the output follows when the algorithm ends, then each card as "
                     "its measure is computed.")


def compute_record(services, job, session, report, show=None):
    """The background job: compute (or read) the run its request names (:meth:`lab.RunRequest.from_dict`,
    validated again), under its deadline; any failure becomes the record's message. The job ledger
    knows it ran to its end.

    ``show(record)`` hands the page each partial record on the way (the input, the embedding, then the
    measures group by group; :func:`lab.compute.study.compute`'s ``partial``), its arrays kept in the result cache.
    """
    try:
        nonce = job_nonce(job, EXPLORE_REQUEST)
    except StateError as error:
        return failure_record(error)
    with services.jobs.running(nonce):
        try:
            request = RunRequest.from_dict(job.get("request"))
            uploads = services.uploads.authorized(session, request)
            with job_deadline():
                result, cached = compute(request, cache=services.results, progress=report, uploads=uploads,
                                         partial=None if show is None else functools.partial(
                                             _show_partial, services, request, show))
        except Exception as error:  # every failure is the page's message; the server keeps serving
            return failure_record(error)
        return run_record(request, result, cached)


def _show_partial(services, request, show, result):
    """Keep a partial result where the page reads it, then hand the page its record. Either failing (a store
    full or unreachable) is logged: the run goes on, and the page draws it when it ends. A deadline or a
    cancellation is no ``Exception`` and stops the run as anywhere else."""
    try:
        services.results.put_partial(request, result)
        show(partial_record(request, result))
    except Exception:  # noqa: BLE001 - best effort: the whole run is what the page waits for
        logger.warning("a partial result of %s did not reach the page", request.slug(), exc_info=True)


def report_lost(services, running, job):
    """A job that stopped running without having ended was lost: the page says so, and waits no more. The part of
    its run it published is dropped: drawn after this report, it covered it (a job killed as it started)."""
    if running or not job:
        return no_update
    try:
        nonce = job_nonce(job, EXPLORE_REQUEST)
    except StateError as error:
        return failure_record(error)
    if services.jobs.ended(nonce):
        return no_update
    try:
        services.results.drop_partial(RunRequest.from_dict(job.get("request")))
    except Exception:  # noqa: BLE001 - a forged request, a store that fails: the report stands all the same
        logger.warning("the part of a lost run was not dropped", exc_info=True)
    return {"status": "failed", "message": LOST_JOB}


def partial_of(services, request, session):
    """``(request, its partial result or None)``, for :func:`draw_run`'s ``loaded``: this session's only."""
    services.uploads.for_session(session).authorize(request.data)
    return request, services.results.get_partial(request)


def revert_cancelled(services, _clicks, shown, state, job):
    """Cancel: the controls go back to the run the views show, and say so; ``(apply, message, output figure)``.

    A run cancelled while measuring keeps its output drawn with the measures done; one cancelled before its
    algorithm ended leaves its output view saying so. Part of an earlier run (its job replaced by the one
    cancelled) is computed again, as the controls go back to it.
    """
    try:
        if job:
            services.jobs.set_status(job_nonce(job, EXPLORE_REQUEST), "cancelled")
        status = checked_record(shown)["status"] if shown and state else None
        if status not in ("done", "partial"):
            return no_update, no_update, no_update
        current, request = ViewState.from_dict(state), RunRequest.from_dict(shown["request"])
    except StateError:  # stores this page never wrote: there is no run to go back to
        return no_update, no_update, no_update
    cancelled = job.get("request") if isinstance(job, dict) else None
    if status == "partial" and cancelled == shown["request"]:
        if not shown.get("embedded"):
            return no_update, (f"Cancelled before its algorithm ended: {request.describe()}. Change a control, or "
                               "reload, to compute it."), empty_figure("Cancelled before the algorithm ended.")
        return no_update, (f"Cancelled while measuring {request.describe()}: the views show its output and the "
                           f"cards the measures done ({MEASURING} marks the others). Change a control, or reload, to "
                           "compute them."), no_update
    restored = current.replace(data=request.data, method=request.method)
    said = "the previous run" if status == "done" else "the previous run, computed again"
    return {"state": restored.to_dict(), "nonce": secrets.token_hex(8),
            "message": f"Cancelled. The views show {said}: {request.describe()}."}, no_update, no_update
