"""The recorder turns synthetic hook calls into exact records."""

from __future__ import annotations

import pytest

from kubesched.scheduler.core.filter_check import FilterCheck
from kubesched.scheduler.core.preemption import PickDecision, PreemptionReport, VictimsReport
from kubesched.scheduler.framework.v1alpha1.framework import PluginFailure, ScoreDetail
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.internal.cache.cache import CacheEvent
from kubesched.trace import TraceRecorder, calls_of
from kubesched.trace import upstream as up
from kubesched.trace.decisions import (
    PASSED,
    ExtensionFailure,
    FilterPass,
    NodeCheck,
    PluginStatus,
    PreemptionNode,
    pack,
)
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    EventData,
    ExtenderCall,
    FilterRun,
    Kind,
    LeaderElection,
    LogLine,
    Outcome,
    PermitWait,
    Phase,
    PluginCall,
    PointRun,
    Preemption,
    QueueMove,
    Record,
    ScheduleResult,
    SchedulingFailure,
    ScoreRun,
    StartupStep,
    Victim,
)
from tests.trace.helpers import Clock, mkpod

A = mkpod("a")
V = mkpod("v", node="n1")
GS = up.GENERIC_SCHEDULER_GO
FILTER_FAIL = Status(Code.UNSCHEDULABLE, ("Insufficient cpu",))
FIT_FAIL = PluginStatus("NodeResourcesFit", "Unschedulable", ("Insufficient cpu",))
FAILED_PASS = FilterPass((FIT_FAIL,), "Unschedulable", ("Insufficient cpu",))
NODES = ("n1", "n2", "n3")
REMOVE, ADD = "PreFilterExtensionRemovePod", "PreFilterExtensionAddPod"
EXT_ERROR = Status(Code.ERROR, ("boom",))


def filter_run_kwargs(**changes) -> dict:
    kwargs = dict(pod=A, profile="", plugins=("NodeResourcesFit", "TaintToleration"), add_pod_plugins=("IPA",),
                  run_all_filters=False, nodes=NODES, percentage=0, num_nodes_to_find=3, start_index=1, visited=3,
                  next_start_node_index=0, checks=[], error="")
    return kwargs | changes


def score_detail() -> ScoreDetail:
    """Plugins Spread (weight 2, NormalizeScore) and Least (weight 1, constant 3) on n1, n2."""
    raw = [[10, 20], [3, 3]]
    return ScoreDetail(["Spread", "Least"], [2, 1], ["n1", "n2"], raw, {1: 3},
                       [[50, 100], raw[1]], [0], None, None, {"n1": 4}, [143, 203])


def preemption_report() -> PreemptionReport:
    node1 = VictimsReport("n1", True, [V], 1, [V],
                          [(REMOVE, V), FilterCheck(), (ADD, V), FilterCheck([({"NodeResourcesFit": FILTER_FAIL},
                                                                                FILTER_FAIL)]), (REMOVE, V)])
    node2 = VictimsReport("n2", steps=[(REMOVE, A)],
                          extension_failure=(REMOVE, A, PluginFailure("IPA", EXT_ERROR, EXT_ERROR)))
    return PreemptionReport(True, "", [], ["n1", "n2"], ["n3"], [node1, node2],
                            PickDecision("n1", "MinPDBViolations", (("MinPDBViolations", ("n1",)),)), True, "n1",
                            [V], [], "", ("NodeResourcesFit",), ("IPA",), False)

