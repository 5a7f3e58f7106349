"""InterPodAffinity PreScore / Score / NormalizeScore: preferred (anti-)affinity and symmetry.

Upstream: pkg/scheduler/framework/plugins/interpodaffinity/scoring.go (preScoreState,
processTerm, processTerms, processExistingPod, PreScore, getPreScoreState, Score,
NormalizeScore); the weighted terms are processed by the plugin's TermMemo (terms.py).

NormalizeScore uses float64 arithmetic and truncation as v1.18.5:
``int64(MaxNodeScore * (score - min) / (max - min))`` with max >= 0 >= min.
Deviation: upstream processes nodes from 16 goroutines; here they are visited in snapshot
order (integer sums, so the scores are the same).
"""

from __future__ import annotations

from typing import Iterable, Optional

from kubesched.api.core import Node, Pod
from kubesched.api.labels import SelectorError
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error
from kubesched.scheduler.framework.plugins.interpodaffinity.names import NAME
from kubesched.scheduler.framework.plugins.interpodaffinity.terms import TermMemo, WeightedAffinityTerm
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState, StateNotFoundError
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, NodeScore, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from kubesched.scheduler.util.topologies import pod_matches_terms_namespace_and_selector

PRE_SCORE_STATE_KEY = "PreScore" + NAME


class PreScoreState:
    """``preScoreState``: topologyKey -> value -> score, plus the incoming pod's preferred terms."""

    __slots__ = ("topology_score", "affinity_terms", "anti_affinity_terms")

    def __init__(self, affinity_terms: list[WeightedAffinityTerm],
                 anti_affinity_terms: list[WeightedAffinityTerm]) -> None:
        self.topology_score: dict[str, dict[str, int]] = {}
        self.affinity_terms = affinity_terms
        self.anti_affinity_terms = anti_affinity_terms

    def clone(self) -> "PreScoreState":
        return self  # read-only after PreScore, as upstream


def process_term(state: PreScoreState, term: WeightedAffinityTerm, pod_to_check: Pod,
                 fixed_node: Node, multiplier: int) -> None:
    """Add weight*multiplier to the node's pair when ``pod_to_check`` matches ``term``."""
    labels = fixed_node.metadata.labels
    if not labels:
        return
    value = labels.get(term.topology_key)
    if value is None or not pod_matches_terms_namespace_and_selector(pod_to_check, term.namespaces, term.selector):
        return
    by_value = state.topology_score.get(term.topology_key)
    if by_value is None:
        by_value = state.topology_score[term.topology_key] = {}
    weight = term.weight * multiplier
    if not _INT32_MIN <= weight <= _INT32_MAX:
        weight = _int32(weight)
    by_value[value] = by_value.get(value, 0) + weight


_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def _int32(value: int) -> int:
    """``term.weight * int32(multiplier)`` is int32 arithmetic upstream (wraps on overflow)."""
    return (value + 2**31) % 2**32 - 2**31


def process_terms(state: PreScoreState, terms: Iterable[WeightedAffinityTerm], pod_to_check: Pod,
                  fixed_node: Node, multiplier: int) -> None:
    for term in terms:
        process_term(state, term, pod_to_check, fixed_node, multiplier)


