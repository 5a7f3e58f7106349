"""Validation of decoded objects, as the API server does before storing them.

Upstream: pkg/apis/core/validation/validation.go @ v1.18.5 (ValidatePod,
ValidateNode, ValidateReplicationController), pkg/apis/apps/validation
(ValidateReplicaSetSpec, ValidateDeploymentSpec, ValidateStatefulSetSpec,
ValidateDaemonSetSpec), pkg/apis/batch/validation (ValidateJobSpec, ValidateCronJobSpec with
validateScheduleFormat and validateConcurrencyPolicy), pkg/apis/scheduling/validation
(ValidatePriorityClass, IsKnownSystemPriorityClass),
pkg/apis/policy/validation (ValidatePodDisruptionBudgetSpec),
pkg/apis/core/validation (ValidatePersistentVolumeSpec, ValidatePersistentVolumeClaimSpec,
ValidateService / validateServicePort: ports, names, protocol, selector, type),
pkg/apis/storage/validation (ValidateStorageClass: provisioner, reclaimPolicy, volumeBindingMode),
plugin/pkg/admission/priority (a pod's PriorityClass must exist and a given
priority must be its value; one globalDefault).

``validate_object`` checks one object; ``validate_cluster`` checks what needs
the whole cluster: references and duplicates. Field-level rules live in
:mod:`kubesched.api.validate_selectors` and :mod:`kubesched.api.validate_pod`.

Deviation: runs on decoded objects before defaulting (upstream defaults first),
so values defaulting fills in are accepted. As upstream, a pod's PVC need not
exist: the scheduler's podPassesBasicChecks reports ``persistentvolumeclaim "X"
not found`` when it tries the pod. Deviation: an exported pod (``spec.priority``
set) whose PriorityClass is not in the input keeps its priority with a warning, since
``kubectl get pods`` dumps hold no PriorityClasses; upstream admitted it long ago.
A StatefulSet's template is validated like any pod spec, with its claim templates
counted as volumes (upstream 1.18 validates only its labels; its pods would be refused).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional, Sequence

from kubesched.api import apps, batch, core, policy, scheduling, storage
from kubesched.api import field_errors as fe
from kubesched.api.decode import Problem, decode
from kubesched.api.inert import InertObject
from kubesched.api.kinds import is_namespaced
from kubesched.api.labels import label_selector_as_selector
from kubesched.api.meta import IntOrString, LabelSelector
from kubesched.api.validate_manifest import TEMPLATE_PATHS
from kubesched.api.validate_pod import (RESTART_POLICIES, validate_nonnegative, validate_pod_spec,
                                        validate_preemption_policy)
from kubesched.api.validate_selectors import (validate_label_selector, validate_object_meta,
                                              validate_taints)

Problems = list[Problem]
PERCENT_FMT = "[0-9]+%"
RESTART_ALWAYS = ("Always",)
RESTART_JOB = ("OnFailure", "Never")
"""ValidateJobSpec; every other controller's template must be ``Always``
(ValidatePodTemplateSpecForReplicaSet, ValidatePodTemplateSpecForRC, ValidateStatefulSetSpec,
ValidateDaemonSetSpec)."""
DEFAULT_PRIORITY = 0  # DefaultPriorityWhenNoDefaultClassExists
SYSTEM_PRIORITY_CLASS_PREFIX = "system-"
SERVICE_TYPES = ("ClusterIP", "ExternalName", "LoadBalancer", "NodePort")   # supportedServiceType.List()
PORT_PROTOCOLS = ("SCTP", "TCP", "UDP")                                       # supportedPortProtocols.List()
CLASS_RECLAIM_POLICIES = ("Delete", "Retain")             # storage validation's supportedReclaimPolicy.List()
VOLUME_BINDING_MODES = ("Immediate", "WaitForFirstConsumer")
MAX_REPLICAS = 5000
"""Deviation: a simulated cluster expands replicas into pods up front, so it caps them."""


def validate_object(obj: Any) -> Problems:
    """Every single-object rule for ``obj`` (any supported kind)."""
    out = validate_object_meta(obj.metadata, obj.KIND)
    check = _RULES.get(type(obj))
    return out + (check(obj) if check is not None else [])


def _pod(pod: core.Pod) -> Problems:
    return validate_pod_spec(pod.spec)


def _node(node: core.Node) -> Problems:
    out = validate_taints(node.spec.taints, "spec.taints")
    out += validate_nonnegative(node.status.capacity, "status.capacity")
    return out + validate_nonnegative(node.status.allocatable, "status.allocatable")


def _selector_matches(selector: LabelSelector, labels: Any) -> bool:
    try:
        return label_selector_as_selector(selector).matches(labels)
    except ValueError:
        return True  # the selector itself is reported invalid


def _workload(obj: Any) -> Problems:
    """``ValidateReplicaSetSpec`` and friends: replicas, selector, template."""
    spec = obj.spec
    out: Problems = []
    if spec.replicas is not None and spec.replicas < 0:
        out.append(fe.invalid("spec.replicas", spec.replicas, "must be greater than or equal to 0"))
    elif spec.replicas is not None and spec.replicas > MAX_REPLICAS:
        out.append(fe.invalid("spec.replicas", spec.replicas,
                              f"kubesched expands at most {MAX_REPLICAS} replicas per workload"))
    return out + _selector_and_template(obj)


def _selector_and_template(obj: Any) -> Problems:
    spec = obj.spec
    out: Problems = []
    template = spec.template
    if template is None:
        return out + [fe.required("spec.template")]
    labels = template.metadata.labels
    out += fe.validate_labels(labels, "spec.template.metadata.labels")
    if isinstance(obj, core.ReplicationController):
        selector = spec.selector or labels
        if not selector:
            out.append(fe.required("spec.selector"))
        elif any(labels.get(k) != v for k, v in selector.items()):
            out.append(fe.invalid("spec.template.metadata.labels", dict(labels),
                                  "`selector` does not match template `labels`"))
    elif spec.selector is None:
        out.append(fe.required("spec.selector"))
    else:
        out += validate_label_selector(spec.selector, "spec.selector")
        if not spec.selector.match_labels and not spec.selector.match_expressions:
            word = {"DaemonSet": "daemonset", "StatefulSet": "statefulset"}.get(obj.KIND, "deployment")
            out.append(fe.invalid("spec.selector", "{}", f"empty selector is invalid for {word}"))
        elif not _selector_matches(spec.selector, labels):
            out.append(fe.invalid("spec.template.metadata.labels", dict(labels),
                                  "`selector` does not match template `labels`"))
    out += validate_pod_spec(template.spec, "spec.template.spec")
    return out + _restart_policy(template.spec, "spec.template.spec", RESTART_ALWAYS)


def _inert(obj: InertObject) -> Problems:
    """An unmodelled kind with a pod template (PodTemplate, batch/v2alpha1 CronJob): the template."""
    keys = TEMPLATE_PATHS.get(obj.kind)
    if obj.custom or not keys or obj.kind == "Pod":
        return []
    template: Any = obj.body
    for key in keys[:-1]:
        template = template.get(key) if isinstance(template, dict) else None
    if not isinstance(template, dict):
        return []
    path = ".".join(keys[:-1])
    decoded, problems = decode(core.PodTemplateSpec, template, path)
    if any(not p.warning for p in problems):
        return []  # the OpenAPI check has reported the shape errors
    out = validate_pod_spec(decoded.spec, f"{path}.spec")
    allowed = {"PodTemplate": RESTART_POLICIES, "Job": RESTART_JOB, "CronJob": RESTART_JOB}.get(obj.kind,
                                                                                           RESTART_ALWAYS)
    return out + _restart_policy(decoded.spec, f"{path}.spec", allowed)


def _restart_policy(spec: Optional[core.PodSpec], path: str, allowed: tuple[str, ...]) -> Problems:
    """A template's restartPolicy (unset defaults to Always) must be one of ``allowed``."""
    policy = (spec.restart_policy if spec is not None else "") or "Always"
    return [] if policy in allowed else [fe.not_supported(f"{path}.restartPolicy", policy, allowed)]


