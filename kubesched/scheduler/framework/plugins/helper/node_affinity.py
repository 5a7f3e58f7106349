"""Does a pod's nodeSelector and required node affinity accept a node? (the scheduler's name for it)

Upstream: pkg/scheduler/framework/plugins/helper/node_affinity.go
(PodMatchesNodeSelectorAndAffinityTerms, nodeMatchesNodeSelectorTerms).
Deviation: the implementation is kubesched.api.node_affinity, which the DaemonSet
controller below the scheduler shares (upstream's controller imports this package).
"""

from __future__ import annotations

from kubesched.api.node_affinity import (node_matches_node_selector_terms,
                                         pod_matches_node_selector_and_affinity_terms, selector_from_set)

__all__ = ["node_matches_node_selector_terms", "pod_matches_node_selector_and_affinity_terms",
           "selector_from_set"]
