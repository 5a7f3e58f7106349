"""NodeName filter: a pod that names a node fits only that node.

Upstream: pkg/scheduler/framework/plugins/nodename/node_name.go
(NodeName.Name, NodeName.Filter, Fits, New).
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api.core import Pod
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, FilterPlugin, PreFilterSkip, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "NodeName"
ERR_REASON: Final = "node(s) didn't match the requested hostname"


class NodeName:
    """Filter plugin checking ``pod.spec.nodeName`` against the node."""

    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*NodeName).Filter."""
        if node_info is None or node_info.node is None:
            return Status(Code.ERROR, ("node not found",))
        if not fits(pod, node_info):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (ERR_REASON,))
        return None

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): a pod naming no node fits every node."""
        return not pod.spec.node_name


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """Upstream: Fits. True when the pod names no node or names this one."""
    return not pod.spec.node_name or pod.spec.node_name == node_info.node_name()


def new(args: dict | None, handle: object) -> NodeName:
    """Upstream: New (no args)."""
    return NodeName()


_: FilterPlugin = NodeName()
__: PreFilterSkip = NodeName()
