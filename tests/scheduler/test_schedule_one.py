"""scheduleOne and the binding cycle, branch by branch (scheduler.go v1.18.5)."""

from __future__ import annotations

import dataclasses

import pytest

from kubesched.scheduler.core.fit_error import FitError, NoNodesAvailableError
from kubesched.scheduler.framework.v1alpha1.interface import Code, Status
from kubesched.scheduler.scheduler import truncate_message
from tests.scheduler.fakes import FakeVolumeBinder, ScriptedAlgorithm, World, make_pod, wait_status, with_node

FIT_ERROR = FitError(None, 2, {"n1": Status(Code.UNSCHEDULABLE, ("Insufficient cpu",)),
                               "n2": Status(Code.UNSCHEDULABLE, ("Insufficient cpu",))})
FIT_MSG = "0/2 nodes are available: 2 Insufficient cpu."


def _run_one(world: World, name: str = "p", until: float = 0.0) -> None:
    world.add_pod(make_pod(name))
    assert world.sched.schedule_one() is True
    world.loop.run(until=until)


def test_success_binds_and_records_scheduled_event():
    world = World(ScriptedAlgorithm(host="n2"), points=("reserve", "permit", "pre_bind", "post_bind"))
    _run_one(world)
    assert world.pod("p").spec.node_name == "n2"
    assert world.events("p") == [("Normal", "Scheduled", "Successfully assigned default/p to n2")]
    assert [(point, node) for point, _, _, node in world.journal] == [
        ("Reserve", "n2"), ("Permit", "n2"), ("PreBind", "n2"), ("PostBind", "n2")]
    assert world.cache.is_assumed_pod(world.pod("p"))  # until the informer confirms it
    assert world.where("p") == ""


@pytest.mark.parametrize("error, reason, message, logged", [
    (FIT_ERROR, "Unschedulable", FIT_MSG, []),
    (NoNodesAvailableError(), "Unschedulable", "no nodes available to schedule pods", []),
    (RuntimeError('persistentvolumeclaim "x" not found'), "Unschedulable",
     'persistentvolumeclaim "x" not found',
     [(0, 'error selecting node for pod: persistentvolumeclaim "x" not found'),
      (0, 'Error scheduling default/p: persistentvolumeclaim "x" not found; retrying')]),
], ids=["fit-error", "no-nodes", "other-error"])
def test_schedule_error_records_failure(error, reason, message, logged):
    world = World(ScriptedAlgorithm(error=error))
    _run_one(world)
    assert world.events("p") == [("Warning", "FailedScheduling", message)]
    assert world.condition("p") == ("False", reason, message)
    assert world.where("p") == "unschedulableQ"
    assert [entry for entry in world.logs if entry[0] == 0] == logged


@pytest.mark.parametrize("move_during_cycle, target", [(False, "unschedulableQ"), (True, "podBackoffQ")])
def test_error_func_requeues_with_the_cycle_captured_at_failure(move_during_cycle, target):
    world = World(ScriptedAlgorithm(error=FIT_ERROR))
    if move_during_cycle:  # e.g. a node was added while the pod was being scheduled
        world.algorithm.during_schedule = lambda: world.queue.move_all_to_active_or_backoff_queue("NodeAdd")
    _run_one(world)
    assert world.where("p") == target


def test_failure_in_binding_cycle_uses_the_cycle_at_that_time():
    """The binding goroutine fails after another pod was popped: its cycle is the later one."""
    world = World(ScriptedAlgorithm(), points=("bind",), answers={"Bind": Status(Code.ERROR, ("boom",))},
                  bind_default=False)
    world.add_pod(make_pod("p"))
    world.add_pod(make_pod("q"))
    world.sched.schedule_one()  # p assumed; its binding is on the loop
    world.queue.move_all_to_active_or_backoff_queue("NodeAdd")  # move request at cycle 1
    world.sched.schedule_one()  # q popped: cycle 2
    world.loop.step()  # p's binding fails with the queue at cycle 2 > move request cycle 1
    assert world.where("p") == "unschedulableQ"


