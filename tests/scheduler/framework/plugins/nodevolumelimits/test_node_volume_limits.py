"""Volume limit plugins beyond the vectors: defaults per driver, overrides, migration gates.

Upstream: non_csi_test.go, csi_test.go, utils.go, attach_limit.go (v1.18.5).
"""

from __future__ import annotations

import hashlib
from typing import Optional

import pytest

from kubesched import features
from kubesched.controller.volume.scheduling import csi_translation as ct
from kubesched.controller.volume.scheduling.volume_util import get_csi_attach_limit_key
from kubesched.scheduler.framework.plugins.nodevolumelimits import csi, non_csi, utils
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.plugins.volume_fixtures import Handle, claim_vol, csi_node, node, node_info, pod, pv, pvc, storage_class

EXCEEDED = Status(Code.UNSCHEDULABLE, ("node(s) exceed max volume count",))
INSTANCE = "beta.kubernetes.io/instance-type"
INSTANCE_GA = "node.kubernetes.io/instance-type"


@pytest.mark.parametrize("factory,labels,env,want", [
    (non_csi.new_ebs, {}, {}, 39),
    (non_csi.new_ebs, {INSTANCE: "m5.large"}, {}, 25),
    (non_csi.new_ebs, {INSTANCE_GA: "c5.xlarge"}, {}, 25),
    (non_csi.new_ebs, {INSTANCE: "t3.medium"}, {}, 25),
    (non_csi.new_ebs, {INSTANCE: "x1.z1d"}, {}, 25),   # unanchored alternatives
    (non_csi.new_ebs, {INSTANCE: "m4.large"}, {}, 39),
    (non_csi.new_ebs, {INSTANCE: "am5"}, {}, 39),       # [cmr]5 only at the start
    (non_csi.new_gce_pd, {}, {}, 16),
    (non_csi.new_azure_disk, {}, {}, 16),
    (non_csi.new_cinder, {}, {}, 256),
    (non_csi.new_gce_pd, {}, {"KUBE_MAX_PD_VOLS": "7"}, 7),
    (non_csi.new_ebs, {INSTANCE: "m5.large"}, {"KUBE_MAX_PD_VOLS": "3"}, 3),
    (non_csi.new_cinder, {}, {"KUBE_MAX_PD_VOLS": "0"}, 256),
    (non_csi.new_cinder, {}, {"KUBE_MAX_PD_VOLS": "x"}, 256),
])
def test_max_volume_func(factory, labels: dict, env: dict, want: int) -> None:
    plugin = factory({"env": env}, Handle())
    assert plugin.max_volume_func(node(labels=labels)) == want


@pytest.mark.parametrize("raw,want", [("5", 5), ("+5", 5), ("-2", -1), ("0", -1), ("1.5", -1), (" 5", -1), ("", -1)])
def test_get_max_vol_limit_from_env(raw: str, want: int) -> None:
    assert non_csi.get_max_vol_limit_from_env({"KUBE_MAX_PD_VOLS": raw}) == want


def test_plugin_names() -> None:
    names = [f(None, Handle()).name() for f in (non_csi.new_ebs, non_csi.new_gce_pd, non_csi.new_azure_disk,
                                                non_csi.new_cinder, csi.new)]
    assert names == ["EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits", "NodeVolumeLimits"]


def _ebs(vid: str) -> dict:
    return {"name": vid, "awsElasticBlockStore": {"volumeID": vid}}


def _gce(pd: str) -> dict:
    return {"name": pd, "gcePersistentDisk": {"pdName": pd}}


def _azure(disk: str) -> dict:
    return {"name": disk, "azureDisk": {"diskName": disk, "diskURI": "uri-" + disk}}


def _cinder(vid: str) -> dict:
    return {"name": vid, "cinder": {"volumeID": vid}}


@pytest.mark.parametrize("factory,make,key", [
    (non_csi.new_ebs, _ebs, "attachable-volumes-aws-ebs"),
    (non_csi.new_gce_pd, _gce, "attachable-volumes-gce-pd"),
    (non_csi.new_azure_disk, _azure, "attachable-volumes-azure-disk"),
    (non_csi.new_cinder, _cinder, "attachable-volumes-cinder"),
])
@pytest.mark.parametrize("limit,new,want", [
    ("3", ("a", "b"), None),              # 1 existing + 2 new = 3
    ("2", ("a", "b"), EXCEEDED),
    ("2", ("e", "b"), None),              # e is already attached: counted once
    ("0", ("e",), EXCEEDED),              # 1 existing > 0
])
def test_non_csi_filter_per_driver(factory, make, key: str, limit: str, new: tuple, want: Optional[Status]) -> None:
    plugin = factory(None, Handle())
    info = node_info(node(allocatable={key: limit}), pod(make("e"), name="existing"))
    assert plugin.filter(CycleState(), pod(*[make(v) for v in new]), info) == want


