"""Permit waits on the simulation loop: allow, reject, timeouts, the one-slot signal.

Upstream: TestWaitOnPermit, TestPermitWaitDurationMetric in framework_test.go and
waiting_pods_map.go (v1.18).
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import MAX_TIMEOUT
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.framework.v1alpha1.waiting_pods_map import go_duration
from kubesched.util.loop import EventLoop
from tests.scheduler.framework.v1alpha1.fakes import Injected, TestPlugin, framework_at, pod

POD = pod("pod", uid="pod")


class WaitFor:
    """A Permit plugin that asks to wait ``timeout`` seconds."""

    def __init__(self, name: str, timeout: float) -> None:
        self._name, self.timeout = name, timeout

    def name(self) -> str:
        return self._name

    def permit(self, state, p, node_name):
        return Status(Code.WAIT, ("",)), self.timeout


def waiting(*plugins, loop=None):
    loop = loop or EventLoop()
    f = framework_at("permit", *plugins, loop=loop)
    assert f.run_permit_plugins(CycleState(), POD, "n").code == Code.WAIT
    results: list = []
    return f, loop, results


def test_not_a_waiting_pod_returns_at_once() -> None:
    f = framework_at("permit", TestPlugin("p"))
    got: list = []
    f.wait_on_permit(POD, got.append)
    assert got == [None]


@pytest.mark.parametrize(("action", "want"), [
    ("reject", Status(Code.UNSCHEDULABLE, ('pod "pod" rejected while waiting on permit: reject message',))),
    ("allow", None),
])
def test_wait_on_permit(action: str, want) -> None:
    f, loop, got = waiting(WaitFor("permit-plugin", 10))
    f.wait_on_permit(POD, got.append)
    assert got == [] and f.get_waiting_pod("pod") is not None
    wp = f.get_waiting_pod("pod")
    wp.reject("reject message") if action == "reject" else wp.allow("permit-plugin")
    assert got == []  # the waiter wakes up from the loop, after the sender returns
    loop.run(until=1)
    assert got == [want]
    assert f.get_waiting_pod("pod") is None


def test_signal_sent_before_waiting_is_buffered() -> None:
    f, loop, got = waiting(WaitFor("a", 10))
    f.get_waiting_pod("pod").allow("a")
    f.get_waiting_pod("pod").reject("late")  # buffer already full: dropped
    assert f.get_waiting_pod("pod").signal() == Status(Code.SUCCESS, ("",))
    f.wait_on_permit(POD, got.append)
    assert got == [None]


def test_all_plugins_must_allow() -> None:
    f, loop, got = waiting(WaitFor("a", 10), WaitFor("b", 20))
    f.wait_on_permit(POD, got.append)
    wp = f.get_waiting_pod("pod")
    assert wp.get_pending_plugins() == ["a", "b"]
    wp.allow("a")
    loop.run(until=5)
    assert (got, wp.get_pending_plugins()) == ([], ["b"])
    wp.allow("b")
    loop.run(until=6)
    assert got == [None]


@pytest.mark.parametrize(("timeouts", "fires_at", "message"), [
    ({"a": 10}, 10, "rejected due to timeout after waiting 10s at plugin a"),
    ({"a": 0}, 0, "rejected due to timeout after waiting 0s at plugin a"),
    ({"a": 30, "b": 1.5}, 1.5, "rejected due to timeout after waiting 1.5s at plugin b"),
    ({"a": 3600}, MAX_TIMEOUT, "rejected due to timeout after waiting 15m0s at plugin a"),
])
def test_timeouts(timeouts: dict, fires_at: float, message: str) -> None:
    f, loop, got = waiting(*(WaitFor(n, t) for n, t in timeouts.items()))
    f.wait_on_permit(POD, got.append)
    loop.run(until=fires_at - 0.001) if fires_at > 0 else None
    assert got == []
    loop.run(until=fires_at)
    assert got == [Status(Code.UNSCHEDULABLE, (f'pod "pod" rejected while waiting on permit: {message}',))]


def test_allow_stops_that_plugins_timer() -> None:
    f, loop, got = waiting(WaitFor("a", 5), WaitFor("b", 50))
    f.wait_on_permit(POD, got.append)
    f.get_waiting_pod("pod").allow("a")
    loop.run(until=49)
    assert got == []
    loop.run(until=50)
    assert got[0].reasons == ('pod "pod" rejected while waiting on permit: '
                              'rejected due to timeout after waiting 50s at plugin b',)


def test_reject_waiting_pod_and_iterate() -> None:
    f, loop, got = waiting(WaitFor("a", 5))
    seen: list = []
    f.iterate_over_waiting_pods(lambda wp: seen.append(wp.get_pod().metadata.name))
    f.reject_waiting_pod("pod")
    f.wait_on_permit(POD, got.append)
    assert (seen, got) == (["pod"], [Status(Code.UNSCHEDULABLE, ('pod "pod" rejected while waiting on permit: removed',))])
    loop.run(until=10)  # the stopped timer does not fire again
    assert len(got) == 1


def test_without_a_loop_the_framework_makes_its_own() -> None:
    f = framework_at("permit", TestPlugin("p", Injected(permit_status=Code.WAIT, permit_timeout=0)))
    assert f.run_permit_plugins(CycleState(), POD, "") is not None
    got: list = []
    f.wait_on_permit(POD, got.append)
    f.loop.run(until=0)
    assert got == [Status(Code.UNSCHEDULABLE, ('pod "pod" rejected while waiting on permit: '
                                               'rejected due to timeout after waiting 0s at plugin p',))]


@pytest.mark.parametrize(("seconds", "want"), [
    (0, "0s"), (1e-9, "1ns"), (1.5e-6, "1.5µs"), (0.5, "500ms"), (0.0015, "1.5ms"), (1, "1s"), (10, "10s"),
    (1.5, "1.5s"), (60, "1m0s"), (90, "1m30s"), (900, "15m0s"), (3600, "1h0m0s"), (3661.25, "1h1m1.25s"),
    (-2, "-2s"),
])
def test_go_duration(seconds: float, want: str) -> None:
    assert go_duration(seconds) == want
