"""PodTopologySpread PreFilter / Filter: hard (DoNotSchedule) spread constraints.

Upstream: pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (preFilterState,
Clone, criticalPaths, newCriticalPaths, criticalPaths.update, updateWithPod, PreFilter,
PreFilterExtensions, AddPod, RemovePod, getPreFilterState, calPreFilterState, Filter).

Deviation: upstream counts nodes from 16 goroutines and then feeds the pair counts into
the critical paths in Go map order, so which of two equally-loaded domains ends up in
``critical_paths[key][0]`` / ``[1]`` may vary between runs; here pairs are fed in
first-seen order (snapshot node order, then constraint order). ``[0]`` always holds the
minimum count either way, which is all Filter reads.
"""

from __future__ import annotations

from typing import Optional

from kubesched.api.core import Node, Pod
from kubesched.api.labels import SelectorError
from kubesched.scheduler.framework.plugins.helper.node_affinity import (
    pod_matches_node_selector_and_affinity_terms,
)
from kubesched.scheduler.framework.plugins.podtopologyspread.common import (
    DO_NOT_SCHEDULE, ERR_REASON_CONSTRAINTS_NOT_MATCH, NAME, TopologyPair, TopologySpreadConstraint, count_matching_pods, default_constraints,
    filter_topology_spread_constraints, node_labels_match_spread_constraints,
)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState, StateNotFoundError
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

PRE_FILTER_STATE_KEY = "PreFilter" + NAME
MAX_INT32 = 2**31 - 1


class CriticalPaths:
    """Two (topology value, match count) paths; ``paths[0]`` always holds the minimum count.

    ``paths[1]`` is not guaranteed to be the second minimum (see ``update``).
    """

    __slots__ = ("paths",)

    def __init__(self, paths: Optional[list[list]] = None) -> None:
        self.paths = paths if paths is not None else [["", MAX_INT32], ["", MAX_INT32]]

    def clone(self) -> "CriticalPaths":
        return CriticalPaths([list(p) for p in self.paths])

    def update(self, tp_val: str, num: int) -> None:
        p = self.paths
        i = 0 if tp_val == p[0][0] else 1 if tp_val == p[1][0] else -1
        if i >= 0:
            p[i][1] = num
            if p[0][1] > p[1][1]:
                p[0], p[1] = p[1], p[0]
        elif num < p[0][1]:
            p[1] = p[0]
            p[0] = [tp_val, num]
        elif num < p[1][1]:
            p[1] = [tp_val, num]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CriticalPaths) and self.paths == other.paths

    def __repr__(self) -> str:
        return f"CriticalPaths({self.paths})"


class PreFilterState:
    """``preFilterState``: hard constraints, critical paths per key, match count per pair.

    No constraints means "every node passes" (a legitimate, empty state).
    """

    __slots__ = ("constraints", "tp_key_to_critical_paths", "tp_pair_to_match_num")

    def __init__(self, constraints: tuple[TopologySpreadConstraint, ...] = (),
                 tp_key_to_critical_paths: Optional[dict[str, CriticalPaths]] = None,
                 tp_pair_to_match_num: Optional[dict[TopologyPair, int]] = None) -> None:
        self.constraints = constraints
        self.tp_key_to_critical_paths = tp_key_to_critical_paths if tp_key_to_critical_paths is not None else {}
        self.tp_pair_to_match_num = tp_pair_to_match_num if tp_pair_to_match_num is not None else {}

    def clone(self) -> "PreFilterState":
        # Constraints are shared: they never change.
        return PreFilterState(self.constraints,
                              {k: v.clone() for k, v in self.tp_key_to_critical_paths.items()},
                              dict(self.tp_pair_to_match_num))

    def update_with_pod(self, updated_pod: Pod, preemptor_pod: Pod, node: Optional[Node], delta: int) -> None:
        """Count ``updated_pod`` in (+1) or out (-1) of its node's pairs."""
        if updated_pod.metadata.namespace != preemptor_pod.metadata.namespace or node is None:
            return
        labels = node.metadata.labels
        if not node_labels_match_spread_constraints(labels, self.constraints):
            return
        for c in self.constraints:
            if not c.selector.matches(updated_pod.metadata.labels):
                continue
            pair = (c.topology_key, labels[c.topology_key])
            self.tp_pair_to_match_num[pair] = self.tp_pair_to_match_num.get(pair, 0) + delta
            self.tp_key_to_critical_paths[c.topology_key].update(pair[1], self.tp_pair_to_match_num[pair])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PreFilterState) and all(
            getattr(self, f) == getattr(other, f) for f in self.__slots__)


