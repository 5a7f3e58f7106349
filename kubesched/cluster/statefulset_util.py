"""StatefulSet pod and claim identities: ``<set>-<ordinal>`` pods and ``<template>-<set>-<ordinal>`` claims.

Upstream: pkg/controller/statefulset/stateful_set_utils.go @ v1.18.5 (getParentNameAndOrdinal,
getPodName, getPersistentVolumeClaimName, isMemberOf, getPersistentVolumeClaims,
updateStorage, initIdentity, isRunningAndReady, isCreated, isHealthy, allowsBurst,
newStatefulSetPod, setPodRevision) and pkg/controller/history (ControllerRevisionName).

A pod gets the claim volumes first, named after the claim templates, then the template's
other volumes; ``hostname`` is the pod name and ``subdomain`` the set's serviceName. A
claim carries the template's labels plus the set's ``selector.matchLabels`` and no owner
(1.18 claims outlive their pods and set).

Deviation: the revision is ``<set>-<compute_hash(template)>`` (no ControllerRevision
objects); upstream orders the claim volumes by Go map iteration, here template order.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final, Mapping, Optional

from kubesched.api.apps import PARALLEL_POD_MANAGEMENT, StatefulSet
from kubesched.api.controllers import compute_hash, pod_from_template
from kubesched.api.core import (PersistentVolumeClaim, PersistentVolumeClaimStatus,
                                PersistentVolumeClaimVolumeSource, Pod, PodTemplateSpec, Volume)
from kubesched.api.defaults import apply_defaults
from kubesched.api.meta import ObjectMeta
from kubesched.cluster import controller_utils as cu
from kubesched.cluster import pod_strategy

STATEFUL_SET_POD_NAME_LABEL: Final = "statefulset.kubernetes.io/pod-name"
STATEFUL_SET_REVISION_LABEL: Final = "controller-revision-hash"
_STATEFUL_POD = re.compile(r"(.*)-([0-9]+)$")


def parent_name_and_ordinal(pod: Any) -> tuple[str, int]:
    """``getParentNameAndOrdinal``: ("", -1) when the name is not ``<parent>-<number>``."""
    match = _STATEFUL_POD.fullmatch(pod.metadata.name)
    if match is None:
        return "", -1
    ordinal = int(match.group(2))
    return match.group(1), ordinal if ordinal < 2**31 else -1


def ordinal_of(pod: Any) -> int:
    return parent_name_and_ordinal(pod)[1]


def is_member_of(sts: StatefulSet, pod: Pod) -> bool:
    return parent_name_and_ordinal(pod)[0] == sts.metadata.name


def pod_name(sts: StatefulSet, ordinal: int) -> str:
    return f"{sts.metadata.name}-{ordinal}"


def claim_name(sts: StatefulSet, template: PersistentVolumeClaim, ordinal: int) -> str:
    """``getPersistentVolumeClaimName``: ``<template>-<set>-<ordinal>``."""
    return f"{template.metadata.name}-{sts.metadata.name}-{ordinal}"


def revision_name(sts: StatefulSet) -> str:
    """``ControllerRevisionName(set, hash)``: the revision label the set's pods carry."""
    return f"{sts.metadata.name}-{compute_hash(sts.spec.template or PodTemplateSpec())}"


def persistent_volume_claims(sts: StatefulSet, ordinal: int) -> dict[str, PersistentVolumeClaim]:
    """``getPersistentVolumeClaims``: template name -> the claim for this ordinal (defaulted, no status)."""
    selector_labels = sts.spec.selector.match_labels if sts.spec.selector is not None else {}
    out: dict[str, PersistentVolumeClaim] = {}
    for template in sts.spec.volume_claim_templates:
        meta = ObjectMeta(name=claim_name(sts, template, ordinal), namespace=sts.metadata.namespace,
                          labels={**template.metadata.labels, **selector_labels},
                          annotations=dict(template.metadata.annotations))
        claim = PersistentVolumeClaim(metadata=meta, spec=template.spec, status=PersistentVolumeClaimStatus())
        out[template.metadata.name] = apply_defaults([claim])[0]
    return out


def update_storage(sts: StatefulSet, volumes: tuple[Volume, ...], ordinal: int) -> tuple[Volume, ...]:
    """``updateStorage``: the claim volumes, then every template volume not named like a claim template."""
    claims = persistent_volume_claims(sts, ordinal)
    mine = tuple(Volume(name=name, persistent_volume_claim=PersistentVolumeClaimVolumeSource(
        claim_name=claim.metadata.name)) for name, claim in claims.items())
    return mine + tuple(v for v in volumes if v.name not in claims)


def new_stateful_set_pod(sts: StatefulSet, ordinal: int, classes: Optional[Mapping[str, Any]] = None) -> Pod:
    """``newStatefulSetPod`` + ``setPodRevision``: identity, storage and the revision label."""
    template = sts.spec.template or PodTemplateSpec()
    name = pod_name(sts, ordinal)
    labels = {**template.metadata.labels, STATEFUL_SET_POD_NAME_LABEL: name,
              STATEFUL_SET_REVISION_LABEL: revision_name(sts)}
    spec = dataclasses.replace(template.spec, hostname=name, subdomain=sts.spec.service_name,
                               volumes=update_storage(sts, template.spec.volumes, ordinal))
    return pod_from_template(sts, template, name, classes, labels=labels, generate_name=f"{sts.metadata.name}-",
                             spec=spec)


def is_running_and_ready(pod: Pod) -> bool:
    return pod.status.phase == pod_strategy.POD_RUNNING and cu.is_pod_ready(pod)


def is_terminating(pod: Pod) -> bool:
    return pod.metadata.deletion_timestamp is not None


def is_healthy(pod: Pod) -> bool:
    return is_running_and_ready(pod) and not is_terminating(pod)


def allows_burst(sts: StatefulSet) -> bool:
    """``allowsBurst``: podManagementPolicy Parallel."""
    return sts.spec.pod_management_policy == PARALLEL_POD_MANAGEMENT
