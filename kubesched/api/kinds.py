"""Which kinds the simulator models, which ones it keeps inert, their API groups and scope.

Upstream: the scheme registrations of staging/src/k8s.io/api (group/version/kind), the kinds
the v1.18.0 OpenAPI document serves (``kubesched.api.openapi.schema``) and each resource's
``NamespaceScoped()`` in pkg/registry.

``KINDS`` are the modelled kinds (decoded into typed objects). Every other kind v1.18 serves
loads as an :class:`~kubesched.api.inert.InertObject`; a kind added to ``KINDS`` stops being
inert. ``resolve`` tells, for one ``apiVersion``/``kind``, which of the two it is, or why the
pair is not Kubernetes v1.18 (a typo, a release that added or removed it).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Optional

from kubesched.api import apps, batch, coordination, core, policy, scheduling, storage
from kubesched.api.openapi.history import later_groups, version_change
from kubesched.api.openapi.schema import BASE_RELEASE, groups, served, versions_of_kind

KINDS: dict[str, type] = {
    cls.KIND: cls
    for cls in (
        core.Pod, core.Node, core.PersistentVolume, core.PersistentVolumeClaim, core.Service,
        core.ReplicationController, core.Namespace, core.Event, core.Endpoints,
        apps.ReplicaSet, apps.Deployment, apps.StatefulSet, apps.DaemonSet,
        batch.Job, batch.CronJob,
        storage.StorageClass, storage.CSINode,
        policy.PodDisruptionBudget, scheduling.PriorityClass, coordination.Lease,
    )
}

API_VERSIONS: dict[str, tuple[str, ...]] = {
    kind: (cls.API_VERSION,) for kind, cls in KINDS.items()
}
API_VERSIONS["PodDisruptionBudget"] = ("policy/v1beta1",)
API_VERSIONS["PriorityClass"] = ("scheduling.k8s.io/v1", "scheduling.k8s.io/v1beta1",
                                 "scheduling.k8s.io/v1alpha1")
API_VERSIONS["StorageClass"] = ("storage.k8s.io/v1", "storage.k8s.io/v1beta1")
API_VERSIONS["CSINode"] = ("storage.k8s.io/v1", "storage.k8s.io/v1beta1")
API_VERSIONS["Lease"] = ("coordination.k8s.io/v1", "coordination.k8s.io/v1beta1")

CLUSTER_SCOPED = frozenset({
    "Node", "PersistentVolume", "Namespace", "ComponentStatus",
    "StorageClass", "CSINode", "CSIDriver", "VolumeAttachment", "PriorityClass", "RuntimeClass",
    "ClusterRole", "ClusterRoleBinding", "PodSecurityPolicy", "IngressClass",
    "CustomResourceDefinition", "APIService", "CertificateSigningRequest", "AuditSink",
    "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
    "FlowSchema", "PriorityLevelConfiguration",
    "TokenReview", "SubjectAccessReview", "SelfSubjectAccessReview", "SelfSubjectRulesReview",
})
"""Kinds whose objects have no namespace (``NamespaceScoped() == false`` in pkg/registry)."""

_RELEASE = BASE_RELEASE.rsplit(".", 1)[0]


def is_namespaced(kind: str) -> bool:
    return kind not in CLUSTER_SCOPED


@dataclass(frozen=True, slots=True)
class Resolved:
    """What a manifest's ``apiVersion``/``kind`` names.

    ``model`` is set for a modelled kind, ``definition`` (the OpenAPI name) for every kind
    v1.18 serves; neither for a custom resource (``custom``); ``error`` and the field it is
    about when the pair is not Kubernetes v1.18.
    """

    model: Optional[type] = None
    definition: str = ""
    custom: bool = False
    error: str = ""
    field: str = ""


def _group(api_version: str) -> str:
    return api_version.rpartition("/")[0]


def _wrong_version(api_version: str, kind: str) -> Resolved:
    known = versions_of_kind().get(kind, ())
    use = f"; use {' or '.join(known)}" if known else ""
    change = version_change(api_version, kind)
    if change and "added" in change:
        return Resolved(error=f"{api_version} {kind} is not in Kubernetes v{_RELEASE} "
                              f"(added in {change['added']}){use}", field="apiVersion")
    if change:
        return Resolved(error=f"{api_version} {kind} is not served by Kubernetes v{_RELEASE} "
                              f"(removed in {change['removed']}){use}", field="apiVersion")
    if known:
        return Resolved(error=f'"{api_version}" is not a version of {kind} in Kubernetes '
                              f"v{_RELEASE}{use}", field="apiVersion")
    in_group = sorted({k for v, k in served() if _group(v) == _group(api_version)})
    close = difflib.get_close_matches(kind, in_group, n=1, cutoff=0.75)
    hint = f' (did you mean "{close[0]}"?)' if close else ""
    return Resolved(error=f'unknown kind "{kind}" in {api_version}{hint}', field="kind")


def resolve(api_version: str, kind: str) -> Resolved:
    """The model, schema or error for one ``apiVersion``/``kind`` pair."""
    definition = served().get((api_version, kind), "")
    if definition:
        model = KINDS.get(kind) if api_version in API_VERSIONS.get(kind, ()) else None
        return Resolved(model=model, definition=definition)
    group = _group(api_version)
    if group in groups() or group in later_groups() or "." not in group:
        return _wrong_version(api_version, kind)
    return Resolved(custom=True)