def test_condition_is_written_only_when_it_changes():
    world = World(ScriptedAlgorithm(error=FIT_ERROR))
    _run_one(world)
    first_rv = world.pod("p").metadata.resource_version
    world.queue.move_all_to_active_or_backoff_queue("NodeAdd")
    world.loop.run(until=2.0)
    world.queue.flush_backoff_q_completed()
    assert world.sched.schedule_one() is True
    assert world.pod("p").metadata.resource_version == first_rv
    assert [e[1] for e in world.events("p")] == ["FailedScheduling"]  # same event, count 2
    assert world.api.events_for(world.pod("p"))[0].count == 2


@pytest.mark.parametrize("message, expected", [
    ("x" * 1024, "x" * 1024),
    ("x" * 1025, "x" * 1020 + " ..."),
    ("é" * 600, "é" * 510 + " ..."),  # 1200 bytes: cut at 1020 bytes
    ("a" + "é" * 600, "a" + "é" * 509 + "\ufffd ..."),  # a rune cut in half
], ids=["limit", "over", "multibyte", "cut-rune"])
def test_truncate_message(message, expected):
    assert truncate_message(message) == expected


def test_failed_scheduling_event_is_truncated_but_condition_keeps_the_full_message():
    long = RuntimeError("y" * 2000)
    world = World(ScriptedAlgorithm(error=long))
    _run_one(world)
    assert world.events("p") == [("Warning", "FailedScheduling", "y" * 1020 + " ...")]
    assert world.condition("p") == ("False", "Unschedulable", "y" * 2000)


@pytest.mark.parametrize("answer, reason, message", [
    (Status(Code.UNSCHEDULABLE, ("no",)), "Unschedulable", 'rejected pod "p" by permit plugin "Test": no'),
    (Status(Code.ERROR, ("bad",)), "SchedulerError", 'error while running "Test" permit plugin for pod "p": bad'),
], ids=["reject", "error"])
def test_permit_failure_unreserves_forgets_and_requeues(answer, reason, message):
    world = World(ScriptedAlgorithm(), points=("reserve", "permit", "unreserve"), answers={"Permit": (answer, 0.0)})
    _run_one(world)
    assert [point for point, *_ in world.journal] == ["Reserve", "Permit", "Unreserve"]
    assert world.cache.pod_count() == 0  # forgotten
    assert world.condition("p") == ("False", reason, message)
    assert world.events("p") == [("Warning", "FailedScheduling", message)]
    assert world.where("p") == "unschedulableQ"
    assert world.pod("p").spec.node_name == ""


def test_reserve_failure_neither_unreserves_nor_assumes():
    world = World(ScriptedAlgorithm(), points=("reserve", "unreserve"),
                  answers={"Reserve": Status(Code.ERROR, ("full",))})
    _run_one(world)
    message = 'error while running "Test" reserve plugin for pod "p": full'
    assert [point for point, *_ in world.journal] == ["Reserve"]
    assert world.cache.pod_count() == 0
    assert world.condition("p") == ("False", "SchedulerError", message)


def test_assume_pod_volumes_failure():
    world = World(ScriptedAlgorithm(), points=("reserve",), volume_binder=FakeVolumeBinder(assume_error="no pv"))
    _run_one(world)
    assert world.journal == []
    assert world.events("p") == [("Warning", "FailedScheduling", "AssumePodVolumes failed: no pv")]
    assert world.condition("p") == ("False", "SchedulerError", "no pv")


