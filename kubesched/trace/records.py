"""Trace records: one frozen ``Record`` per observable step or decision, with a typed payload per kind.

Upstream: no counterpart (the scheduler's klog lines, metrics and Events are what upstream
offers instead); ``file``/``func`` of each record name the upstream v1.18.5 location that
performs the step (see ``upstream.py``).

Every record has the same envelope — ``seq`` (index in the trace), ``time`` (simulated
seconds), ``kind``, ``cycle`` (scheduling cycle, or None outside one), ``pod`` ("ns/name"),
``profile`` (scheduler name), ``node``, ``plugin``, ``file``, ``func`` — and a ``data``
payload whose class depends on the kind (``PAYLOAD_OF`` lists which). Payloads hold only
plain immutable values (str, int, float, bool, None, bytes, tuples, nested payload
dataclasses): never engine objects, so a trace can be serialized, compared and digested.

The trace records decisions, not calls: a Filter walk is one FILTER_RUN, a prioritizeNodes
and its selectHost one SCORE_RUN, a Preempt one PREEMPTION, and each once-per-cycle extension
point one POINT_RUN (payloads in ``decisions.py``). Plugin calls are never stored:
``kubesched.trace.calls.plugin_calls`` derives them, as ``Record(kind=PLUGIN_CALL, data=
PluginCall(...))`` rows carrying the seq of the record they come from.

Storage: a ``Trace`` does not keep the Record objects; it stores each record's envelope as
columns (a shape index for kind, profile, plugin and location; cycle; pod and node as indexes
into one names table; time runs) and its payload reference, and builds the Record when it is
read (see ``Trace``). What a reader gets is the same Record, field for field.

Time-only steps: a TIME record (no payload, no cycle, no pod; its envelope's ``time`` is the
point) says "the clock reached this time here". Periodic runs that move nothing (the queue
flushes, the cache sweep, leader-election retries) are not recorded (and may not even run: the
loop skips flushes that would change nothing), so a cursor that only let time pass would
otherwise sit on the last record, at its earlier time. ``Simulation.advance`` appends one at its
target when it moves the engine's frontier to a time no record has reached yet, and keeps it
with the run's edits (a ``Tick``) so a rebuilt run (a fork, an exported Scenario's
``{afterEvent: N, at: T, tick: true}``) has it at the same place; seeking to that record's index
therefore lands at the target time. A Scenario may ask for one itself (``{at: T, tick: true}``).
Nothing in the scheduler reads them.
"""

from __future__ import annotations

import enum
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from math import copysign
from typing import Any, Union, overload

from kubesched.trace.decisions import (
    ExtensionFailure,
    FilterPass,
    FilterRun,
    NodeCheck,
    PluginStatus,
    PointRun,
    Preemption,
    PreemptionNode,
    ScoreFailure,
    ScoreRun,
)

__all__ = [
    "DERIVED_KINDS",
    "PAYLOAD_OF",
    "PAYLOAD_TYPES",
    "BindResult",
    "CacheChange",
    "CycleInfo",
    "EventData",
    "ExtenderCall",
    "FilterRun",
    "InformerEvent",
    "Kind",
    "LeaderElection",
    "LogLine",
    "Outcome",
    "Payload",
    "PermitWait",
    "Phase",
    "PluginCall",
    "PointRun",
    "Preemption",
    "QueueMove",
    "Record",
    "ScheduleResult",
    "SchedulingFailure",
    "ScoreRun",
    "StartupStep",
    "Trace",
    "Victim",
]


