"""A small cluster that trips every plugin with a shortcut, and a catalogue of incoming pods.

The nodes are chosen so that each plugin's Filter fails somewhere for some pod (see
``CONTROL_PODS``): a shortcut whose promise is checked against them is checked against
nodes that can say no. Nodes: ``n-plain`` (no labels), ``n-zone-a`` (zone/region labels,
a taint), ``n-zone-b`` (every volume limit 0, a CSINode with limit 0, an EBS-Nitro type),
``n-full`` (pods holding host ports, disks of every kind, a claim, spread labels).
"""

from __future__ import annotations

from typing import Any, Optional

from kubesched.api.core import Pod
from kubesched.conformance._harness import as_object
from kubesched.controller.volume.scheduling.scheduler_binder_fake import FakeVolumeBinder
from kubesched.scheduler.framework.plugins.nodeaffinity import node_affinity
from kubesched.scheduler.framework.plugins.nodename import node_name
from kubesched.scheduler.framework.plugins.nodeports import node_ports
from kubesched.scheduler.framework.plugins.nodevolumelimits import csi, non_csi
from kubesched.scheduler.framework.plugins.podtopologyspread import plugin as pts
from kubesched.scheduler.framework.plugins.volumebinding import volume_binding
from kubesched.scheduler.framework.plugins.volumerestrictions import volume_restrictions
from kubesched.scheduler.framework.plugins.volumezone import volume_zone
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Status
from tests.scheduler.framework.plugins.plugin_builders import node
from tests.scheduler.framework.plugins.placement_builders import Handle as _SnapshotAndListers

NS = "default"
ZONE = "failure-domain.beta.kubernetes.io/zone"
REGION = "failure-domain.beta.kubernetes.io/region"
CSI_DRIVER = "d.example.com"


def incoming(spec: Optional[dict] = None, labels: Optional[dict] = None, name: str = "p") -> Pod:
    spec = dict(spec or {})
    spec.setdefault("containers", [])
    return as_object({"metadata": {"name": name, "namespace": NS, "labels": labels or {}}, "spec": spec}, "Pod")


def _on(node_name_: str, name: str, spec: dict, labels: Optional[dict] = None) -> Pod:
    return incoming({**spec, "nodeName": node_name_}, labels, name)


def _ports(*ports: dict) -> dict:
    return {"containers": [{"name": "c", "ports": list(ports)}]}


# -------------------------------------------------------------------- volumes (pod side)
VOLUMES: dict[str, dict] = {
    "empty-dir": {"name": "e", "emptyDir": {}},
    "config-map": {"name": "cm", "configMap": {"name": "x"}},
    "host-path": {"name": "hp", "hostPath": {"path": "/tmp"}},
    "gce-pd": {"name": "g", "gcePersistentDisk": {"pdName": "pd1"}},
    "ebs": {"name": "a", "awsElasticBlockStore": {"volumeID": "vol-1"}},
    "rbd": {"name": "r", "rbd": {"monitors": ["m1"], "image": "img", "pool": "rbd"}},
    "iscsi": {"name": "i", "iscsi": {"targetPortal": "t:3260", "iqn": "iqn.1", "lun": 0}},
    "azure-disk": {"name": "az", "azureDisk": {"diskName": "disk1", "diskURI": "uri-disk1"}},
    "cinder": {"name": "ci", "cinder": {"volumeID": "cin-1"}},
    "csi-inline": {"name": "cs", "csi": {"driver": CSI_DRIVER}},
    "pvc-bound": {"name": "cb", "persistentVolumeClaim": {"claimName": "c-bound"}},
    "pvc-unbound": {"name": "cu", "persistentVolumeClaim": {"claimName": "c-unbound"}},
    "pvc-missing": {"name": "cm2", "persistentVolumeClaim": {"claimName": "c-missing"}},
    "pvc-noname": {"name": "cn", "persistentVolumeClaim": {"claimName": ""}},
}


def with_volumes(*names: str) -> dict:
    return {"volumes": [VOLUMES[n] for n in names]}


# -------------------------------------------------------------------- the cluster
NODES = [
    node("n-plain", allocatable={"cpu": "4", "memory": "8Gi", "pods": "110"}),
    node("n-zone-a", labels={ZONE: "a", REGION: "r", "zone": "a", "disk": "hdd"},
         taints=[{"key": "k", "value": "v", "effect": "NoSchedule"}]),
    node("n-zone-b", labels={ZONE: "b", "zone": "b", "beta.kubernetes.io/instance-type": "m5.large"},
         allocatable={"attachable-volumes-aws-ebs": "0", "attachable-volumes-gce-pd": "0",
                      "attachable-volumes-azure-disk": "0", "attachable-volumes-cinder": "0",
                      "attachable-volumes-csi-" + CSI_DRIVER: "0"}),
    node("n-full", labels={"zone": "b", "disk": "ssd", "node": "n-full"}),
]

