"""NodeAffinity: filter by nodeSelector and required node affinity; score preferred terms.

Upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
(NodeAffinity.Name, Filter, Score, NormalizeScore, ScoreExtensions, New); the matching
itself is helper.PodMatchesNodeSelectorAndAffinityTerms, with the pod's selectors built
once per pod (pod_selectors.py) instead of once per node.
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api.core import Node, Pod
from kubesched.api.labels import SelectorError
from kubesched.scheduler.framework.plugins.helper.normalize_score import default_normalize_score
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    MAX_NODE_SCORE, Code, FilterPlugin, PreFilterSkip, NodeScoreList, ScorePlugin, PreScoreSkip, Status)
from kubesched.scheduler.framework.plugins.nodeaffinity.pod_selectors import LastPodSelectors
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "NodeAffinity"
ERR_REASON: Final = "node(s) didn't match node selector"


class NodeAffinity:
    """Filter + Score (+ NormalizeScore) plugin over node labels."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos
        self.selectors = LastPodSelectors()

    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*NodeAffinity).Filter."""
        if node_info is None or node_info.node is None:
            return Status(Code.ERROR, ("node not found",))
        if not self.selectors.of(pod).matches(node_info.node):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (ERR_REASON,))
        return None

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): no nodeSelector and no required node affinity."""
        if pod.spec.node_selector:
            return False
        affinity = pod.spec.affinity
        return affinity is None or affinity.node_affinity is None \
            or affinity.node_affinity.required_during_scheduling_ignored_during_execution is None

    def constant_score(self, state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[int]:
        """Not upstream (PreScoreSkip): 0 when no preferred term has a weight (none is matched)."""
        affinity = pod.spec.affinity
        if affinity is None or affinity.node_affinity is None:
            return 0
        for term in affinity.node_affinity.preferred_during_scheduling_ignored_during_execution:
            if term.weight != 0:
                return None
        return 0

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*NodeAffinity).Score. Sum of the weights of matching preferred terms.

        Only ``preference.matchExpressions`` count (matchFields are ignored); an empty
        matchExpressions list selects nothing; a malformed one fails with its error.
        """
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None or node_info.node is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name),))
        try:
            return self.selectors.of(pod).preferred_score(node_info.node), None
        except SelectorError as err:
            return 0, Status(Code.ERROR, (str(err),))

    def normalize_score(self, state: CycleState, pod: Pod, scores: NodeScoreList) -> Optional[Status]:
        """Upstream: (*NodeAffinity).NormalizeScore."""
        return default_normalize_score(MAX_NODE_SCORE, False, scores)

    def score_extensions(self) -> "NodeAffinity":
        return self


def new(args: dict | None, handle: object) -> NodeAffinity:
    """Upstream: New (no args)."""
    return NodeAffinity(node_infos_of(handle))


_f: FilterPlugin = NodeAffinity(None)
_s: ScorePlugin = NodeAffinity(None)
_fs: PreFilterSkip = NodeAffinity(None)
_ss: PreScoreSkip = NodeAffinity(None)
