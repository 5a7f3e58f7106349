"""Conformance adapters for the group-A in-tree plugins (node resources, names, ports, taints,
node affinity, avoid-pods, labels, image locality).

Upstream: the *_test.go tables under pkg/scheduler/framework/plugins/{noderesources,nodename,
nodeports,nodeunschedulable,tainttoleration,nodeaffinity,nodepreferavoidpods,nodelabel,
imagelocality} (v1.18), translated to the vector files named after each plugin.

Harness (each file's ``notes``): the snapshot is ``Snapshot.new(existing_pods, nodes)`` and is
also the handle's shared lister. Filter cases run PreFilter once on a fresh CycleState (unless
``skip_prefilter``), then Filter on every node in the case's order. Score cases run PreScore once
over all nodes (unless ``skip_prescore``), Score per node and, for plugins that have one,
NormalizeScore over the whole list. ``filter_without_node`` calls Filter on a NodeInfo without
a Node; ``score_unknown_node`` calls Score for a node name the snapshot does not hold.
``feature_gates`` are applied around the whole case.

Unit cases (``function`` key) call the plugin's internal helper and return the outcome under
the case's own result key: ``expect`` (a value), ``expect_error`` (message) or ``points``.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from kubesched import features
from kubesched.conformance import register
from kubesched.conformance._harness import nodes_of, pod_of, pods_of, status_dict
from kubesched.scheduler.framework.plugins.imagelocality import image_locality
from kubesched.scheduler.framework.plugins.nodeaffinity import node_affinity
from kubesched.scheduler.framework.plugins.nodelabel import node_label
from kubesched.scheduler.framework.plugins.nodename import node_name
from kubesched.scheduler.framework.plugins.nodeports import node_ports
from kubesched.scheduler.framework.plugins.nodepreferavoidpods import node_prefer_avoid_pods
from kubesched.scheduler.framework.plugins.noderesources import (
    balanced_allocation, fit, least_allocated, most_allocated, requested_to_capacity_ratio,
    resource_limits)
from kubesched.scheduler.framework.plugins.nodeunschedulable import node_unschedulable
from kubesched.scheduler.framework.plugins.tainttoleration import taint_toleration
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import NodeScore
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

FACTORIES: dict[str, Callable[[Optional[dict], Any], Any]] = {
    fit.NAME: fit.new,
    least_allocated.NAME: least_allocated.new,
    most_allocated.NAME: most_allocated.new,
    balanced_allocation.NAME: balanced_allocation.new,
    requested_to_capacity_ratio.NAME: requested_to_capacity_ratio.new,
    resource_limits.NAME: resource_limits.new,
    node_name.NAME: node_name.new,
    node_ports.NAME: node_ports.new,
    node_unschedulable.NAME: node_unschedulable.new,
    taint_toleration.NAME: taint_toleration.new,
    node_affinity.NAME: node_affinity.new,
    node_prefer_avoid_pods.NAME: node_prefer_avoid_pods.new,
    node_label.NAME: node_label.new,
    image_locality.NAME: image_locality.new,
}


class SnapshotHandle:
    """The part of FrameworkHandle these plugins use: the snapshot as shared lister."""

    def __init__(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot

    def snapshot_shared_lister(self) -> Snapshot:
        return self._snapshot




def snapshot_of(case: dict) -> Snapshot:
    return Snapshot.new(pods_of(case), nodes_of(case))


@register(*FACTORIES)
def plugins_a(case: dict, doc: dict) -> dict:
    with features.override(case.get("feature_gates")):
        if "function" in case:
            return _unit(case, doc["plugin"])
        return _run(case, doc["plugin"])


def _run(case: dict, name: str) -> dict:
    expect = case["expect"]
    snapshot = snapshot_of(case)
    _preload_transient_info(snapshot, case.get("node_transient_info") or {})
    try:
        plugin = FACTORIES[name](case.get("args"), SnapshotHandle(snapshot))
    except ValueError:
        return {"init_error": True}
    got: dict = {"init_error": False}
    pod = pod_of(case)
    if "filter" in expect or "prefilter" in expect:
        got.update(_filter_phase(plugin, case, pod, snapshot))
    if "scores" in expect or "prescore" in expect or "score_status" in expect:
        got.update(_score_phase(plugin, case, pod, snapshot))
    if "filter_without_node" in expect:
        got["filter_without_node"] = status_dict(plugin.filter(CycleState(), pod, NodeInfo()))
    if "score_unknown_node" in expect:
        node_name = expect["score_unknown_node"]["node"]
        _, status = plugin.score(CycleState(), pod, node_name)
        got["score_unknown_node"] = {"node": node_name, **status_dict(status)}
    if "insufficient_resources" in expect:
        got["insufficient_resources"] = {
            info.node_name(): [_insufficient(r) for r in fit.fits(pod, info, plugin.ignored_resources)]
            for info in snapshot.node_infos().list() if info.node is not None}
    return got


def _preload_transient_info(snapshot: Snapshot, per_node: dict) -> None:
    for node, values in per_node.items():
        info = snapshot.node_infos().get(node).transient_info
        info.allocatable_volumes_count = values.get("allocatableVolumesCount", 0)
        info.requested_volumes = values.get("requestedVolumes", 0)


def _filter_phase(plugin: Any, case: dict, pod: Any, snapshot: Snapshot) -> dict:
    got: dict = {}
    state = CycleState()
    if hasattr(plugin, "pre_filter") and not case.get("skip_prefilter"):
        got["prefilter"] = status_dict(plugin.pre_filter(state, pod))
    got["filter"] = {info.node_name(): status_dict(plugin.filter(state, pod, info))
                     for info in snapshot.node_infos().list() if info.node is not None}
    return got


def _score_phase(plugin: Any, case: dict, pod: Any, snapshot: Snapshot) -> dict:
    got: dict = {}
    state = CycleState()
    nodes = nodes_of(case)
    if hasattr(plugin, "pre_score") and not case.get("skip_prescore"):
        got["prescore"] = status_dict(plugin.pre_score(state, pod, nodes))
    scores: list[NodeScore] = []
    failures: dict = {}
    for node in nodes:
        score, status = plugin.score(state, pod, node.metadata.name)
        scores.append(NodeScore(node.metadata.name, score))
        if status is not None:
            failures[node.metadata.name] = status_dict(status)
    extensions = plugin.score_extensions()
    if extensions is not None and not failures:
        normalize = extensions.normalize_score(state, pod, scores)
        if normalize is not None:
            got["normalize"] = status_dict(normalize)
    got["scores"] = {s.name: s.score for s in scores}
    got["score_status"] = failures
    return got


def _insufficient(r: fit.InsufficientResource) -> dict:
    return {"resourceName": r.resource_name, "reason": r.reason, "requested": r.requested,
            "used": r.used, "capacity": r.capacity}


# ---------------------------------------------------------------- unit cases (internal helpers)


def _unit(case: dict, plugin_name: str) -> dict:
    function = case["function"]
    if function == "normalizedImageName":
        return {"expect": image_locality.normalized_image_name(case["input"])}
    if function == "getContainerPorts":
        ports = node_ports.get_container_ports(*pods_of(case, "pods"))
        return {"expect": [_port_dict(p) for p in ports]}
    if function in ("validateFunctionShape", "validateResourceWeightMap", "buildBrokenLinearFunction"):
        return _rtcr_unit(case, function)
    raise LookupError(f"no unit function {function!r} for {plugin_name}")


def _port_dict(port: Any) -> dict:
    out = {"containerPort": port.container_port, "protocol": port.protocol}
    if port.host_port:
        out["hostPort"] = port.host_port
    if port.host_ip:
        out["hostIP"] = port.host_ip
    if port.name:
        out["name"] = port.name
    return out


def _rtcr_unit(case: dict, function: str) -> dict:
    rtcr = requested_to_capacity_ratio
    shape = [rtcr.FunctionShapePoint(p["utilization"], p["score"]) for p in case.get("shape") or []]
    if function == "buildBrokenLinearFunction":
        f = rtcr.build_broken_linear_function(shape)
        return {"points": [{"p": pt["p"], "expected": f(pt["p"])} for pt in case["points"]]}
    try:
        if function == "validateFunctionShape":
            rtcr.validate_function_shape(shape)
        else:
            rtcr.validate_resource_weight_map({r["name"]: r["weight"] for r in case.get("resources") or []})
    except ValueError as err:
        return {"expect_error": str(err)}
    return {"expect_error": None}
