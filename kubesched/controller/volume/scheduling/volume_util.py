"""Volume helpers shared by the volume plugins and the volume binder.

Upstream: pkg/volume/util/util.go (CheckNodeAffinity), pkg/volume/util/attach_limit.go
(limit keys and defaults, GetCSIAttachLimitKey), pkg/apis/core/v1/helper/helpers.go
(GetPersistentVolumeClaimClass, GetPersistentVolumeClass, MatchNodeSelectorTerms,
NodeSelectorRequirementsAsSelector, MatchTopologySelectorTerms) @ v1.18.5.

Deviation: these live in three upstream packages; they are gathered in one module here
because only the volume code of kubesched uses them. Node field selectors (matchFields)
are evaluated against an empty field set, as CheckNodeAffinity passes nil fields upstream.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Final, Iterable, Mapping, Optional

from kubesched.api.labels import Requirement, SelectorError

if TYPE_CHECKING:
    from kubesched.api.core import NodeSelectorRequirement, NodeSelectorTerm, PersistentVolume, PersistentVolumeClaim
    from kubesched.api.storage import TopologySelectorTerm

BETA_STORAGE_CLASS_ANNOTATION: Final = "volume.beta.kubernetes.io/storage-class"
MIGRATED_PLUGINS_ANNOTATION_KEY: Final = "storage.alpha.kubernetes.io/migrated-plugins"

# attach_limit.go
EBS_VOLUME_LIMIT_KEY: Final = "attachable-volumes-aws-ebs"
AZURE_VOLUME_LIMIT_KEY: Final = "attachable-volumes-azure-disk"
GCE_VOLUME_LIMIT_KEY: Final = "attachable-volumes-gce-pd"
CINDER_VOLUME_LIMIT_KEY: Final = "attachable-volumes-cinder"
DEFAULT_MAX_CINDER_VOLUMES: Final = 256
DEFAULT_MAX_EBS_VOLUMES: Final = 39
DEFAULT_MAX_EBS_NITRO_VOLUME_LIMIT: Final = 25
EBS_NITRO_LIMIT_REGEX: Final = r"^[cmr]5.*|t3|z1d"
CSI_ATTACH_LIMIT_PREFIX: Final = "attachable-volumes-csi-"
RESOURCE_NAME_LENGTH_LIMIT: Final = 63


def get_csi_attach_limit_key(driver_name: str) -> str:
    """``GetCSIAttachLimitKey``: prefix + driver, shortened with a sha1 when it reaches 63 chars."""
    if len(CSI_ATTACH_LIMIT_PREFIX) + len(driver_name) >= RESOURCE_NAME_LENGTH_LIMIT:
        hashed = hashlib.sha1(driver_name.encode()).hexdigest()[:16]
        return CSI_ATTACH_LIMIT_PREFIX + driver_name[:23] + hashed
    return CSI_ATTACH_LIMIT_PREFIX + driver_name


def get_persistent_volume_claim_class(claim: "PersistentVolumeClaim") -> str:
    """``GetPersistentVolumeClaimClass``: the beta annotation first, then spec.storageClassName."""
    annotations = claim.metadata.annotations
    if BETA_STORAGE_CLASS_ANNOTATION in annotations:
        return annotations[BETA_STORAGE_CLASS_ANNOTATION]
    return claim.spec.storage_class_name or ""


def get_persistent_volume_class(volume: "PersistentVolume") -> str:
    """``GetPersistentVolumeClass``: the beta annotation first, then spec.storageClassName."""
    annotations = volume.metadata.annotations
    if BETA_STORAGE_CLASS_ANNOTATION in annotations:
        return annotations[BETA_STORAGE_CLASS_ANNOTATION]
    return volume.spec.storage_class_name


_NODE_SELECTOR_OPS: Final = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}


def node_selector_requirements_as_selector(reqs: Iterable["NodeSelectorRequirement"]) -> list[Requirement]:
    """``NodeSelectorRequirementsAsSelector``; raises SelectorError on an invalid requirement."""
    out = []
    for expr in reqs:
        if expr.operator not in _NODE_SELECTOR_OPS:
            raise SelectorError(f"{expr.operator!r} is not a valid node selector operator")
        out.append(Requirement.new(expr.key, expr.operator, expr.values))
    return out


def _fields_match(reqs: Iterable["NodeSelectorRequirement"], fields: Mapping[str, str]) -> bool:
    """``NodeSelectorRequirementsAsFieldSelector`` + Matches: In/NotIn with one value only."""
    for expr in reqs:
        if expr.operator not in ("In", "NotIn") or len(expr.values) != 1:
            return False
        equal = fields.get(expr.key, "") == expr.values[0]
        if equal != (expr.operator == "In"):
            return False
    return True


def match_node_selector_terms(terms: Iterable["NodeSelectorTerm"], node_labels: Mapping[str, str],
                              node_fields: Optional[Mapping[str, str]] = None) -> bool:
    """``MatchNodeSelectorTerms``: terms are ORed; an empty term matches nothing."""
    for term in terms:
        if not term.match_expressions and not term.match_fields:
            continue
        if term.match_expressions:
            try:
                reqs = node_selector_requirements_as_selector(term.match_expressions)
            except SelectorError:
                continue
            if not all(r.matches(node_labels) for r in reqs):
                continue
        if term.match_fields and not _fields_match(term.match_fields, node_fields or {}):
            continue
        return True
    return False


def match_topology_selector_terms(terms: Iterable["TopologySelectorTerm"], labels: Mapping[str, str]) -> bool:
    """``MatchTopologySelectorTerms``: no terms match everything; an empty term matches nothing."""
    terms = tuple(terms)
    if not terms:
        return True
    for term in terms:
        if not term.match_label_expressions:
            continue
        try:
            reqs = [Requirement.new(e.key, "In", e.values) for e in term.match_label_expressions]
        except SelectorError:
            continue
        if all(r.matches(labels) for r in reqs):
            return True
    return False


class NodeAffinityError(Exception):
    """``CheckNodeAffinity`` failed: the PV's node affinity does not match the node."""


def check_node_affinity(pv: "PersistentVolume", node_labels: Mapping[str, str]) -> None:
    """``CheckNodeAffinity``: raise NodeAffinityError when spec.nodeAffinity.required does not match."""
    affinity = pv.spec.node_affinity
    if affinity is None or affinity.required is None:
        return
    if not match_node_selector_terms(affinity.required.node_selector_terms, node_labels):
        raise NodeAffinityError("No matching NodeSelectorTerms")
