"""``explain_pod``: why a pod is on its node, or why it is pending, from the trace alone.

Upstream: no counterpart; it reads what v1.18.5 decided in the pod's last scheduling cycle —
pkg/scheduler/core/generic_scheduler.go (findNodesThatFitPod, podPassesFiltersOnNode,
prioritizeNodes, selectHost, FitError, Preempt), framework/v1alpha1/framework.go
(RunFilterPlugins stops at a node's first failing Filter plugin), scheduler.go (bind).

The last cycle that reached ``CYCLE_START`` for the pod is explained: each node's Filter
verdict (the plugin and reasons that stopped it, "passed", or not visited because
numFeasibleNodesToFind was reached), the scores of the feasible nodes (raw, normalized,
× weight), selectHost's ties and pick, the bind; and what preemption did in the pod's latest
cycle that ran it (usually an earlier failed cycle, for a pod bound after preempting). ``state`` (a
``SimState``) supplies the pod's phase, node, nominated node and attempts; without it they are
derived from the trace. Filter calls made while preemption simulates victims' removal
(phase ``Preempt``) are not Filter verdicts of the cycle and are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kubesched.explain.cycles import classify, cycle_records, first_of
from kubesched.explain.model import (
    NOT_VISITED,
    PASSED,
    REJECTED,
    BindInfo,
    Explanation,
    NodeScores,
    NodeVerdict,
    PickInfo,
    PluginScore,
    PodStatus,
    PreemptionInfo,
    VictimsOnNode,
)
from kubesched.trace.calls import calls_of
from kubesched.trace.records import (
    BindResult,
    CycleInfo,
    EventData,
    ExtenderCall,
    FilterRun,
    InformerEvent,
    Kind,
    Outcome,
    Phase,
    PluginCall,
    Preemption,
    Record,
    ScheduleResult,
    SchedulingFailure,
    ScoreRun,
    Victim,
)

__all__ = ["explain_pod", "last_cycle", "pod_cycles", "pod_status"]


# -- the pod's status ------------------------------------------------------------------------------
def _state_pod(state: Any, namespace: str, name: str) -> Any:
    pods = getattr(state, "pods", None) or ()
    if isinstance(pods, dict):
        pods = pods.values()
    return next((p for p in pods if getattr(p, "namespace", None) == namespace
                 and getattr(p, "name", None) == name), None)


def _from_state(view: Any, namespace: str, name: str) -> PodStatus:
    return PodStatus(namespace, name, str(getattr(view, "phase", "Pending")), getattr(view, "node", "") or "",
                     getattr(view, "nominated_node", "") or "", int(getattr(view, "attempts", 0) or 0),
                     getattr(view, "bound_at", None))


def _from_trace(records: Sequence[Record], namespace: str, name: str) -> PodStatus | None:
    key = f"{namespace}/{name}"
    seen = False
    phase, node, nominated, attempts, bound_at = "Pending", "", "", 0, None
    for r in records:
        if r.pod != key:
            continue
        data = r.data
        if r.kind is Kind.INFORMER_EVENT and isinstance(data, InformerEvent) and data.object_kind == "Pod":
            seen = True
            if data.event_type == "DELETED":
                phase = "Deleted"
            elif r.node and phase == "Pending":
                phase, node = "Bound", r.node
        elif r.kind is Kind.POD_POPPED and isinstance(data, CycleInfo):
            seen, attempts = True, data.attempts or attempts
        elif r.kind is Kind.BIND and isinstance(data, BindResult) and data.error is None:
            phase, node, bound_at = "Bound", r.node or "", r.time
        elif r.kind is Kind.NOMINATE:
            nominated = r.node or ""
        elif r.kind is Kind.CLEAR_NOMINATION:
            nominated = ""
    return PodStatus(namespace, name, phase, node, nominated, attempts, bound_at) if seen else None


def pod_status(trace: Sequence[Record], state: Any, pod_key: str) -> PodStatus | None:
    """The pod's phase/node/nominated node/attempts: from ``state`` if given, else from the trace."""
    namespace, _, name = pod_key.partition("/")
    if state is not None:
        view = _state_pod(state, namespace, name)
        return None if view is None else _from_state(view, namespace, name)
    return _from_trace(trace, namespace, name)


# -- the cycle -------------------------------------------------------------------------------------
def pod_cycles(trace: Sequence[Record], pod_key: str) -> list[int]:
    """The pod's scheduling cycles that reached ``CYCLE_START``, in order."""
    return [r.cycle for r in trace if r.kind is Kind.CYCLE_START and r.pod == pod_key and r.cycle is not None]


def last_cycle(trace: Sequence[Record], pod_key: str) -> int | None:
    """The pod's last scheduling cycle that reached ``CYCLE_START`` (None if it never did)."""
    cycles = pod_cycles(trace, pod_key)
    return cycles[-1] if cycles else None


