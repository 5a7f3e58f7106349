"""API-server defaulting and admission that the scheduler relies on.

Upstream: pkg/apis/core/v1/defaults.go @ v1.18.5 (SetDefaults_PodSpec with
defaultHostNetworkPorts, SetDefaults_Pod: requests default to limits,
SetDefaults_NodeStatus, SetDefaults_ContainerPort, SetDefaults_PersistentVolume,
SetDefaults_PersistentVolumeClaim, SetDefaults_ReplicationController),
pkg/apis/apps/v1/defaults.go (replicas 1; SetDefaults_StatefulSet: podManagementPolicy),
pkg/apis/storage/v1/defaults.go (SetDefaults_StorageClass), pkg/apis/scheduling/v1/defaults.go
(SetDefaults_PriorityClass), pkg/apis/batch/v1/defaults.go (SetDefaults_Job) with
pkg/registry/batch/job/strategy.go (generateSelector: ``controller-uid`` and ``job-name``),
pkg/registry/apps/daemonset/strategy.go (PrepareForCreate: template generation 1),
plugin/pkg/admission/priority/admission.go (Admit: priority from the class,
getDefaultPriority: the globalDefault class with the highest value, else 0),
plugin/pkg/admission/defaulttolerationseconds/admission.go (Admit: not-ready and
unreachable NoExecute tolerations for 300 s; on by default in 1.18),
staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate:
generateName, UID, cluster-scoped objects lose their namespace).

Choices:
- A pod keeps ``status.phase`` when the manifest gives one (``kubectl get -o
  yaml`` output says Running for bound pods); otherwise it is Pending, even when
  ``spec.nodeName`` is set (the kubelet model moves it to Running).
- A pod that already carries ``spec.priority`` (as exported pods do) keeps it;
  otherwise priority comes from its class, as the Priority admission plugin sets it.

- A PersistentVolume without ``status.phase`` is Pending, as upstream; the PV controller's
  syncVolume (kubesched.controller.volume.persistentvolume) makes it Available.

Deviation: UIDs and generateName suffixes are stable hashes (never random).
``preemptionPolicy`` defaults to PreemptLowerPriority as if the alpha
NonPreemptingPriority gate were on (with it off, upstream leaves it unset,
which the scheduler treats the same way).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Mapping, Optional, Sequence

from kubesched.api import apps, batch, core, scheduling, storage
from kubesched.api.kinds import is_namespaced
from kubesched.api.meta import LabelSelector, ObjectMeta
from kubesched.api.names import generate_name, object_uid

DEFAULT_NAMESPACE = "default"
DEFAULT_SCHEDULER_NAME = "default-scheduler"
DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30
DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0
POD_PENDING = "Pending"
VOLUME_PENDING = "Pending"
CLAIM_PENDING = "Pending"
VOLUME_MODE_FILESYSTEM = "Filesystem"
RECLAIM_RETAIN = "Retain"
RECLAIM_DELETE = "Delete"
BINDING_IMMEDIATE = "Immediate"
TAINT_NODE_NOT_READY = "node.kubernetes.io/not-ready"
TAINT_NODE_UNREACHABLE = "node.kubernetes.io/unreachable"
DEFAULT_TOLERATION_SECONDS = 300  # --default-not-ready/unreachable-toleration-seconds
NO_EXECUTE = "NoExecute"

replace = dataclasses.replace


def default_meta(meta: ObjectMeta, kind: str, seed: str = "") -> ObjectMeta:
    """Namespace, generated name and UID (``rest.BeforeCreate``)."""
    namespace = (meta.namespace or DEFAULT_NAMESPACE) if is_namespaced(kind) else ""
    name = meta.name or generate_name(meta.generate_name, f"{kind}/{namespace}/{meta.generate_name}/{seed}")
    uid = meta.uid or object_uid(kind, namespace, name)
    return replace(meta, namespace=namespace, name=name, uid=uid)


def _default_ports(container: core.Container, host_network: bool) -> core.Container:
    """``SetDefaults_ContainerPort`` (TCP) and ``defaultHostNetworkPorts`` (hostPort = containerPort)."""
    ports = tuple(replace(p, protocol=p.protocol or "TCP",
                          host_port=p.container_port if host_network and not p.host_port else p.host_port)
                  for p in container.ports)
    return replace(container, ports=ports)


def default_pod_spec(spec: core.PodSpec) -> core.PodSpec:
    """``SetDefaults_PodSpec`` (+ container ports): the fields the scheduler reads."""
    return replace(
        spec,
        scheduler_name=spec.scheduler_name or DEFAULT_SCHEDULER_NAME,
        termination_grace_period_seconds=(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
                                          if spec.termination_grace_period_seconds is None
                                          else spec.termination_grace_period_seconds),
        restart_policy=spec.restart_policy or "Always",
        containers=tuple(_default_ports(c, spec.host_network) for c in spec.containers),
        init_containers=tuple(_default_ports(c, spec.host_network) for c in spec.init_containers),
    )


def _requests_from_limits(container: core.Container) -> core.Container:
    """``SetDefaults_Pod``: a resource with a limit and no request gets the limit as request."""
    res = container.resources
    missing = {k: v for k, v in res.limits.items() if k not in res.requests}
    if not missing:
        return container
    return replace(container, resources=replace(res, requests={**res.requests, **missing}))


def _tolerates(tolerations: Iterable[core.Toleration], key: str) -> bool:
    return any(t.key in (key, "") and t.effect in (NO_EXECUTE, "") for t in tolerations)


def default_toleration_seconds(spec: core.PodSpec) -> core.PodSpec:
    """DefaultTolerationSeconds admission: tolerate not-ready / unreachable for 300 s."""
    added = tuple(core.Toleration(key=key, operator="Exists", effect=NO_EXECUTE,
                                  toleration_seconds=DEFAULT_TOLERATION_SECONDS)
                  for key in (TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE)
                  if not _tolerates(spec.tolerations, key))
    return replace(spec, tolerations=spec.tolerations + added) if added else spec


def default_pod_only(spec: core.PodSpec) -> core.PodSpec:
    """What a Pod (never a PodTemplate) gets: requests from limits."""
    return replace(spec, containers=tuple(_requests_from_limits(c) for c in spec.containers),
                   init_containers=tuple(_requests_from_limits(c) for c in spec.init_containers))


def default_priority_class(classes: Iterable[scheduling.PriorityClass]) -> Optional[scheduling.PriorityClass]:
    """``getDefaultPriorityClass``: the globalDefault class with the highest value."""
    best: Optional[scheduling.PriorityClass] = None
    for pc in classes:
        if pc.global_default and (best is None or pc.value > best.value):
            best = pc
    return best


def resolve_priority(spec: core.PodSpec, classes: Mapping[str, scheduling.PriorityClass]) -> core.PodSpec:
    """Priority admission: priority and preemptionPolicy from the pod's class."""
    name, value, policy = spec.priority_class_name, DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, None
    if name in classes:
        value, policy = classes[name].value, classes[name].preemption_policy
    elif name in scheduling.BUILTIN_PRIORITIES:
        value = scheduling.BUILTIN_PRIORITIES[name]
    elif not name:
        default = default_priority_class(classes.values())
        if default is not None:
            name, value, policy = default.metadata.name, default.value, default.preemption_policy
    return replace(
        spec,
        priority_class_name=name,
        priority=spec.priority if spec.priority is not None else value,
        preemption_policy=spec.preemption_policy or policy or scheduling.PREEMPT_LOWER_PRIORITY,
    )


