"""kubesched.explain.explain_pod on real runs: v1.18.5 words per node and in the FitError summary."""

from __future__ import annotations

from collections import Counter

import pytest

from kubesched.explain import explain_pod, render, sentence
from kubesched.explain.model import NOT_VISITED, PASSED, REJECTED
from tests.cli.clusters import AFFINITY_REASON, TAINT_REASON, THREE_NODES
from tests.cli.conftest import SAMPLES, simulated


def explain(pod: str, node: str | None = None, source=THREE_NODES, with_state: bool = True):
    sim = simulated(source)
    return explain_pod(sim.trace[: sim.cursor], sim.state() if with_state else None, pod, node=node)


def fit_error(num_nodes: int, verdicts) -> str:
    """FitError.Error rebuilt from the per-node verdicts (sorted "count reason" parts)."""
    counts = Counter(reason for v in verdicts for reason in v.reasons)
    return f"0/{num_nodes} nodes are available: " + ", ".join(sorted(f"{n} {r}" for r, n in counts.items())) + "."


BLOCKED = [
    # pod, FitError message, {node: (plugin, reasons)}
    pytest.param("default/hungry",
                 f"0/3 nodes are available: 1 {TAINT_REASON}, 2 Insufficient cpu.",
                 {"big-node": ("NodeResourcesFit", ("Insufficient cpu",)),
                  "gpu-node": ("TaintToleration", (TAINT_REASON,)),
                  "small-node": ("NodeResourcesFit", ("Insufficient cpu",))}, id="resources-and-taint"),
    pytest.param("default/picky",
                 f"0/3 nodes are available: 3 {AFFINITY_REASON}.",
                 {n: ("NodeAffinity", (AFFINITY_REASON,)) for n in ("big-node", "gpu-node", "small-node")},
                 id="node-affinity"),
]


@pytest.mark.parametrize("pod, message, rejections", BLOCKED)
def test_pending_pod_summary_and_per_node_rejections(pod, message, rejections):
    e = explain(pod)
    assert e.found and e.result == "unschedulable"
    assert e.status.phase == "Pending" and e.status.node == ""
    assert e.message == message
    assert sentence(e) == f"Pod {pod} is Pending: {message}"
    assert {v.node: (v.plugin, v.reasons) for v in e.nodes} == rejections
    assert all(v.verdict == REJECTED for v in e.nodes)
    assert fit_error(e.num_all_nodes, e.nodes) == e.message   # the per-node reasons are the whole story
    lines = render(e).splitlines()
    assert f"  {message}" in lines
    for node, (plugin, reasons) in rejections.items():
        assert f"  {node:<10}  rejected by {plugin}: {', '.join(reasons)}" in lines


def test_rejected_node_lists_the_filters_it_passed_before_the_failing_one():
    gpu = explain("default/hungry").verdict("gpu-node")
    # NodeResourcesFit, NodePorts, NodeAffinity … run before TaintToleration in the default profile
    assert gpu.passed[:2] == ("NodeUnschedulable", "NodeResourcesFit")
    assert "TaintToleration" not in gpu.passed and gpu.code == "UnschedulableAndUnresolvable"


FOCUS = [
    ("default/hungry", "gpu-node",
     f"Not on gpu-node: Filter plugin TaintToleration rejected it: {TAINT_REASON}."),
    ("default/hungry", "small-node", "Not on small-node: Filter plugin NodeResourcesFit rejected it: Insufficient cpu."),
    ("default/picky", "big-node", f"Not on big-node: Filter plugin NodeAffinity rejected it: {AFFINITY_REASON}."),
    ("default/small", "gpu-node", f"Not on gpu-node: Filter plugin TaintToleration rejected it: {TAINT_REASON}."),
]


@pytest.mark.parametrize("pod, node, expected", FOCUS)
def test_why_not_this_node_in_one_sentence(pod, node, expected):
    e = explain(pod, node)
    assert sentence(e) == expected
    lines = render(e).splitlines()
    assert lines[0] == expected
    # --node narrows the Filter section to that node
    filter_lines = [line for line in lines if line.startswith("  ") and "rejected by" in line]
    assert len(filter_lines) == 1 and filter_lines[0].startswith(f"  {node}  rejected by")


