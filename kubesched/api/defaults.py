"""API-server defaulting and admission that the scheduler relies on.

Upstream: pkg/apis/core/v1/defaults.go @ v1.18.5 (SetDefaults_PodSpec,
SetDefaults_Pod, SetDefaults_NodeStatus, SetDefaults_ContainerPort, SetDefaults_PersistentVolumeClaim,
SetDefaults_ReplicationController), pkg/apis/apps/v1/defaults.go (replicas 1),
pkg/apis/scheduling/v1/defaults.go (SetDefaults_PriorityClass),
pkg/apis/batch/v1/defaults.go (SetDefaults_Job) with pkg/registry/batch/job/strategy.go
(generateSelector: ``controller-uid`` and ``job-name``), pkg/registry/apps/daemonset/strategy.go
(PrepareForCreate: template generation 1), SetDefaults_StatefulSet (podManagementPolicy),
plugin/pkg/admission/priority/admission.go (Admit: priority from the class,
getDefaultPriority: the globalDefault class with the highest value, else 0),
staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate:
generateName, UID, cluster-scoped objects lose their namespace).

Choices:
- A pod keeps ``status.phase`` when the manifest gives one (``kubectl get -o
  yaml`` output says Running for bound pods); otherwise it is Pending, even when
  ``spec.nodeName`` is set (the kubelet model moves it to Running).
- A pod that already carries ``spec.priority`` (as exported pods do) keeps it;
  otherwise priority comes from its class, as the Priority admission plugin sets it.

Deviation: UIDs and generateName suffixes are stable hashes (never random).
``preemptionPolicy`` defaults to PreemptLowerPriority as if the alpha
NonPreemptingPriority gate were on (with it off, upstream leaves it unset,
which the scheduler treats the same way).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Mapping, Optional, Sequence

from kubesched.api import apps, batch, core, scheduling
from kubesched.api.kinds import is_namespaced
from kubesched.api.meta import LabelSelector, ObjectMeta
from kubesched.api.names import generate_name, object_uid

DEFAULT_NAMESPACE = "default"
DEFAULT_SCHEDULER_NAME = "default-scheduler"
DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30
DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0
POD_PENDING = "Pending"

replace = dataclasses.replace


def default_meta(meta: ObjectMeta, kind: str, seed: str = "") -> ObjectMeta:
    """Namespace, generated name and UID (``rest.BeforeCreate``)."""
    namespace = (meta.namespace or DEFAULT_NAMESPACE) if is_namespaced(kind) else ""
    name = meta.name or generate_name(meta.generate_name, f"{kind}/{namespace}/{meta.generate_name}/{seed}")
    uid = meta.uid or object_uid(kind, namespace, name)
    return replace(meta, namespace=namespace, name=name, uid=uid)


def _default_ports(container: core.Container) -> core.Container:
    ports = tuple(p if p.protocol else replace(p, protocol="TCP") for p in container.ports)
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
        containers=tuple(_default_ports(c) for c in spec.containers),
        init_containers=tuple(_default_ports(c) for c in spec.init_containers),
    )


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
    spec = resolve_priority(default_pod_spec(pod.spec), classes)
    status = pod.status if pod.status.phase else replace(pod.status, phase=POD_PENDING)
    return replace(pod, metadata=default_meta(pod.metadata, pod.KIND, seed), spec=spec, status=status)


def default_node(node: core.Node) -> core.Node:
    """``SetDefaults_NodeStatus``: allocatable defaults to capacity."""
    status = node.status
    if not status.allocatable and status.capacity:
        status = replace(status, allocatable=dict(status.capacity))
    return replace(node, metadata=default_meta(node.metadata, node.KIND), status=status)


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


def default_persistent_volume_claim(claim: core.PersistentVolumeClaim) -> core.PersistentVolumeClaim:
    """``SetDefaults_PersistentVolumeClaim``: phase Pending (the PV controller moves it on)."""
    status = claim.status if claim.status.phase else replace(claim.status, phase=POD_PENDING)
    return replace(claim, metadata=default_meta(claim.metadata, claim.KIND), status=status)


def default_priority_class_object(pc: scheduling.PriorityClass) -> scheduling.PriorityClass:
    """``SetDefaults_PriorityClass``: preemptionPolicy PreemptLowerPriority."""
    return replace(pc, metadata=default_meta(pc.metadata, pc.KIND),
                   preemption_policy=pc.preemption_policy or scheduling.PREEMPT_LOWER_PRIORITY)


WORKLOADS = (core.ReplicationController, apps.ReplicaSet, apps.Deployment, apps.StatefulSet)


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
        elif isinstance(obj, core.PersistentVolumeClaim):
            out.append(default_persistent_volume_claim(obj))
        elif isinstance(obj, batch.Job):
            out.append(default_job(obj))
        elif isinstance(obj, apps.DaemonSet):
            out.append(default_daemon_set(obj))
        elif isinstance(obj, scheduling.PriorityClass):
            out.append(default_priority_class_object(obj))
        else:
            out.append(replace(obj, metadata=default_meta(obj.metadata, obj.KIND, str(i))))
    return out
