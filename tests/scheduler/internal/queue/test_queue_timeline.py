"""The queue on the event loop: Run's periodic flushes decide when a failed pod returns."""

from __future__ import annotations

import pytest
from tests.scheduler.internal.queue.queue_fixtures import make_pod

from kubesched.scheduler.internal.queue import PriorityQueue, events
from kubesched.util.loop import EventLoop


class Rig:
    """A queue on a loop plus a stand-in scheduler whose every attempt fails."""

    def __init__(self, **queue_options) -> None:
        self.loop = EventLoop()
        self.moves: list[tuple[float, str, str, str]] = []
        self.queue = PriorityQueue(clock=self.loop, on_move=self._on_move, **queue_options)
        self.attempts: list[float] = []
        self.move_during_cycle = False

    def _on_move(self, pod, src, dst, event) -> None:
        self.moves.append((self.loop.now(), src, dst, event))

    def start(self, pod) -> None:
        self.queue.run()                      # flushes first (SchedulingQueue.Run before scheduleOne)
        self.queue.add(pod)
        self.queue.broadcast_hooks.append(self._wake)
        self._wake()

    def _wake(self) -> None:
        if len(self.queue.active_q):
            self.loop.call_later(0, self.schedule_one, label="scheduleOne")

    def schedule_one(self) -> None:
        p_info = self.queue.pop()
        if p_info is None:
            return
        self.attempts.append(self.loop.now())
        cycle = self.queue.scheduling_cycle()
        if self.move_during_cycle:
            self.queue.move_all_to_active_or_backoff_queue(events.UNKNOWN)
        self.queue.add_unschedulable_if_not_present(p_info, cycle)

    def entries(self, target: str) -> list[tuple[float, str]]:
        return [(t, ev) for t, _, dst, ev in self.moves if dst == target]


def test_failed_pod_without_cluster_change_is_retried_every_90s():
    rig = Rig()
    rig.start(make_pod("p", "default", "uid-p"))
    rig.loop.run(until=300)
    # Leftover flushes at 0, 30, 60, 90 …: "more than 60 s" is first true at 90.
    assert rig.attempts == [0, 90, 180, 270]
    assert rig.entries("activeQ") == [(0, "PodAdd"), (90, "UnschedulableTimeout"),
                                      (180, "UnschedulableTimeout"), (270, "UnschedulableTimeout")]


@pytest.mark.parametrize("node_added_at,back_in_active_at,via", [
    (5.0, 5.0, "NodeAdd"),          # backoff (1 s) expired: straight to activeQ
    (0.5, 1.0, "BackoffComplete"),  # still backing off: backoffQ, released by the 1 s flush
    (1.0, 1.0, "NodeAdd"),          # backoff ends exactly now: not "after now", so activeQ
])
def test_node_add_moves_unschedulable_pod(node_added_at, back_in_active_at, via):
    rig = Rig()
    rig.start(make_pod("p", "default", "uid-p"))
    rig.loop.call_at(node_added_at, lambda: rig.queue.move_all_to_active_or_backoff_queue(events.NODE_ADD),
                     label="NodeAdd")
    rig.loop.run(until=node_added_at + 0.9)
    assert rig.entries("activeQ")[1] == (back_in_active_at, via)
    assert rig.attempts[:2] == [0, back_in_active_at]


def test_move_request_during_cycle_sends_pod_to_backoff():
    rig = Rig()
    rig.move_during_cycle = True
    rig.start(make_pod("p", "default", "uid-p"))
    rig.loop.run(until=0)
    assert rig.entries("podBackoffQ") == [(0, "ScheduleAttemptFailure")]
    assert rig.queue.num_unschedulable_pods() == 0


def test_backoff_grows_1_2_4_8_10_10():
    rig = Rig()
    rig.move_during_cycle = True
    rig.start(make_pod("p", "default", "uid-p"))
    rig.loop.run(until=60)
    gaps = [b - a for a, b in zip(rig.attempts, rig.attempts[1:])]
    assert gaps[:6] == [1, 2, 4, 8, 10, 10]
    assert all(ev == "BackoffComplete" for _, ev in rig.entries("activeQ")[1:])


def test_custom_backoff_settings():
    rig = Rig(pod_initial_backoff_duration=2, pod_max_backoff_duration=5)
    rig.move_during_cycle = True
    rig.start(make_pod("p", "default", "uid-p"))
    rig.loop.run(until=40)
    gaps = [b - a for a, b in zip(rig.attempts, rig.attempts[1:])]
    assert gaps[:4] == [2, 4, 5, 5]


def test_close_stops_periodic_flushes():
    rig = Rig()
    rig.start(make_pod("p", "default", "uid-p"))
    rig.loop.run(until=10)
    rig.queue.close()
    assert rig.loop.pending() == []
    rig.loop.run(until=200)
    assert rig.attempts == [0]


def test_run_after_close_starts_nothing():
    loop = EventLoop()
    q = PriorityQueue(clock=loop)
    q.close()
    q.run()
    assert loop.pending() == []


def test_run_registers_both_flushes_now():
    loop = EventLoop(start=7)
    PriorityQueue(clock=loop).run()
    assert [(e.time, e.label) for e in loop.pending()] == [
        (7, "flushBackoffQCompleted"), (7, "flushUnschedulableQLeftover")]
