"""One run of the cluster: the event loop, the API server, kubelet and controllers, N scheduler
replicas, the trace recorder, event marks with state checkpoints, and positional edits.

Upstream: no counterpart; the engine it drives is the v1.18.5 scheduler (kubesched.scheduler)
started as ``cmd/kube-scheduler`` does (kubesched.cmd.app.server), one process per replica.
``kubesched.sim.simulation.Simulation`` rebuilds an ``Engine`` on every fork and moves a cursor
over its trace; the rules for marks, checkpoints, idleness and the horizon are described there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from kubesched import features
from kubesched.api.core import Pod
from kubesched.client.leaderelection import LockError, ResourceLockConfig
from kubesched.client.leaderelection import new as new_resource_lock
from kubesched.controller import manager as controller_manager
from kubesched.cluster import APIServer, Kubelet
from kubesched.cluster.errors import APIError
from kubesched.sim import state as st
from kubesched.sim.edits import Edit, Partition, Tick, apply_edit, describe
from kubesched.sim.inputs import Inputs
from kubesched.util.loop import EventLoop
from kubesched.sim.replica import PodAttempts, SchedulerProcess
from kubesched.sim.scenario import Action
from kubesched.trace import TraceRecorder

CHECKPOINT_LIMIT: Final = 400
BACKGROUND_LABELS: Final = frozenset({"flushBackoffQCompleted", "flushUnschedulableQLeftover",
                                      "cleanupExpiredAssumedPods"}) | controller_manager.BACKGROUND_LABELS
BACKGROUND_PREFIXES: Final = ("leaderelection ",)
QUIET_KINDS: Final = frozenset({"Event", "Endpoints", "ConfigMap", "Lease"})


class EditError(ValueError):
    """An edit the API server refused (or a KillLeader with no leader); nothing changed."""


@dataclass(frozen=True, slots=True)
class AppliedEdit:
    """An edit made with ``apply``: after ``after_event`` callbacks, at simulated ``time``.

    ``action`` is its index in the Scenario's ``spec.actions`` when it is an ``afterEvent``
    action of the input (None for an edit made at the cursor)."""

    edit: Edit
    after_event: int
    time: float
    action: int | None = None


@dataclass(frozen=True, slots=True)
class ActionError:
    """A Scenario action the API server refused (the run went on without it).

    ``index`` is its position in ``spec.actions`` (None for an edit made at the cursor),
    ``time`` when it was applied, ``action`` what it does (``describe``), ``error`` the refusal.
    """

    index: int | None
    time: float
    action: str
    error: str

    def __str__(self) -> str:
        where = f"spec.actions[{self.index}]" if self.index is not None else "edit"
        return f"{where} at t={self.time:g}s: {self.action}: {self.error}"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "time": round(self.time, 6), "action": self.action, "error": self.error}


@dataclass(frozen=True, slots=True)
class Mark:
    trace_len: int
    events: int
    time: float


# -- one run ------------------------------------------------------------------------------------------
class Engine:
    """One run of the cluster from the inputs plus positional edits (rebuilt on every fork)."""

    def __init__(self, inputs: Inputs, positional: list[AppliedEdit], *, trace: bool,
                 horizon: float, max_events: int, strict: AppliedEdit | None = None,
                 checkpoint_limit: int = CHECKPOINT_LIMIT) -> None:
        self.inputs = inputs
        self.checkpoint_limit = checkpoint_limit  # clusters up to this many nodes + pods keep checkpoints
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
        self.action_errors: list[ActionError] = []
        self.events = 0
        self.event_times: list[float] = []
        self.marks: list[Mark] = []
        self.mark_lens: list[int] = []     # marks' trace lengths (for bisect)
        self.mark_times: list[float] = []  # marks' times
        self.sizes = {"Node": 0, "Pod": 0}
        self._node_memo: dict[str, Any] = {}   # successive checkpoints share unchanged nodes, pods, Events
        self._pod_memo: dict[str, Any] = {}
        self._event_memo: dict[Any, Any] = {}
        self.traced: SchedulerProcess | None = None
        self.checkpoints: dict[int, st.SimState] = {}
        self._positional = sorted(enumerate(positional), key=lambda ie: (ie[1].after_event, ie[0]))
        self.last_action = max([self.last_action] + [a.time for a in positional if not isinstance(a.edit, Tick)])
        self._next_positional = 0
        with features.override(self.gates):
            self._build()
        if self.strict is None or self.strict.after_event > 0:
            self.step_edits_due()

    def _build(self) -> None:
        for obj in self.inputs.objects:
            self.api.create(obj)
        for pod in self.api.list("Pod"):
            if pod.spec.node_name:  # bound in the input: bound since the run started
                self.bound_at[f"{pod.metadata.namespace}/{pod.metadata.name}"] = self.loop.now()
        self.sizes = {kind: len(self.api.list(kind)) for kind in self.sizes}
        self.api.watch(self._on_change)
        self.kubelet = Kubelet(self.api)
        self.controllers = controller_manager.start(self.api)
        self.processes = [
            SchedulerProcess(i, api=self.api, loop=self.loop,
                             config=self.inputs.config if self.inputs.config_given else None, seed=self.inputs.seed,
                             recorder=self.recorder, is_traced=self._is_traced, attempts=self.attempts,
                             on_change=self._retrace)
            for i in range(self.inputs.scenario.replicas)]
        self._retrace()
        for process in self.processes:
            process.start()
        for index, action in enumerate(self.inputs.scenario.actions):
            if action.after_event is None:
                self.loop.call_at(action.at, lambda a=action, i=index: self._timed_action(a, i),
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

    def exit_errors(self) -> list[str]:
        """What replicas that exited 1 said (``runCommand``'s error: an unknown plugin, a refused
        extender URL), each distinct message once."""
        return list(dict.fromkeys(p.env.exited[1] for p in self.processes
                                  if p.env.exited is not None and p.env.exited[0] == 1))

    # -- edits ---------------------------------------------------------------------------------------
    def kill_leader(self) -> None:
        leader = self.leader()
        if leader is None:
            raise EditError("no scheduler replica is leading")
        leader.kill()

    def partition(self, edit: Partition) -> None:
        """Cut one replica off the API server (kubesched.sim.replica.ReplicaClient)."""
        process = next((p for p in self.processes if p.hostname == edit.replica), None)
        if process is None:
            names = ", ".join(p.hostname for p in self.processes)
            raise EditError(f"no scheduler replica {edit.replica} (the replicas are {names})")
        process.client.cut(watch_only=edit.watch_only)

    def step_edits_due(self) -> None:
        """Apply the edits due at the current position (normally done by ``step``)."""
        with features.override(self.gates):
            self._apply_positional()
        self._mark()

    def _apply(self, edit: Edit, time: float) -> None:
        if isinstance(edit, Tick):
            self.recorder.time_step(max(time, self.loop.now()))
        else:
            apply_edit(edit, self.api, self.kill_leader, self.partition)

    def tick(self, time: float) -> None:
        """A time-only step at the frontier: the clock moves to ``time`` and a TIME record marks it."""
        self._set_clock(time)
        self.recorder.time_step(time)
        self._mark()

    def _timed_action(self, action: Action, index: int) -> None:
        try:
            self._apply(action.edit, action.at)
        except (APIError, EditError) as err:
            self.action_errors.append(ActionError(index, self.loop.now(), describe(action.edit), str(err)))

    def _apply_positional(self) -> None:
        while self._next_positional < len(self._positional):
            _, applied = self._positional[self._next_positional]
            if applied.after_event != self.events:
                return
            self._next_positional += 1
            self._set_clock(applied.time)
            try:
                self._apply(applied.edit, applied.time)
            except (APIError, EditError) as err:
                if applied is self.strict:
                    raise
                self.action_errors.append(ActionError(applied.action, self.loop.now(), describe(applied.edit), str(err)))
            if not isinstance(applied.edit, Tick):
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
        length = len(self.recorder.trace)
        if length > (self.marks[-1].trace_len if self.marks else 0):
            self.marks.append(Mark(length, self.events, self.loop.now()))
            self.mark_lens.append(length)
            self.mark_times.append(self.loop.now())
            if self.small():
                self.checkpoints[length] = self.capture()

    def small(self) -> bool:
        return self.sizes["Node"] + self.sizes["Pod"] <= self.checkpoint_limit

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
        self.loop.skip_idle(self.deadline())  # flushes and sweeps that would change nothing
        if self.loop.peek().time > self.deadline():  # type: ignore[union-attr]
            return "horizon"
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
            if leader.env.elector is not None and leader.client.requests_cut:
                return False  # partitioned: its renewals fail, it is about to lose the lease
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
            pods=st.capture_pods(self.api, queues, self.attempts.attempts, self.bound_at, self.deleted.values(),
                                 self._pod_memo),
            events=st.capture_events(self.api, self._event_memo), replicas=replicas)

    # -- memory ---------------------------------------------------------------------------------------------
    def release(self) -> None:
        """Let go of the checkpoints and marks (call when nothing reads this run any more).

        An engine is one knot of reference cycles (every loop callback holds its owner), so
        only the cyclic garbage collector frees it, which with a large heap may be minutes
        later; what the engine itself holds goes at once. States already handed out stay valid.
        """
        self.checkpoints = {}
        self.marks, self.mark_lens, self.mark_times, self.event_times = [], [], [], []
        self._node_memo, self._pod_memo, self._event_memo = {}, {}, {}

    def _traced_cache(self) -> Any:
        process = next((p for p in self.processes if p.alive and p.sched is not None), None)
        return process.sched.scheduler_cache if process is not None else None


def _background(label: str) -> bool:
    return label in BACKGROUND_LABELS or label.startswith(BACKGROUND_PREFIXES)


__all__ = ["CHECKPOINT_LIMIT", "ActionError", "AppliedEdit", "EditError", "Engine", "Mark"]
