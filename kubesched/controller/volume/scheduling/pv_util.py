"""PersistentVolume controller helpers the scheduler's volume binder uses.

Upstream: pkg/controller/volume/persistentvolume/util/util.go @ v1.18.5 (annotation names,
IsDelayBindingMode, GetBindVolumeToClaim, IsVolumeBoundToClaim, FindMatchingVolume,
CheckVolumeModeMismatches, CheckAccessModes).

Deviation: the BlockVolume and StorageObjectInUseProtection gates are GA/on in 1.18 and
treated as always on.
"""

from __future__ import annotations

import dataclasses
from typing import Final, Iterable, Mapping, Optional

from kubesched.api.core import Node, PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimSpec, PersistentVolumeSpec
from kubesched.api.labels import label_selector_as_selector, SelectorError
from kubesched.api.meta import ObjectReference
from kubesched.api.quantity import Quantity
from kubesched.controller.volume.scheduling.volume_util import (
    NodeAffinityError, check_node_affinity, get_persistent_volume_claim_class, get_persistent_volume_class)

ANN_BIND_COMPLETED: Final = "pv.kubernetes.io/bind-completed"
ANN_BOUND_BY_CONTROLLER: Final = "pv.kubernetes.io/bound-by-controller"
ANN_SELECTED_NODE: Final = "volume.kubernetes.io/selected-node"
NOT_SUPPORTED_PROVISIONER: Final = "kubernetes.io/no-provisioner"
VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER: Final = "WaitForFirstConsumer"
VOLUME_AVAILABLE: Final = "Available"
_ZERO: Final = Quantity.parse("0")


def storage_request(claim: PersistentVolumeClaim) -> Quantity:
    return claim.spec.resources.requests.get("storage", _ZERO)


def storage_capacity(volume: PersistentVolume) -> Quantity:
    return volume.spec.capacity.get("storage", _ZERO)


def is_delay_binding_mode(claim: PersistentVolumeClaim, class_lister) -> bool:
    """``IsDelayBindingMode``: the claim's class binds WaitForFirstConsumer (missing class: no)."""
    class_name = get_persistent_volume_claim_class(claim)
    if not class_name:
        return False
    cls = class_lister.storage_class(class_name)
    if cls is None:
        return False
    if cls.volume_binding_mode is None:
        raise ValueError(f'VolumeBindingMode not set for StorageClass "{class_name}"')
    return cls.volume_binding_mode == VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER


def is_volume_bound_to_claim(volume: PersistentVolume, claim: PersistentVolumeClaim) -> bool:
    """``IsVolumeBoundToClaim``: claimRef names the claim (and its UID, when the ref has one)."""
    ref = volume.spec.claim_ref
    if ref is None or ref.name != claim.metadata.name or ref.namespace != claim.metadata.namespace:
        return False
    return not ref.uid or ref.uid == claim.metadata.uid


def get_bind_volume_to_claim(volume: PersistentVolume, claim: PersistentVolumeClaim) -> tuple[PersistentVolume, bool]:
    """``GetBindVolumeToClaim``: (volume bound to claim, whether anything changed)."""
    dirty = False
    set_bound_by_controller = not is_volume_bound_to_claim(volume, claim)
    new = volume
    ref = volume.spec.claim_ref
    if ref is None or (ref.name, ref.namespace, ref.uid) != (claim.metadata.name, claim.metadata.namespace,
                                                             claim.metadata.uid):
        claim_ref = ObjectReference(kind="PersistentVolumeClaim", namespace=claim.metadata.namespace,
                                    name=claim.metadata.name, uid=claim.metadata.uid, api_version="v1",
                                    resource_version=claim.metadata.resource_version)
        new = dataclasses.replace(new, spec=dataclasses.replace(new.spec, claim_ref=claim_ref))
        dirty = True
    if set_bound_by_controller and ANN_BOUND_BY_CONTROLLER not in new.metadata.annotations:
        annotations = {**new.metadata.annotations, ANN_BOUND_BY_CONTROLLER: "yes"}
        new = dataclasses.replace(new, metadata=dataclasses.replace(new.metadata, annotations=annotations))
        dirty = True
    return new, dirty


def check_volume_mode_mismatches(pvc_spec: PersistentVolumeClaimSpec, pv_spec: PersistentVolumeSpec) -> bool:
    """``CheckVolumeModeMismatches``: nil modes default to Filesystem."""
    return (pvc_spec.volume_mode or "Filesystem") != (pv_spec.volume_mode or "Filesystem")


def check_access_modes(claim: PersistentVolumeClaim, volume: PersistentVolume) -> bool:
    """``CheckAccessModes``: the PV offers every access mode the claim asks for."""
    return set(claim.spec.access_modes) <= set(volume.spec.access_modes)


def _node_affinity_valid(volume: PersistentVolume, node: Optional[Node]) -> bool:
    if node is None:
        return True
    try:
        check_node_affinity(volume, node.metadata.labels)
    except NodeAffinityError:
        return False
    return True


def find_matching_volume(claim: PersistentVolumeClaim, volumes: Iterable[PersistentVolume], node: Optional[Node],
                         excluded: Mapping[str, PersistentVolume], delay_binding: bool) -> Optional[PersistentVolume]:
    """``FindMatchingVolume``: a PV pre-bound to the claim, else the smallest adequate available PV."""
    requested = storage_request(claim)
    requested_class = get_persistent_volume_claim_class(claim)
    selector = None
    if claim.spec.selector is not None:
        try:
            selector = label_selector_as_selector(claim.spec.selector)
        except SelectorError as err:
            ns, name = claim.metadata.namespace, claim.metadata.name
            raise ValueError(f"error creating internal label selector for claim: {ns}/{name}: {err}") from err
    smallest: Optional[PersistentVolume] = None
    for volume in volumes:
        if volume.metadata.name in excluded:
            continue
        qty = storage_capacity(volume)
        if check_volume_mode_mismatches(claim.spec, volume.spec) or volume.metadata.deletion_timestamp is not None:
            continue
        affinity_ok = _node_affinity_valid(volume, node)
        if is_volume_bound_to_claim(volume, claim):
            if qty < requested:
                continue
            return volume if affinity_ok else None
        if node is None and delay_binding:
            continue
        if volume.status.phase != VOLUME_AVAILABLE or volume.spec.claim_ref is not None:
            continue
        if selector is not None and not selector.matches(volume.metadata.labels):
            continue
        if get_persistent_volume_class(volume) != requested_class or not affinity_ok:
            continue
        if node is not None and not check_access_modes(claim, volume):
            continue
        if not qty < requested and (smallest is None or qty < storage_capacity(smallest)):
            smallest = volume
    return smallest
