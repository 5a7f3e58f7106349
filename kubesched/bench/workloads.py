"""scheduler_perf workloads: the nodes, init pods and measured pods of each benchmark case.

Upstream: test/integration/scheduler_perf/config/performance-config.yaml @ v1.18 and its
templates (node-default.yaml, pod-default.yaml, pod-with-pod-anti-affinity.yaml,
pod-with-pod-affinity.yaml, pod-with-preferred-pod-affinity.yaml, pod-with-node-affinity.yaml,
pv-aws.yaml, pv-csi.yaml, pvc.yaml); scheduler_perf_test.go (perfScheduling,
getPodStrategy, getCustomVolumeFactory); test/utils/runners.go (CreatePodWithController,
CreatePodWithPersistentVolume, NodeAllocatableStrategy, LabelNodePrepareStrategy);
TopologySpreading / PreferredTopologySpreading and pod-with-(preferred-)topology-spreading.yaml
come from v1.19's performance-config.yaml (they are not in v1.18's).

Every node is the template node: capacity (= allocatable, SetDefaults_NodeStatus) cpu 4,
memory 32Gi, pods 110, condition Ready. Init pods go to namespace ``sched-setup``, measured
pods to ``sched-test``; every pod requests (and limits) cpu 100m, memory 500Mi.

Deviations:
- Nodes are named ``scheduler-perf-<i>`` (upstream: generateName) and carry the
  ``kubernetes.io/hostname`` label a kubelet would set (upstream's integration nodes have
  none, which makes v1.18's anti-affinity case trivially feasible).
- SchedulingPodAntiAffinity uses v1.19's sizes (100 init + 400 measured pods on 500 nodes,
  1000 + 1000 on 5000): v1.18's 500 + 1000 pods on 500 nodes cannot all fit once every
  node has its hostname label.
- v1.18's pod-affinity cases spell the node strategy ``labelNodeStrategy``, which the
  YAML decoder ignores; here every node gets the zone label ``zone1`` as intended.
- TopologySpreading zones (``moon-1``..``moon-3``) go round-robin (upstream: random).
- PV names are ``<namespace>-vol-<i>`` (upstream: ``vol-<i>`` in both namespaces).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Final, Iterator, Mapping, Optional

from kubesched.api import core
from kubesched.api.decode import decode_strict
from kubesched.api.defaults import default_node, default_pod_spec
from kubesched.api.meta import ObjectMeta, ObjectReference, OwnerReference
from kubesched.api.storage import CSINode, CSINodeDriver, CSINodeSpec, VolumeNodeResources

SETUP_NAMESPACE: Final = "sched-setup"
TEST_NAMESPACE: Final = "sched-test"
HOSTNAME_LABEL: Final = "kubernetes.io/hostname"
ZONE_LABEL_BETA: Final = "failure-domain.beta.kubernetes.io/zone"
ZONE_LABEL: Final = "topology.kubernetes.io/zone"
EBS_CSI_DRIVER: Final = "ebs.csi.aws.com"
EBS_CSI_ATTACHABLE: Final = "attachable-volumes-csi-ebs.csi.aws.com"
EBS_CSI_LIMIT: Final = 39

_CONTAINER: Final = {
    "name": "pause", "image": "k8s.gcr.io/pause:3.1", "ports": [{"containerPort": 80}],
    "resources": {"limits": {"cpu": "100m", "memory": "500Mi"}, "requests": {"cpu": "100m", "memory": "500Mi"}},
}
_BOTH_NAMESPACES: Final = [TEST_NAMESPACE, SETUP_NAMESPACE]


def _pod_manifest(generate_name: str, labels: Mapping[str, str], affinity: Optional[dict] = None,
                  spread: Optional[list] = None) -> dict:
    spec: dict[str, Any] = {"containers": [_CONTAINER]}
    if affinity is not None:
        spec["affinity"] = affinity
    if spread is not None:
        spec["topologySpreadConstraints"] = spread
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"generateName": generate_name, "labels": dict(labels)}, "spec": spec}


POD_DEFAULT: Final = _pod_manifest("pod-", {})
POD_WITH_POD_ANTI_AFFINITY: Final = _pod_manifest(
    "anti-affinity-pod-", {"color": "green", "name": "test"},
    {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"color": "green"}}, "topologyKey": HOSTNAME_LABEL,
         "namespaces": _BOTH_NAMESPACES}]}})
POD_WITH_POD_AFFINITY: Final = _pod_manifest(
    "affinity-pod-", {"foo": ""},
    {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"foo": ""}}, "topologyKey": ZONE_LABEL_BETA,
         "namespaces": _BOTH_NAMESPACES}]}})
POD_WITH_PREFERRED_POD_AFFINITY: Final = _pod_manifest(
    "preferred-affinity-pod-", {"foo": ""},
    {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "podAffinityTerm": {"labelSelector": {"matchLabels": {"foo": ""}},
                                          "topologyKey": ZONE_LABEL_BETA, "namespaces": _BOTH_NAMESPACES}}]}})
POD_WITH_NODE_AFFINITY: Final = _pod_manifest(
    "node-affinity-", {},
    {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": ZONE_LABEL_BETA, "operator": "In", "values": ["zone1", "zone2"]}]}]}}})


def _spreading(when: str) -> dict:
    return _pod_manifest("spreading-pod-", {"color": "blue"}, spread=[
        {"maxSkew": 5, "topologyKey": ZONE_LABEL, "whenUnsatisfiable": when,
         "labelSelector": {"matchLabels": {"color": "blue"}}}])


POD_WITH_TOPOLOGY_SPREADING: Final = _spreading("DoNotSchedule")
POD_WITH_PREFERRED_TOPOLOGY_SPREADING: Final = _spreading("ScheduleAnyway")
PV_AWS: Final = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "template"},
                 "spec": {"accessModes": ["ReadOnlyMany"], "awsElasticBlockStore": {"volumeID": "<volume-id>"},
                          "capacity": {"storage": "1Gi"}, "persistentVolumeReclaimPolicy": "Retain"}}
PV_CSI: Final = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "template"},
                 "spec": {"accessModes": ["ReadOnlyMany"], "csi": {"driver": EBS_CSI_DRIVER, "volumeHandle": "x"},
                          "capacity": {"storage": "1Gi"}, "persistentVolumeReclaimPolicy": "Retain"}}
PVC: Final = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
              "metadata": {"name": "template", "annotations": {"pv.kubernetes.io/bind-completed": "true"}},
              "spec": {"accessModes": ["ReadOnlyMany"], "resources": {"requests": {"storage": "1Gi"}}}}


# -- nodes ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NodeStrategy:
    """``PrepareNodeStrategy``: extra labels (round-robin values) and CSI allocatable."""

    label_key: str = ""
    label_values: tuple[str, ...] = ()
    csi_allocatable: bool = False


def make_nodes(count: int, strategy: NodeStrategy = NodeStrategy()) -> list[Any]:
    """node-default.yaml ``count`` times, prepared by ``strategy`` (Nodes, then CSINodes)."""
    nodes: list[Any] = []
    csi_nodes: list[Any] = []
    for i in range(count):
        name = f"scheduler-perf-{i}"
        labels = {HOSTNAME_LABEL: name}
        if strategy.label_key:
            labels[strategy.label_key] = strategy.label_values[i % len(strategy.label_values)]
        capacity = {"pods": "110", "cpu": "4", "memory": "32Gi"}
        if strategy.csi_allocatable:
            capacity[EBS_CSI_ATTACHABLE] = str(EBS_CSI_LIMIT)
        node = decode_strict({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
                              "status": {"capacity": capacity, "conditions": [{"type": "Ready", "status": "True"}],
                                         "phase": "Running"}})
        nodes.append(default_node(node))
        if strategy.csi_allocatable:
            driver = CSINodeDriver(name=EBS_CSI_DRIVER, node_id=name,
                                   allocatable=VolumeNodeResources(count=EBS_CSI_LIMIT))
            csi_nodes.append(CSINode(metadata=ObjectMeta(name=name), spec=CSINodeSpec(drivers=(driver,))))
    return nodes + csi_nodes


# -- pods ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PodStrategy:
    """``TestPodCreateStrategy``: a pod template, optionally owned by an RC or with a bound PVC."""

    template: Mapping[str, Any] = dataclasses.field(default_factory=lambda: POD_DEFAULT)
    controller: str = ""  # replicationControllerName
    pv_template: Optional[Mapping[str, Any]] = None  # with PVC: CreatePodWithPersistentVolume


def pod_objects(strategy: PodStrategy, namespace: str, count: int) -> Iterator[Any]:
    """The objects to create for ``count`` pods of ``strategy`` in ``namespace`` (each pod after its PV/PVC)."""
    template = decode_strict(strategy.template)
    template = dataclasses.replace(template, spec=default_pod_spec(template.spec))
    owner: tuple[OwnerReference, ...] = ()
    labels = dict(template.metadata.labels)
    if strategy.controller:
        rc = _controller(strategy.controller, namespace, count, template, labels)
        owner = (OwnerReference(api_version="v1", kind="ReplicationController", name=rc.metadata.name,
                                uid=rc.metadata.uid, controller=True, block_owner_deletion=True),)
        labels = dict(rc.spec.selector)
        yield rc
    pv_template = decode_strict(strategy.pv_template) if strategy.pv_template is not None else None
    pvc_template = decode_strict(PVC) if pv_template is not None else None
    prefix = template.metadata.generate_name or "pod-"
    for i in range(count):
        spec = template.spec
        if pv_template is not None:
            pv, pvc = _volume_pair(pv_template, pvc_template, namespace, i)
            yield pv
            yield pvc
            volume = core.Volume(name="vol", persistent_volume_claim=core.PersistentVolumeClaimVolumeSource(
                claim_name=pvc.metadata.name))
            spec = dataclasses.replace(spec, volumes=(volume,))
        meta = ObjectMeta(name=f"{prefix}{i}", namespace=namespace, labels=dict(labels), owner_references=owner)
        yield dataclasses.replace(template, metadata=meta, spec=spec,
                                  status=dataclasses.replace(template.status, phase="Pending"))

def _volume_pair(pv_template: Any, pvc_template: Any, namespace: str, i: int) -> tuple[Any, Any]:
    """``CreatePodWithPersistentVolume`` with bindVolume: a Bound PV / PVC pair."""
    pvc_name = f"pvc-{i}"
    volume_id = f"{namespace}-vol-{i}"
    spec = pv_template.spec
    if spec.csi is not None:
        spec = dataclasses.replace(spec, csi=dataclasses.replace(spec.csi, volume_handle=volume_id))
    elif spec.aws_elastic_block_store is not None:
        spec = dataclasses.replace(spec, aws_elastic_block_store=dataclasses.replace(
            spec.aws_elastic_block_store, volume_id=volume_id))
    spec = dataclasses.replace(spec, claim_ref=ObjectReference(kind="PersistentVolumeClaim", namespace=namespace,
                                                               name=pvc_name))
    pv = dataclasses.replace(pv_template, metadata=ObjectMeta(name=volume_id), spec=spec,
                             status=core.PersistentVolumeStatus(phase="Bound"))
    pvc = dataclasses.replace(
        pvc_template, metadata=dataclasses.replace(pvc_template.metadata, name=pvc_name, namespace=namespace),
        spec=dataclasses.replace(pvc_template.spec, volume_name=volume_id),
        status=core.PersistentVolumeClaimStatus(phase="Bound", access_modes=pvc_template.spec.access_modes,
                                                capacity=dict(pvc_template.spec.resources.requests)))
    return pv, pvc


def _controller(name: str, namespace: str, count: int, template: Any, labels: Mapping[str, str]) -> Any:
    """``createController``: an RC selecting ``name=<rc>`` whose template is the pod's."""
    selector = {"name": name}
    rc_template = core.PodTemplateSpec(metadata=ObjectMeta(labels={**labels, **selector}), spec=template.spec)
    uid = f"rc-{namespace}-{name}"
    return core.ReplicationController(
        metadata=ObjectMeta(name=name, namespace=namespace, uid=uid, labels=dict(selector)),
        spec=core.ReplicationControllerSpec(replicas=count, selector=selector, template=rc_template))


