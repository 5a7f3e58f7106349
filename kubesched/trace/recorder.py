"""The recorder: turns every engine component's observer hooks into trace records.

Upstream: no counterpart (it replaces the klog lines, metrics and Events upstream uses to
show what the scheduler does). Record locations come from ``upstream.py``.

One ``TraceRecorder`` is handed to every component. It exposes each hook by name:

- scheduler.py: ``pod_popped``, ``cycle_start``, ``cycle_end``, ``phase_start``, ``phase_end``,
  ``assume``, ``forget``, ``permit_wait``, ``binding_cycle_start``, ``binding_cycle_end``,
  ``bind``, ``scheduling_failure``, ``nominate``, ``victim``, ``clear_nomination``; its
  ``log=`` callable is ``recorder.log(verbosity, message, *, severity="I", site=None)``
  (``site`` the upstream (file, function) of the klog call).
- factory.py: ``requeue``, ``queue_move`` (also ``on_move`` for a queue wired directly),
  ``cache_event`` (append it to ``cache.hooks``), ``extension_point_start`` /
  ``extension_point_end`` (each framework's ``observer``; the generic scheduler's for Filter).
- core/generic_scheduler.py: ``filter_run``, ``extender_filter``, ``extender_prioritize``,
  ``score_run``, ``schedule_result``; core/preemption.py: ``preemption``, ``preemption_extender``.
- events.py: ``event`` (each ``Recorder.Eventf``).
- the simulation's engine: ``time_step(time)`` (a TIME record for a time-only step, records.py).
- startup and leader election (defined here for cmd/app and client/leaderelection):
  ``startup_step(step, message="", details=(), file="", func="")`` and
  ``leader_election(identity, transition, holder="", lock="", message="")``.
- ``attach_informers(factory)`` adds an ``on_deliver`` hook to the informer factory: each
  delivery is recorded in delivery order, before any handler runs, so its record precedes
  its effects; ``attach_apiserver(api)`` watches stored Events (counts as ``kubectl
  describe`` shows).

The trace is a plain append-only list: every hook appends its record at once, built from
values the engine had anyway. Decisions are one record each (``decisions.py``): FILTER_RUN at
the end of a Filter walk, SCORE_RUN after selectHost, PREEMPTION at the end of Preempt,
POINT_RUN just before its extension point's PHASE_END; no plugin call is recorded
(``calls.plugin_calls`` derives them). Shared values keep those records small: the
snapshot's node-name tuple, and one object for equal statuses, checks, node lists, point runs,
payloads and an Event's message and object between its EVENT and API_EVENT (``_intern``,
``_shared``); the trace stores envelopes as columns (``records.Trace``).

Context: a record's ``cycle``/``profile`` are those of its pod's scheduling cycle, from
``pod_popped`` until ``cycle_end`` (or, for a pod handed to the binding cycle, until
``binding_cycle_end``); records about other objects during a scheduling cycle take that
cycle; otherwise None. A decision record's ``phase`` is the scheduler phase it was made in
(Schedule, Preempt, Reserve …).

Extension points are PHASE_START/PHASE_END records too (PreFilter, Filter, PreScore and
Score nest inside the scheduler's Schedule phase); where the scheduler already reports a
phase of the same name around the runner (Reserve, Permit, PreBind, Bind, PostBind,
Unreserve) that one record pair stands for both.

Cache ``Assume``/``Forget`` events are not recorded twice: the scheduler's ``assume`` and
``forget`` hooks give ASSUME/FORGET; the cache's ``Expire`` gives EXPIRE.

Tracing off: ``TraceRecorder(enabled=False)`` records nothing; pass ``recorder.observer``
(None when off) to the engine so it skips its hook work altogether.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kubesched.trace import upstream
from kubesched.trace.decisions import (
    PASSED,
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
    pack,
)
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    CycleInfo,
    EventData,
    ExtenderCall,
    InformerEvent,
    Kind,
    LeaderElection,
    LogLine,
    Outcome,
    Payload,
    PermitWait,
    Phase,
    QueueMove,
    ScheduleResult,
    SchedulingFailure,
    StartupStep,
    Trace,
    Victim,
)

__all__ = ["TraceRecorder", "object_ref", "pod_key"]
_PERMIT = "Permit"
_ADD_POD = "PreFilterExtensionAddPod"
_SKIPPED_CACHE_EVENTS = frozenset({"Assume", "Forget"})
_INTERNED_MAX = 4096  # distinct shared values kept before the table starts afresh
_Ctx = tuple[int | None, str | None]
_NO_CTX: _Ctx = (None, None)


def pod_key(pod: Any) -> str | None:
    """``"namespace/name"`` of a pod (None for None)."""
    if pod is None:
        return None
    meta = pod.metadata
    return f"{meta.namespace}/{meta.name}"


def object_ref(obj: Any) -> str:
    """``"Kind namespace/name"`` (``"Kind name"`` for cluster-scoped objects)."""
    if obj is None:
        return ""
    kind = getattr(type(obj), "KIND", type(obj).__name__)
    meta = obj.metadata
    return f"{kind} {meta.namespace}/{meta.name}" if meta.namespace else f"{kind} {meta.name}"


def _keys(pods: Iterable[Any]) -> tuple[str, ...]:
    return tuple(pod_key(p) or "" for p in pods)


def _code(status: Any) -> str:
    return "Success" if status is None else str(status.code)


def _reasons(status: Any) -> tuple[str, ...]:
    return () if status is None else tuple(status.reasons)


def _pairs(items: Iterable[tuple[Any, Any]]) -> tuple[tuple[Any, Any], ...]:
    return tuple((a, b) for a, b in items)


class TraceRecorder:
    """Collects records into a ``Trace``; every public hook is a no-op when disabled."""

    def __init__(self, *, clock: Any = None, enabled: bool = True) -> None:
        self.enabled = enabled
        self._clock_now: Callable[[], float] | None = None
        self.clock = clock
        self._trace = Trace()
        self._ctx: dict[str, tuple[int, str | None]] = {}
        self._active: _Ctx = _NO_CTX
        self._phase: dict[str, str] = {}
        self._interned: dict[Any, Any] = {}
        self._point_runs: dict[tuple, PointRun] = {}  # (point, phase, results) → its PointRun
        self._payloads: dict[tuple[type, tuple], Any] = {}  # (payload class, arguments) → the shared payload
        self._phases: dict[tuple[str, str, str], tuple[Phase, str, str]] = {}  # → (payload, file, func)
        self._node_lists: dict[tuple[str, str, int], tuple[str, ...]] = {}  # scored node lists, see _node_list
        self._last_pod: tuple[Any, str | None] = (None, None)

    # -- wiring ------------------------------------------------------------------------------
    @property
    def observer(self) -> TraceRecorder | None:
        """The object to hand to the engine: self, or None when tracing is off."""
        return self if self.enabled else None

    @property
    def trace(self) -> Trace:
        return self._trace

    @property
    def clock(self) -> Any:
        """What tells each record's time (anything with ``now()``; None: time 0)."""
        return self._clock

    @clock.setter
    def clock(self, clock: Any) -> None:
        self._clock = clock
        self._clock_now = None if clock is None else clock.now  # bound once: most hooks ask the time

    def bind_clock(self, clock: Any) -> None:
        self.clock = clock

    def attach_informers(self, factory: Any, kinds: Iterable[str] | None = None, *,
                         gate: Callable[[], bool] | None = None) -> None:
        """Record every informer delivery (of ``kinds`` only, if given; while ``gate()``, if given).

        Uses the factory's ``on_deliver`` hooks: records in delivery order, each before any
        handler runs. A factory without them (a wrapper offering ``add_event_handler`` only)
        gets one handler per kind instead, which runs in registration order.
        """
        if not self.enabled:
            return
        wanted = None if kinds is None else frozenset(kinds)

        def on_deliver(kind: str, event_type: str, obj: Any, old: Any) -> None:
            if (wanted is None or kind in wanted) and (gate is None or gate()):
                self.informer_delivery(kind, event_type, obj, old)
        hooks = getattr(factory, "on_deliver", None)
        if hooks is not None:
            hooks.append(on_deliver)
            return
        from kubesched.client.informers import LIST_ORDER, ResourceEventHandlerFuncs
        for kind in (LIST_ORDER if kinds is None else kinds):
            factory.add_event_handler(kind, ResourceEventHandlerFuncs(
                add_func=lambda obj, k=kind: on_deliver(k, "ADDED", obj, None),
                update_func=lambda old, new, k=kind: on_deliver(k, "MODIFIED", new, old),
                delete_func=lambda obj, k=kind: on_deliver(k, "DELETED", obj, None)))

    def attach_apiserver(self, api: Any) -> Callable[[], None]:
        """Record every stored Event (ADDED or count/lastTimestamp updated); returns ``stop``."""
        if not self.enabled:
            return lambda: None
        return api.watch(self._api_event, ["Event"])

    # -- emitting ------------------------------------------------------------------------------
    def _now(self) -> float:
        now = self._clock_now
        return float(now()) if now is not None else 0.0

    def _context(self, key: str | None) -> _Ctx:
        if key is not None:
            ctx = self._ctx.get(key)
            if ctx is not None:
                return ctx
        return self._active

    def _emit(self, kind: Kind, pod: str | None, data: Payload = None, *, node: str | None = None,
              plugin: str | None = None, loc: tuple[str, str] | None = None,
              ctx: _Ctx | None = None, time: float | None = None) -> None:
        if ctx is None:
            ctx = self._ctx.get(pod, self._active) if pod is not None else self._active
        file, func = loc if loc is not None else upstream.KIND_LOCATION[kind]
        if time is None:
            now = self._clock_now
            time = float(now()) if now is not None else 0.0
        self._trace.add(time, kind, ctx[0], pod, ctx[1], node or None, plugin, file, func, data)

    def _key(self, pod: Any) -> str | None:
        """``pod_key``, remembered for the last pod (hooks hear the same pod object many times a cycle;
        the trace keeps one string per pod key in its names table)."""
        last, key = self._last_pod
        if pod is not last or pod is None:
            key = pod_key(pod)
            self._last_pod = (pod, key)
        return key

    def _decision(self, pod: Any, profile: str) -> tuple[str | None, _Ctx, str]:
        """A decision record's pod key, context (the framework's profile when the cycle has none) and phase."""
        key = self._key(pod)
        cycle, ctx_profile = self._context(key)
        phase = self._phase.get(key, "") if key is not None else ""
        return key, (cycle, ctx_profile or profile or None), phase

    def _intern(self, value: Any) -> Any:
        """One shared object for equal (hashable, immutable) values."""
        table = self._interned
        found = table.get(value)
        if found is None:
            if len(table) >= _INTERNED_MAX:
                table.clear()
            table[value] = found = value
        return found

    def _shared(self, cls: type, *args: Any) -> Any:
        """``cls(*args)``, one object for equal arguments: most payloads repeat from cycle to cycle
        (a phase's start and end, a queue move, a bind), and a shared one costs the garbage
        collector nothing more."""
        table = self._payloads
        key = (cls, args)
        found = table.get(key)
        if found is None:
            if len(table) >= _INTERNED_MAX:
                table.clear()
            table[key] = found = cls(*args)
        return found

    def _node_list(self, nodes: list[str]) -> tuple[str, ...]:
        """The node names as a tuple shared with the runs that scored the same nodes.

        Found by (first, last, count) and checked equal, which compares the tuples' items by
        identity: no name is hashed (the walk's windows repeat as its start index goes round).
        """
        if not nodes:
            return ()
        windows = self._node_lists
        key = (nodes[0], nodes[-1], len(nodes))
        found = windows.get(key)
        if found is None or found != tuple(nodes):
            if len(windows) >= _INTERNED_MAX:
                windows.clear()
            windows[key] = found = tuple(nodes)
        return found

    def _phase_record(self, kind: Kind, key: str | None, phase: str, node: str, code: str = "",
                      message: str = "") -> None:
        """A PHASE_START/PHASE_END record (the most frequent kinds: a shared payload and location)."""
        phases = self._phases
        cached = phases.get((phase, code, message))
        if cached is None:
            if len(phases) >= _INTERNED_MAX:
                phases.clear()
            cached = phases[(phase, code, message)] = (Phase(phase, code, message), *upstream.phase_location(phase))
        data, file, func = cached
        ctx = self._ctx.get(key, self._active) if key is not None else self._active
        now = self._clock_now
        self._trace.add(float(now()) if now is not None else 0.0, kind, ctx[0], key, ctx[1], node or None, None,
                        file, func, data)

    def _status(self, plugin: str, status: Any) -> PluginStatus:
        return self._shared(PluginStatus, plugin, _code(status), _reasons(status))

    def _check(self, check: Any) -> NodeCheck:
        """A generic scheduler ``FilterCheck`` as a ``NodeCheck`` (``PASSED`` for a plain pass)."""
        if not check.passes and check.nominated is None and check.add_pod_failure is None:
            return PASSED
        passes = tuple(FilterPass(tuple(self._status(name, st) for name, st in statuses.items()), _code(merged),
                                  _reasons(merged)) for statuses, merged in check.passes)
        failure = None
        if check.add_pod_failure is not None:
            pod, pf = check.add_pod_failure
            failure = self._extension_failure(_ADD_POD, pod, pf)
        nominated = None if check.nominated is None else _keys(check.nominated)
        return self._intern(NodeCheck(passes, nominated, failure))

    @staticmethod
    def _extension_failure(point: str, pod: Any, failure: Any) -> ExtensionFailure:
        return ExtensionFailure(point, pod_key(pod) or "", failure.plugin, _code(failure.status),
                                _reasons(failure.status))

    # -- framework -------------------------------------------------------------------------------
    def extension_point_start(self, *, extension_point: str, pod: Any, profile: str, node: str = "") -> None:
        """A runner starts (a framework's ``observer``; the generic scheduler's Filter walk)."""
        if not self.enabled:
            return
        key = self._key(pod)
        if not self._same_as_scheduler_phase(key, extension_point):
            self._phase_record(Kind.PHASE_START, key, extension_point, node)

    def extension_point_end(self, *, extension_point: str, pod: Any, profile: str, node: str = "",
                            code: str = "Success", message: str = "", results: Iterable[Any] = ()) -> None:
        """A runner ends: its plugins' ``(plugin, status, timeout)`` as a POINT_RUN, then PHASE_END."""
        if not self.enabled:
            return
        if results:
            key, ctx, phase = self._decision(pod, profile)
            self._emit(Kind.POINT_RUN, key, self._point_run(extension_point, phase, tuple(results)), node=node,
                       loc=(upstream.FRAMEWORK_GO, upstream.RUNNER.get(extension_point, "framework")), ctx=ctx)
        else:
            key = self._key(pod)
        if not self._same_as_scheduler_phase(key, extension_point):
            self._phase_record(Kind.PHASE_END, key, extension_point, node, code, message)

    def _point_run(self, point: str, phase: str, results: tuple) -> PointRun:
        """The PointRun of a runner's results, one object for equal results (statuses are values)."""
        runs = self._point_runs
        cache_key = (point, phase, results)
        run = runs.get(cache_key)
        if run is None:
            statuses = tuple(self._status(name, status) for name, status, _ in results)
            timeouts = tuple(timeout for _, _, timeout in results) if point == _PERMIT else ()
            if len(runs) >= _INTERNED_MAX:
                runs.clear()
            runs[cache_key] = run = self._intern(PointRun(point, statuses, timeouts, phase))
        return run

    def _same_as_scheduler_phase(self, key: str | None, extension_point: str) -> bool:
        return key is not None and self._phase.get(key) == extension_point

    # -- scheduler.py ------------------------------------------------------------------------------
    def pod_popped(self, *, pod: Any, scheduling_cycle: int, attempts: int) -> None:
        if not self.enabled:
            return
        key = self._key(pod)
        self._active = (scheduling_cycle, pod.spec.scheduler_name)
        if key is not None:
            self._ctx[key] = self._active
        self._emit(Kind.POD_POPPED, key, self._shared(CycleInfo, attempts))

    def cycle_start(self, *, pod: Any, profile: str, scheduling_cycle: int) -> None:
        if not self.enabled:
            return
        key = self._key(pod)
        self._active = (scheduling_cycle, profile)
        if key is not None:
            self._ctx[key] = self._active
        self._emit(Kind.CYCLE_START, key, self._shared(CycleInfo))

    def cycle_end(self, *, pod: Any, profile: str, scheduling_cycle: int, result: str, node: str,
                  message: str) -> None:
        if not self.enabled:
            return
        key = self._key(pod)
        self._emit(Kind.CYCLE_END, key, self._shared(CycleInfo, None, result, message), node=node,
                   ctx=(scheduling_cycle, profile))
        self._active = _NO_CTX
        if result != "assumed" and key is not None:
            self._ctx.pop(key, None)
            self._phase.pop(key, None)

    def phase_start(self, *, phase: str, pod: Any, node: str) -> None:
        if not self.enabled:
            return
        key = self._key(pod)
        if key is not None:
            self._phase[key] = phase
        self._phase_record(Kind.PHASE_START, key, phase, node)

    def phase_end(self, *, phase: str, pod: Any, node: str, code: str, message: str) -> None:
        if not self.enabled:
            return
        key = self._key(pod)
        self._phase_record(Kind.PHASE_END, key, phase, node, code, message)
        if key is not None and self._phase.get(key) == phase:
            del self._phase[key]

    def assume(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.ASSUME, self._key(pod), node=node)

    def forget(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.FORGET, self._key(pod), node=node)

    def permit_wait(self, *, pod: Any, node: str, pending_plugins: Iterable[str]) -> None:
        if self.enabled:
            self._emit(Kind.PERMIT_WAIT, self._key(pod), PermitWait(tuple(pending_plugins)), node=node)

    def binding_cycle_start(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.BINDING_CYCLE_START, self._key(pod), node=node)

    def binding_cycle_end(self, *, pod: Any, node: str, result: str, message: str) -> None:
        if not self.enabled:
            return
        key = self._key(pod)
        self._emit(Kind.BINDING_CYCLE_END, key, self._shared(Outcome, result, message), node=node)
        if key is not None:
            self._ctx.pop(key, None)
            self._phase.pop(key, None)

    def bind(self, *, pod: Any, node: str, binder: str, error: BaseException | None) -> None:
        if self.enabled:
            self._emit(Kind.BIND, self._key(pod), self._shared(BindResult, binder, None if error is None else str(error)), node=node)

    def scheduling_failure(self, *, pod: Any, reason: str, message: str, error: BaseException | None) -> None:
        if self.enabled:
            self._emit(Kind.SCHEDULING_FAILURE, self._key(pod),
                       SchedulingFailure(reason, message, "" if error is None else str(error)))

    def nominate(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.NOMINATE, self._key(pod), node=node)

    def victim(self, *, pod: Any, preemptor: Any, node: str) -> None:
        if not self.enabled:
            return
        preemptor_key = pod_key(preemptor)
        self._emit(Kind.VICTIM, self._key(pod), Victim(preemptor_key or ""), node=node,
                   ctx=self._context(preemptor_key))

    def clear_nomination(self, *, pod: Any) -> None:
        if self.enabled:
            self._emit(Kind.CLEAR_NOMINATION, self._key(pod))

    def log(self, verbosity: int, message: str, *, severity: str = "I", site: tuple[str, str] | None = None) -> None:
        """The engine's ``log`` callable: klog verbosity, message, severity (I/W/E), (file, func)."""
        if self.enabled:
            self._emit(Kind.LOG, None, LogLine(verbosity, severity, message), loc=site)

    # -- factory.py --------------------------------------------------------------------------------
    def requeue(self, *, pod: Any, scheduling_cycle: int) -> None:
        if not self.enabled:
            return
        key = self._key(pod)
        self._emit(Kind.REQUEUE, key, ctx=(scheduling_cycle, self._context(key)[1]))

    def queue_move(self, pod: Any, source: str, target: str, event: str) -> None:
        """The queue's ``on_move(pod, from, to, event)``; also accepts the factory's keywords."""
        if self.enabled:
            self._emit(Kind.QUEUE_MOVE, self._key(pod), self._shared(QueueMove, source, target, event),
                       loc=upstream.queue_location(source, target, event))

    on_move = queue_move

    def cache_event(self, event: Any) -> None:
        """A ``CacheEvent`` (append this method to ``cache.hooks``)."""
        if not self.enabled or event.kind in _SKIPPED_CACHE_EVENTS:
            return
        kind = Kind.EXPIRE if event.kind == "Expire" else Kind.CACHE_EVENT
        self._emit(kind, self._key(event.pod), CacheChange(event.kind, event.message), node=event.node_name,
                   loc=upstream.cache_location(event.kind))

    # -- core/generic_scheduler.py -------------------------------------------------------------------
    def filter_run(self, *, pod: Any, profile: str, plugins: tuple[str, ...], add_pod_plugins: tuple[str, ...],
                   run_all_filters: bool, nodes: tuple[str, ...], percentage: int, num_nodes_to_find: int,
                   start_index: int, visited: int, next_start_node_index: int, checks: Iterable[tuple[int, Any]],
                   error: str) -> None:
        """One findNodesThatPassFilters as a FILTER_RUN (see the generic scheduler's hook list)."""
        if not self.enabled:
            return
        key, ctx, phase = self._decision(pod, profile)
        intern = self._intern
        run = FilterRun(intern(tuple(plugins)), nodes, percentage, num_nodes_to_find, start_index, visited,
                        next_start_node_index, tuple((i, self._check(c)) for i, c in checks),
                        intern(tuple(add_pod_plugins)), run_all_filters, phase, error)
        self._emit(Kind.FILTER_RUN, key, run, ctx=ctx)

    def extender_filter(self, *, pod: Any, extender: str, nodes_in: Iterable[str],
                        nodes_out: Iterable[str] | None, failed: Mapping[str, str], error: str | None,
                        ignored: bool) -> None:
        if self.enabled:
            self._emit(Kind.EXTENDER_CALL, self._key(pod),
                       ExtenderCall("Filter", extender, tuple(nodes_in),
                                    None if nodes_out is None else tuple(nodes_out), _pairs(failed.items()),
                                    error=error, ignored=ignored))

    def extender_prioritize(self, *, pod: Any, extender: str, scores: Iterable[tuple[str, int]], weight: int,
                            error: str | None) -> None:
        if self.enabled:
            self._emit(Kind.EXTENDER_CALL, self._key(pod),
                       ExtenderCall("Prioritize", extender, scores=_pairs(scores), weight=weight, error=error,
                                    ignored=error is not None),
                       loc=(upstream.GENERIC_SCHEDULER_GO, "genericScheduler.prioritizeNodes"))

    def score_run(self, *, pod: Any, detail: Any, selected: str, profile: str = "") -> None:
        """One prioritizeNodes and its selectHost as a SCORE_RUN (``detail``: the framework's ScoreDetail)."""
        if not self.enabled:
            return
        key, ctx, phase = self._decision(pod, profile)
        constants = detail.constants
        raw = tuple(constants[p] if p in constants else pack(column) for p, column in enumerate(detail.raw))
        normalized = () if detail.normalized is None else tuple(  # a column NormalizeScore left as it was: raw's
            raw[p] if column == detail.raw[p] else pack(column) for p, column in enumerate(detail.normalized))
        failure = detail.score_failure
        normalize_failure = detail.normalize_failure
        run = ScoreRun(
            self._intern(tuple(detail.plugins)), self._intern(tuple(detail.weights)), self._node_list(detail.nodes),
            raw, normalized, tuple(detail.normalize_plugins),
            None if failure is None else ScoreFailure(failure[0], failure[1], failure[2], _code(failure[3]),
                                                      _reasons(failure[3])),
            None if normalize_failure is None else self._status(detail.plugins[detail.normalize_plugins[-1]],
                                                                normalize_failure),
            detail.error, _pairs(detail.extender_scores.items()),
            None if detail.plugins or detail.totals is None else pack(detail.totals), selected, phase)
        self._emit(Kind.SCORE_RUN, key, run, node=selected, ctx=ctx,
                   loc=(upstream.GENERIC_SCHEDULER_GO, "genericScheduler.prioritizeNodes"))

    def schedule_result(self, *, pod: Any, suggested_host: str, evaluated_nodes: int, feasible_nodes: int,
                        shortcut: bool) -> None:
        if self.enabled:
            self._emit(Kind.SCHEDULE_RESULT, self._key(pod),
                       self._shared(ScheduleResult, suggested_host, evaluated_nodes, feasible_nodes, shortcut), node=suggested_host)

    # -- core/preemption.py ----------------------------------------------------------------------------
    def preemption(self, *, pod: Any, profile: str, report: Any) -> None:
        """One Preempt as a PREEMPTION (``report``: the preemption's PreemptionReport)."""
        if not self.enabled:
            return
        key, ctx, phase = self._decision(pod, profile)
        run = Preemption(
            report.eligible, report.reason, _keys(report.terminating_pods),
            None if report.potential_nodes is None else tuple(report.potential_nodes),
            tuple(report.unresolvable_nodes), tuple(self._victims(v) for v in report.nodes),
            report.decision.criterion, report.decision.rounds, report.done, report.node, _keys(report.victims),
            _keys(report.nominated_pods_to_clear), report.error, *self._profile_filters(report), phase)
        self._emit(Kind.PREEMPTION, key, run, node=report.node, ctx=ctx)

    def _profile_filters(self, report: Any) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
        """(Filter plugins, AddPod/RemovePod plugins, runAllFilters) of the profile that preempted."""
        return (self._intern(tuple(report.filter_plugins)), self._intern(tuple(report.add_pod_plugins)),
                report.run_all_filters)

    def _victims(self, victims: Any) -> PreemptionNode:
        steps = tuple(self._check(step) if not isinstance(step, tuple) else (step[0], pod_key(step[1]) or "")
                      for step in victims.steps)
        failure = victims.extension_failure
        return PreemptionNode(victims.node, victims.fits, _keys(victims.victims), victims.num_pdb_violations,
                              _keys(victims.pdb_violating), steps,
                              None if failure is None else self._extension_failure(failure[0], failure[1], failure[2]))

    def preemption_extender(self, *, pod: Any, extender: str, nodes_in: Iterable[str],
                            nodes_out: Iterable[str] | None, error: str | None, ignored: bool) -> None:
        if self.enabled:
            self._emit(Kind.EXTENDER_CALL, self._key(pod),
                       ExtenderCall("ProcessPreemption", extender, tuple(nodes_in),
                                    None if nodes_out is None else tuple(nodes_out), error=error, ignored=ignored),
                       loc=(upstream.GENERIC_SCHEDULER_GO, "processPreemptionWithExtenders"))

    # -- events.py ---------------------------------------------------------------------------------------
    def event(self, *, obj: Any, type: str, reason: str, message: str, action: str = "", related: Any = None,
              component: str = "") -> None:
        if not self.enabled:
            return
        obj_kind = getattr(obj.__class__, "KIND", "")
        intern = self._intern  # the stored Event (API_EVENT) that follows shares these strings
        self._emit(Kind.EVENT, self._key(obj) if obj_kind == "Pod" else None,
                   EventData(type, reason, intern(message), intern(object_ref(obj)), component, action,
                             object_ref(related)),
                   node=obj.metadata.name if obj_kind == "Node" else None, loc=upstream.event_location(reason))

    def _api_event(self, watch_event: Any) -> None:
        if watch_event.type == "DELETED":
            return
        ev = watch_event.obj
        ref = ev.involved_object
        name = f"{ref.namespace}/{ref.name}" if ref.namespace else ref.name
        self._emit(Kind.API_EVENT, name if ref.kind == "Pod" else None,
                   EventData(ev.type, ev.reason, self._intern(ev.message), self._intern(f"{ref.kind} {name}"),
                             ev.source.component, ev.action, "", ev.count, ev.first_timestamp, ev.last_timestamp),
                   node=ref.name if ref.kind == "Node" else None)

    # -- informers -----------------------------------------------------------------------------------------
    def informer_delivery(self, kind: str, event_type: str, obj: Any, old: Any = None) -> None:
        """The informer factory's ``on_deliver(kind, event_type, obj, old)`` (see ``attach_informers``)."""
        if not self.enabled:
            return
        meta = obj.metadata
        if kind == "Pod":
            key, node = self._key(obj), obj.spec.node_name
        else:
            key, node = None, (meta.name if kind == "Node" else None)
        self._emit(Kind.INFORMER_EVENT, key, self._shared(InformerEvent, event_type, kind, meta.namespace, meta.name),
                   node=node)

    # -- startup and leader election --------------------------------------------------------------------------
    def startup_step(self, *, step: str, message: str = "",
                     details: Iterable[tuple[str, Any]] | Mapping[str, Any] = (), file: str = "",
                     func: str = "") -> None:
        if not self.enabled:
            return
        items = details.items() if isinstance(details, Mapping) else details
        default = upstream.KIND_LOCATION[Kind.STARTUP_STEP]
        self._emit(Kind.STARTUP_STEP, None, StartupStep(step, message, tuple((str(k), str(v)) for k, v in items)),
                   loc=(file or default[0], func or default[1]))

    def time_step(self, time: float) -> None:
        """A TIME record at ``time``: a time-only step (``Tick``), outside any cycle."""
        if self.enabled:
            self._emit(Kind.TIME, None, ctx=_NO_CTX, time=float(time))

    def leader_election(self, *, identity: str, transition: str, holder: str = "", lock: str = "",
                        message: str = "") -> None:
        if self.enabled:
            self._emit(Kind.LEADER_ELECTION, None, LeaderElection(identity, transition, holder, lock, message))
