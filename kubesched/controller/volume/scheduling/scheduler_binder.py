"""The scheduler's volume binder: PVC/PV binding decisions inside the scheduling cycle.

Upstream: pkg/controller/volume/scheduling/scheduler_binder.go @ v1.18.5
(SchedulerVolumeBinder, volumeBinder.FindPodVolumes, AssumePodVolumes, BindPodVolumes,
GetBindingsCache, DeletePodBindings, getPodVolumes, checkBoundClaims, findMatchingVolumes,
checkVolumeProvisions, bindAPIUpdate, checkBindings, tryTranslatePVToCSI) — the 1.18 form
whose FindPodVolumes returns (unboundVolumesSatisfied, boundVolumesSatisfied, err).

Python shape: Go's ``err`` return is a raised :class:`VolumeBinderError`.

BindPodVolumes waits as upstream does: after its API updates it runs
``wait.Poll(time.Second, bindTimeout, checkBindings)`` on the loop (``kubesched.util.wait``),
so the first check is one second later, then one every second until ``bindTimeout``
(``bindTimeoutSeconds``, default 600; 0 polls for ever); ``done(err)`` receives the outcome
(``Failed to bind volumes: timed out waiting for the condition`` at the timeout).

Deviations: the binder reads InformerListers and writes through a :class:`VolumeClient`
(by default straight into those listers). The PV controller (kubesched.controller.volume.
persistentvolume) completes what bindAPIUpdate starts — it binds a pre-bound PV and its claim,
and provisions a claim once ``volume.kubernetes.io/selected-node`` is set — within the same
simulated instant, so the poll's first check (1 s later) finds the claims bound.
checkBindings reads the node (``pod.spec.nodeName``) and its CSINode first, as upstream, and
fails when the node is gone; it re-checks each PV's node affinity against it. As the listers
are written at once, it never waits for an older informer copy (upstream's resourceVersion
comparison is not made). Pods are frozen: AssumePodVolumes does
not write ``spec.nodeName`` into the pod; BindPodVolumes expects the assumed pod to carry it.
Claims are sorted by size with a stable sort (upstream's sort.Sort is not stable).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final, Optional, Protocol

from kubesched import features
from kubesched.api.core import Node, PersistentVolume, PersistentVolumeClaim, Pod
from kubesched.controller.volume.scheduling import csi_translation as csitrans
from kubesched.controller.volume.scheduling import pv_util
from kubesched.controller.volume.scheduling.scheduler_assume_cache import ErrNotFound, PVAssumeCache, PVCAssumeCache
from kubesched.controller.volume.scheduling.scheduler_binder_cache import BindingInfo, PodBindingCache, get_pod_name
from kubesched.controller.volume.scheduling.volume_util import (
    MIGRATED_PLUGINS_ANNOTATION_KEY, NodeAffinityError, check_node_affinity, get_persistent_volume_claim_class,
    match_topology_selector_terms)
from kubesched.util.loop import Loop
from kubesched.util.wait import poll

ERR_UNBOUND_IMMEDIATE_PVC: Final = "pod has unbound immediate PersistentVolumeClaims"
DEFAULT_BIND_TIMEOUT_SECONDS: Final = 600.0
BIND_POLL_INTERVAL: Final = 1.0  # BindPodVolumes: wait.Poll(time.Second, …)

BindDone = Callable[[Optional[Exception]], None]

_MIGRATION_GATES: Final = {
    csitrans.AWS_EBS_IN_TREE_PLUGIN_NAME: "CSIMigrationAWS",
    csitrans.GCE_PD_IN_TREE_PLUGIN_NAME: "CSIMigrationGCE",
    csitrans.AZURE_DISK_IN_TREE_PLUGIN_NAME: "CSIMigrationAzureDisk",
    csitrans.CINDER_IN_TREE_PLUGIN_NAME: "CSIMigrationOpenStack",
}


class VolumeBinderError(Exception):
    """An error from the binder (Go's non-nil ``err``); its text is upstream's message."""


class SchedulerVolumeBinder(Protocol):
    """``SchedulerVolumeBinder`` (v1.18)."""

    def find_pod_volumes(self, pod: Pod, node: Node) -> tuple[bool, bool]:
        """(unboundVolumesSatisfied, boundVolumesSatisfied); raises VolumeBinderError."""
        ...

    def assume_pod_volumes(self, assumed_pod: Pod, node_name: str) -> bool:
        """Assume the node's cached decisions; True when every claim was already bound."""
        ...

    def bind_pod_volumes(self, assumed_pod: Pod, done: BindDone) -> None:
        """Make the API updates and wait for the claims to be bound; ``done(err)`` afterwards."""
        ...

    def get_bindings_cache(self) -> PodBindingCache: ...

    def delete_pod_bindings(self, pod: Pod) -> None: ...


class VolumeClient(Protocol):
    """The API updates the binder makes (``kubeClient.CoreV1()...Update``)."""

    def update_persistent_volume(self, pv: PersistentVolume) -> PersistentVolume: ...

    def update_persistent_volume_claim(self, pvc: PersistentVolumeClaim) -> PersistentVolumeClaim: ...


class ListersClient:
    """A VolumeClient that writes straight into InformerListers (no API server)."""

    def __init__(self, listers) -> None:
        self._listers = listers

    def update_persistent_volume(self, pv: PersistentVolume) -> PersistentVolume:
        self._listers.upsert(pv)
        return pv

    def update_persistent_volume_claim(self, pvc: PersistentVolumeClaim) -> PersistentVolumeClaim:
        self._listers.upsert(pvc)
        return pvc


def get_pvc_name(pvc: PersistentVolumeClaim) -> str:
    return f"{pvc.metadata.namespace}/{pvc.metadata.name}"


def is_pvc_fully_bound(pvc: PersistentVolumeClaim) -> bool:
    return bool(pvc.spec.volume_name) and pv_util.ANN_BIND_COMPLETED in pvc.metadata.annotations


def _with_annotation(obj, key: str, value: str):
    meta = dataclasses.replace(obj.metadata, annotations={**obj.metadata.annotations, key: value})
    return dataclasses.replace(obj, metadata=meta)


def is_plugin_migrated_to_csi_on_node(plugin_name: str, csi_node) -> bool:
    """``isPluginMigratedToCSIOnNode``: the CSINode's migrated-plugins annotation lists it."""
    if csi_node is None:
        return False
    value = csi_node.metadata.annotations.get(MIGRATED_PLUGINS_ANNOTATION_KEY, "")
    return plugin_name in (value.split(",") if value else [])


class VolumeBinder:
    """``volumeBinder``: the real binder, over InformerListers."""

    def __init__(self, listers, client: Optional[VolumeClient] = None,
                 bind_timeout: float = DEFAULT_BIND_TIMEOUT_SECONDS, loop: Optional[Loop] = None) -> None:
        """``loop`` runs BindPodVolumes' poll (needed only to bind)."""
        self.listers = listers
        self.loop = loop
        self.client: VolumeClient = client or ListersClient(listers)
        self.pv_cache = PVAssumeCache(listers)
        self.pvc_cache = PVCAssumeCache(listers)
        self.pod_binding_cache = PodBindingCache()
        self.bind_timeout = bind_timeout

    # -- the interface
    def get_bindings_cache(self) -> PodBindingCache:
        return self.pod_binding_cache

    def delete_pod_bindings(self, pod: Optional[Pod]) -> None:
        if pod is not None:
            self.pod_binding_cache.delete_bindings(pod)

    def find_pod_volumes(self, pod: Pod, node: Node) -> tuple[bool, bool]:
        """``FindPodVolumes``: can the node satisfy the pod's bound and unbound claims?"""
        result = _FindResult()
        try:
            return self._find_pod_volumes(pod, node, result)
        finally:
            if not result.bindings and not result.provisions:
                self.pod_binding_cache.clear_bindings(pod, node.metadata.name)
            else:
                self.pod_binding_cache.update_bindings(pod, node.metadata.name, result.bindings or None,
                                                       result.provisions or None)

    def _find_pod_volumes(self, pod: Pod, node: Node, result: "_FindResult") -> tuple[bool, bool]:
        unbound_ok = bound_ok = True
        bound, to_bind, immediate = self._get_pod_volumes(pod)
        if immediate:
            raise VolumeBinderError(ERR_UNBOUND_IMMEDIATE_PVC)
        if bound:
            bound_ok = self._check_bound_claims(bound, node)
        if to_bind:
            to_match, to_provision = [], []
            for claim in to_bind:
                selected = claim.metadata.annotations.get(pv_util.ANN_SELECTED_NODE)
                if selected is None:
                    to_match.append(claim)
                elif selected != node.metadata.name:
                    return False, bound_ok  # fast path: provisioning already targets another node
                else:
                    to_provision.append(claim)
            if to_match:
                unbound_ok, result.bindings, unmatched = self._find_matching_volumes(to_match, node)
                to_provision.extend(unmatched)
            if to_provision:
                unbound_ok, result.provisions = self._check_volume_provisions(to_provision, node)
        return unbound_ok, bound_ok

    def assume_pod_volumes(self, assumed_pod: Pod, node_name: str) -> bool:
        """``AssumePodVolumes``: assume the PV prebindings and PVC provisioning annotations."""
        if self._are_pod_volumes_bound(assumed_pod):
            return True
        new_bindings: list[BindingInfo] = []
        for binding in self.pod_binding_cache.get_bindings(assumed_pod, node_name) or []:
            new_pv, dirty = pv_util.get_bind_volume_to_claim(binding.pv, binding.pvc)
            if dirty:
                try:
                    self.pv_cache.assume(new_pv.metadata.name, new_pv)
                except (ValueError, ErrNotFound) as err:
                    self._revert_assumed_pvs(new_bindings)
                    raise VolumeBinderError(str(err)) from err
            new_bindings.append(BindingInfo(pvc=binding.pvc, pv=new_pv))
        new_claims: list[PersistentVolumeClaim] = []
        for claim in self.pod_binding_cache.get_provisioned_pvcs(assumed_pod, node_name) or []:
            clone = _with_annotation(claim, pv_util.ANN_SELECTED_NODE, node_name)
            try:
                self.pvc_cache.assume(get_pvc_name(clone), clone)
            except (ValueError, ErrNotFound) as err:
                self._revert_assumed_pvs(new_bindings)
                self._revert_assumed_pvcs(new_claims)
                raise VolumeBinderError(str(err)) from err
            new_claims.append(clone)
        self.pod_binding_cache.update_bindings(assumed_pod, node_name, new_bindings, new_claims)
        return False

    def bind_pod_volumes(self, assumed_pod: Pod, done: BindDone) -> None:
        """``BindPodVolumes``: the API updates, then ``wait.Poll(1s, bindTimeout, checkBindings)``.

        ``done(None)`` once every claim is bound, else ``done(VolumeBinderError)``: the API
        update's error at once, or ``Failed to bind volumes: <checkBindings error | timeout>``.
        """
        if self.loop is None:
            raise TypeError("VolumeBinder.bind_pod_volumes needs the loop given to VolumeBinder(loop=...)")
        node_name = assumed_pod.spec.node_name
        bindings = self.pod_binding_cache.get_bindings(assumed_pod, node_name)
        claims = self.pod_binding_cache.get_provisioned_pvcs(assumed_pod, node_name)
        try:
            self._bind_api_update(get_pod_name(assumed_pod), bindings, claims)
        except VolumeBinderError as err:
            done(err)
            return

        def finished(err: Optional[Exception]) -> None:
            done(None if err is None else VolumeBinderError(f"Failed to bind volumes: {err}"))
        poll(self.loop, BIND_POLL_INTERVAL, self.bind_timeout,
             lambda: self.check_bindings(assumed_pod, bindings, claims), finished,
             label=f"BindPodVolumes {get_pod_name(assumed_pod)}")

    # -- FindPodVolumes helpers
    def _is_pvc_bound(self, namespace: str, name: str) -> tuple[bool, PersistentVolumeClaim]:
        key = f"{namespace}/{name}"
        try:
            pvc = self.pvc_cache.get_pvc(key)
        except ErrNotFound as err:
            raise VolumeBinderError(f'error getting PVC "{key}": {err}') from err
        return is_pvc_fully_bound(pvc), pvc

    def _are_pod_volumes_bound(self, pod: Pod) -> bool:
        for vol in pod.spec.volumes:
            if vol.persistent_volume_claim is None:
                continue
            try:
                bound, _ = self._is_pvc_bound(pod.metadata.namespace, vol.persistent_volume_claim.claim_name)
            except VolumeBinderError:
                return False
            if not bound:
                return False
        return True

    def _get_pod_volumes(self, pod: Pod) -> tuple[list, list, list]:
        """``getPodVolumes``: (bound, unbound WaitForFirstConsumer, unbound immediate or prebound)."""
        bound, delayed, immediate = [], [], []
        for vol in pod.spec.volumes:
            if vol.persistent_volume_claim is None:
                continue
            is_bound, pvc = self._is_pvc_bound(pod.metadata.namespace, vol.persistent_volume_claim.claim_name)
            if is_bound:
                bound.append(pvc)
                continue
            try:
                delay = pv_util.is_delay_binding_mode(pvc, self.listers)
            except ValueError as err:
                raise VolumeBinderError(str(err)) from err
            (delayed if delay and not pvc.spec.volume_name else immediate).append(pvc)
        return bound, delayed, immediate

    def _csi_node(self, node_name: str):
        return self.listers.csi_node(node_name)

    def _check_bound_claims(self, claims: list[PersistentVolumeClaim], node: Node) -> bool:
        """``checkBoundClaims``: every bound PV's node affinity matches the node."""
        csi_node = self._csi_node(node.metadata.name)
        for pvc in claims:
            try:
                pv = self.pv_cache.get_pv(pvc.spec.volume_name)
            except ErrNotFound as err:
                raise VolumeBinderError(str(err)) from err
            pv = self._try_translate_pv_to_csi(pv, csi_node)
            try:
                check_node_affinity(pv, node.metadata.labels)
            except NodeAffinityError:
                return False
        return True

    def _find_matching_volumes(self, claims: list[PersistentVolumeClaim], node: Node):
        """``findMatchingVolumes``: smallest claims first; each chosen PV is excluded afterwards."""
        chosen: dict[str, PersistentVolume] = {}
        bindings: list[BindingInfo] = []
        unbound: list[PersistentVolumeClaim] = []
        found = True
        for pvc in sorted(claims, key=pv_util.storage_request):
            all_pvs = self.pv_cache.list_pvs(get_persistent_volume_claim_class(pvc))
            try:
                pv = pv_util.find_matching_volume(pvc, all_pvs, node, chosen, True)
            except ValueError as err:
                raise VolumeBinderError(str(err)) from err
            if pv is None:
                unbound.append(pvc)
                found = False
                continue
            chosen[pv.metadata.name] = pv
            bindings.append(BindingInfo(pvc=pvc, pv=pv))
        return found, bindings, unbound

    def _check_volume_provisions(self, claims: list[PersistentVolumeClaim], node: Node):
        """``checkVolumeProvisions``: every claim's class can provision dynamically on this node."""
        provisioned: list[PersistentVolumeClaim] = []
        for claim in claims:
            class_name = get_persistent_volume_claim_class(claim)
            if not class_name:
                raise VolumeBinderError(f'no class for claim "{get_pvc_name(claim)}"')
            cls = self.listers.storage_class(class_name)
            if cls is None:
                raise VolumeBinderError(f'failed to find storage class "{class_name}"')
            if cls.provisioner in ("", pv_util.NOT_SUPPORTED_PROVISIONER):
                return False, []
            if not match_topology_selector_terms(cls.allowed_topologies, node.metadata.labels):
                return False, []
            provisioned.append(claim)
        return True, provisioned

    def _try_translate_pv_to_csi(self, pv: PersistentVolume, csi_node) -> PersistentVolume:
        """``tryTranslatePVToCSI``: the CSI form when migration is on for the PV's plugin and node."""
        if not csitrans.is_pv_migratable(pv) or not features.enabled("CSIMigration"):
            return pv
        plugin = csitrans.get_in_tree_plugin_name_from_spec(pv)
        gate = _MIGRATION_GATES.get(plugin)
        if gate is None or not features.enabled(gate) or not is_plugin_migrated_to_csi_on_node(plugin, csi_node):
            return pv
        try:
            return csitrans.translate_in_tree_pv_to_csi(pv)
        except csitrans.TranslationError as err:
            raise VolumeBinderError(f"could not translate pv: {err}") from err

    # -- Assume / Bind helpers
    def _revert_assumed_pvs(self, bindings: list[BindingInfo]) -> None:
        for binding in bindings:
            self.pv_cache.restore(binding.pv.metadata.name)

    def _revert_assumed_pvcs(self, claims: list[PersistentVolumeClaim]) -> None:
        for claim in claims:
            self.pvc_cache.restore(get_pvc_name(claim))

    def _bind_api_update(self, pod_name: str, bindings, claims) -> None:
        """``bindAPIUpdate``: prebind PVs, annotate claims to provision; revert what was not written."""
        if bindings is None:
            raise VolumeBinderError(f'failed to get cached bindings for pod "{pod_name}"')
        if claims is None:
            raise VolumeBinderError(f'failed to get cached claims to provision for pod "{pod_name}"')
        for i, binding in enumerate(bindings):
            bindings[i] = BindingInfo(pvc=binding.pvc, pv=self.client.update_persistent_volume(binding.pv))
        for i, claim in enumerate(claims):
            claims[i] = self.client.update_persistent_volume_claim(claim)

    def check_bindings(self, pod: Pod, bindings: Optional[list[BindingInfo]],
                       claims: Optional[list[PersistentVolumeClaim]]) -> tuple[bool, Optional[VolumeBinderError]]:
        """``checkBindings``: (True, None) once every claim the pod needed is fully bound;
        (False, None) to check again; (False, err) when binding must be retried."""
        pod_name = get_pod_name(pod)
        if bindings is None:
            return False, VolumeBinderError(f'failed to get cached bindings for pod "{pod_name}"')
        if claims is None:
            return False, VolumeBinderError(f'failed to get cached claims to provision for pod "{pod_name}"')
        node_name = pod.spec.node_name
        node = self.listers.node(node_name)
        if node is None:
            return False, VolumeBinderError(f'failed to get node "{node_name}": node "{node_name}" not found')
        csi_node = self._csi_node(node_name)
        if self.pod_binding_cache.get_decisions(pod) is None:
            return False, VolumeBinderError(f'pod "{pod_name}" does not exist any more')
        try:
            for binding in bindings:
                if not self._check_binding(binding, node, csi_node):
                    return False, None
            for claim in claims:
                if not self._check_provisioning(claim, pod, node, csi_node):
                    return False, None
        except VolumeBinderError as err:
            return False, err
        return True, None

    def _check_binding(self, binding: BindingInfo, node: Node, csi_node) -> bool:
        """One static binding of checkBindings: False to wait, VolumeBinderError to retry."""
        try:
            pv = self.pv_cache.get_api_pv(binding.pv.metadata.name)
            pvc = self.pvc_cache.get_api_pvc(get_pvc_name(binding.pvc))
        except ErrNotFound as err:
            raise VolumeBinderError(f"failed to check binding: {err}") from err
        try:
            pv = self._try_translate_pv_to_csi(pv, csi_node)
        except VolumeBinderError as err:
            raise VolumeBinderError(f"failed to translate pv to csi: {err}") from err
        _check_pv_node_affinity(pv, node)
        if pv.spec.claim_ref is None or not pv.spec.claim_ref.uid:
            raise VolumeBinderError(f'ClaimRef got reset for pv "{pv.metadata.name}"')
        return is_pvc_fully_bound(pvc)

    def _check_provisioning(self, claim: PersistentVolumeClaim, pod: Pod, node: Node, csi_node) -> bool:
        """One claim to provision of checkBindings: False to wait, VolumeBinderError to retry."""
        try:
            pvc = self.pvc_cache.get_api_pvc(get_pvc_name(claim))
        except ErrNotFound as err:
            raise VolumeBinderError(f"failed to check provisioning pvc: {err}") from err
        if not pvc.metadata.annotations:
            raise VolumeBinderError(f'selectedNode annotation reset for PVC "{pvc.metadata.name}"')
        if pvc.metadata.annotations.get(pv_util.ANN_SELECTED_NODE) != pod.spec.node_name:
            raise VolumeBinderError(f'provisioning failed for PVC "{pvc.metadata.name}"')
        if pvc.spec.volume_name:
            try:
                pv = self.pv_cache.get_api_pv(pvc.spec.volume_name)
            except ErrNotFound:
                return False  # the PV may not have reached the informer yet: check next time
            _check_pv_node_affinity(self._try_translate_pv_to_csi(pv, csi_node), node)
        return is_pvc_fully_bound(pvc)


def _check_pv_node_affinity(pv: PersistentVolume, node: Node) -> None:
    """checkBindings' ``CheckNodeAffinity``: the node might have lost the label the PV needs."""
    try:
        check_node_affinity(pv, node.metadata.labels)
    except NodeAffinityError as err:
        raise VolumeBinderError(f'pv "{pv.metadata.name}" node affinity doesn\'t match node '
                                f'"{node.metadata.name}": {err}') from err


@dataclasses.dataclass(slots=True)
class _FindResult:
    bindings: list[BindingInfo] = dataclasses.field(default_factory=list)
    provisions: list[PersistentVolumeClaim] = dataclasses.field(default_factory=list)

