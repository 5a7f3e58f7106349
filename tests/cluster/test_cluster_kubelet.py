"""The minimal kubelet: bound pods become Running after POD_START_DELAY_SECONDS."""

from __future__ import annotations

import pytest

from cluster_fakes import FakeLoop, node, pod
from kubesched.api.core import PodCondition
from kubesched.cluster import APIServer, Kubelet
from kubesched.cluster.kubelet import POD_START_DELAY_SECONDS


def _cluster(t0=2.0):
    loop = FakeLoop(time=t0)
    api = APIServer(loop)
    api.create(node("n1"))
    return loop, api


def test_bound_pod_becomes_running_with_start_time_and_conditions():
    loop, api = _cluster()
    Kubelet(api)
    api.create(pod("web-1"))
    api.bind("default", "web-1", "n1")
    loop.run(until=2.0 + POD_START_DELAY_SECONDS - 0.5)
    assert api.get("Pod", "default", "web-1").status.phase == "Pending"
    loop.run()
    running = api.get("Pod", "default", "web-1")
    assert POD_START_DELAY_SECONDS == 1.0
    assert (running.status.phase, running.status.start_time) == ("Running", 3.0)
    assert running.status.conditions == (
        PodCondition(type="Initialized", status="True", last_transition_time=3.0),
        PodCondition(type="Ready", status="True", last_transition_time=3.0),
        PodCondition(type="ContainersReady", status="True", last_transition_time=3.0),
        PodCondition(type="PodScheduled", status="True", last_transition_time=2.0),
    )


# what happens to the pod before the kubelet acts -> expected phase (None: pod gone)
CASES = [
    ("deleted gracefully", lambda api: api.delete("Pod", "default", "web-1"), "Pending"),
    ("deleted at once", lambda api: api.delete("Pod", "default", "web-1", grace_period_seconds=0), None),
    ("replaced by a pending pod", lambda api: [api.delete("Pod", "default", "web-1", grace_period_seconds=0),
                                               api.create(pod("web-1"))], "Pending"),
]


@pytest.mark.parametrize("name,action,phase", CASES, ids=[c[0] for c in CASES])
def test_pod_being_deleted_is_not_started(name, action, phase):
    loop, api = _cluster()
    Kubelet(api)
    api.create(pod("web-1"))
    api.bind("default", "web-1", "n1")
    action(api)
    loop.run(until=2.5)
    pods = api.list("Pod")
    assert [p.status.phase for p in pods] == ([] if phase is None else [phase])


def test_pod_on_a_missing_node_stays_pending():
    loop, api = _cluster()
    Kubelet(api)
    api.create(pod("web-1"))
    api.bind("default", "web-1", "ghost")
    loop.run()
    assert api.get("Pod", "default", "web-1").status.phase == "Pending"


def test_pods_bound_before_the_kubelet_starts_are_started():
    loop, api = _cluster()
    api.create(pod("web-1", node="n1"))
    Kubelet(api)
    loop.run()
    assert api.get("Pod", "default", "web-1").status.start_time == 3.0


def test_stopped_kubelet_starts_nothing():
    loop, api = _cluster()
    kubelet = Kubelet(api)
    kubelet.stop()
    api.create(pod("web-1", node="n1"))
    loop.run()
    assert api.get("Pod", "default", "web-1").status.phase == "Pending"
