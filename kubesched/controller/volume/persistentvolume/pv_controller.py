"""The PersistentVolume controller: binds claims to volumes, provisions volumes, keeps phases right.

Upstream: pkg/controller/volume/persistentvolume/pv_controller.go @ v1.18.5 (syncClaim,
syncUnboundClaim, syncBoundClaim, syncVolume, updateClaimStatus,
updateClaimStatusWithEvent, updateVolumePhase, bindVolumeToClaim, bindClaimToVolume,
bind, unbindVolume, provisionClaim, provisionClaimOperation,
provisionClaimOperationExternal, setClaimProvisioner, findProvisionablePlugin,
getProvisionedVolumeNameForClaim), pv_controller_base.go (Run, resync, deleteClaim, the
claim and volume work queues; ``--pvclaimbinder-sync-period`` 15 s), index.go (kubesched's
``index``) and pkg/controller/volume/events (reasons).

An Immediate claim without ``volumeName`` binds to the best matching Available volume
(index.find_best_match_for_claim): the volume's ``claimRef`` first, then its phase Bound,
then the claim's ``volumeName`` with ``pv.kubernetes.io/bind-completed`` and
``bound-by-controller``, then the claim's phase Bound with the volume's access modes and
capacity. With no match it stays Pending and, at every sync, records the 1.18 event:
``FailedBinding`` "no persistent volumes available for this claim and no storage class is
set" for a claim without a class, else the class's provisioning outcome
(``ProvisioningFailed`` ``storageclass.storage.k8s.io "<class>" not found``, or ``no volume
plugin matched name: kubernetes.io/no-provisioner``, or a provisioned volume).
A WaitForFirstConsumer claim only binds to a volume already pre-bound to it (the
scheduler's volume binder writes that ``claimRef``) and otherwise records
``WaitForFirstConsumer`` "waiting for first consumer to be created before binding"; once
the binder has set ``volume.kubernetes.io/selected-node`` it is provisioned.
A claim that names a volume (``volumeName``) binds to it when the volume is free and
satisfies it (else ``VolumeMismatch``) or is pre-bound to it. Every sync is repeated by
the resync every 15 s, so a volume added later binds within 15 s, as upstream.

Deviation: the controller reads the API server directly (no informer cache); volumes,
then claims, are synced in name order. Provisioning is emulated at once: an in-tree
provisioner (``kubernetes.io/gce-pd`` …) or an external one (any name outside
``kubernetes.io/``, after the ``ExternalProvisioning`` event) creates ``pvc-<claim uid>``
with the requested size, the claim's access modes and volumeMode and the class's reclaim
policy, pre-bound to the claim, with no volume source, mount options or topology.
Reclaiming (Delete, Recycle) is not modelled: a volume whose claim is gone turns
Released and stays. The bindings the scheduler's volume binder starts (a PV pre-bound to a
claim, a claim's selected node) are completed here in the same instant, which the binder's
poll sees one second later (kubesched.controller.volume.scheduling.scheduler_binder).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Optional

from kubesched.api.core import PersistentVolume, PersistentVolumeClaim, PersistentVolumeSpec
from kubesched.api.meta import ObjectMeta, ObjectReference
from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.controller_utils import SyncQueue
from kubesched.cluster.errors import APIError, NotFound
from kubesched.cluster.watch import DELETED, WatchEvent
from kubesched.controller.volume.persistentvolume.index import find_best_match_for_claim
from kubesched.controller.volume.scheduling import pv_util
from kubesched.controller.volume.scheduling.volume_util import (get_persistent_volume_claim_class,
                                                               get_persistent_volume_class)

COMPONENT: Final = "persistentvolume-controller"
SYNC_PERIOD_SECONDS: Final = 15.0
"""``--pvclaimbinder-sync-period`` default: how often every claim and volume is synced again."""
RESYNC_LABEL: Final = "persistentvolume-controller: resync"
CLAIM_LABEL: Final = "persistentvolume-controller: sync claim"
VOLUME_LABEL: Final = "persistentvolume-controller: sync volume"

CLAIM_PENDING: Final = "Pending"
CLAIM_BOUND: Final = "Bound"
CLAIM_LOST: Final = "Lost"
VOLUME_AVAILABLE: Final = "Available"
VOLUME_BOUND: Final = "Bound"
VOLUME_RELEASED: Final = "Released"
VOLUME_FAILED: Final = "Failed"

FAILED_BINDING: Final = "FailedBinding"
VOLUME_MISMATCH: Final = "VolumeMismatch"
PROVISIONING_FAILED: Final = "ProvisioningFailed"
PROVISIONING_SUCCEEDED: Final = "ProvisioningSucceeded"
EXTERNAL_PROVISIONING: Final = "ExternalProvisioning"
WAIT_FOR_FIRST_CONSUMER: Final = "WaitForFirstConsumer"
NO_CLASS_MESSAGE: Final = "no persistent volumes available for this claim and no storage class is set"
WAITING_MESSAGE: Final = "waiting for first consumer to be created before binding"

ANN_STORAGE_PROVISIONER: Final = "volume.beta.kubernetes.io/storage-provisioner"
ANN_DYNAMICALLY_PROVISIONED: Final = "pv.kubernetes.io/provisioned-by"
IN_TREE_PROVISIONERS: Final = frozenset({
    "kubernetes.io/aws-ebs", "kubernetes.io/gce-pd", "kubernetes.io/cinder", "kubernetes.io/azure-disk",
    "kubernetes.io/azure-file", "kubernetes.io/vsphere-volume", "kubernetes.io/glusterfs",
    "kubernetes.io/quobyte", "kubernetes.io/rbd", "kubernetes.io/portworx-volume", "kubernetes.io/scaleio",
    "kubernetes.io/storageos"})
"""The 1.18 in-tree volume plugins that can provision (``ProvisionableVolumePlugin``)."""


class _ClassLister:
    """``storagelisters.StorageClassLister`` over the API server (what pv_util expects)."""

    def __init__(self, api: APIServer) -> None:
        self._api = api

    def storage_class(self, name: str) -> Optional[Any]:
        try:
            return self._api.get("StorageClass", "", name)
        except APIError:
            return None


class PersistentVolumeController:
    """``PersistentVolumeController`` with its claim and volume queues and the periodic resync."""

    def __init__(self, api: APIServer, sync_period: float = SYNC_PERIOD_SECONDS) -> None:
        self._api = api
        self._classes = _ClassLister(api)
        self._claims = SyncQueue(api.loop, self._sync_claim_key, CLAIM_LABEL)
        self._volumes = SyncQueue(api.loop, lambda key: self._sync_volume_key(key[1]), VOLUME_LABEL)
        self.stop = api.watch(self._on_event, kinds=("PersistentVolume", "PersistentVolumeClaim"))
        self._resync()  # the informers' initial list
        api.loop.call_later(sync_period, lambda: api.loop.every(sync_period, self._resync, label=RESYNC_LABEL,
                                                                idle=self._nothing_to_resync), label=RESYNC_LABEL)

    def _on_event(self, event: WatchEvent) -> None:
        if event.kind == "PersistentVolume":
            self._volumes.add(("", event.obj.metadata.name))
        elif event.type == DELETED:  # deleteClaim: its volume is synced (released) at once
            if event.obj.spec.volume_name:
                self._volumes.add(("", event.obj.spec.volume_name))
        else:
            self._claims.add((event.obj.metadata.namespace, event.obj.metadata.name))

    def _nothing_to_resync(self) -> bool:
        """No volume and no claim: a resync now does nothing (the loop skips it)."""
        return not self._api.list("PersistentVolume") and not self._api.list("PersistentVolumeClaim")

    def _resync(self) -> None:
        """``resync``: every volume, then every claim, is synced again."""
        for volume in self._api.list("PersistentVolume"):
            self._volumes.add(("", volume.metadata.name))
        for claim in self._api.list("PersistentVolumeClaim"):
            self._claims.add((claim.metadata.namespace, claim.metadata.name))

    def _event(self, obj: Any, type_: str, reason: str, message: str) -> None:
        self._api.record_event(obj, type_, reason, message, component=COMPONENT)

    def _volume(self, name: str) -> Optional[PersistentVolume]:
        try:
            return self._api.get("PersistentVolume", "", name)
        except APIError:
            return None

    # -- claims ----------------------------------------------------------------------------------
    def _sync_claim_key(self, key: tuple[str, str]) -> None:
        try:
            claim = self._api.get("PersistentVolumeClaim", *key)
        except APIError:
            return
        try:
            self.sync_claim(claim)
        except (APIError, ValueError):
            return  # upstream logs the error; the next sync tries again

    def sync_claim(self, claim: PersistentVolumeClaim) -> None:
        """``syncClaim``."""
        if pv_util.ANN_BIND_COMPLETED not in claim.metadata.annotations:
            self._sync_unbound_claim(claim)
        else:
            self._sync_bound_claim(claim)

    def _sync_unbound_claim(self, claim: PersistentVolumeClaim) -> None:
        """``syncUnboundClaim``."""
        if not claim.spec.volume_name:
            delay_binding = pv_util.is_delay_binding_mode(claim, self._classes)
            volume = find_best_match_for_claim(claim, self._api.list("PersistentVolume"), delay_binding)
            if volume is not None:
                self._bind(volume, claim)
                return
            if delay_binding and pv_util.ANN_SELECTED_NODE not in claim.metadata.annotations:
                self._event(claim, "Normal", WAIT_FOR_FIRST_CONSUMER, WAITING_MESSAGE)
            elif get_persistent_volume_claim_class(claim):
                self._provision_claim(claim)
                return
            else:
                self._event(claim, "Normal", FAILED_BINDING, NO_CLASS_MESSAGE)
            self._update_claim_status(claim, CLAIM_PENDING, None)
            return
        volume = self._volume(claim.spec.volume_name)
        if volume is None:
            self._update_claim_status(claim, CLAIM_PENDING, None)
        elif volume.spec.claim_ref is None:
            problem = check_volume_satisfy_claim(volume, claim)
            if problem:
                self._event(claim, "Warning", VOLUME_MISMATCH,
                            f'Cannot bind to requested volume "{volume.metadata.name}": {problem}')
                self._update_claim_status(claim, CLAIM_PENDING, None)
            else:
                self._bind(volume, claim)
        elif pv_util.is_volume_bound_to_claim(volume, claim):
            self._bind(volume, claim)
        elif pv_util.ANN_BOUND_BY_CONTROLLER not in claim.metadata.annotations:
            self._update_claim_status(claim, CLAIM_PENDING, None)

    def _sync_bound_claim(self, claim: PersistentVolumeClaim) -> None:
        """``syncBoundClaim``."""
        if not claim.spec.volume_name:
            self._claim_lost(claim, "ClaimLost", "Bound claim has lost reference to PersistentVolume. "
                                                 "Data on the volume is lost!")
            return
        volume = self._volume(claim.spec.volume_name)
        if volume is None:
            self._claim_lost(claim, "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume "
                                                 "is lost!")
        elif volume.spec.claim_ref is None or volume.spec.claim_ref.uid == claim.metadata.uid:
            self._bind(volume, claim)
        else:
            self._claim_lost(claim, "ClaimMisbound", "Two claims are bound to the same volume, this one is bound "
                                                     "incorrectly")

    def _claim_lost(self, claim: PersistentVolumeClaim, reason: str, message: str) -> None:
        """``updateClaimStatusWithEvent`` to Lost: the event only when the phase changes."""
        if claim.status.phase == CLAIM_LOST:
            return
        updated = self._update_claim_status(claim, CLAIM_LOST, None)
        self._event(updated, "Warning", reason, message)

    # -- volumes ---------------------------------------------------------------------------------
    def _sync_volume_key(self, name: str) -> None:
        volume = self._volume(name)
        if volume is None:
            return
        try:
            self.sync_volume(volume)
        except APIError:
            return

    def sync_volume(self, volume: PersistentVolume) -> None:
        """``syncVolume``."""
        ref = volume.spec.claim_ref
        if ref is None or not ref.uid:
            self._update_volume_phase(volume, VOLUME_AVAILABLE)
            return
        claim = None
        try:
            claim = self._api.get("PersistentVolumeClaim", ref.namespace, ref.name)
        except NotFound:
            pass
        if claim is not None and claim.metadata.uid != ref.uid:
            claim = None
        if claim is None:
            if volume.status.phase not in (VOLUME_RELEASED, VOLUME_FAILED):
                self._update_volume_phase(volume, VOLUME_RELEASED)
        elif not claim.spec.volume_name:
            if pv_util.check_volume_mode_mismatches(claim.spec, volume.spec):
                self._event(volume, "Warning", VOLUME_MISMATCH, "Cannot bind PersistentVolume to requested "
                            f'PersistentVolumeClaim "{claim.metadata.name}" due to incompatible volumeMode.')
                self._event(claim, "Warning", VOLUME_MISMATCH, f'Cannot bind PersistentVolume '
                            f'"{volume.metadata.name}" to requested PersistentVolumeClaim due to incompatible '
                            "volumeMode.")
                return
            self._claims.add((claim.metadata.namespace, claim.metadata.name))
        elif claim.spec.volume_name == volume.metadata.name:
            self._update_volume_phase(volume, VOLUME_BOUND)
        elif ANN_DYNAMICALLY_PROVISIONED in volume.metadata.annotations \
                and volume.spec.persistent_volume_reclaim_policy == "Delete":
            if volume.status.phase not in (VOLUME_RELEASED, VOLUME_FAILED):
                self._update_volume_phase(volume, VOLUME_RELEASED)
        else:
            self._unbind_volume(volume)

    # -- writes ----------------------------------------------------------------------------------
    def _bind(self, volume: PersistentVolume, claim: PersistentVolumeClaim) -> None:
        """``bind``: the volume's claimRef, its phase, the claim's volumeName, the claim's phase."""
        new_volume, dirty = pv_util.get_bind_volume_to_claim(volume, claim)
        if dirty:
            volume = self._api.update(new_volume)
        volume = self._update_volume_phase(volume, VOLUME_BOUND)
        claim = self._bind_claim_to_volume(claim, volume)
        self._update_claim_status(claim, CLAIM_BOUND, volume)

    def _bind_claim_to_volume(self, claim: PersistentVolumeClaim, volume: PersistentVolume) -> PersistentVolumeClaim:
        """``bindClaimToVolume``."""
        annotations = dict(claim.metadata.annotations)
        spec = claim.spec
        if claim.spec.volume_name != volume.metadata.name:
            spec = dataclasses.replace(spec, volume_name=volume.metadata.name)
            annotations.setdefault(pv_util.ANN_BOUND_BY_CONTROLLER, "yes")
        annotations.setdefault(pv_util.ANN_BIND_COMPLETED, "yes")
        if spec == claim.spec and annotations == claim.metadata.annotations:
            return claim
        meta = dataclasses.replace(claim.metadata, annotations=annotations)
        return self._api.update(dataclasses.replace(claim, metadata=meta, spec=spec))

    def _update_claim_status(self, claim: PersistentVolumeClaim, phase: str,
                             volume: Optional[PersistentVolume]) -> PersistentVolumeClaim:
        """``updateClaimStatus``: phase, access modes and (when it becomes bound) capacity."""
        status = dataclasses.replace(claim.status, phase=phase)
        if volume is None:
            status = dataclasses.replace(status, access_modes=(), capacity={})
        else:
            status = dataclasses.replace(status, access_modes=volume.spec.access_modes)
            if claim.status.phase != phase:
                if "storage" not in volume.spec.capacity:
                    raise ValueError(f'PersistentVolume "{volume.metadata.name}" is without a storage capacity')
                if claim.status.capacity.get("storage") != volume.spec.capacity["storage"]:
                    status = dataclasses.replace(status, capacity=dict(volume.spec.capacity))
        if status == claim.status:
            return claim
        return self._api.update_status(dataclasses.replace(claim, status=status))

    def _update_volume_phase(self, volume: PersistentVolume, phase: str, message: str = "") -> PersistentVolume:
        """``updateVolumePhase``."""
        if volume.status.phase == phase:
            return volume
        status = dataclasses.replace(volume.status, phase=phase, message=message)
        return self._api.update_status(dataclasses.replace(volume, status=status))

    def _unbind_volume(self, volume: PersistentVolume) -> None:
        """``unbindVolume``: a controller binding is undone, a user's pre-binding keeps its name."""
        if pv_util.ANN_BOUND_BY_CONTROLLER in volume.metadata.annotations:
            annotations = {k: v for k, v in volume.metadata.annotations.items() if k != pv_util.ANN_BOUND_BY_CONTROLLER}
            volume = dataclasses.replace(volume, metadata=dataclasses.replace(volume.metadata, annotations=annotations),
                                         spec=dataclasses.replace(volume.spec, claim_ref=None))
        else:
            ref = dataclasses.replace(volume.spec.claim_ref, uid="")
            volume = dataclasses.replace(volume, spec=dataclasses.replace(volume.spec, claim_ref=ref))
        self._update_volume_phase(self._api.update(volume), VOLUME_AVAILABLE)

    # -- provisioning ----------------------------------------------------------------------------
    def _provision_claim(self, claim: PersistentVolumeClaim) -> None:
        """``provisionClaim`` + ``findProvisionablePlugin``: provision, or record why not."""
        class_name = get_persistent_volume_claim_class(claim)
        storage_class = self._classes.storage_class(class_name)
        if storage_class is None:
            self._event(claim, "Warning", PROVISIONING_FAILED, f'storageclass.storage.k8s.io "{class_name}" not found')
            return
        provisioner = storage_class.provisioner
        if provisioner in IN_TREE_PROVISIONERS:
            self._provision(claim, storage_class, f"Successfully provisioned volume {{}} using {provisioner}",
                            COMPONENT)
        elif provisioner.startswith("kubernetes.io/"):
            self._event(claim, "Warning", PROVISIONING_FAILED, f"no volume plugin matched name: {provisioner}")
        else:
            claim = self._set_claim_provisioner(claim, provisioner)
            self._event(claim, "Normal", EXTERNAL_PROVISIONING, "waiting for a volume to be created, either by "
                        f'external provisioner "{provisioner}" or manually created by system administrator')
            self._provision(claim, storage_class, "Successfully provisioned volume {}", provisioner)

    def _set_claim_provisioner(self, claim: PersistentVolumeClaim, provisioner: str) -> PersistentVolumeClaim:
        """``setClaimProvisioner``: the storage-provisioner annotation."""
        if claim.metadata.annotations.get(ANN_STORAGE_PROVISIONER) == provisioner:
            return claim
        annotations = {**claim.metadata.annotations, ANN_STORAGE_PROVISIONER: provisioner}
        return self._api.update(dataclasses.replace(claim, metadata=dataclasses.replace(
            claim.metadata, annotations=annotations)))

    def _provision(self, claim: PersistentVolumeClaim, storage_class: Any, message: str, component: str) -> None:
        """``provisionClaimOperation`` (or the external provisioner): create ``pvc-<uid>`` bound to the claim."""
        claim = self._set_claim_provisioner(claim, storage_class.provisioner)
        name = f"pvc-{claim.metadata.uid}"
        if self._volume(name) is not None:
            return
        self._api.create(provisioned_volume(name, claim, storage_class))
        self._api.record_event(claim, "Normal", PROVISIONING_SUCCEEDED, message.format(name), component=component)