# -- the cases -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Workload:
    """One ``testCase``: nodes, init pods (scheduled first), measured pods."""

    name: str
    nodes: int
    init_pods: int
    pods: int
    node_strategy: NodeStrategy = NodeStrategy()
    init_strategy: PodStrategy = PodStrategy()
    pod_strategy: PodStrategy = PodStrategy()
    feature_gates: Mapping[str, bool] = dataclasses.field(default_factory=dict)

    @property
    def label(self) -> str:
        """``Desc/<n>Nodes`` as scheduler_perf names a case."""
        return f"{self.name}/{self.nodes}Nodes"

    def resized(self, nodes: Optional[int] = None, init_pods: Optional[int] = None,
                pods: Optional[int] = None) -> "Workload":
        return dataclasses.replace(self, nodes=self.nodes if nodes is None else nodes,
                                   init_pods=self.init_pods if init_pods is None else init_pods,
                                   pods=self.pods if pods is None else pods)


_ZONE1: Final = NodeStrategy(ZONE_LABEL_BETA, ("zone1",))
_MOON: Final = NodeStrategy(ZONE_LABEL, ("moon-1", "moon-2", "moon-3"))
_CSI: Final = NodeStrategy(csi_allocatable=True)


def _same(template: Mapping[str, Any]) -> dict[str, PodStrategy]:
    return {"init_strategy": PodStrategy(template), "pod_strategy": PodStrategy(template)}


