"""Node-resource plugins: Fit reasons and order, the allocation scorers, RequestedToCapacityRatio's
arithmetic, NodeResourceLimits' PreScore state, and Go integer/float semantics.

Upstream: noderesources/{fit,resource_allocation,least_allocated,most_allocated,
balanced_allocation,requested_to_capacity_ratio,resource_limits}.go (v1.18.5).
"""

from __future__ import annotations

import pytest

from kubesched import features
from kubesched.scheduler.framework.plugins.noderesources import (
    balanced_allocation, fit, least_allocated, most_allocated, requested_to_capacity_ratio as rtcr,
    resource_limits)
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import (
    calculate_pod_resource_request, go_div)
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code

from tests.scheduler.framework.plugins.plugin_builders import container, handle, node, node_info, pod

ALLOC = {"cpu": "1", "memory": "1000", "ephemeral-storage": "100", "pods": "2", "example.com/gpu": "2"}


def _fit_reasons(incoming, info, gates=None) -> tuple:
    with features.override(gates):
        plugin = fit.new(None, None)
        state = CycleState()
        plugin.pre_filter(state, incoming)
        status = plugin.filter(state, incoming, info)
    return None if status is None else (status.code, status.reasons)


FIT_CASES = [
    ("fits", {"cpu": "500m", "memory": "500"}, [], None),
    ("every reason in upstream order",
     {"cpu": "2", "memory": "2000", "ephemeral-storage": "200", "example.com/gpu": "3"},
     [{"cpu": "1m"}, {"cpu": "1m"}],
     ("Too many pods", "Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage",
      "Insufficient example.com/gpu")),
    ("too many pods even with an empty request", {}, [{}, {}], ("Too many pods",)),
    ("zero scalar request is still compared", {"example.com/other": "0"}, [], None),
    ("used resources count", {"cpu": "600m"}, [{"cpu": "500m"}], ("Insufficient cpu",)),
]


@pytest.mark.parametrize("name,requests,existing,want", FIT_CASES, ids=[c[0] for c in FIT_CASES])
def test_fit_reasons(name, requests, existing, want) -> None:
    pods = [pod({"containers": [container(requests=r)], "nodeName": "n1"}, name=f"e{i}", uid=f"u{i}")
            for i, r in enumerate(existing)]
    info = node_info(node(allocatable=ALLOC), *pods)
    assert _fit_reasons(pod({"containers": [container(requests=requests)]}), info) == (
        None if want is None else (Code.UNSCHEDULABLE, want))


def test_fits_helper_reports_amounts() -> None:
    info = node_info(node(allocatable=ALLOC), pod({"containers": [container(requests={"cpu": "300m"})]}))
    got = fit.fits(pod({"containers": [container(requests={"cpu": "800m"})]}), info)
    assert got == [fit.InsufficientResource("cpu", "Insufficient cpu", 800, 300, 1000)]


def test_fit_overhead_and_gate() -> None:
    incoming = pod({"containers": [container(requests={"memory": "900"})], "overhead": {"memory": "200"}})
    info = node_info(node(allocatable=ALLOC))
    assert _fit_reasons(incoming, info) == (Code.UNSCHEDULABLE, ("Insufficient memory",))
    assert _fit_reasons(incoming, info, {"PodOverhead": False}) is None


def test_fit_ephemeral_storage_with_isolation_gate_off_v1185() -> None:
    """v1.18.5: Resource.Add skips ephemeral-storage with the gate off, SetMaxResource does not."""
    gates = {"LocalStorageCapacityIsolation": False}
    regular = pod({"containers": [container(requests={"ephemeral-storage": "500"})]})
    init = pod({"containers": [container()], "initContainers": [container("i", {"ephemeral-storage": "500"})]})
    with features.override(gates):
        info = node_info(node(allocatable={**ALLOC, "ephemeral-storage": "100"}))
    assert _fit_reasons(regular, info, gates) is None
    assert _fit_reasons(init, info, gates) == (Code.UNSCHEDULABLE, ("Insufficient ephemeral-storage",))


