"""Every sample cluster loads with no errors and no warnings, and says what it teaches."""

from __future__ import annotations

import pathlib

import pytest

from kubesched.api.core import Node, Pod
from kubesched.api.load import load_cluster
from kubesched.api.policy import PodDisruptionBudget
from kubesched.api.scheduling import PriorityClass

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "sample_clusters"
FILES = sorted(SAMPLES.glob("*.yaml"))


def test_expected_samples_exist() -> None:
    assert {"default.yaml", "taints.yaml", "affinity.yaml", "spread.yaml", "preemption.yaml"} <= {
        f.name for f in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_sample_loads_cleanly(path: pathlib.Path) -> None:
    cluster = load_cluster(path)
    assert cluster.warnings == ()
    assert cluster.of_kind(Node) and cluster.of_kind(Pod)
    assert path.read_text().startswith(f"# {path.name} - ")


def test_default_cluster_shape() -> None:
    cluster = load_cluster(SAMPLES / "default.yaml")
    nodes, pods = cluster.of_kind(Node), cluster.of_kind(Pod)
    zones = {n.metadata.labels["topology.kubernetes.io/zone"] for n in nodes}
    assert (len(nodes), zones) == (6, {"zone-a", "zone-b", "zone-c"})
    assert all(n.metadata.labels["failure-domain.beta.kubernetes.io/zone"]
               == n.metadata.labels["topology.kubernetes.io/zone"] for n in nodes)
    assert all(n.metadata.labels["kubernetes.io/hostname"] == n.metadata.name for n in nodes)
    assert [n.metadata.name for n in nodes if n.spec.taints] == ["zone-c-gpu-1"]
    pending = [p for p in pods if not p.spec.node_name]
    running = [p for p in pods if p.spec.node_name]
    assert (len(pending), len(running)) == (13, 2)
    assert all(p.status.phase == "Running" for p in running)
    largest = max(n.status.allocatable["cpu"].milli_value() for n in nodes)
    too_big = [p.metadata.name for p in pending
               if sum(c.resources.requests["cpu"].milli_value() for c in p.spec.containers
                      if "cpu" in c.resources.requests) > largest]
    assert too_big == ["too-big"]
    spec_features = {
        "tolerations": any(p.spec.tolerations for p in pending),
        "required node affinity": any(p.spec.affinity and p.spec.affinity.node_affinity and p.spec.affinity
                                      .node_affinity.required_during_scheduling_ignored_during_execution
                                      for p in pending),
        "preferred node affinity": any(p.spec.affinity and p.spec.affinity.node_affinity and p.spec.affinity
                                       .node_affinity.preferred_during_scheduling_ignored_during_execution
                                       for p in pending),
        "pod anti-affinity": any(p.spec.affinity and p.spec.affinity.pod_anti_affinity for p in pending),
        "topology spread": any(p.spec.topology_spread_constraints for p in pending),
    }
    assert all(spec_features.values()), spec_features


def test_preemption_cluster_shape() -> None:
    cluster = load_cluster(SAMPLES / "preemption.yaml")
    classes = {pc.metadata.name: pc for pc in cluster.of_kind(PriorityClass)}
    assert [name for name, pc in classes.items() if pc.global_default] == ["low"]
    assert len(cluster.of_kind(PodDisruptionBudget)) == 1
    priorities = {p.metadata.name: p.spec.priority for p in cluster.of_kind(Pod)}
    assert (priorities["batch-1"], priorities["critical-api"]) == (100, 100000)
