"""What the scheduler may ask of its cache, and the debug dump it returns.

Upstream: pkg/scheduler/internal/cache/interface.go @ v1.18.5 (Cache, Dump).

A pod's life in the cache::

    Initial --Assume--> Assumed --Add--> Added --Update--> Added --Remove--> Deleted
                           |  \\                 ^
                      Forget  Expire            Add
                           v    v               |
                      Initial  Expired ---------+

"Initial", "Expired" and "Deleted" pods are not held by the cache. A pod may be Added
without ever being Assumed (scheduled by someone else), is never assumed twice, and
is only Updated or Removed once Added. An assumed pod expires ``ttl`` seconds after
its binding finished if no Add confirmed it.

Every method raises ``CacheError`` where upstream returns an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Protocol

from kubesched.api.core import Node, Pod
from kubesched.api.labels import Selector
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.nodeinfo.node_info import NodeInfo


class CacheError(ValueError):
    """An operation the cache refuses (upstream returns an error)."""


class CacheCorruptedError(RuntimeError):
    """Upstream's ``klog.Fatalf("Schedulercache is corrupted ...")``: the process would exit."""


@dataclass(frozen=True, slots=True)
class PodStateView:
    """One pod the cache holds, for the dashboard (not upstream)."""

    name: str
    namespace: str
    node_name: str
    assumed: bool
    binding_finished: bool
    deadline: Optional[float]


@dataclass(frozen=True, slots=True)
class Dump:
    """``Dump``: clones of every NodeInfo and the assumed-pod set.

    ``nodes`` is ordered most recently updated first; ``pod_states`` is not upstream.
    """

    assumed_pods: dict[str, bool]
    nodes: dict[str, NodeInfo]
    pod_states: dict[str, PodStateView] = field(default_factory=dict)


class Cache(Protocol):
    """``Cache``: pod-centric, incrementally updated node-level aggregates."""

    def list_pods(self, selector: Optional[Selector] = None) -> list[Pod]: ...

    def assume_pod(self, pod: Pod) -> None: ...

    def finish_binding(self, pod: Pod, now: Optional[float] = None) -> None: ...

    def forget_pod(self, pod: Pod) -> None: ...

    def add_pod(self, pod: Pod) -> None: ...

    def update_pod(self, old_pod: Pod, new_pod: Pod) -> None: ...

    def remove_pod(self, pod: Pod) -> None: ...

    def get_pod(self, pod: Pod) -> Pod: ...

    def is_assumed_pod(self, pod: Pod) -> bool: ...

    def add_node(self, node: Node) -> None: ...

    def update_node(self, old_node: Optional[Node], new_node: Node) -> None: ...

    def remove_node(self, node: Node) -> None: ...

    def update_snapshot(self, snapshot: Snapshot) -> None: ...

    def dump(self) -> Dump: ...