def test_assume_failure_unreserves():
    world = World(ScriptedAlgorithm(), points=("reserve", "unreserve"))
    pod = world.add_pod(make_pod("p"))
    # A pod already in the cache under another name's key cannot be assumed again.
    other = dataclasses.replace(with_node(pod, "n2"), metadata=dataclasses.replace(pod.metadata, name="twin"))
    world.cache.assume_pod(other)
    world.sched.schedule_one()
    world.loop.run(until=0.0)
    assert [point for point, *_ in world.journal] == ["Reserve", "Unreserve"]
    message = f"AssumePod failed: pod {pod.metadata.uid} is in the cache, so can't be assumed"
    assert world.events("p") == [("Warning", "FailedScheduling", message)]
    assert world.condition("p") == ("False", "SchedulerError", f"pod {pod.metadata.uid} is in the cache, "
                                                               "so can't be assumed")
    assert world.cache.pod_count() == 1  # the earlier entry stays; nothing was forgotten
    assert world.where("p") == "unschedulableQ"


@pytest.mark.parametrize("points, answers, reason, message, journal", [
    (("bind", "unreserve"), {"Bind": Status(Code.ERROR, ("refused",))}, "SchedulerError",
     'Binding rejected: plugin "Test" failed to bind pod "default/p": refused', ["Bind", "Unreserve"]),
    (("bind", "unreserve"), {"Bind": Status(Code.SKIP, ("",))}, "SchedulerError",
     "Binding rejected: bind status: Skip, ", ["Bind", "Unreserve"]),
    (("pre_bind", "unreserve"), {"PreBind": Status(Code.ERROR, ("nope",))}, "SchedulerError",
     'error while running "Test" prebind plugin for pod "p": nope', ["PreBind", "Unreserve"]),
], ids=["bind-error", "all-skip", "prebind-error"])
def test_binding_cycle_failure_unreserves_forgets_and_requeues(points, answers, reason, message, journal):
    world = World(ScriptedAlgorithm(), points=points, answers=answers, bind_default="bind" not in points)
    _run_one(world)
    assert [point for point, *_ in world.journal] == journal
    assert world.cache.pod_count() == 0
    assert world.events("p") == [("Warning", "FailedScheduling", message)]
    assert world.where("p") == "unschedulableQ"
    assert world.condition("p")[1] == reason


def test_volume_binding_failure():
    world = World(ScriptedAlgorithm(), points=("unreserve",),
                  volume_binder=FakeVolumeBinder(all_bound=False, bind_error="Failed to bind volumes: timeout"))
    _run_one(world)
    assert [point for point, *_ in world.journal] == ["Unreserve"]
    assert world.cache.pod_count() == 0
    assert world.condition("p") == ("False", "VolumeBindingFailed", "Failed to bind volumes: timeout")


def test_volumes_are_bound_before_prebind_when_not_all_bound():
    binder = FakeVolumeBinder(all_bound=False)
    world = World(ScriptedAlgorithm(), points=("pre_bind",), volume_binder=binder)
    _run_one(world)
    assert binder.bound == ["p"] and world.pod("p").spec.node_name == "n1"


@pytest.mark.parametrize("allow, bound", [(True, "n1"), (False, "")], ids=["allowed", "timed-out"])
def test_permit_wait(allow, bound):
    world = World(ScriptedAlgorithm(), points=("permit", "unreserve"), answers={"Permit": wait_status(10.0)})
    world.add_pod(make_pod("p"))
    world.sched.schedule_one()
    world.loop.run(until=5.0)
    assert world.pod("p").spec.node_name == ""
    if allow:
        world.framework.get_waiting_pod(world.pod("p").metadata.uid).allow("Test")
    world.loop.run(until=11.0)
    assert world.pod("p").spec.node_name == bound
    if not allow:
        message = 'pod "p" rejected while waiting on permit: rejected due to timeout after waiting 10s at plugin Test'
        assert world.events("p") == [("Warning", "FailedScheduling", message)]
        assert world.condition("p") == ("False", "Unschedulable", message)
        assert [point for point, *_ in world.journal] == ["Permit", "Unreserve"]
        assert world.cache.pod_count() == 0


