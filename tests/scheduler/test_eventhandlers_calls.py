"""Event handlers: which cache / queue / framework calls and event names each change produces.

Upstream: pkg/scheduler/eventhandlers.go @ v1.18.5 and TestSkipPodUpdate,
TestNodeAllocatableChanged, TestNodeLabelsChanged, TestNodeTaintsChanged,
TestNodeConditionsChanged in eventhandlers_test.go.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.scheduler.eventhandler_fakes import FakeScheduler, node, pod
from kubesched.api.core import NodeCondition, PodCondition, Taint
from kubesched.api.quantity import Quantity
from kubesched.api.storage import StorageClass
from kubesched.api.meta import ObjectMeta
from kubesched.scheduler.eventhandlers import (EventHandlers, node_scheduling_properties_change)
from kubesched.scheduler.internal.queue import events

P, BOUND = pod("p"), pod("p", node="n1")
N = node()
SC_WAIT = StorageClass(metadata=ObjectMeta(name="wait"), provisioner="x", volume_binding_mode="WaitForFirstConsumer")
SC_IMMEDIATE = StorageClass(metadata=ObjectMeta(name="now"), provisioner="x", volume_binding_mode="Immediate")
SC_UNSET = StorageClass(metadata=ObjectMeta(name="unset"), provisioner="x")


@pytest.mark.parametrize("name, call, want", [
    ("addNodeToCache", lambda h: h.add_node_to_cache(N), [("cache.add_node", "n1"), ("queue.move_all", "NodeAdd")]),
    ("deleteNodeFromCache", lambda h: h.delete_node_from_cache(N), [("cache.remove_node", "n1")]),
    ("addPodToCache", lambda h: h.add_pod_to_cache(BOUND),
     [("cache.add_pod", "p"), ("queue.assigned_pod_added", "p")]),
    ("updatePodInCache", lambda h: h.update_pod_in_cache(BOUND, BOUND),
     [("cache.update_pod", "p", "p"), ("queue.assigned_pod_updated", "p")]),
    ("deletePodFromCache", lambda h: h.delete_pod_from_cache(BOUND),
     [("cache.remove_pod", "p"), ("queue.move_all", "AssignedPodDelete")]),
    ("addPodToSchedulingQueue", lambda h: h.add_pod_to_scheduling_queue(P), [("queue.add", "p")]),
    ("updatePodInSchedulingQueue", lambda h: h.update_pod_in_scheduling_queue(P, P), [("queue.update", "p", "p")]),
    ("deletePodFromSchedulingQueue", lambda h: h.delete_pod_from_scheduling_queue(P),
     [("queue.delete", "p"), ("binder.delete_pod_bindings", "p"),
      ("framework[default-scheduler].reject_waiting_pod", "uid-p")]),
    ("onPvAdd", lambda h: h.on_pv_add(None), [("queue.move_all", "PvAdd")]),
    ("onPvUpdate", lambda h: h.on_pv_update(None, None), [("queue.move_all", "PvUpdate")]),
    ("onPvcAdd", lambda h: h.on_pvc_add(None), [("queue.move_all", "PvcAdd")]),
    ("onPvcUpdate", lambda h: h.on_pvc_update(None, None), [("queue.move_all", "PvcUpdate")]),
    ("onStorageClassAdd WaitForFirstConsumer", lambda h: h.on_storage_class_add(SC_WAIT),
     [("queue.move_all", "StorageClassAdd")]),
    ("onStorageClassAdd Immediate", lambda h: h.on_storage_class_add(SC_IMMEDIATE), []),
    ("onStorageClassAdd unset mode", lambda h: h.on_storage_class_add(SC_UNSET), []),
    ("onServiceAdd", lambda h: h.on_service_add(None), [("queue.move_all", "ServiceAdd")]),
    ("onServiceUpdate", lambda h: h.on_service_update(None, None), [("queue.move_all", "ServiceUpdate")]),
    ("onServiceDelete", lambda h: h.on_service_delete(None), [("queue.move_all", "ServiceDelete")]),
    ("onCSINodeAdd", lambda h: h.on_csi_node_add(None), [("queue.move_all", "CSINodeAdd")]),
    ("onCSINodeUpdate", lambda h: h.on_csi_node_update(None, None), [("queue.move_all", "CSINodeUpdate")]),
], ids=lambda v: v if isinstance(v, str) else None)
def test_handler_calls(name, call, want):
    sched = FakeScheduler()
    call(EventHandlers(sched))
    assert sched.rec.calls == want


def test_delete_from_queue_without_binder_or_profile():
    sched = FakeScheduler(binder=False)
    logs = []
    EventHandlers(sched, lambda level, msg: logs.append((level, msg))).delete_pod_from_scheduling_queue(
        pod("p", scheduler="other"))
    assert sched.rec.calls == [("queue.delete", "p")]
    assert logs == [("error", 'profile not found for scheduler name "other"')]


def test_delete_from_queue_rejects_in_the_pods_own_profile():
    sched = FakeScheduler(profiles=("default-scheduler", "batch"))
    EventHandlers(sched).delete_pod_from_scheduling_queue(pod("p", scheduler="batch"))
    assert sched.rec.calls[-1] == ("framework[batch].reject_waiting_pod", "uid-p")


@pytest.mark.parametrize("fail, call, want_calls", [
    ("add_node", lambda h: h.add_node_to_cache(N), [("cache.add_node", "n1"), ("queue.move_all", "NodeAdd")]),
    ("add_pod", lambda h: h.add_pod_to_cache(BOUND), [("cache.add_pod", "p"), ("queue.assigned_pod_added", "p")]),
    ("remove_pod", lambda h: h.delete_pod_from_cache(BOUND),
     [("cache.remove_pod", "p"), ("queue.move_all", "AssignedPodDelete")]),
], ids=["add_node", "add_pod", "remove_pod"])
def test_cache_errors_are_logged_and_the_queue_still_told(fail, call, want_calls):
    sched = FakeScheduler(fail=fail)
    logs = []
    call(EventHandlers(sched, lambda level, msg: logs.append(msg)))
    assert sched.rec.calls == want_calls
    assert logs == [f"scheduler cache {''.join(w.title() for w in fail.split('_'))} failed: {fail} refused"]


def _n(**changes):
    return node(**changes)


@pytest.mark.parametrize("name, new, want", [
    ("no change", _n(), ""),
    ("heartbeat only (condition reason/message)", _n(status__conditions=(
        NodeCondition(type="Ready", status="True", reason="Other", message="m"),)), ""),
    ("becomes unschedulable", _n(spec__unschedulable=True), ""),
    ("allocatable", _n(status__allocatable={"cpu": Quantity.parse("2")}), events.NODE_ALLOCATABLE_CHANGE),
    ("allocatable same value other text", _n(status__allocatable={"cpu": Quantity.parse("1000m")}), ""),
    ("labels", _n(metadata__labels={"a": "2"}), events.NODE_LABEL_CHANGE),
    ("taints", _n(spec__taints=(Taint(key="k", effect="NoSchedule"),)), events.NODE_TAINT_CHANGE),
    ("conditions", _n(status__conditions=(NodeCondition(type="Ready", status="False"),)),
     events.NODE_CONDITION_CHANGE),
    ("condition added", _n(status__conditions=(NodeCondition(type="Ready", status="True"),
                                               NodeCondition(type="DiskPressure", status="False"))),
     events.NODE_CONDITION_CHANGE),
    ("allocatable wins over labels and taints", _n(status__allocatable={}, metadata__labels={},
                                                   spec__taints=(Taint(key="k", effect="NoSchedule"),)),
     events.NODE_ALLOCATABLE_CHANGE),
    ("labels win over taints and conditions", _n(metadata__labels={}, spec__taints=(Taint(key="k"),),
                                                 status__conditions=()), events.NODE_LABEL_CHANGE),
    ("taints win over conditions", _n(spec__taints=(Taint(key="k"),), status__conditions=()),
     events.NODE_TAINT_CHANGE),
], ids=lambda v: v if isinstance(v, str) and v[:1].islower() and v not in ("",) and not v[:1].isupper() else None)
def test_node_scheduling_properties_change(name, new, want):
    assert node_scheduling_properties_change(new, node()) == want


def test_becoming_schedulable_wins_over_everything():
    old = node(spec__unschedulable=True)
    new = node(spec__unschedulable=False, status__allocatable={}, metadata__labels={})
    assert node_scheduling_properties_change(new, old) == events.NODE_SPEC_UNSCHEDULABLE_CHANGE


@pytest.mark.parametrize("unschedulable, new, want", [
    (0, node(metadata__labels={"b": "1"}), [("cache.update_node", "n1", "n1"), ("queue.move_all", "Unknown")]),
    (0, node(), [("cache.update_node", "n1", "n1"), ("queue.move_all", "Unknown")]),
    (2, node(metadata__labels={"b": "1"}), [("cache.update_node", "n1", "n1"), ("queue.move_all", "NodeLabelChange")]),
    (2, node(spec__unschedulable=True), [("cache.update_node", "n1", "n1")]),
], ids=["no-unschedulable-pods", "no-unschedulable-pods-no-change", "label-change", "becomes-unschedulable"])
def test_update_node_in_cache(unschedulable, new, want):
    sched = FakeScheduler(unschedulable=unschedulable)
    EventHandlers(sched).update_node_in_cache(node(), new)
    assert sched.rec.calls == want


ASSUMED = dataclasses.replace(pod("p", node="n1"), metadata=dataclasses.replace(
    pod("p").metadata, resource_version="5", annotations={"a": "b"}, finalizers=("f",)))


def _changed(**kw):
    meta = {k: v for k, v in kw.items() if k in ("resource_version", "annotations", "finalizers", "labels")}
    spec = {k: v for k, v in kw.items() if k in ("node_name", "priority")}
    status = {k: v for k, v in kw.items() if k in ("conditions", "phase")}
    p = pod("p")
    return dataclasses.replace(p, metadata=dataclasses.replace(p.metadata, **meta),
                               spec=dataclasses.replace(p.spec, **spec),
                               status=dataclasses.replace(p.status, **status))


@pytest.mark.parametrize("name, assumed, update, skip", [
    ("Non-assumed pod", None, _changed(resource_version="6"), False),
    ("with changes on ResourceVersion, Spec.NodeName and/or Annotations",
     ASSUMED, _changed(resource_version="6", annotations={"c": "d"}), True),
    ("with changes on Finalizers and Status.Conditions", ASSUMED,
     _changed(node_name="n1", finalizers=("g",), conditions=(PodCondition(type="PodScheduled", status="True"),)),
     True),
    ("with changes on Labels", ASSUMED, _changed(labels={"x": "y"}), False),
    ("with changes on Spec.Priority", ASSUMED, _changed(priority=5), False),
    ("with changes on Status.Phase", ASSUMED, _changed(phase="Running"), False),
], ids=lambda v: v if isinstance(v, str) else None)
def test_skip_pod_update(name, assumed, update, skip):
    """Upstream: TestSkipPodUpdate."""
    sched = FakeScheduler(assumed=assumed)
    handlers = EventHandlers(sched)
    assert handlers.skip_pod_update(update) is skip
    handlers.update_pod_in_scheduling_queue(pod("p"), update)
    assert sched.rec.calls == ([] if skip else [("queue.update", "p", "p")])
