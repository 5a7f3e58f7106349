"""A simulated cluster for scenario tests: API server, kubelet, controller manager, scheduler.

Everything is real (informers, queue, cache, plugins, generic scheduler, preemption) and
runs on one EventLoop; ``events()`` is the full list of API Events, the run's fingerprint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from kubesched.api.core import Node, NodeSpec, NodeStatus, Pod, Taint
from kubesched.api.meta import LabelSelector, ObjectMeta
from kubesched.api.policy import PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus
from kubesched.api.quantity import Quantity
from kubesched.cluster import APIServer, Kubelet
from kubesched.controller import manager as controller_manager
from kubesched.scheduler import factory
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.util.loop import EventLoop
from tests.testing.wrappers import make_pod


def node(name: str, cpu: str = "4", memory: str = "8Gi", pods: str = "110",
         labels: Optional[Mapping[str, str]] = None, taints: tuple[Taint, ...] = ()) -> Node:
    resources = {"cpu": Quantity.parse(cpu), "memory": Quantity.parse(memory), "pods": Quantity.parse(pods)}
    all_labels = {"kubernetes.io/hostname": name, **(labels or {})}  # the kubelet's label
    return Node(metadata=ObjectMeta(name=name, labels=all_labels), spec=NodeSpec(taints=taints),
                status=NodeStatus(capacity=resources, allocatable=resources))


def pod(name: str, cpu: str = "", *, priority: int = 0, scheduler: str = "default-scheduler", node_name: str = "",
        labels: Optional[Mapping[str, str]] = None, node_selector: Optional[Mapping[str, str]] = None,
        namespace: str = "default") -> Pod:
    w = make_pod().name(name).namespace(namespace).labels(labels).container("c", {"cpu": cpu} if cpu else None,
                                                                          image="nginx")
    w.priority(priority).scheduler_name(scheduler).node(node_name).node_selector(node_selector or {})
    return w.set("spec", terminationGracePeriodSeconds=30).obj()


def pdb(name: str, match_labels: Mapping[str, str], disruptions_allowed: int) -> PodDisruptionBudget:
    return PodDisruptionBudget(metadata=ObjectMeta(name=name, namespace="default"),
                               spec=PodDisruptionBudgetSpec(selector=LabelSelector(match_labels=dict(match_labels))),
                               status=PodDisruptionBudgetStatus(disruptions_allowed=disruptions_allowed))


@dataclass
class Recorder:
    """An observer keeping the scheduler's hook calls it is asked for."""

    wanted: tuple[str, ...] = ()
    calls: list[tuple[str, dict]] = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self.wanted:
            raise AttributeError(name)
        return lambda **fields: self.calls.append((name, fields))

    def of(self, hook: str) -> list[dict]:
        return [fields for name, fields in self.calls if name == hook]


class Cluster:
    def __init__(self, *objects: Any, config: Optional[KubeSchedulerConfiguration] = None, seed: int = 0,
                 out_of_tree_registry: Optional[Mapping[str, Any]] = None, observer: Any = None) -> None:
        self.loop = EventLoop()
        self.api = APIServer(self.loop)
        for obj in objects:
            self.api.create(obj)
        self.kubelet = Kubelet(self.api)
        self.controllers = controller_manager.start(self.api)
        self.logs: list[tuple[float, int, str]] = []
        self.sched = factory.new(self.api, self.loop, config, seed=seed, out_of_tree_registry=out_of_tree_registry,
                                 observer=observer, log=lambda v, m: self.logs.append((self.loop.now(), v, m)))
        self.sched.run()

    def at(self, when: float, obj: Any) -> None:
        self.loop.call_at(when, lambda: self.api.create(obj), label=f"create {obj.metadata.name}")

    def run(self, until: float) -> "Cluster":
        self.loop.run(until=until)
        return self

    def get(self, name: str) -> Pod:
        return self.api.get("Pod", "default", name)

    def node_of(self, name: str) -> str:
        return self.get(name).spec.node_name

    def events(self) -> list[tuple]:
        """Every API Event: (first time, last time, count, object, type, reason, message, component)."""
        found = sorted(self.api.list("Event"), key=lambda e: (e.first_timestamp or 0.0, e.metadata.name))
        return [(e.first_timestamp, e.last_timestamp, e.count, e.involved_object.name, e.type, e.reason, e.message,
                 e.source.component) for e in found]

    def events_of(self, name: str, reason: str = "") -> list[tuple]:
        return [e for e in self.events() if e[3] == name and (not reason or e[5] == reason)]
