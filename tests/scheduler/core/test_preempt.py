"""Preempt end to end on one snapshot: eligibility, candidate nodes, extenders, nominated pods."""

from __future__ import annotations

import pytest

from kubesched.scheduler.core import preemption as pr
from kubesched.scheduler.core.fit_error import FitError, NoNodesAvailableError
from kubesched.scheduler.core.preemption import Victims, pod_eligible_to_preempt_others, preempt
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from tests.scheduler.core.preemption_builders import NominatedQueue, Recorder, node, pod, setup

UNSCHEDULABLE = Status(Code.UNSCHEDULABLE, ("Insufficient cpu",))
UNRESOLVABLE = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("node(s) didn't match node selector",))


def names(pods):
    return [p.metadata.name for p in pods]


def fit_error(preemptor, **statuses):
    return FitError(preemptor, len(statuses), statuses)


# ----------------------------------------------------------------------------- podEligibleToPreemptOthers

ELIGIBILITY = [
    # (name, preemptor, pods on n1, enable_non_preempting, eligible)
    ("Never with the gate on", pod("p", 100, policy="Never"), [], True, False),
    ("Never with the gate off", pod("p", 100, policy="Never"), [], False, True),
    ("PreemptLowerPriority with the gate on", pod("p", 100, policy="PreemptLowerPriority"), [], True, True),
    ("no policy with the gate on", pod("p", 100), [], True, True),
    ("a lower-priority victim still terminating on the nominated node", pod("p", 100, nominated="n1"),
     [pod("v", 10, "n1", deleting=True)], False, False),
    ("a terminating pod of equal priority does not block", pod("p", 100, nominated="n1"),
     [pod("v", 100, "n1", deleting=True)], False, True),
    ("a lower-priority pod that is not terminating does not block", pod("p", 100, nominated="n1"),
     [pod("v", 10, "n1")], False, True),
    ("terminating pods on another node do not block", pod("p", 100, nominated="n2"),
     [pod("v", 10, "n1", deleting=True)], False, True),
    ("a nominated node missing from the snapshot does not block", pod("p", 100, nominated="gone"),
     [pod("v", 10, "n1", deleting=True)], False, True),
    ("without a nominated node terminating pods do not matter", pod("p", 100),
     [pod("v", 10, "n1", deleting=True)], False, True),
]


@pytest.mark.parametrize("name,preemptor,pods,gate,want", ELIGIBILITY, ids=[c[0] for c in ELIGIBILITY])
def test_pod_eligible_to_preempt_others(name, preemptor, pods, gate, want):
    snapshot = Snapshot.new(pods, [node("n1"), node("n2")])
    assert pod_eligible_to_preempt_others(preemptor, snapshot.node_infos(), gate) is want


def crowded():
    """n1 and n2 are full of low-priority pods; n1's victim has the lower priority."""
    return [pod("v1", 0, "n1", "900m"), pod("v2", 50, "n2", "900m")], [node("n1"), node("n2")]


@pytest.mark.parametrize("gate,want_node", [(True, None), (False, "n1")])
def test_preemption_policy_never_depends_on_the_gate(gate, want_node):
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m", policy="Never")
    g, prof, state, _ = setup(pods, nodes, preemptor, enable_non_preempting=gate)
    node_name, victims, to_clear = preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNSCHEDULABLE,
                                                                              n2=UNSCHEDULABLE))
    assert (node_name, names(victims), to_clear) == (want_node, ["v1"] if want_node else [], [])


def test_no_second_preemption_while_victims_terminate():
    pods, nodes = crowded()
    pods[0] = pod("v1", 0, "n1", "900m", deleting=True)
    preemptor = pod("p", 100, cpu="500m", nominated="n1")
    g, prof, state, _ = setup(pods, nodes, preemptor)
    assert preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNSCHEDULABLE, n2=UNSCHEDULABLE)) == (
        None, [], [])


# ----------------------------------------------------------------------------- nodesWherePreemptionMightHelp

def test_unresolvable_nodes_are_skipped():
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m")
    recorder = Recorder()
    g, prof, state, _ = setup(pods, nodes, preemptor, observer=recorder)
    # n1 would be the better choice (lower victim priority) but is UnschedulableAndUnresolvable.
    result = preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNRESOLVABLE, n2=UNSCHEDULABLE))
    assert (result[0], names(result[1])) == ("n2", ["v2"])
    (report,) = [c["report"] for c in recorder.of("preemption")]
    assert (report.potential_nodes, report.unresolvable_nodes) == (["n2"], ["n1"])
    assert [v.node for v in report.nodes] == ["n2"]


def test_nodes_without_status_are_candidates():
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m")
    g, prof, state, _ = setup(pods, nodes, preemptor)
    result = preempt(g, prof, state, preemptor, fit_error(preemptor, n2=UNRESOLVABLE))
    assert (result[0], names(result[1])) == ("n1", ["v1"])


def test_all_nodes_unresolvable_clears_the_pods_own_nomination():
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m", nominated="n1")
    g, prof, state, _ = setup(pods, nodes, preemptor)
    assert preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNRESOLVABLE, n2=UNRESOLVABLE)) == (
        None, [], [preemptor])


def test_only_a_fit_error_leads_to_preemption():
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m")
    g, prof, state, _ = setup(pods, nodes, preemptor)
    assert preempt(g, prof, state, preemptor, RuntimeError("boom")) == (None, [], [])


def test_empty_snapshot_is_no_nodes_available():
    preemptor = pod("p", 100, cpu="500m")
    g, prof, state, _ = setup([], [], preemptor)
    with pytest.raises(NoNodesAvailableError, match="no nodes available to schedule pods"):
        preempt(g, prof, state, preemptor, fit_error(preemptor))


