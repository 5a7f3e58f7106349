"""apps/v1 workload controllers: ReplicaSet, Deployment, StatefulSet.

Upstream: staging/src/k8s.io/api/apps/v1/types.go. The scheduler reads them
through listers (DefaultPodTopologySpread, ServiceAffinity, NodePreferAvoidPods);
the simulator also expands ``replicas`` into pods (kubesched.api.controllers).
"""

from __future__ import annotations

from typing import ClassVar, Optional

from kubesched.api.core import PodTemplateSpec
from kubesched.api.fields import fld, model
from kubesched.api.meta import LabelSelector, ObjectMeta


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
    service_name: str = ""


@model
class StatefulSet:
    API_VERSION: ClassVar[str] = "apps/v1"
    KIND: ClassVar[str] = "StatefulSet"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: StatefulSetSpec = fld(factory=StatefulSetSpec)
