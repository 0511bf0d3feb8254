"""Caps on the background jobs that run at once: per browser session, per client address and, embedded,
per host.

Every job takes its slots before it runs (:class:`JobSlots`, used by the managers of
:mod:`serving.managers`): at most ``PROCRUSTES_JOBS_PER_SESSION`` of one browser session's jobs at
once, at most ``PROCRUSTES_JOBS_PER_ADDRESS`` of one client address's, and, with the embedded manager,
at most ``PROCRUSTES_JOBS_PER_SERVER`` on one host (:class:`settings.Settings`: their defaults and
why). A job over a cap waits, its box saying so, under its deadline and its Cancel like any running job.
A waiting job that no page has polled for :data:`UNWATCHED_SECONDS` (its tab closed, or a client that
starts jobs and never asks for them) gives its place up with :class:`JobUnwatchedError`.
"""

import contextlib
import functools
import hashlib
import time

from dash import callback_context

import measures
from lab.store.stores import LockTakenError

from components import ids

__all__ = ["SLOT_LEASE_SECONDS", "UNWATCHED_MESSAGE_START", "UNWATCHED_SECONDS", "JobSlots", "JobUnwatchedError",
           "address_of_job", "session_of_job"]

# A slot's lock lapses this long after its job stops renewing it: a job killed (out of memory, or stopped
# by the page while in C code) frees its slots then; one the page stops lets them go at once.
SLOT_LEASE_SECONDS = 6.0
# Seconds between two looks of a queued job for a free slot.
SLOT_POLL_SECONDS = 0.5
# A queued job that no page polled for this long gives its place up. A page polls a running job every
# second or so (Chrome throttles a hidden tab's timers to once a second, and to once a minute only after
# five hidden minutes); a client that starts jobs and never polls them (a flood, issue 20) had them all
# run, each in its turn, ahead of the users queued behind (a user's job waited past 130 s in CI).
UNWATCHED_SECONDS = 30.0
UNWATCHED_MESSAGE_START = "No page asked for this computation for"


class JobUnwatchedError(measures.ProcrustesLabError, RuntimeError):
    """A job waited for a slot while no page polled it for :data:`UNWATCHED_SECONDS`, and gave its place up."""

    def __init__(self, seconds):
        super().__init__(f"{UNWATCHED_MESSAGE_START} {seconds:g} s while it waited for a free slot, so it gave "
                         "its place up; nothing was computed. Change a control, or run it again.")


