"""DaemonSet pod helpers: the default tolerations, the pod template, the node affinity per node.

Upstream: pkg/controller/daemon/util/daemonset_util.go @ v1.18.5
(AddOrUpdateDaemonPodTolerations, CreatePodTemplate, IsPodUpdated,
ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName) and
pkg/controller/daemon/daemon_controller.go (NewPod).

In 1.18 (ScheduleDaemonSetPods, GA) the controller does not set ``spec.nodeName``: it
replaces the pod's required node affinity with the single term
``matchFields: metadata.name In [node]`` (every other required term is dropped; the
controller checked them already) and lets the default scheduler place the pod.
"""

from __future__ import annotations

import dataclasses
from typing import Final, Optional

from kubesched.api import v1helper
from kubesched.api.core import (Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
                                Pod, PodSpec, PodTemplateSpec, Toleration)
from kubesched.api.apps import DEPRECATED_TEMPLATE_GENERATION, DaemonSet

TAINT_NODE_NOT_READY: Final = "node.kubernetes.io/not-ready"
TAINT_NODE_UNREACHABLE: Final = "node.kubernetes.io/unreachable"
TAINT_NODE_DISK_PRESSURE: Final = "node.kubernetes.io/disk-pressure"
TAINT_NODE_MEMORY_PRESSURE: Final = "node.kubernetes.io/memory-pressure"
TAINT_NODE_PID_PRESSURE: Final = "node.kubernetes.io/pid-pressure"
TAINT_NODE_UNSCHEDULABLE: Final = "node.kubernetes.io/unschedulable"
TAINT_NODE_NETWORK_UNAVAILABLE: Final = "node.kubernetes.io/network-unavailable"
DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY: Final = "controller-revision-hash"
DAEMON_SET_TEMPLATE_GENERATION_KEY: Final = "pod-template-generation"

_EXISTS, _NO_EXECUTE, _NO_SCHEDULE = (v1helper.TOLERATION_OP_EXISTS, v1helper.TAINT_EFFECT_NO_EXECUTE,
                                      v1helper.TAINT_EFFECT_NO_SCHEDULE)
DAEMON_TOLERATIONS: Final = (
    Toleration(key=TAINT_NODE_NOT_READY, operator=_EXISTS, effect=_NO_EXECUTE),
    Toleration(key=TAINT_NODE_UNREACHABLE, operator=_EXISTS, effect=_NO_EXECUTE),
    Toleration(key=TAINT_NODE_DISK_PRESSURE, operator=_EXISTS, effect=_NO_SCHEDULE),
    Toleration(key=TAINT_NODE_MEMORY_PRESSURE, operator=_EXISTS, effect=_NO_SCHEDULE),
    Toleration(key=TAINT_NODE_PID_PRESSURE, operator=_EXISTS, effect=_NO_SCHEDULE),
    Toleration(key=TAINT_NODE_UNSCHEDULABLE, operator=_EXISTS, effect=_NO_SCHEDULE),
)
"""What AddOrUpdateDaemonPodTolerations adds, in its order (no tolerationSeconds: forever)."""
HOST_NETWORK_TOLERATION: Final = Toleration(key=TAINT_NODE_NETWORK_UNAVAILABLE, operator=_EXISTS,
                                            effect=_NO_SCHEDULE)


def add_or_update_daemon_pod_tolerations(spec: PodSpec) -> PodSpec:
    """``AddOrUpdateDaemonPodTolerations``; hostNetwork pods also tolerate network-unavailable."""
    tolerations = spec.tolerations
    for toleration in DAEMON_TOLERATIONS + ((HOST_NETWORK_TOLERATION,) if spec.host_network else ()):
        tolerations = v1helper.add_or_update_toleration(tolerations, toleration)
    return dataclasses.replace(spec, tolerations=tolerations)


def template_generation(ds: DaemonSet) -> Optional[int]:
    """``GetTemplateGeneration``: the deprecated annotation as a number (None when absent or bad)."""
    value = ds.metadata.annotations.get(DEPRECATED_TEMPLATE_GENERATION)
    return v1helper.parse_int64(value) if value is not None else None


def create_pod_template(template: PodTemplateSpec, generation: Optional[int], hash_: str) -> PodTemplateSpec:
    """``CreatePodTemplate``: default tolerations plus the generation and revision-hash labels."""
    labels = dict(template.metadata.labels)
    if generation is not None:
        labels[DAEMON_SET_TEMPLATE_GENERATION_KEY] = str(generation)
    if hash_:
        labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] = hash_
    return dataclasses.replace(template, metadata=dataclasses.replace(template.metadata, labels=labels),
                               spec=add_or_update_daemon_pod_tolerations(template.spec))


def is_pod_updated(pod: Pod, hash_: str, generation: Optional[int]) -> bool:
    """``IsPodUpdated``: the pod carries the current revision hash or template generation."""
    labels = pod.metadata.labels
    template_matches = generation is not None and labels.get(DAEMON_SET_TEMPLATE_GENERATION_KEY) == str(generation)
    return template_matches or (bool(hash_) and labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) == hash_)


def replace_node_name_node_affinity(affinity: Optional[Affinity], node_name: str) -> Affinity:
    """``ReplaceDaemonSetPodNodeNameNodeAffinity``: required terms become ``metadata.name In [node]``."""
    term = NodeSelectorTerm(match_fields=(NodeSelectorRequirement(
        key=v1helper.NODE_FIELD_SELECTOR_KEY_NODE_NAME, operator=v1helper.NODE_SELECTOR_OP_IN,
        values=(node_name,)),))
    affinity = affinity or Affinity()
    node_affinity = affinity.node_affinity or NodeAffinity()
    required = dataclasses.replace(node_affinity.required_during_scheduling_ignored_during_execution
                                   or NodeSelector(), node_selector_terms=(term,))
    node_affinity = dataclasses.replace(node_affinity, required_during_scheduling_ignored_during_execution=required)
    return dataclasses.replace(affinity, node_affinity=node_affinity)


def get_target_node_name(pod: Pod) -> Optional[str]:
    """``GetTargetNodeName``: ``spec.nodeName``, else the one ``metadata.name In`` value (None: error)."""
    if pod.spec.node_name:
        return pod.spec.node_name
    affinity = pod.spec.affinity
    required = affinity.node_affinity.required_during_scheduling_ignored_during_execution \
        if affinity is not None and affinity.node_affinity is not None else None
    if required is None:
        return None
    for term in required.node_selector_terms:
        for expr in term.match_fields:
            if expr.key == v1helper.NODE_FIELD_SELECTOR_KEY_NODE_NAME and expr.operator == v1helper.NODE_SELECTOR_OP_IN:
                return expr.values[0] if len(expr.values) == 1 else None
    return None


def new_pod(ds: DaemonSet, node_name: str) -> Pod:
    """``NewPod``: the template's pod on ``node_name`` with the daemon tolerations (for the checks)."""
    template = ds.spec.template or PodTemplateSpec()
    spec = dataclasses.replace(add_or_update_daemon_pod_tolerations(template.spec), node_name=node_name)
    meta = dataclasses.replace(template.metadata, namespace=ds.metadata.namespace)
    return Pod(metadata=meta, spec=spec)
