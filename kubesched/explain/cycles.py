"""One summary per scheduling cycle, read from the trace (``run --format json``'s ``cycles``).

Upstream: pkg/scheduler/scheduler.go @ v1.18.5 (Scheduler.scheduleOne: which errors count as
``PodScheduleFailures`` — a FitError, ErrNoNodesAvailable, an unschedulable Permit/WaitOnPermit
status — and which as ``PodScheduleErrors``); core/generic_scheduler.go (ScheduleResult:
SuggestedHost, EvaluatedNodes, FeasibleNodes).

``result`` is ``scheduled`` when the scheduling cycle assumed the pod on a node and its
binding cycle did not fail (it may still be running when the run stops), ``unschedulable``
for the failures upstream counts as ``PodScheduleFailures``, ``error`` for every other failure.
``evaluated_nodes``/``feasible_nodes`` are the ScheduleResult's on success; on a failed
Schedule, where upstream returns an empty ScheduleResult, they are what the filter walk
evaluated (the FILTER_RUN's processed nodes: failed + feasible) and 0 feasible (0 and 0 when filtering never ran).
Deviation: cycles that end before ``CYCLE_START`` (a pod being deleted is skipped; a pod whose
``schedulerName`` has no profile) are not scheduling attempts and are not listed.

Every replica counts its own cycles from 1. The trace holds the leading replica's cycle records;
the replica is the one whose ``sched.Run`` startup step came last (its ``replica`` detail), its
identity the ``identity`` detail of its ``Options.Config`` step. So after a leader change the new
leader's cycle 1 is a row of its own, after the old leader's rows (trace order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kubesched.explain.model import CycleSummary
from kubesched.trace.records import (
    CycleInfo,
    FilterRun,
    Kind,
    Outcome,
    Phase,
    Record,
    ScheduleResult,
    SchedulingFailure,
    StartupStep,
)

__all__ = ["ERROR", "SCHEDULED", "UNSCHEDULABLE", "classify", "cycle_records", "cycle_summaries", "first_of"]

SCHEDULED = "scheduled"
UNSCHEDULABLE = "unschedulable"
ERROR = "error"
_UNSCHEDULABLE_CODES = frozenset({"Unschedulable", "UnschedulableAndUnresolvable"})
_UNSCHEDULABLE_REASON = "Unschedulable"   # v1.PodReasonUnschedulable


@dataclass(slots=True)
class _Acc:
    """What one cycle's records said so far."""

    cycle: int
    time: float
    pod: str
    profile: str
    replica: str = ""
    identity: str = ""
    schedule_code: str = ""
    schedule_message: str = ""
    host: str = ""
    evaluated: int = 0
    feasible: int = 0
    end: str = ""                  # CYCLE_END result: assumed | failed
    end_message: str = ""
    failure: SchedulingFailure | None = None
    binding: str = ""              # BINDING_CYCLE_END result: bound | failed


def cycle_records(records: Sequence[Record], cycle: int) -> list[Record]:
    """The records of ``cycle`` within ``records`` (its binding cycle included), in trace order.

    A whole ``Trace`` answers from its per-cycle index (``Trace.for_cycle``); any other sequence
    (a visible slice ``trace[:cursor]``) is scanned.
    """
    for_cycle = getattr(records, "for_cycle", None)
    if for_cycle is not None:
        return list(for_cycle(cycle))
    return [r for r in records if r.cycle == cycle]


def first_of(records: Iterable[Record], kind: Kind) -> Record | None:
    """The first record of ``kind`` in ``records`` (None when there is none)."""
    return next((r for r in records if r.kind is kind), None)


def classify(schedule_code: str, end: str, binding: str, failure_reason: str | None) -> str:
    """``scheduled`` / ``unschedulable`` / ``error`` from a cycle's outcome (see module doc)."""
    if end == "assumed" and binding != "failed":
        return SCHEDULED
    if schedule_code and schedule_code != "Success":
        return UNSCHEDULABLE if schedule_code in _UNSCHEDULABLE_CODES else ERROR
    return UNSCHEDULABLE if failure_reason == _UNSCHEDULABLE_REASON else ERROR


def _feed(acc: _Acc, record: Record) -> None:
    data = record.data
    kind = record.kind
    if kind is Kind.PHASE_END and isinstance(data, Phase) and data.phase == "Schedule":
        acc.schedule_code, acc.schedule_message = data.code, data.message
    elif kind is Kind.FILTER_RUN and isinstance(data, FilterRun):
        acc.evaluated = data.processed
    elif kind is Kind.SCHEDULE_RESULT and isinstance(data, ScheduleResult):
        acc.host, acc.evaluated, acc.feasible = data.suggested_host, data.evaluated_nodes, data.feasible_nodes
    elif kind is Kind.CYCLE_END and isinstance(data, CycleInfo):
        acc.end, acc.end_message = data.result, data.message
        acc.host = record.node or acc.host
    elif kind is Kind.SCHEDULING_FAILURE and isinstance(data, SchedulingFailure):
        acc.failure = data
    elif kind is Kind.BINDING_CYCLE_END and isinstance(data, Outcome):
        acc.binding = data.result


def _summary(acc: _Acc) -> CycleSummary:
    result = classify(acc.schedule_code, acc.end, acc.binding, acc.failure.reason if acc.failure else None)
    if result == SCHEDULED:
        message = ""
    elif acc.failure is not None:
        message = acc.failure.message
    else:
        message = acc.end_message or acc.schedule_message
    return CycleSummary(acc.cycle, acc.time, acc.pod, acc.profile, result, acc.host, acc.evaluated,
                        acc.feasible, message, acc.replica, acc.identity)


def cycle_summaries(records: Iterable[Record]) -> list[CycleSummary]:
    """Every scheduling cycle that reached ``CYCLE_START``: each replica's in cycle order, replicas in
    the order they led (see the module docstring)."""
    open_: dict[tuple[str, int], _Acc] = {}
    identities: dict[str, str] = {}
    replica = ""
    for record in records:
        if record.kind is Kind.STARTUP_STEP and isinstance(record.data, StartupStep):
            replica = _note_replica(record.data, identities, replica)
            continue
        if record.cycle is None:
            continue
        if record.kind is Kind.CYCLE_START:
            open_[(replica, record.cycle)] = _Acc(record.cycle, record.time, record.pod or "", record.profile or "",
                                                  replica, identities.get(replica, ""))
            continue
        acc = open_.get((replica, record.cycle))
        if acc is not None and record.pod == acc.pod:
            _feed(acc, record)
    return [_summary(acc) for acc in open_.values()]


def _note_replica(step: StartupStep, identities: dict[str, str], replica: str) -> str:
    """Remember a replica's identity (``Options.Config``); a ``sched.Run`` makes it the scheduling one."""
    details = dict(step.details)
    if step.step == "Options.Config" and "replica" in details:
        identities[details["replica"]] = details.get("identity", "")
    if step.step == "sched.Run":
        return details.get("replica", replica)
    return replica
