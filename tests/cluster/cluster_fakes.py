"""Test helpers for kubesched.cluster: a deterministic fake loop and object builders."""

from __future__ import annotations

import dataclasses
import heapq
import itertools
from dataclasses import dataclass, field
from typing import Callable, Optional

from kubesched.api.apps import ReplicaSet, ReplicaSetSpec
from kubesched.api.core import Container, Node, Pod, PodSpec, PodTemplateSpec
from kubesched.api.meta import LabelSelector, ObjectMeta, OwnerReference
from tests.testing.wrappers import make_node, make_pod


@dataclass(slots=True)
class FakeHandle:
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeLoop:
    """A heap of (time, priority, seq, callback); ``run()`` drains it in order."""

    time: float = 0.0
    _heap: list = field(default_factory=list)
    _seq: itertools.count = field(default_factory=itertools.count)
    labels: list = field(default_factory=list)

    def now(self) -> float:
        return self.time

    def call_later(self, delay: float, callback: Callable[[], None], *, priority: int = 0,
                   label: str = "") -> FakeHandle:
        handle = FakeHandle()
        heapq.heappush(self._heap, (self.time + delay, priority, next(self._seq), callback, handle, label))
        return handle

    def run(self, until: Optional[float] = None) -> None:
        while self._heap and (until is None or self._heap[0][0] <= until):
            when, _, _, callback, handle, label = heapq.heappop(self._heap)
            self.time = when
            if not handle.cancelled:
                self.labels.append((when, label))
                callback()
        if until is not None:
            self.time = max(self.time, until)

    def pending(self) -> int:
        return sum(1 for entry in self._heap if not entry[4].cancelled)


def pod(name: str, namespace: str = "default", node: str = "", labels: Optional[dict] = None,
        grace: Optional[int] = None, owner: Optional[OwnerReference] = None) -> Pod:
    w = make_pod().name(name).namespace(namespace).labels(labels).container("c", image="nginx:1").node(node)
    made = w.set("spec", terminationGracePeriodSeconds=grace).obj()
    if owner is None:
        return made
    return dataclasses.replace(made, metadata=dataclasses.replace(made.metadata, owner_references=(owner,)))


def node(name: str) -> Node:
    return make_node().name(name).obj()


def template(labels: dict) -> PodTemplateSpec:
    return PodTemplateSpec(metadata=ObjectMeta(labels=labels),
                           spec=PodSpec(containers=(Container(name="c", image="nginx:1"),)))


def replica_set(name: str, labels: dict) -> ReplicaSet:
    return ReplicaSet(metadata=ObjectMeta(name=name, namespace="default"),
                      spec=ReplicaSetSpec(replicas=2, selector=LabelSelector(match_labels=labels),
                                          template=template(labels)))


def owner_ref(owner, controller: bool = True) -> OwnerReference:
    return OwnerReference(api_version=type(owner).API_VERSION, kind=type(owner).KIND,
                          name=owner.metadata.name, uid=owner.metadata.uid, controller=controller)
