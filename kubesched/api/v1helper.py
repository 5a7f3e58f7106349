"""Helpers over core/v1 types that the scheduler uses: resource name classes, node selectors,
taints and tolerations, the preferAvoidPods annotation.

Upstream: pkg/apis/core/v1/helper/helpers.go (IsExtendedResourceName, IsNativeResource,
IsHugePageResourceName, IsPrefixedNativeResource, IsAttachableVolumeResourceName,
IsScalarResourceName, NodeSelectorRequirementsAsSelector, NodeSelectorRequirementsAsFieldSelector,
MatchNodeSelectorTerms, TolerationsTolerateTaint, TolerationsTolerateTaintsWithFilter,
FindMatchingUntoleratedTaint, AddOrUpdateTolerationInPodSpec, GetAvoidPodsFromNodeAnnotations);
staging/src/k8s.io/api/core/v1/toleration.go (Toleration.ToleratesTaint, MatchToleration); apimachinery labels.NewRequirement of v0.18 (its error texts).
"""

from __future__ import annotations

import json
import re
from typing import Callable, Iterable, Mapping, Optional

from kubesched.api import field_errors, labels
from kubesched.api.core import NodeSelectorRequirement, NodeSelectorTerm, Taint, Toleration
from kubesched.util.strconv import go_quote

RESOURCE_CPU = "cpu"
RESOURCE_MEMORY = "memory"
RESOURCE_PODS = "pods"
RESOURCE_EPHEMERAL_STORAGE = "ephemeral-storage"
DEFAULT_RESOURCE_REQUESTS_PREFIX = "requests."
RESOURCE_DEFAULT_NAMESPACE_PREFIX = "kubernetes.io/"
HUGE_PAGES_PREFIX = "hugepages-"
ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-"

_NAME_PART = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\Z")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")


def is_qualified_name(value: str) -> bool:
    """``validation.IsQualifiedName``: ``[prefix/]name`` with a DNS-1123 subdomain prefix."""
    parts = value.split("/")
    if len(parts) == 2:
        prefix, name = parts
        if not prefix or len(prefix) > 253 or not _DNS_SUBDOMAIN.match(prefix):
            return False
    elif len(parts) == 1:
        name = parts[0]
    else:
        return False
    return 0 < len(name) <= 63 and bool(_NAME_PART.match(name))


def is_native_resource(name: str) -> bool:
    return "/" not in name or RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


def is_extended_resource_name(name: str) -> bool:
    if is_native_resource(name) or name.startswith(DEFAULT_RESOURCE_REQUESTS_PREFIX):
        return False
    return is_qualified_name(DEFAULT_RESOURCE_REQUESTS_PREFIX + name)


def is_huge_page_resource_name(name: str) -> bool:
    return name.startswith(HUGE_PAGES_PREFIX)


def is_prefixed_native_resource(name: str) -> bool:
    return RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


def is_attachable_volume_resource_name(name: str) -> bool:
    return name.startswith(ATTACHABLE_VOLUMES_PREFIX)


def is_scalar_resource_name(name: str) -> bool:
    return (is_extended_resource_name(name) or is_huge_page_resource_name(name)
            or is_prefixed_native_resource(name) or is_attachable_volume_resource_name(name))


# ---------------------------------------------------------------- node selectors, taints, avoid-pods
# Upstream: pkg/apis/core/v1/helper/helpers.go (NodeSelectorRequirementsAsSelector,
# NodeSelectorRequirementsAsFieldSelector, MatchNodeSelectorTerms, TolerationsTolerateTaint,
# FindMatchingUntoleratedTaint, GetAvoidPodsFromNodeAnnotations), staging/src/k8s.io/api/core/v1/
# toleration.go (Toleration.ToleratesTaint) and apimachinery labels.NewRequirement (v0.18 messages).

NODE_SELECTOR_OP_IN = "In"
NODE_SELECTOR_OP_NOT_IN = "NotIn"
NODE_SELECTOR_OP_EXISTS = "Exists"
NODE_SELECTOR_OP_DOES_NOT_EXIST = "DoesNotExist"
NODE_SELECTOR_OP_GT = "Gt"
NODE_SELECTOR_OP_LT = "Lt"
TOLERATION_OP_EXISTS = "Exists"
TOLERATION_OP_EQUAL = "Equal"
TAINT_EFFECT_NO_SCHEDULE = "NoSchedule"
TAINT_EFFECT_PREFER_NO_SCHEDULE = "PreferNoSchedule"
TAINT_EFFECT_NO_EXECUTE = "NoExecute"
TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable"
PREFER_AVOID_PODS_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods"
NODE_FIELD_SELECTOR_KEY_NODE_NAME = "metadata.name"