class JobSlots:
    """Caps on the jobs that run at once: per browser session, per client address and, optionally, per
    server; the rest wait.

    Slot ``i`` of a scope is the store's lock ``job-slot:<scope>:<i>``, held under a lease for the
    whole job, so a job killed (Cancel, out of memory) frees its slot :data:`SLOT_LEASE_SECONDS`
    after its process died. A waiting job looks for a free slot every :data:`SLOT_POLL_SECONDS`,
    and says in its box how many jobs it waits behind; its deadline runs meanwhile.

    Parameters
    ----------
    session_store : store of :mod:`lab.store.stores`
        Holds the session slots: every process (and, with a shared store, every host) running jobs.
    per_session : int
    server_store : store of :mod:`lab.store.stores`, optional
        Holds the server slots (this host's disk); None: no server cap (Celery mode).
    per_server : int, optional
    per_address : int, optional
        Jobs of one client address at once (their slots in ``session_store``: every host's); None: no cap.
    """

    def __init__(self, session_store, per_session, server_store=None, per_server=None, per_address=None):
        self.session_store, self.per_session = session_store, per_session
        self.server_store, self.per_server = server_store, per_server
        self.per_address = per_address

    def around(self, function, progress, last_polled=None):
        """``function`` (a background callback) run once it holds its slots, waiting under the deadline
        that :func:`serving.deadlines.bounded` sets around it; with ``progress``, its box shows the wait.
        ``last_polled`` (see :meth:`held`) lets a job no page asks for give its place up."""
        @functools.wraps(function)
        def in_a_slot(*args, **kwargs):
            def report(label):  # the job box's progress outputs (components.jobs.job_options): bar, label
                if progress:
                    args[0](("0", label))

            with self.held(session_of_job(), report, address=address_of_job(), last_polled=last_polled):
                return function(*args, **kwargs)

        return in_a_slot

    @contextlib.contextmanager
    def held(self, session, report, address=None, last_polled=None):
        """Hold one of ``session``'s slots, then one of ``address``'s, then one of the server's, for the
        block (queued until then).

        Parameters
        ----------
        session : str or None
            The browser session the job came from; None (no session known): no session cap.
        report : callable
            ``report(label)`` shows a queued job's wait in its box.
        address : str, optional
            The client address the job's request came from; None or "": no address cap.
        last_polled : callable, optional
            ``last_polled()``: the note of the page's last poll of this job (a value that changes with
            each poll the manager notes), or None before the first. A job queued while no page polled
            it for :data:`UNWATCHED_SECONDS` raises :class:`JobUnwatchedError`. None (the argument): it
            waits however long no one asks.

        Raises
        ------
        JobUnwatchedError
        """
        scopes = []
        if session is not None:
            scopes.append((self.session_store, self.scope("session", session), self.per_session, "of this session"))
        if address and self.per_address is not None:
            scopes.append((self.session_store, self.scope("address", address), self.per_address, "from this address"))
        if self.server_store is not None:
            scopes.append((self.server_store, "server", self.per_server, "on this server"))
        watched = _Watch(last_polled)
        # Always session, address, server: one order, so no two jobs wait for each other.
        with contextlib.ExitStack() as stack:
            for store, scope, cap, whose in scopes:
                lock = self._take_one_of(store, scope, cap, whose, report, watched.still_wanted)
                stack.push(lock)  # its __exit__, at the end
            yield

    @staticmethod
    def scope(kind, value):
        """The slots' scope of ``value``, a ``kind`` ("session", "address"): any string a request sends,
        hashed into a short key."""
        return f"{kind}:{hashlib.sha256(str(value).encode()).hexdigest()[:32]}"

    @staticmethod
    def slot_lock(store, scope, index):
        """Slot ``index`` of ``scope``: ``store``'s lock under a lease (:data:`SLOT_LEASE_SECONDS`), not yet taken."""
        return store.lock(f"job-slot:{scope}:{index}", wait=0, lease=SLOT_LEASE_SECONDS)

    def _take_one_of(self, store, scope, cap, whose, report, wanted):
        """The first free slot of ``scope`` (its lock, entered), after waiting as long as all ``cap`` are taken
        and ``wanted()`` (:meth:`_Watch.still_wanted`)."""
        queued = False
        while True:
            for index in range(cap):
                lock = self.slot_lock(store, scope, index)
                try:
                    lock.__enter__()
                except LockTakenError:  # taken; a store that fails raises its own error, which ends the job
                    continue
                if queued:
                    report("Starting")
                return lock
            if not queued:
                report(f"Queued behind {cap} running job{'s' if cap > 1 else ''} {whose} (its limit); "
                       "it starts when one ends.")
                queued = True
            if not wanted():
                raise JobUnwatchedError(UNWATCHED_SECONDS)
            time.sleep(SLOT_POLL_SECONDS)


class _Watch:
    """Whether a page still polls a queued job: its poll notes (``last_polled()``, see :meth:`JobSlots.held`)
    changed in the last :data:`UNWATCHED_SECONDS`, as this process's monotonic clock measures it.

    Only a note's change is read, never its time: the web server that writes it may run on another
    host with another clock (Celery). The job's start counts as a change (its first poll may be late).
    """

    def __init__(self, last_polled):
        self.last_polled = last_polled
        self.note = last_polled() if last_polled is not None else None
        self.changed = time.monotonic()

    def still_wanted(self):
        if self.last_polled is None:
            return True
        note, now = self.last_polled(), time.monotonic()
        if note != self.note:
            self.note, self.changed = note, now
        return now - self.changed < UNWATCHED_SECONDS


def session_of_job():
    """The browser session the running job came from, as its callback read it; None if it read none.

    Every job callback reads the tab's session store (``ids.SESSION``) or its page token (as a state,
    or in its request, the tour's): the session when there is one, else the page load.
    """
    values = {**callback_context.inputs, **callback_context.states}
    request = next((value for value in callback_context.inputs.values() if isinstance(value, dict)), {})
    for session in (values.get(f"{ids.SESSION}.data"), values.get(f"{ids.PAGE_TOKEN}.data"), request.get("token")):
        if session:
            return session
    return None


def address_of_job():
    """The client address the running job's request came from (Dash's ``callback_context.remote``: the
    client's, behind the proxies the server is told of), or None."""
    return callback_context.remote or None
