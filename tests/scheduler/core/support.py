"""Builders shared by the generic-scheduler tests: nodes, pods, a scheduler over a real cache."""

from __future__ import annotations

import random
from typing import Any, Optional, Sequence

from kubesched.conformance.fakes_core import BuiltFramework, build_framework
from kubesched.scheduler.core.generic_scheduler import GenericScheduler
from kubesched.scheduler.internal.cache.cache import SchedulerCache
from kubesched.scheduler.internal.cache.snapshot import new_empty_snapshot
from kubesched.scheduler.internal.queue.scheduling_queue import PriorityQueue
from kubesched.client.listers.informer_listers import InformerListers
from tests.testing.wrappers import make_node, make_pod

BASE_PLUGINS = {"queueSort": "PrioritySort", "bind": "DefaultBinder"}


class Clock:
    def now(self) -> float:
        return 0.0


class Profile:
    def __init__(self, framework: Any) -> None:
        self.framework = framework


class Recorder:
    """An observer that records every hook call as (hook, fields)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def __getattr__(self, hook: str):
        if hook.startswith("_"):
            raise AttributeError(hook)
        return lambda **fields: self.calls.append((hook, fields))

    def of(self, hook: str) -> list[dict]:
        return [fields for name, fields in self.calls if name == hook]


def node(name: str, cpu: str = "4", memory: str = "8Gi", pods: str = "110", labels: Optional[dict] = None):
    return make_node().name(name).labels(labels).capacity({"cpu": cpu, "memory": memory, "pods": pods}).obj()


def pod(name: str, cpu: Optional[str] = None, priority: Optional[int] = None, node_name: str = "",
        labels: Optional[dict] = None, affinity: Optional[dict] = None, uid: Optional[str] = None,
        volumes: Sequence[dict] = (), namespace: str = "default"):
    w = make_pod().name(name).namespace(namespace).uid(uid or name).labels(labels)
    w.container("c", None if cpu is None else {"cpu": cpu}, image="busybox")
    if priority is not None:
        w.priority(priority)
    if node_name:
        w.node(node_name)
    if affinity:
        w.affinity(affinity)
    if volumes:
        w.volumes(list(volumes))
    return w.obj()


class Harness:
    """A GenericScheduler over a real cache, queue and snapshot, with one profile."""

    def __init__(self, nodes: Sequence[Any], plugins: dict, *, pods: Sequence[Any] = (), extenders=(),
                 percentage: int = 0, seed: int = 0, objects: Sequence[Any] = (), observer: Any = None,
                 extra: Optional[dict] = None) -> None:
        clock = Clock()
        self.cache = SchedulerCache(0.0, clock=clock)
        for p in pods:
            self.cache.add_pod(p)
        for n in nodes:
            self.cache.add_node(n)
        self.snapshot = new_empty_snapshot()
        self.built: BuiltFramework = build_framework({**BASE_PLUGINS, **plugins}, extra,
                                                         snapshot_shared_lister=self.snapshot)
        self.profile = Profile(self.built.framework)
        self.queue = PriorityQueue(clock=clock)
        self.sched = GenericScheduler(self.cache, self.snapshot, list(extenders), percentage, False,
                                      InformerListers(objects), random.Random(seed), observer,
                                      scheduling_queue=self.queue)

    def schedule(self, p: Any, state: Any = None):
        from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
        return self.sched.schedule(self.profile, state or CycleState(), p)