def _volumes(pv: Mapping[str, Any]) -> dict[str, PodStrategy]:
    return {"init_strategy": PodStrategy(pv_template=pv), "pod_strategy": PodStrategy(pv_template=pv)}


Factory = Callable[[int], Workload]

# name -> (default nodes, init pods, measured pods) sizes by node count, and the case builder
WORKLOADS: Final[dict[str, Callable[..., Workload]]] = {
    "SchedulingBasic": lambda n, i, p: Workload(
        "SchedulingBasic", n, i, p, init_strategy=PodStrategy(controller="rc1"),
        pod_strategy=PodStrategy(controller="rc2")),
    "SchedulingPodAntiAffinity": lambda n, i, p: Workload(
        "SchedulingPodAntiAffinity", n, i, p, **_same(POD_WITH_POD_ANTI_AFFINITY)),
    "SchedulingPodAffinity": lambda n, i, p: Workload(
        "SchedulingPodAffinity", n, i, p, node_strategy=_ZONE1, **_same(POD_WITH_POD_AFFINITY)),
    "SchedulingPreferredPodAffinity": lambda n, i, p: Workload(
        "SchedulingPreferredPodAffinity", n, i, p, node_strategy=_ZONE1, **_same(POD_WITH_PREFERRED_POD_AFFINITY)),
    "SchedulingNodeAffinity": lambda n, i, p: Workload(
        "SchedulingNodeAffinity", n, i, p, node_strategy=_ZONE1, **_same(POD_WITH_NODE_AFFINITY)),
    "TopologySpreading": lambda n, i, p: Workload(
        "TopologySpreading", n, i, p, node_strategy=_MOON, init_strategy=PodStrategy(),
        pod_strategy=PodStrategy(POD_WITH_TOPOLOGY_SPREADING)),
    "PreferredTopologySpreading": lambda n, i, p: Workload(
        "PreferredTopologySpreading", n, i, p, node_strategy=_MOON, init_strategy=PodStrategy(),
        pod_strategy=PodStrategy(POD_WITH_PREFERRED_TOPOLOGY_SPREADING)),
    "SchedulingInTreePVs": lambda n, i, p: Workload("SchedulingInTreePVs", n, i, p, **_volumes(PV_AWS)),
    "SchedulingCSIPVs": lambda n, i, p: Workload(
        "SchedulingCSIPVs", n, i, p, node_strategy=_CSI, **_volumes(PV_CSI)),
}

