"""Small builders for the group-A plugin tests: manifests in, API objects and a handle out."""

from __future__ import annotations

from typing import Any, Optional

from kubesched.api.core import Node, Pod
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.testing.wrappers import make_node, make_pod
from tests.testing.wrappers import node_info  # noqa: F401  (re-exported for the group-A tests)


def pod(spec: Optional[dict] = None, **metadata: Any) -> Pod:
    w = make_pod().name("p").set("spec", **(spec or {})).set("metadata", **metadata)
    return w.obj()


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
    return (make_node().name(name).labels(labels).annotations(annotations).taints(taints)
            .unschedulable(unschedulable).allocatable(allocatable).images(images).obj())


class Handle:
    """FrameworkHandle stand-in: the snapshot is the shared lister."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    def snapshot_shared_lister(self) -> Snapshot:
        return self.snapshot


def handle(nodes: list[Node], pods: list[Pod] = ()) -> Handle:
    return Handle(Snapshot.new(list(pods), nodes))
