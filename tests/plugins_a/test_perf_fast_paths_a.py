"""The node-resource fast paths (cpu+memory scorers, Fit's quick check) agree with the plain ones.

Properties over any integers (zero and negative capacities and requests included), plus a
table of the exact scores the default profile computes for typical nodes.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.scheduler.framework.plugins.noderesources import balanced_allocation, fit, least_allocated
from kubesched.scheduler.framework.plugins.noderesources.resource_allocation import go_div
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.nodeinfo.node_info import NodeInfo, Resource
from tests.plugins_a.builders import container, handle, node, pod

_ints = st.one_of(st.integers(-5, 5), st.integers(-(2**40), 2**40))


def _maps(cpu: int, cpu_cap: int, memory: int, memory_cap: int) -> tuple[dict, dict]:
    return {"cpu": cpu, "memory": memory}, {"cpu": cpu_cap, "memory": memory_cap}


@settings(max_examples=400, deadline=None)
@given(_ints, _ints, _ints, _ints)
def test_least_fast_path_matches_the_map_scorer(cpu: int, cpu_cap: int, memory: int, memory_cap: int) -> None:
    requested, allocatable = _maps(cpu, cpu_cap, memory, memory_cap)
    assert least_allocated.least_cpu_memory_scorer(cpu, cpu_cap, memory, memory_cap) == \
        least_allocated.least_resource_scorer(requested, allocatable, False, 0, 0)


@settings(max_examples=400, deadline=None)
@given(_ints, _ints, _ints, _ints)
def test_balanced_fast_path_matches_the_map_scorer(cpu: int, cpu_cap: int, memory: int, memory_cap: int) -> None:
    requested, allocatable = _maps(cpu, cpu_cap, memory, memory_cap)
    assert balanced_allocation.balanced_cpu_memory_scorer(cpu, cpu_cap, memory, memory_cap) == \
        balanced_allocation.balanced_resource_scorer(requested, allocatable, False, 0, 0)


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


@settings(max_examples=400, deadline=None)
@given(st.tuples(_small, _small, _small), st.tuples(_small, _small, _small), st.tuples(_small, _small, _small),
       st.integers(0, 3), st.integers(-1, 4))
def test_fit_fast_check_implies_no_insufficient_resource(want, used, cap, pods, allowed) -> None:
    info = NodeInfo()
    info.pods = [object()] * pods  # only counted
    info.requested_resource = Resource(*used)
    info.allocatable_resource = Resource(*cap, allowed_pod_number=allowed)
    request = Resource(*want)
    fast = fit._fits_cpu_memory_storage(request, info)
    slow = fit.fits_request(request, info)
    assert not (fast and slow)
    if any(want):  # every resource is compared: the fast check is exact
        assert fast == (not slow)
