"""Issue 13 item 1: pods queued at the same simulated instant leave activeQ in arrival order.

Upstream stamps every PodInfo with ``clock.Now()`` (strictly increasing wall-clock stamps) and
PrioritySort breaks priority ties with them; kubesched stamps (simulated time, queue sequence).
"""

from __future__ import annotations

from kubesched.cli.run import report
from kubesched.sim import Simulation
from tests.sim.clusters import node, scenario

CREATE = ("{at: %s, create: {apiVersion: v1, kind: Pod, metadata: {name: %s, namespace: default}, "
          "spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: %s}}}]}}}")


def cycles(text: str) -> list[tuple[int, float, str, str, str | None]]:
    sim = Simulation.from_yaml(text)
    sim.run_until_idle()
    return [(c["cycle"], c["time"], c["pod"], c["result"], c["node"]) for c in report(sim)["cycles"]]


def test_six_pods_created_at_one_instant_are_scheduled_in_creation_order():
    names = ("zz", "mm", "aa", "yy", "bb", "xx")  # not in name order: the order is the arrival
    text = node("n1", cpu="4") + scenario(*(CREATE % (1, name, "100m") for name in names))
    assert cycles(text) == [(i + 1, 1.0, f"default/{name}", "scheduled", "n1") for i, name in enumerate(names)]


def test_pods_that_fail_together_are_moved_back_and_retried_in_their_order():
    names = ("big-c", "big-a", "big-b")
    node_n2 = ("{at: 5, create: {apiVersion: v1, kind: Node, metadata: {name: n2, labels: "
               "{kubernetes.io/hostname: n2}}, status: {capacity: {cpu: '8', memory: 8Gi, pods: '110'}}}}")
    text = node("n1", cpu="1") + scenario(*(CREATE % (1, name, "2") for name in names), node_n2)
    failed = [(i + 1, 1.0, f"default/{name}", "unschedulable", None) for i, name in enumerate(names)]
    retried = [(i + 4, 5.0, f"default/{name}", "scheduled", "n2") for i, name in enumerate(names)]
    assert cycles(text) == failed + retried


def test_pods_present_at_start_arrive_in_list_order():
    """The informer's initial List returns pods sorted by key (etcd), so that is their order."""
    text = node("n1", cpu="4") + "".join(
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\n"
        "spec: {containers: [{name: c, image: nginx}]}\n" for name in ("c", "a", "b"))
    assert [(c[0], c[1], c[2]) for c in cycles(text)] == [(1, 0.0, "default/a"), (2, 0.0, "default/b"),
                                                          (3, 0.0, "default/c")]
