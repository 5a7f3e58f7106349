"""The steppable Simulation: a cluster, its kubelet and controllers, N kube-scheduler replicas,
and a cursor over the trace with checkpoints, edits that fork the future, and a horizon.

Upstream: no counterpart; the engine it drives is the v1.18.5 scheduler (kubesched.scheduler)
started as ``cmd/kube-scheduler`` does (kubesched.cmd.app.server), one process per replica.

How it runs:

- The engine runs forward lazily on one EventLoop; every loop callback that runs is one
  *event*. Records are appended to the trace as they happen. After a callback that produced
  records, a *mark* ``(trace length, events run, time)`` is kept, with a frozen ``SimState``
  checkpoint (clusters of at most ``CHECKPOINT_LIMIT`` nodes + pods; bigger ones compute a
  past state on demand by replaying).
- ``cursor`` is how many records are visible. ``step("event")`` moves it to the next mark
  (running the engine when needed), ``step("phase")`` past the next PHASE_START / PHASE_END /
  CYCLE_START / CYCLE_END record, ``step("pod")`` to the end of the callback that ends the next
  scheduling cycle, ``step("idle")`` to the end of a run to idle; when the run has stopped
  (idle, horizon, event cap) and there is no such record, a step goes to the end of the trace.
  ``back``/``seek`` only move the cursor. ``state()`` is the last checkpoint at or before the cursor.
- Idle: the leader's three sub-queues are empty, no pod is assumed, the stored lock names the
  leader (or leader election is off), and nothing but
  background timers (queue flushes, cache sweeps, leader-election renewals) is pending. A pod
  left in unschedulableQ always moves again (``flushUnschedulableQLeftover`` retries it after
  60 s), so such a run is never idle: it ends at the horizon. A run that never goes idle
  stops at the horizon (``horizon`` simulated seconds after the last change: a write to any
  object other than Events and the leader-election lock, or the last timed action) or after
  ``max_events`` callbacks. ``stopped_reason`` says which.
- ``apply(edit)`` records the edit with the cursor's event position and time, then rebuilds
  the run from the inputs plus every edit, replaying deterministically to that position, where
  the edit is applied: the past is identical, the future forks, the cursor stays.
- The configuration's feature gates are applied around every engine step.

With tracing off (``trace=False``) there are no records and no marks: ``step`` runs to the
end (as ``run_until_idle``) and ``state()`` is the live state; decisions are the same.
``digest()`` is the sha256 of the trace (``kubesched.trace.digest``).

Deviation: an edit made while the cursor is inside a callback's records is applied after that
callback (a callback is never split).
"""

from __future__ import annotations

import bisect
import os
import pathlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from kubesched import features
from kubesched.api.core import Pod
from kubesched.api.load import LoadedCluster, load_cluster
from kubesched.api.yaml_source import read_documents
from kubesched.client.leaderelection import LockError, ResourceLockConfig
from kubesched.client.leaderelection import new as new_resource_lock
from kubesched.cluster import APIServer, Kubelet, ReplicaSetController
from kubesched.cluster.errors import APIError
from kubesched.scheduler.apis.config.scheme import (
    ConfigError,
    ConfigProblem,
    default_config,
    load_config,
)
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.sim import state as st
from kubesched.sim.edits import Edit, apply_edit, describe
from kubesched.sim.loop import EventLoop
from kubesched.sim.replica import PodAttempts, SchedulerProcess
from kubesched.sim.scenario import (
    Action,
    Scenario,
    ScenarioError,
    blank_document,
    dump,
    scenario_document,
    split_source,
)
from kubesched.trace import Kind, Trace, TraceRecorder
from kubesched.trace import digest as trace_digest

CHECKPOINT_LIMIT: Final = 400
BACKGROUND_LABELS: Final = frozenset({"flushBackoffQCompleted", "flushUnschedulableQLeftover",
                                      "cleanupExpiredAssumedPods"})
