"""The real cache and queue behind the informers: a pod's journey assume → bind → confirm (or expire)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from kubesched.api.core import Container, Node, Pod, PodSpec
from kubesched.api.meta import ObjectMeta
from kubesched.cluster import APIServer
from kubesched.scheduler.eventhandlers import add_all_event_handlers
from kubesched.scheduler.internal.cache.cache import new as new_cache
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.internal.queue.scheduling_queue import PriorityQueue
from kubesched.client.informers import InformerFactory
from kubesched.util.loop import EventLoop


class _Framework:
    def __init__(self) -> None:
        self.rejected: list[str] = []

    def reject_waiting_pod(self, uid: str) -> None:
        self.rejected.append(uid)


def _world(deliver_binding: bool = True):
    loop = EventLoop()
    api = APIServer(loop)
    api.create(Node(metadata=ObjectMeta(name="n1")))
    api.create(Pod(metadata=ObjectMeta(name="p", namespace="default"),
                   spec=PodSpec(containers=(Container(name="c", image="img"),), scheduler_name="default-scheduler")))
    framework = _Framework()
    sched = SimpleNamespace(scheduler_cache=new_cache(30.0, loop), scheduling_queue=PriorityQueue(clock=loop),
                            profiles={"default-scheduler": SimpleNamespace(framework=framework)},
                            volume_binder=None)
    factory = InformerFactory(api, loop)
    add_all_event_handlers(sched, factory)
    factory.start()
    loop.run(until=0.0)
    return loop, api, sched, factory, framework


def _schedule_and_bind(loop, api, sched, factory, deliver: bool):
    p_info = sched.scheduling_queue.pop()
    assumed = dataclasses.replace(p_info.pod, spec=dataclasses.replace(p_info.pod.spec, node_name="n1"))
    sched.scheduler_cache.assume_pod(assumed)
    if not deliver:
        factory.stop()  # the informer never sees the binding
    api.bind("default", "p", "n1")
    sched.scheduler_cache.finish_binding(assumed)
    return assumed


@pytest.mark.parametrize("deliver, in_cache_at_60", [(True, True), (False, False)],
                         ids=["confirmed-by-informer", "expires-without-informer-add"])
def test_assume_bind_confirm_or_expire(deliver, in_cache_at_60):
    loop, api, sched, factory, framework = _world()
    assert [p.metadata.name for p in sched.scheduling_queue.pending_pods()] == ["p"]
    assumed = _schedule_and_bind(loop, api, sched, factory, deliver)
    cache = sched.scheduler_cache
    assert cache.is_assumed_pod(assumed)
    loop.run(until=0.0)
    assert cache.is_assumed_pod(assumed) is not deliver
    assert framework.rejected == ([assumed.metadata.uid] if deliver else [])  # the queue side saw a delete
    loop.run(until=30.0)
    assert cache.pod_count() == 1  # deadline 30 s after finish_binding, swept strictly after
    loop.run(until=60.0)
    assert (cache.pod_count() == 1) is in_cache_at_60
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert len(snap.get("n1").pods) == (1 if in_cache_at_60 else 0)


def test_update_of_an_assumed_pod_that_only_changes_annotations_is_skipped():
    loop, api, sched, factory, framework = _world()
    p_info = sched.scheduling_queue.pop()
    assumed = dataclasses.replace(p_info.pod, spec=dataclasses.replace(p_info.pod.spec, node_name="n1"))
    sched.scheduler_cache.assume_pod(assumed)
    moves = []
    sched.scheduling_queue.on_move = lambda pod, src, dst, event: moves.append((src, dst, event))
    current = api.get("Pod", "default", "p")
    api.update(dataclasses.replace(current, metadata=dataclasses.replace(current.metadata, annotations={"a": "b"})))
    loop.run(until=0.0)
    assert sched.scheduling_queue.pending_pods() == [] and moves == []
    api.update(dataclasses.replace(current, metadata=dataclasses.replace(current.metadata, labels={"a": "b"},
                                                                         resource_version="")))
    loop.run(until=0.0)
    assert [p.metadata.name for p in sched.scheduling_queue.pending_pods()] == ["p"]