# (hook, kwargs, kind, node, plugin, (file, func), data) — recorded outside any cycle, at t=2.5.
CASES = [
    ("queue_move", dict(pod=A, source="unschedulableQ", target="activeQ", event="NodeAdd"), Kind.QUEUE_MOVE, None,
     None, (up.QUEUE_GO, "PriorityQueue.MoveAllToActiveOrBackoffQueue"),
     QueueMove("unschedulableQ", "activeQ", "NodeAdd")),
    ("queue_move", dict(pod=A, source="activeQ", target="", event="Pop"), Kind.QUEUE_MOVE, None, None,
     (up.QUEUE_GO, "PriorityQueue.Pop"), QueueMove("activeQ", "", "Pop")),
    ("cache_event", dict(event=CacheEvent("AddNode", "added node n1", None, "n1")), Kind.CACHE_EVENT, "n1", None,
     (up.CACHE_GO, "schedulerCache.AddNode"), CacheChange("AddNode", "added node n1")),
    ("cache_event", dict(event=CacheEvent("Expire", "Pod default/v expired", V, "n1")), Kind.EXPIRE, "n1", None,
     (up.CACHE_GO, "schedulerCache.cleanupAssumedPods"), CacheChange("Expire", "Pod default/v expired")),
    ("filter_run", filter_run_kwargs(), Kind.FILTER_RUN, None, None, (GS, "genericScheduler.findNodesThatPassFilters"),
     FilterRun(("NodeResourcesFit", "TaintToleration"), NODES, 0, 3, 1, 3, 0, (), ("IPA",), False, "", "")),
    ("filter_run", filter_run_kwargs(visited=2, checks=[
        (0, FilterCheck([({"NodeResourcesFit": FILTER_FAIL}, FILTER_FAIL)])),
        (1, FilterCheck([({}, None)], [V])),
        (2, FilterCheck([], [], (A, PluginFailure("IPA", EXT_ERROR, EXT_ERROR))))], error="boom"),
     Kind.FILTER_RUN, None, None, (GS, "genericScheduler.findNodesThatPassFilters"),
     FilterRun(("NodeResourcesFit", "TaintToleration"), NODES, 0, 3, 1, 2, 0,
               ((0, NodeCheck((FAILED_PASS,))), (1, NodeCheck((FilterPass(),), ("default/v",))),
                (2, NodeCheck((), (), ExtensionFailure(ADD, "default/a", "IPA", "Error", ("boom",))))),
               ("IPA",), False, "", "boom")),
    ("extender_filter", dict(pod=A, extender="http://e", nodes_in=["n1", "n2"], nodes_out=["n1"],
                             failed={"n2": "nope"}, error=None, ignored=False),
     Kind.EXTENDER_CALL, None, None, (GS, "genericScheduler.findNodesThatPassExtenders"),
     ExtenderCall("Filter", "http://e", ("n1", "n2"), ("n1",), (("n2", "nope"),))),
    ("extender_prioritize", dict(pod=A, extender="http://e", scores=[("n1", 3)], weight=2, error=None),
     Kind.EXTENDER_CALL, None, None, (GS, "genericScheduler.prioritizeNodes"),
     ExtenderCall("Prioritize", "http://e", scores=(("n1", 3),), weight=2)),
    ("score_run", dict(pod=A, detail=score_detail(), selected="n2"), Kind.SCORE_RUN, "n2", None,
     (GS, "genericScheduler.prioritizeNodes"),
     ScoreRun(("Spread", "Least"), (2, 1), ("n1", "n2"), (pack([10, 20]), 3),
              (pack([50, 100]), pack([3, 3])), (0,), extender_scores=(("n1", 4),),
              selected="n2", phase="")),
    ("schedule_result", dict(pod=A, suggested_host="n2", evaluated_nodes=3, feasible_nodes=1, shortcut=True),
     Kind.SCHEDULE_RESULT, "n2", None, (GS, "genericScheduler.Schedule"), ScheduleResult("n2", 3, 1, True)),
    ("preemption", dict(pod=A, profile="", report=PreemptionReport(False, "TerminatingPodsOnNominatedNode", [V])),
     Kind.PREEMPTION, None, None, (GS, "genericScheduler.Preempt"),
     Preemption(False, "TerminatingPodsOnNominatedNode", ("default/v",), phase="")),
    ("preemption", dict(pod=A, profile="", report=preemption_report()), Kind.PREEMPTION, "n1", None,
     (GS, "genericScheduler.Preempt"),
     Preemption(True, "", (), ("n1", "n2"), ("n3",), (
         PreemptionNode("n1", True, ("default/v",), 1, ("default/v",),
                        ((REMOVE, "default/v"), PASSED, (ADD, "default/v"), NodeCheck((FAILED_PASS,)),
                         (REMOVE, "default/v"))),
         PreemptionNode("n2", False, steps=((REMOVE, "default/a"),),
                        extension_failure=ExtensionFailure(REMOVE, "default/a", "IPA", "Error", ("boom",)))),
         "MinPDBViolations", (("MinPDBViolations", ("n1",)),), True, "n1", ("default/v",), (), "",
         ("NodeResourcesFit",), ("IPA",), False, "")),
    ("preemption_extender", dict(pod=A, extender="e", nodes_in=["n1"], nodes_out=None, error="down", ignored=True),
     Kind.EXTENDER_CALL, None, None, (GS, "processPreemptionWithExtenders"),
     ExtenderCall("ProcessPreemption", "e", ("n1",), None, error="down", ignored=True)),
    ("phase_start", dict(phase="Reserve", pod=A, node="n1"), Kind.PHASE_START, "n1", None,
     (up.FRAMEWORK_GO, "framework.RunReservePlugins"), Phase("Reserve")),
    ("phase_end", dict(phase="Schedule", pod=A, node="", code="Unschedulable", message="0/1"), Kind.PHASE_END, None,
     None, (GS, "genericScheduler.Schedule"), Phase("Schedule", "Unschedulable", "0/1")),
    ("assume", dict(pod=A, node="n1"), Kind.ASSUME, "n1", None, (up.SCHEDULER_GO, "Scheduler.assume"), None),
    ("forget", dict(pod=A, node="n1"), Kind.FORGET, "n1", None, (up.CACHE_GO, "schedulerCache.ForgetPod"), None),
    ("permit_wait", dict(pod=A, node="n1", pending_plugins=("Gate",)), Kind.PERMIT_WAIT, "n1", None,
     (up.FRAMEWORK_GO, "framework.RunPermitPlugins"), PermitWait(("Gate",))),
    ("binding_cycle_start", dict(pod=A, node="n1"), Kind.BINDING_CYCLE_START, "n1", None,
     (up.SCHEDULER_GO, "Scheduler.scheduleOne"), None),
    ("binding_cycle_end", dict(pod=A, node="n1", result="failed", message="m"), Kind.BINDING_CYCLE_END, "n1", None,
     (up.SCHEDULER_GO, "Scheduler.scheduleOne"), Outcome("failed", "m")),
    ("bind", dict(pod=A, node="n1", binder="framework", error=ValueError("refused")), Kind.BIND, "n1", None,
     (up.SCHEDULER_GO, "Scheduler.bind"), BindResult("framework", "refused")),
    ("scheduling_failure", dict(pod=A, reason="Unschedulable", message="0/1 nodes", error=ValueError("0/1")),
     Kind.SCHEDULING_FAILURE, None, None, (up.SCHEDULER_GO, "Scheduler.recordSchedulingFailure"),
     SchedulingFailure("Unschedulable", "0/1 nodes", "0/1")),
    ("nominate", dict(pod=A, node="n1"), Kind.NOMINATE, "n1", None, (up.SCHEDULER_GO, "Scheduler.preempt"), None),
    ("victim", dict(pod=V, preemptor=A, node="n1"), Kind.VICTIM, "n1", None, (up.SCHEDULER_GO, "Scheduler.preempt"),
     Victim("default/a")),
    ("clear_nomination", dict(pod=A), Kind.CLEAR_NOMINATION, None, None, (up.SCHEDULER_GO, "Scheduler.preempt"), None),
    ("event", dict(obj=A, type="Warning", reason="FailedScheduling", message="0/1", action="Scheduling",
                   related=None, component="default-scheduler"),
     Kind.EVENT, None, None, (up.SCHEDULER_GO, "Scheduler.recordSchedulingFailure"),
     EventData("Warning", "FailedScheduling", "0/1", "Pod default/a", "default-scheduler", "Scheduling", "")),
    ("event", dict(obj=V, type="Normal", reason="Preempted", message="Preempted by default/a on node n1",
                   action="Preempting", related=A, component="default-scheduler"),
     Kind.EVENT, None, None, (up.SCHEDULER_GO, "Scheduler.preempt"),
     EventData("Normal", "Preempted", "Preempted by default/a on node n1", "Pod default/v", "default-scheduler",
               "Preempting", "Pod default/a")),
]


