"""NodeVolumeLimits filter plugin: per-CSI-driver attach limits (CSINode or node allocatable).

Upstream: pkg/scheduler/framework/plugins/nodevolumelimits/csi.go @ v1.18.5 (CSILimits.Filter,
filterAttachableVolumes, getCSIDriverInfo, getCSIDriverInfoFromSC, getVolumeLimits, NewCSI).

In-tree volumes of a plugin migrated to CSI (see utils.is_csi_migration_on) are counted
against their CSI driver's limit.

Deviation: upstream prefixes the placeholder handle of an unbound claim with
``rand.String(32)``; kubesched uses a fixed prefix (it only has to differ from real handles).
Go map ranges over the counters cannot change the verdict (any exceeded key fails).
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api.core import PersistentVolumeClaim, Pod, Volume
from kubesched.api.storage import CSINode
from kubesched.controller.volume.scheduling import csi_translation as csitrans
from kubesched.controller.volume.scheduling.volume_util import get_csi_attach_limit_key, get_persistent_volume_claim_class
from kubesched.scheduler.framework.plugins.nodevolumelimits.non_csi import (
    ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, RANDOM_VOLUME_ID_PREFIX)
from kubesched.scheduler.framework.plugins.nodevolumelimits.utils import csi_node_getter_if_enabled, is_csi_migration_on
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

CSI_NAME: Final = "NodeVolumeLimits"
NAME: Final = CSI_NAME


class _NoName(Exception):
    pass


class CSILimits:
    def __init__(self, listers, random_volume_id_prefix: str = RANDOM_VOLUME_ID_PREFIX) -> None:
        self.listers = listers
        self.csi_node_getter = csi_node_getter_if_enabled(listers)
        self.random_volume_id_prefix = random_volume_id_prefix

    def name(self) -> str:
        return CSI_NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*CSILimits).Filter."""
        if not pod.spec.volumes:
            return None
        node = node_info.node
        if node is None:
            return Status(Code.ERROR, ("node not found",))
        csi_node = self.csi_node_getter(node.metadata.name) if self.csi_node_getter else None
        new_volumes: dict[str, str] = {}
        attached: dict[str, str] = {}
        try:
            self.filter_attachable_volumes(csi_node, pod.spec.volumes, pod.metadata.namespace, new_volumes)
            if not new_volumes:
                return None
            limits = get_volume_limits(node_info, csi_node)
            if not limits:
                return None
            for existing in node_info.pods:
                self.filter_attachable_volumes(csi_node, existing.spec.volumes, existing.metadata.namespace, attached)
        except _NoName as err:
            return Status(Code.ERROR, (str(err),))
        return _check_counts(new_volumes, attached, limits)

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): only claims can be CSI volumes; no claim, nothing to count."""
        for vol in pod.spec.volumes:
            if vol.persistent_volume_claim is not None:
                return False
        return True

    def filter_attachable_volumes(self, csi_node: Optional[CSINode], volumes: tuple[Volume, ...],
                                  namespace: str, result: dict[str, str]) -> None:
        """Upstream: filterAttachableVolumes — ``driver/handle`` → attach limit key."""
        for vol in volumes:
            if vol.persistent_volume_claim is None:
                continue
            pvc_name = vol.persistent_volume_claim.claim_name
            if not pvc_name:
                raise _NoName("PersistentVolumeClaim had no name")
            pvc = self.listers.persistent_volume_claim(namespace, pvc_name)
            if pvc is None:
                continue
            driver, handle = self.get_csi_driver_info(csi_node, pvc)
            if not driver or not handle:
                continue
            result[f"{driver}/{handle}"] = get_csi_attach_limit_key(driver)

    def get_csi_driver_info(self, csi_node: Optional[CSINode], pvc: PersistentVolumeClaim) -> tuple[str, str]:
        """Upstream: getCSIDriverInfo — from the bound PV (translated when migrated), else the class."""
        pv_name = pvc.spec.volume_name
        pv = self.listers.persistent_volume(pv_name) if pv_name else None
        if pv is None:
            return self.get_csi_driver_info_from_sc(csi_node, pvc)
        if pv.spec.csi is None:
            if not csitrans.is_pv_migratable(pv):
                return "", ""
            plugin = csitrans.get_in_tree_plugin_name_from_spec(pv)
            if not is_csi_migration_on(csi_node, plugin):
                return "", ""
            try:
                pv = csitrans.translate_in_tree_pv_to_csi(pv)
            except csitrans.TranslationError:
                return "", ""
        return pv.spec.csi.driver, pv.spec.csi.volume_handle

    def get_csi_driver_info_from_sc(self, csi_node: Optional[CSINode], pvc: PersistentVolumeClaim) -> tuple[str, str]:
        """Upstream: getCSIDriverInfoFromSC — the class's provisioner and a placeholder handle."""
        sc_name = get_persistent_volume_claim_class(pvc)
        if not sc_name:
            return "", ""
        cls = self.listers.storage_class(sc_name)
        if cls is None:
            return "", ""
        handle = f"{self.random_volume_id_prefix}-{pvc.metadata.namespace}/{pvc.metadata.name}"
        provisioner = cls.provisioner
        if csitrans.is_migratable_intree_plugin_by_name(provisioner):
            if not is_csi_migration_on(csi_node, provisioner):
                return "", ""
            return csitrans.get_csi_name_from_in_tree_name(provisioner), handle
        return provisioner, handle


def _check_counts(new_volumes: dict[str, str], attached: dict[str, str], limits: dict[str, int]) -> Optional[Status]:
    attached_count: dict[str, int] = {}
    for unique_name, key in attached.items():
        new_volumes.pop(unique_name, None)  # a volume shared by several pods counts once
        attached_count[key] = attached_count.get(key, 0) + 1
    new_count: dict[str, int] = {}
    for key in new_volumes.values():
        new_count[key] = new_count.get(key, 0) + 1
    for key, count in new_count.items():
        if key in limits and attached_count.get(key, 0) + count > limits[key]:
            return Status(Code.UNSCHEDULABLE, (ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,))
    return None


def get_volume_limits(node_info: NodeInfo, csi_node: Optional[CSINode]) -> dict[str, int]:
    """Upstream: getVolumeLimits — node allocatable ``attachable-volumes-*``, overridden by CSINode."""
    limits = dict(node_info.volume_limits())
    if csi_node is not None:
        for driver in csi_node.spec.drivers:
            if driver.allocatable is not None and driver.allocatable.count is not None:
                limits[get_csi_attach_limit_key(driver.name)] = driver.allocatable.count
    return limits


def new(args: object | None, handle) -> CSILimits:
    """Upstream: NewCSI."""
    return CSILimits(handle.listers())

