"""PreScoreSkip hooks: the exact constant per pod (after PreScore), checked by running Score.

``constant_score(state, pod, nodes)`` an int must mean: Score gives ``(that int, None)`` for every
node name of the snapshot; the None cases here are ones where Score varies by node or errs.
"""

from __future__ import annotations

from typing import Optional

import pytest

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import PreScoreSkip
from tests.scheduler.framework.plugins.shortcut_world import NODES, Handle, build, incoming
from tests.scheduler.framework.plugins.test_shortcut_filters import PODS, pod_named

ALL = tuple(n.metadata.name for n in NODES)


def _preferred(*weights: int) -> dict:
    terms = [{"weight": w, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}}
             for w in weights]
    return {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": terms}}}


def _scores(plugin, state: CycleState, pod) -> dict[str, tuple[int, Optional[object]]]:
    return {name: plugin.score(state, pod, name) for name in ALL}


def _constant(scores: dict[str, tuple[int, Optional[object]]]) -> Optional[int]:
    """The score every node got with a Success status, or None (scores differ, or an error)."""
    results = set(scores.values())
    if len(results) != 1:
        return None
    score, status = results.pop()
    return score if status is None else None


# ---------------------------------------------------------------------------------- NodeAffinity

NODE_AFFINITY_EXTRA = {
    "preferred-zero-weight": _preferred(0),
    "preferred-zero-and-five": _preferred(0, 5),
}


@pytest.mark.parametrize("pod_name,want", [
    ("bare", 0),
    ("node-selector", 0),
    ("required-affinity", 0),
    ("required-no-terms", 0),
    ("empty-node-affinity", 0),
    ("pod-anti-affinity-only", 0),
    ("spread-soft", 0),
    ("preferred-affinity", None),
    ("preferred-zero-weight", 0),
    ("preferred-zero-and-five", None),
])
def test_node_affinity_constant_score(pod_name, want):
    pod = incoming(NODE_AFFINITY_EXTRA[pod_name]) if pod_name in NODE_AFFINITY_EXTRA else pod_named(pod_name)
    plugin = build("NodeAffinity")
    assert isinstance(plugin, PreScoreSkip)
    state = CycleState()
    got = plugin.constant_score(state, pod, NODES)
    assert got == want
    assert _constant(_scores(plugin, state, pod)) == want


# ---------------------------------------------------------------------------------- PodTopologySpread

@pytest.mark.parametrize("variant,pod_name,filtered,want", [
    ("PodTopologySpread", "bare", ALL, 0),
    ("PodTopologySpread", "web", ALL, 0),
    ("PodTopologySpread", "spread-hard", ALL, 0),            # hard only: no soft constraint
    ("PodTopologySpread", "spread-soft", ALL, None),
    ("PodTopologySpread", "spread-both", ALL, None),
    ("PodTopologySpread", "spread-soft", ("n-plain",), 0),   # no filtered node has the key
    ("PodTopologySpread", "spread-soft", ("n-plain", "n-full"), None),
    ("PodTopologySpread", "spread-soft-web", ALL, 0),        # key "rack": no node has it
    ("PodTopologySpread", "bare", (), None),                 # PreScore writes no state: Score errs
    ("PodTopologySpread/soft-defaults", "web", ALL, None),   # the Service's selector spreads it
    ("PodTopologySpread/soft-defaults", "bare", ALL, 0),     # no owner: empty selector, no constraint
    ("PodTopologySpread/soft-defaults", "spread-hard", ALL, 0),  # own constraints win over defaults
    ("PodTopologySpread/hard-defaults", "web", ALL, 0),
])
def test_pod_topology_spread_constant_score(variant, pod_name, filtered, want):
    handle = Handle()
    plugin = build(variant, handle)
    assert isinstance(plugin, PreScoreSkip)
    pod = pod_named(pod_name)
    state = CycleState()
    nodes = [n for n in NODES if n.metadata.name in filtered]
    assert plugin.pre_score(state, pod, nodes) is None
    assert plugin.constant_score(state, pod, nodes) == want
    assert _constant(_scores(plugin, state, pod)) == want


def test_pod_topology_spread_constant_score_needs_its_own_state():
    plugin = build("PodTopologySpread")
    state = CycleState()
    state.write("PreScorePodTopologySpread", CycleState())  # something else under the key: Score errs
    assert plugin.constant_score(state, pod_named("bare"), NODES) is None
    assert plugin.score(state, pod_named("bare"), "n-plain")[1] is not None


def test_catalogue_names_exist():
    assert set(NODE_AFFINITY_EXTRA).isdisjoint(PODS)