def _cycle_records(trace: Sequence[Record], cycle: int, pod_key: str) -> list[Record]:
    return [r for r in cycle_records(trace, cycle) if r.pod == pod_key]


def _of(records: Iterable[Record], kind: Kind) -> list[Record]:
    return [r for r in records if r.kind is kind]


def _last(records: Sequence[Record], kind: Kind) -> Record | None:
    return next((r for r in reversed(records) if r.kind is kind), None)


# -- Filter verdicts ---------------------------------------------------------------------------------
def _schedule_filter_calls(walk: Record | None) -> dict[str, list[tuple[str, PluginCall]]]:
    calls: dict[str, list[tuple[str, PluginCall]]] = {}
    for r in calls_of(walk) if walk is not None else ():
        if r.data.extension_point == "Filter" and r.node:
            calls.setdefault(r.node, []).append((r.plugin or "", r.data))
    return calls


def _dedupe(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def _failed_pass_pods(run: FilterRun | None, node: str) -> tuple[str, ...]:
    """The nominated pods added for the node's first failing filter pass (none for pass 1)."""
    check = run.check_of(node) if run is not None else None
    if check is None or check.nominated_pods is None:
        return ()
    index = next((i for i, p in enumerate(check.passes) if not p.passed), None)
    return check.nominated_pods if index == 0 else ()


def _node_verdict(node: str, calls: Sequence[tuple[str, PluginCall]], run: FilterRun | None) -> NodeVerdict:
    for index, (plugin, call) in enumerate(calls):
        if call.code != "Success":
            return NodeVerdict(node, REJECTED, plugin, call.code, call.reasons,
                               _dedupe(p for p, _ in calls[:index]), nominated_pods=_failed_pass_pods(run, node))
    return NodeVerdict(node, PASSED, passed=_dedupe(p for p, _ in calls))


def _verdicts(records: Sequence[Record]) -> tuple[NodeVerdict, ...]:
    walk = _last(records, Kind.FILTER_RUN)
    run = walk.data if walk is not None and isinstance(walk.data, FilterRun) else None
    calls = _schedule_filter_calls(walk)
    names: list[str] = list(calls)
    if run is not None:
        names += [*run.failed(), *run.feasible()]
    verdicts = {n: _node_verdict(n, calls.get(n, ()), run) for n in names}
    for r in _of(records, Kind.EXTENDER_CALL):
        data = r.data
        if isinstance(data, ExtenderCall) and data.verb == "Filter":
            for node, message in data.failed:
                passed = verdicts[node].passed if node in verdicts else ()
                verdicts[node] = NodeVerdict(node, REJECTED, data.extender, "Unschedulable", (message,), passed,
                                             extender=True)
    if run is not None:
        for n in run.not_visited():
            verdicts.setdefault(n, NodeVerdict(n, NOT_VISITED))
    return tuple(verdicts[n] for n in sorted(verdicts))


# -- scores, pick, bind, preemption ---------------------------------------------------------------------
def _score_run(records: Sequence[Record]) -> ScoreRun | None:
    """The cycle's prioritizeNodes, if it succeeded."""
    rec = _last(records, Kind.SCORE_RUN)
    run = rec.data if rec is not None else None
    return run if isinstance(run, ScoreRun) and not run.error else None


def _scores(records: Sequence[Record]) -> tuple[NodeScores, ...]:
    run = _score_run(records)
    if run is None:
        return ()
    rows: dict[str, list[PluginScore]] = {}
    for i, node in enumerate(run.nodes):
        rows.setdefault(node, []).extend(PluginScore(plugin, *run.cell(i, p)) for p, plugin in enumerate(run.plugins))
    totals = dict(zip(run.nodes, run.totals))
    extender = dict(run.extender_scores)
    nodes = list(dict.fromkeys([*totals, *rows]))
    out = [NodeScores(n, tuple(rows.get(n, ())), extender.get(n), totals.get(n)) for n in nodes]
    return tuple(sorted(out, key=lambda s: (-(s.total if s.total is not None else -1), s.node)))


def _pick(records: Sequence[Record]) -> PickInfo | None:
    run = _score_run(records)
    if run is not None:
        return PickInfo(run.max_score, run.ties(), run.selected)
    result = _last(records, Kind.SCHEDULE_RESULT)
    if result is not None and isinstance(result.data, ScheduleResult) and result.data.shortcut:
        return PickInfo(None, (result.data.suggested_host,), result.data.suggested_host, shortcut=True)
    return None


def _bind(records: Sequence[Record]) -> BindInfo | None:
    bind = _last(records, Kind.BIND)
    if bind is None or not isinstance(bind.data, BindResult):
        return None
    return BindInfo(bind.node or "", bind.time, bind.data.binder, bind.data.error)


def _preemption(records: Sequence[Record]) -> PreemptionInfo | None:
    started = any(r.kind is Kind.PHASE_START and isinstance(r.data, Phase) and r.data.phase == "Preempt"
                  for r in records)
    if not started:
        return None
    info: dict[str, Any] = {"attempted": True}
    rec = _last(records, Kind.PREEMPTION)
    run = rec.data if rec is not None and isinstance(rec.data, Preemption) else None
    if run is not None:
        info.update(eligible=run.eligible, ineligible_reason=run.reason, unresolvable_nodes=run.unresolvable_nodes,
                    potential_nodes=run.potential_nodes or (), criterion=run.criterion,
                    candidates=tuple(VictimsOnNode(v.node, v.fits, v.victims, v.num_pdb_violations) for v in run.nodes))
        if run.done:
            info.update(nominated_node=run.node, victims=run.victims)
    nominate = _last(records, Kind.NOMINATE)
    if nominate is not None and nominate.node:
        info["nominated_node"] = nominate.node
    return PreemptionInfo(**info)


def _events(trace: Sequence[Record], pod_key: str) -> tuple[tuple[float, str, str, str], ...]:
    return tuple((r.time, r.data.type, r.data.reason, r.data.message) for r in trace
                 if r.kind is Kind.EVENT and r.pod == pod_key and isinstance(r.data, EventData))


def _preempted_by(trace: Sequence[Record], pod_key: str) -> tuple[tuple[str, str, float], ...]:
    return tuple((r.data.preemptor, r.node or "", r.time) for r in trace
                 if r.kind is Kind.VICTIM and r.pod == pod_key and isinstance(r.data, Victim))


def _result(records: Sequence[Record]) -> tuple[str, str]:
    schedule_end = next((r.data for r in records if r.kind is Kind.PHASE_END and isinstance(r.data, Phase)
                         and r.data.phase == "Schedule"), None)
    end = _last(records, Kind.CYCLE_END)
    binding = _last(records, Kind.BINDING_CYCLE_END)
    failure = _last(records, Kind.SCHEDULING_FAILURE)
    failure_data = failure.data if failure is not None and isinstance(failure.data, SchedulingFailure) else None
    result = classify(schedule_end.code if schedule_end is not None else "",
                      end.data.result if end is not None and isinstance(end.data, CycleInfo) else "",
                      binding.data.result if binding is not None and isinstance(binding.data, Outcome) else "",
                      failure_data.reason if failure_data is not None else None)
    if failure_data is not None:
        message = failure_data.message
    elif schedule_end is not None and schedule_end.code != "Success":
        message = schedule_end.message
    else:
        message = ""
    return result, message


# -- entry point --------------------------------------------------------------------------------------
def explain_pod(trace: Sequence[Record], state: Any, pod_key: str, node: str | None = None) -> Explanation:
    """Explain ``pod_key`` ("namespace/name") from ``trace`` (and ``state``); ``node`` focuses one node."""
    status = pod_status(trace, state, pod_key)
    cycles = pod_cycles(trace, pod_key)
    victim_of = _preempted_by(trace, pod_key)
    if not cycles:
        return Explanation(pod_key, status is not None, status, preempted_by=victim_of,
                           events=_events(trace, pod_key), focus=node)
    cycle = cycles[-1]
    records = _cycle_records(trace, cycle, pod_key)
    preemption_cycle, preemption = _latest_preemption(trace, cycles, pod_key, records)
    start = first_of(records, Kind.CYCLE_START)
    walk = first_of(records, Kind.FILTER_RUN)
    result, message = _result(records)
    return Explanation(
        pod=pod_key, found=True, status=status, cycle=cycle,
        cycle_time=start.time if start is not None else None,
        profile=(start.profile or "") if start is not None else "",
        result=result, message=message,
        num_all_nodes=walk.data.num_all_nodes if walk is not None and isinstance(walk.data, FilterRun) else None,
        nodes=_verdicts(records), scores=_scores(records), pick=_pick(records), bind=_bind(records),
        preemption=preemption, preemption_cycle=preemption_cycle, preempted_by=victim_of, events=_events(trace, pod_key),
        focus=node, cycle_ended=first_of(records, Kind.CYCLE_END) is not None)


def _latest_preemption(trace: Sequence[Record], cycles: Sequence[int], pod_key: str,
                       last_records: Sequence[Record]) -> tuple[int | None, PreemptionInfo | None]:
    """The preemption of the pod's latest cycle that ran ``Preempt`` (often not the last cycle)."""
    for cycle in reversed(cycles):
        records = last_records if cycle == cycles[-1] else _cycle_records(trace, cycle, pod_key)
        info = _preemption(records)
        if info is not None:
            return cycle, info
    return None, None
