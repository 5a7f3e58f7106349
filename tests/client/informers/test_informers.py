"""Informers on the loop: initial list, delivery through the heap, pod filtering, listers.

Upstream behaviour: client-go FilteringResourceEventHandler and the scheduler's pod
informer (non-terminal pods only) as wired by addAllEventHandlers.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.scheduler.eventhandler_fakes import FakeScheduler
from kubesched.api.core import Node, PersistentVolume, PersistentVolumeClaim, Pod, PodStatus, Service
from kubesched.api.meta import ObjectMeta
from kubesched.api.storage import CSINode, StorageClass
from kubesched.cluster import APIServer
from kubesched.scheduler.eventhandlers import add_all_event_handlers
from kubesched.client.informers import (FilteringResourceEventHandler, InformerFactory, ResourceEventHandlerFuncs)
from kubesched.util.loop import EventLoop
from tests.testing.wrappers import make_node, make_pod


def mk_pod(name: str, node: str = "", scheduler: str = "default-scheduler", ns: str = "default") -> Pod:
    return make_pod().name(name).namespace(ns).container("c", image="img").node(node).scheduler_name(scheduler).obj()


def mk_node(name: str) -> Node:
    return make_node().name(name).obj()


def setup(objects=(), profiles=("default-scheduler",), unschedulable=0):
    loop = EventLoop()
    api = APIServer(loop)
    for obj in objects:
        api.create(obj)
    sched = FakeScheduler(profiles=profiles, unschedulable=unschedulable)
    factory = InformerFactory(api, loop)
    add_all_event_handlers(sched, factory)
    factory.start()
    return loop, api, sched, factory


def test_initial_list_is_delivered_through_the_loop_in_a_fixed_order():
    loop, api, sched, factory = setup([mk_pod("b"), mk_node("n2"), mk_pod("a", node="n1"), mk_node("n1"),
                                       Service(metadata=ObjectMeta(name="s", namespace="default"))])
    assert sched.rec.calls == [] and not factory.has_synced()   # nothing runs synchronously
    loop.run(until=0.0)
    assert factory.has_synced()
    assert sched.rec.calls == [
        ("cache.add_node", "n1"), ("queue.move_all", "NodeAdd"),
        ("cache.add_node", "n2"), ("queue.move_all", "NodeAdd"),
        ("queue.move_all", "ServiceAdd"),
        ("cache.add_pod", "a"), ("queue.assigned_pod_added", "a"),
        ("queue.add", "b"),
    ]
    assert [s.metadata.name for s in factory.listers.services("default")] == ["s"]


def test_watch_events_reach_handlers_only_when_the_loop_runs():
    loop, api, sched, factory = setup()
    loop.run(until=0.0)
    api.create(mk_node("n1"))
    api.create(mk_pod("p"))
    assert sched.rec.calls == []
    assert [e.label for e in loop.pending()] == ["informer ADDED Node n1", "informer ADDED Pod default/p"]
    loop.run(until=0.0)
    assert sched.rec.calls == [("cache.add_node", "n1"), ("queue.move_all", "NodeAdd"), ("queue.add", "p")]


def test_binding_is_seen_as_queue_delete_plus_cache_add():
    loop, api, sched, factory = setup([mk_node("n1"), mk_pod("p")])
    loop.run(until=0.0)
    sched.rec.calls.clear()
    api.bind("default", "p", "n1")
    loop.run(until=0.0)
    assert sched.rec.calls == [
        ("cache.add_pod", "p"), ("queue.assigned_pod_added", "p"),
        ("queue.delete", "p"), ("binder.delete_pod_bindings", "p"),
        ("framework[default-scheduler].reject_waiting_pod", factory.informer("Pod").get("default", "p").metadata.uid),
    ]


@pytest.mark.parametrize("scheduler, want", [
    ("default-scheduler", [("queue.add", "p")]),
    ("batch", [("queue.add", "p")]),
    ("someone-else", []),
])
def test_unassigned_pods_of_other_schedulers_are_ignored(scheduler, want):
    loop, api, sched, factory = setup(profiles=("default-scheduler", "batch"))
    api.create(mk_pod("p", scheduler=scheduler))
    loop.run(until=0.0)
    assert sched.rec.calls == want


def test_pod_updates_and_deletes():
    loop, api, sched, factory = setup([mk_node("n1"), mk_pod("q"), mk_pod("r", node="n1")])
    loop.run(until=0.0)
    sched.rec.calls.clear()
    q = api.get("Pod", "default", "q")
    api.update(dataclasses.replace(q, metadata=dataclasses.replace(q.metadata, labels={"x": "1"})))
    r = api.get("Pod", "default", "r")
    api.update(dataclasses.replace(r, metadata=dataclasses.replace(r.metadata, labels={"x": "1"})))
    api.delete("Pod", "default", "r", grace_period_seconds=0)
    loop.run(until=0.0)
    assert sched.rec.calls == [
        ("queue.update", "q", "q"),
        ("cache.update_pod", "r", "r"), ("queue.assigned_pod_updated", "r"),
        ("cache.update_pod", "r", "r"), ("queue.assigned_pod_updated", "r"),  # deletionTimestamp set
        ("cache.remove_pod", "r"), ("queue.move_all", "AssignedPodDelete"),
    ]


def test_update_delivers_the_informers_previous_copy_as_old():
    loop, api, sched, factory = setup([mk_pod("q")])
    loop.run(until=0.0)
    seen = []
    factory.add_event_handler("Pod", ResourceEventHandlerFuncs(
        update_func=lambda old, new: seen.append((old.metadata.labels.get("v"), new.metadata.labels.get("v")))))
    for v in ("1", "2"):
        q = api.get("Pod", "default", "q")
        api.update(dataclasses.replace(q, metadata=dataclasses.replace(q.metadata, labels={"v": v})))
    loop.run(until=0.0)
    assert seen == [(None, "1"), ("1", "2")]


def test_terminal_pods_are_invisible_to_the_pod_informer():
    done = dataclasses.replace(mk_pod("done", node="n1"), status=PodStatus(phase="Succeeded"))
    loop, api, sched, factory = setup([mk_node("n1"), done, mk_pod("run", node="n1")])
    loop.run(until=0.0)
    assert ("cache.add_pod", "done") not in sched.rec.calls
    sched.rec.calls.clear()
    deleted = []
    factory.add_event_handler("Pod", ResourceEventHandlerFuncs(delete_func=lambda p: deleted.append(p.status.phase)))
    run = api.get("Pod", "default", "run")
    api.update_status(dataclasses.replace(run, status=dataclasses.replace(run.status, phase="Failed")))
    loop.run(until=0.0)
    assert sched.rec.calls == [("cache.remove_pod", "run"), ("queue.move_all", "AssignedPodDelete")]
    assert factory.informer("Pod").list() == []
    assert factory.delivered[-1] == ("DELETED", "Pod", "default", "run")
    assert deleted == [run.status.phase] != ["Failed"]  # deleted with its previous content


def test_node_update_and_delete():
    loop, api, sched, factory = setup([mk_node("n1")], unschedulable=1)
    loop.run(until=0.0)
    sched.rec.calls.clear()
    n1 = api.get("Node", "", "n1")
    api.update(dataclasses.replace(n1, metadata=dataclasses.replace(n1.metadata, labels={"zone": "a"})))
    api.delete("Node", "", "n1")
    loop.run(until=0.0)
    assert sched.rec.calls == [("cache.update_node", "n1", "n1"), ("queue.move_all", "NodeLabelChange"),
                               ("cache.remove_node", "n1")]


def test_volume_objects_move_pods_and_fill_the_listers():
    loop, api, sched, factory = setup()
    loop.run(until=0.0)
    api.create(PersistentVolume(metadata=ObjectMeta(name="pv")))
    api.create(PersistentVolumeClaim(metadata=ObjectMeta(name="pvc", namespace="default")))
    api.create(StorageClass(metadata=ObjectMeta(name="late"), provisioner="p",
                            volume_binding_mode="WaitForFirstConsumer"))
    api.create(StorageClass(metadata=ObjectMeta(name="now"), provisioner="p", volume_binding_mode="Immediate"))
    api.create(CSINode(metadata=ObjectMeta(name="n1")))
    assert factory.listers.persistent_volume("pv") is None   # not delivered yet
    loop.run(until=0.0)
    assert sched.rec.calls == [("queue.move_all", e) for e in ("PvAdd", "PvcAdd", "StorageClassAdd", "CSINodeAdd")]
    assert (factory.listers.persistent_volume("pv").metadata.name,
            factory.listers.persistent_volume_claim("default", "pvc").metadata.name,
            factory.listers.storage_class("now").metadata.name,
            factory.listers.csi_node("n1").metadata.name) == ("pv", "pvc", "now", "n1")
    api.delete("PersistentVolume", "", "pv")
    loop.run(until=0.0)
    assert factory.listers.persistent_volume("pv") is None
    assert sched.rec.calls[-1] == ("queue.move_all", "CSINodeAdd")  # PV delete has no handler


@pytest.mark.parametrize("old_in, new_in, want", [
    (True, True, ["update"]), (False, True, ["add"]), (True, False, ["delete"]), (False, False, []),
])
def test_filtering_handler_update_semantics(old_in, new_in, want):
    seen = []
    handler = FilteringResourceEventHandler(lambda obj: obj["in"], ResourceEventHandlerFuncs(
        lambda o: seen.append("add"), lambda o, n: seen.append("update"), lambda o: seen.append("delete")))
    handler.on_update({"in": old_in}, {"in": new_in})
    assert seen == want


def test_informer_priority_orders_same_time_callbacks():
    loop = EventLoop()
    api = APIServer(loop)
    order = []
    factory = InformerFactory(api, loop, priority=5)
    factory.add_event_handler("Node", ResourceEventHandlerFuncs(lambda n: order.append("informer")))
    factory.start()
    api.create(mk_node("n1"))
    loop.call_later(0, lambda: order.append("other"), priority=0)
    loop.run(until=0.0)
    assert order == ["other", "informer"]
