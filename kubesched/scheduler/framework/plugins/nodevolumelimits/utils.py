"""CSI migration check shared by the volume limit plugins.

Upstream: pkg/scheduler/framework/plugins/nodevolumelimits/utils.go @ v1.18.5
(isCSIMigrationOn) and non_csi.go (getCSINodeListerIfEnabled).

Migration is on for an in-tree plugin when the node has a CSINode, the CSIMigration gate
(beta, on by default in 1.18) and the plugin's own gate (CSIMigrationAWS / GCE / AzureDisk /
OpenStack, all off by default) are on, and the CSINode's
``storage.alpha.kubernetes.io/migrated-plugins`` annotation lists the plugin.
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched import features
from kubesched.api.storage import CSINode
from kubesched.controller.volume.scheduling import csi_translation as csitrans
from kubesched.controller.volume.scheduling.volume_util import MIGRATED_PLUGINS_ANNOTATION_KEY

MIGRATION_GATES: Final = {
    csitrans.AWS_EBS_IN_TREE_PLUGIN_NAME: "CSIMigrationAWS",
    csitrans.GCE_PD_IN_TREE_PLUGIN_NAME: "CSIMigrationGCE",
    csitrans.AZURE_DISK_IN_TREE_PLUGIN_NAME: "CSIMigrationAzureDisk",
    csitrans.CINDER_IN_TREE_PLUGIN_NAME: "CSIMigrationOpenStack",
}


def is_csi_migration_on(csi_node: Optional[CSINode], plugin_name: str) -> bool:
    """Upstream: isCSIMigrationOn."""
    if csi_node is None or not plugin_name:
        return False
    if not features.enabled("CSIMigration"):
        return False
    gate = MIGRATION_GATES.get(plugin_name)
    if gate is None or not features.enabled(gate):
        return False
    value = csi_node.metadata.annotations.get(MIGRATED_PLUGINS_ANNOTATION_KEY, "")
    return plugin_name in (value.split(",") if value else ())


def csi_node_getter_if_enabled(listers):
    """Upstream: getCSINodeListerIfEnabled — None when the CSINodeInfo gate is off."""
    if not features.enabled("CSINodeInfo"):
        return None
    return listers.csi_node
