"""findBestMatchForClaim: the volume an unbound claim gets (smallest fit, fewest access modes first).

Upstream: pkg/controller/volume/persistentvolume/index.go (findByClaim,
allPossibleMatchingAccessModes) and util.FindMatchingVolume; the cases follow index_test.go's
TestMatchVolume / TestFindingVolumeWithDifferentAccessModes.
"""

from __future__ import annotations

import pytest

from kubesched.controller.volume.persistentvolume.index import (access_modes_as_string,
                                                               find_best_match_for_claim)
from tests.cluster.workload_fakes import objects
from tests.testing.wrappers import make_pv, make_pvc


def pv(name: str, size: str, modes: list[str], cls: str = "", labels: dict | None = None, phase: str = "Available",
       claim_ref: dict | None = None, mode: str | None = None) -> dict:
    w = make_pv().name(name).labels(labels).capacity(size).access_modes(modes).storage_class(cls)
    w.set("spec", hostPath={"path": f"/mnt/{name}"})
    if claim_ref is not None:
        w.set("spec", claimRef=claim_ref)
    if mode is not None:
        w.set("spec", volumeMode=mode)
    return w.phase(phase).doc()


def pvc(size: str, modes: list[str], cls: str | None = None, selector: dict | None = None,
        mode: str | None = None) -> dict:
    w = make_pvc().name("claim").namespace("default").uid("claim-uid").access_modes(modes).request(size)
    if cls is not None:
        w.storage_class(cls)
    if selector is not None:
        w.set("spec", selector=selector)
    if mode is not None:
        w.set("spec", volumeMode=mode)
    return w.doc()


RWO, ROX, RWX = "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany"
CASES = [
    ("smallest that fits", pvc("3Gi", [RWO]),
     [pv("big", "10Gi", [RWO]), pv("small", "5Gi", [RWO]), pv("tiny", "1Gi", [RWO])], "small"),
    ("exact size fits", pvc("5Gi", [RWO]), [pv("big", "10Gi", [RWO]), pv("exact", "5Gi", [RWO])], "exact"),
    ("none large enough", pvc("20Gi", [RWO]), [pv("big", "10Gi", [RWO])], None),
    ("fewest access modes first, even if larger", pvc("1Gi", [RWO]),
     [pv("gce", "5Gi", [RWO, ROX]), pv("nfs", "1Gi", [RWO, ROX, RWX]), pv("ebs", "10Gi", [RWO])], "ebs"),
    ("a mode no volume offers", pvc("1Gi", [RWX]), [pv("ebs", "10Gi", [RWO]), pv("gce", "5Gi", [RWO, ROX])], None),
    ("RWX only from a set holding it", pvc("1Gi", [RWX]),
     [pv("ebs", "10Gi", [RWO]), pv("nfs", "50Gi", [RWO, ROX, RWX])], "nfs"),
    ("storage class must match", pvc("1Gi", [RWO], "fast"),
     [pv("slow", "1Gi", [RWO], "slow"), pv("fast", "2Gi", [RWO], "fast")], "fast"),
    ("no class wants no class", pvc("1Gi", [RWO], ""), [pv("fast", "2Gi", [RWO], "fast")], None),
    ("selector", pvc("1Gi", [RWO], selector={"matchLabels": {"tier": "gold"}}),
     [pv("plain", "1Gi", [RWO]), pv("gold", "8Gi", [RWO], labels={"tier": "gold"})], "gold"),
    ("volumeMode Block vs Filesystem", pvc("1Gi", [RWO], mode="Block"),
     [pv("fs", "1Gi", [RWO]), pv("block", "4Gi", [RWO], mode="Block")], "block"),
    ("Released volumes are not available", pvc("1Gi", [RWO]),
     [pv("released", "1Gi", [RWO], phase="Released"), pv("free", "3Gi", [RWO])], "free"),
    ("claimed by another claim", pvc("1Gi", [RWO]),
     [pv("taken", "1Gi", [RWO], claim_ref={"namespace": "default", "name": "other"}), pv("free", "3Gi", [RWO])],
     "free"),
    ("pre-bound to this claim wins over a smaller one", pvc("1Gi", [RWO]),
     [pv("a-small", "1Gi", [RWO]),
      pv("mine", "9Gi", [RWO], claim_ref={"namespace": "default", "name": "claim"}, phase="Bound")], "mine"),
]


@pytest.mark.parametrize("case,claim,volumes,want", CASES, ids=[c[0] for c in CASES])
def test_find_best_match_for_claim(case, claim, volumes, want) -> None:
    claim, *vols = objects(claim, *volumes)
    best = find_best_match_for_claim(claim, vols, delay_binding=False)
    assert (best.metadata.name if best else None) == want


def test_delay_binding_only_takes_pre_bound_volumes() -> None:
    claim, free, mine = objects(pvc("1Gi", [RWO], "local"), pv("free", "1Gi", [RWO], "local"),
                                pv("mine", "1Gi", [RWO], "local", claim_ref={"namespace": "default",
                                                                             "name": "claim"}))
    assert find_best_match_for_claim(claim, [free], delay_binding=True) is None
    assert find_best_match_for_claim(claim, [free, mine], delay_binding=True).metadata.name == "mine"


@pytest.mark.parametrize("modes,want", [([RWX, RWO], "RWO,RWX"), ([ROX, ROX], "ROX"), ([], ""),
                                        ([RWO, ROX, RWX], "RWO,ROX,RWX")])
def test_access_modes_as_string(modes, want) -> None:
    assert access_modes_as_string(modes) == want
