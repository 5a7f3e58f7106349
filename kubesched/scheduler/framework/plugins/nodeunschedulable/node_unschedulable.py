"""NodeUnschedulable filter: keep pods off cordoned nodes unless they tolerate the cordon taint.

Upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
(NodeUnschedulable.Name, NodeUnschedulable.Filter, New).
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api import v1helper
from kubesched.api.core import Pod, Taint
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, FilterPlugin, PreFilterSkip, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "NodeUnschedulable"
ERR_REASON_UNKNOWN_CONDITION: Final = "node(s) had unknown conditions"
ERR_REASON_UNSCHEDULABLE: Final = "node(s) were unschedulable"

# The taint a pod must tolerate to land on a node with spec.unschedulable set.
UNSCHEDULABLE_TAINT: Final = Taint(key=v1helper.TAINT_NODE_UNSCHEDULABLE,
                                   effect=v1helper.TAINT_EFFECT_NO_SCHEDULE)


class NodeUnschedulable:
    """Filter plugin for ``node.spec.unschedulable``."""

    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*NodeUnschedulable).Filter."""
        if node_info is None or node_info.node is None:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (ERR_REASON_UNKNOWN_CONDITION,))
        if node_info.node.spec.unschedulable and not v1helper.tolerations_tolerate_taint(
                pod.spec.tolerations, UNSCHEDULABLE_TAINT):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (ERR_REASON_UNSCHEDULABLE,))
        return None

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): the pod tolerates the unschedulable taint."""
        return bool(pod.spec.tolerations) and v1helper.tolerations_tolerate_taint(
            pod.spec.tolerations, UNSCHEDULABLE_TAINT)


def new(args: dict | None, handle: object) -> NodeUnschedulable:
    """Upstream: New (no args)."""
    return NodeUnschedulable()


_: FilterPlugin = NodeUnschedulable()
_fs: PreFilterSkip = NodeUnschedulable()
