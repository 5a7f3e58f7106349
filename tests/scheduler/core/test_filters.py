"""podPassesFiltersOnNode (two passes with nominated pods) and extender filtering."""

import pytest

from kubesched.conformance.fakes_core import FakeExtender
from kubesched.scheduler.core.generic_scheduler import FitError
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, FrameworkError, Status
from tests.scheduler.core.support import Harness, Recorder, node, pod

FIT = {"preFilter": ["NodeResourcesFit"], "filter": ["NodeResourcesFit"]}
AFFINITY = {"preFilter": ["InterPodAffinity"], "filter": ["InterPodAffinity"]}
HOST = "kubernetes.io/hostname"


def _passes(harness, p, node_name, state=None, log=None):
    state = state or CycleState()
    harness.sched.snapshot()
    harness.built.framework.run_pre_filter_plugins(state, p)
    info = harness.snapshot.get(node_name)
    return harness.sched.pod_passes_filters_on_node(harness.profile, state, p, info, log, 7)


def _merged(check) -> list:
    """(pass index, merged status) of each filter pass a logged check holds."""
    return [(i, merged) for i, (_, merged) in enumerate(check.passes)]


@pytest.mark.parametrize("pod_priority, nominated_priority, same_uid, calls", [
    (1000, 100, False, 1),   # lower-priority nominated pod: not added, one pass
    (0, 100, False, 2),      # higher priority: added, both passes
    (100, 100, False, 2),    # equal priority counts as "equal or higher"
    (0, 100, True, 1),       # the pod itself is never added
])
def test_filter_call_count_with_nominated_pods(pod_priority, nominated_priority, same_uid, calls):
    harness = Harness([node("n1")], {"filter": ["FakeFilter"]})
    nominated = pod("nominated", priority=nominated_priority, uid="p" if same_uid else "nominated")
    harness.queue.update_nominated_pod_for_node(nominated, "n1")
    fits, status = _passes(harness, pod("p", priority=pod_priority), "n1")
    assert (fits, status) == (True, None)
    assert harness.built.instances["FakeFilter"].num_filter_called == calls


@pytest.mark.parametrize("nominated_priority, fits, reasons", [
    (100, False, ("Insufficient cpu",)),  # the nominated pod's 1.5 cpu is treated as running
    (-5, True, ()),                       # a lower-priority nomination may be taken over
])
def test_resources_of_higher_priority_nominated_pods_are_reserved(nominated_priority, fits, reasons):
    harness = Harness([node("n1", cpu="2")], FIT)
    harness.queue.update_nominated_pod_for_node(pod("nom", cpu="1500m", priority=nominated_priority), "n1")
    log: list = []
    got_fits, status = _passes(harness, pod("p", cpu="1", priority=0), "n1", log=log)
    assert got_fits is fits
    assert (status.reasons if status else ()) == reasons
    ((at, check),) = log
    assert at == 7 and [i for i, _ in _merged(check)] == [0]
    assert [x.metadata.name for x in check.nominated] == (["nom"] if nominated_priority >= 0 else [])
    # the snapshot's NodeInfo is untouched (the pods were added to a clone)
    assert harness.snapshot.get("n1").pods == []


def _affinity_to(app):
    term = {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": HOST}
    return {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}


class HasPodsFilter:
    """Fits only a node that holds some pod (the opposite of NoPodsFilter)."""

    def name(self):
        return "HasPodsFilter"

    def filter(self, state, p, node_info):
        return None if node_info.pods else Status(Code.UNSCHEDULABLE, ("node has no pods",))


def test_second_pass_without_nominated_pods_can_fail():
    """A filter satisfied only with the nominated pod present: pass 0 fits, pass 1 does not."""
    harness = Harness([node("n1")], {"filter": ["HasPodsFilter"]}, extra={"HasPodsFilter": HasPodsFilter()})
    harness.queue.update_nominated_pod_for_node(pod("nom", priority=10), "n1")
    log: list = []
    fits, status = _passes(harness, pod("p", priority=0), "n1", log=log)
    assert (fits, status) == (False, Status(Code.UNSCHEDULABLE, ("node has no pods",)))
    assert _merged(log[0][1]) == [(0, None), (1, status)]
    assert log[0][1].passes[1][0] == {"HasPodsFilter": status}


def test_nominated_pods_do_not_satisfy_incoming_affinity_in_1_18():
    """1.18 InterPodAffinity.AddPod counts an added pod for the incoming pod's (anti-)affinity
    only if it has a nodeName; a nominated pod has none, so pass 0 already fails here."""
    harness = Harness([node("n1", labels={HOST: "n1"})], AFFINITY,
                      pods=[pod("other", node_name="n1", labels={"app": "other"})])
    harness.queue.update_nominated_pod_for_node(pod("web", priority=10, labels={"app": "web"}), "n1")
    log: list = []
    fits, status = _passes(harness, pod("p", priority=0, affinity=_affinity_to("web")), "n1", log=log)
    assert fits is False
    assert status == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (
        "node(s) didn't match pod affinity/anti-affinity", "node(s) didn't match pod affinity rules"))
    assert [i for i, _ in _merged(log[0][1])] == [0]


