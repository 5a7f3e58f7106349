"""Conformance adapters for the generic scheduler: Schedule and numFeasibleNodesToFind.

Upstream: pkg/scheduler/core/generic_scheduler_test.go (TestGenericScheduler,
TestFindFitAllError, TestFindFitSomeError, TestFindFitPredicateCallCounts, TestZeroRequest, TestSelectHost,
TestNumFeasibleNodesToFind, TestFairEvaluationForNodes), translated to
core_schedule.yaml and core_num_feasible_nodes.yaml.

Harness (the files' notes): the cache holds the case's nodes (each labelled
``hostname=<name>`` for Schedule cases, as upstream builds them) and existing pods;
the PVC lister comes from ``objects``; the scheduling queue holds ``args.nominated_pods``;
the rng is ``random.Random(0)``. TestZeroRequest (``call: prioritizeNodes``) builds its snapshot
directly from the pods, as upstream does, so its pods carry no UID. ``selected_node_in`` is returned as the expected list when
the chosen host is in it, else as ``[host]``; ``per_iteration`` is returned as the expected
sentence when every iteration holds, else as the first broken iteration.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Optional

from kubesched.conformance import register
from kubesched.conformance._harness import (
    as_object, listers_of, nodes_of, pod_of, pods_of, snapshot_of, status_dict)
from kubesched.conformance.fakes_core import build_framework
from kubesched.scheduler.core.generic_scheduler import FitError, GenericScheduler
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import NodeScore
from kubesched.scheduler.internal.cache.cache import SchedulerCache
from kubesched.scheduler.nodeinfo.node_info import PodKeyError
from kubesched.scheduler.internal.cache.snapshot import new_empty_snapshot
from kubesched.scheduler.internal.queue.scheduling_queue import PriorityQueue


class _ZeroClock:
    def now(self) -> float:
        return 0.0


class _Profile:
    """``profile.Profile`` as the tests build it: just the framework."""

    def __init__(self, framework: Any) -> None:
        self.framework = framework


def _error_dict(exc: BaseException) -> dict:
    if isinstance(exc, FitError):
        return {"type": "FitError", "message": str(exc), "numAllNodes": exc.num_all_nodes,
                "filteredNodesStatuses": {n: status_dict(s) for n, s in exc.filtered_nodes_statuses.items()}}
    return {"type": "error", "message": str(exc)}


def _labelled(nodes: list) -> list:
    """TestGenericScheduler labels every node ``hostname=<name>``."""
    return [replace(n, metadata=replace(n.metadata, labels={**n.metadata.labels, "hostname": n.metadata.name}))
            for n in nodes]


def _scheduler(case: dict, *, label_nodes: bool) -> tuple[GenericScheduler, Any]:
    args = case.get("args") or {}
    clock = _ZeroClock()
    cache = SchedulerCache(0.0, clock=clock)
    pods = pods_of(case)
    for pod in pods:
        try:
            cache.add_pod(pod)
        except PodKeyError:
            pass  # upstream ignores AddPod's error (a pod without UID has no cache key)
    nodes = nodes_of(case)
    for node in (_labelled(nodes) if label_nodes else nodes):
        cache.add_node(node)
    snapshot = new_empty_snapshot()
    built = build_framework(args.get("plugins") or {}, snapshot_shared_lister=snapshot)
    queue = PriorityQueue(clock=clock)
    for entry in args.get("nominated_pods") or []:
        queue.update_nominated_pod_for_node(as_object(entry["pod"], "Pod"), entry["node"])
    sched = GenericScheduler(cache, snapshot, [], int(args.get("percentageOfNodesToScore", 0)), False,
                             listers_of(case), random.Random(0), scheduling_queue=queue)
    return sched, built


def _selected(expect: dict, host: str) -> list:
    wanted = expect.get("selected_node_in") or []
    return list(wanted) if host in wanted else [host]


@register("core.Schedule")
def core_schedule(case: dict, doc: dict) -> dict:
    call = (case.get("args") or {}).get("call", "Schedule")
    if call == "selectHost":
        return _select_host(case)
    if call == "findNodesThatFitPod":
        return _find_nodes_that_fit_pod(case)
    if call == "prioritizeNodes":
        return _prioritize_nodes(case)
    sched, built = _scheduler(case, label_nodes=True)
    try:
        result = sched.schedule(_Profile(built.framework), CycleState(), pod_of(case))
    except Exception as exc:  # noqa: BLE001 - the error is the outcome under test
        return {"error": _error_dict(exc)}
    return {"selected_node_in": _selected(case["expect"], result.suggested_host),
            "evaluated_nodes": result.evaluated_nodes, "feasible_nodes": result.feasible_nodes}


def _find_nodes_that_fit_pod(case: dict) -> dict:
    sched, built = _scheduler(case, label_nodes=False)
    sched.snapshot()
    out: dict[str, Any] = {}
    try:
        filtered, statuses = sched.find_nodes_that_fit_pod(_Profile(built.framework), CycleState(), pod_of(case))
        out["filteredNodesStatuses"] = {n: status_dict(s) for n, s in statuses.items()}
        out["filtered_nodes"] = [n.metadata.name for n in filtered]
    except Exception as exc:  # noqa: BLE001
        out["error"] = _error_dict(exc)
    fake = built.instances.get("FakeFilter")
    if fake is not None:
        out["filter_call_count"] = fake.num_filter_called
    return out


def _prioritize_nodes(case: dict) -> dict:
    """TestZeroRequest: a snapshot built directly from the pods (no cache, so pods need no UID),
    findNodesThatFitPod, RunPreScorePlugins, then prioritizeNodes' weighted sum per node."""
    nodes = nodes_of(case)
    snapshot = snapshot_of(case)
    listers = listers_of(case)
    built = build_framework(case["args"]["plugins"], snapshot_shared_lister=snapshot, listers=listers)
    sched = GenericScheduler(None, snapshot, [], 0, False, listers, random.Random(0))
    prof, state, pod = _Profile(built.framework), CycleState(), pod_of(case)
    sched.find_nodes_that_fit_pod(prof, state, pod)
    prof.framework.run_pre_score_plugins(state, pod, nodes)
    return {"scores": {s.name: s.score for s in sched.prioritize_nodes(prof, state, pod, nodes)}}