def test_fit_filter_without_prefilter() -> None:
    status = fit.new(None, None).filter(CycleState(), pod(), node_info(node(allocatable=ALLOC)))
    assert (status.code, status.reasons) == (
        Code.ERROR, ('error reading "PreFilterNodeResourcesFit" from cycleState: not found',))


def test_compute_pod_resource_request_max_of_init_containers() -> None:
    p = pod({"containers": [container("a", {"cpu": "2", "memory": "1G"}), container("b", {"cpu": "1", "memory": "1G"})],
             "initContainers": [container("i1", {"cpu": "2", "memory": "1G"}),
                                container("i2", {"cpu": "2", "memory": "3G"})]})
    r = fit.compute_pod_resource_request(p)
    assert (r.milli_cpu, r.memory) == (3000, 3_000_000_000)


# ---------------------------------------------------------------- shared scorer

def test_pod_request_non_zero_defaults_and_overhead_quirk() -> None:
    p = pod({"containers": [container("a"), container("b", {"cpu": "0"})], "overhead": {"cpu": "250m"}})
    # 100m default for "a", explicit 0 for "b", overhead cpu counted by Value(): 250m -> 1
    assert calculate_pod_resource_request(p, "cpu") == 101
    assert calculate_pod_resource_request(p, "memory") == 2 * 200 * 1024 * 1024  # both default
    assert calculate_pod_resource_request(pod(), "cpu") == 0  # no containers, no defaults


SCORER_CASES = [
    # (plugin module, node cpu/mem allocatable, pod cpu/mem request, want)
    (least_allocated, ("4", "10000"), ("1", "2500"), 75),
    (least_allocated, ("4", "10000"), ("5", "2500"), 37),   # cpu over capacity scores 0
    (most_allocated, ("4", "10000"), ("1", "2500"), 25),
    (most_allocated, ("4", "10000"), ("3", "1000"), 42),    # (75 + 10) / 2 truncated
    (balanced_allocation, ("10", "20000"), ("6", "5000"), 65),  # |0.6 - 0.25| -> 65
    (balanced_allocation, ("4", "10000"), ("4", "10"), 0),      # a full resource scores 0
]


@pytest.mark.parametrize("module,alloc,req,want", SCORER_CASES,
                         ids=[f"{m.NAME}-{i}" for i, (m, *_rest) in enumerate(SCORER_CASES)])
def test_scorers(module, alloc, req, want) -> None:
    n = node(allocatable={"cpu": alloc[0], "memory": alloc[1]})
    plugin = module.new(None, handle([n]))
    p = pod({"containers": [container(requests={"cpu": req[0], "memory": req[1]})]})
    assert plugin.score(CycleState(), p, "n1") == (want, None)


@pytest.mark.parametrize("module,suffix", [
    (least_allocated, ""), (balanced_allocation, ""), (most_allocated, ", node is nil: true"),
    (resource_limits, ", node is nil: true")])
def test_scorer_unknown_node(module, suffix) -> None:
    plugin = module.new(None, handle([node()]))
    score, status = plugin.score(CycleState(), pod(), "zz")
    assert (score, status.code, status.reasons) == (
        0, Code.ERROR, (f'getting node "zz" from Snapshot: nodeinfo not found for node name "zz"{suffix}',))


def test_scorer_node_info_without_node() -> None:
    stray = pod({"containers": [], "nodeName": "ghost"}, uid="u1")
    plugin = least_allocated.new(None, handle([node()], [stray]))
    score, status = plugin.score(CycleState(), pod(), "ghost")
    assert (score, status.code, status.reasons) == (0, Code.ERROR, ("node not found",))


def test_balanced_allocation_volume_variance() -> None:
    n = node(allocatable={"cpu": "4", "memory": "10000"})
    h = handle([n])
    info = h.snapshot.node_infos().get("n1")
    info.transient_info.allocatable_volumes_count, info.transient_info.requested_volumes = 4, 1
    p = pod({"containers": [container(requests={"cpu": "2", "memory": "5000"})]})
    plugin = balanced_allocation.new(None, h)
    assert plugin.score(CycleState(), p, "n1") == (100, None)  # gate off: |0.5 - 0.5|
    with features.override({"BalanceAttachedNodeVolumes": True}):
        # fractions 0.5, 0.5, 0.25: mean 5/12, variance 1/72 -> int((1 - 1/72) * 100) = 98
        assert plugin.score(CycleState(), p, "n1") == (98, None)


