"""The core/v1 kinds the v1.18.5 scheduler reads: Pod, Node, volumes, Service, …

Upstream: staging/src/k8s.io/api/core/v1/types.go. Only the fields the
scheduler (or this simulator's API server and kubelet model) reads are kept;
which fields exist at all is the v1.18 OpenAPI schema's call (kubesched.api.openapi).
"""

from __future__ import annotations

from typing import ClassVar, Mapping, Optional

from kubesched.api.fields import fld, mapping, model
from kubesched.api.meta import IntOrString, LabelSelector, ObjectMeta, ObjectReference, Time
from kubesched.api.quantity import Quantity

ResourceList = Mapping[str, Quantity]


# ---------------------------------------------------------------- node selection


@model
class NodeSelectorRequirement:
    key: str = fld("", required=True)
    operator: str = fld("", required=True)
    values: tuple[str, ...] = ()


@model
class NodeSelectorTerm:
    match_expressions: tuple[NodeSelectorRequirement, ...] = ()
    match_fields: tuple[NodeSelectorRequirement, ...] = ()


@model
class NodeSelector:
    node_selector_terms: tuple[NodeSelectorTerm, ...] = fld((), required=True)


@model
class PreferredSchedulingTerm:
    weight: int = fld(0, required=True)
    preference: NodeSelectorTerm = fld(required=True, factory=NodeSelectorTerm)


@model
class NodeAffinity:
    required_during_scheduling_ignored_during_execution: Optional[NodeSelector] = None
    preferred_during_scheduling_ignored_during_execution: tuple[PreferredSchedulingTerm, ...] = ()


@model
class PodAffinityTerm:
    label_selector: Optional[LabelSelector] = None
    namespaces: tuple[str, ...] = ()
    topology_key: str = fld("", required=True)


@model
class WeightedPodAffinityTerm:
    weight: int = fld(0, required=True)
    pod_affinity_term: PodAffinityTerm = fld(required=True, factory=PodAffinityTerm)


@model
class PodAffinity:
    required_during_scheduling_ignored_during_execution: tuple[PodAffinityTerm, ...] = ()
    preferred_during_scheduling_ignored_during_execution: tuple[WeightedPodAffinityTerm, ...] = ()


@model
class Affinity:
    node_affinity: Optional[NodeAffinity] = None
    pod_affinity: Optional[PodAffinity] = None
    pod_anti_affinity: Optional[PodAffinity] = None


@model
class Toleration:
    key: str = ""
    operator: str = ""
    value: str = ""
    effect: str = ""
    toleration_seconds: Optional[int] = None


@model
class TopologySpreadConstraint:
    max_skew: int = fld(0, required=True)
    topology_key: str = fld("", required=True)
    when_unsatisfiable: str = fld("", required=True)
    label_selector: Optional[LabelSelector] = None


# ---------------------------------------------------------------- containers


@model
class ResourceRequirements:
    limits: ResourceList = mapping()
    requests: ResourceList = mapping()


@model
class ContainerPort:
    container_port: int = fld(0, required=True)
    host_port: int = 0
    protocol: str = "TCP"
    host_ip: str = fld("", json="hostIP")
    name: str = ""


@model
class Container:
    name: str = fld("", required=True)
    image: str = ""
    resources: ResourceRequirements = fld(factory=ResourceRequirements)
    ports: tuple[ContainerPort, ...] = ()


# ---------------------------------------------------------------- volumes


@model
class PersistentVolumeClaimVolumeSource:
    claim_name: str = fld("", required=True)
    read_only: bool = False


@model
class GCEPersistentDiskVolumeSource:
    pd_name: str = fld("", required=True)
    fs_type: str = ""
    partition: int = 0
    read_only: bool = False


@model
class AWSElasticBlockStoreVolumeSource:
    volume_id: str = fld("", json="volumeID", required=True)
    fs_type: str = ""
    partition: int = 0
    read_only: bool = False


@model
class AzureDiskVolumeSource:
    disk_name: str = fld("", required=True)
    data_disk_uri: str = fld("", json="diskURI", required=True)
    caching_mode: Optional[str] = None
    fs_type: Optional[str] = None
    read_only: Optional[bool] = None
    kind: Optional[str] = None


@model
class CinderVolumeSource:
    volume_id: str = fld("", json="volumeID", required=True)
    fs_type: str = ""
    read_only: bool = False


@model
class RBDVolumeSource:
    monitors: tuple[str, ...] = fld((), json="monitors", required=True)
    rbd_image: str = fld("", json="image", required=True)
    fs_type: str = ""
    rbd_pool: str = fld("rbd", json="pool")
    rados_user: str = fld("admin", json="user")
    keyring: str = ""
    read_only: bool = False


@model
class ISCSIVolumeSource:
    target_portal: str = fld("", required=True)
    iqn: str = fld("", required=True)
    lun: int = 0
    iscsi_interface: str = "default"
    fs_type: str = ""
    read_only: bool = False
    portals: tuple[str, ...] = ()


