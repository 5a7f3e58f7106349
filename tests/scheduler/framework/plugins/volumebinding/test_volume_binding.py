"""VolumeBinding with the real in-memory SchedulerVolumeBinder: find, assume, bind.

Upstream: scheduler_binder_test.go (TestFindPodVolumes*, TestAssumePodVolumes,
TestBindPodVolumes) and volume_binding_test.go (v1.18.5), re-expressed as small tables.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Optional

import pytest

from kubesched import features
from kubesched.controller.volume.scheduling import pv_util
from kubesched.controller.volume.scheduling.scheduler_binder import VolumeBinder, VolumeBinderError
from kubesched.controller.volume.scheduling.scheduler_binder_fake import FakeVolumeBinder, FakeVolumeBinderConfig
from kubesched.scheduler.framework.plugins.volumebinding import volume_binding as vb
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from kubesched.util.loop import EventLoop
from tests.scheduler.framework.plugins.volume_fixtures import Handle, claim_vol, csi_node, node, node_info, pod, pv, pvc, storage_class

NODE_A = node("node-a", {"zone": "a"})
WAIT = storage_class("wait")
WAIT_NO_PROVISIONER = storage_class("static", provisioner="kubernetes.io/no-provisioner")
WAIT_ZONE_B_ONLY = storage_class("zoned", allowed_zones=("b",))
IMMEDIATE = storage_class("imm", mode="Immediate")
NO_MODE = storage_class("nomode", mode=None)
CLASSES = (WAIT, WAIT_NO_PROVISIONER, WAIT_ZONE_B_ONLY, IMMEDIATE, NO_MODE)
RWO = ("ReadWriteOnce",)


@dataclass(frozen=True)
class FindCase:
    name: str
    claims: tuple
    objects: tuple
    want: Optional[tuple[bool, bool]] = None  # (unbound satisfied, bound satisfied)
    error: str = ""


FIND_CASES = [
    FindCase("bound pv affinity matches", ("c",),
             (pvc("c", volume_name="pv1", bound=True), pv("pv1", affinity_zone="a")), (True, True)),
    FindCase("bound pv without affinity", ("c",), (pvc("c", volume_name="pv1", bound=True), pv("pv1")), (True, True)),
    FindCase("bound pv affinity conflict", ("c",),
             (pvc("c", volume_name="pv1", bound=True), pv("pv1", affinity_zone="b")), (True, False)),
    FindCase("bound pv missing", ("c",), (pvc("c", volume_name="gone", bound=True),),
             error='could not find v1.PersistentVolume "gone"'),
    FindCase("pvc missing", ("ghost",), (), error='error getting PVC "ns/ghost": '
             'could not find v1.PersistentVolumeClaim "ns/ghost"'),
    FindCase("unbound immediate claim", ("c",), (pvc("c", sc="imm"),),
             error="pod has unbound immediate PersistentVolumeClaims"),
    FindCase("claim without class is immediate", ("c",), (pvc("c"),),
             error="pod has unbound immediate PersistentVolumeClaims"),
    FindCase("prebound claim (volumeName, not complete) is immediate", ("c",),
             (pvc("c", sc="wait", volume_name="pv1"), pv("pv1", sc="wait")),
             error="pod has unbound immediate PersistentVolumeClaims"),
    FindCase("class without binding mode", ("c",), (pvc("c", sc="nomode"),),
             error='VolumeBindingMode not set for StorageClass "nomode"'),
    FindCase("wait: matching available pv", ("c",),
             (pvc("c", sc="static", storage="5Gi", access_modes=RWO),
              pv("pv1", sc="static", storage="10Gi", access_modes=RWO, affinity_zone="a")), (True, True)),
    FindCase("wait: pv too small, no provisioner", ("c",),
             (pvc("c", sc="static", storage="5Gi"), pv("pv1", sc="static", storage="1Gi")), (False, True)),
    FindCase("wait: pv on another zone, no provisioner", ("c",),
             (pvc("c", sc="static", storage="1Gi"), pv("pv1", sc="static", storage="1Gi", affinity_zone="b")),
             (False, True)),
    FindCase("wait: access modes missing on pv", ("c",),
             (pvc("c", sc="static", access_modes=("ReadWriteMany",)), pv("pv1", sc="static", access_modes=RWO)),
             (False, True)),
    FindCase("wait: pv not Available", ("c",), (pvc("c", sc="static"), pv("pv1", sc="static", phase="Bound")),
             (False, True)),
    FindCase("wait: pv of another class", ("c",), (pvc("c", sc="static"), pv("pv1", sc="other")), (False, True)),
    FindCase("wait: two claims cannot share one pv", ("c1", "c2"),
             (pvc("c1", sc="static"), pvc("c2", sc="static"), pv("pv1", sc="static")), (False, True)),
    FindCase("wait: no pv but dynamic provisioning", ("c",), (pvc("c", sc="wait"),), (True, True)),
    FindCase("wait: provisioning topology excludes node", ("c",), (pvc("c", sc="zoned"),), (False, True)),
    FindCase("wait: provisioning already selected another node", ("c",),
             (pvc("c", sc="wait", annotations={pv_util.ANN_SELECTED_NODE: "node-b"}),), (False, True)),
    FindCase("wait: provisioning selected this node", ("c",),
             (pvc("c", sc="wait", annotations={pv_util.ANN_SELECTED_NODE: "node-a"}),), (True, True)),
    FindCase("bound conflict and unbound unsatisfied", ("b", "c"),
             (pvc("b", volume_name="pv1", bound=True), pv("pv1", affinity_zone="b"), pvc("c", sc="static")),
             (False, False)),
]


@pytest.mark.parametrize("case", FIND_CASES, ids=lambda c: c.name)
def test_find_pod_volumes(case: FindCase) -> None:
    binder = VolumeBinder(Handle(*CLASSES, *case.objects).listers())
    p = pod(*[claim_vol(c) for c in case.claims])
    if case.error:
        with pytest.raises(VolumeBinderError) as err:
            binder.find_pod_volumes(p, NODE_A)
        assert str(err.value) == case.error
    else:
        assert binder.find_pod_volumes(p, NODE_A) == case.want


def test_find_picks_smallest_adequate_pv_and_caches_the_decision() -> None:
    objects = (pvc("c", sc="static", storage="5Gi"), pv("big", sc="static", storage="100Gi"),
               pv("small", sc="static", storage="6Gi"), pv("tiny", sc="static", storage="1Gi"))
    binder = VolumeBinder(Handle(*CLASSES, *objects).listers())
    p = pod(claim_vol("c"))
    assert binder.find_pod_volumes(p, NODE_A) == (True, True)
    bindings = binder.get_bindings_cache().get_bindings(p, "node-a")
    assert [(b.pvc.metadata.name, b.pv.metadata.name) for b in bindings] == [("c", "small")]


def test_prebound_pv_is_returned_before_smaller_ones() -> None:
    objects = (pvc("c", sc="static", storage="1Gi"), pv("mine", sc="static", storage="50Gi", claim=("ns", "c")),
               pv("small", sc="static", storage="1Gi"))
    binder = VolumeBinder(Handle(*CLASSES, *objects).listers())
    p = pod(claim_vol("c"))
    binder.find_pod_volumes(p, NODE_A)
    assert [b.pv.metadata.name for b in binder.get_bindings_cache().get_bindings(p, "node-a")] == ["mine"]


def with_uid(claim: Any) -> Any:
    return dataclasses.replace(claim, metadata=dataclasses.replace(claim.metadata, uid=f"uid-{claim.metadata.name}"))


def completed(claim: Any, volume_name: str) -> Any:
    """The claim as the PV controller leaves it once bound (a newer resourceVersion)."""
    annotations = {**claim.metadata.annotations, pv_util.ANN_BIND_COMPLETED: "yes"}
    version = str(int(claim.metadata.resource_version or 0) + 1)
    meta = dataclasses.replace(claim.metadata, annotations=annotations, resource_version=version)
    return dataclasses.replace(claim, metadata=meta, spec=dataclasses.replace(claim.spec, volume_name=volume_name))


def test_assume_and_bind_static_and_provisioned_claims() -> None:
    handle = Handle(*CLASSES, NODE_A, with_uid(pvc("s", sc="static")), pv("pv1", sc="static"),
                    with_uid(pvc("d", sc="wait")))
    listers = handle.listers()
    loop = EventLoop(10.0)
    binder = VolumeBinder(listers, loop=loop)
    p = pod(claim_vol("s"), claim_vol("d"))
    assert binder.find_pod_volumes(p, NODE_A) == (True, True)
    assert binder.assume_pod_volumes(p, "node-a") is False
    assumed_pv = binder.pv_cache.get_pv("pv1")
    assert (assumed_pv.spec.claim_ref.name, assumed_pv.metadata.annotations[pv_util.ANN_BOUND_BY_CONTROLLER]) == \
        ("s", "yes")
    assert binder.pvc_cache.get_pvc("ns/d").metadata.annotations[pv_util.ANN_SELECTED_NODE] == "node-a"
    assert listers.persistent_volume("pv1").spec.claim_ref is None  # only assumed so far
    bound_pod = pod(claim_vol("s"), claim_vol("d"), node="node-a")
    outcomes: list = []
    binder.bind_pod_volumes(bound_pod, lambda err: outcomes.append((loop.now(), err)))
    # bindAPIUpdate wrote the choices: pv1 pre-bound to s, d's selected node
    assert (listers.persistent_volume("pv1").spec.claim_ref.uid, outcomes) == ("uid-s", [])
    assert listers.persistent_volume_claim("ns", "d").metadata.annotations[pv_util.ANN_SELECTED_NODE] == "node-a"

    def pv_controller_finishes() -> None:
        listers.upsert(completed(listers.persistent_volume_claim("ns", "s"), "pv1"))
        listers.upsert(completed(listers.persistent_volume_claim("ns", "d"), "pvc-uid-d"))
        listers.upsert(pv("pvc-uid-d", sc="wait", claim=("ns", "d")))  # checkBindings waits for the new PV
    loop.call_at(11.5, pv_controller_finishes)
    loop.run()
    assert outcomes == [(12.0, None)]            # checks at 11 (not bound yet) and 12
    assert binder.assume_pod_volumes(bound_pod, "node-a") is True  # everything is bound now


def test_bind_without_decisions_fails_at_once() -> None:
    loop = EventLoop()
    binder = VolumeBinder(Handle(*CLASSES, pvc("d", sc="wait")).listers(), loop=loop)
    outcomes: list = []
    binder.bind_pod_volumes(pod(claim_vol("d"), node="node-a"), outcomes.append)
    assert [str(e) for e in outcomes] == ['failed to get cached bindings for pod "ns/p"']
    assert loop.pending() == []


def _assumed_provisioning(bind_timeout: float, loop: EventLoop):
    """A binder that assumed claim d (to provision) for pod p on node-a, and the bound pod."""
    handle = Handle(*CLASSES, NODE_A, pvc("d", sc="wait"))
    binder = VolumeBinder(handle.listers(), bind_timeout=bind_timeout, loop=loop)
    binder.find_pod_volumes(pod(claim_vol("d")), NODE_A)
    binder.assume_pod_volumes(pod(claim_vol("d")), "node-a")
    return binder, handle, pod(claim_vol("d"), node="node-a")


def test_bind_polls_every_second_until_bind_timeout() -> None:
    loop = EventLoop()
    binder, handle, bound_pod = _assumed_provisioning(3.5, loop)
    checks: list = []
    real_check = binder.check_bindings

    def never_bound(*args):
        checks.append(loop.now())
        real_check(*args)
        return False, None
    binder.check_bindings = never_bound
    outcomes: list = []
    binder.bind_pod_volumes(bound_pod, lambda err: outcomes.append((loop.now(), str(err))))
    loop.run()
    assert checks == [1.0, 2.0, 3.0]
    assert outcomes == [(3.5, "Failed to bind volumes: timed out waiting for the condition")]


@pytest.mark.parametrize("annotations,error", [
    ({pv_util.ANN_SELECTED_NODE: "node-b"}, 'provisioning failed for PVC "d"'),
    ({}, 'selectedNode annotation reset for PVC "d"'),
], ids=["other-node", "no-annotations"])
def test_bind_fails_when_the_provisioner_drops_the_selected_node(annotations, error) -> None:
    loop = EventLoop()
    binder, handle, bound_pod = _assumed_provisioning(600.0, loop)
    outcomes: list = []
    binder.bind_pod_volumes(bound_pod, lambda err: outcomes.append((loop.now(), str(err))))
    claim = handle.listers().persistent_volume_claim("ns", "d")
    handle.listers().upsert(dataclasses.replace(claim, metadata=dataclasses.replace(
        claim.metadata, annotations=annotations)))
    loop.run()
    assert outcomes == [(1.0, f"Failed to bind volumes: {error}")]


def _node_gone(listers: Any) -> None:
    listers.delete(NODE_A)


def _node_relabelled(listers: Any) -> None:
    listers.upsert(node("node-a", {"zone": "b"}))


def _pv_controller_binds(listers: Any) -> None:
    listers.upsert(completed(listers.persistent_volume_claim("ns", "s"), "pv1"))


@pytest.mark.parametrize("change,outcome", [
    ((_pv_controller_binds,), "None"),
    ((_node_gone,), 'Failed to bind volumes: failed to get node "node-a": node "node-a" not found'),
    ((_pv_controller_binds, _node_gone), 'Failed to bind volumes: failed to get node "node-a": node "node-a" not found'),
    ((_node_relabelled,), 'Failed to bind volumes: pv "pv1" node affinity doesn\'t match node "node-a": '
                          'No matching NodeSelectorTerms'),
], ids=["bound", "node-deleted", "node-deleted-after-bound", "node-lost-the-label"])
def test_check_bindings_reads_the_node_first(change, outcome) -> None:
    """checkBindings gets pod.spec.nodeName from the Node lister before anything else and
    re-checks each PV's node affinity against it (scheduler_binder.go checkBindings)."""
    handle = Handle(*CLASSES, NODE_A, with_uid(pvc("s", sc="static")), pv("pv1", sc="static", affinity_zone="a"))
    listers = handle.listers()
    loop = EventLoop()
    binder = VolumeBinder(listers, loop=loop)
    assert binder.find_pod_volumes(pod(claim_vol("s")), NODE_A) == (True, True)
    binder.assume_pod_volumes(pod(claim_vol("s")), "node-a")
    outcomes: list = []
    binder.bind_pod_volumes(pod(claim_vol("s"), node="node-a"), lambda err: outcomes.append((loop.now(), str(err))))
    for step in change:
        step(listers)
    loop.run()
    assert outcomes == [(1.0, outcome)]