# ---------------------------------------------------------------- RequestedToCapacityRatio

def _shape(*points: tuple[int, int]) -> list:
    return [rtcr.FunctionShapePoint(u, s) for u, s in points]


@pytest.mark.parametrize("shape,p,want", [
    (_shape((0, 100), (30, 0)), 10, 67),    # 100 + trunc(-1000 / 30): truncation, not floor (66)
    (_shape((10, 10), (90, 90)), 5, 10),    # below the first point
    (_shape((10, 10), (90, 90)), 95, 90),   # beyond the last point
    (_shape((10, 10), (90, 90)), 50, 50),
])
def test_broken_linear_function(shape, p, want) -> None:
    assert rtcr.build_broken_linear_function(shape)(p) == want


@pytest.mark.parametrize("x,want", [(2.5, 3), (3.5, 4), (-2.5, -3), (2.4999, 2), (0.5, 1)])
def test_go_round_half_away_from_zero(x, want) -> None:
    assert rtcr.go_round(x) == want


@pytest.mark.parametrize("a,b,want", [(7, 2, 3), (-7, 2, -3), (7, -2, -3), (-7, -2, 3), (0, 5, 0)])
def test_go_div_truncates(a, b, want) -> None:
    assert go_div(a, b) == want


def test_rtcr_mean_rounds_half_up_and_skips_zero_scores() -> None:
    # cpu utilization 25% -> 25; memory 0% -> 0 (excluded); extended resource absent -> f(100) = 100
    scorer = rtcr.build_requested_to_capacity_ratio_scorer_function(
        _shape((0, 0), (100, 100)), {"cpu": 1, "memory": 1, "example.com/x": 2})
    assert scorer({"cpu": 25, "memory": 0}, {"cpu": 100, "memory": 100}, False, 0, 0) == 75  # (25 + 200) / 3
    scorer = rtcr.build_requested_to_capacity_ratio_scorer_function(_shape((0, 0), (100, 100)),
                                                                    {"cpu": 1, "memory": 1})
    assert scorer({"cpu": 25, "memory": 30}, {"cpu": 100, "memory": 100}, False, 0, 0) == 28  # 27.5 -> 28
    assert scorer({"cpu": 0, "memory": 0}, {"cpu": 100, "memory": 100}, False, 0, 0) == 0


# ---------------------------------------------------------------- NodeResourceLimits

def test_resource_limits_prescore_state_and_score() -> None:
    n = node(allocatable={"cpu": "1", "memory": "1000"})
    plugin = resource_limits.new(None, handle([n]))
    p = pod({"containers": [container("a", limits={"cpu": "500m"}), container("b", limits={"cpu": "300m"})],
             "initContainers": [container("i", limits={"cpu": "900m", "memory": "2000"})]})
    state = CycleState()
    assert plugin.pre_score(state, p, [n]) is None
    limits = state.read("PreScoreNodeResourceLimits").pod_resource_request
    assert (limits.milli_cpu, limits.memory) == (900, 2000)
    assert plugin.score(state, p, "n1") == (1, None)  # cpu fits, memory does not: still 1


def test_resource_limits_prescore_without_nodes() -> None:
    plugin = resource_limits.new(None, handle([node()]))
    state = CycleState()
    assert plugin.pre_score(state, pod(), []) is None
    score, status = plugin.score(state, pod(), "n1")
    assert (score, status.code, status.reasons) == (
        0, Code.ERROR, ('Error reading "PreScoreNodeResourceLimits" from cycleState: not found',))


@pytest.mark.parametrize("limit,allocatable,want", [(0, 5, 0), (5, 0, 0), (5, 5, 1), (6, 5, 0)])
def test_resource_limits_compute_score(limit, allocatable, want) -> None:
    assert resource_limits.compute_score(limit, allocatable) == want