BACKGROUND_PREFIXES: Final = ("leaderelection ",)
QUIET_KINDS: Final = frozenset({"Event", "Endpoints", "Lease"})
PHASE_KINDS: Final = frozenset({Kind.PHASE_START, Kind.PHASE_END, Kind.CYCLE_START, Kind.CYCLE_END})
CONFIG_KIND: Final = "KubeSchedulerConfiguration"
UNITS: Final = ("event", "phase", "pod", "idle")


class EditError(ValueError):
    """An edit the API server refused (or a KillLeader with no leader); nothing changed."""


@dataclass(frozen=True, slots=True)
class AppliedEdit:
    """An edit made with ``apply``: after ``after_event`` callbacks, at simulated ``time``."""

    edit: Edit
    after_event: int
    time: float


@dataclass(frozen=True)
class Inputs:
    """Everything a run is a function of (besides the edits)."""

    objects: tuple[Any, ...]
    config: KubeSchedulerConfiguration
    config_given: bool
    scenario: Scenario
    seed: int
    cluster_text: str = ""
    config_document: dict[str, Any] | None = None   # written by to_scenario_yaml when not in the text
    filename: str = "<string>"
    loaded: LoadedCluster | None = field(default=None, compare=False)

    @property
    def loaded_config_in_text(self) -> bool:
        """Whether ``cluster_text`` still holds the configuration document."""
        return self.loaded is not None and bool(self.loaded.config_documents)


@dataclass(frozen=True, slots=True)
class Mark:
    trace_len: int
    events: int
    time: float


