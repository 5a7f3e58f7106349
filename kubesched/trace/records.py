"""Trace records: one frozen ``Record`` per observable step, with a typed payload per kind.

Upstream: no counterpart (the scheduler's klog lines, metrics and Events are what upstream
offers instead); ``file``/``func`` of each record name the upstream v1.18.5 location that
performs the step (see ``upstream.py``).

Every record has the same envelope — ``seq`` (index in the trace), ``time`` (simulated
seconds), ``kind``, ``cycle`` (scheduling cycle, or None outside one), ``pod`` ("ns/name"),
``profile`` (scheduler name), ``node``, ``plugin``, ``file``, ``func`` — and a ``data``
payload whose class depends on the kind (``PAYLOAD_OF`` lists which). Payloads hold only
plain immutable values (str, int, float, bool, None, tuples, nested payload dataclasses):
never engine objects, so a trace can be serialized, compared and digested.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Union, overload

__all__ = [
    "PAYLOAD_OF",
    "PAYLOAD_TYPES",
    "BindResult",
    "CacheChange",
    "CycleInfo",
    "EventData",
    "ExtenderCall",
    "FeasibleNodes",
    "FilterWalk",
    "InformerEvent",
    "Kind",
    "LeaderElection",
    "LogLine",
    "NominatedPass",
    "Outcome",
    "Payload",
    "PermitWait",
    "Phase",
    "PluginCall",
    "PreemptionCandidates",
    "PreemptionEligibility",
    "PreemptionPick",
    "PreemptionResult",
    "PreemptionVictims",
    "QueueMove",
    "Record",
    "ScheduleResult",
    "SchedulingFailure",
    "ScoreRow",
    "ScoreSummary",
    "SelectHost",
    "StartupStep",
    "Trace",
    "Victim",
]


class Kind(enum.Enum):
    """What a record reports; the value is the name used in serialized traces."""

    STARTUP_STEP = "STARTUP_STEP"
    INFORMER_EVENT = "INFORMER_EVENT"
    CACHE_EVENT = "CACHE_EVENT"
    QUEUE_MOVE = "QUEUE_MOVE"
    POD_POPPED = "POD_POPPED"
    CYCLE_START = "CYCLE_START"
    CYCLE_END = "CYCLE_END"
    PHASE_START = "PHASE_START"
    PHASE_END = "PHASE_END"
    PLUGIN_CALL = "PLUGIN_CALL"
    FEASIBLE_NODES = "FEASIBLE_NODES"
    FILTER_WALK = "FILTER_WALK"          # processed / feasible / failed / nodes not visited
    NOMINATED_PASS = "NOMINATED_PASS"
    EXTENDER_CALL = "EXTENDER_CALL"
    SCORE_SUMMARY = "SCORE_SUMMARY"
    SELECT_HOST = "SELECT_HOST"
    SCHEDULE_RESULT = "SCHEDULE_RESULT"
    PREEMPTION_ELIGIBILITY = "PREEMPTION_ELIGIBILITY"
    PREEMPTION_CANDIDATES = "PREEMPTION_CANDIDATES"
    PREEMPTION_VICTIMS = "PREEMPTION_VICTIMS"
    PREEMPTION_PICK = "PREEMPTION_PICK"
    PREEMPTION_RESULT = "PREEMPTION_RESULT"
    NOMINATE = "NOMINATE"
    VICTIM = "VICTIM"
    CLEAR_NOMINATION = "CLEAR_NOMINATION"
    ASSUME = "ASSUME"
    FORGET = "FORGET"
    EXPIRE = "EXPIRE"
    PERMIT_WAIT = "PERMIT_WAIT"
    BINDING_CYCLE_START = "BINDING_CYCLE_START"
    BINDING_CYCLE_END = "BINDING_CYCLE_END"
    BIND = "BIND"
    SCHEDULING_FAILURE = "SCHEDULING_FAILURE"
    REQUEUE = "REQUEUE"
    EVENT = "EVENT"                      # a Recorder.Eventf call, as the scheduler emitted it
    API_EVENT = "API_EVENT"              # a stored core/v1 Event (count, first/last seen)
    LEADER_ELECTION = "LEADER_ELECTION"
    LOG = "LOG"


# -- payloads ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StartupStep:
    step: str                                  # e.g. "NewSchedulerCommand", "WaitForCacheSync"
    message: str = ""
    details: tuple[tuple[str, str], ...] = ()  # (name, value), e.g. ("port", "10251")


@dataclass(frozen=True, slots=True)
class InformerEvent:
    event_type: str                            # ADDED | MODIFIED | DELETED
    object_kind: str
    namespace: str
    name: str


@dataclass(frozen=True, slots=True)
class CacheChange:
    event: str                                 # the cache's CacheEvent kind: Add, Confirm, AddNode, Error …
    message: str


@dataclass(frozen=True, slots=True)
class QueueMove:
    source: str                                # activeQ | podBackoffQ | unschedulableQ | "" (outside)
    target: str
    event: str                                 # NodeAdd, UnschedulableTimeout, BackoffComplete, Pop …


@dataclass(frozen=True, slots=True)
class CycleInfo:
    attempts: int | None = None             # POD_POPPED
    result: str = ""                           # CYCLE_END: skipped | no-profile | failed | assumed
    message: str = ""


@dataclass(frozen=True, slots=True)
class Phase:
    phase: str                                 # Schedule, Preempt, Reserve, Permit, Bind …
    code: str = ""                             # PHASE_END: Success, Unschedulable, Error, Wait …
    message: str = ""


@dataclass(frozen=True, slots=True)
class PluginCall:
    """One plugin call (at one node for per-node extension points).

    ``normalized_score``/``weight``/``weighted_score`` are set on Score calls once the
    runner has normalized and weighted (None when scoring failed before that); a
    NormalizeScore call carries the whole list in ``scores``.
    """

    extension_point: str
    phase: str = ""                            # the scheduler phase it ran in (Schedule, Preempt …)
    code: str = "Success"
    reasons: tuple[str, ...] = ()
    raw_score: int | None = None
    normalized_score: int | None = None
    weight: int | None = None
    weighted_score: int | None = None
    scores: tuple[tuple[str, int], ...] = ()
    timeout: float | None = None


@dataclass(frozen=True, slots=True)
class FeasibleNodes:
    num_all_nodes: int
    percentage: int
    num_nodes_to_find: int
    start_index: int


@dataclass(frozen=True, slots=True)
class FilterWalk:
    start_index: int
    processed: int
    feasible: tuple[str, ...]
    failed: tuple[str, ...]
    not_visited: tuple[str, ...]
    next_start_node_index: int
    has_filter_plugins: bool


@dataclass(frozen=True, slots=True)
class NominatedPass:
    pass_index: int                            # 0: with nominated pods added, 1: without
    nominated_pods: tuple[str, ...]
    code: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExtenderCall:
    verb: str                                  # Filter | Prioritize | ProcessPreemption
    extender: str
    nodes_in: tuple[str, ...] = ()
    nodes_out: tuple[str, ...] | None = None
    failed: tuple[tuple[str, str], ...] = ()   # (node, message)
    scores: tuple[tuple[str, int], ...] = ()   # Prioritize, before weighting
    weight: int | None = None
    error: str | None = None
    ignored: bool = False


@dataclass(frozen=True, slots=True)
class ScoreRow:
    node: str
    plugin: str
    raw_score: int | None
    normalized_score: int | None
    weight: int | None
    weighted_score: int | None


@dataclass(frozen=True, slots=True)
class ScoreSummary:
    rows: tuple[ScoreRow, ...]                 # node-major, plugins in configured order
    extender_scores: tuple[tuple[str, int], ...]  # combined extender score × weight, before × 10
    totals: tuple[tuple[str, int], ...]        # the priority list selectHost reads


@dataclass(frozen=True, slots=True)
class SelectHost:
    max_score: int
    ties: tuple[str, ...]
    selected: str


@dataclass(frozen=True, slots=True)
class ScheduleResult:
    suggested_host: str
    evaluated_nodes: int
    feasible_nodes: int
    shortcut: bool                             # one feasible node: scoring skipped


@dataclass(frozen=True, slots=True)
class PreemptionEligibility:
    eligible: bool
    reason: str
    terminating_pods: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PreemptionCandidates:
    potential_nodes: tuple[str, ...]
    unresolvable_nodes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PreemptionVictims:
    fits: bool
    victims: tuple[str, ...]
    num_pdb_violations: int
    pdb_violating: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PreemptionPick:
    criterion: str
    rounds: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class PreemptionResult:
    victims: tuple[str, ...]
    nominated_pods_to_clear: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PermitWait:
    pending_plugins: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BindResult:
    binder: str                                # "framework" or the extender's name
    error: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    result: str                                # BINDING_CYCLE_END: bound | failed
    message: str = ""


@dataclass(frozen=True, slots=True)
class SchedulingFailure:
    reason: str                                # Unschedulable, SchedulerError, VolumeBindingFailed
    message: str
    error: str


@dataclass(frozen=True, slots=True)
class Victim:
    preemptor: str


@dataclass(frozen=True, slots=True)
class EventData:
    """An Event: ``kubectl describe``'s Type, Reason, From, Message (and count for stored ones)."""

    type: str
    reason: str
    message: str
    object: str                                # "Pod default/web-1"
    component: str = ""
    action: str = ""
    related: str = ""
    count: int | None = None
    first_timestamp: float | None = None
    last_timestamp: float | None = None