def test_delete_pod_bindings_and_clear_on_no_decision() -> None:
    binder = VolumeBinder(Handle(*CLASSES, pvc("d", sc="wait")).listers())
    p = pod(claim_vol("d"))
    binder.find_pod_volumes(p, NODE_A)
    assert binder.get_bindings_cache().get_decisions(p) is not None
    binder.delete_pod_bindings(p)
    assert binder.get_bindings_cache().get_decisions(p) is None


def test_bound_check_uses_csi_translation_when_migrated() -> None:
    ebs_pv = pv("pv1", affinity_zone="b", source={"awsElasticBlockStore": {"volumeID": "aws://b/vol-1"}})
    objects = (pvc("c", volume_name="pv1", bound=True), ebs_pv, csi_node("node-a", "kubernetes.io/aws-ebs"))
    binder = VolumeBinder(Handle(*CLASSES, *objects).listers())
    with features.override({"CSIMigrationAWS": True}):
        assert binder._try_translate_pv_to_csi(ebs_pv, csi_node("node-a", "kubernetes.io/aws-ebs")).spec.csi \
            .volume_handle == "vol-1"
        assert binder.find_pod_volumes(pod(claim_vol("c")), NODE_A) == (True, False)
    assert binder._try_translate_pv_to_csi(ebs_pv, None) is ebs_pv


BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
NODE_CONFLICT = "node(s) had volume node affinity conflict"


@pytest.mark.parametrize("config,want", [
    (FakeVolumeBinderConfig(find_unbound_satisfied=True, find_bound_satisfied=True), None),
    (FakeVolumeBinderConfig(find_unbound_satisfied=False, find_bound_satisfied=True),
     Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (BIND_CONFLICT,))),
    (FakeVolumeBinderConfig(find_unbound_satisfied=True, find_bound_satisfied=False),
     Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (NODE_CONFLICT,))),
    (FakeVolumeBinderConfig(), Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (NODE_CONFLICT, BIND_CONFLICT))),
    (FakeVolumeBinderConfig(find_err="boom"), Status(Code.ERROR, ("boom",))),
], ids=["satisfied", "unbound", "bound", "both", "error"])
def test_volume_binding_filter_with_fake_binder(config: FakeVolumeBinderConfig, want: Optional[Status]) -> None:
    plugin = vb.new(None, Handle(binder=FakeVolumeBinder(config)))
    assert plugin.filter(CycleState(), pod(claim_vol("")), node_info(NODE_A)) == want


def test_volume_binding_filter_edges() -> None:
    plugin = vb.new(None, Handle(binder=FakeVolumeBinder(FakeVolumeBinderConfig(find_err="must not be called"))))
    assert plugin.filter(CycleState(), pod(claim_vol("c")), NodeInfo()) == Status(Code.ERROR, ("node not found",))
    assert plugin.filter(CycleState(), pod({"name": "e", "emptyDir": {}}), node_info(NODE_A)) is None
    assert (plugin.name(), vb.ERR_REASON_BIND_CONFLICT, vb.ERR_REASON_NODE_CONFLICT) == \
        ("VolumeBinding", BIND_CONFLICT, NODE_CONFLICT)


@pytest.mark.parametrize("objects,want", [
    ((pvc("c", volume_name="pv1", bound=True), pv("pv1", affinity_zone="b")),
     Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (NODE_CONFLICT,))),
    ((pvc("c", sc="static"),), Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (BIND_CONFLICT,))),
    ((pvc("c", sc="imm"),), Status(Code.ERROR, ("pod has unbound immediate PersistentVolumeClaims",))),
    ((pvc("c", sc="wait"),), None),
], ids=["node-conflict", "bind-conflict", "immediate", "provision"])
def test_volume_binding_filter_with_real_binder(objects: tuple, want: Optional[Status]) -> None:
    handle = Handle(*CLASSES, *objects)
    handle._binder = VolumeBinder(handle.listers())
    plugin = vb.new(None, handle)
    assert plugin.filter(CycleState(), pod(claim_vol("c")), node_info(NODE_A)) == want