_INT64_TEXT = re.compile(r"^[+-]?[0-9]+\Z")


def parse_int64(text: str) -> int | None:
    """``strconv.ParseInt(text, 10, 64)``: sign and decimal digits only; None when it fails."""
    if not _INT64_TEXT.match(text):
        return None
    value = int(text, 10)
    return value if -(2**63) <= value < 2**63 else None


def _new_label_requirement(key: str, operator: str, values: tuple[str, ...]) -> labels.Requirement:
    """``labels.NewRequirement`` with the v1.18 (apimachinery v0.18) error texts."""
    errs = field_errors.is_qualified_name(key)
    if errs:
        raise labels.SelectorError(f"invalid label key {go_quote(key)}: {'; '.join(errs)}")
    if operator in (labels.IN, labels.NOT_IN) and not values:
        raise labels.SelectorError("for 'in', 'notin' operators, values set can't be empty")
    if operator in (labels.EXISTS, labels.DOES_NOT_EXIST) and values:
        raise labels.SelectorError("values set must be empty for exists and does not exist")
    if operator in (labels.GT, labels.LT):
        if len(values) != 1:
            raise labels.SelectorError("for 'Gt', 'Lt' operators, exactly one value is required")
        if parse_int64(values[0]) is None:
            raise labels.SelectorError("for 'Gt', 'Lt' operators, the value must be an integer")
    for value in values:
        errs = field_errors.is_valid_label_value(value)
        if errs:
            raise labels.SelectorError(
                f"invalid label value: {go_quote(value)}: at key: {go_quote(key)}: {'; '.join(errs)}")
    return labels.Requirement(key, operator, values)


def node_selector_requirements_as_selector(
        requirements: Iterable[NodeSelectorRequirement]) -> labels.Selector:
    """``NodeSelectorRequirementsAsSelector``: an empty list selects nothing; bad input raises SelectorError."""
    requirements = tuple(requirements)
    if not requirements:
        return labels.NOTHING
    reqs = []
    for expr in requirements:
        if expr.operator not in (NODE_SELECTOR_OP_IN, NODE_SELECTOR_OP_NOT_IN, NODE_SELECTOR_OP_EXISTS,
                                 NODE_SELECTOR_OP_DOES_NOT_EXIST, NODE_SELECTOR_OP_GT, NODE_SELECTOR_OP_LT):
            raise labels.SelectorError(f"{go_quote(expr.operator)} is not a valid node selector operator")
        reqs.append(_new_label_requirement(expr.key, expr.operator, tuple(expr.values)))
    return labels.Selector(tuple(sorted(reqs, key=lambda r: r.key)))


FieldSelector = Callable[[Mapping[str, str]], bool]


def node_selector_requirements_as_field_selector(
        requirements: Iterable[NodeSelectorRequirement]) -> FieldSelector:
    """``NodeSelectorRequirementsAsFieldSelector``: a predicate over a field set (``metadata.name``).

    Only ``In``/``NotIn`` with exactly one value are allowed; an empty list selects nothing.
    """
    requirements = tuple(requirements)
    if not requirements:
        return lambda fields: False
    terms: list[tuple[str, str, bool]] = []
    for expr in requirements:
        if expr.operator not in (NODE_SELECTOR_OP_IN, NODE_SELECTOR_OP_NOT_IN):
            raise labels.SelectorError(f"{go_quote(expr.operator)} is not a valid node field selector operator")
        if len(expr.values) != 1:
            raise labels.SelectorError(f"unexpected number of value ({len(expr.values)}) for node field "
                                       f"selector operator {go_quote(expr.operator)}")
        terms.append((expr.key, expr.values[0], expr.operator == NODE_SELECTOR_OP_IN))
    return lambda fields: all((fields.get(key, "") == value) == equal for key, value, equal in terms)


def match_node_selector_terms(terms: Iterable[NodeSelectorTerm], node_labels: Mapping[str, str],
                              node_fields: Mapping[str, str]) -> bool:
    """``MatchNodeSelectorTerms``: terms are ORed; an empty term or a term that fails to build never matches."""
    for term in terms:
        if not term.match_expressions and not term.match_fields:
            continue
        try:
            if term.match_expressions and not node_selector_requirements_as_selector(
                    term.match_expressions).matches(node_labels):
                continue
            if term.match_fields and not node_selector_requirements_as_field_selector(
                    term.match_fields)(node_fields):
                continue
        except labels.SelectorError:
            continue
        return True
    return False


