"""PrioritySort, DefaultBinder and DefaultNormalizeScore beyond the vectors.

Upstream: priority_sort_test.go, default_binder_test.go, normalize_score_test.go (v1.18).
"""

from __future__ import annotations

import pytest

from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.errors import APIError
from kubesched.scheduler.framework.plugins.defaultbinder import default_binder
from kubesched.scheduler.framework.plugins.helper.normalize_score import default_normalize_score
from kubesched.scheduler.framework.plugins.queuesort import priority_sort
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code, NodeScore, Status
from kubesched.scheduler.internal.queue.pod_info import PodInfo
from kubesched.util.loop import EventLoop
from tests.scheduler.framework.v1alpha1.fakes import pod


@pytest.mark.parametrize(("scores", "reverse", "want"), [
    ([1, 2, 3, 4], False, [25, 50, 75, 100]),
    ([1, 2, 3, 4], True, [75, 50, 25, 0]),
    ([1000, 10, 20, 30], False, [100, 1, 2, 3]),
    ([1000, 10, 20, 30], True, [0, 99, 98, 97]),
    ([1, 1, 1, 1], False, [100, 100, 100, 100]),
    ([1, 1, 1, 1], True, [0, 0, 0, 0]),
    ([0, 0, 0], False, [0, 0, 0]),
    ([0, 0, 0], True, [100, 100, 100]),
    ([], True, []),
    ([-5, 10], False, [-50, 100]),  # Go truncates toward zero: 100*-5/10 = -50
    ([-3, 7], False, [-42, 100]),   # -300/7 = -42.86 → -42 (Python's // would give -43)
])
def test_default_normalize_score(scores, reverse, want) -> None:
    lst = [NodeScore(f"n{i}", s) for i, s in enumerate(scores)]
    assert default_normalize_score(100, reverse, lst) is None
    assert [s.score for s in lst] == want


def _with_priority(priority):
    import dataclasses
    p = pod("p")
    return dataclasses.replace(p, spec=dataclasses.replace(p.spec, priority=priority))


@pytest.mark.parametrize(("p1", "t1", "s1", "p2", "t2", "s2", "want"), [
    (10, 0.0, 0, 100, 0.0, 0, False),
    (100, 0.0, 0, 100, 1.0, 0, True),
    (100, 1.0, 0, 100, 0.0, 0, False),
    (100, 5.0, 0, 10, 0.0, 0, True),
    (None, 0.0, 0, 0, 1.0, 0, True),   # unset priority counts as 0
    (None, 1.0, 0, -1, 0.0, 0, True),
    (7, 3.0, 0, 7, 3.0, 0, False),     # equal: not less either way
    (7, 3.0, 1, 7, 3.0, 2, True),      # same instant: the earlier stamp first
    (7, 3.0, 2, 7, 3.0, 1, False),
    (7, 2.0, 9, 7, 3.0, 1, True),      # the time decides before the stamping order
    (8, 3.0, 9, 7, 3.0, 1, True),      # the priority decides before both
])
def test_priority_sort_less(p1, t1, s1, p2, t2, s2, want) -> None:
    plugin = priority_sort.new(None, None)
    assert plugin.name() == "PrioritySort"
    assert plugin.less(PodInfo(_with_priority(p1), t1, seq=s1), PodInfo(_with_priority(p2), t2, seq=s2)) is want


class _Handle:
    def __init__(self, client) -> None:
        self._client = client

    def client_set(self):
        return self._client


class _FailingClient:
    def bind(self, namespace, name, node_name):
        raise APIError("binding error")


def test_default_binder_binds_through_the_api_server() -> None:
    from kubesched.api.core import Pod, PodSpec
    from kubesched.api.meta import ObjectMeta
    server = APIServer(EventLoop())
    server.create(Pod(metadata=ObjectMeta(name="foo", namespace="ns"), spec=PodSpec()))
    binder = default_binder.new(None, _Handle(server))
    assert binder.name() == "DefaultBinder"
    assert binder.bind(CycleState(), server.get("Pod", "ns", "foo"), "node-1") is None
    assert server.get("Pod", "ns", "foo").spec.node_name == "node-1"
    # binding again: the API server refuses, and the error text becomes the status
    got = binder.bind(CycleState(), server.get("Pod", "ns", "foo"), "node-2")
    assert got == Status(Code.ERROR, ('Operation cannot be fulfilled on pods/binding "foo": '
                                      'pod foo is already assigned to node "node-1"',))


def test_default_binder_error() -> None:
    got = default_binder.new(None, _Handle(_FailingClient())).bind(CycleState(), pod("foo", namespace="ns"), "n")
    assert got == Status(Code.ERROR, ("binding error",))
