"""The pods/binding subresource."""

from __future__ import annotations

import dataclasses

import pytest

from cluster_fakes import FakeLoop, pod
from kubesched.api.core import PodCondition, PodStatus
from kubesched.cluster import APIServer, Conflict, NotFound


def test_binding_sets_node_name_and_pod_scheduled():
    loop = FakeLoop(time=7.0)
    api = APIServer(loop)
    api.create(pod("web-1"))
    bound = api.bind("default", "web-1", "n1")
    assert bound.spec.node_name == "n1"
    assert bound.status.conditions == (PodCondition(type="PodScheduled", status="True",
                                                    last_transition_time=7.0),)
    assert bound.metadata.resource_version == "2"
    assert api.get("Pod", "default", "web-1") == bound


def test_binding_replaces_an_unschedulable_condition():
    loop = FakeLoop(time=7.0)
    api = APIServer(loop)
    created = api.create(pod("web-1"))
    failed = PodCondition(type="PodScheduled", status="False", reason="Unschedulable",
                          message="0/1 nodes are available", last_transition_time=1.0)
    api.update_status(dataclasses.replace(created, status=PodStatus(phase="Pending", conditions=(failed,))))
    bound = api.bind("default", "web-1", "n1")
    assert bound.status.conditions == (PodCondition(type="PodScheduled", status="True",
                                                    last_transition_time=7.0),)


BIND_ERRORS = [
    ("twice", lambda api: [api.create(pod("web-1")), api.bind("default", "web-1", "n1"),
                           api.bind("default", "web-1", "n2")], Conflict,
     'Operation cannot be fulfilled on pods/binding "web-1": pod web-1 is already assigned to node "n1"'),
    ("created bound", lambda api: [api.create(pod("web-1", node="n3")), api.bind("default", "web-1", "n1")],
     Conflict,
     'Operation cannot be fulfilled on pods/binding "web-1": pod web-1 is already assigned to node "n3"'),
    ("missing", lambda api: api.bind("default", "web-1", "n1"), NotFound, 'pods "web-1" not found'),
    ("other namespace", lambda api: [api.create(pod("web-1")), api.bind("prod", "web-1", "n1")], NotFound,
     'pods "web-1" not found'),
]


@pytest.mark.parametrize("name,call,cls,message", BIND_ERRORS, ids=[c[0] for c in BIND_ERRORS])
def test_binding_errors(name, call, cls, message):
    api = APIServer(FakeLoop())
    with pytest.raises(cls) as info:
        call(api)
    assert (str(info.value), info.value.code) == (message, 409 if cls is Conflict else 404)


def test_binding_a_terminating_pod_is_a_conflict():
    loop = FakeLoop()
    api = APIServer(loop)
    api.create(pod("web-1", node="n1"))
    api.delete("Pod", "default", "web-1")  # bound, so it stays terminating for 30 s
    with pytest.raises(Conflict) as info:
        api.bind("default", "web-1", "n2")
    assert str(info.value) == ('Operation cannot be fulfilled on pods/binding "web-1": '
                               "pod web-1 is being deleted, cannot be assigned to a host")