def check_volume_satisfy_claim(volume: PersistentVolume, claim: PersistentVolumeClaim) -> str:
    """``checkVolumeSatisfyClaim``: why the requested volume does not fit ("" when it does)."""
    if volume.metadata.deletion_timestamp is not None:
        return f'the volume is marked for deletion "{volume.metadata.name}"'
    if pv_util.storage_capacity(volume) < pv_util.storage_request(claim):
        return "requested PV is too small"
    if get_persistent_volume_class(volume) != get_persistent_volume_claim_class(claim):
        return "storageClassName does not match"
    if pv_util.check_volume_mode_mismatches(claim.spec, volume.spec):
        return "incompatible volumeMode"
    if not pv_util.check_access_modes(claim, volume):
        return "incompatible accessMode"
    return ""


def provisioned_volume(name: str, claim: PersistentVolumeClaim, storage_class: Any) -> PersistentVolume:
    """The volume a provisioner creates for ``claim``: pre-bound, Bound, bound by the controller."""
    ref = ObjectReference(kind="PersistentVolumeClaim", namespace=claim.metadata.namespace,
                          name=claim.metadata.name, uid=claim.metadata.uid, api_version="v1",
                          resource_version=claim.metadata.resource_version)
    storage = claim.spec.resources.requests.get("storage")
    spec = PersistentVolumeSpec(capacity={"storage": storage} if storage is not None else {},
                                access_modes=claim.spec.access_modes, claim_ref=ref,
                                persistent_volume_reclaim_policy=storage_class.reclaim_policy or "Delete",
                                storage_class_name=get_persistent_volume_claim_class(claim),
                                volume_mode=claim.spec.volume_mode)
    annotations = {pv_util.ANN_BOUND_BY_CONTROLLER: "yes", ANN_DYNAMICALLY_PROVISIONED: storage_class.provisioner}
    volume = PersistentVolume(metadata=ObjectMeta(name=name, annotations=annotations), spec=spec)
    return dataclasses.replace(volume, status=dataclasses.replace(volume.status, phase=VOLUME_BOUND))