@pytest.mark.parametrize("cpu, logged", [("1", []), ("8", [(7, "Insufficient cpu")])])
def test_no_nominated_pods_means_one_pass_logged_only_when_it_fails(cpu, logged):
    harness = Harness([node("n1")], FIT)
    log: list = []
    _passes(harness, pod("p", cpu=cpu), "n1", log=log)
    assert [(at, check.passes[0][1].message()) for at, check in log] == logged
    assert all(check.nominated is None for _, check in log)


def test_filter_error_raises_and_stops_the_walk():
    harness = Harness([node("n1"), node("n2")], {"filter": [{"name": "FakeFilter",
                                                            "failedNodeReturnCodeMap": {"n1": "Error"}}]})
    with pytest.raises(FrameworkError, match='running "FakeFilter" filter plugin for pod "p": injecting failure'):
        harness.schedule(pod("p"))
    assert harness.built.instances["FakeFilter"].num_filter_called == 1
    assert harness.sched.next_start_node_index == 0


def _only(*names):
    return lambda p, n: n.metadata.name in names


def test_extender_failures_merge_into_statuses():
    ext = FakeExtender("ext", predicates=[_only("n1", "n3")])
    harness = Harness([node("n1", cpu="100m"), node("n2"), node("n3", cpu="100m")], FIT, extenders=[ext])
    with pytest.raises(FitError) as info:
        harness.schedule(pod("p", cpu="1"))
    statuses = info.value.filtered_nodes_statuses
    assert statuses == {"n1": Status(Code.UNSCHEDULABLE, ("Insufficient cpu",)),
                        "n3": Status(Code.UNSCHEDULABLE, ("Insufficient cpu",)),
                        "n2": Status(Code.UNSCHEDULABLE, ("FakeExtender failed",))}
    assert str(info.value) == "0/3 nodes are available: 1 FakeExtender failed, 2 Insufficient cpu."


def test_extender_reason_is_appended_to_an_existing_status():
    class Rejector(FakeExtender):
        def filter(self, p, nodes):  # reports a node that the plugins already rejected too
            return [n for n in nodes if n.metadata.name != "n2"], {"n1": "ext says no", "n2": "ext says no"}

    harness = Harness([node("n1", cpu="100m"), node("n2")], FIT, extenders=[Rejector("ext")])
    with pytest.raises(FitError) as info:
        harness.schedule(pod("p", cpu="1"))
    assert info.value.filtered_nodes_statuses == {
        "n1": Status(Code.UNSCHEDULABLE, ("Insufficient cpu", "ext says no")),
        "n2": Status(Code.UNSCHEDULABLE, ("ext says no",))}


@pytest.mark.parametrize("ignorable, outcome", [(True, "n1"), (False, "error")])
def test_extender_filter_errors(ignorable, outcome):
    failing = FakeExtender("bad", fail_filter=True, ignorable=ignorable)
    after = FakeExtender("after", predicates=[_only("n1")])
    harness = Harness([node("n1"), node("n2")], FIT, extenders=[failing, after])
    if outcome == "error":
        with pytest.raises(RuntimeError, match="injected extender filter error"):
            harness.schedule(pod("p"))
        assert after.filter_calls == 0
    else:
        assert harness.schedule(pod("p")).suggested_host == outcome
        assert after.filter_calls == 1


def test_uninterested_extender_is_skipped_and_empty_list_stops_extenders():
    skipped = FakeExtender("skip", predicates=[_only()], interested=False)
    emptying = FakeExtender("empty", predicates=[_only()])
    never = FakeExtender("never")
    harness = Harness([node("n1"), node("n2")], FIT, extenders=[skipped, emptying, never])
    with pytest.raises(FitError):
        harness.schedule(pod("p"))
    assert (skipped.filter_calls, emptying.filter_calls, never.filter_calls) == (0, 1, 0)


@pytest.mark.parametrize("cpu, plugins, code, message", [
    ("1", FIT, "Success", ""),
    ("3", FIT, "Unschedulable", ""),
    (None, {"filter": [{"name": "FakeFilter", "failedNodeReturnCodeMap": {"n1": "Error"}}]}, "Error",
     'running "FakeFilter" filter plugin for pod "p": injecting failure for pod p'),
], ids=["fits", "no-node-fits", "filter-error"])
def test_filter_walk_is_framed_by_extension_point_start_and_end(cpu, plugins, code, message):
    rec = Recorder()
    harness = Harness([node("n1", cpu="2")], plugins, observer=rec)
    try:
        harness.schedule(pod("p", cpu=cpu))
    except (FitError, FrameworkError):
        pass
    hooks = [name for name, _ in rec.calls if name in ("extension_point_start", "filter_run", "extension_point_end")]
    assert hooks == ["extension_point_start", "filter_run", "extension_point_end"]
    start, end = rec.of("extension_point_start")[0], rec.of("extension_point_end")[0]
    assert (start["extension_point"], start["node"], start["pod"].metadata.name) == ("Filter", "", "p")
    assert (end["extension_point"], end["code"], end["message"], end["results"]) == ("Filter", code, message, ())
    assert rec.of("filter_run")[0]["error"] == message
