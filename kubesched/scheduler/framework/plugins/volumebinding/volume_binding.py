"""VolumeBinding filter plugin: can the node satisfy the pod's PersistentVolumeClaims?

Upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding.go @ v1.18.5
(VolumeBinding.Filter, podHasPVCs, New). In 1.18 the plugin is Filter only; the scheduler
core assumes and binds volumes through the same binder (AssumePodVolumes, BindPodVolumes).

Deviation: ``handle.volume_binder()`` returns the SchedulerVolumeBinder itself (upstream's
handle returns a ``volumebinder.VolumeBinder`` wrapper whose ``Binder`` field is it).
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api.core import Pod
from kubesched.controller.volume.scheduling.scheduler_binder import SchedulerVolumeBinder, VolumeBinderError
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, FilterPlugin, PreFilterSkip, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "VolumeBinding"
ERR_REASON_BIND_CONFLICT: Final = "node(s) didn't find available persistent volumes to bind"
ERR_REASON_NODE_CONFLICT: Final = "node(s) had volume node affinity conflict"


class VolumeBinding:
    def __init__(self, binder: SchedulerVolumeBinder) -> None:
        self.binder = binder

    def name(self) -> str:
        return NAME

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*VolumeBinding).Filter."""
        node = node_info.node
        if node is None:
            return Status(Code.ERROR, ("node not found",))
        if not pod_has_pvcs(pod):
            return None
        try:
            unbound_satisfied, bound_satisfied = self.binder.find_pod_volumes(pod, node)
        except VolumeBinderError as err:
            return Status(Code.ERROR, (str(err),))
        if bound_satisfied and unbound_satisfied:
            return None
        reasons = []
        if not bound_satisfied:
            reasons.append(ERR_REASON_NODE_CONFLICT)
        if not unbound_satisfied:
            reasons.append(ERR_REASON_BIND_CONFLICT)
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, tuple(reasons))

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): Filter does nothing for a pod without claims."""
        return not pod_has_pvcs(pod)


def pod_has_pvcs(pod: Pod) -> bool:
    """Upstream: podHasPVCs."""
    for volume in pod.spec.volumes:
        if volume.persistent_volume_claim is not None:
            return True
    return False


def new(args: object | None, handle) -> VolumeBinding:
    return VolumeBinding(handle.volume_binder())


_: FilterPlugin = VolumeBinding(None)  # type: ignore[arg-type]
__: PreFilterSkip = VolumeBinding(None)  # type: ignore[arg-type]
