"""InterPodAffinity PreFilter / Filter: required pod affinity and anti-affinity.

Upstream: pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (preFilterState,
updateWithPod, topologyToMatchedTermCount, podMatchesAllAffinityTerms,
getTPMapMatchingExistingAntiAffinity, getTPMapMatchingIncomingAffinityAntiAffinity,
targetPodMatchesAffinityOfPod, PreFilter, AddPod, RemovePod, getPreFilterState,
satisfiesExistingPodsAntiAffinity, nodeMatchesAllTopologyTerms,
nodeMatchesAnyTopologyTerm, getMatchingAntiAffinityTopologyPairsOfPod,
satisfiesPodsAffinityAntiAffinity, Filter).

Existing pods' anti-affinity is gathered over the snapshot's NodeInfos that hold pods
with (any) affinity and over their ``pods_with_affinity``, as v1.18.5 does.
Deviation: upstream fills the count maps from 16 goroutines in random order; here nodes
are visited in snapshot order, so the maps' iteration order is deterministic (their
contents are the same). Filter on a NodeInfo without a Node skips the existing-pods check
(upstream would dereference nil there) and then fails with "node not found" as upstream.
The v1.18.5 affinity Filter has no "missing topology key" variant of the reasons.
Terms are processed by the plugin's TermMemo (terms.py), passed to the functions here.
"""

from __future__ import annotations

from typing import Iterable, Optional

from kubesched.api.core import Node, Pod, PodAffinityTerm
from kubesched.api.labels import SelectorError
from kubesched.scheduler.framework.plugins.interpodaffinity.names import NAME
from kubesched.scheduler.framework.plugins.interpodaffinity.terms import AffinityTerm, TermMemo
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState, StateNotFoundError
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from kubesched.scheduler.util.topologies import pod_matches_terms_namespace_and_selector
from kubesched.scheduler.util.utils import get_pod_affinity_terms, get_pod_anti_affinity_terms

PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules"
ERR_REASON_AFFINITY_NOT_MATCH = "node(s) didn't match pod affinity/anti-affinity"
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"

TopologyPair = tuple[str, str]  # (topologyKey, value)


class TopologyToMatchedTermCount(dict):
    """``topologyToMatchedTermCount``: topology pair -> number of matching terms."""

    def append(self, other: "TopologyToMatchedTermCount") -> None:
        for pair, count in other.items():
            self[pair] = self.get(pair, 0) + count

    def clone(self) -> "TopologyToMatchedTermCount":
        return TopologyToMatchedTermCount(self)

    def _add(self, pair: TopologyPair, value: int) -> None:
        self[pair] = self.get(pair, 0) + value
        if self[pair] == 0:  # value may be negative: drop entries that reach zero
            del self[pair]

    def update_with_affinity_terms(self, target_pod: Pod, target_pod_node: Node,
                                   affinity_terms: list[AffinityTerm], value: int) -> None:
        """Count every term (with its key on the node) once ``target_pod`` matches ALL terms."""
        if pod_matches_all_affinity_terms(target_pod, affinity_terms):
            for term in affinity_terms:
                if term.topology_key in target_pod_node.metadata.labels:
                    self._add((term.topology_key, target_pod_node.metadata.labels[term.topology_key]), value)

    def update_with_anti_affinity_terms(self, target_pod: Pod, target_pod_node: Node,
                                        anti_affinity_terms: list[AffinityTerm], value: int) -> None:
        """Count each anti-affinity term that ``target_pod`` matches (with its key on the node)."""
        for term in anti_affinity_terms:
            if pod_matches_terms_namespace_and_selector(target_pod, term.namespaces, term.selector):
                if term.topology_key in target_pod_node.metadata.labels:
                    self._add((term.topology_key, target_pod_node.metadata.labels[term.topology_key]), value)


def pod_matches_all_affinity_terms(pod: Pod, terms: list[AffinityTerm]) -> bool:
    """True iff there is at least one term and ``pod`` matches every one."""
    if not terms:
        return False
    return all(pod_matches_terms_namespace_and_selector(pod, t.namespaces, t.selector) for t in terms)


