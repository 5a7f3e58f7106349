"""Per-pod, per-node volume binding decisions made in Filter and used by Assume/Bind.

Upstream: pkg/controller/volume/scheduling/scheduler_binder_cache.go @ v1.18.5
(PodBindingCache: UpdateBindings, GetBindings, GetProvisionedPVCs, GetDecisions,
DeleteBindings, ClearBindings).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from kubesched.api.core import PersistentVolume, PersistentVolumeClaim, Pod


@dataclass(frozen=True, slots=True)
class BindingInfo:
    """``bindingInfo``: a claim and the PV proposed for it."""

    pvc: PersistentVolumeClaim
    pv: PersistentVolume


@dataclass(slots=True)
class NodeDecision:
    bindings: Optional[list[BindingInfo]] = None
    provisionings: Optional[list[PersistentVolumeClaim]] = None


def get_pod_name(pod: Pod) -> str:
    """``getPodName``: ``namespace/name``."""
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


@dataclass(slots=True)
class PodBindingCache:
    """``podBindingCache``: pod name → node name → decision."""

    binding_decisions: dict[str, dict[str, NodeDecision]] = field(default_factory=dict)

    def delete_bindings(self, pod: Pod) -> None:
        self.binding_decisions.pop(get_pod_name(pod), None)

    def update_bindings(self, pod: Pod, node: str, bindings: Optional[list[BindingInfo]],
                        provisionings: Optional[list[PersistentVolumeClaim]]) -> None:
        decisions = self.binding_decisions.setdefault(get_pod_name(pod), {})
        decisions[node] = NodeDecision(bindings, provisionings)

    def get_bindings(self, pod: Pod, node: str) -> Optional[list[BindingInfo]]:
        decision = self.binding_decisions.get(get_pod_name(pod), {}).get(node)
        return None if decision is None else decision.bindings

    def get_provisioned_pvcs(self, pod: Pod, node: str) -> Optional[list[PersistentVolumeClaim]]:
        decision = self.binding_decisions.get(get_pod_name(pod), {}).get(node)
        return None if decision is None else decision.provisionings

    def get_decisions(self, pod: Pod) -> Optional[dict[str, NodeDecision]]:
        return self.binding_decisions.get(get_pod_name(pod))

    def clear_bindings(self, pod: Pod, node: str) -> None:
        decisions = self.binding_decisions.get(get_pod_name(pod))
        if decisions is not None:
            decisions.pop(node, None)