def test_deleting_pod_is_skipped_with_an_event():
    world = World(ScriptedAlgorithm())
    pod = world.add_pod(make_pod("p", node=""))
    deleting = dataclasses.replace(pod, metadata=dataclasses.replace(pod.metadata, deletion_timestamp=1.0))
    world.queue.update(pod, deleting)
    world.sched.schedule_one()
    assert world.events("p") == [("Warning", "FailedScheduling", "skip schedule deleting pod: default/p")]
    assert world.where("p") == ""


def test_profile_not_found_drops_the_pod():
    world = World(ScriptedAlgorithm())
    world.add_pod(make_pod("p", scheduler="other"))
    assert world.sched.schedule_one() is True
    assert world.logs == [(0, 'profile not found for scheduler name "other"')]
    assert world.where("p") == "" and world.events("p") == []


def test_preempt_nominates_deletes_victims_and_clears_nominations():
    world = World(ScriptedAlgorithm(error=FIT_ERROR), disable_preemption=False)
    victim = world.api.create(make_pod("victim", node="n1"))
    low = world.api.create(make_pod("low"))
    low = world.api.update_status(low.__class__(metadata=low.metadata, spec=low.spec,
                                                status=low.status.__class__(phase="Pending",
                                                                            nominated_node_name="n1")))
    world.algorithm.preempt_result = ("n1", [victim], [low])
    _run_one(world, "p", until=1.0)
    preemptor = world.pod("p")
    assert preemptor.status.nominated_node_name == "n1"
    assert world.pod("low").status.nominated_node_name == ""
    assert world.pod("victim").metadata.deletion_timestamp == 30.0
    assert world.events("victim") == [("Normal", "Preempted", "Preempted by default/p on node n1")]
    assert world.queue.nominated_pods_for_node("n1")[0].metadata.name == "p"
    # recordSchedulingFailure wrote the condition from the cycle's stale copy: Conflict, logged.
    assert world.condition("p") is None
    assert any(v == 0 and m.startswith("Error updating the condition of the pod default/p: Operation cannot be "
                                        "fulfilled on pods")
               for v, m in world.logs)
    world.loop.run(until=31.0)
    with pytest.raises(Exception):
        world.pod("victim")


def test_preemption_disabled_does_not_preempt():
    world = World(ScriptedAlgorithm(error=FIT_ERROR), disable_preemption=True)
    _run_one(world)
    assert world.algorithm.preempt_calls == []


class _Extender:
    def __init__(self, binder: bool, interested: bool, error: str = "") -> None:
        self.binder, self.interested, self.error, self.bindings = binder, interested, error, []

    def name(self):
        return "http://127.0.0.1:1/x"

    def is_binder(self):
        return self.binder

    def is_interested(self, pod):
        return self.interested

    def bind(self, binding):
        if self.error:
            raise RuntimeError(self.error)
        self.bindings.append((binding.metadata.name, binding.target.name))


@pytest.mark.parametrize("binder, interested, error, bound, plugin_called", [
    (True, True, "", [("p", "n1")], False),
    (True, False, "", [], True),
    (False, True, "", [], True),
    (True, True, "down", [], False),
], ids=["extender-binds", "not-interested", "not-binder", "extender-error"])
def test_extender_binds_first(binder, interested, error, bound, plugin_called):
    ext = _Extender(binder, interested, error)
    world = World(ScriptedAlgorithm(extenders=(ext,)), points=("bind",), answers={"Bind": None}, bind_default=False)
    _run_one(world)
    assert ext.bindings == bound
    assert (("Bind", "Test", "p", "n1") in world.journal) is plugin_called
    if error:
        assert world.events("p") == [("Warning", "FailedScheduling", "Binding rejected: down")]
    else:
        assert world.events("p") == [("Normal", "Scheduled", "Successfully assigned default/p to n1")]
