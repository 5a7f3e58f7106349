"""Toleration matching, TaintToleration and NodeUnschedulable.

Upstream: staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint),
pkg/apis/core/v1/helper/helpers.go (TolerationsTolerateTaint, FindMatchingUntoleratedTaint),
tainttoleration/taint_toleration.go, nodeunschedulable/node_unschedulable.go.
"""

from __future__ import annotations

import pytest

from kubesched.api import v1helper
from kubesched.api.core import Taint, Toleration
from kubesched.scheduler.framework.plugins.nodeunschedulable import node_unschedulable
from kubesched.scheduler.framework.plugins.tainttoleration import taint_toleration
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code

from tests.scheduler.framework.plugins.plugin_builders import handle, node, node_info, pod

TAINT = Taint(key="dedicated", value="gpu", effect="NoSchedule")

TOLERATION_CASES = [
    ("Equal with same key/value/effect", Toleration("dedicated", "Equal", "gpu", "NoSchedule"), True),
    ("empty operator means Equal", Toleration("dedicated", "", "gpu", "NoSchedule"), True),
    ("Equal with other value", Toleration("dedicated", "Equal", "cpu", "NoSchedule"), False),
    ("Exists ignores value", Toleration("dedicated", "Exists", "", "NoSchedule"), True),
    ("empty effect matches every effect", Toleration("dedicated", "Equal", "gpu", ""), True),
    ("other effect", Toleration("dedicated", "Equal", "gpu", "NoExecute"), False),
    ("empty key with Exists tolerates everything", Toleration("", "Exists", "", ""), True),
    ("empty key with Equal needs equal value", Toleration("", "Equal", "gpu", ""), True),
    ("empty key with Equal and other value", Toleration("", "Equal", "x", ""), False),
    ("other key", Toleration("other", "Exists", "", ""), False),
    ("unknown operator", Toleration("dedicated", "Gt", "gpu", "NoSchedule"), False),
]


@pytest.mark.parametrize("name,toleration,want", TOLERATION_CASES, ids=[c[0] for c in TOLERATION_CASES])
def test_toleration_tolerates_taint(name, toleration, want) -> None:
    assert v1helper.toleration_tolerates_taint(toleration, TAINT) is want
    assert v1helper.tolerations_tolerate_taint((Toleration("zzz"), toleration), TAINT) is want


def _taint(key: str, value: str, effect: str) -> dict:
    return {"key": key, "value": value, "effect": effect}


FILTER_CASES = [
    ("PreferNoSchedule taints never filter", [_taint("a", "1", "PreferNoSchedule")], [], None),
    ("NoExecute filters", [_taint("a", "1", "NoExecute")], [],
     "node(s) had taint {a: 1}, that the pod didn't tolerate"),
    ("first untolerated hard taint in node order",
     [_taint("a", "1", "NoSchedule"), _taint("b", "2", "NoSchedule")], [{"key": "a", "operator": "Exists"}],
     "node(s) had taint {b: 2}, that the pod didn't tolerate"),
    ("empty value prints as {key: }", [_taint("k", "", "NoSchedule")], [],
     "node(s) had taint {k: }, that the pod didn't tolerate"),
    ("all tolerated", [_taint("a", "1", "NoSchedule")], [{"operator": "Exists"}], None),
]


@pytest.mark.parametrize("name,taints,tolerations,reason", FILTER_CASES, ids=[c[0] for c in FILTER_CASES])
def test_taint_toleration_filter(name, taints, tolerations, reason) -> None:
    plugin = taint_toleration.new(None, None)
    status = plugin.filter(CycleState(), pod({"tolerations": tolerations}), node_info(node(taints=taints)))
    want = None if reason is None else (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (reason,))
    assert (None if status is None else (status.code, status.reasons)) == want


def test_taint_toleration_filter_without_node() -> None:
    status = taint_toleration.new(None, None).filter(CycleState(), pod(), node_info(None))
    assert (status.code, status.reasons) == (Code.ERROR, ("invalid nodeInfo",))


def test_reason_constant_kept() -> None:
    assert taint_toleration.ERR_REASON_NOT_MATCH == "node(s) had taints that the pod didn't tolerate"


def test_prescore_keeps_prefer_no_schedule_and_empty_effect_tolerations() -> None:
    tolerations = [{"key": "a", "operator": "Exists", "effect": "PreferNoSchedule"},
                   {"key": "b", "operator": "Exists"},
                   {"key": "c", "operator": "Exists", "effect": "NoSchedule"}]
    n = node(taints=[_taint("a", "", "PreferNoSchedule"), _taint("b", "", "PreferNoSchedule"),
                     _taint("c", "", "PreferNoSchedule"), _taint("d", "", "NoSchedule")])
    plugin = taint_toleration.new(None, handle([n]))
    state = CycleState()
    assert plugin.pre_score(state, pod({"tolerations": tolerations}), [n]) is None
    assert [t.key for t in state.read("PreScoreTaintToleration").tolerations_prefer_no_schedule] == ["a", "b"]
    assert plugin.score(state, pod(), "n1") == (1, None)  # only "c" is counted: NoSchedule tolerations ignored


def test_prescore_without_nodes_writes_nothing_and_score_fails() -> None:
    plugin = taint_toleration.new(None, handle([node()]))
    state = CycleState()
    assert plugin.pre_score(state, pod(), []) is None
    score, status = plugin.score(state, pod(), "n1")
    assert (score, status.code, status.reasons) == (
        0, Code.ERROR, ('Error reading "PreScoreTaintToleration" from cycleState: not found',))
    score, status = plugin.score(state, pod(), "n9")
    assert status.reasons == ('getting node "n9" from Snapshot: nodeinfo not found for node name "n9"',)


# ---------------------------------------------------------------- NodeUnschedulable

UNSCHEDULABLE_CASES = [
    ("schedulable node", False, [], None),
    ("cordoned node", True, [], "node(s) were unschedulable"),
    ("toleration of the unschedulable taint", True,
     [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}], None),
    ("wildcard toleration", True, [{"operator": "Exists"}], None),
    ("toleration with another effect", True,
     [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoExecute"}],
     "node(s) were unschedulable"),
]


@pytest.mark.parametrize("name,unschedulable,tolerations,reason", UNSCHEDULABLE_CASES,
                         ids=[c[0] for c in UNSCHEDULABLE_CASES])
def test_node_unschedulable(name, unschedulable, tolerations, reason) -> None:
    plugin = node_unschedulable.new(None, None)
    status = plugin.filter(CycleState(), pod({"tolerations": tolerations}),
                           node_info(node(unschedulable=unschedulable)))
    want = None if reason is None else (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (reason,))
    assert (None if status is None else (status.code, status.reasons)) == want


def test_node_unschedulable_without_node() -> None:
    status = node_unschedulable.new(None, None).filter(CycleState(), pod(), node_info(None))
    assert (status.code, status.reasons) == (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("node(s) had unknown conditions",))