def pod_of(kwargs: dict) -> str | None:
    for name in ("pod", "obj"):
        if name in kwargs:
            p = kwargs[name]
            return f"{p.metadata.namespace}/{p.metadata.name}"
    if "event" in kwargs and getattr(kwargs["event"], "pod", None) is not None:
        return "default/v"
    return None


@pytest.mark.parametrize("hook, kwargs, kind, node, plugin, loc, data", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_hook_outside_a_cycle(hook, kwargs, kind, node, plugin, loc, data):
    rec = TraceRecorder(clock=Clock(2.5))
    getattr(rec, hook)(**kwargs)
    assert list(rec.trace) == [Record(0, 2.5, kind, None, pod_of(kwargs), None, node, plugin, loc[0], loc[1], data)]


@pytest.mark.parametrize("hook, kwargs, kind, node, plugin, loc, data", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_hook_disabled_records_nothing(hook, kwargs, kind, node, plugin, loc, data):
    rec = TraceRecorder(clock=Clock(2.5), enabled=False)
    getattr(rec, hook)(**kwargs)
    rec.log(0, "x", severity="E")
    rec.extension_point_start(extension_point="PreFilter", pod=A, profile="p")
    rec.startup_step(step="s")
    rec.leader_election(identity="a", transition="acquired")
    assert rec.observer is None
    assert len(rec.trace) == 0


def test_cache_assume_and_forget_are_left_to_the_scheduler_hooks():
    rec = TraceRecorder()
    rec.cache_event(CacheEvent("Assume", "assumed pod default/a on n1", A, "n1"))
    rec.cache_event(CacheEvent("Forget", "forgot assumed pod default/a", A, "n1"))
    assert len(rec.trace) == 0


@pytest.mark.parametrize("kwargs, severity, loc", [
    (dict(severity="E", site=(up.SCHEDULER_GO, "Scheduler.preempt")), "E", (up.SCHEDULER_GO, "Scheduler.preempt")),
    (dict(severity="W", site=(up.FACTORY_GO, "MakeDefaultErrorFunc")), "W", (up.FACTORY_GO, "MakeDefaultErrorFunc")),
    (dict(site=(up.EVENTHANDLERS_GO, "Scheduler.skipPodUpdate")), "I", (up.EVENTHANDLERS_GO, "Scheduler.skipPodUpdate")),
    ({}, "I", (up.SCHEDULER_GO, "Scheduler.scheduleOne")),  # a (verbosity, message) caller
])
def test_log_takes_severity_and_site_as_given(kwargs, severity, loc):
    rec = TraceRecorder(clock=Clock(1.0))
    rec.log(3, "some line", **kwargs)
    assert list(rec.trace) == [Record(0, 1.0, Kind.LOG, None, None, None, None, None, loc[0], loc[1],
                                      LogLine(3, severity, "some line"))]


def test_startup_and_leader_election():
    rec = TraceRecorder()
    rec.startup_step(step="ServeHealthz", message="Serving healthz", details={"port": 10251})
    rec.startup_step(step="WaitForCacheSync", file=up.SCHEDULER_GO, func="Scheduler.Run")
    rec.leader_election(identity="s1", transition="acquired", holder="s1", lock="kube-system/kube-scheduler")
    assert list(rec.trace) == [
        Record(0, 0.0, Kind.STARTUP_STEP, file=up.SERVER_GO, func="Run",
               data=StartupStep("ServeHealthz", "Serving healthz", (("port", "10251"),))),
        Record(1, 0.0, Kind.STARTUP_STEP, file=up.SCHEDULER_GO, func="Scheduler.Run",
               data=StartupStep("WaitForCacheSync")),
        Record(2, 0.0, Kind.LEADER_ELECTION, file=up.LEADERELECTION_GO, func="LeaderElector.tryAcquireOrRenew",
               data=LeaderElection("s1", "acquired", "s1", "kube-system/kube-scheduler")),
    ]


def envelope(r: Record) -> tuple:
    return (r.kind, r.cycle, r.pod, r.profile, r.node)


def test_cycle_context_through_scheduling_and_binding():
    b = mkpod("b", scheduler="other")
    rec = TraceRecorder()
    rec.queue_move(A, "activeQ", "", "Pop")
    rec.pod_popped(pod=A, scheduling_cycle=4, attempts=1)
    rec.cycle_start(pod=A, profile="default-scheduler", scheduling_cycle=4)
    rec.log(3, "Attempting to schedule pod: default/a")
    rec.phase_start(phase="Schedule", pod=A, node="")
    rec.filter_run(**filter_run_kwargs())
    rec.phase_end(phase="Schedule", pod=A, node="n1", code="Success", message="")
    rec.cycle_end(pod=A, profile="default-scheduler", scheduling_cycle=4, result="assumed", node="n1", message="")
    rec.pod_popped(pod=b, scheduling_cycle=5, attempts=2)
    rec.cycle_start(pod=b, profile="other", scheduling_cycle=5)
    rec.requeue(pod=b, scheduling_cycle=5)
    rec.cycle_end(pod=b, profile="other", scheduling_cycle=5, result="failed", node="", message="no fit")
    rec.binding_cycle_start(pod=A, node="n1")
    rec.phase_start(phase="Bind", pod=A, node="n1")
    rec.extension_point_end(extension_point="Bind", pod=A, profile="default-scheduler", node="n1", code="Success",
                            message="", results=[("DefaultBinder", None, None)])
    rec.binding_cycle_end(pod=A, node="n1", result="bound", message="")
    rec.queue_move(b, "", "unschedulableQ", "ScheduleAttemptFailure")
    trace = rec.trace
    assert [envelope(r) for r in trace] == [
        (Kind.QUEUE_MOVE, None, "default/a", None, None),
        (Kind.POD_POPPED, 4, "default/a", "default-scheduler", None),
        (Kind.CYCLE_START, 4, "default/a", "default-scheduler", None),
        (Kind.LOG, 4, None, "default-scheduler", None),
        (Kind.PHASE_START, 4, "default/a", "default-scheduler", None),
        (Kind.FILTER_RUN, 4, "default/a", "default-scheduler", None),
        (Kind.PHASE_END, 4, "default/a", "default-scheduler", "n1"),
        (Kind.CYCLE_END, 4, "default/a", "default-scheduler", "n1"),
        (Kind.POD_POPPED, 5, "default/b", "other", None),
        (Kind.CYCLE_START, 5, "default/b", "other", None),
        (Kind.REQUEUE, 5, "default/b", "other", None),
        (Kind.CYCLE_END, 5, "default/b", "other", None),
        (Kind.BINDING_CYCLE_START, 4, "default/a", "default-scheduler", "n1"),
        (Kind.PHASE_START, 4, "default/a", "default-scheduler", "n1"),
        (Kind.POINT_RUN, 4, "default/a", "default-scheduler", "n1"),
        (Kind.BINDING_CYCLE_END, 4, "default/a", "default-scheduler", "n1"),
        (Kind.QUEUE_MOVE, None, "default/b", None, None),
    ]
    assert trace[5].data.phase == "Schedule"
    assert trace[14].data.phase == "Bind"
    assert trace.cycles() == (4, 5)


def test_victim_takes_the_preemptors_cycle():
    rec = TraceRecorder()
    rec.pod_popped(pod=A, scheduling_cycle=9, attempts=1)
    rec.victim(pod=V, preemptor=A, node="n1")
    assert envelope(rec.trace[-1]) == (Kind.VICTIM, 9, "default/v", "default-scheduler", "n1")


# -- decision records and their calls ------------------------------------------------------------
def test_a_score_run_holds_every_score_call():
    rec = TraceRecorder()
    rec.pod_popped(pod=A, scheduling_cycle=1, attempts=1)
    rec.phase_start(phase="Schedule", pod=A, node="")
    rec.score_run(pod=A, detail=score_detail(), selected="n2")
    run = rec.trace[-1]
    assert (run.kind, run.data.ties(), run.data.max_score) == (Kind.SCORE_RUN, ("n2",), 203)
    assert tuple(run.data.totals) == (143, 203)  # 2 × 50 + 3 + 4 × 10 and 2 × 100 + 3: prioritizeNodes' sums
    assert [(r.seq, r.node, r.plugin, r.profile, r.data) for r in calls_of(run)] == [
        (2, "n1", "Spread", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 10, 50, 2, 100)),
        (2, "n1", "Least", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 3, 3, 1, 3)),
        (2, "n2", "Spread", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 20, 100, 2, 200)),
        (2, "n2", "Least", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 3, 3, 1, 3)),
        (2, None, "Spread", "default-scheduler",
         PluginCall("ScoreExtensionNormalize", "Schedule", weight=2, scores=(("n1", 50), ("n2", 100)))),
    ]