def test_bound_pod_names_its_node_and_the_winning_scores():
    e = explain("default/small")
    assert (e.status.node, e.result) == ("small-node", "scheduled")
    assert e.status.phase in ("Bound", "Running")      # the kubelet starts it
    assert e.bind is not None and e.bind.node == "small-node" and e.bind.error is None
    assert e.pick.selected == "small-node" and e.pick.ties == ("small-node",)
    assert [s.node for s in e.scores] == ["small-node", "big-node"]     # gpu-node was filtered out
    winner = e.scores[0]
    assert winner.total == e.pick.max_score == sum(p.weighted for p in winner.plugins)
    by_plugin = {p.plugin: (p.raw, p.normalized, p.weight, p.weighted) for p in winner.plugins}
    # 500m of 2 cpu and 1Gi of 4Gi: both 75 % free; equal fractions balance perfectly
    assert by_plugin["NodeResourcesLeastAllocated"] == (75, 75, 1, 75)
    assert by_plugin["NodeResourcesBalancedAllocation"] == (100, 100, 1, 100)
    assert by_plugin["NodePreferAvoidPods"] == (100, 100, 10000, 1_000_000)
    loser = e.scores[1]
    common = sum(p.weighted for p, q in zip(winner.plugins, loser.plugins) if p.weighted == q.weighted)
    assert common == e.common_score() >= 1_000_000      # NodePreferAvoidPods' 100 x 10000 on both nodes
    assert sentence(e) == (f"Pod default/small is bound to node small-node at {e.bind.time:g}s: it passed all "
                            f"filters on small-node and had the highest score, {winner.total} "
                            f"({winner.total - common} without the {common} common to all 2 scored nodes).")
    text = render(e)
    assert f"  small-node: total {winner.total}" in text
    assert "NodeResourcesLeastAllocated      75 -> 75 x 1 = 75" in text
    assert f"Pick: highest score {winner.total} (no tie) -> small-node." in text
    assert f"Bind: small-node at {e.bind.time:g}s" in text


def test_feasible_node_that_lost_compares_its_score_with_the_winner():
    e = explain("default/small", "big-node")
    big, small = e.scores_of("big-node"), e.scores_of("small-node")
    assert big.total < small.total
    assert e.verdict("big-node").verdict == PASSED
    common = e.common_score()
    assert sentence(e) == (f"Not on big-node: it passed all filters but scored {big.total}, "
                            f"lower than small-node's {small.total} (without the {common} common to all 2 scored "
                            f"nodes: {big.total - common} vs {small.total - common}).")
    assert render(e).count(": total ") == 2     # the node asked about and the winner


def test_the_pods_own_node_in_focus():
    e = explain("default/small", "small-node")
    assert sentence(e).startswith("On small-node: it passed all filters on small-node and had the highest score, ")


def test_node_outside_the_cycle():
    cycle = explain("default/small").cycle
    assert sentence(explain("default/small", "elsewhere")) == (
        f"elsewhere was not one of the nodes of cycle {cycle} (the scheduler's snapshot did not hold it).")


def test_pod_created_on_a_node_was_never_scheduled():
    e = explain("default/resident")
    assert e.cycle is None and e.nodes == ()
    assert e.status.phase in ("Bound", "Running")
    assert sentence(e) == (f"Pod default/resident is {e.status.phase} on node big-node: it was created with "
                            "spec.nodeName set, so the scheduler never scheduled it.")


def test_unknown_pod():
    e = explain("default/ghost")
    assert not e.found
    assert sentence(e) == "Pod default/ghost is not in the cluster."


def test_status_from_the_trace_alone_matches_the_state():
    for pod in ("default/small", "default/hungry", "default/tolerant", "default/resident"):
        with_state, without = explain(pod), explain(pod, with_state=False)
        assert (without.status.node, without.status.nominated_node) == \
            (with_state.status.node, with_state.status.nominated_node)
        assert without.nodes == with_state.nodes and without.scores == with_state.scores