# upstream's sizes: nodes -> (init pods, measured pods)
SIZES: Final[dict[str, dict[int, tuple[int, int]]]] = {
    "SchedulingPodAntiAffinity": {500: (100, 400), 5000: (1000, 1000)},
    "TopologySpreading": {1000: (1000, 1000), 5000: (5000, 2000)},
    "PreferredTopologySpreading": {1000: (1000, 1000), 5000: (5000, 2000)},
}
DEFAULT_SIZES: Final = {500: (500, 1000), 5000: (5000, 1000)}

# the cases ``bench --workload all`` runs, in order
DEFAULT_CASES: Final = (
    ("SchedulingBasic", 500), ("SchedulingBasic", 5000), ("SchedulingPodAntiAffinity", 500),
    ("SchedulingPodAffinity", 500), ("SchedulingPreferredPodAffinity", 500), ("SchedulingNodeAffinity", 500),
    ("TopologySpreading", 1000), ("PreferredTopologySpreading", 1000), ("SchedulingInTreePVs", 500),
    ("SchedulingCSIPVs", 500),
)


def workload(name: str, nodes: Optional[int] = None, init_pods: Optional[int] = None,
             pods: Optional[int] = None) -> Workload:
    """The case ``name`` with upstream's sizes for ``nodes`` (default: its first size), overridable."""
    if name not in WORKLOADS:
        raise KeyError(f"unknown workload {name!r}; known: {', '.join(WORKLOADS)}")
    sizes = SIZES.get(name, DEFAULT_SIZES)
    n = nodes if nodes is not None else next(iter(sizes))
    default_init, default_pods = sizes.get(n, next(iter(sizes.values())))
    return WORKLOADS[name](n, default_init if init_pods is None else init_pods,
                           default_pods if pods is None else pods)