@model
class CSIVolumeSource:
    driver: str = fld("", required=True)
    read_only: Optional[bool] = None
    fs_type: Optional[str] = None
    volume_attributes: Mapping[str, str] = mapping()


@model
class HostPathVolumeSource:
    path: str = fld("", required=True)
    type: Optional[str] = None


@model
class Volume:
    """A pod volume; exactly one source is set (other kinds are kept as ``other``)."""

    name: str = fld("", required=True)
    persistent_volume_claim: Optional[PersistentVolumeClaimVolumeSource] = None
    gce_persistent_disk: Optional[GCEPersistentDiskVolumeSource] = fld(None, json="gcePersistentDisk")
    aws_elastic_block_store: Optional[AWSElasticBlockStoreVolumeSource] = fld(None, json="awsElasticBlockStore")
    azure_disk: Optional[AzureDiskVolumeSource] = None
    cinder: Optional[CinderVolumeSource] = None
    rbd: Optional[RBDVolumeSource] = None
    iscsi: Optional[ISCSIVolumeSource] = None
    csi: Optional[CSIVolumeSource] = None
    host_path: Optional[HostPathVolumeSource] = None
    empty_dir: Optional[Mapping[str, object]] = None
    config_map: Optional[Mapping[str, object]] = None
    secret: Optional[Mapping[str, object]] = None
    downward_api: Optional[Mapping[str, object]] = fld(None, json="downwardAPI")
    projected: Optional[Mapping[str, object]] = None
    nfs: Optional[Mapping[str, object]] = None


# ---------------------------------------------------------------- pods


@model
class PodSpec:
    containers: tuple[Container, ...] = fld((), required=True)
    init_containers: tuple[Container, ...] = ()
    overhead: ResourceList = mapping()
    node_name: str = ""
    node_selector: Mapping[str, str] = mapping()
    affinity: Optional[Affinity] = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...] = ()
    volumes: tuple[Volume, ...] = ()
    priority: Optional[int] = None
    priority_class_name: str = ""
    preemption_policy: Optional[str] = None
    scheduler_name: str = ""
    termination_grace_period_seconds: Optional[int] = None
    host_network: bool = False
    restart_policy: str = ""
    service_account_name: str = ""
    hostname: str = ""
    subdomain: str = ""


@model
class PodCondition:
    type: str = fld("", required=True)
    status: str = fld("", required=True)
    reason: str = ""
    message: str = ""
    last_probe_time: Optional[Time] = None
    last_transition_time: Optional[Time] = None


@model
class PodStatus:
    phase: str = ""
    conditions: tuple[PodCondition, ...] = ()
    nominated_node_name: str = ""
    start_time: Optional[Time] = None
    host_ip: str = fld("", json="hostIP")
    pod_ip: str = fld("", json="podIP")
    qos_class: str = fld("", json="qosClass")
    message: str = ""
    reason: str = ""


@model
class Pod:
    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "Pod"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: PodSpec = fld(required=True, factory=PodSpec)
    status: PodStatus = fld(factory=PodStatus)


@model
class PodTemplateSpec:
    metadata: ObjectMeta = fld(factory=ObjectMeta)
    spec: PodSpec = fld(factory=PodSpec)


@model
class Binding:
    """``pods/binding`` body: ties a pod (metadata) to a target node."""

    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "Binding"
    metadata: ObjectMeta = fld(factory=ObjectMeta)
    target: ObjectReference = fld(required=True, factory=ObjectReference)


# ---------------------------------------------------------------- nodes


@model
class Taint:
    key: str = fld("", required=True)
    value: str = ""
    effect: str = fld("", required=True)
    time_added: Optional[Time] = None


@model
class NodeSpec:
    unschedulable: bool = False
    taints: tuple[Taint, ...] = ()
    pod_cidr: str = fld("", json="podCIDR")
    provider_id: str = fld("", json="providerID")


@model
class NodeCondition:
    type: str = fld("", required=True)
    status: str = fld("", required=True)
    reason: str = ""
    message: str = ""
    last_heartbeat_time: Optional[Time] = None
    last_transition_time: Optional[Time] = None


@model
class ContainerImage:
    names: tuple[str, ...] = ()
    size_bytes: int = 0


@model
class NodeStatus:
    capacity: ResourceList = mapping()
    allocatable: ResourceList = mapping()
    conditions: tuple[NodeCondition, ...] = ()
    images: tuple[ContainerImage, ...] = ()
    phase: str = ""


@model
class Node:
    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "Node"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: NodeSpec = fld(factory=NodeSpec)
    status: NodeStatus = fld(factory=NodeStatus)


# ---------------------------------------------------------------- persistent volumes


@model
class VolumeNodeAffinity:
    required: Optional[NodeSelector] = None