class Kind(enum.Enum):
    """What a record reports; the value is the name used in serialized traces.

    Hashed by identity (members are singletons, equal only to themselves): Enum's own hash runs in
    Python, and the recorder looks a kind up for most records it makes."""

    __hash__ = object.__hash__

    STARTUP_STEP = "STARTUP_STEP"
    INFORMER_EVENT = "INFORMER_EVENT"
    CACHE_EVENT = "CACHE_EVENT"
    QUEUE_MOVE = "QUEUE_MOVE"
    POD_POPPED = "POD_POPPED"
    CYCLE_START = "CYCLE_START"
    CYCLE_END = "CYCLE_END"
    PHASE_START = "PHASE_START"
    PHASE_END = "PHASE_END"
    PLUGIN_CALL = "PLUGIN_CALL"          # derived (``calls.plugin_calls``), never stored
    POINT_RUN = "POINT_RUN"              # a once-per-cycle extension point's plugins and statuses
    FILTER_RUN = "FILTER_RUN"            # findNodesThatPassFilters: the walk and each node's outcome
    EXTENDER_CALL = "EXTENDER_CALL"
    SCORE_RUN = "SCORE_RUN"              # prioritizeNodes and selectHost
    SCHEDULE_RESULT = "SCHEDULE_RESULT"
    PREEMPTION = "PREEMPTION"            # genericScheduler.Preempt
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
    TIME = "TIME"                        # a time-only step: the clock reached ``time`` (no payload)


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
    """One plugin call (at one node for per-node extension points): a derived row, never stored.

    ``normalized_score``/``weight``/``weighted_score`` are set on Score calls once the
    runner has normalized and weighted (None when scoring failed before that; weighted is
    None for a score outside [0, 100]); a NormalizeScore call carries the whole list in
    ``scores``; ``timeout`` is a Permit call's wait.
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
class ScheduleResult:
    suggested_host: str
    evaluated_nodes: int
    feasible_nodes: int
    shortcut: bool                             # one feasible node: scoring skipped


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
    None, StartupStep, InformerEvent, CacheChange, QueueMove, CycleInfo, Phase, PluginCall, PointRun, FilterRun,
    ExtenderCall, ScoreRun, ScheduleResult, Preemption, PermitWait, BindResult, Outcome, SchedulingFailure, Victim,
    EventData, LeaderElection, LogLine]

PAYLOAD_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    StartupStep, InformerEvent, CacheChange, QueueMove, CycleInfo, Phase, PluginCall, PointRun, PluginStatus,
    FilterRun, NodeCheck, FilterPass, ExtensionFailure, ExtenderCall, ScoreRun, ScoreFailure, ScheduleResult,
    Preemption, PreemptionNode, PermitWait, BindResult, Outcome, SchedulingFailure, Victim, EventData,
    LeaderElection, LogLine)}

# The payload class each kind carries (None: the envelope says it all).
PAYLOAD_OF: dict[Kind, type | None] = {
    Kind.STARTUP_STEP: StartupStep, Kind.INFORMER_EVENT: InformerEvent, Kind.CACHE_EVENT: CacheChange,
    Kind.QUEUE_MOVE: QueueMove, Kind.POD_POPPED: CycleInfo, Kind.CYCLE_START: CycleInfo,
    Kind.CYCLE_END: CycleInfo, Kind.PHASE_START: Phase, Kind.PHASE_END: Phase, Kind.PLUGIN_CALL: PluginCall,
    Kind.POINT_RUN: PointRun, Kind.FILTER_RUN: FilterRun, Kind.EXTENDER_CALL: ExtenderCall,
    Kind.SCORE_RUN: ScoreRun, Kind.SCHEDULE_RESULT: ScheduleResult, Kind.PREEMPTION: Preemption,
    Kind.NOMINATE: None, Kind.VICTIM: Victim, Kind.CLEAR_NOMINATION: None, Kind.ASSUME: None, Kind.FORGET: None,
    Kind.EXPIRE: CacheChange, Kind.PERMIT_WAIT: PermitWait, Kind.BINDING_CYCLE_START: None,
    Kind.BINDING_CYCLE_END: Outcome, Kind.BIND: BindResult, Kind.SCHEDULING_FAILURE: SchedulingFailure,
    Kind.REQUEUE: None, Kind.EVENT: EventData, Kind.API_EVENT: EventData, Kind.LEADER_ELECTION: LeaderElection,
    Kind.LOG: LogLine, Kind.TIME: None,
}

# Kinds a trace never stores: rows derived from the decision records.
DERIVED_KINDS: frozenset[Kind] = frozenset({Kind.PLUGIN_CALL})


@dataclass(frozen=True, slots=True, init=False)
class Record:
    """One trace entry: the common envelope and a kind-specific ``data`` payload.

    Frozen like every payload; its ``__init__`` sets the slots directly instead of through the
    frozen dataclass's per-field ``object.__setattr__`` (the recorder makes one per step, and
    that halves the cost). Same signature, defaults and values as the generated one.
    """

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

    def __init__(self, seq: int, time: float, kind: Kind, cycle: int | None = None, pod: str | None = None,
                 profile: str | None = None, node: str | None = None, plugin: str | None = None, file: str = "",
                 func: str = "", data: Payload = None) -> None:
        _set_seq(self, seq)
        _set_time(self, time)
        _set_kind(self, kind)
        _set_cycle(self, cycle)
        _set_pod(self, pod)
        _set_profile(self, profile)
        _set_node(self, node)
        _set_plugin(self, plugin)
        _set_file(self, file)
        _set_func(self, func)
        _set_data(self, data)


(_set_seq, _set_time, _set_kind, _set_cycle, _set_pod, _set_profile, _set_node, _set_plugin, _set_file, _set_func,
 _set_data) = (getattr(Record, name).__set__ for name in (
    "seq", "time", "kind", "cycle", "pod", "profile", "node", "plugin", "file", "func", "data"))


KindFilter = Union[Kind, Iterable[Kind], None]

_NO_CYCLE = -(2 ** 31)  # the cycle column's None
_Shape = tuple[Kind, Any, Any, Any, Any]  # (kind, profile, plugin, file, func)


class Trace(Sequence[Record]):
    """An append-only sequence of records, stored as columns and indexed by cycle for the views.

    What is stored, per record: the index (``array('H')``, widened to ``'i'`` past 65,536) of its
    shape — ``(kind, profile, plugin, file, func)``, a small vocabulary kept once in ``_shapes`` —,
    its ``cycle`` (``array('i')``, ``_NO_CYCLE`` for None), ``pod`` and ``node`` as indexes
    (``array('i')``) into one per-trace table of the distinct names (``_names``; index 0 is None),
    and its ``data`` payload (a list). ``time`` is stored once per run of equal times (``_times``,
    with the seq each run starts at in ``_time_starts``); ``seq`` is the position. A field the
    columns cannot hold exactly (a time that is not a float, a cycle outside 32 bits) is kept aside
    in ``_odd``. About 26 bytes a record instead of a Record object and its ``seq`` int.

    How it is decoded: indexing, slicing and iterating build each ``Record`` from its columns (the
    time run found by bisection), equal to the one appended. A slice from the start
    (``trace[:cursor]``, what the views read on every rerun) keeps the records it built, so a
    dashboard pays for each record once; a run that never slices (the bench) keeps only columns.
    ``filter`` tests the columns first and builds only the matches; ``for_cycle`` uses each
    cycle's ``[start, stop)`` runs of seqs (one flat ``array('i')`` a cycle), indexed from the cycle
    column when read.
    """

    __slots__ = ("_by_cycle", "_cycle", "_cycles_indexed", "_data", "_name_ids", "_names", "_node", "_odd", "_pod",
                 "_prefix", "_shape", "_shape_ids", "_shapes", "_time_starts", "_times")

    def __init__(self, records: Iterable[Record] = ()) -> None:
        self._shape, self._cycle, self._pod, self._node = array("H"), array("i"), array("i"), array("i")
        self._times, self._time_starts = array("d"), array("i")
        self._data: list[Payload] = []
        self._shapes: list[_Shape] = []
        self._shape_ids: dict[tuple, int] = {}  # (kind, profile, plugin, file, func) → index in _shapes
        self._names: list[Any] = [None]
        self._name_ids: dict[Any, int] = {None: 0}
        self._odd: dict[int, tuple[Any, Any]] = {}  # seq → (time, cycle) as appended
        self._prefix: list[Record] = []  # records built for ``trace[:n]`` slices, kept
        self._by_cycle: dict[int, array] = {}  # each cycle's seqs, as [start, stop) runs: start, stop, start …
        self._cycles_indexed = 0  # the records _by_cycle covers (it is brought up to date when read)
        for record in records:
            self.append(record)

    def append(self, record: Record) -> None:
        """Add the next record; its ``seq`` must equal the current length."""
        if record.seq != len(self._data):
            raise ValueError(f"record seq {record.seq} != trace length {len(self._data)}")
        self.add(record.time, record.kind, record.cycle, record.pod, record.profile, record.node, record.plugin,
                 record.file, record.func, record.data)

    def add(self, time: float, kind: Kind, cycle: int | None, pod: str | None, profile: str | None,
            node: str | None, plugin: str | None, file: str, func: str, data: Payload) -> None:
        """Append the record ``Record(len(self), time, kind, …)`` (the recorder's path: no Record is built)."""
        seq = len(self._data)
        key = (kind, profile, plugin, file, func)
        found = self._shape_ids.get(key)
        if found is None:
            found = self._new_shape(key)  # may widen the column: look it up after
        self._shape.append(found)
        get = self._name_ids.get
        found = get(pod)
        self._pod.append(found if found is not None else self._name(pod))
        found = get(node)
        self._node.append(found if found is not None else self._name(node))
        self._data.append(data)
        times = self._times
        if not times or time != times[-1] or type(time) is not float or (
                time == 0.0 and copysign(1.0, time) != copysign(1.0, times[-1])) or (
                cycle is not None and not _NO_CYCLE < cycle < -_NO_CYCLE):  # else: the same time run, nothing odd
            self._add_time(seq, time, cycle)
        if cycle is None:
            self._cycle.append(_NO_CYCLE)
        else:
            self._cycle.append(cycle if _NO_CYCLE < cycle < -_NO_CYCLE else 0)

    def _new_shape(self, key: _Shape) -> int:
        found = self._shape_ids[key] = len(self._shapes)
        self._shapes.append(key)
        if found > 0xFFFF and self._shape.typecode == "H":  # more shapes than 16 bits hold: widen the column
            self._shape = array("i", self._shape)
        return found

    def _name(self, name: Any) -> int:
        ids = self._name_ids
        found = ids.get(name)
        if found is None:
            found = ids[name] = len(self._names)
            self._names.append(name)
        return found

    def _add_time(self, seq: int, time: Any, cycle: Any) -> None:
        if type(time) is not float or (cycle is not None and not _NO_CYCLE < cycle < -_NO_CYCLE):
            self._odd[seq] = (time, cycle)
            time = float(time)
        times = self._times
        if not times or times[-1] != time or (time == 0.0 and copysign(1.0, time) != copysign(1.0, times[-1])):
            times.append(time)
            self._time_starts.append(seq)

    def _record(self, seq: int) -> Record:
        kind, profile, plugin, file, func = self._shapes[self._shape[seq]]
        odd = self._odd.get(seq) if self._odd else None
        if odd is None:
            time, cycle = self._times[bisect_right(self._time_starts, seq) - 1], self._cycle[seq]
            if cycle == _NO_CYCLE:
                cycle = None
        else:
            time, cycle = odd
        names = self._names
        return Record(seq, time, kind, cycle, names[self._pod[seq]], profile, names[self._node[seq]], plugin, file,
                      func, self._data[seq])

    def _built_prefix(self, stop: int) -> list[Record]:
        """The first ``stop`` records, built once and kept (``_prefix`` only grows: the trace is append-only)."""
        prefix = self._prefix
        if len(prefix) < stop:
            prefix.extend(map(self._record, range(len(prefix), stop)))
        return prefix[:stop]

    def __len__(self) -> int:
        return len(self._data)

    @overload
    def __getitem__(self, index: int) -> Record: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | Sequence[Record]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._data))
            if start == 0 and step == 1:  # the views' ``trace[:cursor]``, once per rerun: kept
                return tuple(self._built_prefix(stop))
            return tuple(map(self._record, range(start, stop, step)))
        size = len(self._data)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("trace index out of range")
        return self._record(index)

    def __iter__(self) -> Iterator[Record]:
        return map(self._record, range(len(self._data)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trace) and len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __hash__(self) -> int:  # pragma: no cover - mutable container
        raise TypeError("unhashable type: 'Trace'")

    def __repr__(self) -> str:
        return f"Trace({len(self._data)} records)"

    def filter(self, kind: KindFilter = None, *, pod: str | None = None, cycle: int | None = None,
               node: str | None = None, plugin: str | None = None,
               profile: str | None = None, start: int = 0) -> list[Record]:
        """Records matching every given criterion; ``kind`` may be one Kind or several; from seq
        ``start`` on (an index kept up to date as the trace grows reads only the new records)."""
        kinds = None if kind is None else frozenset((kind,) if isinstance(kind, Kind) else kind)
        shapes = frozenset(i for i, (k, prof, plug, _, _) in enumerate(self._shapes)
                           if (kinds is None or k in kinds) and (profile is None or prof == profile)
                           and (plugin is None or plug == plugin))
        tests = []
        for column, value in ((self._pod, pod), (self._node, node)):
            if value is not None:
                if value not in self._name_ids:
                    return []
                tests.append((column, self._name_ids[value]))
        seqs: Iterable[int] = self._cycle_seqs(cycle) if cycle is not None else range(start, len(self._data))
        if cycle is not None and start:
            seqs = [s for s in seqs if s >= start]
        shape_column = self._shape
        return [self._record(s) for s in seqs
                if shape_column[s] in shapes and all(column[s] == v for column, v in tests)]

    def cycles(self) -> tuple[int, ...]:
        """The scheduling cycles present, in order of first appearance."""
        return tuple(self._cycle_index())

    def _cycle_index(self) -> dict[int, array]:
        """``_by_cycle``, extended over the records appended since it was last read (each is indexed once)."""
        by_cycle, column, odd = self._by_cycle, self._cycle, self._odd
        for seq in range(self._cycles_indexed, len(column)):
            cycle = column[seq]
            if cycle == _NO_CYCLE:
                continue
            if odd and seq in odd:
                cycle = odd[seq][1]  # as appended (the column holds 0 for a cycle outside 32 bits)
            runs = by_cycle.get(cycle)
            if runs is None:
                by_cycle[cycle] = array("i", (seq, seq + 1))
            elif runs[-1] == seq:
                runs[-1] = seq + 1
            else:
                runs.extend((seq, seq + 1))
        self._cycles_indexed = len(column)
        return by_cycle

    def _cycle_seqs(self, cycle: int) -> list[int]:
        runs = self._cycle_index().get(cycle, ())
        return [seq for i in range(0, len(runs), 2) for seq in range(runs[i], runs[i + 1])]

    def for_cycle(self, cycle: int) -> list[Record]:
        """Every record of one scheduling cycle (its binding cycle included), in trace order."""
        return [self._record(seq) for seq in self._cycle_seqs(cycle)]
