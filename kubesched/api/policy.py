"""policy/v1beta1 PodDisruptionBudget, as preemption reads it.

Upstream: staging/src/k8s.io/api/policy/v1beta1/types.go (PodDisruptionBudget);
pkg/scheduler/core/generic_scheduler.go filterPodsWithPDBViolation reads
``spec.selector`` and ``status.disruptionsAllowed`` (v1.18.5; ``disruptedPods`` is
kept for completeness: preemption reads it only from 1.19 on).
"""

from __future__ import annotations

from typing import ClassVar, Mapping, Optional

from kubesched.api.fields import fld, mapping, model
from kubesched.api.meta import IntOrString, LabelSelector, ObjectMeta, Time


@model
class PodDisruptionBudgetSpec:
    min_available: Optional[IntOrString] = None
    max_unavailable: Optional[IntOrString] = None
    selector: Optional[LabelSelector] = None


@model
class PodDisruptionBudgetStatus:
    observed_generation: int = 0
    disrupted_pods: Mapping[str, Time] = mapping()
    disruptions_allowed: int = 0
    current_healthy: int = 0
    desired_healthy: int = 0
    expected_pods: int = 0


@model
class PodDisruptionBudget:
    API_VERSION: ClassVar[str] = "policy/v1beta1"
    KIND: ClassVar[str] = "PodDisruptionBudget"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: PodDisruptionBudgetSpec = fld(factory=PodDisruptionBudgetSpec)
    status: PodDisruptionBudgetStatus = fld(factory=PodDisruptionBudgetStatus)