# -- one run ------------------------------------------------------------------------------------------
class Engine:
    """One run of the cluster from the inputs plus positional edits (rebuilt on every fork)."""

    def __init__(self, inputs: Inputs, positional: list[AppliedEdit], *, trace: bool,
                 horizon: float, max_events: int, strict: AppliedEdit | None = None) -> None:
        self.inputs = inputs
        self.strict = strict  # the edit whose refusal is raised (the one being applied)
        self.gates = dict(inputs.config.feature_gates)
        self.horizon = horizon
        self.max_events = max_events
        self.loop = EventLoop()
        self.api = APIServer(self.loop)
        self.recorder = TraceRecorder(clock=self.loop, enabled=trace)
        self.recorder.attach_apiserver(self.api)
        self.attempts = PodAttempts()
        self.bound_at: dict[str, float] = {}
        self.deleted: dict[str, Pod] = {}
        self.last_change = 0.0
        self.last_action = max((a.at for a in inputs.scenario.actions if a.after_event is None), default=0.0)
        self.action_errors: list[str] = []
        self.events = 0
        self.event_times: list[float] = []
        self.marks: list[Mark] = []
        self.mark_lens: list[int] = []     # marks' trace lengths (for bisect)
        self.mark_times: list[float] = []  # marks' times
        self.sizes = {"Node": 0, "Pod": 0}
        self._node_memo: dict[str, Any] = {}
        self.traced: SchedulerProcess | None = None
        self.checkpoints: dict[int, st.SimState] = {}
        self._positional = sorted(enumerate(positional), key=lambda ie: (ie[1].after_event, ie[0]))
        self.last_action = max([self.last_action] + [a.time for a in positional])
        self._next_positional = 0
        with features.override(self.gates):
            self._build()
        if self.strict is None or self.strict.after_event > 0:
            self.step_edits_due()

    def _build(self) -> None:
        for obj in self.inputs.objects:
            self.api.create(obj)
        self.sizes = {kind: len(self.api.list(kind)) for kind in self.sizes}
        self.api.watch(self._on_change)
        self.kubelet = Kubelet(self.api)
        self.controller = ReplicaSetController(self.api)
        self.processes = [
            SchedulerProcess(i, api=self.api, loop=self.loop,
                             config=self.inputs.config if self.inputs.config_given else None, seed=self.inputs.seed,
                             recorder=self.recorder, is_traced=self._is_traced, attempts=self.attempts,
                             on_change=self._retrace)
            for i in range(self.inputs.scenario.replicas)]
        self._retrace()
        for process in self.processes:
            process.start()
        for action in self.inputs.scenario.actions:
            if action.after_event is None:
                self.loop.call_at(action.at, lambda a=action: self._timed_action(a),
                                  label=f"scenario at {action.at:g}s: {describe(action.edit)}")

    # -- observation -------------------------------------------------------------------------------
    def _on_change(self, event: Any) -> None:
        kind = event.kind if hasattr(event, "kind") else type(event.obj).KIND
        if kind in QUIET_KINDS:
            return
        self.last_change = self.loop.now()
        if kind in self.sizes and event.type in ("ADDED", "DELETED"):
            self.sizes[kind] += 1 if event.type == "ADDED" else -1
        if kind != "Pod":
            return
        pod = event.obj
        key = f"{pod.metadata.namespace}/{pod.metadata.name}"
        if event.type == "DELETED":
            self.deleted[key] = pod
            self.bound_at.pop(key, None)
            return
        self.deleted.pop(key, None)
        if pod.spec.node_name and key not in self.bound_at:
            self.bound_at[key] = self.loop.now()

    def _is_traced(self, process: SchedulerProcess) -> bool:
        return self.traced is process

    def _retrace(self) -> None:
        """Which replica's engine records are kept: the leader, else the first one alive."""
        leader = self.leader()
        self.traced = leader if leader is not None else next((p for p in self.processes if p.alive), None)

    def leader(self) -> SchedulerProcess | None:
        return next((p for p in self.processes if p.alive and p.leading), None)

    # -- edits ---------------------------------------------------------------------------------------
    def kill_leader(self) -> None:
        leader = self.leader()
        if leader is None:
            raise EditError("no scheduler replica is leading")
        leader.kill()

    def step_edits_due(self) -> None:
        """Apply the edits due at the current position (normally done by ``step``)."""
        with features.override(self.gates):
            self._apply_positional()
        self._mark()

    def _timed_action(self, action: Action) -> None:
        try:
            apply_edit(action.edit, self.api, self.kill_leader)
        except (APIError, EditError) as err:
            self.action_errors.append(f"t={action.at:g}s {describe(action.edit)}: {err}")

    def _apply_positional(self) -> None:
        while self._next_positional < len(self._positional):
            _, applied = self._positional[self._next_positional]
            if applied.after_event != self.events:
                return
            self._next_positional += 1
            self._set_clock(applied.time)
            try:
                apply_edit(applied.edit, self.api, self.kill_leader)
            except (APIError, EditError) as err:
                if applied is self.strict:
                    raise
                self.action_errors.append(f"after event {applied.after_event} {describe(applied.edit)}: {err}")
            self.last_change = max(self.last_change, self.loop.now())

    def _set_clock(self, when: float) -> None:
        if when <= self.loop.now():
            return
        nxt = self.loop.peek()
        if nxt is None or nxt.time > when:
            self.loop.run(until=when)

    # -- running ---------------------------------------------------------------------------------------
    def step(self) -> bool:
        """Run one callback (then any edit due after it); False when nothing is pending."""
        with features.override(self.gates):
            entry = self.loop.step()
            if entry is None:
                return False
            self.events += 1
            self.event_times.append(entry.time)
            self._apply_positional()
        self._mark()
        return True

    def _mark(self) -> None:
        self.recorder.flush()
        length = len(self.recorder.trace)
        if length > (self.marks[-1].trace_len if self.marks else 0):
            self.marks.append(Mark(length, self.events, self.loop.now()))
            self.mark_lens.append(length)
            self.mark_times.append(self.loop.now())
            if self.small():
                self.checkpoints[length] = self.capture()

    def small(self) -> bool:
        return self.sizes["Node"] + self.sizes["Pod"] <= CHECKPOINT_LIMIT

    def deadline(self) -> float:
        return max(self.last_change, self.last_action) + self.horizon

    def stop_reason(self) -> str | None:
        """"max_events", "horizon", "idle" or None (keep going)."""
        if self.events >= self.max_events:
            return "max_events"
        nxt = self.loop.peek()
        if nxt is None:
            return "idle"
        if nxt.time > self.deadline():
            return "horizon"
        if self.is_idle():
            return "idle"
        return None

    def is_idle(self) -> bool:
        if self._next_positional < len(self._positional):
            return False  # an edit is still to be applied
        leader = self.leader()
        if leader is None:
            if any(p.alive for p in self.processes):
                return False
        else:
            sched = leader.sched
            queue = sched.scheduling_queue
            if len(queue.active_q) or len(queue.pod_backoff_q) or sched.scheduler_cache.assumed_pods:
                return False
            if len(queue.unschedulable_q):
                return False  # retried at the latest by the leftover flush: only the horizon ends it
            if leader.env.elector is not None and self._lock_holder(leader) != leader.identity:
                return False  # someone else holds the lock: the leader is about to lose it
        nxt = self.loop.peek()
        if nxt is not None and not _background(nxt.label):
            return False
        return all(_background(entry.label) for entry in self.loop.pending())

    def _lock_holder(self, process: SchedulerProcess) -> str:
        """The holder recorded in the stored lock (read through a fresh lock of the same type)."""
        le = process.env.config.component_config.leader_election
        lock = new_resource_lock(le.resource_lock, le.resource_namespace, le.resource_name, self.api,
                                 ResourceLockConfig(""))
        try:
            record, _raw = lock.get()
        except (APIError, ValueError, LockError):
            return ""
        return record.holder_identity

    # -- state ---------------------------------------------------------------------------------------------
    def capture(self) -> st.SimState:
        leader = self.leader()
        sched = leader.sched if leader is not None else None
        queues = st.capture_queues(sched.scheduling_queue if sched is not None else None)
        cache = sched.scheduler_cache if sched is not None else self._traced_cache()
        replicas = tuple(st.ReplicaState(p.hostname, p.identity, p.alive, p.alive and p.leading)
                         for p in self.processes)
        return st.SimState(
            time=self.loop.now(), cycle=sched.scheduling_queue.scheduling_cycle() if sched is not None else 0,
            leader=leader.identity if leader is not None else "", queues=queues,
            nodes=st.capture_nodes(self.api, cache, self._node_memo),
            pods=st.capture_pods(self.api, queues, self.attempts.attempts, self.bound_at, self.deleted.values()),
            events=st.capture_events(self.api), replicas=replicas)

    def _traced_cache(self) -> Any:
        process = next((p for p in self.processes if p.alive and p.sched is not None), None)
        return process.sched.scheduler_cache if process is not None else None


