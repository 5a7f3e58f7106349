"""The scheduleOne chain on the event loop: back to back while pods wait, asleep otherwise."""

from __future__ import annotations

from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from tests.scheduler.fakes import ScriptedAlgorithm, World, make_pod


def _labels(world: World) -> list[str]:
    return [e.label for e in world.loop.pending()]


def test_idle_scheduler_leaves_no_schedule_one_on_the_loop_and_wakes_on_add():
    world = World(ScriptedAlgorithm())
    ran: list[float] = []
    original = world.sched.schedule_one
    world.sched.schedule_one = lambda: ran.append(world.loop.now()) or original()
    world.sched.run()
    world.loop.run(until=4.0)
    assert ran == [0.0]  # one attempt at start: activeQ empty, the chain stops
    assert "scheduleOne" not in _labels(world)
    world.loop.call_at(5.0, lambda: world.add_pod(make_pod("a")))
    world.loop.call_at(5.0, lambda: world.add_pod(make_pod("b")))
    world.loop.run(until=6.0)
    assert ran == [0.0, 5.0, 5.0, 5.0]  # a, b, then one pop that finds activeQ empty
    assert world.pod("a").spec.node_name == "n1" and world.pod("b").spec.node_name == "n1"
    assert "scheduleOne" not in _labels(world)


def test_flushers_start_before_the_first_schedule_one():
    world = World(ScriptedAlgorithm())
    world.sched.run()  # no informers: synced at once
    assert _labels(world) == ["cleanupExpiredAssumedPods", "flushBackoffQCompleted", "flushUnschedulableQLeftover",
                              "scheduleOne"]


def test_stop_closes_the_queue_and_cancels_the_chain():
    world = World(ScriptedAlgorithm())
    world.sched.run()
    world.loop.run(until=0.0)
    world.sched.stop()
    world.add_pod(make_pod("a"))
    world.loop.run(until=2.0)
    assert world.pod("a").spec.node_name == ""
    assert world.loop.pending() == []


def test_binding_runs_after_the_scheduling_cycle_that_assumed_it():
    world = World(ScriptedAlgorithm(), points=("permit",), answers={"Permit": (Status(Code.WAIT, ("",)), 5.0)})
    world.add_pod(make_pod("a"))
    world.add_pod(make_pod("b"))
    world.sched.run()
    world.loop.run(until=0.0)
    assert world.cache.pod_count() == 2  # both assumed while a waits at Permit
    world.loop.run(until=6.0)
    assert world.where("a") == "unschedulableQ" and world.where("b") == "unschedulableQ"
