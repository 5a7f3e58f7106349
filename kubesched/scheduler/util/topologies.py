"""Topology helpers shared by the pod (anti-)affinity plugins.

Upstream: pkg/scheduler/util/topologies.go (GetNamespacesFromPodAffinityTerm,
PodMatchesTermsNamespaceAndSelector, NodesHaveSameTopologyKey).
"""

from __future__ import annotations

from typing import AbstractSet, Optional

from kubesched.api.core import Node, Pod, PodAffinityTerm
from kubesched.api.labels import Selector


def get_namespaces_from_pod_affinity_term(pod: Pod, term: PodAffinityTerm) -> frozenset[str]:
    """The term's namespaces, or the namespace of ``pod`` (the pod owning the term) when none are listed."""
    if not term.namespaces:
        return frozenset((pod.metadata.namespace,))
    return frozenset(term.namespaces)


def pod_matches_terms_namespace_and_selector(pod: Pod, namespaces: AbstractSet[str],
                                             selector: Selector) -> bool:
    """Whether ``pod`` lives in one of ``namespaces`` (when any) and its labels match ``selector``."""
    if namespaces and pod.metadata.namespace not in namespaces:
        return False
    return selector.matches(pod.metadata.labels)


def nodes_have_same_topology_key(node_a: Optional[Node], node_b: Optional[Node], topology_key: str) -> bool:
    """Whether both nodes carry ``topology_key`` with the same (non-empty-key) value."""
    if not topology_key or node_a is None or node_b is None:
        return False
    labels_a, labels_b = node_a.metadata.labels, node_b.metadata.labels
    if topology_key not in labels_a or topology_key not in labels_b:
        return False
    return labels_a[topology_key] == labels_b[topology_key]
