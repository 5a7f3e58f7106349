"""apps/v1 workload kinds: ReplicaSet, Deployment, StatefulSet, DaemonSet.

Upstream: staging/src/k8s.io/api/apps/v1/types.go. The scheduler reads ReplicaSets and
StatefulSets through listers (DefaultPodTopologySpread, ServiceAffinity,
NodePreferAvoidPods); the simulator creates their pods: ReplicaSets and Deployments at
load time (kubesched.api.controllers), StatefulSets and DaemonSets by live controllers
on the loop (kubesched.cluster.statefulset_controller, daemonset_controller).
StatefulSet and DaemonSet fields the controllers do not read are kept as plain data
(``updateStrategy``) so real manifests decode without warnings.
"""

from __future__ import annotations

from typing import ClassVar, Mapping, Optional

from kubesched.api.core import PersistentVolumeClaim, PodTemplateSpec
from kubesched.api.fields import fld, model
from kubesched.api.meta import LabelSelector, ObjectMeta, Time

ORDERED_READY_POD_MANAGEMENT = "OrderedReady"
PARALLEL_POD_MANAGEMENT = "Parallel"
DEPRECATED_TEMPLATE_GENERATION = "deprecated.daemonset.template.generation"
"""``apps.DeprecatedTemplateGeneration``: the DaemonSet's template generation annotation."""


@model
class WorkloadCondition:
    """StatefulSetCondition and DaemonSetCondition (same fields)."""

    type: str = fld("", required=True)
    status: str = fld("", required=True)
    last_transition_time: Optional[Time] = None
    reason: str = ""
    message: str = ""


@model
class ReplicaSetSpec:
    replicas: Optional[int] = None
    selector: Optional[LabelSelector] = None
    template: Optional[PodTemplateSpec] = None


@model
class ReplicaSet:
    API_VERSION: ClassVar[str] = "apps/v1"
    KIND: ClassVar[str] = "ReplicaSet"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: ReplicaSetSpec = fld(factory=ReplicaSetSpec)


@model
class DeploymentSpec:
    replicas: Optional[int] = None
    selector: Optional[LabelSelector] = None
    template: Optional[PodTemplateSpec] = None


@model
class Deployment:
    API_VERSION: ClassVar[str] = "apps/v1"
    KIND: ClassVar[str] = "Deployment"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: DeploymentSpec = fld(factory=DeploymentSpec)


@model
class StatefulSetSpec:
    replicas: Optional[int] = None
    selector: Optional[LabelSelector] = None
    template: Optional[PodTemplateSpec] = None
    volume_claim_templates: tuple[PersistentVolumeClaim, ...] = ()
    service_name: str = ""
    pod_management_policy: str = ""
    update_strategy: Optional[Mapping[str, object]] = None
    revision_history_limit: Optional[int] = None


@model
class StatefulSetStatus:
    observed_generation: int = 0
    replicas: int = 0
    ready_replicas: int = 0
    current_replicas: int = 0
    updated_replicas: int = 0
    current_revision: str = ""
    update_revision: str = ""
    collision_count: Optional[int] = None
    conditions: tuple[WorkloadCondition, ...] = ()


@model
class StatefulSet:
    API_VERSION: ClassVar[str] = "apps/v1"
    KIND: ClassVar[str] = "StatefulSet"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: StatefulSetSpec = fld(factory=StatefulSetSpec)
    status: StatefulSetStatus = fld(factory=StatefulSetStatus)


@model
class DaemonSetSpec:
    selector: Optional[LabelSelector] = None
    template: Optional[PodTemplateSpec] = None
    update_strategy: Optional[Mapping[str, object]] = None
    min_ready_seconds: int = 0
    revision_history_limit: Optional[int] = None


@model
class DaemonSetStatus:
    current_number_scheduled: int = 0
    number_misscheduled: int = 0
    desired_number_scheduled: int = 0
    number_ready: int = 0
    observed_generation: int = 0
    updated_number_scheduled: int = 0
    number_available: int = 0
    number_unavailable: int = 0
    collision_count: Optional[int] = None
    conditions: tuple[WorkloadCondition, ...] = ()


@model
class DaemonSet:
    API_VERSION: ClassVar[str] = "apps/v1"
    KIND: ClassVar[str] = "DaemonSet"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: DaemonSetSpec = fld(factory=DaemonSetSpec)
    status: DaemonSetStatus = fld(factory=DaemonSetStatus)