def test_non_csi_counts_claims_by_provisioner() -> None:
    handle = Handle(pvc("unbound", sc="ebs-sc"), pvc("other", sc="gce-sc"), pvc("bound", volume_name="pv1"),
                    pv("pv1", source={"awsElasticBlockStore": {"volumeID": "vol-1"}}),
                    storage_class("ebs-sc", provisioner="kubernetes.io/aws-ebs"),
                    storage_class("gce-sc", provisioner="kubernetes.io/gce-pd"))
    plugin = non_csi.new_ebs(None, handle)
    ids: set = set()
    plugin.filter_volumes(pod(claim_vol("unbound"), claim_vol("other"), claim_vol("bound"),
                              claim_vol("missing")).spec.volumes, "ns", ids)
    assert ids == {f"{non_csi.RANDOM_VOLUME_ID_PREFIX}-ns/unbound", "vol-1"}


def test_non_csi_errors() -> None:
    plugin = non_csi.new_ebs(None, Handle())
    assert plugin.filter(CycleState(), pod(claim_vol("")), node_info(node())) == \
        Status(Code.ERROR, ("PersistentVolumeClaim had no name",))
    assert plugin.filter(CycleState(), pod(_ebs("a")), NodeInfo()) == Status(Code.ERROR, ("node not found",))
    with pytest.raises(ValueError, match="Wrong filterName"):
        non_csi.NonCSILimits("NFS", Handle().listers())


def test_non_csi_defers_to_csi_when_migrated() -> None:
    handle = Handle(csi_node("node1", "kubernetes.io/aws-ebs"))
    info = node_info(node(allocatable={"attachable-volumes-aws-ebs": "0"}))
    plugin = non_csi.new_ebs(None, handle)
    assert plugin.filter(CycleState(), pod(_ebs("a")), info) == EXCEEDED          # CSIMigrationAWS off
    with features.override({"CSIMigrationAWS": True}):
        assert plugin.filter(CycleState(), pod(_ebs("a")), info) is None
        with features.override({"CSIMigration": False}):
            assert plugin.filter(CycleState(), pod(_ebs("a")), info) == EXCEEDED


def test_balance_attached_node_volumes_records_transient_info() -> None:
    plugin = non_csi.new_gce_pd(None, Handle())
    info = node_info(node(allocatable={"attachable-volumes-gce-pd": "5"}), pod(_gce("e"), name="existing"))
    with features.override({"BalanceAttachedNodeVolumes": True}):
        assert plugin.filter(CycleState(), pod(_gce("a"), _gce("b")), info) is None
    assert (info.transient_info.allocatable_volumes_count, info.transient_info.requested_volumes) == (4, 2)


@pytest.mark.parametrize("gates,plugin_name,annotated,want", [
    ({}, "kubernetes.io/aws-ebs", True, False),
    ({"CSIMigrationAWS": True}, "kubernetes.io/aws-ebs", True, True),
    ({"CSIMigrationAWS": True}, "kubernetes.io/aws-ebs", False, False),
    ({"CSIMigrationAWS": True, "CSIMigration": False}, "kubernetes.io/aws-ebs", True, False),
    ({"CSIMigrationGCE": True}, "kubernetes.io/gce-pd", True, True),
    ({"CSIMigrationAzureDisk": True}, "kubernetes.io/azure-disk", True, True),
    ({"CSIMigrationOpenStack": True}, "kubernetes.io/cinder", True, True),
    ({"CSIMigrationAWS": True}, "kubernetes.io/azure-file", True, False),
])
def test_is_csi_migration_on(gates: dict, plugin_name: str, annotated: bool, want: bool) -> None:
    cn = csi_node("n", "kubernetes.io/aws-ebs,kubernetes.io/gce-pd,kubernetes.io/azure-disk,"
                       "kubernetes.io/cinder,kubernetes.io/azure-file" if annotated else "")
    with features.override(gates):
        assert utils.is_csi_migration_on(cn, plugin_name) is want
        assert utils.is_csi_migration_on(None, plugin_name) is False


