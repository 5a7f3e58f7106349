"""Does a pod's nodeSelector and required node affinity accept a node?

Upstream: pkg/scheduler/framework/plugins/helper/node_affinity.go
(PodMatchesNodeSelectorAndAffinityTerms, nodeMatchesNodeSelectorTerms).

Rules (as upstream): a nil required node selector matches every node; nil or empty
``nodeSelectorTerms`` match no node; a term with no requirements matches no node.
``requiredDuringSchedulingRequiredDuringExecution`` is not implemented upstream either.

Deviation: upstream keeps this in the scheduler's plugin helpers and the DaemonSet
controller (pkg/controller/daemon, ``Predicates``) imports it from there; here it lives in
the api layer so kubesched.cluster's DaemonSet controller, below the scheduler, shares it.
The scheduler imports it through kubesched.scheduler.framework.plugins.helper.node_affinity.
"""

from __future__ import annotations

from kubesched.api import v1helper
from kubesched.api.core import Node, Pod
from kubesched.api.labels import EVERYTHING, Requirement, Selector, EQUALS
from kubesched.api import field_errors


def pod_matches_node_selector_and_affinity_terms(pod: Pod, node: Node) -> bool:
    """``PodMatchesNodeSelectorAndAffinityTerms``."""
    if pod.spec.node_selector:
        if not selector_from_set(pod.spec.node_selector).matches(node.metadata.labels):
            return False
    affinity = pod.spec.affinity
    if affinity is None or affinity.node_affinity is None:
        return True
    required = affinity.node_affinity.required_during_scheduling_ignored_during_execution
    if required is None:
        return True
    return node_matches_node_selector_terms(node, required.node_selector_terms)


def node_matches_node_selector_terms(node: Node, terms) -> bool:
    """``nodeMatchesNodeSelectorTerms``: node labels plus the field ``metadata.name``."""
    return v1helper.match_node_selector_terms(
        terms, node.metadata.labels, {v1helper.NODE_FIELD_SELECTOR_KEY_NODE_NAME: node.metadata.name})


def selector_from_set(label_set) -> Selector:
    """``labels.SelectorFromSet`` of v0.18: an invalid key or value degrades to match-everything."""
    for key, value in label_set.items():
        if field_errors.is_qualified_name(key) or field_errors.is_valid_label_value(value):
            return EVERYTHING
    return Selector(tuple(Requirement(k, EQUALS, (v,)) for k, v in sorted(label_set.items())))
