"""Lister interfaces the framework hands to plugins.

Upstream: pkg/scheduler/listers/listers.go (PodLister, NodeInfoLister, SharedLister).
"""

from __future__ import annotations

from typing import Callable, Protocol

from kubesched.api.core import Pod
from kubesched.api.labels import Selector
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

PodFilter = Callable[[Pod], bool]


class NodeInfoNotFoundError(LookupError):
    """``nodeinfo not found for node name "<name>"``."""


class PodLister(Protocol):
    def list(self, selector: Selector) -> list[Pod]: ...

    def filtered_list(self, pod_filter: PodFilter, selector: Selector) -> list[Pod]: ...


class NodeInfoLister(Protocol):
    def list(self) -> list[NodeInfo]: ...

    def have_pods_with_affinity_list(self) -> list[NodeInfo]: ...

    def get(self, node_name: str) -> NodeInfo:
        """Raise NodeInfoNotFoundError when absent."""
        ...


class SharedLister(Protocol):
    def pods(self) -> PodLister: ...

    def node_infos(self) -> NodeInfoLister: ...
