"""Shared pieces of PodTopologySpread: name and reasons, topology pairs, parsed constraints, defaults.

Upstream: pkg/scheduler/framework/plugins/podtopologyspread/common.go (topologyPair,
topologySpreadConstraint, defaultConstraints, nodeLabelsMatchSpreadConstraints,
filterTopologySpreadConstraints); the constants are plugin.go's (Name, ErrReasonConstraintsNotMatch,
supportedScheduleActions), kept here so filtering.py and scoring.py need not import plugin.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from kubesched.api.core import Pod, TopologySpreadConstraint as V1Constraint
from kubesched.api.labels import Selector, label_selector_as_selector
from kubesched.scheduler.framework.plugins.helper.spread import default_selector

NAME = "PodTopologySpread"
ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"
SUPPORTED_SCHEDULE_ACTIONS = (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY)  # sorted, as sets.String.List()

TopologyPair = tuple[str, str]  # (topologyKey, value)


@dataclass(frozen=True, slots=True)
class TopologySpreadConstraint:
    """``topologySpreadConstraint``: a v1 constraint with its selector parsed."""

    max_skew: int
    topology_key: str
    selector: Selector


def filter_topology_spread_constraints(constraints: Iterable[V1Constraint],
                                       action: str) -> list[TopologySpreadConstraint]:
    """The constraints whose whenUnsatisfiable is ``action``, in order; raises SelectorError."""
    return [TopologySpreadConstraint(c.max_skew, c.topology_key, label_selector_as_selector(c.label_selector))
            for c in constraints if c.when_unsatisfiable == action]


def default_constraints(pl, pod: Pod, action: str) -> list[TopologySpreadConstraint]:
    """The configured defaults for ``action``, all with the selector deduced from the pod's owners."""
    constraints = filter_topology_spread_constraints(pl.default_constraints, action)
    if not constraints:
        return []
    selector = default_selector(pod, pl.listers)
    if selector.empty():
        return []
    return [TopologySpreadConstraint(c.max_skew, c.topology_key, selector) for c in constraints]


def node_labels_match_spread_constraints(node_labels: Mapping[str, str],
                                         constraints: Iterable[TopologySpreadConstraint]) -> bool:
    """Whether the node carries every constraint's topology key."""
    return all(c.topology_key in node_labels for c in constraints)


def count_matching_pods(pods: Iterable[Pod], namespace: str, selector: Selector) -> int:
    """Pods of ``namespace``, not terminating, whose labels match ``selector``."""
    return sum(1 for p in pods
               if p.metadata.deletion_timestamp is None and p.metadata.namespace == namespace
               and selector.matches(p.metadata.labels))
