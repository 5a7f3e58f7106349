"""Graceful pod deletion on the loop, immediate deletion of unbound pods and other kinds."""

from __future__ import annotations

import dataclasses

import pytest

from cluster_fakes import FakeLoop, node, pod
from kubesched.api.core import PodStatus
from kubesched.cluster import APIServer, NotFound


def _timeline(api: APIServer, loop: FakeLoop):
    seen = []
    api.watch(lambda e: seen.append((loop.now(), e.type, e.obj.metadata.name,
                                     e.obj.metadata.deletion_timestamp,
                                     e.obj.metadata.deletion_grace_period_seconds)))
    return seen


# (pod node, pod terminationGracePeriodSeconds, delete grace, phase, expected events after the call)
CASES = [
    ("bound, pod default 30s", "n1", None, None, "Running",
     [(10.0, "MODIFIED", 40.0, 30), (40.0, "MODIFIED", 10.0, 0), (40.0, "DELETED", 10.0, 0)]),
    ("bound, spec grace 5", "n1", 5, None, "Running",
     [(10.0, "MODIFIED", 15.0, 5), (15.0, "MODIFIED", 10.0, 0), (15.0, "DELETED", 10.0, 0)]),
    ("bound, option grace 2 wins", "n1", 5, 2, "Running",
     [(10.0, "MODIFIED", 12.0, 2), (12.0, "MODIFIED", 10.0, 0), (12.0, "DELETED", 10.0, 0)]),
    ("bound, grace 0", "n1", 5, 0, "Running",
     [(10.0, "MODIFIED", 10.0, 0), (10.0, "DELETED", 10.0, 0)]),
    ("unbound: at once", "", 30, None, "Pending",
     [(10.0, "MODIFIED", 10.0, 0), (10.0, "DELETED", 10.0, 0)]),
    ("unbound, option grace ignored", "", 30, 20, "Pending",
     [(10.0, "MODIFIED", 10.0, 0), (10.0, "DELETED", 10.0, 0)]),
    ("succeeded: at once", "n1", 30, None, "Succeeded",
     [(10.0, "MODIFIED", 10.0, 0), (10.0, "DELETED", 10.0, 0)]),
]


@pytest.mark.parametrize("name,node_name,spec_grace,grace,phase,expected", CASES, ids=[c[0] for c in CASES])
def test_pod_delete_timeline(name, node_name, spec_grace, grace, phase, expected):
    loop = FakeLoop()
    api = APIServer(loop)
    created = api.create(pod("web-1", node=node_name, grace=spec_grace))
    api.update_status(dataclasses.replace(created, status=PodStatus(phase=phase)))
    loop.run(until=10.0)
    seen = _timeline(api, loop)
    api.delete("Pod", "default", "web-1", grace_period_seconds=grace)
    loop.run()
    assert [(t, typ, ts, g) for t, typ, _, ts, g in seen] == expected
    with pytest.raises(NotFound):
        api.get("Pod", "default", "web-1")


def test_terminating_pod_is_visible_until_grace_elapses():
    loop = FakeLoop()
    api = APIServer(loop)
    api.create(pod("web-1", node="n1", grace=10))
    terminating = api.delete("Pod", "default", "web-1")
    assert (terminating.metadata.deletion_timestamp, terminating.metadata.generation) == (10.0, 2)
    loop.run(until=9.5)
    assert api.get("Pod", "default", "web-1") == terminating
    loop.run(until=10.0)
    assert api.list("Pod") == []


SHORTEN_CASES = [
    # second delete grace, expected events after the second call
    ("longer is a no-op", 50, [(30.0, "MODIFIED", 0.0, 0), (30.0, "DELETED", 0.0, 0)]),
    ("none is a no-op", None, [(30.0, "MODIFIED", 0.0, 0), (30.0, "DELETED", 0.0, 0)]),
    ("shorter moves the removal", 5,
     [(4.0, "MODIFIED", 5.0, 5), (5.0, "MODIFIED", 0.0, 0), (5.0, "DELETED", 0.0, 0)]),
    ("zero removes now", 0, [(4.0, "MODIFIED", 0.0, 0), (4.0, "DELETED", 0.0, 0)]),
]


@pytest.mark.parametrize("name,grace,expected", SHORTEN_CASES, ids=[c[0] for c in SHORTEN_CASES])
def test_second_delete_may_only_shorten_the_grace_period(name, grace, expected):
    loop = FakeLoop()
    api = APIServer(loop)
    api.create(pod("web-1", node="n1"))
    api.delete("Pod", "default", "web-1")
    loop.run(until=4.0)
    seen = _timeline(api, loop)
    api.delete("Pod", "default", "web-1", grace_period_seconds=grace)
    loop.run()
    assert [(t, typ, ts, g) for t, typ, _, ts, g in seen] == expected


def test_recreated_pod_is_not_removed_by_the_old_timer():
    loop = FakeLoop()
    api = APIServer(loop)
    api.create(pod("web-1", node="n1", grace=10))
    api.delete("Pod", "default", "web-1", grace_period_seconds=0)
    api.create(pod("web-1", node="n1", grace=10))
    loop.run()
    assert api.get("Pod", "default", "web-1").metadata.deletion_timestamp is None


@pytest.mark.parametrize("kind,obj", [("Node", node("n1"))])
def test_other_kinds_are_removed_at_once(kind, obj):
    loop = FakeLoop(time=3.0)
    api = APIServer(loop)
    api.create(obj)
    seen = _timeline(api, loop)
    gone = api.delete(kind, "", "n1", grace_period_seconds=30)
    assert [(t, typ, name) for t, typ, name, _, _ in seen] == [(3.0, "DELETED", "n1")]
    assert (gone.metadata.resource_version, loop.pending()) == ("2", 0)
