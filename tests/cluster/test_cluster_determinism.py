"""Same operations twice -> identical watch-event sequence, objects and loop labels."""

from __future__ import annotations

import dataclasses

from cluster_fakes import FakeLoop, node, owner_ref, pod, replica_set
from kubesched.api.core import PodStatus
from kubesched.cluster import APIServer, Kubelet, ReplicaSetController


def _scenario():
    loop = FakeLoop()
    api = APIServer(loop)
    seen = []
    api.watch(lambda e: seen.append((loop.now(), e.type, e.kind, e.resource_version, e.obj)))
    Kubelet(api)
    ReplicaSetController(api)
    for n in ("n1", "n2"):
        api.create(node(n))
    rs = api.create(replica_set("web", {"app": "web"}))
    for i in range(3):
        api.create(pod(f"web-{i}", labels={"app": "web"}, owner=owner_ref(rs)))
    api.bind("default", "web-0", "n1")
    api.bind("default", "web-1", "n2")
    api.record_event(api.get("Pod", "default", "web-2"), "Warning", "FailedScheduling",
                     "0/2 nodes are available: 2 Insufficient cpu.")
    loop.run(until=5.0)
    api.delete("Pod", "default", "web-0")
    p = api.get("Pod", "default", "web-2")
    api.update_status(dataclasses.replace(p, status=PodStatus(phase="Pending", nominated_node_name="n1")))
    loop.run()
    return seen, api.list_all(), loop.labels


def test_same_operations_give_identical_sequences():
    first, second = _scenario(), _scenario()
    assert first == second
    events, objects, labels = first
    assert [(t, typ, kind, o.metadata.name) for t, typ, kind, _, o in events] == [
        (0.0, "ADDED", "Node", "n1"), (0.0, "ADDED", "Node", "n2"), (0.0, "ADDED", "ReplicaSet", "web"),
        (0.0, "ADDED", "Pod", "web-0"), (0.0, "ADDED", "Pod", "web-1"), (0.0, "ADDED", "Pod", "web-2"),
        (0.0, "MODIFIED", "Pod", "web-0"), (0.0, "MODIFIED", "Pod", "web-1"),
        (0.0, "ADDED", "Event", "web-2.0000000000000000"),
        (1.0, "MODIFIED", "Pod", "web-0"), (1.0, "MODIFIED", "Pod", "web-1"),  # kubelet: Running
        (5.0, "MODIFIED", "Pod", "web-0"),  # graceful delete starts
        (5.0, "MODIFIED", "Pod", "web-2"),  # nominated node
        (5.0, "ADDED", "Pod", "web-blw6x"),  # the ReplicaSet's replacement for web-0
        (35.0, "MODIFIED", "Pod", "web-0"), (35.0, "DELETED", "Pod", "web-0"),
    ]
    assert [rv for _, _, _, rv, _ in events] == [str(i) for i in range(1, len(events) + 1)]
    assert [label for _, label in labels] == [
        "kubelet: start pod default/web-0", "kubelet: start pod default/web-1",
        "controller: replace pod default/web-0", "kubelet: delete terminated pod default/web-0"]
    assert [o.metadata.name for o in objects] == ["web-2.0000000000000000", "n1", "n2", "web-1", "web-2",
                                                  "web-blw6x", "web"]