@dataclass(frozen=True, slots=True)
class LeaderElection:
    identity: str
    transition: str                            # e.g. attempting, acquired, renewed, lost, new-leader
    holder: str = ""
    lock: str = ""                             # "kube-system/kube-scheduler"
    message: str = ""


@dataclass(frozen=True, slots=True)
class LogLine:
    verbosity: int                             # klog.V(n); 0 for Info/Warning/Error without V
    severity: str                              # I | W | E
    message: str


Payload = Union[
    None, StartupStep, InformerEvent, CacheChange, QueueMove, CycleInfo, Phase, PluginCall, FeasibleNodes,
    FilterWalk, NominatedPass, ExtenderCall, ScoreSummary, SelectHost, ScheduleResult, PreemptionEligibility,
    PreemptionCandidates, PreemptionVictims, PreemptionPick, PreemptionResult, PermitWait, BindResult, Outcome,
    SchedulingFailure, Victim, EventData, LeaderElection, LogLine]

PAYLOAD_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    StartupStep, InformerEvent, CacheChange, QueueMove, CycleInfo, Phase, PluginCall, FeasibleNodes, FilterWalk,
    NominatedPass, ExtenderCall, ScoreRow, ScoreSummary, SelectHost, ScheduleResult, PreemptionEligibility,
    PreemptionCandidates, PreemptionVictims, PreemptionPick, PreemptionResult, PermitWait, BindResult, Outcome,
    SchedulingFailure, Victim, EventData, LeaderElection, LogLine)}

