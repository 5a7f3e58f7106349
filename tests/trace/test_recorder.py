"""The recorder turns synthetic hook calls into exact records."""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.v1alpha1.plugin_calls import OneCall as One
from kubesched.scheduler.framework.v1alpha1.plugin_calls import PluginCall as Call
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.internal.cache.cache import CacheEvent
from kubesched.trace import TraceRecorder
from kubesched.trace import upstream as up
from kubesched.trace.records import (
    BindResult,
    CacheChange,
    EventData,
    ExtenderCall,
    FeasibleNodes,
    FilterWalk,
    Kind,
    LeaderElection,
    LogLine,
    NominatedPass,
    Outcome,
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
    Victim,
)
from tests.trace.helpers import Clock, mkpod

A = mkpod("a")
V = mkpod("v", node="n1")
GS = up.GENERIC_SCHEDULER_GO
FILTER_FAIL = Status(Code.UNSCHEDULABLE, ("Insufficient cpu",))

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
    ("plugin_calls", dict(calls=One(Call("Filter", "NodeResourcesFit", A, "n1", FILTER_FAIL))), Kind.PLUGIN_CALL, "n1",
     "NodeResourcesFit", (f"{up.SCHED}/framework/plugins/noderesources/fit.go", "Fit.Filter"),
     PluginCall("Filter", "", "Unschedulable", ("Insufficient cpu",))),
    ("plugin_calls", dict(calls=One(Call("PreFilter", "InterPodAffinity", A))), Kind.PLUGIN_CALL, None, "InterPodAffinity",
     (f"{up.SCHED}/framework/plugins/interpodaffinity/filtering.go", "InterPodAffinity.PreFilter"),
     PluginCall("PreFilter")),
    ("plugin_calls", dict(calls=One(Call("Permit", "Gate", A, "n1", Status(Code.WAIT, ()), timeout=900.0))),
     Kind.PLUGIN_CALL, "n1", "Gate", (up.FRAMEWORK_GO, "framework.RunPermitPlugins"),
     PluginCall("Permit", "", "Wait", (), timeout=900.0)),
    ("feasible_nodes_to_find", dict(pod=A, num_all_nodes=500, percentage=0, num_nodes_to_find=230, start_index=7),
     Kind.FEASIBLE_NODES, None, None, (GS, "genericScheduler.numFeasibleNodesToFind"), FeasibleNodes(500, 0, 230, 7)),
    ("nominated_pods_pass", dict(pod=A, node="n1", pass_index=0, nominated_pods_added=[V], status=FILTER_FAIL),
     Kind.NOMINATED_PASS, "n1", None, (GS, "genericScheduler.podPassesFiltersOnNode"),
     NominatedPass(0, ("default/v",), "Unschedulable", ("Insufficient cpu",))),
    ("filter_walk_done", dict(pod=A, start_index=1, processed=2, feasible=["n2"], failed=["n3"], not_visited=["n1"],
                              next_start_node_index=0, has_filter_plugins=True),
     Kind.FILTER_WALK, None, None, (GS, "genericScheduler.findNodesThatPassFilters"),
     FilterWalk(1, 2, ("n2",), ("n3",), ("n1",), 0, True)),
    ("extender_filter", dict(pod=A, extender="http://e", nodes_in=["n1", "n2"], nodes_out=["n1"],
                             failed={"n2": "nope"}, error=None, ignored=False),
     Kind.EXTENDER_CALL, None, None, (GS, "genericScheduler.findNodesThatPassExtenders"),
     ExtenderCall("Filter", "http://e", ("n1", "n2"), ("n1",), (("n2", "nope"),))),
    ("extender_prioritize", dict(pod=A, extender="http://e", scores=[("n1", 3)], weight=2, error=None),
     Kind.EXTENDER_CALL, None, None, (GS, "genericScheduler.prioritizeNodes"),
     ExtenderCall("Prioritize", "http://e", scores=(("n1", 3),), weight=2)),
    ("node_scores", dict(pod=A, scores=[("n1", 1), ("n2", 1)], extender_scores={}), Kind.SCORE_SUMMARY, None, None,
     (GS, "genericScheduler.prioritizeNodes"), ScoreSummary((), (), (("n1", 1), ("n2", 1)))),
    ("select_host", dict(pod=A, max_score=10, ties=["n1", "n2"], selected="n2"), Kind.SELECT_HOST, "n2", None,
     (GS, "genericScheduler.selectHost"), SelectHost(10, ("n1", "n2"), "n2")),
    ("schedule_result", dict(pod=A, suggested_host="n2", evaluated_nodes=3, feasible_nodes=1, shortcut=True),
     Kind.SCHEDULE_RESULT, "n2", None, (GS, "genericScheduler.Schedule"), ScheduleResult("n2", 3, 1, True)),
    ("preemption_eligibility", dict(pod=A, eligible=False, reason="TerminatingPodsOnNominatedNode",
                                    terminating_pods=[V]),
     Kind.PREEMPTION_ELIGIBILITY, None, None, (GS, "podEligibleToPreemptOthers"),
     PreemptionEligibility(False, "TerminatingPodsOnNominatedNode", ("default/v",))),
    ("preemption_candidates", dict(pod=A, potential_nodes=["n1"], unresolvable_nodes=["n2"]),
     Kind.PREEMPTION_CANDIDATES, None, None, (GS, "nodesWherePreemptionMightHelp"),
     PreemptionCandidates(("n1",), ("n2",))),
    ("preemption_victims", dict(pod=A, node="n1", fits=True, victims=[V], num_pdb_violations=1, pdb_violating=[V]),
     Kind.PREEMPTION_VICTIMS, "n1", None, (GS, "selectVictimsOnNode"),
     PreemptionVictims(True, ("default/v",), 1, ("default/v",))),
    ("preemption_extender", dict(pod=A, extender="e", nodes_in=["n1"], nodes_out=None, error="down", ignored=True),
     Kind.EXTENDER_CALL, None, None, (GS, "processPreemptionWithExtenders"),
     ExtenderCall("ProcessPreemption", "e", ("n1",), None, error="down", ignored=True)),
    ("preemption_pick", dict(pod=A, node="n1", criterion="MinHighestPriority",
                             rounds=[("MinPDBViolations", ["n1", "n2"]), ("MinHighestPriority", ["n1"])]),
     Kind.PREEMPTION_PICK, "n1", None, (GS, "pickOneNodeForPreemption"),
     PreemptionPick("MinHighestPriority", (("MinPDBViolations", ("n1", "n2")), ("MinHighestPriority", ("n1",))))),
    ("preemption_result", dict(pod=A, node="n1", victims=[V], nominated_pods_to_clear=[]), Kind.PREEMPTION_RESULT,
     "n1", None, (GS, "genericScheduler.Preempt"), PreemptionResult(("default/v",), ())),
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
    if "calls" in kwargs:
        return "default/a"
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
    rec.plugin_calls(One(Call("Filter", "NodeName", A, "n1")))
    rec.phase_end(phase="Schedule", pod=A, node="n1", code="Success", message="")
    rec.cycle_end(pod=A, profile="default-scheduler", scheduling_cycle=4, result="assumed", node="n1", message="")
    rec.pod_popped(pod=b, scheduling_cycle=5, attempts=2)
    rec.cycle_start(pod=b, profile="other", scheduling_cycle=5)
    rec.requeue(pod=b, scheduling_cycle=5)
    rec.cycle_end(pod=b, profile="other", scheduling_cycle=5, result="failed", node="", message="no fit")
    rec.binding_cycle_start(pod=A, node="n1")
    rec.phase_start(phase="Bind", pod=A, node="n1")
    rec.plugin_calls(One(Call("Bind", "DefaultBinder", A, "n1")))
    rec.binding_cycle_end(pod=A, node="n1", result="bound", message="")
    rec.queue_move(b, "", "unschedulableQ", "ScheduleAttemptFailure")
    trace = rec.trace
    assert [envelope(r) for r in trace] == [
        (Kind.QUEUE_MOVE, None, "default/a", None, None),
        (Kind.POD_POPPED, 4, "default/a", "default-scheduler", None),
        (Kind.CYCLE_START, 4, "default/a", "default-scheduler", None),
        (Kind.LOG, 4, None, "default-scheduler", None),
        (Kind.PHASE_START, 4, "default/a", "default-scheduler", None),
        (Kind.PLUGIN_CALL, 4, "default/a", "default-scheduler", "n1"),
        (Kind.PHASE_END, 4, "default/a", "default-scheduler", "n1"),
        (Kind.CYCLE_END, 4, "default/a", "default-scheduler", "n1"),
        (Kind.POD_POPPED, 5, "default/b", "other", None),
        (Kind.CYCLE_START, 5, "default/b", "other", None),
        (Kind.REQUEUE, 5, "default/b", "other", None),
        (Kind.CYCLE_END, 5, "default/b", "other", None),
        (Kind.BINDING_CYCLE_START, 4, "default/a", "default-scheduler", "n1"),
        (Kind.PHASE_START, 4, "default/a", "default-scheduler", "n1"),
        (Kind.PLUGIN_CALL, 4, "default/a", "default-scheduler", "n1"),
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


# -- Score: the framework hands each call over complete ----------------------------------------
def score_cycle(rec: TraceRecorder) -> None:
    rec.pod_popped(pod=A, scheduling_cycle=1, attempts=1)
    rec.phase_start(phase="Schedule", pod=A, node="")
    for node, values in (("n1", ((10, 50, 100), (3, 3, 3))), ("n2", ((20, 100, 200), (0, 0, 0)))):
        for (plugin, weight), (raw, norm, weighted) in zip((("Spread", 2), ("Least", 1)), values):
            rec.plugin_calls(One(Call("Score", plugin, A, node, None, score=raw, normalized_score=norm, weight=weight,
                                     weighted_score=weighted, profile="default-scheduler")))
    rec.plugin_calls(One(Call("ScoreExtensionNormalize", "Spread", A, "", None, scores=(("n1", 50), ("n2", 100)),
                             weight=2, profile="default-scheduler")))
    rec.node_scores(pod=A, scores=[("n1", 106), ("n2", 200)], extender_scores={"n1": 4})


def test_score_calls_become_records_and_a_summary():
    rec = TraceRecorder()
    score_cycle(rec)
    calls = rec.trace.filter(Kind.PLUGIN_CALL)
    assert [(r.node, r.plugin, r.profile, r.data) for r in calls] == [
        ("n1", "Spread", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 10, 50, 2, 100)),
        ("n1", "Least", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 3, 3, 1, 3)),
        ("n2", "Spread", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 20, 100, 2, 200)),
        ("n2", "Least", "default-scheduler", PluginCall("Score", "Schedule", "Success", (), 0, 0, 1, 0)),
        (None, "Spread", "default-scheduler",
         PluginCall("ScoreExtensionNormalize", "Schedule", weight=2, scores=(("n1", 50), ("n2", 100)))),
    ]
    summary = rec.trace.filter(Kind.SCORE_SUMMARY)
    assert [r.data for r in summary] == [ScoreSummary(
        (ScoreRow("n1", "Spread", 10, 50, 2, 100), ScoreRow("n1", "Least", 3, 3, 1, 3),
         ScoreRow("n2", "Spread", 20, 100, 2, 200), ScoreRow("n2", "Least", 0, 0, 1, 0)),
        (("n1", 4),), (("n1", 106), ("n2", 200)))]
    assert [r.seq for r in rec.trace] == list(range(len(rec.trace)))