EXISTING = [
    _on("n-full", "e-ports", _ports({"containerPort": 80, "hostPort": 80},
                                     {"containerPort": 53, "hostPort": 53, "protocol": "UDP"}), {"foo": "x"}),
    _on("n-full", "e-disks", with_volumes("gce-pd", "ebs", "rbd", "iscsi", "azure-disk", "cinder"),
        {"foo": "y", "app": "web"}),
    _on("n-full", "e-claim", with_volumes("pvc-bound"), {"foo": "z"}),
    _on("n-zone-b", "e-b", {}, {"foo": "b", "app": "web"}),
]

OBJECTS = [
    as_object({"metadata": {"name": "c-bound", "namespace": NS},
               "spec": {"volumeName": "pv-a", "storageClassName": "sc-wait"}}, "PersistentVolumeClaim"),
    as_object({"metadata": {"name": "c-unbound", "namespace": NS},
               "spec": {"storageClassName": "sc-wait"}}, "PersistentVolumeClaim"),
    as_object({"metadata": {"name": "pv-a", "labels": {ZONE: "z-other"}},
               "spec": {"storageClassName": "sc-wait", "csi": {"driver": CSI_DRIVER, "volumeHandle": "h1"}}},
              "PersistentVolume"),
    as_object({"metadata": {"name": "sc-wait"}, "provisioner": CSI_DRIVER,
               "volumeBindingMode": "WaitForFirstConsumer"}, "StorageClass"),
    as_object({"metadata": {"name": "n-zone-b"}, "spec": {"drivers": [
        {"name": CSI_DRIVER, "nodeID": "n-zone-b", "allocatable": {"count": 0}}]}}, "CSINode"),
    as_object({"metadata": {"name": "web", "namespace": NS}, "spec": {"selector": {"app": "web"}}}, "Service"),
]


class Handle(_SnapshotAndListers):
    """Snapshot, informer listers and a volume binder that finds nothing satisfiable."""

    def __init__(self) -> None:
        super().__init__(EXISTING, NODES, OBJECTS)
        self._binder = FakeVolumeBinder()

    def volume_binder(self) -> FakeVolumeBinder:
        return self._binder


HARD_DEFAULT = {"defaultConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]}
SOFT_DEFAULT = {"defaultConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"}]}

# name -> (factory, args)
FILTER_PLUGINS: dict[str, tuple[Any, Any]] = {
    "NodePorts": (node_ports.new, None),
    "NodeName": (node_name.new, None),
    "NodeAffinity": (node_affinity.new, None),
    "VolumeRestrictions": (volume_restrictions.new, None),
    "EBSLimits": (non_csi.new_ebs, None),
    "GCEPDLimits": (non_csi.new_gce_pd, None),
    "AzureDiskLimits": (non_csi.new_azure_disk, None),
    "CinderLimits": (non_csi.new_cinder, None),
    "NodeVolumeLimits": (csi.new, None),
    "VolumeZone": (volume_zone.new, None),
    "VolumeBinding": (volume_binding.new, None),
    "PodTopologySpread": (pts.new, None),
    "PodTopologySpread/hard-defaults": (pts.new, HARD_DEFAULT),
    "PodTopologySpread/soft-defaults": (pts.new, SOFT_DEFAULT),
}


def build(name: str, handle: Optional[Handle] = None):
    factory, args = FILTER_PLUGINS[name]
    return factory(args, handle or Handle())


def filter_everywhere(plugin, pod: Pod, handle: Handle) -> dict[str, Optional[Status]]:
    """PreFilter (when the plugin has one) then Filter on every node, as the framework runs them.

    Also Filter on clones of the state after AddPod / RemovePod of existing pods (preemption
    and nominated pods), keyed ``node+add:pod`` / ``node-remove:pod``.
    """
    state = CycleState()
    if hasattr(plugin, "pre_filter"):
        status = plugin.pre_filter(state, pod)
        if status is not None:
            return {"<PreFilter>": status}
    out = {}
    infos = handle.snapshot.list()
    for info in infos:
        out[info.node.metadata.name] = plugin.filter(state, pod, info)
    ext = plugin.pre_filter_extensions() if hasattr(plugin, "pre_filter_extensions") else None
    if ext is not None:
        for info in infos:
            for other in EXISTING:
                added = state.clone()
                assert ext.add_pod(added, pod, other, info) is None
                out[f"{info.node.metadata.name}+add:{other.metadata.name}"] = plugin.filter(added, pod, info)
            for other in info.pods:
                removed = state.clone()
                assert ext.remove_pod(removed, pod, other, info) is None
                out[f"{info.node.metadata.name}-remove:{other.metadata.name}"] = plugin.filter(removed, pod, info)
    return out