def get_pre_filter_state(cycle_state: CycleState) -> PreFilterState:
    try:
        state = cycle_state.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError as err:
        raise LookupError(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(state, PreFilterState):
        raise LookupError(f"{state!r} convert to podtopologyspread.preFilterState error")
    return state


class Filtering:
    """The PreFilter, PreFilterExtensions and Filter methods of PodTopologySpread."""

    shared_lister: object
    default_constraints: tuple

    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> Optional[Status]:
        try:
            state = self.cal_pre_filter_state(pod)
        except ValueError as err:
            return Status.new(Code.ERROR, str(err))
        cycle_state.write(PRE_FILTER_STATE_KEY, state)
        return None

    def pre_filter_extensions(self) -> "Filtering":
        return self

    def add_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_to_add: Pod,
                node_info: NodeInfo) -> Optional[Status]:
        return _update(cycle_state, pod_to_schedule, pod_to_add, node_info, 1)

    def remove_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_to_remove: Pod,
                   node_info: NodeInfo) -> Optional[Status]:
        return _update(cycle_state, pod_to_schedule, pod_to_remove, node_info, -1)

    def hard_constraints(self, pod: Pod) -> list[TopologySpreadConstraint]:
        """The pod's DoNotSchedule constraints, or the defaults; raises ValueError with upstream's text."""
        if pod.spec.topology_spread_constraints:
            try:
                return filter_topology_spread_constraints(pod.spec.topology_spread_constraints, DO_NOT_SCHEDULE)
            except SelectorError as err:
                raise ValueError(f"obtaining pod's hard topology spread constraints: {err}") from None
        try:
            return default_constraints(self, pod, DO_NOT_SCHEDULE)
        except SelectorError as err:
            raise ValueError(f"setting default hard topology spread constraints: {err}") from None

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): no hard constraint, so PreFilter writes an empty state.

        The pod's own constraints, when it has any, must all be ScheduleAnyway; otherwise the
        configured defaults must have no DoNotSchedule one (their selectors depend on listers).
        """
        constraints = pod.spec.topology_spread_constraints or self.default_constraints
        for c in constraints:
            if c.when_unsatisfiable == DO_NOT_SCHEDULE:
                return False
        return True

    def cal_pre_filter_state(self, pod: Pod) -> PreFilterState:
        """``calPreFilterState``: how the matching pods spread over the eligible nodes' domains."""
        all_nodes = self.shared_lister.node_infos().list()
        constraints = self.hard_constraints(pod)
        if not constraints:
            return PreFilterState()
        match_num: dict[TopologyPair, int] = {}
        for node_info in all_nodes:
            node = node_info.node
            if node is None:
                continue  # upstream logs "node not found"
            if not pod_matches_node_selector_and_affinity_terms(pod, node):
                continue
            if not node_labels_match_spread_constraints(node.metadata.labels, constraints):
                continue
            for c in constraints:
                pair = (c.topology_key, node.metadata.labels[c.topology_key])
                matched = count_matching_pods(node_info.pods, pod.metadata.namespace, c.selector)
                match_num[pair] = match_num.get(pair, 0) + matched
        paths = {c.topology_key: CriticalPaths() for c in constraints}
        for (key, value), num in match_num.items():
            paths[key].update(value, num)
        return PreFilterState(tuple(constraints), paths, match_num)

    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        node = node_info.node
        if node is None:
            return Status.new(Code.ERROR, "node not found")
        try:
            state = get_pre_filter_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        if not state.constraints:
            return None
        for c in state.constraints:
            tp_val = node.metadata.labels.get(c.topology_key)
            if tp_val is None:
                return Status.new(Code.UNSCHEDULABLE, ERR_REASON_CONSTRAINTS_NOT_MATCH)
            self_match = 1 if c.selector.matches(pod.metadata.labels) else 0
            paths = state.tp_key_to_critical_paths.get(c.topology_key)
            if paths is None:
                continue  # "internal error" upstream: logged and skipped
            min_match = paths.paths[0][1]
            match_num = state.tp_pair_to_match_num.get((c.topology_key, tp_val), 0)
            if match_num + self_match - min_match > c.max_skew:
                return Status.new(Code.UNSCHEDULABLE, ERR_REASON_CONSTRAINTS_NOT_MATCH)
        return None


def _update(cycle_state: CycleState, pod: Pod, updated: Pod, node_info: NodeInfo, delta: int) -> Optional[Status]:
    try:
        state = get_pre_filter_state(cycle_state)
    except LookupError as err:
        return Status.new(Code.ERROR, str(err))
    state.update_with_pod(updated, pod, node_info.node, delta)
    return None
