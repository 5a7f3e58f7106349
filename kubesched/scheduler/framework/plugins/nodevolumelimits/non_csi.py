"""EBSLimits, GCEPDLimits, AzureDiskLimits, CinderLimits: in-tree volume attach limits.

Upstream: pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go @ v1.18.5
(nonCSILimits.Filter, filterVolumes, matchProvisioner, getMaxVolLimitFromEnv, VolumeFilter
ebs/gcePD/azureDisk/cinder, getMaxVolumeFunc, getMaxEBSVolume, NewEBS/NewGCEPD/NewAzureDisk/
NewCinder) and pkg/volume/util/attach_limit.go (defaults).

Default maximum per node: EBS 39, or 25 on Nitro instance types (node label
``beta.kubernetes.io/instance-type`` / ``node.kubernetes.io/instance-type`` matching
``^[cmr]5.*|t3|z1d``); GCE PD 16; Azure Disk 16; Cinder 256. The node's allocatable
``attachable-volumes-<type>`` overrides it. When CSI migration is on for the plugin, the
filter passes and NodeVolumeLimits counts the volumes instead.

Deviation: the process environment is not read. ``KUBE_MAX_PD_VOLS`` is taken from the
plugin args (``{"env": {"KUBE_MAX_PD_VOLS": "…"}}``) so runs stay pure functions of their
inputs. Upstream's placeholder prefix is ``rand.String(32)``; here it is a fixed string. When
a node has both instance-type labels, upstream takes whichever Go's map order yields first;
kubesched takes the beta label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Final, Mapping, Optional

from kubesched import features
from kubesched.api.core import Node, PersistentVolume, PersistentVolumeClaim, Pod, Volume
from kubesched.api.storage import StorageClass
from kubesched.controller.volume.scheduling import csi_translation as csitrans
from kubesched.controller.volume.scheduling import volume_util as vu
from kubesched.scheduler.framework.plugins.nodevolumelimits.utils import csi_node_getter_if_enabled, is_csi_migration_on
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

DEFAULT_MAX_GCE_PD_VOLUMES: Final = 16
DEFAULT_MAX_AZURE_DISK_VOLUMES: Final = 16
EBS_VOLUME_FILTER_TYPE: Final = "EBS"
GCE_PD_VOLUME_FILTER_TYPE: Final = "GCE"
AZURE_DISK_VOLUME_FILTER_TYPE: Final = "AzureDisk"
CINDER_VOLUME_FILTER_TYPE: Final = "Cinder"
ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED: Final = "node(s) exceed max volume count"
KUBE_MAX_PD_VOLS: Final = "KUBE_MAX_PD_VOLS"

AZURE_DISK_NAME: Final = "AzureDiskLimits"
CINDER_NAME: Final = "CinderLimits"
EBS_NAME: Final = "EBSLimits"
GCE_PD_NAME: Final = "GCEPDLimits"

RANDOM_VOLUME_ID_PREFIX: Final = "kubesched-placeholder-volume-id0"  # 32 chars, like rand.String(32)
LABEL_INSTANCE_TYPE: Final = "beta.kubernetes.io/instance-type"
LABEL_INSTANCE_TYPE_STABLE: Final = "node.kubernetes.io/instance-type"


class _NoName(Exception):
    pass


@dataclass(frozen=True, slots=True)
class VolumeFilter:
    """Upstream: VolumeFilter — which volumes a plugin counts and how to name them."""

    filter_volume: Callable[[Volume], Optional[str]]
    filter_persistent_volume: Callable[[PersistentVolume], Optional[str]]
    provisioner: str  # MatchProvisioner compares the class's provisioner with this in-tree name

    def match_provisioner(self, sc: StorageClass) -> bool:
        return sc.provisioner == self.provisioner

    def is_migrated(self, csi_node) -> bool:
        return is_csi_migration_on(csi_node, self.provisioner)


def _source_id(source: str, key: str) -> Callable[[object], Optional[str]]:
    """The id field of one volume source (on a Volume or a PersistentVolumeSpec), or None."""
    def get(holder: object) -> Optional[str]:
        src = getattr(holder, source)
        return None if src is None else getattr(src, key)
    return get


def _filter(source: str, key: str, provisioner: str) -> VolumeFilter:
    get = _source_id(source, key)
    return VolumeFilter(get, lambda pv: get(pv.spec), provisioner)


EBS_VOLUME_FILTER: Final = _filter("aws_elastic_block_store", "volume_id", csitrans.AWS_EBS_IN_TREE_PLUGIN_NAME)
GCE_PD_VOLUME_FILTER: Final = _filter("gce_persistent_disk", "pd_name", csitrans.GCE_PD_IN_TREE_PLUGIN_NAME)
AZURE_DISK_VOLUME_FILTER: Final = _filter("azure_disk", "disk_name", csitrans.AZURE_DISK_IN_TREE_PLUGIN_NAME)
CINDER_VOLUME_FILTER: Final = _filter("cinder", "volume_id", csitrans.CINDER_IN_TREE_PLUGIN_NAME)

# filter type -> (plugin name, filter, limit key)
_TYPES: Final = {
    EBS_VOLUME_FILTER_TYPE: (EBS_NAME, EBS_VOLUME_FILTER, vu.EBS_VOLUME_LIMIT_KEY),
    GCE_PD_VOLUME_FILTER_TYPE: (GCE_PD_NAME, GCE_PD_VOLUME_FILTER, vu.GCE_VOLUME_LIMIT_KEY),
    AZURE_DISK_VOLUME_FILTER_TYPE: (AZURE_DISK_NAME, AZURE_DISK_VOLUME_FILTER, vu.AZURE_VOLUME_LIMIT_KEY),
    CINDER_VOLUME_FILTER_TYPE: (CINDER_NAME, CINDER_VOLUME_FILTER, vu.CINDER_VOLUME_LIMIT_KEY),
}


_DEFAULT_MAX: Final = {GCE_PD_VOLUME_FILTER_TYPE: DEFAULT_MAX_GCE_PD_VOLUMES,
                       AZURE_DISK_VOLUME_FILTER_TYPE: DEFAULT_MAX_AZURE_DISK_VOLUMES,
                       CINDER_VOLUME_FILTER_TYPE: vu.DEFAULT_MAX_CINDER_VOLUMES}


class NonCSILimits:
    """Upstream: nonCSILimits."""

    def __init__(self, filter_name: str, listers, env: Optional[Mapping[str, str]] = None,
                 random_volume_id_prefix: str = RANDOM_VOLUME_ID_PREFIX) -> None:
        if filter_name not in _TYPES:
            raise ValueError(f"Wrong filterName, Only Support {EBS_VOLUME_FILTER_TYPE} {GCE_PD_VOLUME_FILTER_TYPE} "
                             f"{AZURE_DISK_VOLUME_FILTER_TYPE} {CINDER_VOLUME_FILTER_TYPE}")
        self._name, self.filter_, self.volume_limit_key = _TYPES[filter_name]
        self.filter_name = filter_name
        self.env = dict(env or {})
        self.listers = listers
        self.csi_node_getter = csi_node_getter_if_enabled(listers)
        self.random_volume_id_prefix = random_volume_id_prefix

    def name(self) -> str:
        return self._name

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*nonCSILimits).Filter."""
        if not pod.spec.volumes:
            return None
        new_volumes: set[str] = set()
        try:
            self.filter_volumes(pod.spec.volumes, pod.metadata.namespace, new_volumes)
        except _NoName as err:
            return Status(Code.ERROR, (str(err),))
        if not new_volumes:
            return None
        node = node_info.node
        if node is None:
            return Status(Code.ERROR, ("node not found",))
        csi_node = self.csi_node_getter(node.metadata.name) if self.csi_node_getter else None
        if self.filter_.is_migrated(csi_node):
            return None  # NodeVolumeLimits counts these volumes
        existing: set[str] = set()
        try:
            for pod_on_node in node_info.pods:
                self.filter_volumes(pod_on_node.spec.volumes, pod_on_node.metadata.namespace, existing)
        except _NoName as err:
            return Status(Code.ERROR, (str(err),))
        num_new = len(new_volumes - existing)
        max_attach = self.max_volume_func(node)
        max_attach = node_info.volume_limits().get(self.volume_limit_key, max_attach)
        if len(existing) + num_new > max_attach:
            return Status(Code.UNSCHEDULABLE, (ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,))
        if features.enabled("BalanceAttachedNodeVolumes"):
            node_info.transient_info.allocatable_volumes_count = max_attach - len(existing)
            node_info.transient_info.requested_volumes = num_new
        return None

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): no volume of this plugin's type and no claim.

        filterVolumes then finds no new volume, and Filter passes before looking at the node.
        """
        filter_volume = self.filter_.filter_volume
        for vol in pod.spec.volumes:
            if vol.persistent_volume_claim is not None or filter_volume(vol) is not None:
                return False
        return True

    def filter_volumes(self, volumes: tuple[Volume, ...], namespace: str, filtered: set[str]) -> None:
        """Upstream: filterVolumes — ids of the volumes this plugin counts (placeholders for claims)."""
        for vol in volumes:
            vid = self.filter_.filter_volume(vol)
            if vid is not None:
                filtered.add(vid)
                continue
            if vol.persistent_volume_claim is None:
                continue
            pvc_name = vol.persistent_volume_claim.claim_name
            if not pvc_name:
                raise _NoName("PersistentVolumeClaim had no name")
            pv_id = f"{self.random_volume_id_prefix}-{namespace}/{pvc_name}"
            pvc = self.listers.persistent_volume_claim(namespace, pvc_name)
            if pvc is None:
                continue  # an unknown claim is not counted
            pv = self.listers.persistent_volume(pvc.spec.volume_name) if pvc.spec.volume_name else None
            if pv is None:  # unbound, or bound to a missing PV: count it if the class is ours
                if self.match_provisioner(pvc):
                    filtered.add(pv_id)
                continue
            pv_vid = self.filter_.filter_persistent_volume(pv)
            if pv_vid is not None:
                filtered.add(pv_vid)

    def match_provisioner(self, pvc: PersistentVolumeClaim) -> bool:
        """Upstream: matchProvisioner — reads spec.storageClassName only (not the beta annotation)."""
        if pvc.spec.storage_class_name is None:
            return False
        cls = self.listers.storage_class(pvc.spec.storage_class_name)
        return cls is not None and self.filter_.match_provisioner(cls)

    def max_volume_func(self, node: Node) -> int:
        """Upstream: getMaxVolumeFunc(filterName)(node)."""
        from_env = get_max_vol_limit_from_env(self.env)
        if from_env > 0:
            return from_env
        labels = node.metadata.labels
        instance_type = labels.get(LABEL_INSTANCE_TYPE, labels.get(LABEL_INSTANCE_TYPE_STABLE, ""))
        if self.filter_name == EBS_VOLUME_FILTER_TYPE:
            return get_max_ebs_volume(instance_type)
        return _DEFAULT_MAX[self.filter_name]


def get_max_vol_limit_from_env(env: Mapping[str, str]) -> int:
    """Upstream: getMaxVolLimitFromEnv — a positive integer, else -1 (use the default)."""
    raw = env.get(KUBE_MAX_PD_VOLS, "")
    if raw:
        try:
            parsed = _atoi(raw)
        except ValueError:
            return -1
        if parsed > 0:
            return parsed
    return -1


def _atoi(text: str) -> int:
    """Go strconv.Atoi: optional sign and decimal digits only, within int64."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise ValueError(text)
    value = int(text)
    if not -(2**63) <= value < 2**63:
        raise ValueError(text)
    return value


