"""API-server validation of pod-spec fields the typed model does not keep, read from the manifest.

Upstream: pkg/apis/core/validation/validation.go @ v1.18.5 (ValidateVolumes /
validateVolumeSource: exactly one volume type; validateContainers: validateProbe /
validateHandler, terminationMessagePolicy, validatePullPolicy, ValidateEnv with
validateEnvVarValueFrom's count of sources, ValidateVolumeMounts; ValidatePodSpec:
validateDNSPolicy, serviceAccountName, runtimeClassName, activeDeadlineSeconds). Deviation: the
selectors inside ``valueFrom`` (fieldRef's field path, a key's format) are not checked; the
scheduler reads none of them. The typed rules (resources, ports, image, restartPolicy,
affinity, …) live in :mod:`kubesched.api.validate_pod`.

The manifest has passed the OpenAPI check, so values have their schema types; anything
else is skipped here (the schema check already reported it). Values defaulting fills in
(an empty ``imagePullPolicy`` or ``dnsPolicy``) are accepted, since this runs before defaulting.
"""

from __future__ import annotations

from typing import Any, Iterator

from kubesched.api import field_errors as fe
from kubesched.api.decode import Problem

PULL_POLICIES = ("Always", "IfNotPresent", "Never")  # supportedPullPolicies.List(): sorted
DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
TERMINATION_MESSAGE = "must be 'File' or 'FallbackToLogsOnError'"
PROBE_HANDLERS = ("exec", "httpGet", "tcpSocket")
MAX_INT32 = 2**31 - 1
ENV_SOURCES = ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef")
POD_VOLUME_TYPES = (
    ("emptyDir", "emptyDir"), ("hostPath", "hostPath"), ("gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk"), ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("secret", "secret"), ("nfs", "nfs"), ("iscsi", "iscsi"), ("glusterfs", "glusterfs"), ("flocker", "flocker"),
    ("persistentVolumeClaim", "persistentVolumeClaim"), ("rbd", "rbd"), ("cinder", "cinder"), ("cephfs", "cephFS"),
    ("quobyte", "quobyte"), ("downwardAPI", "downwarAPI"), ("fc", "fc"), ("flexVolume", "flexVolume"),
    ("configMap", "configMap"), ("azureFile", "azureFile"), ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"), ("portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk"), ("storageos", "storageos"), ("projected", "projected"), ("scaleIO", "scaleIO"),
    ("csi", "csi"),
)
"""``validateVolumeSource``'s order: (manifest key, the name its error reports)."""
PV_VOLUME_TYPES = (
    ("hostPath", "hostPath"), ("gcePersistentDisk", "gcePersistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore"), ("glusterfs", "glusterfs"), ("flocker", "flocker"),
    ("nfs", "nfs"), ("rbd", "rbd"), ("quobyte", "quobyte"), ("cephfs", "cephFS"), ("iscsi", "iscsi"),
    ("cinder", "cinder"), ("fc", "fc"), ("flexVolume", ""), ("azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume"), ("photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume"), ("azureDisk", "azureDisk"), ("scaleIO", "scaleIO"), ("local", "local"),
    ("storageos", "storageos"), ("csi", "csi"),
)
"""``ValidatePersistentVolumeSpec``'s order; flexVolume is counted but never refused as a second type."""
TEMPLATE_PATHS = {
    "Pod": ("spec",),
    "PodTemplate": ("template", "spec"),
    "ReplicationController": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
"""Where each kind holds a pod spec."""

Problems = list[Problem]


def pod_spec_path(kind: str) -> str:
    return ".".join(TEMPLATE_PATHS.get(kind, ()))


def _dig(data: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _items(value: Any) -> Iterator[tuple[int, dict]]:
    for i, item in enumerate(value if isinstance(value, list) else ()):
        if isinstance(item, dict):
            yield i, item


def validate_manifest(data: Any) -> Problems:
    """The manifest-level rules: pod specs of any kind that holds one; a PersistentVolume's type."""
    if isinstance(data, dict) and data.get("kind") == "PersistentVolume" and isinstance(data.get("spec"), dict):
        return _volume_types(data["spec"], "spec", PV_VOLUME_TYPES)
    keys = TEMPLATE_PATHS.get(data.get("kind")) if isinstance(data, dict) else None
    spec = _dig(data, keys) if keys else None
    if not isinstance(spec, dict):
        return []
    claims = {_dig(t, ("metadata", "name")) for _, t in _items(_dig(data, ("spec", "volumeClaimTemplates")))}
    return validate_raw_pod_spec(spec, ".".join(keys), {c for c in claims if isinstance(c, str)})


def validate_raw_pod_spec(spec: dict, path: str, claim_templates: frozenset[str] | set[str] = frozenset()
                          ) -> Problems:
    """The rules for one pod spec; a StatefulSet's claim templates count as volumes."""
    volumes, out = _volumes(spec.get("volumes"), f"{path}.volumes")
    volumes |= claim_templates
    out += _policy(spec.get("dnsPolicy"), f"{path}.dnsPolicy", DNS_POLICIES)
    out += _names_and_deadline(spec, path)
    for field in ("containers", "initContainers"):
        for i, container in _items(spec.get(field)):
            out += _container(container, volumes, f"{path}.{field}[{i}]")
    return out


def _names_and_deadline(spec: dict, path: str) -> Problems:
    """``ValidatePodSpec``: serviceAccountName and runtimeClassName are DNS subdomains
    (ValidateServiceAccountName, ValidateRuntimeClassName); activeDeadlineSeconds is in [1, MaxInt32]."""
    out: Problems = []
    account, runtime_class = spec.get("serviceAccountName"), spec.get("runtimeClassName")
    names = ([("serviceAccountName", account)] if isinstance(account, str) and account else []) + (
        [("runtimeClassName", runtime_class)] if isinstance(runtime_class, str) else [])   # set, even "", is checked
    for field, name in names:
        out += [fe.invalid(f"{path}.{field}", name, m) for m in fe.is_dns1123_subdomain(name)]
    deadline = spec.get("activeDeadlineSeconds")
    if isinstance(deadline, int) and not isinstance(deadline, bool) and not 1 <= deadline <= MAX_INT32:
        out.append(fe.invalid(f"{path}.activeDeadlineSeconds", deadline,
                              f"must be between 1 and {MAX_INT32}, inclusive"))
    return out


def _volume_types(source: dict, path: str, types: tuple[tuple[str, str], ...]) -> Problems:
    """Exactly one volume type, tried in upstream's order."""
    out: Problems = []
    count = 0
    for key, reported in types:
        if source.get(key) is None:
            continue
        if count and reported:
            out.append(fe.forbidden(f"{path}.{reported}", "may not specify more than 1 volume type"))
        else:
            count += 1
    if not count:
        out.append(fe.required(path, "must specify a volume type"))
    return out


def _volumes(value: Any, path: str) -> tuple[set[str], Problems]:
    """``ValidateVolumes``: each volume names exactly one type; the names mounts may use."""
    names: set[str] = set()
    out: Problems = []
    for i, volume in _items(value):
        out += _volume_types(volume, f"{path}[{i}]", POD_VOLUME_TYPES)
        if isinstance(volume.get("name"), str):
            names.add(volume["name"])
    return names, out


def _policy(value: Any, path: str, supported: tuple[str, ...]) -> Problems:
    if isinstance(value, str) and value and value not in supported:
        return [fe.not_supported(path, value, supported)]
    return []


def _container(container: dict, volumes: set[str], path: str) -> Problems:
    out = _policy(container.get("imagePullPolicy"), f"{path}.imagePullPolicy", PULL_POLICIES)
    policy = container.get("terminationMessagePolicy")
    if isinstance(policy, str) and policy and policy not in ("File", "FallbackToLogsOnError"):
        out.append(fe.invalid(f"{path}.terminationMessagePolicy", policy, TERMINATION_MESSAGE))
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        if isinstance(container.get(probe), dict):
            out += _handler(container[probe], f"{path}.{probe}")
            threshold = container[probe].get("successThreshold")
            if probe != "readinessProbe" and isinstance(threshold, int) and threshold != 1:
                out.append(fe.invalid(f"{path}.{probe}.successThreshold", threshold, "must be 1"))
    for i, env in _items(container.get("env")):
        name = env.get("name")
        if not name:
            out.append(fe.required(f"{path}.env[{i}].name"))
        elif isinstance(name, str):
            out += [fe.invalid(f"{path}.env[{i}].name", name, m) for m in fe.is_env_var_name(name)]
        out += _env_value_from(env, f"{path}.env[{i}].valueFrom")
    out += _mounts(container.get("volumeMounts"), volumes, f"{path}.volumeMounts")
    return out


def _env_value_from(env: dict, path: str) -> Problems:
    """``validateEnvVarValueFrom``: exactly one source, and no ``value`` beside it."""
    source = env.get("valueFrom")
    if not isinstance(source, dict):
        return []
    count = sum(source.get(key) is not None for key in ENV_SOURCES)
    if count == 0:
        return [fe.invalid(path, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or "
                                     "`secretKeyRef`")]
    if env.get("value"):
        return [fe.invalid(path, "", "may not be specified when `value` is not empty")]
    if count > 1:
        return [fe.invalid(path, "", "may not have more than one field specified at a time")]
    return []


def _handler(probe: dict, path: str) -> Problems:
    """``validateHandler``: exactly one of exec, httpGet, tcpSocket."""
    given = [h for h in PROBE_HANDLERS if probe.get(h) is not None]
    if not given:
        return [fe.required(path, "must specify a handler type")]
    out = [fe.forbidden(f"{path}.{h}", "may not specify more than 1 handler type") for h in given[1:]]
    exec_action = probe.get("exec")
    if isinstance(exec_action, dict) and not exec_action.get("command"):
        out.append(fe.required(f"{path}.exec.command"))
    return out


def _mounts(value: Any, volumes: set[str], path: str) -> Problems:
    """``ValidateVolumeMounts``: a mount names a volume of the pod and a unique path."""
    out: Problems = []
    seen: set[str] = set()
    for i, mount in _items(value):
        name, mount_path = mount.get("name"), mount.get("mountPath")
        if not name:
            out.append(fe.required(f"{path}[{i}].name"))
        if name not in volumes:
            out.append(fe.not_found(f"{path}[{i}].name", name or ""))
        if not mount_path:
            out.append(fe.required(f"{path}[{i}].mountPath"))
        elif mount_path in seen:
            out.append(fe.invalid(f"{path}[{i}].mountPath", mount_path, "must be unique"))
        if isinstance(mount_path, str):
            seen.add(mount_path)
    return out