def test_csi_limits_count_migrated_in_tree_volumes_only_when_migration_is_on() -> None:
    objects = (pvc("c1", volume_name="pv1"), pvc("c2", volume_name="pv2"),
               pv("pv1", source={"awsElasticBlockStore": {"volumeID": "aws://us-east-1a/vol-1"}}),
               pv("pv2", source={"awsElasticBlockStore": {"volumeID": "vol-2"}}),
               csi_node("node1", "kubernetes.io/aws-ebs", (("ebs.csi.aws.com", 1),)))
    plugin = csi.new(None, Handle(*objects))
    info = node_info(node(), pod(claim_vol("c1"), name="existing"))
    assert plugin.filter(CycleState(), pod(claim_vol("c2")), info) is None
    with features.override({"CSIMigrationAWS": True}):
        assert plugin.filter(CycleState(), pod(claim_vol("c2")), info) == EXCEEDED
        assert plugin.filter(CycleState(), pod(claim_vol("c1")), info) is None  # same volume, counted once


def test_csi_limits_node_allocatable_and_csinode_override() -> None:
    objects = (pvc("c1", volume_name="pv1"), pvc("c2", volume_name="pv2"),
               pv("pv1", source={"csi": {"driver": "d.example.com", "volumeHandle": "h1"}}),
               pv("pv2", source={"csi": {"driver": "d.example.com", "volumeHandle": "h2"}}))
    key = "attachable-volumes-csi-d.example.com"
    info = node_info(node(allocatable={key: "1"}), pod(claim_vol("c1"), name="existing"))
    assert csi.new(None, Handle(*objects)).filter(CycleState(), pod(claim_vol("c2")), info) == EXCEEDED
    roomy = Handle(*objects, csi_node("node1", drivers=(("d.example.com", 2),)))
    assert csi.new(None, roomy).filter(CycleState(), pod(claim_vol("c2")), info) is None
    with features.override({"CSINodeInfo": False}):  # no CSINode lister: node allocatable only
        assert csi.new(None, roomy).filter(CycleState(), pod(claim_vol("c2")), info) == EXCEEDED


def test_csi_limits_errors() -> None:
    plugin = csi.new(None, Handle())
    assert plugin.filter(CycleState(), pod(claim_vol("")), node_info(node())) == \
        Status(Code.ERROR, ("PersistentVolumeClaim had no name",))
    assert plugin.filter(CycleState(), pod(claim_vol("c")), NodeInfo()) == Status(Code.ERROR, ("node not found",))
    assert plugin.filter(CycleState(), pod(), NodeInfo()) is None


@pytest.mark.parametrize("driver", ["ebs.csi.aws.com", "a" * 39])
def test_get_csi_attach_limit_key_short(driver: str) -> None:
    assert get_csi_attach_limit_key(driver) == "attachable-volumes-csi-" + driver


def test_get_csi_attach_limit_key_long_driver_is_hashed() -> None:
    driver = "a" * 40  # prefix (23) + 40 >= 63
    want = "attachable-volumes-csi-" + "a" * 23 + hashlib.sha1(driver.encode()).hexdigest()[:16]
    assert get_csi_attach_limit_key(driver) == want


@pytest.mark.parametrize("vid,want", [("vol-1", "vol-1"), ("aws://us-east-1a/vol-1", "vol-1"),
                                      ("aws:///vol-2", "vol-2"), ("plain", "plain")])
def test_ebs_volume_id_translation(vid: str, want: str) -> None:
    assert ct.kubernetes_volume_id_to_ebs_volume_id(vid) == want


def test_ebs_volume_id_translation_rejects_bad_ids() -> None:
    with pytest.raises(ct.TranslationError, match="Invalid format for AWS volume"):
        ct.kubernetes_volume_id_to_ebs_volume_id("aws://zone/disk-1")


@pytest.mark.parametrize("zone,want", [
    ("", "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd"),
    ("us-central1-a", "projects/UNSPECIFIED/zones/us-central1-a/disks/pd"),
    ("us-central1-a__us-central1-b", "projects/UNSPECIFIED/regions/us-central1/disks/pd"),
])
def test_gce_pd_translation(zone: str, want: str) -> None:
    volume = pv("p", zone=zone, source={"gcePersistentDisk": {"pdName": "pd"}})
    translated = ct.translate_in_tree_pv_to_csi(volume)
    assert (translated.spec.csi.driver, translated.spec.csi.volume_handle, translated.spec.gce_persistent_disk) == \
        ("pd.csi.storage.gke.io", want, None)