def default_pod(pod: core.Pod, classes: Mapping[str, scheduling.PriorityClass], seed: str = "") -> core.Pod:
    """Defaulting, then the Priority and DefaultTolerationSeconds admission plugins."""
    spec = default_toleration_seconds(resolve_priority(default_pod_only(default_pod_spec(pod.spec)), classes))
    status = pod.status if pod.status.phase else replace(pod.status, phase=POD_PENDING)
    return replace(pod, metadata=default_meta(pod.metadata, pod.KIND, seed), spec=spec, status=status)


def default_node(node: core.Node) -> core.Node:
    """``SetDefaults_NodeStatus``: allocatable defaults to capacity."""
    status = node.status
    if not status.allocatable and status.capacity:
        status = replace(status, allocatable=dict(status.capacity))
    return replace(node, metadata=default_meta(node.metadata, node.KIND), status=status)


def default_persistent_volume(pv: core.PersistentVolume) -> core.PersistentVolume:
    """``SetDefaults_PersistentVolume``: phase Pending, reclaimPolicy Retain, volumeMode Filesystem."""
    spec = replace(pv.spec, persistent_volume_reclaim_policy=pv.spec.persistent_volume_reclaim_policy
                   or RECLAIM_RETAIN, volume_mode=pv.spec.volume_mode or VOLUME_MODE_FILESYSTEM)
    status = pv.status if pv.status.phase else replace(pv.status, phase=VOLUME_PENDING)
    return replace(pv, metadata=default_meta(pv.metadata, pv.KIND), spec=spec, status=status)


def default_persistent_volume_claim(pvc: core.PersistentVolumeClaim) -> core.PersistentVolumeClaim:
    """``SetDefaults_PersistentVolumeClaim``: volumeMode Filesystem, phase Pending."""
    spec = replace(pvc.spec, volume_mode=pvc.spec.volume_mode or VOLUME_MODE_FILESYSTEM)
    status = pvc.status if pvc.status.phase else replace(pvc.status, phase=CLAIM_PENDING)
    return replace(pvc, metadata=default_meta(pvc.metadata, pvc.KIND), spec=spec, status=status)