# The payload class each kind carries (None: the envelope says it all).
PAYLOAD_OF: dict[Kind, type | None] = {
    Kind.STARTUP_STEP: StartupStep, Kind.INFORMER_EVENT: InformerEvent, Kind.CACHE_EVENT: CacheChange,
    Kind.QUEUE_MOVE: QueueMove, Kind.POD_POPPED: CycleInfo, Kind.CYCLE_START: CycleInfo,
    Kind.CYCLE_END: CycleInfo, Kind.PHASE_START: Phase, Kind.PHASE_END: Phase, Kind.PLUGIN_CALL: PluginCall,
    Kind.FEASIBLE_NODES: FeasibleNodes, Kind.FILTER_WALK: FilterWalk, Kind.NOMINATED_PASS: NominatedPass,
    Kind.EXTENDER_CALL: ExtenderCall, Kind.SCORE_SUMMARY: ScoreSummary, Kind.SELECT_HOST: SelectHost,
    Kind.SCHEDULE_RESULT: ScheduleResult, Kind.PREEMPTION_ELIGIBILITY: PreemptionEligibility,
    Kind.PREEMPTION_CANDIDATES: PreemptionCandidates, Kind.PREEMPTION_VICTIMS: PreemptionVictims,
    Kind.PREEMPTION_PICK: PreemptionPick, Kind.PREEMPTION_RESULT: PreemptionResult, Kind.NOMINATE: None,
    Kind.VICTIM: Victim, Kind.CLEAR_NOMINATION: None, Kind.ASSUME: None, Kind.FORGET: None,
    Kind.EXPIRE: CacheChange, Kind.PERMIT_WAIT: PermitWait, Kind.BINDING_CYCLE_START: None,
    Kind.BINDING_CYCLE_END: Outcome, Kind.BIND: BindResult, Kind.SCHEDULING_FAILURE: SchedulingFailure,
    Kind.REQUEUE: None, Kind.EVENT: EventData, Kind.API_EVENT: EventData, Kind.LEADER_ELECTION: LeaderElection,
    Kind.LOG: LogLine,
}


@dataclass(frozen=True, slots=True)
class Record:
    """One trace entry: the common envelope and a kind-specific ``data`` payload."""

    seq: int
    time: float
    kind: Kind
    cycle: int | None = None
    pod: str | None = None
    profile: str | None = None
    node: str | None = None
    plugin: str | None = None
    file: str = ""
    func: str = ""
    data: Payload = None


