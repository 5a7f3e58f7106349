"""The minimal ReplicaSet/RC controller: deleted owned pods come back pending (StatefulSets: test_cluster_statefulset)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from cluster_fakes import FakeLoop, owner_ref, pod, replica_set
from kubesched.api.meta import ObjectMeta
from kubesched.api.names import object_uid
from kubesched.api.scheduling import PriorityClass
from kubesched.cluster import APIServer, ReplicaSetController


def _setup(owner_factory, node_name="n1"):
    loop = FakeLoop()
    api = APIServer(loop)
    owner = api.create(owner_factory("web", {"app": "web"}))
    api.create(pod("web-abcde", node=node_name, labels={"app": "web"}, grace=10, owner=owner_ref(owner)))
    ReplicaSetController(api)
    return loop, api, owner


def _pods(api):
    return [(p.metadata.name, p.spec.node_name, p.metadata.deletion_timestamp is not None)
            for p in api.list("Pod")]


def test_replicaset_pod_is_replaced_as_soon_as_it_terminates():
    loop, api, owner = _setup(replica_set)
    api.delete("Pod", "default", "web-abcde")
    loop.run(until=0.0)
    pods = _pods(api)
    assert ("web-abcde", "n1", True) in pods and len(pods) == 2
    new_name = next(name for name, _, _ in pods if name != "web-abcde")
    assert re.match(r"^web-[bcdfghjklmnpqrstvwxz2456789]{5}$", new_name)
    new = api.get("Pod", "default", new_name)
    assert (new.status.phase, new.spec.node_name, dict(new.metadata.labels)) == ("Pending", "", {"app": "web"})
    ref = new.metadata.owner_references[0]
    assert (ref.kind, ref.name, ref.uid, ref.controller, ref.block_owner_deletion) == (
        "ReplicaSet", "web", owner.metadata.uid, True, True)
    loop.run()
    assert [p[0] for p in _pods(api)] == [new_name]


# pods that must not be replaced
NOT_REPLACED = [
    ("no owner", lambda owner: None),
    ("not controller", lambda owner: owner_ref(owner, controller=False)),
]


@pytest.mark.parametrize("name,ref", NOT_REPLACED, ids=[c[0] for c in NOT_REPLACED])
def test_pods_without_a_controlling_workload_are_not_replaced(name, ref):
    loop = FakeLoop()
    api = APIServer(loop)
    owner = api.create(replica_set("web", {"app": "web"}))
    ReplicaSetController(api)
    api.create(pod("solo", owner=ref(owner)))
    api.delete("Pod", "default", "solo")
    loop.run()
    assert api.list("Pod") == []


def test_pod_of_a_deleted_owner_is_not_replaced():
    loop, api, _ = _setup(replica_set)
    api.delete("ReplicaSet", "default", "web")
    api.delete("Pod", "default", "web-abcde", grace_period_seconds=0)
    loop.run()
    assert api.list("Pod") == []


def test_each_pod_is_replaced_once_and_names_are_deterministic():
    names = []
    for _ in range(2):
        loop, api, _ = _setup(replica_set, node_name="")
        api.delete("Pod", "default", "web-abcde")  # unbound: MODIFIED + DELETED, one replacement
        loop.run()
        first = api.list("Pod")[0].metadata.name
        api.delete("Pod", "default", first)
        loop.run()
        names.append([p.metadata.name for p in api.list("Pod")] + [first])
    assert names[0] == names[1]
    assert len(set(names[0])) == 2


def test_replacement_is_defaulted_with_the_priority_of_its_class():
    loop = FakeLoop()
    api = APIServer(loop)
    api.create(PriorityClass(metadata=ObjectMeta(name="high"), value=1000))
    rs = replica_set("web", {"app": "web"})
    rs = dataclasses.replace(rs, spec=dataclasses.replace(rs.spec, template=dataclasses.replace(
        rs.spec.template, spec=dataclasses.replace(rs.spec.template.spec, priority_class_name="high"))))
    owner = api.create(rs)
    ReplicaSetController(api)
    api.create(pod("web-old", owner=owner_ref(owner)))
    api.delete("Pod", "default", "web-old")
    loop.run()
    [new] = api.list("Pod")
    assert (new.spec.priority, new.spec.scheduler_name, new.spec.termination_grace_period_seconds) == (
        1000, "default-scheduler", 30)
    # the API server assigns the uid (not the loader's name-only hash)
    assert new.metadata.uid != object_uid("Pod", "default", new.metadata.name)