def test_no_node_where_the_pod_fits():
    pods = [pod("big", 1000, "n1", "900m")]
    preemptor = pod("p", 100, cpu="500m")
    recorder = Recorder()
    g, prof, state, _ = setup(pods, [node("n1")], preemptor, observer=recorder)
    assert preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNSCHEDULABLE)) == (None, [], [])
    (report,) = [c["report"] for c in recorder.of("preemption")]
    assert report.decision == pr.PickDecision(None) and report.done and report.node == ""


# ----------------------------------------------------------------------------- nominated pods, observer

def test_lower_priority_nominated_pods_are_returned_for_clearing():
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m")
    low, equal, high = pod("low", 10), pod("equal", 100), pod("high", 500)
    queue = NominatedQueue({"n1": [low, equal, high], "n2": [pod("elsewhere", 0)]})
    g, prof, state, _ = setup(pods, nodes, preemptor, queue=queue)
    # The higher-priority nominated pod's request does not matter here: n1 has room for 1000m.
    node_name, victims, to_clear = preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNSCHEDULABLE,
                                                                               n2=UNSCHEDULABLE))
    assert (node_name, names(victims), names(to_clear)) == ("n1", ["v1"], ["low"])


def test_observer_sees_the_deciding_rule_and_the_result():
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m")
    recorder = Recorder()
    g, prof, state, _ = setup(pods, nodes, preemptor, observer=recorder)
    preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNSCHEDULABLE, n2=UNSCHEDULABLE))
    assert [name for name, _ in recorder.calls if name.startswith("preemption")] == ["preemption"]
    report = recorder.of("preemption")[0]["report"]
    assert report.eligible and [v.node for v in report.nodes] == ["n1", "n2"]
    assert (report.decision.node, report.decision.criterion, report.decision.rounds) == (
        "n1", pr.MIN_HIGHEST_PRIORITY_VICTIM,
        ((pr.MIN_PDB_VIOLATIONS, ("n1", "n2")), (pr.MIN_HIGHEST_PRIORITY_VICTIM, ("n1",))))
    assert (report.done, report.node, names(report.victims), report.error) == (True, "n1", ["v1"], "")


# ----------------------------------------------------------------------------- extenders

class Extender:
    def __init__(self, keep=None, error=None, ignorable=False, interested=True, preemption=True):
        self.keep, self.error, self.ignorable = keep, error, ignorable
        self.interested, self.preemption = interested, preemption
        self.calls = 0

    def name(self):
        return "ext"

    def supports_preemption(self):
        return self.preemption

    def is_interested(self, pod):
        return self.interested

    def is_ignorable(self):
        return self.ignorable

    def process_preemption(self, pod, node_to_victims, node_infos):
        self.calls += 1
        if self.error:
            raise RuntimeError(self.error)
        assert all(isinstance(v, Victims) for v in node_to_victims.values())
        return {n: v for n, v in node_to_victims.items() if self.keep is None or n in self.keep}


EXTENDER_CASES = [
    ("restricts the candidates", [Extender(keep={"n2"})], "n2", [1]),
    ("chained extenders narrow in turn", [Extender(keep={"n1", "n2"}), Extender(keep={"n2"})], "n2", [1, 1]),
    ("an empty map stops the chain", [Extender(keep=set()), Extender(keep={"n2"})], None, [1, 0]),
    ("an ignorable error is skipped", [Extender(error="down", ignorable=True), Extender(keep={"n2"})], "n2", [1, 1]),
    ("an uninterested extender is not asked", [Extender(keep={"n2"}, interested=False)], "n1", [0]),
    ("an extender without preemption support is not asked", [Extender(keep={"n2"}, preemption=False)], "n1", [0]),
]


@pytest.mark.parametrize("name,extenders,want_node,want_calls", EXTENDER_CASES, ids=[c[0] for c in EXTENDER_CASES])
def test_preemption_with_extenders(name, extenders, want_node, want_calls):
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m")
    g, prof, state, _ = setup(pods, nodes, preemptor, extenders=tuple(extenders))
    node_name, _, _ = preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNSCHEDULABLE, n2=UNSCHEDULABLE))
    assert (node_name, [e.calls for e in extenders]) == (want_node, want_calls)


def test_a_failing_extender_that_is_not_ignorable_fails_preemption():
    pods, nodes = crowded()
    preemptor = pod("p", 100, cpu="500m")
    recorder = Recorder()
    g, prof, state, _ = setup(pods, nodes, preemptor, extenders=(Extender(error="down"),), observer=recorder)
    with pytest.raises(RuntimeError, match="down"):
        preempt(g, prof, state, preemptor, fit_error(preemptor, n1=UNSCHEDULABLE, n2=UNSCHEDULABLE))
    report = recorder.of("preemption")[0]["report"]  # reported all the same, with the error that ended it
    assert (report.error, report.done, len(report.nodes)) == ("down", False, 2)


def test_observer_lists_the_terminating_pods_that_block_preemption():
    blocking = [pod("v", 10, "n1", deleting=True), pod("w", 20, "n1", deleting=True),
                pod("x", 500, "n1", deleting=True)]
    snapshot = Snapshot.new(blocking, [node("n1")])
    report = pr.PreemptionReport()
    preemptor = pod("p", 100, nominated="n1")
    assert pod_eligible_to_preempt_others(preemptor, snapshot.node_infos(), False, report) is False
    assert (report.eligible, report.reason, report.terminating_pods) == (
        False, "TerminatingPodsOnNominatedNode", blocking[:2])
