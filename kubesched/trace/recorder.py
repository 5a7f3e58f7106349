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
  ``cache_event`` (append it to ``cache.hooks``), ``plugin_calls`` (a framework's ``observer``),
  ``extension_point_start``/``extension_point_end`` (a framework's ``point_observer``; the
  generic scheduler's for Filter).
- core/generic_scheduler.py: ``feasible_nodes_to_find``, ``nominated_pods_pass``,
  ``filter_walk_done``, ``extender_filter``, ``extender_prioritize``, ``node_scores``,
  ``select_host``, ``schedule_result``; core/preemption.py: ``preemption_eligibility``,
  ``preemption_candidates``, ``preemption_victims``, ``preemption_extender``,
  ``preemption_pick``, ``preemption_result``.
- events.py: ``event`` (each ``Recorder.Eventf``).
- startup and leader election (defined here for cmd/app and client/leaderelection):
  ``startup_step(step, message="", details=(), file="", func="")`` and
  ``leader_election(identity, transition, holder="", lock="", message="")``.
- ``attach_informers(factory)`` adds an ``on_deliver`` hook to the informer factory: each
  delivery is recorded in delivery order, before any handler runs, so its record precedes
  its effects; ``attach_apiserver(api)`` watches stored Events (counts as ``kubectl
  describe`` shows); ``attach_scheduler(sched)`` is kept for callers and does nothing (the
  framework now hands each Score call over with its weight).

Context: a record's ``cycle``/``profile`` are those of its pod's scheduling cycle, from
``pod_popped`` until ``cycle_end`` (or, for a pod handed to the binding cycle, until
``binding_cycle_end``); records about other objects during a scheduling cycle take that
cycle; otherwise None. Plugin calls carry the scheduler phase they ran in (Schedule,
Preempt, Reserve …).

Extension points are PHASE_START/PHASE_END records too (PreFilter, Filter, PreScore and
Score nest inside the scheduler's Schedule phase); where the scheduler already reports a
phase of the same name around the runner (Reserve, Permit, PreBind, Bind, PostBind,
Unreserve) that one record pair stands for both.

Plugin calls arrive in the framework's batches (``plugin_calls.py``) and become records
only when first read: Filter one node at a time (one pod's nodes are gathered into one run
of records), Score once the framework has normalized and weighted them, in call order and
each with raw, normalized and weighted score and weight, then the NormalizeScore calls;
``node_scores`` then adds a SCORE_SUMMARY with the whole table.

Cache ``Assume``/``Forget`` events are not recorded twice: the scheduler's ``assume`` and
``forget`` hooks give ASSUME/FORGET; the cache's ``Expire`` gives EXPIRE.

Tracing off: ``TraceRecorder(enabled=False)`` records nothing; pass ``recorder.observer``
(None when off) to the engine so it skips its hook work altogether.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kubesched.scheduler.framework.v1alpha1.plugin_calls import FilterCalls
from kubesched.trace import upstream
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    CycleInfo,
    EventData,
    ExtenderCall,
    FeasibleNodes,
    FilterWalk,
    InformerEvent,
    Kind,
    LeaderElection,
    LogLine,
    NominatedPass,
    Outcome,
    Payload,
    PermitWait,
    Phase,
    PluginCall,
    PreemptionCandidates,
    PreemptionEligibility,
    PreemptionPick,
    PreemptionResult,
    PreemptionVictims,
    QueueMove,
    Record,
    ScheduleResult,
    SchedulingFailure,
    ScoreRow,
    ScoreSummary,
    SelectHost,
    StartupStep,
    Trace,
    Victim,
)

__all__ = ["TraceRecorder", "object_ref", "pod_key"]

_SCORE = "Score"
_NORMALIZE = "ScoreExtensionNormalize"
_SKIPPED_CACHE_EVENTS = frozenset({"Assume", "Forget"})
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


def _status_code(status: Any) -> str:
    return "Success" if status is None else str(status.code)


def _status_reasons(status: Any) -> tuple[str, ...]:
    return () if status is None else tuple(status.reasons)


def _pairs(items: Iterable[tuple[Any, Any]]) -> tuple[tuple[Any, Any], ...]:
    return tuple((a, b) for a, b in items)


_plugin_location = functools.lru_cache(maxsize=None)(upstream.plugin_location)


def _build_plugin_calls(head: tuple, calls: Iterable[Any], start: int) -> list[Record]:
    """The PLUGIN_CALL records of a framework batch (``TraceRecorder.plugin_calls``), from seq ``start``."""
    time, cycle, key, profile, phase = head
    out = []
    for seq, call in enumerate(calls, start):
        point, status = call.extension_point, call.status
        code, reasons = _status_code(status), _status_reasons(status)
        if point == _SCORE:
            data = PluginCall(_SCORE, phase, code, reasons, call.score, call.normalized_score, call.weight,
                              call.weighted_score)
        elif point == _NORMALIZE:
            data = PluginCall(_NORMALIZE, phase, code, reasons, weight=call.weight, scores=_pairs(call.scores))
        else:
            data = PluginCall(point, phase, code, reasons, timeout=call.timeout)
        file, func = _plugin_location(call.plugin, point)
        out.append(Record(seq, time, Kind.PLUGIN_CALL, cycle, key, profile, call.node or None, call.plugin, file,
                          func, data))
    return out


def _build_filter_calls(head: tuple, first: FilterCalls, entries: list[Any], start: int) -> list[Record]:
    """The PLUGIN_CALL records of one pod's consecutive per-node Filter batches.

    An entry is a batch, or the name of a node where every plugin of ``first`` passed.
    """
    batches = (FilterCalls(first.pod, first.profile, entry, first.plugins, {}, len(first.plugins))
               if type(entry) is str
               else entry for entry in entries)
    return _build_plugin_calls(head, itertools.chain.from_iterable(batches), start)


def _build_score_summary(envelope: tuple, batches: list[Any], extender_scores: tuple, scores: tuple,
                         start: int) -> list[Record]:
    """The SCORE_SUMMARY record: one row per Score call heard for the pod, then the totals."""
    rows = tuple(ScoreRow(c.node, c.plugin, c.score, c.normalized_score, c.weight, c.weighted_score)
                 for batch in batches for c in batch if c.extension_point == _SCORE)
    return [Record(start, *envelope, ScoreSummary(rows, extender_scores, scores))]


class TraceRecorder:
    """Collects records into a ``Trace``; every public hook is a no-op when disabled."""

    def __init__(self, *, clock: Any = None, enabled: bool = True) -> None:
        self.enabled = enabled
        self.clock = clock
        self._trace = Trace()
        self._ctx: dict[str, tuple[int, str | None]] = {}
        self._active: _Ctx = _NO_CTX
        self._phase: dict[str, str] = {}
        self._score_batches: tuple[str | None, list[Any]] = (None, [])  # batches that may hold Score calls
        self._last_pod: tuple[Any, str | None] = (None, None)
        self._filters: list[Any] = []  # Filter batches gathered for one run of records (see plugin_calls)
        self._filters_pod: Any = None
        self._filters_head: tuple = ()

    # -- wiring ------------------------------------------------------------------------------
    @property
    def observer(self) -> TraceRecorder | None:
        """The object to hand to the engine: self, or None when tracing is off."""
        return self if self.enabled else None

    @property
    def trace(self) -> Trace:
        self._flush_filters()
        return self._trace

    def flush(self) -> None:
        """Append what is held back (gathered Filter batches); reading ``trace`` does it too."""
        self._flush_filters()

    def bind_clock(self, clock: Any) -> None:
        self.clock = clock

    def attach_scheduler(self, sched: Any) -> None:
        """Nothing left to read: Score calls carry their weights (kept for callers)."""

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
        return float(self.clock.now()) if self.clock is not None else 0.0

    def _context(self, key: str | None) -> _Ctx:
        if key is not None:
            ctx = self._ctx.get(key)
            if ctx is not None:
                return ctx
        return self._active

    def _envelope(self, kind: Kind, pod: str | None, node: str | None, plugin: str | None,
                  loc: tuple[str, str] | None, ctx: _Ctx | None, time: float | None) -> tuple:
        """A record's fields after ``seq`` and before ``data``."""
        cycle, profile = ctx if ctx is not None else self._context(pod)
        file, func = loc if loc is not None else upstream.KIND_LOCATION[kind]
        return (self._now() if time is None else time, kind, cycle, pod, profile, node or None, plugin, file, func)

    def _emit(self, kind: Kind, pod: str | None, data: Payload = None, *, node: str | None = None,
              plugin: str | None = None, loc: tuple[str, str] | None = None,
              ctx: _Ctx | None = None, time: float | None = None) -> None:
        self._flush_filters()
        self._trace.append(Record(len(self._trace), *self._envelope(kind, pod, node, plugin, loc, ctx, time), data))

    # -- framework -------------------------------------------------------------------------------
    def plugin_calls(self, calls: Any) -> None:
        """A framework batch of plugin calls (``Framework(observer=recorder.plugin_calls)``).

        The records are appended unbuilt (``Trace._append_pending``): a batch is read-only,
        so building its records when one is first read gives the same records. Consecutive
        per-node Filter batches of one pod are gathered into one run of records, appended
        before anything else is (``_flush_filters``), so the order stays the call order.
        """
        if not self.enabled:
            return
        filters = self._filters
        if filters and type(calls) is FilterCalls and calls.pod is self._filters_pod:
            filters.append(calls)
            return
        self._flush_filters()
        pod = calls.pod
        last_pod, key = self._last_pod
        if pod is not last_pod or pod is None:
            key = pod_key(pod)
            self._last_pod = (pod, key)
        if key is not None:
            phase = self._phase.get(key, "")
            ctx = self._ctx.get(key) or self._active
        else:
            phase, ctx = "", self._active
        cycle, profile = ctx
        head = (self._now(), cycle, key, profile or calls.profile or None, phase)
        if type(calls) is FilterCalls:
            self._filters, self._filters_pod, self._filters_head = [calls], pod, head
            return
        self._keep_score_batch(key, calls)
        if len(calls):
            self._trace._append_pending(len(calls), functools.partial(_build_plugin_calls, head, calls), cycle)

    def _flush_filters(self) -> None:
        """Append the gathered Filter batches as one run of records (nothing to do if none).

        A node where every plugin passed is kept as its name alone (most nodes): the run
        holds few objects for the garbage collector to walk, whatever the cluster's size.
        """
        filters = self._filters
        if not filters:
            return
        self._filters = []
        first = filters[0]
        plugins, width = first.plugins, len(first.plugins)
        entries: list[Any] = []
        count = 0
        for calls in filters:
            if calls.count == width and not calls.failures and calls.plugins is plugins:
                entries.append(calls.node)
            else:
                entries.append(calls)
            count += calls.count
        if count:
            head = self._filters_head
            self._trace._append_pending(count, functools.partial(_build_filter_calls, head, first, entries), head[1])

    def _keep_score_batch(self, key: str | None, calls: Any) -> None:
        batches_key, batches = self._score_batches
        if batches_key != key:
            batches = []
            self._score_batches = (key, batches)
        batches.append(calls)

    def extension_point_start(self, *, extension_point: str, pod: Any, profile: str, node: str = "") -> None:
        """A runner starts (framework ``point_observer``; the generic scheduler's Filter walk)."""
        if not self.enabled:
            return
        key = pod_key(pod)
        if not self._same_as_scheduler_phase(key, extension_point):
            self._emit(Kind.PHASE_START, key, Phase(extension_point), node=node,
                       loc=upstream.phase_location(extension_point))

    def extension_point_end(self, *, extension_point: str, pod: Any, profile: str, node: str = "",
                            code: str = "Success", message: str = "") -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        if not self._same_as_scheduler_phase(key, extension_point):
            self._emit(Kind.PHASE_END, key, Phase(extension_point, code, message), node=node,
                       loc=upstream.phase_location(extension_point))

    def _same_as_scheduler_phase(self, key: str | None, extension_point: str) -> bool:
        return key is not None and self._phase.get(key) == extension_point

    # -- scheduler.py ------------------------------------------------------------------------------
    def pod_popped(self, *, pod: Any, scheduling_cycle: int, attempts: int) -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        self._active = (scheduling_cycle, pod.spec.scheduler_name)
        if key is not None:
            self._ctx[key] = self._active
        self._emit(Kind.POD_POPPED, key, CycleInfo(attempts=attempts))

    def cycle_start(self, *, pod: Any, profile: str, scheduling_cycle: int) -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        self._active = (scheduling_cycle, profile)
        if key is not None:
            self._ctx[key] = self._active
        self._emit(Kind.CYCLE_START, key, CycleInfo())

    def cycle_end(self, *, pod: Any, profile: str, scheduling_cycle: int, result: str, node: str,
                  message: str) -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        self._emit(Kind.CYCLE_END, key, CycleInfo(result=result, message=message), node=node,
                   ctx=(scheduling_cycle, profile))
        self._active = _NO_CTX
        if result != "assumed" and key is not None:
            self._ctx.pop(key, None)
            self._phase.pop(key, None)

    def phase_start(self, *, phase: str, pod: Any, node: str) -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        if key is not None:
            self._phase[key] = phase
        self._emit(Kind.PHASE_START, key, Phase(phase), node=node, loc=upstream.phase_location(phase))

    def phase_end(self, *, phase: str, pod: Any, node: str, code: str, message: str) -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        self._emit(Kind.PHASE_END, key, Phase(phase, code, message), node=node, loc=upstream.phase_location(phase))
        if key is not None and self._phase.get(key) == phase:
            del self._phase[key]

    def assume(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.ASSUME, pod_key(pod), node=node)

    def forget(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.FORGET, pod_key(pod), node=node)

    def permit_wait(self, *, pod: Any, node: str, pending_plugins: Iterable[str]) -> None:
        if self.enabled:
            self._emit(Kind.PERMIT_WAIT, pod_key(pod), PermitWait(tuple(pending_plugins)), node=node)

    def binding_cycle_start(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.BINDING_CYCLE_START, pod_key(pod), node=node)

    def binding_cycle_end(self, *, pod: Any, node: str, result: str, message: str) -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        self._emit(Kind.BINDING_CYCLE_END, key, Outcome(result, message), node=node)
        if key is not None:
            self._ctx.pop(key, None)
            self._phase.pop(key, None)

    def bind(self, *, pod: Any, node: str, binder: str, error: BaseException | None) -> None:
        if self.enabled:
            self._emit(Kind.BIND, pod_key(pod), BindResult(binder, None if error is None else str(error)), node=node)

    def scheduling_failure(self, *, pod: Any, reason: str, message: str, error: BaseException | None) -> None:
        if self.enabled:
            self._emit(Kind.SCHEDULING_FAILURE, pod_key(pod),
                       SchedulingFailure(reason, message, "" if error is None else str(error)))

    def nominate(self, *, pod: Any, node: str) -> None:
        if self.enabled:
            self._emit(Kind.NOMINATE, pod_key(pod), node=node)

    def victim(self, *, pod: Any, preemptor: Any, node: str) -> None:
        if not self.enabled:
            return
        preemptor_key = pod_key(preemptor)
        self._emit(Kind.VICTIM, pod_key(pod), Victim(preemptor_key or ""), node=node,
                   ctx=self._context(preemptor_key))

    def clear_nomination(self, *, pod: Any) -> None:
        if self.enabled:
            self._emit(Kind.CLEAR_NOMINATION, pod_key(pod))

    def log(self, verbosity: int, message: str, *, severity: str = "I", site: tuple[str, str] | None = None) -> None:
        """The engine's ``log`` callable: klog verbosity, message, severity (I/W/E), (file, func)."""
        if self.enabled:
            self._emit(Kind.LOG, None, LogLine(verbosity, severity, message), loc=site)

    # -- factory.py --------------------------------------------------------------------------------
    def requeue(self, *, pod: Any, scheduling_cycle: int) -> None:
        if not self.enabled:
            return
        key = pod_key(pod)
        self._emit(Kind.REQUEUE, key, ctx=(scheduling_cycle, self._context(key)[1]))

    def queue_move(self, pod: Any, source: str, target: str, event: str) -> None:
        """The queue's ``on_move(pod, from, to, event)``; also accepts the factory's keywords."""
        if self.enabled:
            self._emit(Kind.QUEUE_MOVE, pod_key(pod), QueueMove(source, target, event),
                       loc=upstream.queue_location(source, target, event))

    on_move = queue_move

    def cache_event(self, event: Any) -> None:
        """A ``CacheEvent`` (append this method to ``cache.hooks``)."""
        if not self.enabled or event.kind in _SKIPPED_CACHE_EVENTS:
            return
        kind = Kind.EXPIRE if event.kind == "Expire" else Kind.CACHE_EVENT
        self._emit(kind, pod_key(event.pod), CacheChange(event.kind, event.message), node=event.node_name,
                   loc=upstream.cache_location(event.kind))

    # -- core/generic_scheduler.py -------------------------------------------------------------------
    def feasible_nodes_to_find(self, *, pod: Any, num_all_nodes: int, percentage: int, num_nodes_to_find: int,
                               start_index: int) -> None:
        if self.enabled:
            self._emit(Kind.FEASIBLE_NODES, pod_key(pod),
                       FeasibleNodes(num_all_nodes, percentage, num_nodes_to_find, start_index))

    def nominated_pods_pass(self, *, pod: Any, node: str, pass_index: int, nominated_pods_added: Iterable[Any],
                            status: Any) -> None:
        if self.enabled:
            self._emit(Kind.NOMINATED_PASS, pod_key(pod),
                       NominatedPass(pass_index, _keys(nominated_pods_added), _status_code(status),
                                     _status_reasons(status)), node=node)

    def filter_walk_done(self, *, pod: Any, start_index: int, processed: int, feasible: Iterable[str],
                         failed: Iterable[str], not_visited: Iterable[str], next_start_node_index: int,
                         has_filter_plugins: bool) -> None:
        if self.enabled:
            self._emit(Kind.FILTER_WALK, pod_key(pod),
                       FilterWalk(start_index, processed, tuple(feasible), tuple(failed), tuple(not_visited),
                                  next_start_node_index, has_filter_plugins))

    def extender_filter(self, *, pod: Any, extender: str, nodes_in: Iterable[str],
                        nodes_out: Iterable[str] | None, failed: Mapping[str, str], error: str | None,
                        ignored: bool) -> None:
        if self.enabled:
            self._emit(Kind.EXTENDER_CALL, pod_key(pod),
                       ExtenderCall("Filter", extender, tuple(nodes_in),
                                    None if nodes_out is None else tuple(nodes_out), _pairs(failed.items()),
                                    error=error, ignored=ignored))

    def extender_prioritize(self, *, pod: Any, extender: str, scores: Iterable[tuple[str, int]], weight: int,
                            error: str | None) -> None:
        if self.enabled:
            self._emit(Kind.EXTENDER_CALL, pod_key(pod),
                       ExtenderCall("Prioritize", extender, scores=_pairs(scores), weight=weight, error=error,
                                    ignored=error is not None),
                       loc=(upstream.GENERIC_SCHEDULER_GO, "genericScheduler.prioritizeNodes"))

    def node_scores(self, *, pod: Any, scores: Iterable[tuple[str, int]], extender_scores: Mapping[str, int]) -> None:
        """SCORE_SUMMARY, unbuilt: its rows come from the Score calls heard for the pod."""
        if not self.enabled:
            return
        self._flush_filters()
        key = pod_key(pod)
        batches_key, batches = self._score_batches
        self._score_batches = (None, [])
        envelope = self._envelope(Kind.SCORE_SUMMARY, key, None, None, None, None, None)
        build = functools.partial(_build_score_summary, envelope, batches if batches_key == key else [],
                                  _pairs(extender_scores.items()), _pairs(scores))
        self._trace._append_pending(1, build, envelope[2])

    def select_host(self, *, pod: Any, max_score: int, ties: Iterable[str], selected: str) -> None:
        if self.enabled:
            self._emit(Kind.SELECT_HOST, pod_key(pod), SelectHost(max_score, tuple(ties), selected), node=selected)

    def schedule_result(self, *, pod: Any, suggested_host: str, evaluated_nodes: int, feasible_nodes: int,
                        shortcut: bool) -> None:
        if self.enabled:
            self._emit(Kind.SCHEDULE_RESULT, pod_key(pod),
                       ScheduleResult(suggested_host, evaluated_nodes, feasible_nodes, shortcut), node=suggested_host)

    # -- core/preemption.py ----------------------------------------------------------------------------
    def preemption_eligibility(self, *, pod: Any, eligible: bool, reason: str, terminating_pods: Iterable[Any]) -> None:
        if self.enabled:
            self._emit(Kind.PREEMPTION_ELIGIBILITY, pod_key(pod),
                       PreemptionEligibility(eligible, reason, _keys(terminating_pods)))

    def preemption_candidates(self, *, pod: Any, potential_nodes: Iterable[str],
                              unresolvable_nodes: Iterable[str]) -> None:
        if self.enabled:
            self._emit(Kind.PREEMPTION_CANDIDATES, pod_key(pod),
                       PreemptionCandidates(tuple(potential_nodes), tuple(unresolvable_nodes)))

    def preemption_victims(self, *, pod: Any, node: str, fits: bool, victims: Iterable[Any], num_pdb_violations: int,
                           pdb_violating: Iterable[Any]) -> None:
        if self.enabled:
            self._emit(Kind.PREEMPTION_VICTIMS, pod_key(pod),
                       PreemptionVictims(fits, _keys(victims), num_pdb_violations, _keys(pdb_violating)), node=node)

    def preemption_extender(self, *, pod: Any, extender: str, nodes_in: Iterable[str],
                            nodes_out: Iterable[str] | None, error: str | None, ignored: bool) -> None:
        if self.enabled:
            self._emit(Kind.EXTENDER_CALL, pod_key(pod),
                       ExtenderCall("ProcessPreemption", extender, tuple(nodes_in),
                                    None if nodes_out is None else tuple(nodes_out), error=error, ignored=ignored),
                       loc=(upstream.GENERIC_SCHEDULER_GO, "processPreemptionWithExtenders"))

    def preemption_pick(self, *, pod: Any, node: str | None, criterion: str,
                        rounds: Iterable[tuple[str, Iterable[str]]]) -> None:
        if self.enabled:
            self._emit(Kind.PREEMPTION_PICK, pod_key(pod),
                       PreemptionPick(criterion, tuple((rule, tuple(nodes)) for rule, nodes in rounds)), node=node)

    def preemption_result(self, *, pod: Any, node: str | None, victims: Iterable[Any],
                          nominated_pods_to_clear: Iterable[Any]) -> None:
        if self.enabled:
            self._emit(Kind.PREEMPTION_RESULT, pod_key(pod),
                       PreemptionResult(_keys(victims), _keys(nominated_pods_to_clear)), node=node)

    # -- events.py ---------------------------------------------------------------------------------------
    def event(self, *, obj: Any, type: str, reason: str, message: str, action: str = "", related: Any = None,
              component: str = "") -> None:
        if not self.enabled:
            return
        obj_kind = getattr(obj.__class__, "KIND", "")
        self._emit(Kind.EVENT, pod_key(obj) if obj_kind == "Pod" else None,
                   EventData(type, reason, message, object_ref(obj), component, action, object_ref(related)),
                   node=obj.metadata.name if obj_kind == "Node" else None, loc=upstream.event_location(reason))

    def _api_event(self, watch_event: Any) -> None:
        if watch_event.type == "DELETED":
            return
        ev = watch_event.obj
        ref = ev.involved_object
        name = f"{ref.namespace}/{ref.name}" if ref.namespace else ref.name
        self._emit(Kind.API_EVENT, name if ref.kind == "Pod" else None,
                   EventData(ev.type, ev.reason, ev.message, f"{ref.kind} {name}", ev.source.component, ev.action,
                             "", ev.count, ev.first_timestamp, ev.last_timestamp),
                   node=ref.name if ref.kind == "Node" else None)

    # -- informers -----------------------------------------------------------------------------------------
    def informer_delivery(self, kind: str, event_type: str, obj: Any, old: Any = None) -> None:
        """The informer factory's ``on_deliver(kind, event_type, obj, old)`` (see ``attach_informers``)."""
        if not self.enabled:
            return
        meta = obj.metadata
        if kind == "Pod":
            key, node = pod_key(obj), obj.spec.node_name
        else:
            key, node = None, (meta.name if kind == "Node" else None)
        self._emit(Kind.INFORMER_EVENT, key, InformerEvent(event_type, kind, meta.namespace, meta.name), node=node)

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

    def leader_election(self, *, identity: str, transition: str, holder: str = "", lock: str = "",
                        message: str = "") -> None:
        if self.enabled:
            self._emit(Kind.LEADER_ELECTION, None, LeaderElection(identity, transition, holder, lock, message))
