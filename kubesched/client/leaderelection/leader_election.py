"""client-go leader election on the simulated clock: acquire, renew, lose, release.

Upstream: staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go at v1.18
(NewLeaderElector, LeaderElectionConfig, LeaderCallbacks, LeaderElector.Run, RunOrDie,
GetLeader, IsLeader, acquire, renew, release, tryAcquireOrRenew, maybeReportTransition,
Check); staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go (JitterUntil, Jitter,
Until, PollImmediateUntil) for the timing; cmd/kube-scheduler/app/options/options.go
makeLeaderElectionConfig for the identity.

How the goroutines become loop callbacks (one ``tryAcquireOrRenew`` per callback):

- ``run()`` = ``Run(ctx)``. ``acquire`` = ``wait.JitterUntil(try, retry_period, JitterFactor
  1.2, sliding)``: a try now, then one every ``wait.Jitter(retry_period, 1.2)`` — a wait drawn
  in ``[retry_period, 2.2 · retry_period)``, 2–4.4 s by default — until one succeeds; then the
  Event ``<identity> became leader``, ``on_started_leading(ctx)`` and ``renew``.
- ``renew`` = ``wait.Until(body, retry_period)`` (no jitter): a body starts with a deadline of
  ``renew_deadline`` and tries at once, then every ``retry_period``; the first success ends
  the body and the next one starts ``retry_period`` later. At the deadline the lease is lost:
  Event ``<identity> stopped leading``, log ``failed to renew lease <lock>: timed out waiting
  for the condition``, release when ``release_on_cancel``, then ``on_stopped_leading()``
  (kube-scheduler's is ``klog.Fatalf("leaderelection lost")``: the caller decides).
- ``stop()`` cancels the run context. While acquiring: no more tries, then
  ``on_stopped_leading()`` (upstream's deferred call runs even if it never led). While
  leading: a body in progress ends as a lost lease (its poll sees the context done); between
  bodies nothing is recorded; then release if ``release_on_cancel`` (False for kube-scheduler
  1.18: the lease stays until it expires), the leading context is cancelled and
  ``on_stopped_leading()`` runs.
- ``kill()`` models the process dying: every timer is dropped, no callback, no release.

A candidate may take over when the record it sees has an empty holder, or when it has not
seen the raw record change for ``lease_duration`` of its own clock: the expiry is measured
from the moment this candidate *observed* the last change (``observedTime``), not from the
record's ``renewTime``.

Log hook: ``log(verbosity, message)``, klog's verbosity (0 for Info/Error) and upstream's
text. Observer hook (keyword-only ``observer``): called with one ``ElectionObservation`` for
every try (``attempt``, with ``succeeded``), ``new-leader`` (maybeReportTransition),
``acquired``, ``renewed`` (a renew body succeeded), ``lost`` (a renew body failed),
``released`` and ``stopped`` (Run returned; on_stopped_leading follows).

Deviation: no threads: each step is a callback on the EventLoop and API calls take no
simulated time, so a try is atomic (a Conflict only comes from another writer between a
Get and an Update, i.e. an injected one). Callbacks that upstream starts with ``go``
(on_started_leading, on_new_leader) run synchronously at that point. At a renew deadline
that coincides with a retry tick, the deadline wins (upstream's request would fail with the
expired context anyway). ``wait.Jitter`` draws from the ``rng`` given (a seeded
``random.Random``: kube-scheduler's elector gets one per process, see cmd/app/server.py);
without one there is no jitter (tries exactly every ``retry_period``).
``check`` returns the error text or None instead of a Go error. The "Lock identity is
empty" check of later releases is not made (1.18 has none).
"""

from __future__ import annotations

import enum
import math
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from kubesched.client.leaderelection.resourcelock import Interface, LeaderElectionRecord
from kubesched.cluster import errors

JITTER_FACTOR: Final = 1.2
ERR_WAIT_TIMEOUT: Final = "timed out waiting for the condition"
CONTEXT_CANCELED: Final = "context canceled"
IDENTITY_NAMESPACE: Final = uuid.UUID("6b756265-7363-6865-642d-6c6561646572")
"""Namespace for deterministic identity UUIDs ("kubesched-leader" in ASCII)."""

Log = Callable[[int, str], None]


def no_log(verbosity: int, message: str) -> None:
    return None


# ----- context -------------------------------------------------------------------------------

