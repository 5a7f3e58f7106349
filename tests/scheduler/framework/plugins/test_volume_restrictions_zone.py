"""VolumeRestrictions and VolumeZone beyond the vectors: read-only rules, reasons, errors.

Upstream: volume_restrictions_test.go, volume_zone_test.go (v1.18.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import pytest

from kubesched.scheduler.framework.plugins.volumerestrictions import volume_restrictions as vr
from kubesched.scheduler.framework.plugins.volumezone import volume_zone as vz
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.nodeinfo.node_info import NodeInfo
from tests.scheduler.framework.plugins.volume_fixtures import Handle, claim_vol, node, node_info, pod, pv, pvc, storage_class

CONFLICT = Status(Code.UNSCHEDULABLE, ("node(s) had no available disk",))
ZONE_CONFLICT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("node(s) had no available volume zone",))


def gce(name: str, ro: bool = False) -> dict:
    return {"name": "g", "gcePersistentDisk": {"pdName": name, "readOnly": ro}}


def ebs(vid: str, ro: bool = False) -> dict:
    return {"name": "e", "awsElasticBlockStore": {"volumeID": vid, "readOnly": ro}}


def iscsi(iqn: str, ro: bool = False) -> dict:
    return {"name": "i", "iscsi": {"iqn": iqn, "targetPortal": "127.0.0.1:3260", "readOnly": ro}}


def rbd(monitors: list, pool: str = "rbd", image: str = "img", ro: bool = False) -> dict:
    return {"name": "r", "rbd": {"monitors": monitors, "pool": pool, "image": image, "readOnly": ro}}


@dataclass(frozen=True)
class RCase:
    name: str
    new: dict
    existing: dict
    want: Optional[Status]


RESTRICTION_CASES = [
    RCase("gce same disk read-write", gce("a"), gce("a"), CONFLICT),
    RCase("gce same disk one read-only", gce("a", True), gce("a"), CONFLICT),
    RCase("gce same disk both read-only", gce("a", True), gce("a", True), None),
    RCase("gce different disks", gce("a"), gce("b"), None),
    RCase("ebs same id even read-only", ebs("v", True), ebs("v", True), CONFLICT),
    RCase("ebs different ids", ebs("v"), ebs("w"), None),
    RCase("iscsi same iqn", iscsi("iqn.1"), iscsi("iqn.1"), CONFLICT),
    RCase("iscsi same iqn both read-only", iscsi("iqn.1", True), iscsi("iqn.1", True), None),
    RCase("rbd shared monitor same pool and image", rbd(["a", "b"]), rbd(["b", "c"]), CONFLICT),
    RCase("rbd no shared monitor", rbd(["a"]), rbd(["c"]), None),
    RCase("rbd different pool", rbd(["a"], pool="p1"), rbd(["a"], pool="p2"), None),
    RCase("rbd different image", rbd(["a"], image="x"), rbd(["a"], image="y"), None),
    RCase("rbd both read-only", rbd(["a"], ro=True), rbd(["a"], ro=True), None),
    RCase("different kinds never conflict", gce("a"), ebs("a"), None),
]


@pytest.mark.parametrize("case", RESTRICTION_CASES, ids=lambda c: c.name)
def test_volume_restrictions(case: RCase) -> None:
    plugin = vr.new(None, Handle())
    info = NodeInfo(pod(case.existing, name="existing"))
    assert plugin.filter(CycleState(), pod(case.new), info) == case.want


def test_volume_restrictions_constants() -> None:
    assert (vr.NAME, vr.ERR_REASON_DISK_CONFLICT) == ("VolumeRestrictions", "node(s) had no available disk")
    assert vr.new(None, Handle()).name() == "VolumeRestrictions"


@pytest.mark.parametrize("value,want", [
    ("us-east-1a", {"us-east-1a"}),
    ("us-east-1a__us-east-1b", {"us-east-1a", "us-east-1b"}),
    (" a __ b ", {"a", "b"}),
])
def test_label_zones_to_set(value: str, want: set) -> None:
    assert vz.label_zones_to_set(value) == frozenset(want)


@pytest.mark.parametrize("value", ["", "a____b", "a__", " __a"])
def test_label_zones_to_set_rejects_empty_elements(value: str) -> None:
    with pytest.raises(ValueError, match="must not contain an empty string"):
        vz.label_zones_to_set(value)


ZONE = "failure-domain.beta.kubernetes.io/zone"
OBJECTS = (
    pvc("bound", volume_name="pv-a"), pvc("to-missing-pv", volume_name="nope"),
    pvc("bad-label", volume_name="pv-bad"), pvc("immediate", sc="imm"),
    pv("pv-a", zone="zone-a"), pv("pv-bad", zone="a____b"), storage_class("imm", mode="Immediate"),
)


@dataclass(frozen=True)
class ZCase:
    name: str
    claim: str
    node_labels: dict
    want: Optional[Status]


ZONE_CASES = [
    ZCase("zone matches", "bound", {ZONE: "zone-a"}, None),
    ZCase("zone differs", "bound", {ZONE: "zone-b"}, ZONE_CONFLICT),
    ZCase("node only has region: PV zone must equal empty", "bound",
          {"failure-domain.beta.kubernetes.io/region": "r"}, ZONE_CONFLICT),
    ZCase("GA topology labels are ignored in 1.18", "bound", {"topology.kubernetes.io/zone": "zone-b"}, None),
    ZCase("claim without a name", "", {ZONE: "zone-a"}, Status(Code.ERROR, ("PersistentVolumeClaim had no name",))),
    ZCase("claim not found", "ghost", {ZONE: "zone-a"},
          Status(Code.ERROR, ('PersistentVolumeClaim was not found: "ghost"',))),
    ZCase("pv not found", "to-missing-pv", {ZONE: "zone-a"},
          Status(Code.ERROR, ('PersistentVolume was not found: "nope"',))),
    ZCase("unparsable PV label is ignored", "bad-label", {ZONE: "zone-a"}, None),
    ZCase("unbound immediate claim", "immediate", {ZONE: "zone-a"},
          Status(Code.ERROR, ("PersistentVolume had no name",))),
]


@pytest.mark.parametrize("case", ZONE_CASES, ids=lambda c: c.name)
def test_volume_zone(case: ZCase) -> None:
    plugin = vz.new(None, Handle(*OBJECTS))
    status = plugin.filter(CycleState(), pod(claim_vol(case.claim)), node_info(node(labels=case.node_labels)))
    assert status == case.want


def test_volume_zone_without_node_is_an_error() -> None:
    plugin = vz.new(None, Handle(*OBJECTS))
    assert plugin.filter(CycleState(), pod(claim_vol("bound")), NodeInfo()) == Status(Code.ERROR, ("node not found",))


def test_volume_zone_constants() -> None:
    assert (vz.NAME, vz.ERR_REASON_CONFLICT) == ("VolumeZone", "node(s) had no available volume zone")