def test_a_decision_outside_a_cycle_takes_the_frameworks_profile():
    rec = TraceRecorder()
    rec.score_run(pod=A, profile="p2", detail=score_detail(), selected="n2")
    assert (rec.trace[0].cycle, rec.trace[0].profile) == (None, "p2")


def test_equal_values_are_shared_between_records():
    rec = TraceRecorder()
    failing = [(0, FilterCheck([({"NodeResourcesFit": FILTER_FAIL}, FILTER_FAIL)]))]
    for _ in range(2):
        rec.filter_run(**filter_run_kwargs(plugins=("NodeResourcesFit", "TaintToleration"), checks=list(failing)))
        rec.extension_point_end(extension_point="PreBind", pod=A, profile="p", node="n1", results=[("VB", None, None)])
    first, second = rec.trace[0].data, rec.trace[3].data
    assert first == second and first.plugins is second.plugins and first.checks[0][1] is second.checks[0][1]
    assert rec.trace[1].data is rec.trace[4].data


# -- extension points -------------------------------------------------------------------------
def test_extension_points_nest_in_schedule_and_share_the_schedulers_phases():
    rec = TraceRecorder()
    rec.pod_popped(pod=A, scheduling_cycle=1, attempts=1)
    rec.phase_start(phase="Schedule", pod=A, node="")
    for point, results in (("PreFilter", [("IPA", None, None), ("Ports", FILTER_FAIL, None)]), ("Filter", [])):
        rec.extension_point_start(extension_point=point, pod=A, profile="default-scheduler", node="")
        rec.extension_point_end(extension_point=point, pod=A, profile="default-scheduler", node="",
                                code="Success" if point == "PreFilter" else "Unschedulable", message="",
                                results=results)
    rec.phase_end(phase="Schedule", pod=A, node="", code="Unschedulable", message="0/1")
    rec.phase_start(phase="Reserve", pod=A, node="n1")
    rec.extension_point_start(extension_point="Reserve", pod=A, profile="default-scheduler", node="n1")
    rec.extension_point_end(extension_point="Reserve", pod=A, profile="default-scheduler", node="n1",
                            code="Success", message="", results=[("VolumeBinding", None, None)])
    rec.phase_end(phase="Reserve", pod=A, node="n1", code="Success", message="")
    prefilter = PointRun("PreFilter", (PluginStatus("IPA"), PluginStatus("Ports", "Unschedulable",
                                                                         ("Insufficient cpu",))), (), "Schedule")
    assert [(r.kind, r.data, r.node, r.file, r.func, r.cycle) for r in rec.trace][1:] == [
        (Kind.PHASE_START, Phase("Schedule"), None, GS, "genericScheduler.Schedule", 1),
        (Kind.PHASE_START, Phase("PreFilter"), None, up.FRAMEWORK_GO, "framework.RunPreFilterPlugins", 1),
        (Kind.POINT_RUN, prefilter, None, up.FRAMEWORK_GO, "framework.RunPreFilterPlugins", 1),
        (Kind.PHASE_END, Phase("PreFilter", "Success"), None, up.FRAMEWORK_GO, "framework.RunPreFilterPlugins", 1),
        (Kind.PHASE_START, Phase("Filter"), None, GS, "genericScheduler.findNodesThatPassFilters", 1),
        (Kind.PHASE_END, Phase("Filter", "Unschedulable"), None, GS, "genericScheduler.findNodesThatPassFilters", 1),
        (Kind.PHASE_END, Phase("Schedule", "Unschedulable", "0/1"), None, GS, "genericScheduler.Schedule", 1),
        (Kind.PHASE_START, Phase("Reserve"), "n1", up.FRAMEWORK_GO, "framework.RunReservePlugins", 1),
        (Kind.POINT_RUN, PointRun("Reserve", (PluginStatus("VolumeBinding"),), (), "Reserve"), "n1", up.FRAMEWORK_GO,
         "framework.RunReservePlugins", 1),
        (Kind.PHASE_END, Phase("Reserve", "Success"), "n1", up.FRAMEWORK_GO, "framework.RunReservePlugins", 1),
    ]


