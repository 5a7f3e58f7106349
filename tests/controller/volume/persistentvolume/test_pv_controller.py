"""The PV controller: what happens to a claim (bound, pending with the 1.18 event, provisioned) and when.

Upstream: pkg/controller/volume/persistentvolume/pv_controller.go (syncUnboundClaim,
syncBoundClaim, syncVolume, bind, updateClaimStatus, provisionClaim,
provisionClaimOperationExternal) and pv_controller_base.go (resync every 15 s).
"""

from __future__ import annotations

import pytest

from kubesched.controller.volume.persistentvolume.pv_controller import SYNC_PERIOD_SECONDS
from tests.cluster.workload_fakes import Cluster
from tests.controller.volume.persistentvolume.test_pv_index import RWO, pv, pvc

PV_CONTROLLER = "persistentvolume-controller"


def storage_class(name: str, provisioner: str, mode: str = "Immediate") -> dict:
    return {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name},
            "provisioner": provisioner, "volumeBindingMode": mode, "reclaimPolicy": "Retain"}


def claim_events(cluster: Cluster) -> list[tuple]:
    return [e[:2] + e[3:] for e in cluster.events("PersistentVolumeClaim")]


def test_an_immediate_claim_binds_to_the_matching_volume() -> None:
    cluster = Cluster(pv("task-pv-volume", "10Gi", [RWO], "manual"), pvc("3Gi", [RWO], "manual")).run(0.0)
    volume = cluster.api.get("PersistentVolume", "", "task-pv-volume")
    claim = cluster.api.get("PersistentVolumeClaim", "default", "claim")
    ref = volume.spec.claim_ref
    assert (ref.kind, ref.namespace, ref.name, ref.uid, ref.api_version) == (
        "PersistentVolumeClaim", "default", "claim", claim.metadata.uid, "v1")
    assert (volume.status.phase, dict(volume.metadata.annotations)) == (
        "Bound", {"pv.kubernetes.io/bound-by-controller": "yes"})
    assert (claim.spec.volume_name, claim.status.phase, claim.status.access_modes, str(claim.status.capacity["storage"]),
            dict(claim.metadata.annotations)) == (
        "task-pv-volume", "Bound", (RWO,), "10Gi",
        {"pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes"})
    assert claim_events(cluster) == []


PENDING = [
    ("no class, no volume", [], pvc("1Gi", [RWO], ""),
     [(0.0, 1, "Normal", "FailedBinding", "no persistent volumes available for this claim and no storage class is set",
       PV_CONTROLLER)]),
    ("a class that does not exist", [], pvc("1Gi", [RWO], "manual"),
     [(0.0, 1, "Warning", "ProvisioningFailed", 'storageclass.storage.k8s.io "manual" not found', PV_CONTROLLER)]),
    ("an Immediate class without provisioner", [storage_class("local", "kubernetes.io/no-provisioner")],
     pvc("1Gi", [RWO], "local"),
     [(0.0, 1, "Warning", "ProvisioningFailed", "no volume plugin matched name: kubernetes.io/no-provisioner",
       PV_CONTROLLER)]),
    ("WaitForFirstConsumer waits", [storage_class("local", "kubernetes.io/no-provisioner", "WaitForFirstConsumer")],
     pvc("1Gi", [RWO], "local"),
     [(0.0, 1, "Normal", "WaitForFirstConsumer", "waiting for first consumer to be created before binding",
       PV_CONTROLLER)]),
    ("a volume too small", [pv("small", "1Gi", [RWO])], pvc("5Gi", [RWO], ""),
     [(0.0, 1, "Normal", "FailedBinding", "no persistent volumes available for this claim and no storage class is set",
       PV_CONTROLLER)]),
]


@pytest.mark.parametrize("case,extra,claim,events", PENDING, ids=[c[0] for c in PENDING])
def test_a_claim_that_cannot_bind_stays_pending_with_the_1_18_event(case, extra, claim, events) -> None:
    claim["status"] = {"phase": "Pending"}
    cluster = Cluster(*extra, claim).run(0.0)
    found = cluster.api.get("PersistentVolumeClaim", "default", "claim")
    assert (found.status.phase, found.spec.volume_name) == ("Pending", "")
    assert claim_events(cluster) == events


def test_the_event_repeats_at_every_resync_and_a_later_volume_binds_at_the_next_one() -> None:
    claim = pvc("1Gi", [RWO], "")
    claim["status"] = {"phase": "Pending"}
    cluster = Cluster(claim)
    cluster.add(pv("late", "2Gi", [RWO]), at=20.0)
    cluster.run(29.0)
    assert cluster.api.get("PersistentVolumeClaim", "default", "claim").status.phase == "Pending"
    assert cluster.api.get("PersistentVolume", "", "late").status.phase == "Available"
    cluster.run(2 * SYNC_PERIOD_SECONDS)
    claim = cluster.api.get("PersistentVolumeClaim", "default", "claim")
    assert (claim.status.phase, claim.spec.volume_name) == ("Bound", "late")
    [event] = cluster.events("PersistentVolumeClaim")
    assert (event[0], event[1], event[4]) == (0.0, 2, "FailedBinding")  # at 0 s and 15 s, then bound at 30 s
    assert [e.last_timestamp for e in cluster.api.list("Event") if e.reason == "FailedBinding"] == [15.0]