@model
class CSIPersistentVolumeSource:
    driver: str = fld("", required=True)
    volume_handle: str = fld("", required=True)
    read_only: bool = False
    fs_type: str = ""
    volume_attributes: Mapping[str, str] = mapping()


@model
class LocalVolumeSource:
    path: str = fld("", required=True)
    fs_type: Optional[str] = None


@model
class PersistentVolumeSpec:
    capacity: ResourceList = mapping()
    access_modes: tuple[str, ...] = ()
    claim_ref: Optional[ObjectReference] = None
    persistent_volume_reclaim_policy: str = ""
    storage_class_name: str = ""
    volume_mode: Optional[str] = None
    node_affinity: Optional[VolumeNodeAffinity] = None
    mount_options: tuple[str, ...] = ()
    gce_persistent_disk: Optional[GCEPersistentDiskVolumeSource] = fld(None, json="gcePersistentDisk")
    aws_elastic_block_store: Optional[AWSElasticBlockStoreVolumeSource] = fld(None, json="awsElasticBlockStore")
    azure_disk: Optional[AzureDiskVolumeSource] = None
    cinder: Optional[CinderVolumeSource] = None
    rbd: Optional[RBDVolumeSource] = None
    iscsi: Optional[ISCSIVolumeSource] = None
    csi: Optional[CSIPersistentVolumeSource] = None
    host_path: Optional[HostPathVolumeSource] = None
    local: Optional[LocalVolumeSource] = None
    nfs: Optional[Mapping[str, object]] = None


@model
class PersistentVolumeStatus:
    phase: str = ""
    message: str = ""
    reason: str = ""


@model
class PersistentVolume:
    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "PersistentVolume"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: PersistentVolumeSpec = fld(factory=PersistentVolumeSpec)
    status: PersistentVolumeStatus = fld(factory=PersistentVolumeStatus)


@model
class PersistentVolumeClaimSpec:
    access_modes: tuple[str, ...] = ()
    selector: Optional[LabelSelector] = None
    resources: ResourceRequirements = fld(factory=ResourceRequirements)
    volume_name: str = ""
    storage_class_name: Optional[str] = None
    volume_mode: Optional[str] = None


@model
class PersistentVolumeClaimStatus:
    phase: str = ""
    access_modes: tuple[str, ...] = ()
    capacity: ResourceList = mapping()


@model
class PersistentVolumeClaim:
    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "PersistentVolumeClaim"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: PersistentVolumeClaimSpec = fld(factory=PersistentVolumeClaimSpec)
    status: PersistentVolumeClaimStatus = fld(factory=PersistentVolumeClaimStatus)


# ---------------------------------------------------------------- services and controllers


@model
class ServicePort:
    port: int = fld(0, required=True)
    protocol: str = "TCP"
    name: str = ""
    target_port: Optional[IntOrString] = None
    node_port: int = 0


@model
class ServiceSpec:
    selector: Mapping[str, str] = mapping()
    ports: tuple[ServicePort, ...] = ()
    type: str = "ClusterIP"
    cluster_ip: str = fld("", json="clusterIP")


@model
class Service:
    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "Service"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: ServiceSpec = fld(factory=ServiceSpec)


@model
class ReplicationControllerSpec:
    replicas: Optional[int] = None
    selector: Mapping[str, str] = mapping()
    template: Optional[PodTemplateSpec] = None


@model
class ReplicationController:
    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "ReplicationController"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: ReplicationControllerSpec = fld(factory=ReplicationControllerSpec)


@model
class Namespace:
    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "Namespace"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)


# ---------------------------------------------------------------- events and endpoints


@model
class EventSource:
    component: str = ""
    host: str = ""


@model
class Event:
    """A core/v1 Event as ``kubectl describe`` shows it (aggregated by count)."""

    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "Event"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    involved_object: ObjectReference = fld(factory=ObjectReference)
    reason: str = ""
    message: str = ""
    type: str = "Normal"
    count: int = 1
    first_timestamp: Optional[Time] = None
    last_timestamp: Optional[Time] = None
    source: EventSource = fld(factory=EventSource)
    action: str = ""
    reporting_component: str = ""


@model
class Endpoints:
    """Endpoints; the scheduler's leader-election lock lives in its annotations."""

    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "Endpoints"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    subsets: tuple[Mapping[str, object], ...] = ()


@model
class ConfigMap:
    """ConfigMap, stored only as the ``configmaps`` leader-election lock (its record is an annotation).

    A ConfigMap document of a cluster file stays inert (``kubesched.api.inert``): kube-scheduler
    never lists ConfigMaps; only the lock writes one, through the API server.
    """

    API_VERSION: ClassVar[str] = "v1"
    KIND: ClassVar[str] = "ConfigMap"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    data: Mapping[str, str] = mapping()
    binary_data: Mapping[str, str] = mapping()
