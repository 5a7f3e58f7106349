"""ServiceAffinity: Service pods share affinity label values; spread them over anti-affinity labels.

Upstream: pkg/scheduler/framework/plugins/serviceaffinity/service_affinity.go (Name,
ErrReason, Args, preFilterState, Clone, New, ServiceAffinity, createPreFilterState,
PreFilter, AddPod, RemovePod, getPreFilterState, Filter, Score, NormalizeScore,
updateNodeScoresForLabel, addUnsetLabelsToMap, createSelectorFromLabels,
filterPodsByNamespace, findLabelsInSet).

NormalizeScore as v1.18.5: per label, float64 ``100 * (total - countInValue) / total``
divided by the number of labels, summed, truncated to int64 at the end.
Deviation: the matching pod list follows the snapshot's node order (upstream: a Go map's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from kubesched.api.core import Pod, Service
from kubesched.api.labels import EVERYTHING, Selector, selector_from_set
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error
from kubesched.scheduler.framework.plugins.helper.spread import get_pod_services
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState, StateNotFoundError
from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, Code, NodeScore, Status
from kubesched.scheduler.framework.v1alpha1.plugin_args import decode_into
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME = "ServiceAffinity"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
ERR_REASON = "node(s) didn't match service affinity"


@dataclass(frozen=True, slots=True)
class Args:
    """``Args``: labels pods of a Service must share (Filter) and spread over (Score)."""

    affinity_labels: tuple[str, ...] = ()
    anti_affinity_labels_preference: tuple[str, ...] = ()


class PreFilterState:
    """``preFilterState``: pods matching the incoming pod's labels, and its Services."""

    __slots__ = ("matching_pod_list", "matching_pod_services")

    def __init__(self, matching_pod_list: list[Pod], matching_pod_services: list[Service]) -> None:
        self.matching_pod_list = matching_pod_list
        self.matching_pod_services = matching_pod_services

    def clone(self) -> "PreFilterState":
        return PreFilterState(list(self.matching_pod_list), list(self.matching_pod_services))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, PreFilterState) and self.matching_pod_list == other.matching_pod_list
                and self.matching_pod_services == other.matching_pod_services)


def create_selector_from_labels(labels: Mapping[str, str]) -> Selector:
    """Equality selector of ``labels``; everything when empty."""
    if not labels:
        return EVERYTHING
    return selector_from_set(labels)


def filter_pods_by_namespace(pods: list[Pod], namespace: str) -> list[Pod]:
    return [p for p in pods if p.metadata.namespace == namespace]


def find_labels_in_set(labels_to_keep: list[str], label_set: Mapping[str, str]) -> dict[str, str]:
    return {label: label_set[label] for label in labels_to_keep if label in label_set}


def add_unset_labels_to_map(affinity: dict[str, str], labels_to_add: list[str],
                            label_set: Mapping[str, str]) -> None:
    """Back-fill labels missing from ``affinity`` with the values found in ``label_set``."""
    for label in labels_to_add:
        if label not in affinity and label in label_set:
            affinity[label] = label_set[label]


def get_pre_filter_state(cycle_state: CycleState) -> Optional[PreFilterState]:
    try:
        state = cycle_state.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError as err:
        raise LookupError(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}') from None
    if state is None:
        return None
    if not isinstance(state, PreFilterState):
        raise LookupError(f"{state!r}  convert to interpodaffinity.state error")
    return state