class Context:
    """``context.Context`` reduced to cancellation: ``done``, ``err``, children, callbacks."""

    def __init__(self, parent: Context | None = None) -> None:
        self.err: str | None = None
        self._callbacks: list[Callable[[], None]] = []
        if parent is not None:
            parent.add_done_callback(self.cancel)

    @property
    def done(self) -> bool:
        return self.err is not None

    def cancel(self, err: str = CONTEXT_CANCELED) -> None:
        """Mark done and run the done-callbacks once, in registration order."""
        if self.err is not None:
            return
        self.err = err
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def add_done_callback(self, callback: Callable[[], None]) -> None:
        if self.done:
            callback()
        else:
            self._callbacks.append(callback)


# ----- configuration -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LeaderCallbacks:
    """Upstream: LeaderCallbacks."""

    on_started_leading: Callable[[Context], None] | None = None
    on_stopped_leading: Callable[[], None] | None = None
    on_new_leader: Callable[[str], None] | None = None


@dataclass(frozen=True, slots=True)
class LeaderElectionConfig:
    """Upstream: LeaderElectionConfig (durations in seconds; the client-go core defaults)."""

    lock: Interface | None
    lease_duration: float = 15.0
    renew_deadline: float = 10.0
    retry_period: float = 2.0
    callbacks: LeaderCallbacks = LeaderCallbacks()
    watch_dog: Any = None
    release_on_cancel: bool = False
    name: str = ""


def validate(config: LeaderElectionConfig) -> None:
    """Upstream: NewLeaderElector's checks, in order, on Go durations (whole nanoseconds)."""
    lease, renew, retry = (_nanos(config.lease_duration), _nanos(config.renew_deadline),
                           _nanos(config.retry_period))
    if lease <= renew:
        raise ValueError("leaseDuration must be greater than renewDeadline")
    if renew <= int(JITTER_FACTOR * float(retry)):
        raise ValueError("renewDeadline must be greater than retryPeriod*JitterFactor")
    if lease < 1:
        raise ValueError("leaseDuration must be greater than zero")
    if renew < 1:
        raise ValueError("renewDeadline must be greater than zero")
    if retry < 1:
        raise ValueError("retryPeriod must be greater than zero")
    if config.callbacks.on_started_leading is None:
        raise ValueError("OnStartedLeading callback must not be nil")
    if config.callbacks.on_stopped_leading is None:
        raise ValueError("OnStoppedLeading callback must not be nil")
    if config.lock is None:
        raise ValueError("Lock must not be nil.")


def _nanos(seconds: float) -> int:
    return round(float(seconds) * 1e9)


def scheduler_identity(hostname: str, seed: str = "") -> str:
    """kube-scheduler's ``<hostname>_<uuid>``; the UUID is derived from ``seed``.

    Upstream: options.go makeLeaderElectionConfig (``id := hostname + "_" + uuid.NewUUID()``).
    Deviation: the UUID is a uuid5 of ``hostname/seed``, not a random one.
    """
    return f"{hostname}_{uuid.uuid5(IDENTITY_NAMESPACE, f'{hostname}/{seed}')}"


# ----- observations --------------------------------------------------------------------------

class Transition(enum.Enum):
    ATTEMPT = "attempt"
    NEW_LEADER = "new-leader"
    ACQUIRED = "acquired"
    RENEWED = "renewed"
    LOST = "lost"
    RELEASED = "released"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class ElectionObservation:
    """What the observer hook receives: one step of one elector."""

    time: float
    transition: Transition
    identity: str
    lock: str
    holder: str = ""
    succeeded: bool = True
    message: str = ""


# ----- the elector ---------------------------------------------------------------------------