# -- informers ---------------------------------------------------------------------------------
class Factory:
    def __init__(self) -> None:
        self.on_deliver: list = []

    def deliver(self, *args) -> None:
        for hook in self.on_deliver:
            hook(*args)


@pytest.mark.parametrize("kinds, want", [
    (None, [("ADDED", "Node", "", "n1", None, "n1"), ("MODIFIED", "Pod", "default", "v", "default/v", "n1"),
            ("DELETED", "Pod", "default", "a", "default/a", None)]),
    (("Pod",), [("MODIFIED", "Pod", "default", "v", "default/v", "n1"),
                ("DELETED", "Pod", "default", "a", "default/a", None)]),
])
def test_informer_deliveries_in_delivery_order(kinds, want):
    from kubesched.api.core import Node
    from kubesched.api.meta import ObjectMeta
    rec = TraceRecorder(clock=Clock(0.5))
    factory = Factory()
    rec.attach_informers(factory, kinds)
    factory.deliver("Node", "ADDED", Node(metadata=ObjectMeta(name="n1")), None)
    factory.deliver("Pod", "MODIFIED", V, mkpod("v"))
    factory.deliver("Pod", "DELETED", A, A)
    assert [(r.data.event_type, r.data.object_kind, r.data.namespace, r.data.name, r.pod, r.node)
            for r in rec.trace] == want
    assert all((r.kind, r.time, r.file) == (Kind.INFORMER_EVENT, 0.5, up.SHARED_INFORMER_GO) for r in rec.trace)