def _background(label: str) -> bool:
    return label in BACKGROUND_LABELS or label.startswith(BACKGROUND_PREFIXES)


# -- the Simulation ------------------------------------------------------------------------------------------
class Simulation:
    """A steppable, forkable run of the scheduler over one cluster (see the module docstring)."""

    def __init__(self, inputs: Inputs, *, trace: bool = True, horizon: float = 300.0,
                 max_events: int = 200_000) -> None:
        self.inputs = inputs
        self.tracing = trace
        self.horizon = float(horizon)
        self.max_events = int(max_events)
        self.edits: list[AppliedEdit] = []
        self._engine = self._new_engine(self.edits)
        self.cursor = 0
        self._pos = 0
        self._time = 0.0
        self.stopped_reason: str | None = None

    # -- construction ---------------------------------------------------------------------------------
    @classmethod
    def from_yaml(cls, source: str | pathlib.Path, *, config: str | pathlib.Path | dict | None = None,
                  seed: int | None = None, trace: bool = True, horizon: float = 300.0,
                  max_events: int = 200_000) -> Simulation:
        """Load a cluster (YAML text or a path; may hold a KubeSchedulerConfiguration and a Scenario)."""
        return cls(load_inputs(source, config=config, seed=seed), trace=trace, horizon=horizon,
                   max_events=max_events)

    def _new_engine(self, edits: list[AppliedEdit], strict: AppliedEdit | None = None) -> Engine:
        positional = [AppliedEdit(a.edit, a.after_event, a.at) for a in self.inputs.scenario.actions
                      if a.after_event is not None] + list(edits)
        return Engine(self.inputs, positional, trace=self.tracing, horizon=self.horizon, max_events=self.max_events,
                      strict=strict)

    # -- what is visible --------------------------------------------------------------------------------
    @property
    def trace(self) -> Trace:
        """Every record computed so far (views show ``trace[:cursor]``)."""
        return self._engine.recorder.trace

    @property
    def engine(self) -> Engine:
        return self._engine

    @property
    def time(self) -> float:
        return self._time

    @property
    def cycle(self) -> int:
        """The scheduling cycle of the last record at or before the cursor (0 before any)."""
        trace = self.trace
        for i in range(self.cursor - 1, -1, -1):
            if trace[i].cycle is not None:
                return trace[i].cycle
        return 0

    @property
    def current_pod(self) -> str | None:
        """The pod whose scheduling cycle is in progress at the cursor, if any."""
        trace = self.trace
        for i in range(self.cursor - 1, -1, -1):
            record = trace[i]
            if record.kind is Kind.POD_POPPED:
                return record.pod
            if record.kind is Kind.CYCLE_END:
                return None
        return None

    def digest(self) -> str:
        """sha256 of the trace computed so far (kubesched.trace.digest)."""
        return trace_digest(self.trace)

    def is_idle(self) -> bool:
        return self._engine.is_idle()

    # -- moving the cursor -------------------------------------------------------------------------------
    def step(self, unit: str = "event") -> int:
        """Move the cursor by one ``event`` / ``phase`` / ``pod``, or to ``idle``; returns it."""
        if unit == "event":
            self._seek_mark(self._next_mark(lambda m: m.trace_len > self.cursor))
        elif unit == "phase":
            index = self._find(self.cursor, lambda r: r.kind in PHASE_KINDS)
            self._set_cursor(index + 1 if index is not None else len(self.trace))
        elif unit == "pod":
            index = self._find(self.cursor, lambda r: r.kind is Kind.CYCLE_END)
            self._seek_mark(self._next_mark(lambda m: m.trace_len > index) if index is not None else None)
        elif unit == "idle":
            self.run_until_idle()
        else:
            raise ValueError(f"unknown step unit {unit!r} (one of {', '.join(UNITS)})")
        return self.cursor

    def run_until_idle(self) -> int:
        """Run until idle, the horizon or the event cap; the cursor goes to the end."""
        while self._compute():
            pass
        self.cursor = len(self.trace)
        self._pos, self._time = self._engine.events, self._engine.loop.now()
        return self.cursor

    def advance(self, seconds: float) -> int:
        """Move ``seconds`` of simulated time forward (running the engine as needed)."""
        target = self._time + float(seconds)
        engine = self._engine
        while engine.loop.now() <= target:
            nxt = engine.loop.peek()
            if nxt is None or nxt.time > target or engine.events >= self.max_events:
                break
            engine.step()
        if engine.loop.now() < target:
            engine._set_clock(target)
        index = bisect.bisect_right(engine.mark_times, target)
        self.cursor = engine.marks[index - 1].trace_len if index else 0
        self._pos = bisect.bisect_right(engine.event_times, target)
        self._time = target
        return self.cursor

    def back(self, n: int = 1) -> int:
        """Move the cursor ``n`` event boundaries back (instant)."""
        lens = self._engine.mark_lens
        index = bisect.bisect_left(lens, self.cursor) - int(n)
        self._set_cursor(lens[index] if index >= 0 else 0)
        return self.cursor

    def seek(self, index: int) -> int:
        """Put the cursor at record count ``index`` (computing further if needed)."""
        index = max(0, int(index))
        while len(self.trace) < index and self._compute():
            pass
        self._set_cursor(min(index, len(self.trace)))
        return self.cursor

    # -- helpers -------------------------------------------------------------------------------------------
    def _compute(self) -> bool:
        """Run the engine until it produces a new mark; False once it stopped (reason set)."""
        engine = self._engine
        start = len(engine.marks)
        while len(engine.marks) == start:
            reason = engine.stop_reason()
            if reason is not None:
                self.stopped_reason = reason
                return False
            engine.step()
        self.stopped_reason = None
        return True

    def _next_mark(self, wanted: Callable[[Mark], bool]) -> Mark | None:
        marks = self._engine.marks
        lo = bisect.bisect_left(self._engine.mark_lens, self.cursor)
        while True:
            for mark in marks[lo:]:
                if wanted(mark):
                    return mark
            lo = len(marks)
            if not self._compute():
                return None

    def _find(self, start: int, wanted: Callable[[Any], bool]) -> int | None:
        index = start
        while True:
            trace = self.trace
            while index < len(trace):
                if wanted(trace[index]):
                    return index
                index += 1
            if not self._compute():
                return None

    def _seek_mark(self, mark: Mark | None) -> None:
        if mark is None:
            self._set_cursor(len(self.trace))
            return
        self.cursor, self._pos, self._time = mark.trace_len, mark.events, mark.time

    def _set_cursor(self, cursor: int) -> None:
        self.cursor = cursor
        marks = self._engine.marks
        index = bisect.bisect_left(self._engine.mark_lens, cursor)
        if cursor == 0 or index >= len(marks):
            if cursor == 0:
                self._pos, self._time = 0, 0.0
            return
        self._pos, self._time = marks[index].events, marks[index].time

    # -- state ------------------------------------------------------------------------------------------------
    def state(self) -> st.SimState:
        """The last checkpoint at or before the cursor (live at the engine's frontier)."""
        engine = self._engine
        if self._pos == engine.events and self.cursor == len(self.trace):
            return replace(engine.capture(), time=self._time)
        index = bisect.bisect_right(engine.mark_lens, self.cursor) - 1
        if index < 0:
            return self._replay_state(0, 0)
        mark = engine.marks[index]
        if mark.trace_len in engine.checkpoints:
            return engine.checkpoints[mark.trace_len]
        return self._replay_state(mark.events, mark.trace_len)

    def _replay_state(self, events: int, key: int) -> st.SimState:
        # tracing off makes the same decisions (tested), and replays faster
        positional = [AppliedEdit(a.edit, a.after_event, a.at) for a in self.inputs.scenario.actions
                      if a.after_event is not None] + list(self.edits)
        replay = Engine(self.inputs, positional, trace=False, horizon=self.horizon, max_events=self.max_events)
        while replay.events < events and replay.step():
            pass
        snapshot = replay.capture()
        if key:
            self._engine.checkpoints[key] = snapshot
        return snapshot

    # -- edits --------------------------------------------------------------------------------------------------
    def apply(self, edit: Edit) -> None:
        """Apply ``edit`` at the cursor: the future is rebuilt from the inputs plus every edit.

        Raises ``EditError`` (and changes nothing) when the API server refuses the edit.
        """
        applied = AppliedEdit(edit, self._pos, self._time)
        edits = self.edits + [applied]
        try:
            engine = self._new_engine(edits, strict=applied)
            while engine.events < self._pos and engine.step():
                pass
            if engine.events < self._pos:
                raise EditError(f"{describe(edit)}: the run ended before event {self._pos}")
            engine.step_edits_due()
        except APIError as err:
            raise EditError(f"{describe(edit)}: {err}") from err
        self.edits = edits
        self._engine = engine
        self.stopped_reason = None

    @property
    def action_errors(self) -> tuple[str, ...]:
        """Timed actions the API server refused (the run went on without them)."""
        return tuple(self._engine.action_errors)

    # -- export ------------------------------------------------------------------------------------------------
    def to_scenario_yaml(self) -> str:
        """Cluster + configuration + a Scenario document with the seed and every action and edit."""
        inputs = self.inputs
        actions = tuple(inputs.scenario.actions) + tuple(
            Action(a.time, a.edit, a.after_event) for a in self.edits)
        scenario = replace(inputs.scenario, seed=inputs.seed, actions=actions)
        parts = [_tidy(inputs.cluster_text)]
        if inputs.config_document is not None:
            parts.append(dump(inputs.config_document))
        elif inputs.config_given and not inputs.loaded_config_in_text:
            parts.append(f"# {CONFIG_KIND} given as an object: not written (the reloaded run uses the defaults)")
        parts.append(dump(scenario_document(scenario)))
        return "\n---\n".join(p.strip("\n") for p in parts if p.strip()) + "\n"