def test_sample_cluster_too_big_pod_is_blocked_by_cpu_everywhere():
    e = explain("default/too-big", source=SAMPLES / "default.yaml")
    assert e.status.phase == "Pending" and e.num_all_nodes == 6
    assert len(e.nodes) == 6
    assert all(v.plugin == "NodeResourcesFit" and "Insufficient cpu" in v.reasons for v in e.nodes)
    assert e.message == fit_error(6, e.nodes)
    assert "6 Insufficient cpu" in e.message


def test_preemption_nominated_node_and_victims():
    # critical-api (priority 100000) cannot fit; evicting from node-1 would break batch-pdb
    e = explain("default/critical-api", source=SAMPLES / "preemption.yaml")
    p = e.preemption
    assert p is not None and p.eligible and e.preemption_cycle is not None
    assert p.nominated_node == "node-2" and p.criterion == "MinPDBViolations"
    assert {c.node: c.pdb_violations for c in p.candidates} == {"node-1": 1, "node-2": 0}
    assert len(p.victims) == 1 and p.victims[0] in ("default/cache-1", "default/cache-2")
    assert f"nominated node node-2 (decided by MinPDBViolations); victims: {p.victims[0]}" in render(e)


def test_not_visited_nodes_are_reported_as_such():
    # 120 identical nodes, percentageOfNodesToScore 0 (adaptive: 50 % - 120/125 %, at least 100 nodes):
    # the filter walk stops after 100 feasible nodes, 20 nodes are never visited
    nodes = "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: n{i:03d}, labels: {{kubernetes.io/hostname: n{i:03d}}}}}
status: {{capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
""" for i in range(120))
    pod = """---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: c, image: nginx, resources: {requests: {cpu: 100m}}}
"""
    e = explain("default/p", source=nodes + pod)
    verdicts = Counter(v.verdict for v in e.nodes)
    assert verdicts == {PASSED: 100, NOT_VISITED: 20}
    unvisited = next(v.node for v in e.nodes if v.verdict == NOT_VISITED)
    assert sentence(explain("default/p", unvisited, source=nodes + pod)).startswith(
        f"Not on {unvisited}: it was not evaluated;")


def test_a_victim_says_who_preempted_it():
    victim = explain("default/critical-api", source=SAMPLES / "preemption.yaml").preemption.victims[0]
    e = explain(victim, source=SAMPLES / "preemption.yaml")
    assert e.status.phase == "Deleted"
    assert ("default/critical-api", "node-2") in [(pod, node) for pod, node, _ in e.preempted_by]
    assert sentence(e).startswith(f"Pod {victim} was deleted: it was preempted by default/critical-api on node "
                                   "node-2 at ")
    assert ("Normal", "Preempted", "Preempted by default/critical-api on node node-2") in [
        event[1:] for event in e.events]


TWINS = "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: twin-{i}, labels: {{kubernetes.io/hostname: twin-{i}}}}}
status: {{capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
""" for i in (1, 2)) + """---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: c, image: nginx, resources: {requests: {cpu: 100m}}}
"""


def test_identical_nodes_tie_and_select_host_picks_one():
    e = explain("default/p", source=TWINS)
    assert sorted(e.pick.ties) == ["twin-1", "twin-2"]
    winner = e.pick.selected
    loser = "twin-2" if winner == "twin-1" else "twin-1"
    assert e.status.node == winner
    assert e.scores_of(loser).total == e.scores_of(winner).total == e.pick.max_score
    assert sentence(explain("default/p", loser, source=TWINS)) == (
        f"Not on {loser}: it passed all filters and tied for the highest score {e.pick.max_score} with {winner}; "
        f"selectHost picked {winner}.")
    assert sentence(e).endswith(f"tied for the highest score {e.pick.max_score} with {loser}; "
                                 f"selectHost picked {winner}.")
    assert f"Pick: highest score {e.pick.max_score} (tie between " in render(e)