class LeaderElector:
    """Upstream: LeaderElector. ``LeaderElector(config, loop)`` validates like NewLeaderElector."""

    def __init__(self, config: LeaderElectionConfig, loop: Any, *, rng: random.Random | None = None,
                 log: Log = no_log, observer: Callable[[ElectionObservation], None] | None = None) -> None:
        validate(config)
        assert config.lock is not None
        self.config = config
        self.lock: Interface = config.lock
        self.loop = loop
        self.rng = rng
        self.log = log
        self.observer = observer
        self.observed_record = LeaderElectionRecord()
        self.observed_raw_record: str | None = None
        self.observed_time = -math.inf              # Go's zero time.Time
        self.reported_leader = ""
        self.phase = "new"                           # new | acquiring | leading | stopped | killed
        self._ctx: Context | None = None
        self._leading_ctx: Context | None = None
        self._next: Any = None                       # the pending try / next renew body
        self._deadline: Any = None                   # the renew body's deadline timer
        self._label = f"leaderelection {self.lock.identity()}"

    # -- queries ---------------------------------------------------------------------------------
    def get_leader(self) -> str:
        """Upstream: GetLeader: the last observed holder ("" before any observation)."""
        return self.observed_record.holder_identity

    def is_leader(self) -> bool:
        """Upstream: IsLeader: the last observed holder is this client."""
        return self.observed_record.holder_identity == self.lock.identity()

    def check(self, max_tolerable_expired_lease: float) -> str | None:
        """Upstream: Check (healthz): an error text once a leader failed to renew for too long."""
        if not self.is_leader():
            return None
        if self.loop.now() - self.observed_time > self.config.lease_duration + max_tolerable_expired_lease:
            return f"failed election to renew leadership on lease {self.config.name}"
        return None

    # -- Run ------------------------------------------------------------------------------------
    def run(self, ctx: Context | None = None) -> Context:
        """Upstream: Run(ctx): start acquiring; returns the run context (cancel = ``stop()``)."""
        if self.phase != "new":
            raise RuntimeError("LeaderElector.run() may be called only once")
        self._ctx = ctx if ctx is not None else Context()
        self.phase = "acquiring"
        self.log(0, f"attempting to acquire leader lease {self.lock.describe()}...")
        self._ctx.add_done_callback(self._on_cancel)
        if self.phase == "acquiring":
            self._next = self.loop.call_later(0, self._acquire_try, label=f"{self._label} acquire")
        return self._ctx

    def stop(self) -> None:
        """Cancel the run context (the process's ctx); see the module docstring."""
        if self._ctx is None:
            self.phase = "stopped"
            return
        self._ctx.cancel()

    def kill(self) -> None:
        """The process dies: drop every timer; nothing is released and no callback runs."""
        self._cancel_timers()
        self.phase = "killed"

    # -- acquire ------------------------------------------------------------------------------------
    def _acquire_try(self) -> None:
        """One iteration of acquire's JitterUntil."""
        self._next = None
        period = self._jittered(self.config.retry_period)
        succeeded = self.try_acquire_or_renew()
        self.maybe_report_transition()
        desc = self.lock.describe()
        if not succeeded:
            self.log(4, f"failed to acquire lease {desc}")
            self._next = self.loop.call_later(period, self._acquire_try, label=f"{self._label} acquire")
            return
        self.lock.record_event("became leader")
        self.log(0, f"successfully acquired lease {desc}")
        self._observe(Transition.ACQUIRED)
        self.phase = "leading"
        assert self._ctx is not None
        self._leading_ctx = Context(self._ctx)
        self._next = self.loop.call_later(0, self._renew_body, label=f"{self._label} renew")
        self.config.callbacks.on_started_leading(self._leading_ctx)  # type: ignore[misc]

    def _jittered(self, period: float) -> float:
        """Upstream: wait.Jitter(period, JitterFactor) with the seeded rng (none: no jitter)."""
        if self.rng is None:
            return period
        return period + self.rng.random() * JITTER_FACTOR * period

    # -- renew ----------------------------------------------------------------------------------------
    def _renew_body(self) -> None:
        """A wait.Until body: a PollImmediateUntil with a ``renew_deadline`` timeout."""
        self._next = None
        self._deadline = self.loop.call_later(self.config.renew_deadline, self._renew_timed_out,
                                              label=f"{self._label} renew deadline")
        self._renew_try()

    def _renew_try(self) -> None:
        self._next = None
        if not self.try_acquire_or_renew():
            self._next = self.loop.call_later(self.config.retry_period, self._renew_try,
                                              label=f"{self._label} renew")
            return
        self._deadline.cancel()
        self._deadline = None
        self.maybe_report_transition()
        self.log(5, f"successfully renewed lease {self.lock.describe()}")
        self._observe(Transition.RENEWED)
        self._next = self.loop.call_later(self.config.retry_period, self._renew_body,
                                          label=f"{self._label} renew")

    def _renew_timed_out(self) -> None:
        self._deadline = None
        self._lost()
        self._finish_renew()

    def _lost(self) -> None:
        """The failed branch of renew's body (ErrWaitTimeout)."""
        if self._next is not None:
            self._next.cancel()
            self._next = None
        self.maybe_report_transition()
        desc = self.lock.describe()
        self.lock.record_event("stopped leading")
        self.log(0, f"failed to renew lease {desc}: {ERR_WAIT_TIMEOUT}")
        self._observe(Transition.LOST, message=ERR_WAIT_TIMEOUT)

    def _finish_renew(self) -> None:
        """After renew returns: release if configured, then Run's deferred calls."""
        self._cancel_timers()
        if self.config.release_on_cancel:
            self.release()
        self._finish_run()

    def _finish_run(self) -> None:
        self.phase = "stopped"
        if self._leading_ctx is not None:
            self._leading_ctx.cancel()
        self._observe(Transition.STOPPED)
        self.config.callbacks.on_stopped_leading()  # type: ignore[misc]

    # -- cancellation -----------------------------------------------------------------------------------
    def _on_cancel(self) -> None:
        if self.phase == "acquiring":
            self._cancel_timers()
            self._finish_run()
        elif self.phase == "leading":
            if self._deadline is not None:       # a renew body is polling: it fails now
                self._deadline.cancel()
                self._deadline = None
                self._lost()
            self._finish_renew()

    def _cancel_timers(self) -> None:
        for handle in (self._next, self._deadline):
            if handle is not None:
                handle.cancel()
        self._next = self._deadline = None

    # -- the core step --------------------------------------------------------------------------------
    def try_acquire_or_renew(self) -> bool:
        """Upstream: tryAcquireOrRenew."""
        now = self.loop.now()
        identity = self.lock.identity()
        record = LeaderElectionRecord(holder_identity=identity,
                                      lease_duration_seconds=int(self.config.lease_duration),
                                      acquire_time=now, renew_time=now)
        # 1. obtain or create the ElectionRecord
        try:
            old, old_raw = self.lock.get()
        except errors.NotFound:
            try:
                self.lock.create(record)
            except Exception as err:
                if _is_bug(err):
                    raise
                return self._attempt(False, f"error initially creating leader election record: {err}", 0)
            self.observed_record, self.observed_time = record, now
            return self._attempt(True, "created")
        except Exception as err:
            if _is_bug(err):
                raise
            return self._attempt(False, f"error retrieving resource lock {self.lock.describe()}: {err}", 0)
        # 2. Record obtained, check the Identity & Time
        if self.observed_raw_record != old_raw:
            self.observed_record, self.observed_raw_record, self.observed_time = old, old_raw, now
        if old.holder_identity and self.observed_time + self.config.lease_duration > now and not self.is_leader():
            return self._attempt(False, f"lock is held by {old.holder_identity} and has not yet expired", 4)
        # 3. We're going to try to update.
        if self.is_leader():
            record = LeaderElectionRecord(record.holder_identity, record.lease_duration_seconds,
                                          old.acquire_time, now, old.leader_transitions)
        else:
            record = LeaderElectionRecord(record.holder_identity, record.lease_duration_seconds,
                                          now, now, old.leader_transitions + 1)
        try:
            self.lock.update(record)
        except Exception as err:
            if _is_bug(err):
                raise
            return self._attempt(False, f"Failed to update lock: {err}", 0)
        self.observed_record, self.observed_time = record, now
        return self._attempt(True, "updated")

    def release(self) -> bool:
        """Upstream: release (1.18): write a record with only the transitions count."""
        if not self.is_leader():
            return True
        record = LeaderElectionRecord(leader_transitions=self.observed_record.leader_transitions)
        try:
            self.lock.update(record)
        except Exception as err:
            if _is_bug(err):
                raise
            self.log(0, f"Failed to release lock: {err}")
            return False
        self.observed_record, self.observed_time = record, self.loop.now()
        self._observe(Transition.RELEASED)
        return True

    def maybe_report_transition(self) -> None:
        """Upstream: maybeReportTransition: on_new_leader when the observed holder changed."""
        holder = self.observed_record.holder_identity
        if holder == self.reported_leader:
            return
        self.reported_leader = holder
        self._observe(Transition.NEW_LEADER)
        if self.config.callbacks.on_new_leader is not None:
            self.config.callbacks.on_new_leader(holder)

    # -- helpers ------------------------------------------------------------------------------------------
    def _attempt(self, succeeded: bool, message: str, verbosity: int | None = None) -> bool:
        if verbosity is not None:
            self.log(verbosity, message)
        self._observe(Transition.ATTEMPT, succeeded=succeeded, message=message)
        return succeeded

    def _observe(self, transition: Transition, *, succeeded: bool = True, message: str = "") -> None:
        if self.observer is None:
            return
        self.observer(ElectionObservation(
            time=self.loop.now(), transition=transition, identity=self.lock.identity(),
            lock=self.lock.describe(), holder=self.observed_record.holder_identity,
            succeeded=succeeded, message=message))


def run_or_die(config: LeaderElectionConfig, loop: Any, **kwargs: Any) -> LeaderElector:
    """Upstream: RunOrDie: build (raising on a bad config), hand to the watchdog, run."""
    elector = LeaderElector(config, loop, **kwargs)
    if config.watch_dog is not None:
        config.watch_dog.set_leader_election(elector)
    elector.run()
    return elector


_BUGS: Final = (TypeError, AttributeError, NameError, AssertionError, ImportError)


def _is_bug(err: BaseException) -> bool:
    """Python bugs propagate; API errors, lock errors and bad JSON fail the try."""
    return isinstance(err, _BUGS)
