"""Scenarios on the sim clock through the real API server, informers, queue, cache and plugins."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Cluster, Recorder, node, pod


def small_cluster() -> Cluster:
    """Pods arrive one per second (equal-priority pods created together pop in heap order)."""
    cluster = Cluster(node("small", cpu="1"), node("medium", cpu="2"), node("large", cpu="4", labels={"disk": "ssd"}))
    for i, p in enumerate([pod("big", cpu="3"), pod("mid", cpu="1500m"), pod("ssd", node_selector={"disk": "ssd"}),
                           pod("tiny", cpu="100m")]):
        cluster.at(float(i), p)
    return cluster


def test_small_cluster_binds_pods_to_the_expected_nodes():
    cluster = small_cluster().run(until=5.0)
    assert {name: cluster.node_of(name) for name in ("big", "mid", "ssd", "tiny")} == {
        "big": "large", "mid": "medium", "ssd": "large", "tiny": "small"}
    scheduled = [(e[3], e[6]) for e in cluster.events() if e[5] == "Scheduled"]
    assert scheduled == [("big", "Successfully assigned default/big to large"),
                         ("mid", "Successfully assigned default/mid to medium"),
                         ("ssd", "Successfully assigned default/ssd to large"),
                         ("tiny", "Successfully assigned default/tiny to small")]
    assert [e[0] for e in cluster.events()] == [0.0, 1.0, 2.0, 3.0]
    assert {e[7] for e in cluster.events()} == {"default-scheduler"}
    assert cluster.get("tiny").status.phase == "Running"  # the kubelet started it


def test_unschedulable_pod_is_scheduled_once_a_node_is_added():
    cluster = Cluster(node("n1", cpu="1"), pod("p", cpu="2"))
    cluster.at(5.0, node("n2", cpu="4"))
    cluster.run(until=10.0)
    assert cluster.node_of("p") == "n2"
    assert cluster.events_of("p") == [
        (0.0, 0.0, 1, "p", "Warning", "FailedScheduling", "0/1 nodes are available: 1 Insufficient cpu.",
         "default-scheduler"),
        (5.0, 5.0, 1, "p", "Normal", "Scheduled", "Successfully assigned default/p to n2", "default-scheduler")]
    conditions = {c.type: (c.status, c.reason) for c in cluster.get("p").status.conditions}
    assert conditions["PodScheduled"] == ("True", "")


def test_unschedulable_pod_without_cluster_change_is_retried_by_the_leftover_flush():
    cluster = Cluster(node("n1", cpu="1"), pod("p", cpu="2")).run(until=200.0)
    failed = cluster.events_of("p", "FailedScheduling")
    assert [(e[0], e[1], e[2]) for e in failed] == [(0.0, 180.0, 3)]  # t0, t0+90 s, t0+180 s


def test_two_hundred_nodes_first_cycle_evaluates_100_and_the_next_starts_at_100():
    nodes = [node(f"n{i:03d}") for i in range(200)]
    observer = Recorder(wanted=("filter_run", "schedule_result"))
    cluster = Cluster(*nodes, pod("a"), pod("b"), observer=observer).run(until=1.0)
    counts = observer.of("filter_run")
    assert [(len(c["nodes"]), c["num_nodes_to_find"], c["start_index"], c["visited"]) for c in counts] == [
        (200, 100, 0, 100), (200, 100, 100, 100)]
    assert [r["evaluated_nodes"] for r in observer.of("schedule_result")] == [100, 100]
    assert cluster.sched.algorithm.next_start_node_index == 0
    assert cluster.node_of("a") and cluster.node_of("b")


@pytest.mark.parametrize("scenario", [small_cluster], ids=["small-cluster"])
def test_same_inputs_same_events(scenario):
    assert scenario().run(until=5.0).events() == scenario().run(until=5.0).events()