# -- loading ------------------------------------------------------------------------------------------------------
def _is_path(source: Any) -> bool:
    if isinstance(source, pathlib.Path):
        return True
    return isinstance(source, str) and "\n" not in source and len(source) < 4096 and os.path.isfile(source)


def load_inputs(source: str | pathlib.Path, *, config: Any = None, seed: int | None = None) -> Inputs:
    """Read the cluster, its configuration and its scenario; LoadError / ConfigError / ScenarioError."""
    if _is_path(source):
        path = pathlib.Path(source)
        filename = str(source)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            load_cluster(path)  # raises the loader's LoadError naming the file
            raise
    else:
        filename, text = "<string>", str(source)
    cluster_text, scenario = split_source(text, filename)
    scenario = scenario or Scenario(file=filename)
    config_docs = [d for d in read_documents(cluster_text)[0] if isinstance(d.data, dict)
                   and d.data.get("kind") == CONFIG_KIND]
    if config is not None:
        for doc in config_docs:
            cluster_text = blank_document(cluster_text, doc.line)
    loaded = load_cluster(cluster_text, filename=filename)
    cfg, config_document = _config(loaded, config)
    given = config is not None or bool(loaded.config_documents)
    effective_seed = seed if seed is not None else (scenario.seed if scenario.seed is not None else 0)
    return Inputs(objects=loaded.objects, config=cfg, config_given=given, scenario=scenario, seed=effective_seed,
                  cluster_text=cluster_text, config_document=config_document, filename=filename, loaded=loaded)


