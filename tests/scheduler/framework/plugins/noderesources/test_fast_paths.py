"""The node-resource hot paths (the cpu+memory scorers, fitsRequest) agree with upstream's forms.

Properties over any integers (zero and negative capacities and requests included) against
oracles written as v1.18.5 writes the formulas (maps, Go truncation), plus a table of the exact
scores the default profile computes for typical nodes.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.scheduler.framework.plugins.noderesources import (
    balanced_allocation, fit, least_allocated, most_allocated)
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import go_div
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.nodeinfo.node_info import NodeInfo, Resource
from tests.scheduler.framework.plugins.plugin_builders import container, handle, node, pod

_ints = st.one_of(st.integers(-5, 5), st.integers(-(2**40), 2**40))


def _trunc(x: Fraction) -> int:
    """Go's integer division: toward zero."""
    return int(x) if x >= 0 else -int(-x)


def _mean_oracle(requested: dict, allocatable: dict, fraction) -> int:
    """least/mostResourceScorer as v1.18.5 writes them: the per-resource score
    (0 past capacity, else trunc(fraction(req, cap) * 100)), then the weighted mean of memory and cpu."""
    total = 0
    for resource in ("memory", "cpu"):
        req, cap = requested[resource], allocatable[resource]
        total += 0 if cap == 0 or req > cap else _trunc(fraction(req, cap) * 100)
    return _trunc(Fraction(total, 2))


def _least_oracle(requested: dict, allocatable: dict) -> int:
    return _mean_oracle(requested, allocatable, lambda req, cap: Fraction(cap - req, cap))


def _most_oracle(requested: dict, allocatable: dict) -> int:
    return _mean_oracle(requested, allocatable, lambda req, cap: Fraction(req, cap))


def _balanced_oracle(requested: dict, allocatable: dict) -> int:
    """balancedResourceScorer without volumes, as v1.18.5 writes it."""
    def fraction(req: int, cap: int) -> float:
        return 1.0 if cap == 0 else float(req) / float(cap)
    cpu, memory = fraction(requested["cpu"], allocatable["cpu"]), fraction(requested["memory"], allocatable["memory"])
    if cpu >= 1 or memory >= 1:
        return 0
    return int((1 - abs(cpu - memory)) * float(100))


SCORERS = [
    pytest.param(least_allocated.least_resource_scorer, _least_oracle, id="least"),
    pytest.param(most_allocated.most_resource_scorer, _most_oracle, id="most"),
    pytest.param(balanced_allocation.balanced_resource_scorer, _balanced_oracle, id="balanced"),
]


@pytest.mark.parametrize("scorer, oracle", SCORERS)
@settings(max_examples=400, deadline=None)
@given(cpu=_ints, cpu_cap=_ints, memory=_ints, memory_cap=_ints)
def test_scorer_matches_upstreams_map_form(scorer, oracle, cpu: int, cpu_cap: int, memory: int,
                                           memory_cap: int) -> None:
    requested, allocatable = {"cpu": cpu, "memory": memory}, {"cpu": cpu_cap, "memory": memory_cap}
    assert scorer(cpu, cpu_cap, memory, memory_cap, False, 0, 0) == oracle(requested, allocatable)


@settings(max_examples=400, deadline=None)
@given(_ints, _ints.filter(lambda b: b != 0))
def test_go_div_truncates_toward_zero(a: int, b: int) -> None:
    exact = Fraction(a, b)
    assert go_div(a, b) == (int(exact) if exact >= 0 else -int(-exact))


# node allocatable cpu 4 / memory 32Gi (the benchmark node), pod 100m / 500Mi
GI, MI = 1024**3, 1024**2


@pytest.mark.parametrize("existing_cpu,existing_memory,least,balanced", [
    (0, 0, (97 + 98) // 2, int((1 - abs(100 / 4000 - 500 * MI / (32 * GI))) * 100)),
    (1000, 8 * GI, (72 + 73) // 2, int((1 - abs(1100 / 4000 - (8 * GI + 500 * MI) / (32 * GI))) * 100)),
    (3950, 0, (1 + 98) // 2, 0),  # cpu full: nothing to balance
])
def test_default_resources_scores(existing_cpu: int, existing_memory: int, least: int, balanced: int) -> None:
    n = node("n", allocatable={"cpu": "4", "memory": "32Gi", "pods": "110"})
    existing = pod({"nodeName": "n", "containers": [
        container(requests={"cpu": f"{existing_cpu}m", "memory": str(existing_memory)})]}, name="e", uid="e")
    incoming = pod({"containers": [container(requests={"cpu": "100m", "memory": "500Mi"})]})
    h = handle([n], [existing])
    assert least_allocated.new(None, h).score(CycleState(), incoming, "n") == (least, None)
    assert balanced_allocation.new(None, h).score(CycleState(), incoming, "n") == (balanced, None)


_small = st.integers(-3, 6)


def _fits_oracle(want: Resource, info: NodeInfo) -> list[str]:
    """fitsRequest's reasons as v1.18.5 writes the checks (no scalar resources)."""
    reasons = []
    alloc, used = info.allocatable_resource, info.requested_resource
    if len(info.pods) + 1 > alloc.allowed_pod_number:
        reasons.append("Too many pods")
    if want.milli_cpu == 0 and want.memory == 0 and want.ephemeral_storage == 0:
        return reasons
    if alloc.milli_cpu < want.milli_cpu + used.milli_cpu:
        reasons.append("Insufficient cpu")
    if alloc.memory < want.memory + used.memory:
        reasons.append("Insufficient memory")
    if alloc.ephemeral_storage < want.ephemeral_storage + used.ephemeral_storage:
        reasons.append("Insufficient ephemeral-storage")
    return reasons


@settings(max_examples=400, deadline=None)
@given(st.tuples(_small, _small, _small), st.tuples(_small, _small, _small), st.tuples(_small, _small, _small),
       st.integers(0, 3), st.integers(-1, 4))
def test_fits_request_matches_upstreams_checks(want, used, cap, pods, allowed) -> None:
    info = NodeInfo()
    info.pods = [object()] * pods  # only counted
    info.requested_resource = Resource(*used)
    info.allocatable_resource = Resource(*cap, allowed_pod_number=allowed)
    request = Resource(*want)
    assert [r.reason for r in fit.fits_request(request, info)] == _fits_oracle(request, info)
