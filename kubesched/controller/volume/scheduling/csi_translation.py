"""In-tree volume plugin ↔ CSI driver translation (the part the scheduler uses).

Upstream: staging/src/k8s.io/csi-translation-lib (translate.go: IsPVMigratable,
IsMigratableIntreePluginByName, GetInTreePluginNameFromSpec, GetCSINameFromInTreeName,
TranslateInTreePVToCSI; plugins/aws_ebs.go KubernetesVolumeIDToEBSVolumeID,
plugins/gce_pd.go, plugins/azure_disk.go, plugins/openstack_cinder.go) @ v1.18.5.

Deviation: only the fields the scheduler reads are produced (driver and volume handle).
Upstream's GCE/AWS translators also rewrite zone labels into CSI topology node affinity
(``translateTopology``); kubesched keeps the in-tree PV's node affinity unchanged.
The azure-file plugin is known by name (migratable) but PVs of that type are not modelled.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final, Optional

from kubesched.api.core import CSIPersistentVolumeSource, PersistentVolume

AWS_EBS_IN_TREE_PLUGIN_NAME: Final = "kubernetes.io/aws-ebs"
GCE_PD_IN_TREE_PLUGIN_NAME: Final = "kubernetes.io/gce-pd"
AZURE_DISK_IN_TREE_PLUGIN_NAME: Final = "kubernetes.io/azure-disk"
AZURE_FILE_IN_TREE_PLUGIN_NAME: Final = "kubernetes.io/azure-file"
CINDER_IN_TREE_PLUGIN_NAME: Final = "kubernetes.io/cinder"

AWS_EBS_DRIVER_NAME: Final = "ebs.csi.aws.com"
GCE_PD_DRIVER_NAME: Final = "pd.csi.storage.gke.io"
AZURE_DISK_DRIVER_NAME: Final = "disk.csi.azure.com"
AZURE_FILE_DRIVER_NAME: Final = "file.csi.azure.com"
CINDER_DRIVER_NAME: Final = "cinder.csi.openstack.org"

# In-tree plugin name -> CSI driver name, in translate.go's inTreePlugins order.
IN_TREE_TO_CSI: Final = {
    GCE_PD_IN_TREE_PLUGIN_NAME: GCE_PD_DRIVER_NAME,
    AWS_EBS_IN_TREE_PLUGIN_NAME: AWS_EBS_DRIVER_NAME,
    CINDER_IN_TREE_PLUGIN_NAME: CINDER_DRIVER_NAME,
    AZURE_DISK_IN_TREE_PLUGIN_NAME: AZURE_DISK_DRIVER_NAME,
    AZURE_FILE_IN_TREE_PLUGIN_NAME: AZURE_FILE_DRIVER_NAME,
}

_AWS_VOLUME_REG: Final = re.compile(r"^vol-[^/]*$")
_LABEL_ZONE: Final = "failure-domain.beta.kubernetes.io/zone"
_UNSPECIFIED: Final = "UNSPECIFIED"


class TranslationError(Exception):
    """A PV that cannot be translated to CSI."""


def get_in_tree_plugin_name_from_spec(pv: PersistentVolume) -> str:
    """``GetInTreePluginNameFromSpec(pv, nil)``: the in-tree plugin owning the PV's source."""
    spec = pv.spec
    for present, name in ((spec.gce_persistent_disk, GCE_PD_IN_TREE_PLUGIN_NAME),
                          (spec.aws_elastic_block_store, AWS_EBS_IN_TREE_PLUGIN_NAME),
                          (spec.cinder, CINDER_IN_TREE_PLUGIN_NAME),
                          (spec.azure_disk, AZURE_DISK_IN_TREE_PLUGIN_NAME)):
        if present is not None:
            return name
    raise TranslationError("could not find in-tree plugin translation logic for volume")


def is_pv_migratable(pv: PersistentVolume) -> bool:
    """``IsPVMigratable``: the PV's source belongs to a migratable in-tree plugin."""
    try:
        get_in_tree_plugin_name_from_spec(pv)
    except TranslationError:
        return False
    return True


def is_migratable_intree_plugin_by_name(plugin_name: str) -> bool:
    """``IsMigratableIntreePluginByName``."""
    return plugin_name in IN_TREE_TO_CSI


def get_csi_name_from_in_tree_name(plugin_name: str) -> str:
    """``GetCSINameFromInTreeName``."""
    if plugin_name not in IN_TREE_TO_CSI:
        raise TranslationError(f"could not find CSI Driver name for plugin {plugin_name}")
    return IN_TREE_TO_CSI[plugin_name]


def kubernetes_volume_id_to_ebs_volume_id(kubernetes_id: str) -> str:
    """``KubernetesVolumeIDToEBSVolumeID``: ``aws://zone/vol-x`` → ``vol-x``; bare ids unchanged."""
    if not kubernetes_id.startswith("aws://"):
        return kubernetes_id
    path = kubernetes_id[len("aws://"):]
    aws_id = path[path.find("/"):] if "/" in path else ""
    aws_id = aws_id.strip("/")
    if not _AWS_VOLUME_REG.match(aws_id):
        raise TranslationError(f"Invalid format for AWS volume ({kubernetes_id})")
    return aws_id


def _gce_volume_handle(pv: PersistentVolume) -> str:
    pd_name = pv.spec.gce_persistent_disk.pd_name
    zones = pv.metadata.labels.get(_LABEL_ZONE, "").split("__")
    if len(zones) == 1 and zones[0]:
        return f"projects/{_UNSPECIFIED}/zones/{zones[0]}/disks/{pd_name}"
    if len(zones) > 1:
        regions = set()
        for zone in zones:
            parts = zone.split("-")
            if len(parts) != 3:
                raise TranslationError(f"zone in unexpected format, expected: [region]-[letter], got: {zone}")
            regions.add("-".join(parts[:2]))
        if len(regions) != 1:
            raise TranslationError(f"multiple or no regions gotten from zones, got: {sorted(regions)}")
        return f"projects/{_UNSPECIFIED}/regions/{regions.pop()}/disks/{pd_name}"
    return f"projects/{_UNSPECIFIED}/zones/{_UNSPECIFIED}/disks/{pd_name}"


def _driver_and_handle(pv: PersistentVolume) -> tuple[str, str]:
    spec = pv.spec
    if spec.aws_elastic_block_store is not None:
        return AWS_EBS_DRIVER_NAME, kubernetes_volume_id_to_ebs_volume_id(spec.aws_elastic_block_store.volume_id)
    if spec.gce_persistent_disk is not None:
        return GCE_PD_DRIVER_NAME, _gce_volume_handle(pv)
    if spec.azure_disk is not None:
        return AZURE_DISK_DRIVER_NAME, spec.azure_disk.data_disk_uri
    if spec.cinder is not None:
        return CINDER_DRIVER_NAME, spec.cinder.volume_id
    raise TranslationError("could not find in-tree plugin translation logic for volume")


def translate_in_tree_pv_to_csi(pv: Optional[PersistentVolume]) -> PersistentVolume:
    """``TranslateInTreePVToCSI``: a copy of the PV whose source is ``spec.csi`` only."""
    if pv is None:
        raise TranslationError("persistent volume was nil")
    driver, handle = _driver_and_handle(pv)
    spec = dataclasses.replace(pv.spec, aws_elastic_block_store=None, gce_persistent_disk=None,
                               azure_disk=None, cinder=None,
                               csi=CSIPersistentVolumeSource(driver=driver, volume_handle=handle))
    return dataclasses.replace(pv, spec=spec)