def test_a_volume_without_phase_becomes_available() -> None:
    volume = pv("fresh", "1Gi", [RWO])
    del volume["status"]
    cluster = Cluster(volume).run(0.0)
    assert cluster.api.get("PersistentVolume", "", "fresh").status.phase == "Available"


@pytest.mark.parametrize("provisioner,component,message", [
    ("kubernetes.io/gce-pd", PV_CONTROLLER, "Successfully provisioned volume {} using kubernetes.io/gce-pd"),
    ("example.com/nfs", "example.com/nfs", "Successfully provisioned volume {}"),
])
def test_a_class_with_a_provisioner_gets_a_volume(provisioner: str, component: str, message: str) -> None:
    claim = pvc("3Gi", [RWO], "standard")
    claim["status"] = {"phase": "Pending"}
    cluster = Cluster(storage_class("standard", provisioner), claim).run(0.0)
    claim = cluster.api.get("PersistentVolumeClaim", "default", "claim")
    name = f"pvc-{claim.metadata.uid}"
    volume = cluster.api.get("PersistentVolume", "", name)
    assert (claim.status.phase, claim.spec.volume_name,
            claim.metadata.annotations["volume.beta.kubernetes.io/storage-provisioner"]) == (
        "Bound", name, provisioner)
    assert (str(volume.spec.capacity["storage"]), volume.spec.access_modes, volume.spec.storage_class_name,
            volume.spec.persistent_volume_reclaim_policy, volume.status.phase,
            volume.metadata.annotations["pv.kubernetes.io/provisioned-by"]) == (
        "3Gi", (RWO,), "standard", "Retain", "Bound", provisioner)
    external = [] if component == PV_CONTROLLER else [
        (0.0, 1, "Normal", "ExternalProvisioning", "waiting for a volume to be created, either by external "
         f'provisioner "{provisioner}" or manually created by system administrator', PV_CONTROLLER)]
    assert claim_events(cluster) == external + [(0.0, 1, "Normal", "ProvisioningSucceeded", message.format(name),
                                                 component)]


@pytest.mark.parametrize("volume,message", [
    (pv("named", "1Gi", [RWO]), 'Cannot bind to requested volume "named": requested PV is too small'),
    (pv("named", "9Gi", [RWO], "gold"), 'Cannot bind to requested volume "named": storageClassName does not match'),
    (pv("named", "9Gi", ["ReadOnlyMany"]), 'Cannot bind to requested volume "named": incompatible accessMode'),
])
def test_a_claim_naming_a_volume_that_does_not_fit(volume, message) -> None:
    claim = pvc("5Gi", [RWO], "")
    claim["spec"]["volumeName"] = "named"
    cluster = Cluster(volume, claim).run(0.0)
    assert cluster.api.get("PersistentVolumeClaim", "default", "claim").status.phase == "Pending"
    assert [e[2:5] for e in claim_events(cluster)] == [("Warning", "VolumeMismatch", message)]


def test_a_claim_naming_a_fitting_volume_binds_to_it_and_not_to_a_smaller_one() -> None:
    claim = pvc("1Gi", [RWO], "")
    claim["spec"]["volumeName"] = "named"
    cluster = Cluster(pv("a-small", "1Gi", [RWO]), pv("named", "9Gi", [RWO]), claim).run(0.0)
    assert cluster.api.get("PersistentVolumeClaim", "default", "claim").spec.volume_name == "named"
    assert cluster.api.get("PersistentVolume", "", "a-small").status.phase == "Available"
    volume = cluster.api.get("PersistentVolume", "", "named")
    claim = cluster.api.get("PersistentVolumeClaim", "default", "claim")
    # the controller set the volume's claimRef, the user the claim's volumeName
    assert (volume.status.phase, dict(volume.metadata.annotations), dict(claim.metadata.annotations)) == (
        "Bound", {"pv.kubernetes.io/bound-by-controller": "yes"}, {"pv.kubernetes.io/bind-completed": "yes"})


def test_a_volume_whose_claim_is_gone_is_released() -> None:
    cluster = Cluster(pv("task", "10Gi", [RWO]), pvc("3Gi", [RWO], "")).run(0.0)
    cluster.loop.call_at(5.0, lambda: cluster.api.delete("PersistentVolumeClaim", "default", "claim"))
    cluster.run(5.0)
    assert cluster.api.get("PersistentVolume", "", "task").status.phase == "Released"