class PreFilterState:
    """``preFilterState``: the three topology-pair count maps."""

    __slots__ = ("topology_to_matched_existing_anti_affinity_terms", "topology_to_matched_affinity_terms",
                 "topology_to_matched_anti_affinity_terms")

    def __init__(self, existing_anti: Optional[TopologyToMatchedTermCount] = None,
                 affinity: Optional[TopologyToMatchedTermCount] = None,
                 anti: Optional[TopologyToMatchedTermCount] = None) -> None:
        self.topology_to_matched_existing_anti_affinity_terms = existing_anti or TopologyToMatchedTermCount()
        self.topology_to_matched_affinity_terms = affinity or TopologyToMatchedTermCount()
        self.topology_to_matched_anti_affinity_terms = anti or TopologyToMatchedTermCount()

    def clone(self) -> "PreFilterState":
        return PreFilterState(self.topology_to_matched_existing_anti_affinity_terms.clone(),
                              self.topology_to_matched_affinity_terms.clone(),
                              self.topology_to_matched_anti_affinity_terms.clone())

    def update_with_pod(self, memo: TermMemo, updated_pod: Pod, pod: Pod, node: Optional[Node],
                        multiplier: int) -> None:
        """Add (+1) or remove (-1) the matches ``updated_pod`` on ``node`` contributes for ``pod``.

        Raises SelectorError where upstream returns an error (which AddPod/RemovePod ignore).
        Deviation: a NodeInfo without a Node is ignored (upstream would dereference nil).
        """
        if node is None:
            return
        updated_affinity = updated_pod.spec.affinity
        if updated_affinity is not None and updated_affinity.pod_anti_affinity is not None:
            terms = memo.affinity_terms(pod, get_pod_anti_affinity_terms(updated_affinity.pod_anti_affinity))
            self.topology_to_matched_existing_anti_affinity_terms.update_with_anti_affinity_terms(
                pod, node, terms, multiplier)
        affinity = pod.spec.affinity
        if affinity is not None and updated_pod.spec.node_name:
            if affinity.pod_affinity is not None:
                terms = memo.affinity_terms(pod, get_pod_affinity_terms(affinity.pod_affinity))
                self.topology_to_matched_affinity_terms.update_with_affinity_terms(
                    updated_pod, node, terms, multiplier)
            if affinity.pod_anti_affinity is not None:
                try:
                    terms = memo.affinity_terms(pod, get_pod_anti_affinity_terms(affinity.pod_anti_affinity))
                except SelectorError:
                    terms = []  # upstream logs the error and goes on with no terms
                self.topology_to_matched_anti_affinity_terms.update_with_anti_affinity_terms(
                    updated_pod, node, terms, multiplier)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PreFilterState) and all(
            getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __repr__(self) -> str:
        return "PreFilterState(" + ", ".join(f"{f}={dict(getattr(self, f))}" for f in self.__slots__) + ")"


def get_matching_anti_affinity_topology_pairs_of_pod(memo: TermMemo, new_pod: Pod, existing_pod: Pod,
                                                     node: Node) -> TopologyToMatchedTermCount:
    """Pairs of ``node`` where one of ``existing_pod``'s required anti-affinity terms matches ``new_pod``."""
    topology_map = TopologyToMatchedTermCount()
    affinity = existing_pod.spec.affinity
    if affinity is None or affinity.pod_anti_affinity is None:
        return topology_map
    # every term is processed before any is matched: a bad selector fails PreFilter as a whole
    labels = node.metadata.labels
    for term in memo.existing_affinity_terms(existing_pod, get_pod_anti_affinity_terms(affinity.pod_anti_affinity)):
        if pod_matches_terms_namespace_and_selector(new_pod, term.namespaces, term.selector):
            value = labels.get(term.topology_key)
            if value is not None:
                pair = (term.topology_key, value)
                topology_map[pair] = topology_map.get(pair, 0) + 1
    return topology_map


def get_tp_map_matching_existing_anti_affinity(memo: TermMemo, pod: Pod,
                                               all_nodes: list[NodeInfo]) -> TopologyToMatchedTermCount:
    """Existing pods' required anti-affinity terms that ``pod`` would violate, per topology pair."""
    topology_map = TopologyToMatchedTermCount()
    for node_info in all_nodes:
        if node_info.node is None:
            continue  # upstream logs "node not found"
        for existing_pod in node_info.pods_with_affinity:
            found = get_matching_anti_affinity_topology_pairs_of_pod(memo, pod, existing_pod, node_info.node)
            topology_map.append(found)
    return topology_map


def get_tp_map_matching_incoming_affinity_anti_affinity(
        memo: TermMemo, pod: Pod,
        all_nodes: list[NodeInfo]) -> tuple[TopologyToMatchedTermCount, TopologyToMatchedTermCount]:
    """Existing pods matching ``pod``'s required affinity (all terms) / anti-affinity (each term)."""
    affinity_map, anti_affinity_map = TopologyToMatchedTermCount(), TopologyToMatchedTermCount()
    affinity = pod.spec.affinity
    if affinity is None or (affinity.pod_affinity is None and affinity.pod_anti_affinity is None):
        return affinity_map, anti_affinity_map
    affinity_terms = memo.affinity_terms(pod, get_pod_affinity_terms(affinity.pod_affinity))
    anti_affinity_terms = memo.affinity_terms(pod, get_pod_anti_affinity_terms(affinity.pod_anti_affinity))
    for node_info in all_nodes:
        node = node_info.node
        if node is None:
            continue
        for existing_pod in node_info.pods:  # (an empty term list counts nothing)
            if affinity_terms:
                affinity_map.update_with_affinity_terms(existing_pod, node, affinity_terms, 1)
            if anti_affinity_terms:
                anti_affinity_map.update_with_anti_affinity_terms(existing_pod, node, anti_affinity_terms, 1)
    return affinity_map, anti_affinity_map


def target_pod_matches_affinity_of_pod(memo: TermMemo, pod: Pod, target_pod: Pod) -> bool:
    """Whether ``target_pod`` matches ALL of ``pod``'s required affinity terms (topology not checked)."""
    affinity = pod.spec.affinity
    if affinity is None or affinity.pod_affinity is None:
        return False
    try:
        terms = memo.affinity_terms(pod, get_pod_affinity_terms(affinity.pod_affinity))
    except SelectorError:
        return False
    return pod_matches_all_affinity_terms(target_pod, terms)


def get_pre_filter_state(cycle_state: CycleState) -> PreFilterState:
    """Read the PreFilter state; raises LookupError with upstream's text when it is absent."""
    try:
        state = cycle_state.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError as err:
        raise LookupError(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(state, PreFilterState):
        raise LookupError(f"{state!r}  convert to interpodaffinity.state error")
    return state


def node_matches_all_topology_terms(pairs: TopologyToMatchedTermCount, node: Node,
                                    terms: Iterable[PodAffinityTerm]) -> bool:
    for term in terms:
        value = node.metadata.labels.get(term.topology_key)
        if value is None or pairs.get((term.topology_key, value), 0) <= 0:
            return False
    return True


def node_matches_any_topology_term(pairs: TopologyToMatchedTermCount, node: Node,
                                   terms: Iterable[PodAffinityTerm]) -> bool:
    for term in terms:
        value = node.metadata.labels.get(term.topology_key)
        if value is not None and pairs.get((term.topology_key, value), 0) > 0:
            return True
    return False


class Filtering:
    """The PreFilter, PreFilterExtensions and Filter methods of InterPodAffinity."""

    shared_lister: object
    memo: TermMemo

    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> Optional[Status]:
        node_infos = self.shared_lister.node_infos()
        all_nodes = node_infos.list()
        have_pods_with_affinity_nodes = node_infos.have_pods_with_affinity_list()
        try:
            existing = get_tp_map_matching_existing_anti_affinity(self.memo, pod, have_pods_with_affinity_nodes)
        except SelectorError as err:
            return Status.new(Code.ERROR, f"calculating preFilterState: {err}")
        try:
            affinity_map, anti_map = get_tp_map_matching_incoming_affinity_anti_affinity(self.memo, pod, all_nodes)
        except SelectorError as err:
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"calculating preFilterState: {err}")
        cycle_state.write(PRE_FILTER_STATE_KEY, PreFilterState(existing, affinity_map, anti_map))
        return None

    def pre_filter_extensions(self) -> "Filtering":
        return self

    def add_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_to_add: Pod,
                node_info: NodeInfo) -> Optional[Status]:
        return self._update(cycle_state, pod_to_schedule, pod_to_add, node_info, 1)

    def remove_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_to_remove: Pod,
                   node_info: NodeInfo) -> Optional[Status]:
        return self._update(cycle_state, pod_to_schedule, pod_to_remove, node_info, -1)

    def _update(self, cycle_state: CycleState, pod: Pod, updated: Pod, node_info: NodeInfo,
                multiplier: int) -> Optional[Status]:
        try:
            state = get_pre_filter_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        try:
            state.update_with_pod(self.memo, updated, pod, node_info.node, multiplier)
        except SelectorError:
            pass  # upstream drops updateWithPod's error
        return None

    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        try:
            state = get_pre_filter_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        if state.topology_to_matched_existing_anti_affinity_terms and not satisfies_existing_pods_anti_affinity(
                state, node_info):  # (no counted pair: satisfied)
            return Status.new(Code.UNSCHEDULABLE, ERR_REASON_AFFINITY_NOT_MATCH,
                              ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
        affinity = pod.spec.affinity
        if affinity is None or (affinity.pod_affinity is None and affinity.pod_anti_affinity is None):
            return None
        node = node_info.node
        if node is None:
            return Status.new(Code.ERROR, "node not found")
        if not satisfies_pod_affinity(self.memo, pod, state, node):
            return Status.new(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_AFFINITY_NOT_MATCH,
                              ERR_REASON_AFFINITY_RULES_NOT_MATCH)
        if not satisfies_pod_anti_affinity(pod, state, node):
            return Status.new(Code.UNSCHEDULABLE, ERR_REASON_AFFINITY_NOT_MATCH,
                              ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
        return None


def satisfies_existing_pods_anti_affinity(state: PreFilterState, node_info: NodeInfo) -> bool:
    """False when some label pair of the node is claimed by an existing pod's anti-affinity."""
    counts = state.topology_to_matched_existing_anti_affinity_terms
    if not counts or node_info.node is None:
        return True
    for pair in node_info.node.metadata.labels.items():
        if counts.get(pair, 0) > 0:
            return False
    return True


def satisfies_pod_affinity(memo: TermMemo, pod: Pod, state: PreFilterState, node: Node) -> bool:
    """The affinity half of ``satisfiesPodsAffinityAntiAffinity`` (with the first-pod exception)."""
    terms = get_pod_affinity_terms(pod.spec.affinity.pod_affinity)
    if not terms:
        return True
    pairs = state.topology_to_matched_affinity_terms
    if node_matches_all_topology_terms(pairs, node, terms):
        return True
    # The first pod of a group that has affinity to itself may go anywhere.
    return not pairs and target_pod_matches_affinity_of_pod(memo, pod, pod)


def satisfies_pod_anti_affinity(pod: Pod, state: PreFilterState, node: Node) -> bool:
    """The anti-affinity half of ``satisfiesPodsAffinityAntiAffinity``."""
    terms = get_pod_anti_affinity_terms(pod.spec.affinity.pod_anti_affinity)
    return not (terms and node_matches_any_topology_term(state.topology_to_matched_anti_affinity_terms,
                                                         node, terms))
