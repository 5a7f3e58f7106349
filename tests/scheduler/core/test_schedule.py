"""Schedule: order of checks, plain errors vs FitError, the single-node shortcut, the result."""

import pytest

from kubesched.conformance._harness import as_object
from kubesched.scheduler.core.generic_scheduler import (BasicCheckError, FitError, NoNodesAvailableError,
                                                        ScheduleResult)
from kubesched.scheduler.framework.v1alpha1.interface import Code, FrameworkError, Status
from tests.scheduler.core.support import Harness, Recorder, node, pod

FIT = {"preFilter": ["NodeResourcesFit"], "filter": ["NodeResourcesFit"]}


class Rec:
    """PreFilter/PreScore plugin that records calls and returns an injected status."""

    def __init__(self, name, status=None):
        self._name, self.status, self.calls = name, status, []

    def name(self):
        return self._name

    def pre_filter(self, state, p):
        self.calls.append("PreFilter")
        return self.status

    def pre_filter_extensions(self):
        return None

    def pre_score(self, state, p, nodes):
        self.calls.append(("PreScore", [n.metadata.name for n in nodes]))
        return self.status


def _pvc(name, deleting=False):
    meta = {"name": name, "namespace": "default"}
    if deleting:
        meta["deletionTimestamp"] = "2020-01-01T00:00:00Z"
    return as_object({"kind": "PersistentVolumeClaim", "metadata": meta}, "PersistentVolumeClaim")


def _claim(name):
    return {"name": "v", "persistentVolumeClaim": {"claimName": name}}


@pytest.mark.parametrize("objects, volumes, nodes, message", [
    ([], [_claim("missing")], ["n1"], 'persistentvolumeclaim "missing" not found'),
    ([_pvc("gone", deleting=True)], [_claim("gone")], ["n1"], 'persistentvolumeclaim "gone" is being deleted'),
    # the basic checks come before the snapshot: a missing PVC wins over "no nodes"
    ([], [_claim("missing")], [], 'persistentvolumeclaim "missing" not found'),
])
def test_basic_checks(objects, volumes, nodes, message):
    harness = Harness([node(n) for n in nodes], FIT, objects=objects)
    with pytest.raises(BasicCheckError, match=f"^{message}$"):
        harness.schedule(pod("p", volumes=volumes))


def test_existing_pvc_passes_and_no_nodes_is_an_error():
    harness = Harness([], FIT, objects=[_pvc("ok")])
    with pytest.raises(NoNodesAvailableError, match="^no nodes available to schedule pods$"):
        harness.schedule(pod("p", volumes=[_claim("ok")]))


@pytest.mark.parametrize("code", [Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.ERROR])
def test_prefilter_failure_is_a_plain_error(code):
    pre = Rec("Pre", Status(code, ("nope",)))
    harness = Harness([node("n1")], {"preFilter": ["Pre"], "filter": ["FakeFilter"]}, extra={"Pre": pre})
    with pytest.raises(FrameworkError) as info:
        harness.schedule(pod("p"))
    assert not isinstance(info.value, FitError)
    expected = ('rejected by "Pre" at prefilter: nope' if code != Code.ERROR
                else 'error while running "Pre" prefilter plugin for pod "p": nope')
    assert str(info.value) == expected
    assert harness.built.instances["FakeFilter"].num_filter_called == 0


def test_single_feasible_node_skips_scoring_but_runs_prescore():
    pre = Rec("Pre")
    plugins = {"preFilter": ["NodeResourcesFit"], "filter": ["NodeResourcesFit"], "preScore": ["Pre"],
               "score": [{"name": "FalseMap", "weight": 1}]}  # FalseMap would fail if it ran
    rec = Recorder()
    harness = Harness([node("a", cpu="1"), node("b"), node("c", cpu="1")], plugins, extra={"Pre": pre},
                      observer=rec)
    assert harness.schedule(pod("p", cpu="2")) == ScheduleResult("b", 1 + 2, 1)
    assert pre.calls == [("PreScore", ["b"])]
    assert rec.of("schedule_result")[0]["shortcut"] is True
    assert rec.of("score_run") == []


def test_prescore_failure_is_returned():
    pre = Rec("Pre", Status(Code.ERROR, ("boom",)))
    harness = Harness([node("a"), node("b")], {"preScore": ["Pre"]}, extra={"Pre": pre})
    with pytest.raises(FrameworkError, match='^error while running "Pre" prescore plugin for pod "p": boom$'):
        harness.schedule(pod("p"))


def test_fit_error_carries_all_statuses():
    harness = Harness([node("a", cpu="1"), node("b", cpu="500m")], FIT)
    with pytest.raises(FitError) as info:
        harness.schedule(pod("p", cpu="2"))
    err = info.value
    assert (err.num_all_nodes, err.pod.metadata.name) == (2, "p")
    assert str(err) == "0/2 nodes are available: 2 Insufficient cpu."
    assert set(err.filtered_nodes_statuses) == {"a", "b"}


def test_highest_score_wins_and_result_counts():
    plugins = {"preFilter": ["NodeResourcesFit"], "filter": ["NodeResourcesFit"],
               "score": [{"name": "NumericMap", "weight": 1}]}
    harness = Harness([node("3"), node("10", cpu="1"), node("7"), node("5")], plugins)
    assert harness.schedule(pod("p", cpu="2")) == ScheduleResult("7", 4, 3)


@pytest.mark.parametrize("seed", range(5))
def test_ties_follow_the_seed(seed):
    def run():
        harness = Harness([node(f"n{i}") for i in range(6)], FIT, seed=seed)
        return [harness.schedule(pod(f"p{i}")).suggested_host for i in range(3)]
    assert run() == run()