def _select_host(case: dict) -> dict:
    scores = [NodeScore(e["name"], int(e["score"])) for e in case["args"]["nodeScoreList"]]
    sched = GenericScheduler(None, new_empty_snapshot(), rng=random.Random(0))
    try:
        host = sched.select_host(scores)
    except Exception as exc:  # noqa: BLE001
        return {"error": _error_dict(exc)}
    return {"selected_node_in": _selected(case["expect"], host)}


@register("core.numFeasibleNodesToFind")
def core_num_feasible_nodes(case: dict, doc: dict) -> dict:
    args = case["args"]
    percentage, num_all = int(args.get("percentageOfNodesToScore", 0)), int(args["numAllNodes"])
    sched = GenericScheduler(None, new_empty_snapshot(), percentage_of_nodes_to_score=percentage)
    out: dict[str, Any] = {"numNodes": sched.num_feasible_nodes_to_find(num_all)}
    if "iterations" in args:
        out["per_iteration"] = _fair_evaluation(case, percentage, num_all, int(args["iterations"]))
    return out


def _fair_evaluation(case: dict, percentage: int, num_all: int, iterations: int) -> Optional[str]:
    """TestFairEvaluationForNodes: each cycle returns numNodes nodes and moves the start index on."""
    nodes = [{"metadata": {"name": str(i)}} for i in range(num_all)]
    fixture = {"nodes": nodes, "args": {"percentageOfNodesToScore": percentage,
                                        "plugins": {"queueSort": "PrioritySort", "bind": "DefaultBinder",
                                                    **(case["args"].get("plugins") or {})}}}
    sched, built = _scheduler(fixture, label_nodes=False)
    sched.snapshot()
    want = sched.num_feasible_nodes_to_find(num_all)
    for i in range(iterations):
        filtered, _ = sched.find_nodes_that_fit_pod(_Profile(built.framework), CycleState(), pod_of({}))
        if len(filtered) != want or sched.next_start_node_index != (i + 1) * want % num_all:
            return (f"iteration {i}: {len(filtered)} nodes, nextStartNodeIndex {sched.next_start_node_index}")
    return case["expect"].get("per_iteration")
