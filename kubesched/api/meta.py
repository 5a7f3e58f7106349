"""Object metadata, owner references and label selectors.

Upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go
(ObjectMeta, OwnerReference, LabelSelector, LabelSelectorRequirement).
"""

from __future__ import annotations

from typing import Mapping, NewType, Optional

from kubesched.api.fields import fld, mapping, model

Time = NewType("Time", float)
"""Seconds on the simulation clock; manifests may give RFC 3339 text or a number."""

IntOrString = int | str


@model
class OwnerReference:
    api_version: str = fld("", required=True)
    kind: str = fld("", required=True)
    name: str = fld("", required=True)
    uid: str = ""
    controller: Optional[bool] = None
    block_owner_deletion: Optional[bool] = None


@model
class ObjectMeta:
    name: str = ""
    generate_name: str = ""
    namespace: str = ""
    uid: str = fld("", json="uid")
    resource_version: str = ""
    generation: int = 0
    creation_timestamp: Optional[Time] = None
    deletion_timestamp: Optional[Time] = None
    deletion_grace_period_seconds: Optional[int] = None
    labels: Mapping[str, str] = mapping()
    annotations: Mapping[str, str] = mapping()
    owner_references: tuple[OwnerReference, ...] = ()
    finalizers: tuple[str, ...] = ()
    cluster_name: str = ""

    def controller_ref(self) -> Optional[OwnerReference]:
        """The owner with ``controller: true`` (``metav1.GetControllerOf``)."""
        return next((ref for ref in self.owner_references if ref.controller), None)


@model
class LabelSelectorRequirement:
    key: str = fld("", required=True)
    operator: str = fld("", required=True)
    values: tuple[str, ...] = ()


@model
class LabelSelector:
    match_labels: Mapping[str, str] = mapping()
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()


@model
class ObjectReference:
    kind: str = ""
    namespace: str = ""
    name: str = ""
    uid: str = fld("", json="uid")
    api_version: str = ""
    resource_version: str = ""
    field_path: str = ""