def _config(loaded: LoadedCluster, config: Any) -> tuple[KubeSchedulerConfiguration, dict[str, Any] | None]:
    if config is None:
        docs = loaded.config_documents
        if len(docs) > 1:
            raise ConfigError([ConfigProblem(d.file, d.line, "", f"a second {CONFIG_KIND} document (the first is "
                                             f"at line {docs[0].line}); a cluster file may hold one")
                               for d in docs[1:]])
        return (load_config(docs[0]) if docs else default_config()), None
    if isinstance(config, KubeSchedulerConfiguration):
        return config, None
    if isinstance(config, dict):
        return load_config(config), dict(config)
    if _is_path(config):
        path = pathlib.Path(config)
        cfg = load_config(path)
        text = path.read_text(encoding="utf-8")
    else:
        text = str(config)
        cfg = load_config(text)
    docs = [d.data for d in read_documents(text)[0] if isinstance(d.data, dict) and d.data.get("kind") == CONFIG_KIND]
    return cfg, (docs[0] if docs else None)


def _tidy(text: str) -> str:
    """Collapse the blank runs left by removed documents, and drop empty documents."""
    text = re.sub(r"(?m)^---[ \t]*\n(?:[ \t]*\n)*(?=^---|\Z)", "", text + "\n")
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n")


__all__ = ["AppliedEdit", "EditError", "Engine", "Inputs", "Mark", "ScenarioError", "Simulation", "load_inputs"]
