"""storage.k8s.io/v1 kinds: StorageClass and CSINode.

Upstream: staging/src/k8s.io/api/storage/v1/types.go (StorageClass, CSINode).
VolumeBinding reads a class's volumeBindingMode; NodeVolumeLimits reads a
CSINode's per-driver ``allocatable.count``.
"""

from __future__ import annotations

from typing import ClassVar, Mapping, Optional

from kubesched.api.fields import fld, mapping, model
from kubesched.api.meta import ObjectMeta


@model
class TopologySelectorLabelRequirement:
    key: str = fld("", required=True)
    values: tuple[str, ...] = ()


@model
class TopologySelectorTerm:
    match_label_expressions: tuple[TopologySelectorLabelRequirement, ...] = ()


@model
class StorageClass:
    API_VERSION: ClassVar[str] = "storage.k8s.io/v1"
    KIND: ClassVar[str] = "StorageClass"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    provisioner: str = fld("", required=True)
    parameters: Mapping[str, str] = mapping()
    reclaim_policy: Optional[str] = None
    volume_binding_mode: Optional[str] = None
    allowed_topologies: tuple[TopologySelectorTerm, ...] = ()
    allow_volume_expansion: Optional[bool] = None


@model
class VolumeNodeResources:
    count: Optional[int] = None


@model
class CSINodeDriver:
    name: str = fld("", required=True)
    node_id: str = fld("", json="nodeID", required=True)
    topology_keys: tuple[str, ...] = ()
    allocatable: Optional[VolumeNodeResources] = None


@model
class CSINodeSpec:
    drivers: tuple[CSINodeDriver, ...] = ()


@model
class CSINode:
    API_VERSION: ClassVar[str] = "storage.k8s.io/v1"
    KIND: ClassVar[str] = "CSINode"
    metadata: ObjectMeta = fld(required=True, factory=ObjectMeta)
    spec: CSINodeSpec = fld(factory=CSINodeSpec)
