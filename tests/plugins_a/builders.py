"""Small builders for the group-A plugin tests: manifests in, API objects and a handle out."""

from __future__ import annotations

from typing import Any, Optional

from kubesched.api.core import Node, Pod
from kubesched.conformance._harness import as_object
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.nodeinfo.node_info import NodeInfo


def pod(spec: Optional[dict] = None, **metadata: Any) -> Pod:
    spec = dict(spec or {})
    spec.setdefault("containers", [])
    return as_object({"metadata": {"name": "p", **metadata}, "spec": spec}, "Pod")


def container(name: str = "c", requests: Optional[dict] = None, limits: Optional[dict] = None,
              **extra: Any) -> dict:
    resources = {}
    if requests is not None:
        resources["requests"] = requests
    if limits is not None:
        resources["limits"] = limits
    return {"name": name, "resources": resources, **extra}


def node(name: str = "n1", labels: Optional[dict] = None, allocatable: Optional[dict] = None,
         taints: Optional[list] = None, annotations: Optional[dict] = None,
         unschedulable: bool = False, images: Optional[list] = None) -> Node:
    return as_object({
        "metadata": {"name": name, "labels": labels or {}, "annotations": annotations or {}},
        "spec": {"taints": taints or [], "unschedulable": unschedulable},
        "status": {"allocatable": allocatable or {}, "images": images or []},
    }, "Node")


def node_info(n: Optional[Node], *pods: Pod) -> NodeInfo:
    info = NodeInfo(*pods)
    if n is not None:
        info.set_node(n)
    return info


class Handle:
    """FrameworkHandle stand-in: the snapshot is the shared lister."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    def snapshot_shared_lister(self) -> Snapshot:
        return self.snapshot


def handle(nodes: list[Node], pods: list[Pod] = ()) -> Handle:
    return Handle(Snapshot.new(list(pods), nodes))