def default_storage_class(sc: storage.StorageClass) -> storage.StorageClass:
    """``SetDefaults_StorageClass``: reclaimPolicy Delete, volumeBindingMode Immediate."""
    return replace(sc, metadata=default_meta(sc.metadata, sc.KIND),
                   reclaim_policy=sc.reclaim_policy or RECLAIM_DELETE,
                   volume_binding_mode=sc.volume_binding_mode or BINDING_IMMEDIATE)


def default_workload(obj: Any) -> Any:
    """replicas 1; an RC's selector and labels default to its template labels."""
    spec = obj.spec
    spec = replace(spec, replicas=1 if spec.replicas is None else spec.replicas)
    meta = obj.metadata
    if isinstance(obj, apps.StatefulSet) and not spec.pod_management_policy:
        spec = replace(spec, pod_management_policy=apps.ORDERED_READY_POD_MANAGEMENT)
    if isinstance(obj, core.ReplicationController) and spec.template is not None:
        labels = spec.template.metadata.labels
        spec = replace(spec, selector=spec.selector or dict(labels))
        meta = replace(meta, labels=meta.labels or dict(labels))
    return replace(obj, metadata=default_meta(meta, obj.KIND), spec=spec)


JOB_NAME_LABEL = "job-name"
CONTROLLER_UID_LABEL = "controller-uid"
DEFAULT_BACKOFF_LIMIT = 6


def default_job(job: batch.Job) -> batch.Job:
    """``SetDefaults_Job`` and the registry's ``generateSelector`` (unless manualSelector)."""
    meta = default_meta(job.metadata, job.KIND)
    spec = job.spec
    if spec.completions is None and spec.parallelism is None:
        spec = replace(spec, completions=1, parallelism=1)
    spec = replace(spec, parallelism=1 if spec.parallelism is None else spec.parallelism,
                   backoff_limit=DEFAULT_BACKOFF_LIMIT if spec.backoff_limit is None else spec.backoff_limit)
    template = spec.template
    if not spec.manual_selector:
        labels = {JOB_NAME_LABEL: meta.name, CONTROLLER_UID_LABEL: meta.uid, **template.metadata.labels}
        selector = spec.selector or LabelSelector()
        selector = replace(selector, match_labels={CONTROLLER_UID_LABEL: meta.uid, **selector.match_labels})
        template = replace(template, metadata=replace(template.metadata, labels=labels))
        spec = replace(spec, selector=selector, template=template)
    if not meta.labels and template.metadata.labels:  # defaulting again as the stored Job is read back
        meta = replace(meta, labels=dict(template.metadata.labels))
    return replace(job, metadata=meta, spec=spec)


def default_daemon_set(ds: apps.DaemonSet) -> apps.DaemonSet:
    """The registry's PrepareForCreate: template generation 1 (the v1 annotation)."""
    meta = default_meta(ds.metadata, ds.KIND)
    if apps.DEPRECATED_TEMPLATE_GENERATION not in meta.annotations:
        meta = replace(meta, annotations={**meta.annotations, apps.DEPRECATED_TEMPLATE_GENERATION: "1"})
    return replace(ds, metadata=meta)


def default_priority_class_object(pc: scheduling.PriorityClass) -> scheduling.PriorityClass:
    """``SetDefaults_PriorityClass``: preemptionPolicy PreemptLowerPriority."""
    return replace(pc, metadata=default_meta(pc.metadata, pc.KIND),
                   preemption_policy=pc.preemption_policy or scheduling.PREEMPT_LOWER_PRIORITY)


WORKLOADS = (core.ReplicationController, apps.ReplicaSet, apps.Deployment, apps.StatefulSet)
_DEFAULTERS = {core.PersistentVolume: default_persistent_volume,
               core.PersistentVolumeClaim: default_persistent_volume_claim,
               storage.StorageClass: default_storage_class}


def priority_classes(objects: Iterable[Any]) -> dict[str, scheduling.PriorityClass]:
    return {o.metadata.name: o for o in objects if isinstance(o, scheduling.PriorityClass)}


def apply_defaults(objects: Sequence[Any]) -> list[Any]:
    """Default every object; pods see the cluster's PriorityClasses."""
    classes = priority_classes(objects)
    out: list[Any] = []
    for i, obj in enumerate(objects):
        if isinstance(obj, core.Pod):
            out.append(default_pod(obj, classes, seed=str(i)))
        elif isinstance(obj, core.Node):
            out.append(default_node(obj))
        elif isinstance(obj, WORKLOADS):
            out.append(default_workload(obj))
        elif isinstance(obj, batch.Job):
            out.append(default_job(obj))
        elif isinstance(obj, apps.DaemonSet):
            out.append(default_daemon_set(obj))
        elif isinstance(obj, scheduling.PriorityClass):
            out.append(default_priority_class_object(obj))
        elif type(obj) in _DEFAULTERS:
            out.append(_DEFAULTERS[type(obj)](obj))
        else:
            out.append(replace(obj, metadata=default_meta(obj.metadata, obj.KIND, str(i))))
    return out
