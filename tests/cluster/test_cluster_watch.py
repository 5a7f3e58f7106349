"""Watch events: types, order, kinds filter, stop, re-entrant commits."""

from __future__ import annotations

import dataclasses

from cluster_fakes import FakeLoop, node, pod
from kubesched.api.core import PodStatus
from kubesched.cluster import APIServer


def _record(api, kinds=None):
    seen = []
    stop = api.watch(lambda e: seen.append((e.type, e.kind, e.obj.metadata.name, e.resource_version,
                                            None if e.old is None else e.old.metadata.resource_version)),
                     kinds=kinds)
    return seen, stop


def test_event_order_and_types_across_operations():
    loop = FakeLoop()
    api = APIServer(loop)
    seen, _ = _record(api)
    api.create(node("n1"))
    p = api.create(pod("a"))
    api.create(pod("b"))
    api.bind("default", "a", "n1")
    api.update_status(dataclasses.replace(api.get("Pod", "default", "b"),
                                          status=PodStatus(phase="Pending", nominated_node_name="n1")))
    api.delete("Pod", "default", "b")
    api.delete("Pod", "default", "a", grace_period_seconds=3)
    api.delete("Node", "", "n1")
    loop.run()
    assert seen == [
        ("ADDED", "Node", "n1", "1", None),
        ("ADDED", "Pod", "a", "2", None),
        ("ADDED", "Pod", "b", "3", None),
        ("MODIFIED", "Pod", "a", "4", "2"),
        ("MODIFIED", "Pod", "b", "5", "3"),
        ("MODIFIED", "Pod", "b", "6", "5"),
        ("DELETED", "Pod", "b", "7", "6"),
        ("MODIFIED", "Pod", "a", "8", "4"),
        ("DELETED", "Node", "n1", "9", "1"),
        ("MODIFIED", "Pod", "a", "10", "8"),
        ("DELETED", "Pod", "a", "11", "10"),
    ]
    assert p.metadata.name == "a"


def test_kinds_filter_and_stop():
    api = APIServer(FakeLoop())
    pods, stop = _record(api, kinds=["Pod"])
    api.create(node("n1"))
    api.create(pod("a"))
    stop()
    api.create(pod("b"))
    assert pods == [("ADDED", "Pod", "a", "2", None)]


def test_commits_made_by_a_handler_reach_every_watcher_in_commit_order():
    api = APIServer(FakeLoop())

    def react(event):
        if event.type == "ADDED" and event.obj.metadata.name == "a":
            api.create(pod("b"))

    api.watch(react)
    seen, _ = _record(api)
    api.create(pod("a"))
    assert [s[2] for s in seen] == ["a", "b"]


def test_snapshot_then_watch_sees_everything_once():
    api = APIServer(FakeLoop())
    api.create(pod("a"))
    snap = api.snapshot()
    seen, _ = _record(api)
    api.create(pod("b"))
    assert [o.metadata.name for o in snap.objects] + [s[2] for s in seen] == ["a", "b"]
    assert int(seen[0][3]) == int(snap.resource_version) + 1