def toleration_tolerates_taint(toleration: Toleration, taint: Taint) -> bool:
    """``Toleration.ToleratesTaint``: empty effect matches all effects, empty key + Exists every key."""
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator in ("", TOLERATION_OP_EQUAL):
        return toleration.value == taint.value
    return toleration.operator == TOLERATION_OP_EXISTS


def tolerations_tolerate_taint(tolerations: Iterable[Toleration], taint: Taint) -> bool:
    """``TolerationsTolerateTaint``."""
    return any(toleration_tolerates_taint(t, taint) for t in tolerations)


def tolerations_tolerate_taints_with_filter(tolerations: Iterable[Toleration], taints: Iterable[Taint],
                                           apply_filter: Optional[Callable[[Taint], bool]] = None) -> bool:
    """``TolerationsTolerateTaintsWithFilter``: every taint the filter keeps is tolerated."""
    return not find_matching_untolerated_taint(taints, tolerations, apply_filter)[1]


def match_toleration(a: Toleration, b: Toleration) -> bool:
    """``Toleration.MatchToleration``: same key, effect, operator and value (tolerationSeconds aside)."""
    return (a.key, a.effect, a.operator, a.value) == (b.key, b.effect, b.operator, b.value)


def add_or_update_toleration(tolerations: tuple[Toleration, ...], toleration: Toleration) -> tuple[Toleration, ...]:
    """``AddOrUpdateTolerationInPodSpec``: replace the matching toleration in place, else append."""
    if toleration in tolerations:
        return tolerations
    if any(match_toleration(toleration, t) for t in tolerations):
        return tuple(toleration if match_toleration(toleration, t) else t for t in tolerations)
    return (*tolerations, toleration)


def find_matching_untolerated_taint(
        taints: Iterable[Taint], tolerations: Iterable[Toleration],
        inclusion_filter: Optional[Callable[[Taint], bool]] = None) -> tuple[Optional[Taint], bool]:
    """``FindMatchingUntoleratedTaint``: (first included taint no toleration tolerates, True) or (None, False)."""
    tolerations = tuple(tolerations)
    for taint in taints:
        if inclusion_filter is not None and not inclusion_filter(taint):
            continue
        if not tolerations_tolerate_taint(tolerations, taint):
            return taint, True
    return None, False


def _json_field(obj: dict, name: str) -> object:
    """Go ``encoding/json`` field lookup: exact key first, then case-insensitive."""
    if name in obj:
        return obj[name]
    return next((v for k, v in obj.items() if k.lower() == name.lower()), None)


def get_avoid_pods_from_node_annotations(annotations: Optional[Mapping[str, str]]) -> list[tuple[str, str]]:
    """``GetAvoidPodsFromNodeAnnotations``: (kind, uid) of each entry's ``podSignature.podController``.

    An absent or empty annotation gives ``[]``; text that Go's ``json.Unmarshal`` into
    ``v1.AvoidPods`` would reject raises ValueError. An entry without a controller gives ("", "").
    """
    text = (annotations or {}).get(PREFER_AVOID_PODS_ANNOTATION_KEY, "")
    if not text:
        return []
    doc = json.loads(text)
    if doc is None:
        return []
    if not isinstance(doc, dict):
        raise ValueError("json: cannot unmarshal into Go value of type v1.AvoidPods")
    entries = _json_field(doc, "preferAvoidPods") or []
    if not isinstance(entries, list):
        raise ValueError("json: cannot unmarshal into Go struct field AvoidPods.preferAvoidPods")
    out: list[tuple[str, str]] = []
    for entry in entries:
        signature = _json_object(entry, "preferAvoidPods")
        controller = _json_object(_json_field(signature, "podSignature"), "podSignature")
        ref = _json_object(_json_field(controller, "podController"), "podController")
        kind, uid = _json_field(ref, "kind"), _json_field(ref, "uid")
        if not isinstance(kind or "", str) or not isinstance(uid or "", str):
            raise ValueError("json: cannot unmarshal into Go struct field OwnerReference of type string")
        out.append((kind or "", uid or ""))
    return out


def _json_object(value: object, field: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"json: cannot unmarshal into Go struct field {field}")
    return value