class ServiceAffinity:
    def __init__(self, args: Args, shared_lister, service_lister) -> None:
        self.args = args
        self.shared_lister = shared_lister
        self.service_lister = service_lister

    def name(self) -> str:
        return NAME

    def create_pre_filter_state(self, pod: Optional[Pod]) -> PreFilterState:
        if pod is None:
            raise ValueError("a pod is required to calculate service affinity preFilterState")
        services = get_pod_services(self.service_lister, pod)
        all_matches = self.shared_lister.pods().list(create_selector_from_labels(pod.metadata.labels))
        return PreFilterState(filter_pods_by_namespace(all_matches, pod.metadata.namespace), services)

    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> Optional[Status]:
        try:
            state = self.create_pre_filter_state(pod)
        except ValueError as err:
            return Status.new(Code.ERROR, f"could not create preFilterState: {err}")
        cycle_state.write(PRE_FILTER_STATE_KEY, state)
        return None

    def pre_filter_extensions(self) -> "ServiceAffinity":
        return self

    def add_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_to_add: Pod,
                node_info: NodeInfo) -> Optional[Status]:
        try:
            state = get_pre_filter_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        if pod_to_add.metadata.namespace != pod_to_schedule.metadata.namespace:
            return None
        if create_selector_from_labels(pod_to_schedule.metadata.labels).matches(pod_to_add.metadata.labels):
            state.matching_pod_list.append(pod_to_add)
        return None

    def remove_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_to_remove: Pod,
                   node_info: NodeInfo) -> Optional[Status]:
        try:
            state = get_pre_filter_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        pods = state.matching_pod_list
        if not pods or pod_to_remove.metadata.namespace != pods[0].metadata.namespace:
            return None
        for i, p in enumerate(pods):
            if p.metadata.name == pod_to_remove.metadata.name and p.metadata.namespace == pod_to_remove.metadata.namespace:
                del pods[i]
                break
        return None

    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """All pods of the pod's Services must sit on nodes with equal affinity-label values."""
        if not self.args.affinity_labels:
            return None
        node = node_info.node
        if node is None:
            return Status.new(Code.ERROR, "node not found")
        try:
            state = get_pre_filter_state(cycle_state)
        except LookupError as err:
            return Status.new(Code.ERROR, str(err))
        filtered_pods = node_info.filter_out_pods(state.matching_pod_list)
        affinity = find_labels_in_set(self.args.affinity_labels, pod.spec.node_selector)
        if len(self.args.affinity_labels) > len(affinity) and state.matching_pod_services and filtered_pods:
            try:
                other = self.shared_lister.node_infos().get(filtered_pods[0].spec.node_name)
            except LookupError:
                return Status.new(Code.ERROR, "node not found")
            add_unset_labels_to_map(affinity, self.args.affinity_labels, other.node.metadata.labels)
        if create_selector_from_labels(affinity).matches(node.metadata.labels):
            return None
        return Status.new(Code.UNSCHEDULABLE, ERR_REASON)

    def score(self, cycle_state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        node_info = get_node_info(self.shared_lister.node_infos(), node_name)
        if node_info is None:
            return 0, Status.new(Code.ERROR, lookup_error(self.shared_lister.node_infos(), node_name))
        if node_info.node is None:
            return 0, Status.new(Code.ERROR, "node not found")
        services = get_pod_services(self.service_lister, pod)
        selector = selector_from_set(services[0].spec.selector) if services else Selector()
        if not node_info.pods or selector.empty():
            return 0, None
        return sum(1 for p in node_info.pods
                   if p.metadata.namespace == pod.metadata.namespace and p.metadata.deletion_timestamp is None
                   and selector.matches(p.metadata.labels)), None

    def normalize_score(self, cycle_state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        reduce_result = [0.0] * len(scores)
        for label in self.args.anti_affinity_labels_preference:
            try:
                self.update_node_scores_for_label(scores, reduce_result, label)
            except LookupError as err:
                return Status.new(Code.ERROR, str(err))
        for node_score, value in zip(scores, reduce_result):
            node_score.score = int(value)
        return None

    def update_node_scores_for_label(self, map_result: list[NodeScore], reduce_result: list[float],
                                     label: str) -> None:
        """Add this label's share of the spreading score to ``reduce_result``."""
        num_service_pods = 0
        pod_counts: dict[str, int] = {}
        label_of_node: dict[str, str] = {}
        for node_score in map_result:
            num_service_pods += node_score.score
            labels = self.shared_lister.node_infos().get(node_score.name).node.metadata.labels
            if label not in labels:
                continue
            label_of_node[node_score.name] = labels[label]
            pod_counts[labels[label]] = pod_counts.get(labels[label], 0) + node_score.score
        max_priority = float(MAX_NODE_SCORE)
        share = float(len(self.args.anti_affinity_labels_preference))
        for i, node_score in enumerate(map_result):
            if node_score.name not in label_of_node:
                continue
            f_score = max_priority
            if num_service_pods > 0:
                f_score = max_priority * (float(num_service_pods - pod_counts[label_of_node[node_score.name]])
                                          / float(num_service_pods))
            reduce_result[i] += f_score / share

    def score_extensions(self) -> "ServiceAffinity":
        return self


def new(args, handle) -> ServiceAffinity:
    """``New``: decode the args (no validation upstream); Services come from the informer listers."""
    return ServiceAffinity(decode_into(args, Args), handle.snapshot_shared_lister(), handle.listers())