def get_max_ebs_volume(instance_type: str) -> int:
    """Upstream: getMaxEBSVolume — 25 on Nitro types, else 39."""
    if re.search(vu.EBS_NITRO_LIMIT_REGEX, instance_type):
        return vu.DEFAULT_MAX_EBS_NITRO_VOLUME_LIMIT
    return vu.DEFAULT_MAX_EBS_VOLUMES


def _env_of(args: object | None) -> dict[str, str]:
    if not isinstance(args, Mapping):
        return {}
    for key, value in args.items():
        if str(key).lower() == "env" and isinstance(value, Mapping):
            return {str(k): str(v) for k, v in value.items()}
    return {}


def new_ebs(args: object | None, handle) -> NonCSILimits:
    return NonCSILimits(EBS_VOLUME_FILTER_TYPE, handle.listers(), _env_of(args))


def new_gce_pd(args: object | None, handle) -> NonCSILimits:
    return NonCSILimits(GCE_PD_VOLUME_FILTER_TYPE, handle.listers(), _env_of(args))


def new_azure_disk(args: object | None, handle) -> NonCSILimits:
    return NonCSILimits(AZURE_DISK_VOLUME_FILTER_TYPE, handle.listers(), _env_of(args))


def new_cinder(args: object | None, handle) -> NonCSILimits:
    return NonCSILimits(CINDER_VOLUME_FILTER_TYPE, handle.listers(), _env_of(args))
