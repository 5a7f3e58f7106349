"""DefaultPodTopologySpread: prefer nodes and zones with fewer pods of the same Service/controller.

Upstream: pkg/scheduler/framework/plugins/defaultpodtopologyspread/default_pod_topology_spread.go
(DefaultPodTopologySpread, Name, zoneWeighting, preScoreState, skipDefaultPodTopologySpread,
Score, NormalizeScore, ScoreExtensions, PreScore, New, countMatchingPods) and
pkg/util/node/node.go (GetZoneKey).

NormalizeScore as v1.18.5, in float64 with truncation: node score
``100 * (maxByNode - count) / maxByNode`` (100 when maxByNode is 0), blended with the zone
score as ``f * (1 - 2/3) + 2/3 * zoneScore`` for nodes with a zone key.
Deviation: the per-zone sums come from a Go map; only sums and a max are taken from it,
so the order does not matter.
"""

from __future__ import annotations

from typing import Optional

from kubesched.api.core import Node, Pod
from kubesched.api.labels import Selector
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error
from kubesched.scheduler.framework.plugins.helper.spread import default_selector
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState, StateNotFoundError
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, NodeScore, PreScoreSkip, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from kubesched.scheduler.util.node import get_zone_key

NAME = "DefaultPodTopologySpread"
PRE_SCORE_STATE_KEY = "PreScore" + NAME
ZONE_WEIGHTING = 2.0 / 3.0  # with zone information, 2/3 of the weight goes to zone spreading

class PreScoreState:
    """``preScoreState``: the selector deduced in PreScore."""

    __slots__ = ("selector",)

    def __init__(self, selector: Selector) -> None:
        self.selector = selector

    def clone(self) -> "PreScoreState":
        return self


def skip_default_pod_topology_spread(pod: Pod) -> bool:
    """The pod's own topologySpreadConstraints (any action) switch this plugin off."""
    return len(pod.spec.topology_spread_constraints) != 0


def count_matching_pods(namespace: str, selector: Selector, node_info: NodeInfo) -> int:
    """Pods on the node in ``namespace``, not terminating, matching a non-empty ``selector``."""
    count = 0
    for p in node_info.pods:
        meta = p.metadata
        if meta.namespace == namespace and meta.deletion_timestamp is None:
            if selector.empty():
                return 0  # an empty selector matches nothing here (asked only once a pod could count)
            if selector.matches(meta.labels):
                count += 1
    return count


class DefaultPodTopologySpread:
    """Selector spreading (the framework port of SelectorSpreadPriority)."""

    def __init__(self, shared_lister, listers) -> None:
        self.shared_lister = shared_lister
        self.listers = listers

    def name(self) -> str:
        return NAME

    def pre_score(self, cycle_state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[Status]:
        cycle_state.write(PRE_SCORE_STATE_KEY, PreScoreState(default_selector(pod, self.listers)))
        return None

    def score(self, cycle_state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        if pod.spec.topology_spread_constraints:  # skip_default_pod_topology_spread
            return 0, None
        try:
            state = cycle_state.read(PRE_SCORE_STATE_KEY)
        except StateNotFoundError as err:
            return 0, Status.new(Code.ERROR, f'Error reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}')
        if not isinstance(state, PreScoreState):
            return 0, Status.new(Code.ERROR, f"{state!r} convert to tainttoleration.preScoreState error")
        node_info = get_node_info(self.shared_lister.node_infos(), node_name)
        if node_info is None:
            return 0, Status.new(Code.ERROR, lookup_error(self.shared_lister.node_infos(), node_name))
        if not node_info.pods:
            return 0, None  # count_matching_pods of a node without pods
        return count_matching_pods(pod.metadata.namespace, state.selector, node_info), None

    def constant_score(self, cycle_state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[int]:
        """Not upstream (PreScoreSkip): 0 when the plugin is skipped for the pod or its selector is
        empty (nothing matches); None otherwise, or when the state is missing (Score errs)."""
        if skip_default_pod_topology_spread(pod):
            return 0
        try:
            state = cycle_state.read(PRE_SCORE_STATE_KEY)
        except StateNotFoundError:
            return None
        if isinstance(state, PreScoreState) and state.selector.empty():
            return 0
        return None

    def normalize_score(self, cycle_state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        if skip_default_pod_topology_spread(pod):
            return None
        counts_by_zone: dict[str, int] = {}
        zones: list[str] = []  # each score's node's zone key, in list order
        max_by_node = 0
        get = self.shared_lister.node_infos().get
        for s in scores:
            score = s.score
            if score > max_by_node:
                max_by_node = score
            try:
                zone = get_zone_key(get(s.name).node)
            except LookupError as err:
                return Status.new(Code.ERROR, str(err))
            zones.append(zone)
            if zone:
                counts_by_zone[zone] = counts_by_zone.get(zone, 0) + score
        max_by_zone = max([0] + list(counts_by_zone.values()))
        have_zones = bool(counts_by_zone)
        max_node_score = float(MAX_NODE_SCORE)
        for s, zone in zip(scores, zones):
            f_score = max_node_score
            if max_by_node > 0:
                f_score = max_node_score * (float(max_by_node - s.score) / float(max_by_node))
            if have_zones and zone:
                zone_score = max_node_score
                if max_by_zone > 0:
                    zone_score = max_node_score * (float(max_by_zone - counts_by_zone[zone]) / float(max_by_zone))
                f_score = (f_score * (1.0 - ZONE_WEIGHTING)) + (ZONE_WEIGHTING * zone_score)
            s.score = int(f_score)
        return None

    def score_extensions(self) -> "DefaultPodTopologySpread":
        return self


def new(args: Optional[dict], handle) -> DefaultPodTopologySpread:
    """``New``: no args; needs the snapshot and the informer listers."""
    shared_lister = handle.snapshot_shared_lister()
    if shared_lister is None:
        raise ValueError("SnapshotSharedLister is nil")
    listers = handle.listers()
    if listers is None:
        raise ValueError("SharedInformerFactory is nil")
    return DefaultPodTopologySpread(shared_lister, listers)


_ss: PreScoreSkip = DefaultPodTopologySpread(None, None)