def _stateful_set(sts: apps.StatefulSet) -> Problems:
    """``ValidateStatefulSetSpec``: podManagementPolicy and an Always restart policy."""
    out = _workload(sts)
    policy = sts.spec.pod_management_policy
    if policy not in ("", apps.ORDERED_READY_POD_MANAGEMENT, apps.PARALLEL_POD_MANAGEMENT):
        out.append(fe.invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"))
    return out


def _daemon_set(ds: apps.DaemonSet) -> Problems:
    """``ValidateDaemonSetSpec``: selector, template and an Always restart policy."""
    return _selector_and_template(ds)


def _nonnegative_counts(spec: Any, names: Sequence[str], path: str) -> Problems:
    """``ValidateNonnegativeField`` for each optional count of ``spec`` that is set."""
    out: Problems = []
    for name in names:
        value = getattr(spec, name)
        if value is not None and value < 0:
            head, *rest = name.split("_")
            out.append(fe.invalid(f"{path}.{head}{''.join(r.title() for r in rest)}", value,
                                  "must be greater than or equal to 0"))
    return out


def _job_spec(spec: batch.JobSpec, path: str) -> Problems:
    """``ValidateJobSpec``: non-negative counts, a manual selector that matches, OnFailure or Never."""
    out = _nonnegative_counts(spec, ("parallelism", "completions", "active_deadline_seconds", "backoff_limit",
                                     "ttl_seconds_after_finished"), path)
    labels = spec.template.metadata.labels
    if spec.manual_selector:
        if spec.selector is None:
            out.append(fe.required(f"{path}.selector"))
        else:
            out += validate_label_selector(spec.selector, f"{path}.selector")
            if not _selector_matches(spec.selector, labels):
                out.append(fe.invalid(f"{path}.template.metadata.labels", dict(labels),
                                      "`selector` does not match template `labels`"))
    out += fe.validate_labels(labels, f"{path}.template.metadata.labels")
    out += _restart_policy(spec.template.spec, f"{path}.template.spec", RESTART_JOB)
    return out + validate_pod_spec(spec.template.spec, f"{path}.template.spec")


def _job(job: batch.Job) -> Problems:
    return _job_spec(job.spec, "spec")


CRON_JOB_NOTE = ("kept inert: kubesched starts no Jobs on a clock; a Scenario action "
                 "can create the Job this CronJob would start")


CONCURRENCY_POLICIES = ("Allow", "Forbid", "Replace")
CRON_DESCRIPTORS = frozenset({"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"})


def _cron_job(cron: batch.CronJob) -> Problems:
    """``ValidateCronJobSpec``: the schedule, the counts, concurrencyPolicy, its Job template; and a note
    that it does not run."""
    spec = cron.spec
    out = [fe.invalid("spec.schedule", spec.schedule, e) for e in _cron_schedule_errors(spec.schedule)]
    out += _nonnegative_counts(spec, ("starting_deadline_seconds", "successful_jobs_history_limit",
                                      "failed_jobs_history_limit"), "spec")
    if spec.concurrency_policy and spec.concurrency_policy not in CONCURRENCY_POLICIES:
        out.append(fe.not_supported("spec.concurrencyPolicy", spec.concurrency_policy, CONCURRENCY_POLICIES))
    return out + _job_spec(spec.job_template.spec, "spec.jobTemplate.spec") + [
        Problem("spec.schedule", CRON_JOB_NOTE, warning=True)]


def _cron_schedule_errors(schedule: str) -> list[str]:
    """robfig/cron v1's ``ParseStandard`` (validateScheduleFormat): a descriptor or five fields.

    Deviation: the fields' contents (ranges, steps, names) and ``@every``'s duration are not parsed.
    """
    if not schedule:
        return []   # the loader reports the required field
    if schedule.startswith("@"):
        ok = schedule in CRON_DESCRIPTORS or schedule.startswith("@every ")
        return [] if ok else [f"Unrecognized descriptor: {schedule}"]
    count = len(schedule.split())
    return [] if count == 5 else [f"Expected exactly 5 fields, found {count}: {schedule}"]


def _service(svc: core.Service) -> Problems:
    """``ValidateService``: ports (unless headless or ExternalName), each port, the selector, the type."""
    spec = svc.spec
    service_type = spec.type or "ClusterIP"   # defaulting fills an empty type in
    headless = service_type == "ClusterIP" and spec.cluster_ip == "None"
    out: Problems = []
    if not spec.ports and not headless and service_type != "ExternalName":
        out.append(fe.required("spec.ports"))
    names: set[str] = set()
    for i, port in enumerate(spec.ports):
        out += _service_port(port, len(spec.ports) > 1, names, f"spec.ports[{i}]")
    out += fe.validate_labels(spec.selector, "spec.selector")
    if service_type not in SERVICE_TYPES:
        out.append(fe.not_supported("spec.type", service_type, SERVICE_TYPES))
    return out


def _service_port(port: core.ServicePort, require_name: bool, names: set[str], path: str) -> Problems:
    """``validateServicePort``: a DNS-1123 name (required when there are several), the port, the protocol."""
    out: Problems = []
    if require_name and not port.name:
        out.append(fe.required(f"{path}.name"))
    elif port.name:
        out += [fe.invalid(f"{path}.name", port.name, m) for m in fe.is_dns1123_label(port.name)]
        if port.name in names:
            out.append(fe.duplicate(f"{path}.name", port.name))
        names.add(port.name)
    out += [fe.invalid(f"{path}.port", port.port, m) for m in fe.is_valid_port_num(port.port)]
    if port.protocol and port.protocol not in PORT_PROTOCOLS:
        out.append(fe.not_supported(f"{path}.protocol", port.protocol, PORT_PROTOCOLS))
    return out


def _storage_class(sc: storage.StorageClass) -> Problems:
    """``ValidateStorageClass``: the provisioner, reclaimPolicy and volumeBindingMode."""
    out: Problems = []
    if not sc.provisioner:
        out.append(fe.required("provisioner"))
    else:
        out += [fe.invalid("provisioner", sc.provisioner, m) for m in fe.is_qualified_name(sc.provisioner.lower())]
    if sc.reclaim_policy is not None and sc.reclaim_policy not in CLASS_RECLAIM_POLICIES:
        out.append(fe.not_supported("reclaimPolicy", sc.reclaim_policy, CLASS_RECLAIM_POLICIES))
    if sc.volume_binding_mode is not None and sc.volume_binding_mode not in VOLUME_BINDING_MODES:
        out.append(fe.not_supported("volumeBindingMode", sc.volume_binding_mode, VOLUME_BINDING_MODES))
    return out


def _unknown_system_priority_class(pc: scheduling.PriorityClass) -> str:
    """``IsKnownSystemPriorityClass``'s error ("" for one of the two built-in classes as they are)."""
    name = pc.metadata.name
    if name not in scheduling.BUILTIN_PRIORITIES:
        return f"{name} is not a known system priority class"
    if pc.value != scheduling.BUILTIN_PRIORITIES[name]:
        return f"value of {name} PriorityClass must be {scheduling.BUILTIN_PRIORITIES[name]}"
    if pc.global_default:
        return f"globalDefault of {name} PriorityClass must be false"
    return ""


def _priority_class(pc: scheduling.PriorityClass) -> Problems:
    """``ValidatePriorityClass``: reserved names and the user value range."""
    out: Problems = []
    name = pc.metadata.name
    if name.startswith(SYSTEM_PRIORITY_CLASS_PREFIX):
        error = _unknown_system_priority_class(pc)
        if error:
            out.append(fe.forbidden("metadata.name", f"priority class names with '{SYSTEM_PRIORITY_CLASS_PREFIX}' "
                                                     f"prefix are reserved for system use only. error: {error}"))
    elif pc.value > scheduling.HIGHEST_USER_DEFINABLE_PRIORITY:
        out.append(fe.forbidden("value", "maximum allowed value of a user defined priority is "
                                         f"{scheduling.HIGHEST_USER_DEFINABLE_PRIORITY}"))
    return out + validate_preemption_policy(pc.preemption_policy, "preemptionPolicy")


ACCESS_MODES = ("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce")  # supportedAccessModes.List()
RECLAIM_POLICIES = ("Delete", "Recycle", "Retain")
VOLUME_MODES = ("Block", "Filesystem")


def _access_modes(modes: tuple[str, ...], path: str, detail: str) -> Problems:
    out = [] if modes else [fe.required(path, detail)]
    return out + [fe.not_supported(path, m, ACCESS_MODES) for m in modes if m not in ACCESS_MODES]


def _positive(quantity: Any, path: str) -> Problems:
    return [] if quantity.amount > 0 else [fe.invalid(path, str(quantity), "must be greater than zero")]


def _volume_mode(mode: Optional[str], path: str) -> Problems:
    return [fe.not_supported(path, mode, VOLUME_MODES)] if mode is not None and mode not in VOLUME_MODES else []


def _persistent_volume(pv: core.PersistentVolume) -> Problems:
    """``ValidatePersistentVolumeSpec``: modes, a storage capacity, reclaim policy, local affinity."""
    spec = pv.spec
    out = _access_modes(spec.access_modes, "spec.accessModes", "")
    if not spec.capacity:
        out.append(fe.required("spec.capacity"))
    if "storage" not in spec.capacity or len(spec.capacity) > 1:
        out.append(fe.not_supported("spec.capacity", {k: str(v) for k, v in spec.capacity.items()}, ("storage",)))
    for name, quantity in spec.capacity.items():
        out += _positive(quantity, f"spec.capacity[{name}]")
    policy = spec.persistent_volume_reclaim_policy
    if policy and policy not in RECLAIM_POLICIES:
        out.append(fe.not_supported("spec.persistentVolumeReclaimPolicy", policy, RECLAIM_POLICIES))
    if spec.local is not None and (spec.node_affinity is None or spec.node_affinity.required is None):
        out.append(fe.required("spec.nodeAffinity", "Local volume requires node affinity"))
    return out + _volume_mode(spec.volume_mode, "spec.volumeMode")


def _persistent_volume_claim(pvc: core.PersistentVolumeClaim) -> Problems:
    """``ValidatePersistentVolumeClaimSpec``: access modes and a positive storage request."""
    spec = pvc.spec
    out = _access_modes(spec.access_modes, "spec.accessModes", "at least 1 access mode is required")
    out += validate_label_selector(spec.selector, "spec.selector")
    storage = spec.resources.requests.get("storage")
    if storage is None:
        out.append(fe.required("spec.resources[storage]"))
    else:
        out += _positive(storage, "spec.resources[storage]")
    return out + _volume_mode(spec.volume_mode, "spec.volumeMode")


def _int_or_percent(value: Optional[IntOrString], path: str) -> Problems:
    if isinstance(value, int) and value < 0:
        return [fe.invalid(path, value, "must be greater than or equal to 0")]
    if isinstance(value, str) and not re.fullmatch(PERCENT_FMT, value):
        return [fe.invalid(path, value, fe.regex_error(
            "a valid percent string must be a numeric string followed by an ending '%'",
            PERCENT_FMT, "1%", "93%"))]
    return []


def _pdb(pdb: policy.PodDisruptionBudget) -> Problems:
    spec = pdb.spec
    out = _int_or_percent(spec.min_available, "spec.minAvailable")
    out += _int_or_percent(spec.max_unavailable, "spec.maxUnavailable")
    if spec.min_available is not None and spec.max_unavailable is not None:
        out.append(fe.invalid("spec", f"minAvailable={spec.min_available}, maxUnavailable="
                                      f"{spec.max_unavailable}",
                              "minAvailable and maxUnavailable cannot be both set"))
    return out + validate_label_selector(spec.selector, "spec.selector")


_RULES: dict[type, Callable[[Any], Problems]] = {
    core.Pod: _pod,
    core.Node: _node,
    core.ReplicationController: _workload,
    apps.ReplicaSet: _workload,
    apps.Deployment: _workload,
    apps.StatefulSet: _stateful_set,
    apps.DaemonSet: _daemon_set,
    batch.Job: _job,
    batch.CronJob: _cron_job,
    scheduling.PriorityClass: _priority_class,
    core.Service: _service,
    storage.StorageClass: _storage_class,
    policy.PodDisruptionBudget: _pdb,
    InertObject: _inert,
    core.PersistentVolume: _persistent_volume,
    core.PersistentVolumeClaim: _persistent_volume_claim,
}


# ---------------------------------------------------------------- whole-cluster rules


def object_key(obj: Any) -> tuple[str, str, str]:
    """(kind, namespace, name) with the namespace defaulting will give."""
    namespace = (obj.metadata.namespace or "default") if is_namespaced(obj.KIND) else ""
    return obj.KIND, namespace, obj.metadata.name


def _pod_specs(obj: Any) -> list[tuple[str, core.PodSpec]]:
    if isinstance(obj, core.Pod):
        return [("spec", obj.spec)]
    template = getattr(getattr(obj, "spec", None), "template", None)
    if isinstance(template, core.PodTemplateSpec):
        return [("spec.template.spec", template.spec)]
    return []


def _priority_values(objects: Sequence[Any]) -> dict[str, int]:
    """Class name → value (builtin classes too); ``""`` → the globalDefault's value, if any."""
    classes = [o for o in objects if isinstance(o, scheduling.PriorityClass)]
    values = {**scheduling.BUILTIN_PRIORITIES, **{pc.metadata.name: pc.value for pc in classes}}
    default = max((pc.value for pc in classes if pc.global_default), default=None)
    if default is not None:
        values[""] = default
    return values


def validate_cluster(objects: Sequence[Any]) -> list[tuple[int, Problem]]:
    """Duplicates, PriorityClass references, at most one globalDefault.

    Returns ``(index into objects, problem)`` pairs.
    """
    out: list[tuple[int, Problem]] = []
    seen: dict[tuple[str, str, str], int] = {}
    for i, obj in enumerate(objects):
        key = object_key(obj)
        if key[2] and key in seen:
            out.append((i, fe.duplicate("metadata.name", key[2])))
        seen.setdefault(key, i)
    values = _priority_values(objects)
    defaults = 0
    for i, obj in enumerate(objects):
        if isinstance(obj, scheduling.PriorityClass) and obj.global_default:
            defaults += 1
            if defaults > 1:
                out.append((i, fe.forbidden("globalDefault", "only one PriorityClass can be marked "
                                                             "as globalDefault")))
        for path, spec in _pod_specs(obj):
            out += [(i, p) for p in _spec_references(spec, path, values, isinstance(obj, core.Pod))]
    return out


def _spec_references(spec: core.PodSpec, path: str, values: dict[str, int], is_pod: bool) -> Problems:
    """Priority admission: the class exists, and a given ``spec.priority`` is the class's value."""
    name = spec.priority_class_name
    if name and name not in values:
        if is_pod and spec.priority is not None:
            return [Problem(f"{path}.priorityClassName", f'PriorityClass "{name}" is not in the input; '
                            f"the pod keeps its spec.priority {spec.priority} (admitted before)", True,
                            code="priority-class-missing")]
        return [fe.not_found(f"{path}.priorityClassName", name,
                             f"no PriorityClass with name {name} was found")]
    computed = values.get(name, values.get("", DEFAULT_PRIORITY)) if name else values.get("", DEFAULT_PRIORITY)
    if is_pod and spec.priority is not None and spec.priority != computed:
        return [fe.forbidden(f"{path}.priority", f"the integer value of priority ({spec.priority}) must not "
                             f"be provided in pod spec; priority admission controller computed {computed} "
                             "from the given PriorityClass name")]
    return []
