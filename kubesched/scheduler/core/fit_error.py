"""FitError (no node fits the pod) and the no-nodes error of the generic scheduler.

Upstream: pkg/scheduler/core/generic_scheduler.go @ v1.18.5 (FitError, FitError.Error,
ErrNoNodesAvailable, NoNodeAvailableMsg).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from kubesched.scheduler.framework.v1alpha1.interface import Status

NO_NODES_AVAILABLE = "no nodes available to schedule pods"  # ErrNoNodesAvailable
NO_NODE_AVAILABLE_MSG = "0/{} nodes are available"  # NoNodeAvailableMsg


class NoNodesAvailableError(Exception):
    """``ErrNoNodesAvailable``: the snapshot holds no node."""

    def __init__(self) -> None:
        super().__init__(NO_NODES_AVAILABLE)


class FitError(Exception):
    """``FitError``: no feasible node; ``filtered_nodes_statuses`` maps node name → Status."""

    def __init__(self, pod: Any, num_all_nodes: int, filtered_nodes_statuses: Mapping[str, Status]) -> None:
        super().__init__()
        self.pod = pod
        self.num_all_nodes = num_all_nodes
        self.filtered_nodes_statuses = dict(filtered_nodes_statuses)

    def reason_counts(self) -> Counter:
        """How many nodes gave each reason (one node may give several)."""
        return Counter(reason for status in self.filtered_nodes_statuses.values() for reason in status.reasons)

    def __str__(self) -> str:
        """``0/N nodes are available: <count reason>, ….`` with the parts sorted as strings."""
        parts = sorted(f"{count} {reason}" for reason, count in self.reason_counts().items())
        return NO_NODE_AVAILABLE_MSG.format(self.num_all_nodes) + f": {', '.join(parts)}."
