"""The Kubernetes docs' configuration examples give the outcome the docs state (or its v1.18 derivation).

- "Resource Bin Packing for Extended Resources" (v1.18 docs): a Policy whose only priority is
  RequestedToCapacityRatioPriority with shape {0, 0}, {100, 10} and weights intel.com/foo 5,
  memory 1, cpu 3; the docs' two nodes score 5 and 7 (0-10 scale), so the pod lands on Node 2,
  the fuller one.
- "Scheduler Performance Tuning" (v1.18 docs): a v1alpha1 configuration with
  ``percentageOfNodesToScore: 50`` makes the scheduler stop after 50% of the nodes are feasible
  (never fewer than minFeasibleNodesToFind = 100).
"""

from __future__ import annotations

import json
import pathlib

from kubesched.cli.main import main
from kubesched.explain import explain_pod
from kubesched.sim.simulation import Simulation

NODE = """\
---
apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}
status:
  capacity: {{cpu: "8", memory: 1Gi, pods: "110", intel.com/foo: "{foo}"}}
  allocatable: {{cpu: "8", memory: 1Gi, pods: "110", intel.com/foo: "{foo}"}}
"""
POD = """\
---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  {node}containers:
  - name: c
    image: registry.k8s.io/pause:3.2
    resources:
      requests: {{cpu: "{cpu}", memory: {memory}, intel.com/foo: "{foo}"}}
      limits: {{intel.com/foo: "{foo}"}}
"""
BIN_PACKING_POLICY = {
    "kind": "Policy", "apiVersion": "v1",
    "predicates": [{"name": "PodFitsResources"}],
    "priorities": [{"name": "RequestedToCapacityRatioPriority", "weight": 2, "argument": {
        "requestedToCapacityRatioArguments": {
            "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
            "resources": [{"name": "intel.com/foo", "weight": 5}, {"name": "memory", "weight": 1},
                          {"name": "cpu", "weight": 3}]}}}],
}


def _bin_packing_cluster() -> str:
    return "".join([
        NODE.format(name="node-1", foo=4), NODE.format(name="node-2", foo=8),
        POD.format(name="used-1", node="nodeName: node-1\n  ", cpu=1, memory="256Mi", foo=1),
        POD.format(name="used-2", node="nodeName: node-2\n  ", cpu=6, memory="512Mi", foo=2),
        POD.format(name="packed", node="", cpu=2, memory="256Mi", foo=2)])


def _rtcr_scores(sim: Simulation) -> dict[str, tuple]:
    sim.run_until_idle()
    e = explain_pod(sim.trace[: sim.cursor], sim.state(), "default/packed")
    return {s.node: next((p.raw, p.weight, p.weighted) for p in s.plugins if p.plugin == "RequestedToCapacityRatio")
            for s in e.scores}


# v1.18 resourceScoringFunction: utilization = 100 - (capacity - requested) * 100 / capacity (integer
# division), mapped through the shape scaled to 0-100; the node score is round(Σ score·weight / Σ weight).
#   node-1: foo 100-(4-3)*100/4 = 75, memory 100-(1024-512)*100/1024 = 50, cpu 100-(8000-3000)*100/8000 = 38
#           round((75*5 + 50*1 + 38*3) / 9) = round(59.9) = 60      (the docs, on the 0-10 scale: 5)
#   node-2: foo 100-(8-4)*100/8 = 50, memory 100-(1024-768)*100/1024 = 75, cpu 100-0 = 100
#           round((50*5 + 75*1 + 100*3) / 9) = round(69.4) = 69     (the docs: 7)
# × the priority weight 2.
EXPECTED_SCORES = {"node-1": (60, 2, 120), "node-2": (69, 2, 138)}


def test_bin_packing_policy_document_in_the_cluster_file():
    text = _bin_packing_cluster() + "---\n" + json.dumps(BIN_PACKING_POLICY) + "\n"
    sim = Simulation.from_yaml(text)
    assert _rtcr_scores(sim) == EXPECTED_SCORES
    assert sim.state().pod("default", "packed").node == "node-2"


def test_bin_packing_policy_named_by_a_v1alpha1_config_and_the_flag(tmp_path: pathlib.Path, capsys):
    (tmp_path / "cluster.yaml").write_text(_bin_packing_cluster())
    (tmp_path / "policy.json").write_text(json.dumps(BIN_PACKING_POLICY))
    (tmp_path / "sched.yaml").write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\n"
        "algorithmSource:\n  policy:\n    file:\n      path: policy.json\n")
    by_config = Simulation.from_yaml(tmp_path / "cluster.yaml", config=tmp_path / "sched.yaml")
    assert _rtcr_scores(by_config) == EXPECTED_SCORES
    assert main(["run", str(tmp_path / "cluster.yaml"), "--policy-config-file", str(tmp_path / "policy.json"),
                 "--format", "json"]) == 0
    pods = {p["name"]: p["node"] for p in json.loads(capsys.readouterr().out)["pods"]}
    assert pods == {"packed": "node-2", "used-1": "node-1", "used-2": "node-2"}


def test_default_provider_spreads_instead():
    """Without the Policy, LeastAllocated (and BalancedAllocation) prefer the emptier node-1."""
    sim = Simulation.from_yaml(_bin_packing_cluster())
    sim.run_until_idle()
    assert sim.state().pod("default", "packed").node == "node-1"


def _nodes(n: int) -> str:
    return "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: n{i:03d}, labels: {{kubernetes.io/hostname: n{i:03d}}}}}
status:
  allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}
  capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}
""" for i in range(n)) + """---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
"""


PERF_TUNING = """\
apiVersion: kubescheduler.config.k8s.io/v1alpha1
kind: KubeSchedulerConfiguration
algorithmSource:
  provider: DefaultProvider

percentageOfNodesToScore: 50
"""


def test_perf_tuning_v1alpha1_percentage_of_nodes_to_score(tmp_path: pathlib.Path, capsys):
    """250 nodes: 50% → 125 feasible nodes are enough (≥ minFeasibleNodesToFind 100); without the
    configuration the adaptive percentage is 50 - 250/125 = 48% → 120."""
    (tmp_path / "cluster.yaml").write_text(_nodes(250))
    (tmp_path / "sched.yaml").write_text(PERF_TUNING)
    evaluated = {}
    for label, extra in (("tuned", ["--config", str(tmp_path / "sched.yaml")]), ("default", [])):
        assert main(["run", str(tmp_path / "cluster.yaml"), "--format", "json", *extra]) == 0
        (cycle,) = json.loads(capsys.readouterr().out)["cycles"]
        evaluated[label] = (cycle["result"], cycle["evaluatedNodes"], cycle["feasibleNodes"])
    assert evaluated == {"tuned": ("scheduled", 125, 125), "default": ("scheduled", 120, 120)}
