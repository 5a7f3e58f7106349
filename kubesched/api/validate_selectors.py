"""Validation of object metadata, selectors, affinity, taints and tolerations.

Upstream: pkg/apis/core/validation/validation.go @ v1.18.5 (ValidateObjectMeta,
ValidateNodeSelectorRequirement, ValidateNodeSelectorTerm, validatePodAffinityTerm,
validateAffinity, ValidateTolerations, validateNodeTaints, validateTaintEffect) and
apimachinery/pkg/apis/meta/v1/validation (ValidateLabelSelector,
ValidateLabelSelectorRequirement).

Deviation: the Exists-with-a-value toleration error shows the operator, where
upstream prints the whole toleration struct; paths name map keys
(``metadata.labels.app``) for line-accurate reports.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional

from kubesched.api import core
from kubesched.api import field_errors as fe
from kubesched.api.decode import Problem
from kubesched.api.meta import LabelSelector, ObjectMeta

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
TOLERATION_OPERATORS = ("Equal", "Exists")

Problems = list[Problem]


# ---------------------------------------------------------------- metadata


PATH_SEGMENT_NAMED = frozenset({"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding",
                                "FlowSchema", "PriorityLevelConfiguration"})
"""Kinds whose names are path segments (ValidateRBACName, flowcontrol's ValidateFlowSchemaName …)."""


def name_validator(kind: str) -> Callable[[str], list[str]]:
    """The name rule of each kind (ValidatePodName, ValidateNamespaceName, ValidateRBACName …)."""
    if kind == "Namespace":
        return fe.is_dns1123_label
    if kind == "Service":
        return fe.is_dns1035_label
    if kind in PATH_SEGMENT_NAMED:
        return fe.is_valid_path_segment_name
    return fe.is_dns1123_subdomain


def validate_object_meta(meta: ObjectMeta, kind: str, path: str = "metadata") -> Problems:
    """``ValidateObjectMeta``: name (or generateName), namespace, labels, annotations."""
    out: Problems = []
    if not meta.name and not meta.generate_name:
        out.append(fe.required(f"{path}.name", "name or generateName is required"))
    elif meta.name:
        out += [fe.invalid(f"{path}.name", meta.name, m) for m in name_validator(kind)(meta.name)]
    if meta.namespace:
        out += [fe.invalid(f"{path}.namespace", meta.namespace, m)
                for m in fe.is_dns1123_label(meta.namespace)]
    out += fe.validate_labels(meta.labels, f"{path}.labels")
    for key in meta.annotations:
        out += [fe.invalid(f"{path}.annotations.{key}", key, m) for m in fe.is_qualified_name(key)]
    return out


# ---------------------------------------------------------------- selectors


def validate_label_selector(selector: Optional[LabelSelector], path: str) -> Problems:
    """``ValidateLabelSelector`` / ``ValidateLabelSelectorRequirement``."""
    if selector is None:
        return []
    out = fe.validate_labels(selector.match_labels, f"{path}.matchLabels")
    for i, req in enumerate(selector.match_expressions):
        p = f"{path}.matchExpressions[{i}]"
        if req.operator in ("In", "NotIn"):
            if not req.values:
                out.append(fe.required(f"{p}.values", "must be specified when `operator` is 'In' or 'NotIn'"))
        elif req.operator in ("Exists", "DoesNotExist"):
            if req.values:
                out.append(fe.forbidden(f"{p}.values",
                                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
        else:
            out.append(fe.invalid(f"{p}.operator", req.operator, "not a valid selector operator"))
        out += fe.validate_label_name(req.key, f"{p}.key")
    return out


def validate_node_selector_requirement(req: core.NodeSelectorRequirement, path: str) -> Problems:
    """``ValidateNodeSelectorRequirement``: operator and its value count."""
    out: Problems = []
    if req.operator in ("In", "NotIn"):
        if not req.values:
            out.append(fe.required(f"{path}.values", "must be specified when `operator` is 'In' or 'NotIn'"))
    elif req.operator in ("Exists", "DoesNotExist"):
        if req.values:
            out.append(fe.forbidden(f"{path}.values",
                                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif req.operator in ("Gt", "Lt"):
        if len(req.values) != 1:
            out.append(fe.required(f"{path}.values",
                                   "must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        out.append(fe.invalid(f"{path}.operator", req.operator, "not a valid selector operator"))
    return out + fe.validate_label_name(req.key, f"{path}.key")


def validate_node_selector_term(term: core.NodeSelectorTerm, path: str) -> Problems:
    out: Problems = []
    for j, req in enumerate(term.match_expressions):
        out += validate_node_selector_requirement(req, f"{path}.matchExpressions[{j}]")
    for j, req in enumerate(term.match_fields):
        p = f"{path}.matchFields[{j}]"
        if req.key != "metadata.name":
            out.append(fe.invalid(f"{p}.key", req.key, "not a valid field selector key"))
        elif req.operator in ("In", "NotIn") and len(req.values) != 1:
            out.append(fe.required(f"{p}.values", "must be only one value when `operator` is 'In' or "
                                                  "'NotIn' for node field selector"))
        elif req.operator not in ("In", "NotIn"):
            out.append(fe.invalid(f"{p}.operator", req.operator, "not a valid selector operator"))
    return out


# ---------------------------------------------------------------- affinity


def _weight(weight: int, path: str) -> Problems:
    return [] if 1 <= weight <= 100 else [fe.invalid(path, weight, "must be in the range 1-100")]


def validate_pod_affinity_term(term: core.PodAffinityTerm, path: str) -> Problems:
    out = validate_label_selector(term.label_selector, f"{path}.labelSelector")
    for ns in term.namespaces:
        out += [fe.invalid(f"{path}.namespaces", ns, m) for m in fe.is_dns1123_label(ns)]
    if not term.topology_key:
        return out + [fe.required(f"{path}.topologyKey", "can not be empty")]
    return out + fe.validate_label_name(term.topology_key, f"{path}.topologyKey")


def validate_pod_affinity(aff: Optional[core.PodAffinity], path: str) -> Problems:
    if aff is None:
        return []
    out: Problems = []
    req = f"{path}.requiredDuringSchedulingIgnoredDuringExecution"
    for i, term in enumerate(aff.required_during_scheduling_ignored_during_execution):
        out += validate_pod_affinity_term(term, f"{req}[{i}]")
    pref = f"{path}.preferredDuringSchedulingIgnoredDuringExecution"
    for i, wterm in enumerate(aff.preferred_during_scheduling_ignored_during_execution):
        out += _weight(wterm.weight, f"{pref}[{i}].weight")
        out += validate_pod_affinity_term(wterm.pod_affinity_term, f"{pref}[{i}].podAffinityTerm")
    return out


def validate_affinity(aff: Optional[core.Affinity], path: str) -> Problems:
    if aff is None:
        return []
    out: Problems = []
    node = aff.node_affinity
    if node is not None:
        np = f"{path}.nodeAffinity"
        required = node.required_during_scheduling_ignored_during_execution
        if required is not None:
            rp = f"{np}.requiredDuringSchedulingIgnoredDuringExecution"
            if not required.node_selector_terms:
                out.append(fe.required(f"{rp}.nodeSelectorTerms", "must have at least one node selector term"))
            for i, term in enumerate(required.node_selector_terms):
                out += validate_node_selector_term(term, f"{rp}.nodeSelectorTerms[{i}]")
        pp = f"{np}.preferredDuringSchedulingIgnoredDuringExecution"
        for i, pterm in enumerate(node.preferred_during_scheduling_ignored_during_execution):
            out += _weight(pterm.weight, f"{pp}[{i}].weight")
            out += validate_node_selector_term(pterm.preference, f"{pp}[{i}].preference")
    out += validate_pod_affinity(aff.pod_affinity, f"{path}.podAffinity")
    return out + validate_pod_affinity(aff.pod_anti_affinity, f"{path}.podAntiAffinity")


# ---------------------------------------------------------------- taints and tolerations


def validate_taint_effect(effect: str, allow_empty: bool, path: str) -> Problems:
    if not effect:
        return [] if allow_empty else [fe.required(path)]
    if effect not in TAINT_EFFECTS:
        return [fe.not_supported(path, effect, TAINT_EFFECTS)]
    return []


def validate_tolerations(tolerations: Iterable[core.Toleration], path: str) -> Problems:
    out: Problems = []
    for i, tol in enumerate(tolerations):
        p = f"{path}[{i}]"
        if tol.key:
            out += fe.validate_label_name(tol.key, f"{p}.key")
        if not tol.key and tol.operator != "Exists":
            out.append(fe.invalid(f"{p}.operator", tol.operator, "operator must be Exists when `key` is "
                                  "empty, which means \"match all values and all keys\""))
        if tol.toleration_seconds is not None and tol.effect != "NoExecute":
            out.append(fe.invalid(f"{p}.effect", tol.effect,
                                  "effect must be 'NoExecute' when `tolerationSeconds` is set"))
        if tol.operator in ("Equal", ""):
            errs = fe.is_valid_label_value(tol.value)
            if errs:
                out.append(fe.invalid(f"{p}.operator", tol.value, ";".join(errs)))
        elif tol.operator == "Exists":
            if tol.value:
                out.append(fe.invalid(f"{p}.operator", tol.operator,
                                      "value must be empty when `operator` is 'Exists'"))
        else:
            out.append(fe.not_supported(f"{p}.operator", tol.operator, TOLERATION_OPERATORS))
        out += validate_taint_effect(tol.effect, True, f"{p}.effect")
    return out


def validate_taints(taints: Iterable[core.Taint], path: str) -> Problems:
    """``validateNodeTaints``: key, value, effect; unique by (key, effect)."""
    out: Problems = []
    seen: set[tuple[str, str]] = set()
    for i, taint in enumerate(taints):
        p = f"{path}[{i}]"
        out += fe.validate_label_name(taint.key, f"{p}.key")
        errs = fe.is_valid_label_value(taint.value)
        if errs:
            out.append(fe.invalid(f"{p}.value", taint.value, ";".join(errs)))
        out += validate_taint_effect(taint.effect, False, f"{p}.effect")
        if (taint.key, taint.effect) in seen:
            out.append(Problem(p, f"Duplicate value: \"{taint.key}:{taint.effect}\": "
                                  "taints must be unique by key and effect pair"))
        seen.add((taint.key, taint.effect))
    return out
