"""PodTopologySpread PreScore / Score / NormalizeScore: soft (ScheduleAnyway) constraints.

Upstream: pkg/scheduler/framework/plugins/podtopologyspread/scoring.go (preScoreState,
initPreScoreState, PreScore, Score, NormalizeScore, ScoreExtensions, getPreScoreState).

NormalizeScore as v1.18.5: total = sum of the scores of eligible nodes, diff = total - min;
``int64(MaxNodeScore * (total - score) / diff)`` in float64, every node 100 when diff is 0.
"""

from __future__ import annotations

from typing import Optional

from kubesched.api.core import Node, Pod
from kubesched.api.labels import SelectorError
from kubesched.scheduler.framework.plugins.helper.node_affinity import (
    pod_matches_node_selector_and_affinity_terms,
)
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error
from kubesched.scheduler.framework.plugins.podtopologyspread.common import (
    NAME, SCHEDULE_ANYWAY, TopologyPair, TopologySpreadConstraint, count_matching_pods, default_constraints,
    filter_topology_spread_constraints, node_labels_match_spread_constraints,
)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState, StateNotFoundError
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, NodeScore, Status

PRE_SCORE_STATE_KEY = "PreScore" + NAME
MAX_INT64 = 2**63 - 1


class PreScoreState:
    """``preScoreState``: soft constraints, eligible node names, matching pods per pair."""

    __slots__ = ("constraints", "node_name_set", "topology_pair_to_pod_counts")

    def __init__(self) -> None:
        self.constraints: tuple[TopologySpreadConstraint, ...] = ()
        self.node_name_set: set[str] = set()
        self.topology_pair_to_pod_counts: dict[TopologyPair, int] = {}

    def clone(self) -> "PreScoreState":
        return self  # read-only after PreScore, as upstream


def get_pre_score_state(cycle_state: CycleState) -> PreScoreState:
    try:
        state = cycle_state.read(PRE_SCORE_STATE_KEY)
    except StateNotFoundError as err:
        raise LookupError(f'error reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(state, PreScoreState):
        raise LookupError(f"{state!r}  convert to podtopologyspread.preScoreState error")
    return state


class Scoring:
    """The PreScore, Score and NormalizeScore methods of PodTopologySpread."""

    shared_lister: object

    def soft_constraints(self, pod: Pod) -> list[TopologySpreadConstraint]:
        if pod.spec.topology_spread_constraints:
            try:
                return filter_topology_spread_constraints(pod.spec.topology_spread_constraints, SCHEDULE_ANYWAY)
            except SelectorError as err:
                raise ValueError(f"obtaining pod's soft topology spread constraints: {err}") from None
        try:
            return default_constraints(self, pod, SCHEDULE_ANYWAY)
        except SelectorError as err:
            raise ValueError(f"setting default soft topology spread constraints: {err}") from None

    def init_pre_score_state(self, state: PreScoreState, pod: Pod, filtered_nodes: list[Node]) -> None:
        """Constraints, plus a zero counter per pair of each eligible filtered node."""
        state.constraints = tuple(self.soft_constraints(pod))
        if not state.constraints:
            return
        for node in filtered_nodes:
            labels = node.metadata.labels
            if not node_labels_match_spread_constraints(labels, state.constraints):
                continue  # absent from node_name_set: scored 0 later
            for c in state.constraints:
                state.topology_pair_to_pod_counts.setdefault((c.topology_key, labels[c.topology_key]), 0)
            state.node_name_set.add(node.metadata.name)

    def pre_score(self, cycle_state: CycleState, pod: Pod, filtered_nodes: list[Node]) -> Optional[Status]:
        all_nodes = self.shared_lister.node_infos().list()
        if not filtered_nodes or not all_nodes:
            return None
        state = PreScoreState()
        try:
            self.init_pre_score_state(state, pod, filtered_nodes)
        except ValueError as err:
            return Status.new(Code.ERROR, f"error when calculating preScoreState: {err}")
        if not state.constraints:
            cycle_state.write(PRE_SCORE_STATE_KEY, state)
            return None
        counts = state.topology_pair_to_pod_counts
        for node_info in all_nodes:
            node = node_info.node
            if node is None:
                continue
            if not pod_matches_node_selector_and_affinity_terms(pod, node) or \
                    not node_labels_match_spread_constraints(node.metadata.labels, state.constraints):
                continue
            for c in state.constraints:
                pair = (c.topology_key, node.metadata.labels[c.topology_key])
                if pair not in counts:
                    continue  # no candidate node in this domain
                counts[pair] += count_matching_pods(node_info.pods, pod.metadata.namespace, c.selector)
        cycle_state.write(PRE_SCORE_STATE_KEY, state)
        return None

    def score(self, cycle_state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        node_info = get_node_info(self.shared_lister.node_infos(), node_name)
        node = node_info.node if node_info is not None else None
        if node is None:
            return 0, Status.new(Code.ERROR, lookup_error(self.shared_lister.node_infos(), node_name, node_is_nil=True))
        try:
            state = get_pre_score_state(cycle_state)
        except LookupError as err:
            return 0, Status.new(Code.ERROR, str(err))
        if node.metadata.name not in state.node_name_set:
            return 0, None
        score = 0
        for c in state.constraints:
            value = node.metadata.labels.get(c.topology_key)
            if value is not None:
                score += state.topology_pair_to_pod_counts[(c.topology_key, value)]
        return score, None

    def constant_score(self, cycle_state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[int]:
        """Not upstream (PreScoreSkip): 0 when PreScore found no eligible node (no soft constraint
        included); Score then gives every node 0. None when the state is missing (Score errs)."""
        try:
            state = cycle_state.read(PRE_SCORE_STATE_KEY)
        except StateNotFoundError:
            return None
        if isinstance(state, PreScoreState) and not state.node_name_set:
            return 0
        return None

    def normalize_score(self, cycle_state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        try:
            state = get_pre_score_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        names = state.node_name_set
        min_score, total = MAX_INT64, 0
        if names:
            for s in scores:
                if s.name in names:
                    score = s.score
                    total += score
                    if score < min_score:
                        min_score = score
        diff = total - min_score
        get = self.shared_lister.node_infos().get
        for s in scores:
            try:
                node = get(s.name).node
            except LookupError as err:
                return Status.new(Code.ERROR, str(err))
            if diff == 0:
                s.score = MAX_NODE_SCORE
            elif node.metadata.name not in names:
                s.score = 0
            else:
                s.score = int(float(MAX_NODE_SCORE) * (float(total - s.score) / float(diff)))
        return None

    def score_extensions(self) -> "Scoring":
        return self
