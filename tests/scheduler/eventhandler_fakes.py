"""Recording fakes for the event-handler tests: every cache/queue/framework call lands in one list."""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from kubesched.api.core import Node, NodeCondition, NodeSpec, NodeStatus, Pod, PodStatus
from kubesched.api.meta import ObjectMeta
from kubesched.api.quantity import Quantity
from kubesched.scheduler.internal.cache.interface import CacheError
from tests.testing.wrappers import make_pod


def pod(name: str, node: str = "", scheduler: str = "default-scheduler", **status: Any) -> Pod:
    base = make_pod().name(name).namespace("ns").uid(f"uid-{name}").container("c").node(node).scheduler_name(scheduler)
    return dataclasses.replace(base.obj(), status=PodStatus(**status))


def node(name: str = "n1", **changes: Any) -> Node:
    base = Node(metadata=ObjectMeta(name=name, labels={"a": "1"}),
                spec=NodeSpec(),
                status=NodeStatus(allocatable={"cpu": Quantity.parse("1")},
                                  conditions=(NodeCondition(type="Ready", status="True", reason="KubeletReady"),)))
    for path, value in changes.items():
        part, field = path.split("__")
        base = dataclasses.replace(base, **{part: dataclasses.replace(getattr(base, part), **{field: value})})
    return base


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple] = []


def _name(obj: Any) -> str:
    return obj.metadata.name


class FakeCache:
    def __init__(self, rec: Recorder, assumed: Optional[Pod] = None, fail: str = "") -> None:
        self.rec, self.assumed, self.fail = rec, assumed, fail

    def _call(self, method: str, *objs: Any) -> None:
        self.rec.calls.append((f"cache.{method}",) + tuple(_name(o) if o is not None else None for o in objs))
        if method == self.fail:
            raise CacheError(f"{method} refused")

    def add_pod(self, p): self._call("add_pod", p)
    def update_pod(self, old, new): self._call("update_pod", old, new)
    def remove_pod(self, p): self._call("remove_pod", p)
    def add_node(self, n): self._call("add_node", n)
    def update_node(self, old, new): self._call("update_node", old, new)
    def remove_node(self, n): self._call("remove_node", n)

    def is_assumed_pod(self, p):
        return self.assumed is not None and self.assumed.metadata.uid == p.metadata.uid

    def get_pod(self, p):
        if self.assumed is None:
            raise CacheError("not there")
        return self.assumed


class FakeQueue:
    def __init__(self, rec: Recorder, unschedulable: int = 0) -> None:
        self.rec, self.unschedulable = rec, unschedulable

    def add(self, p): self.rec.calls.append(("queue.add", _name(p)))
    def update(self, old, new): self.rec.calls.append(("queue.update", _name(old), _name(new)))
    def delete(self, p): self.rec.calls.append(("queue.delete", _name(p)))
    def assigned_pod_added(self, p): self.rec.calls.append(("queue.assigned_pod_added", _name(p)))
    def assigned_pod_updated(self, p): self.rec.calls.append(("queue.assigned_pod_updated", _name(p)))
    def move_all_to_active_or_backoff_queue(self, event): self.rec.calls.append(("queue.move_all", event))
    def num_unschedulable_pods(self): return self.unschedulable


class FakeFramework:
    def __init__(self, rec: Recorder, profile: str) -> None:
        self.rec, self.profile = rec, profile

    def reject_waiting_pod(self, uid): self.rec.calls.append((f"framework[{self.profile}].reject_waiting_pod", uid))


@dataclasses.dataclass
class FakeProfile:
    framework: FakeFramework


class FakeBinder:
    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def delete_pod_bindings(self, p): self.rec.calls.append(("binder.delete_pod_bindings", _name(p)))


class FakeScheduler:
    def __init__(self, *, unschedulable: int = 0, assumed: Optional[Pod] = None, fail: str = "",
                 binder: bool = True, profiles: tuple[str, ...] = ("default-scheduler",)) -> None:
        self.rec = Recorder()
        self.scheduler_cache = FakeCache(self.rec, assumed, fail)
        self.scheduling_queue = FakeQueue(self.rec, unschedulable)
        self.profiles = {name: FakeProfile(FakeFramework(self.rec, name)) for name in profiles}
        self.volume_binder = FakeBinder(self.rec) if binder else None
