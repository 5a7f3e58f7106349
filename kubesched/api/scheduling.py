"""scheduling.k8s.io/v1 PriorityClass.

Upstream: staging/src/k8s.io/api/scheduling/v1/types.go (PriorityClass) and the
built-in classes of pkg/apis/scheduling/types.go (SystemClusterCritical,
SystemNodeCritical).
"""

from __future__ import annotations

from typing import ClassVar, Optional

from kubesched.api.fields import fld, model
from kubesched.api.meta import ObjectMeta

SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical"
SYSTEM_NODE_CRITICAL = "system-node-critical"
SYSTEM_CRITICAL_PRIORITY = 2_000_000_000
"""``scheduling.SystemCriticalPriority``: user classes must stay at or below 1e9."""
HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
BUILTIN_PRIORITIES = {
    SYSTEM_CLUSTER_CRITICAL: SYSTEM_CRITICAL_PRIORITY,
    SYSTEM_NODE_CRITICAL: SYSTEM_CRITICAL_PRIORITY + 1000,
}
PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"
PREEMPT_NEVER = "Never"


@model
class PriorityClass:
    API_VERSION: ClassVar[str] = "scheduling.k8s.io/v1"
    KIND: ClassVar[str] = "PriorityClass"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    value: int = fld(0, required=True)
    global_default: bool = False
    description: str = ""
    preemption_policy: Optional[str] = None
