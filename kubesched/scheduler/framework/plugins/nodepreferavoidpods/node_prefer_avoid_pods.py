"""NodePreferAvoidPods: score 0 on nodes whose preferAvoidPods annotation names the pod's
ReplicationController/ReplicaSet, 100 elsewhere.

Upstream: pkg/scheduler/framework/plugins/nodepreferavoidpods/node_prefer_avoid_pods.go
(NodePreferAvoidPods.Name, Score, ScoreExtensions, New). The default profile weighs it 10000.
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api import v1helper
from kubesched.api.core import Node, Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    MAX_NODE_SCORE, Code, ScorePlugin, PreScoreSkip, Status)

NAME: Final = "NodePreferAvoidPods"
_AVOIDABLE_CONTROLLER_KINDS: Final = ("ReplicationController", "ReplicaSet")


class NodePreferAvoidPods:
    """Score-only plugin (no NormalizeScore)."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*NodePreferAvoidPods).Score."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name),))
        if node_info.node is None:
            return 0, Status(Code.ERROR, ("node not found",))
        return score_node(pod, node_info.node), None

    def constant_score(self, state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[int]:
        """Not upstream (PreScoreSkip): MaxNodeScore for a pod no RC/RS controls, else the score
        every node shares (MaxNodeScore when none asks to avoid pods); None if they differ."""
        ref = pod.metadata.controller_ref()
        if ref is None or ref.kind not in _AVOIDABLE_CONTROLLER_KINDS:
            return MAX_NODE_SCORE
        constant: Optional[int] = None
        for node in nodes:
            # score_node's own first check, inlined: most nodes carry no such annotation
            has_annotation = node.metadata.annotations.get(v1helper.PREFER_AVOID_PODS_ANNOTATION_KEY)
            score = score_node(pod, node) if has_annotation else MAX_NODE_SCORE
            if constant is None:
                constant = score
            elif score != constant:
                return None
        return constant

    def score_extensions(self) -> None:
        return None


def score_node(pod: Pod, node: Node) -> int:
    """0 if the node asks to avoid the pod's RC/RS controller, else MaxNodeScore."""
    if not node.metadata.annotations.get(v1helper.PREFER_AVOID_PODS_ANNOTATION_KEY):
        return MAX_NODE_SCORE  # nothing to avoid (checked first: most nodes carry no annotation)
    ref = pod.metadata.controller_ref()
    if ref is None or ref.kind not in _AVOIDABLE_CONTROLLER_KINDS:
        return MAX_NODE_SCORE
    try:
        avoids = v1helper.get_avoid_pods_from_node_annotations(node.metadata.annotations)
    except ValueError:
        return MAX_NODE_SCORE  # an unreadable annotation: assume the node is fine
    if any(kind == ref.kind and uid == ref.uid for kind, uid in avoids):
        return 0
    return MAX_NODE_SCORE


def new(args: dict | None, handle: object) -> NodePreferAvoidPods:
    """Upstream: New (no args)."""
    return NodePreferAvoidPods(node_infos_of(handle))


_s: ScorePlugin = NodePreferAvoidPods(None)
_ss: PreScoreSkip = NodePreferAvoidPods(None)
