"""VolumeRestrictions filter plugin: no two pods may mount the same disk in a conflicting way.

Upstream: pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go @ v1.18.5
(VolumeRestrictions.Filter, isVolumeConflict, haveOverlap, New).

Rules: GCE PD — same pdName unless both read-only; AWS EBS — same volumeID, always;
ISCSI — same IQN unless both read-only; RBD — a shared monitor, same pool and image,
unless both read-only.
"""

from __future__ import annotations

from typing import Final, Iterable, Optional

from kubesched.api.core import Pod, Volume
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, FilterPlugin, PreFilterSkip, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "VolumeRestrictions"
ERR_REASON_DISK_CONFLICT: Final = "node(s) had no available disk"


class VolumeRestrictions:
    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*VolumeRestrictions).Filter."""
        for volume in pod.spec.volumes:
            for existing in node_info.pods:
                if is_volume_conflict(volume, existing):
                    return Status(Code.UNSCHEDULABLE, (ERR_REASON_DISK_CONFLICT,))
        return None

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): no volume is a GCE PD, EBS, RBD or ISCSI disk.

        isVolumeConflict's fast path then answers False for every volume and every pod.
        """
        for v in pod.spec.volumes:
            if v.gce_persistent_disk is not None or v.aws_elastic_block_store is not None \
                    or v.rbd is not None or v.iscsi is not None:
                return False
        return True


def is_volume_conflict(volume: Volume, pod: Pod) -> bool:
    """Upstream: isVolumeConflict."""
    if volume.gce_persistent_disk is None and volume.aws_elastic_block_store is None \
            and volume.rbd is None and volume.iscsi is None:
        return False
    return any(_conflicts(volume, existing) for existing in pod.spec.volumes)


def _conflicts(v: Volume, e: Volume) -> bool:
    if v.gce_persistent_disk is not None and e.gce_persistent_disk is not None:
        disk, other = v.gce_persistent_disk, e.gce_persistent_disk
        if disk.pd_name == other.pd_name and not (disk.read_only and other.read_only):
            return True
    if v.aws_elastic_block_store is not None and e.aws_elastic_block_store is not None:
        if v.aws_elastic_block_store.volume_id == e.aws_elastic_block_store.volume_id:
            return True
    if v.iscsi is not None and e.iscsi is not None:
        if v.iscsi.iqn == e.iscsi.iqn and not (v.iscsi.read_only and e.iscsi.read_only):
            return True
    if v.rbd is not None and e.rbd is not None:
        a, b = v.rbd, e.rbd
        if have_overlap(a.monitors, b.monitors) and a.rbd_pool == b.rbd_pool and a.rbd_image == b.rbd_image \
                and not (a.read_only and b.read_only):
            return True
    return False


def have_overlap(a1: Iterable[str], a2: Iterable[str]) -> bool:
    """Upstream: haveOverlap — at least one common element."""
    return not set(a1).isdisjoint(a2)


def new(args: object | None, handle) -> VolumeRestrictions:
    return VolumeRestrictions()


_: FilterPlugin = VolumeRestrictions()
__: PreFilterSkip = VolumeRestrictions()