KindFilter = Union[Kind, Iterable[Kind], None]


@dataclass(slots=True)
class _Pending:
    """Records ``start`` … held unbuilt: ``build(start)`` returns them."""

    start: int
    build: Callable[[int], Sequence[Record]]


class Trace(Sequence[Record]):
    """An append-only sequence of records, indexed by cycle for the views.

    ``len``, indexing and slicing are list-cheap; ``filter`` scans; ``for_cycle`` uses
    an index built while appending.

    Records may be appended *unbuilt* (``_append_pending``): a run of records held as one
    function that builds them all. The first read of any of them builds the run and stores
    the Records in its place, so readers only ever see Records (the recorder uses this for
    the many plugin calls; the content is the same as built eagerly).
    """

    __slots__ = ("_by_cycle", "_records")

    def __init__(self, records: Iterable[Record] = ()) -> None:
        self._records: list = []
        self._by_cycle: dict[int, list[range]] = {}  # each cycle's seqs, as runs
        for record in records:
            self.append(record)

    def append(self, record: Record) -> None:
        """Add the next record; its ``seq`` must equal the current length."""
        if record.seq != len(self._records):
            raise ValueError(f"record seq {record.seq} != trace length {len(self._records)}")
        if record.cycle is not None:
            self._index(record.cycle, record.seq, 1)
        self._records.append(record)

    def _append_pending(self, count: int, build: Callable[[int], Sequence[Record]], cycle: int | None) -> None:
        """Add the next ``count`` records unbuilt: ``build(first seq)`` returns them, all of ``cycle``."""
        start = len(self._records)
        if cycle is not None:
            self._index(cycle, start, count)
        self._records.extend([_Pending(start, build)] * count)

    def _index(self, cycle: int, start: int, count: int) -> None:
        runs = self._by_cycle.setdefault(cycle, [])
        if runs and runs[-1].stop == start:
            runs[-1] = range(runs[-1].start, start + count)
        else:
            runs.append(range(start, start + count))

    def _get(self, index: int) -> Record:
        record = self._records[index]
        if type(record) is not Record:
            self._build(record)
            record = self._records[index]
        return record

    def _build(self, pending: _Pending) -> None:
        built = pending.build(pending.start)
        self._records[pending.start:pending.start + len(built)] = built

    def _build_all(self) -> list[Record]:
        records = self._records
        for record in records:
            if type(record) is not Record:
                self._build(record)
        return records

    def __len__(self) -> int:
        return len(self._records)

    @overload
    def __getitem__(self, index: int) -> Record: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | Sequence[Record]:
        if isinstance(index, slice):
            return tuple(self._get(i) for i in range(len(self._records))[index])
        return self._get(index)

    def __iter__(self) -> Iterator[Record]:
        records = self._records
        i = 0
        while i < len(records):
            record = records[i]
            if type(record) is not Record:
                self._build(record)
                record = records[i]
            yield record
            i += 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trace) and self._build_all() == other._build_all()

    def __hash__(self) -> int:  # pragma: no cover - mutable container
        raise TypeError("unhashable type: 'Trace'")

    def __repr__(self) -> str:
        return f"Trace({len(self._records)} records)"

    def filter(self, kind: KindFilter = None, *, pod: str | None = None, cycle: int | None = None,
               node: str | None = None, plugin: str | None = None,
               profile: str | None = None) -> list[Record]:
        """Records matching every given criterion; ``kind`` may be one Kind or several."""
        kinds: frozenset[Kind] | None
        if kind is None:
            kinds = None
        elif isinstance(kind, Kind):
            kinds = frozenset((kind,))
        else:
            kinds = frozenset(kind)
        source: Iterable[Record] = self.for_cycle(cycle) if cycle is not None else self._build_all()
        return [r for r in source
                if (kinds is None or r.kind in kinds) and (pod is None or r.pod == pod)
                and (node is None or r.node == node) and (plugin is None or r.plugin == plugin)
                and (profile is None or r.profile == profile)]

    def cycles(self) -> tuple[int, ...]:
        """The scheduling cycles present, in order of first appearance."""
        return tuple(self._by_cycle)

    def for_cycle(self, cycle: int) -> list[Record]:
        """Every record of one scheduling cycle (its binding cycle included), in trace order."""
        get = self._get
        return [get(i) for run in self._by_cycle.get(cycle, ()) for i in run]