def test_disabled_recorder_adds_no_informer_hook():
    factory = Factory()
    TraceRecorder(enabled=False).attach_informers(factory)
    assert factory.on_deliver == []


class HandlersOnly:
    """A factory wrapper without ``on_deliver``: the recorder falls back to one handler per kind."""

    def __init__(self) -> None:
        self.handlers: dict = {}

    def add_event_handler(self, kind, handler) -> None:
        self.handlers[kind] = handler


@pytest.mark.parametrize("open_gate, want", [(True, [("ADDED", "a"), ("MODIFIED", "v"), ("DELETED", "a")]),
                                             (False, [])])
def test_informer_fallback_for_a_factory_without_the_hook(open_gate, want):
    rec = TraceRecorder()
    factory = HandlersOnly()
    rec.attach_informers(factory, ("Pod",), gate=lambda: open_gate)
    assert list(factory.handlers) == ["Pod"]
    factory.handlers["Pod"].on_add(A)
    factory.handlers["Pod"].on_update(mkpod("v"), V)
    factory.handlers["Pod"].on_delete(A)
    assert [(r.data.event_type, r.data.name) for r in rec.trace] == want


def test_gate_closes_the_hook():
    rec = TraceRecorder()
    factory = Factory()
    rec.attach_informers(factory, gate=lambda: False)
    factory.deliver("Pod", "ADDED", A, None)
    assert len(rec.trace) == 0