def test_score_rows_of_another_pod_are_not_summarized():
    rec = TraceRecorder()
    rec.plugin_calls(One(Call("Score", "Spread", V, "n1", None, score=5, weight=1)))
    rec.node_scores(pod=A, scores=[("n1", 5)], extender_scores={})
    assert rec.trace[-1].data == ScoreSummary((), (), (("n1", 5),))


def test_a_call_outside_a_cycle_takes_its_profile():
    rec = TraceRecorder()
    rec.plugin_calls(One(Call("Score", "Spread", A, "n1", None, score=5, weight=1, profile="p2")))
    assert (rec.trace[0].cycle, rec.trace[0].profile) == (None, "p2")


# -- extension points -------------------------------------------------------------------------
def test_extension_points_nest_in_schedule_and_share_the_schedulers_phases():
    rec = TraceRecorder()
    rec.pod_popped(pod=A, scheduling_cycle=1, attempts=1)
    rec.phase_start(phase="Schedule", pod=A, node="")
    for point in ("PreFilter", "Filter"):
        rec.extension_point_start(extension_point=point, pod=A, profile="default-scheduler", node="")
        rec.extension_point_end(extension_point=point, pod=A, profile="default-scheduler", node="",
                                code="Success" if point == "PreFilter" else "Unschedulable", message="")
    rec.phase_end(phase="Schedule", pod=A, node="", code="Unschedulable", message="0/1")
    rec.phase_start(phase="Reserve", pod=A, node="n1")
    rec.extension_point_start(extension_point="Reserve", pod=A, profile="default-scheduler", node="n1")
    rec.extension_point_end(extension_point="Reserve", pod=A, profile="default-scheduler", node="n1",
                            code="Success", message="")
    rec.phase_end(phase="Reserve", pod=A, node="n1", code="Success", message="")
    assert [(r.kind, r.data, r.node, r.file, r.func, r.cycle) for r in rec.trace][1:] == [
        (Kind.PHASE_START, Phase("Schedule"), None, GS, "genericScheduler.Schedule", 1),
        (Kind.PHASE_START, Phase("PreFilter"), None, up.FRAMEWORK_GO, "framework.RunPreFilterPlugins", 1),
        (Kind.PHASE_END, Phase("PreFilter", "Success"), None, up.FRAMEWORK_GO, "framework.RunPreFilterPlugins", 1),
        (Kind.PHASE_START, Phase("Filter"), None, GS, "genericScheduler.findNodesThatPassFilters", 1),
        (Kind.PHASE_END, Phase("Filter", "Unschedulable"), None, GS, "genericScheduler.findNodesThatPassFilters", 1),
        (Kind.PHASE_END, Phase("Schedule", "Unschedulable", "0/1"), None, GS, "genericScheduler.Schedule", 1),
        (Kind.PHASE_START, Phase("Reserve"), "n1", up.FRAMEWORK_GO, "framework.RunReservePlugins", 1),
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


FILTER_RUN_CASES = {
    # per step: ("filter", pod, node, failures, count) or ("log",); want: (node, plugin) or "LOG", in order
    "one pod's nodes, then the walk's end": (
        [("filter", A, "n1", {}, 2), ("filter", A, "n2", {"P1": FILTER_FAIL}, 1), ("log",)],
        [("n1", "P1"), ("n1", "P2"), ("n2", "P1"), "LOG"]),
    "a record between nodes stays between them": (
        [("filter", A, "n1", {}, 2), ("log",), ("filter", A, "n2", {}, 2)],
        [("n1", "P1"), ("n1", "P2"), "LOG", ("n2", "P1"), ("n2", "P2")]),
    "another pod's batch starts a new run": (
        [("filter", A, "n1", {}, 1), ("filter", V, "n1", {}, 2)],
        [("n1", "P1"), ("n1", "P1"), ("n1", "P2")]),
}


@pytest.mark.parametrize("steps, want", FILTER_RUN_CASES.values(), ids=FILTER_RUN_CASES.keys())
def test_filter_batches_keep_call_order(steps, want):
    from kubesched.scheduler.framework.v1alpha1.plugin_calls import FilterCalls
    rec = TraceRecorder(clock=Clock(1.0))
    for step in steps:
        if step[0] == "log":
            rec.log(2, "walk over")
        else:
            _, pod, node, failures, count = step
            rec.plugin_calls(FilterCalls(pod, "default-scheduler", node, ("P1", "P2"), failures, count))
    records = list(rec.trace)
    assert [r.seq for r in records] == list(range(len(want)))
    assert ["LOG" if r.kind is Kind.LOG else (r.node, r.plugin) for r in records] == want


def test_reading_the_trace_appends_gathered_filter_calls():
    from kubesched.scheduler.framework.v1alpha1.plugin_calls import FilterCalls
    rec = TraceRecorder(clock=Clock(1.0))
    rec.plugin_calls(FilterCalls(A, "p", "n1", ("P1",), {}, 1))
    assert len(rec.trace) == 1
    rec.plugin_calls(FilterCalls(A, "p", "n2", ("P1",), {"P1": FILTER_FAIL}, 1))
    rec.flush()
    assert [(r.node, r.data.code) for r in rec.trace] == [("n1", "Success"), ("n2", "Unschedulable")]