def get_pre_score_state(cycle_state: CycleState) -> PreScoreState:
    try:
        state = cycle_state.read(PRE_SCORE_STATE_KEY)
    except StateNotFoundError as err:
        raise LookupError(f'Error reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(state, PreScoreState):
        raise LookupError(f"{state!r}  convert to interpodaffinity.preScoreState error")
    return state


class Scoring:
    """The PreScore, Score and NormalizeScore methods of InterPodAffinity."""

    shared_lister: object
    hard_pod_affinity_weight: int
    memo: TermMemo

    def process_existing_pod(self, state: PreScoreState, existing_pod: Pod, node_info: NodeInfo,
                             incoming_pod: Pod) -> None:
        """Raises SelectorError where upstream returns an error."""
        existing_affinity = existing_pod.spec.affinity
        node = node_info.node
        if state.affinity_terms:
            process_terms(state, state.affinity_terms, existing_pod, node, 1)
        if state.anti_affinity_terms:
            process_terms(state, state.anti_affinity_terms, existing_pod, node, -1)
        if existing_affinity is None:
            return
        pod_affinity = existing_affinity.pod_affinity
        if pod_affinity is not None:
            if self.hard_pod_affinity_weight > 0:
                # a bad required term raises before any is processed: PreScore then fails as a whole
                process_terms(state, self.memo.existing_weighted_terms(
                    existing_pod, pod_affinity.required_during_scheduling_ignored_during_execution,
                    self.hard_pod_affinity_weight), incoming_pod, node, 1)
            try:
                terms = self.memo.existing_weighted_terms(
                    existing_pod, pod_affinity.preferred_during_scheduling_ignored_during_execution)
            except SelectorError:
                return  # upstream logs it and skips the rest of this pod
            process_terms(state, terms, incoming_pod, node, 1)
        if existing_affinity.pod_anti_affinity is not None:
            terms = self.memo.existing_weighted_terms(
                existing_pod, existing_affinity.pod_anti_affinity.preferred_during_scheduling_ignored_during_execution)
            process_terms(state, terms, incoming_pod, node, -1)

    def pre_score(self, cycle_state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[Status]:
        if not nodes:
            return None
        if self.shared_lister is None:
            return Status.new(Code.ERROR, "BuildTopologyPairToScore with empty shared lister")
        affinity = pod.spec.affinity
        has_affinity = affinity is not None and affinity.pod_affinity is not None
        has_anti_affinity = affinity is not None and affinity.pod_anti_affinity is not None
        node_infos = self.shared_lister.node_infos()
        all_nodes = node_infos.list() if has_affinity or has_anti_affinity else node_infos.have_pods_with_affinity_list()
        try:
            affinity_terms = self.memo.weighted_terms(
                pod, affinity.pod_affinity.preferred_during_scheduling_ignored_during_execution) if has_affinity else []
            anti_terms = self.memo.weighted_terms(
                pod, affinity.pod_anti_affinity.preferred_during_scheduling_ignored_during_execution) \
                if has_anti_affinity else []
        except SelectorError as err:
            return Status.new(Code.ERROR, f"processing affinity terms: {err}")
        state = PreScoreState(affinity_terms, anti_terms)
        for node_info in all_nodes:
            if node_info.node is None:
                continue
            pods = node_info.pods if has_affinity or has_anti_affinity else node_info.pods_with_affinity
            for existing_pod in pods:
                try:
                    self.process_existing_pod(state, existing_pod, node_info, pod)
                except SelectorError as err:
                    return Status.new(Code.ERROR, str(err))
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
        topology_score = state.topology_score
        if not topology_score:
            return 0, None
        labels = node.metadata.labels
        score = 0
        for key, values in topology_score.items():
            if key in labels:
                score += values.get(labels[key], 0)
        return score, None

    def constant_score(self, cycle_state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[int]:
        """Not upstream (PreScoreSkip): 0 when every topology score PreScore summed is 0 (usually:
        none at all), as Score adds only those. None when the state is missing (Score errs)."""
        try:
            state = get_pre_score_state(cycle_state)
        except LookupError:
            return None
        for values in state.topology_score.values():
            for value in values.values():
                if value != 0:
                    return None
        return 0

    def normalize_score(self, cycle_state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        try:
            state = get_pre_score_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        if not state.topology_score:
            return None
        max_count = max([0] + [s.score for s in scores])
        min_count = min([0] + [s.score for s in scores])
        diff = max_count - min_count
        for node_score in scores:
            f_score = 0.0
            if diff > 0:
                f_score = float(MAX_NODE_SCORE) * (float(node_score.score - min_count) / float(diff))
            node_score.score = int(f_score)
        return None

    def score_extensions(self) -> "Scoring":
        return self
