"""VolumeZone filter plugin: a bound PV's zone/region labels must match the node's.

Upstream: pkg/scheduler/framework/plugins/volumezone/volume_zone.go @ v1.18.5
(VolumeZone.Filter, New) and k8s.io/cloud-provider/volume/helpers/zones.go (LabelZonesToSet).

Only the beta labels ``failure-domain.beta.kubernetes.io/zone`` and ``…/region`` are read
(1.18 ignores ``topology.kubernetes.io/*`` here). A PV label value may list several zones
joined by ``__``. Go ranges over label maps; the verdict does not depend on that order.
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api.core import Pod
from kubesched.controller.volume.scheduling.pv_util import VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER
from kubesched.controller.volume.scheduling.volume_util import get_persistent_volume_claim_class
from kubesched.scheduler.framework.plugins.volumebinding.volume_binding import pod_has_pvcs
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, FilterPlugin, PreFilterSkip, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "VolumeZone"
ERR_REASON_CONFLICT: Final = "node(s) had no available volume zone"
LABEL_ZONE_FAILURE_DOMAIN: Final = "failure-domain.beta.kubernetes.io/zone"
LABEL_ZONE_REGION: Final = "failure-domain.beta.kubernetes.io/region"
LABEL_MULTI_ZONE_DELIMITER: Final = "__"
_ZONE_KEYS: Final = (LABEL_ZONE_FAILURE_DOMAIN, LABEL_ZONE_REGION)


def _error(message: str) -> Status:
    return Status(Code.ERROR, (message,))


class VolumeZone:
    def __init__(self, listers) -> None:
        self.listers = listers

    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*VolumeZone).Filter."""
        if not pod.spec.volumes:
            return None
        node = node_info.node
        if node is None:
            return _error("node not found")
        constraints = {k: v for k, v in node.metadata.labels.items() if k in _ZONE_KEYS}
        if not constraints:
            return None
        for volume in pod.spec.volumes:
            if volume.persistent_volume_claim is None:
                continue
            status = self._check_claim(pod, volume.persistent_volume_claim.claim_name, constraints)
            if status is not None:
                return status
        return None

    def _check_claim(self, pod: Pod, pvc_name: str, constraints: dict[str, str]) -> Optional[Status]:
        if not pvc_name:
            return _error("PersistentVolumeClaim had no name")
        pvc = self.listers.persistent_volume_claim(pod.metadata.namespace, pvc_name)
        if pvc is None:
            return _error(f'PersistentVolumeClaim was not found: "{pvc_name}"')
        pv_name = pvc.spec.volume_name
        if not pv_name:
            return self._check_unbound(pvc, pvc_name)
        pv = self.listers.persistent_volume(pv_name)
        if pv is None:
            return _error(f'PersistentVolume was not found: "{pv_name}"')
        for key, value in pv.metadata.labels.items():
            if key not in _ZONE_KEYS:
                continue
            try:
                zones = label_zones_to_set(value)
            except ValueError:
                continue  # upstream logs and ignores an unparsable label
            if constraints.get(key, "") not in zones:
                return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (ERR_REASON_CONFLICT,))
        return None

    def _check_unbound(self, pvc, pvc_name: str) -> Optional[Status]:
        sc_name = get_persistent_volume_claim_class(pvc)
        if not sc_name:
            return _error("PersistentVolumeClaim had no pv name and storageClass name")
        cls = self.listers.storage_class(sc_name)
        if cls is None:
            return _error(f'StorageClass "{sc_name}" claimed by PersistentVolumeClaim "{pvc_name}" not found')
        if cls.volume_binding_mode is None:
            return _error(f'VolumeBindingMode not set for StorageClass "{sc_name}"')
        if cls.volume_binding_mode == VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER:
            return None  # unbound WaitForFirstConsumer claims are VolumeBinding's business
        return _error("PersistentVolume had no name")

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): only claims are checked, so a pod without any passes."""
        return not pod_has_pvcs(pod)


def label_zones_to_set(value: str) -> frozenset[str]:
    """Upstream: helpers.LabelZonesToSet — split on ``__``, trim; an empty element is an error."""
    zones = set()
    for zone in value.split(LABEL_MULTI_ZONE_DELIMITER):
        trimmed = zone.strip()
        if not trimmed:
            raise ValueError(f'"{LABEL_MULTI_ZONE_DELIMITER}" separated list ("{value}") must not contain an empty string')
        zones.add(trimmed)
    return frozenset(zones)


def new(args: object | None, handle) -> VolumeZone:
    return VolumeZone(handle.listers())


_: FilterPlugin = VolumeZone(None)
__: PreFilterSkip = VolumeZone(None)
