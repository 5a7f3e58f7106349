"""PriorityQueue: upstream scheduling_queue_test.go scenarios not covered by queue.yaml,
plus the rules of v1.18.5 the vectors leave out (backoff table, Update per sub-queue,
nominated-pod update rule, affinity match, on_move, metrics)."""

from __future__ import annotations

import dataclasses

import pytest
from tests.scheduler.internal.queue.queue_fixtures import (
    HIGH_PRIORITY_POD, MED_PRIORITY_POD, MID, UNSCHEDULABLE_POD,
    make_pod, required_affinity,
)

from kubesched.scheduler.internal.queue import PodInfo, PriorityQueue, QueueClosedError, QueueError
from kubesched.scheduler.internal.queue import events
from kubesched.scheduler.internal.queue.scheduling_queue import (
    get_pod_full_name, is_pod_updated, meta_namespace_key,
)
from kubesched.util.clock import FakeClock

T0 = 100.0


def new_queue(clock: FakeClock | None = None, **kwargs) -> PriorityQueue:
    return PriorityQueue(clock=clock or FakeClock(T0), **kwargs)


def in_active(q: PriorityQueue, pod) -> bool:
    return q.active_q.get_by_key(meta_namespace_key(pod)) is not None


def in_backoff(q: PriorityQueue, pod) -> bool:
    return q.pod_backoff_q.get_by_key(meta_namespace_key(pod)) is not None


# -- backoff ------------------------------------------------------------------------
@pytest.mark.parametrize("initial,maximum,expected", [
    (1, 10, [1, 1, 2, 4, 8, 10, 10, 10]),   # attempts 0..7 with the defaults
    (2, 20, [2, 2, 4, 8, 16, 20, 20, 20]),  # TestPriorityQueue_NewWithOptions settings
    (1, 1, [1, 1, 1, 1, 1, 1, 1, 1]),
    (3, 10, [3, 3, 6, 10, 10, 10, 10, 10]),  # 12 > 10: capped as soon as it exceeds
])
def test_calculate_backoff_duration(initial, maximum, expected):
    q = new_queue(pod_initial_backoff_duration=initial, pod_max_backoff_duration=maximum)
    got = [q.calculate_backoff_duration(PodInfo(HIGH_PRIORITY_POD, attempts=a)) for a in range(8)]
    assert got == expected


# -- delete and close beyond the vectors -------------------------------------------------
def test_delete_from_backoff_and_unschedulable():
    clock = FakeClock(T0)
    q = new_queue(clock)
    q.move_all_to_active_or_backoff_queue("test")  # moveRequestCycle = 0
    q.add_unschedulable_if_not_present(q.new_pod_info(HIGH_PRIORITY_POD), 0)
    q.add_unschedulable_if_not_present(q.new_pod_info(UNSCHEDULABLE_POD), 1)
    assert in_backoff(q, HIGH_PRIORITY_POD) and q.num_unschedulable_pods() == 1
    q.delete(HIGH_PRIORITY_POD)
    q.delete(UNSCHEDULABLE_POD)
    assert len(q.pod_backoff_q) == 0 and q.num_unschedulable_pods() == 0
    assert q.nominated_pods.nominated_pods == {}


def test_close_makes_pop_fail_once_empty():
    q = new_queue()
    assert q.pop() is None  # would block upstream
    q.add(HIGH_PRIORITY_POD)
    q.close()
    assert q.pop().pod is HIGH_PRIORITY_POD  # a closed queue still hands out what it holds
    with pytest.raises(QueueClosedError, match="^scheduling queue is closed$"):
        q.pop()


# -- Update per sub-queue ---------------------------------------------------------------
def test_update_in_backoff_cancels_backoff():
    clock = FakeClock(T0)
    q = new_queue(clock)
    q.move_all_to_active_or_backoff_queue("test")
    q.add_unschedulable_if_not_present(q.new_pod_info(MED_PRIORITY_POD), 0)
    assert in_backoff(q, MED_PRIORITY_POD)
    newer = dataclasses.replace(MED_PRIORITY_POD, metadata=dataclasses.replace(MED_PRIORITY_POD.metadata,
                                                                              resource_version="2"))
    q.update(MED_PRIORITY_POD, newer)
    assert not in_backoff(q, MED_PRIORITY_POD)
    assert q.pop().pod is newer


@pytest.mark.parametrize("change,moves", [
    ("resource_version", False),
    ("generation", False),
    ("status", False),
    ("labels", True),
    ("cluster_name", True),
])
def test_update_in_unschedulable_moves_only_if_pod_updated(change, moves):
    q = new_queue()
    q.add_unschedulable_if_not_present(q.new_pod_info(UNSCHEDULABLE_POD), q.scheduling_cycle())
    meta = UNSCHEDULABLE_POD.metadata
    new = {
        "resource_version": lambda p: dataclasses.replace(p, metadata=dataclasses.replace(meta, resource_version="9")),
        "generation": lambda p: dataclasses.replace(p, metadata=dataclasses.replace(meta, generation=3)),
        "status": lambda p: dataclasses.replace(p, status=dataclasses.replace(p.status, conditions=())),
        "labels": lambda p: dataclasses.replace(p, metadata=dataclasses.replace(meta, labels={"a": "b"})),
        "cluster_name": lambda p: dataclasses.replace(p, metadata=dataclasses.replace(meta, cluster_name="x")),
    }[change](UNSCHEDULABLE_POD)
    assert is_pod_updated(UNSCHEDULABLE_POD, new) is moves
    q.update(UNSCHEDULABLE_POD, new)
    assert in_active(q, new) is moves
    assert (q.num_unschedulable_pods() == 0) is moves
    if not moves:
        assert q.unschedulable_q.get(new).pod is new  # the stored pod is refreshed


def test_nominated_update_keeps_in_memory_nomination():
    q = new_queue()
    q.add(HIGH_PRIORITY_POD)
    q.update_nominated_pod_for_node(HIGH_PRIORITY_POD, "node7")  # set by preemption, API not yet updated
    newer = dataclasses.replace(HIGH_PRIORITY_POD, metadata=dataclasses.replace(
        HIGH_PRIORITY_POD.metadata, annotations={"x": "y"}))
    q.update(HIGH_PRIORITY_POD, newer)
    assert q.nominated_pods_for_node("node7") == [newer]
    # once the API object carries a (different) nomination, it wins
    nominated = dataclasses.replace(newer, status=dataclasses.replace(newer.status, nominated_node_name="node2"))
    q.update(newer, nominated)
    assert q.nominated_pods.nominated_pods == {"node2": [nominated]}
    # and clearing it on the API object clears it here too
    q.update(nominated, newer)
    assert q.nominated_pods.nominated_pods == {}


def test_add_unschedulable_error_messages():
    q = new_queue()
    q.add_unschedulable_if_not_present(q.new_pod_info(UNSCHEDULABLE_POD), 0)
    with pytest.raises(QueueError, match="^pod: ns1/up is already present in unschedulable queue$"):
        q.add_unschedulable_if_not_present(q.new_pod_info(UNSCHEDULABLE_POD), 0)
    q.move_all_to_active_or_backoff_queue("test")
    q.add_unschedulable_if_not_present(q.new_pod_info(MED_PRIORITY_POD), 0)
    with pytest.raises(QueueError, match="^pod ns2/mpp is already present in the backoff queue$"):
        q.add_unschedulable_if_not_present(q.new_pod_info(MED_PRIORITY_POD), 0)


def test_add_removes_pod_from_other_sub_queues():
    q = new_queue()
    q.add_unschedulable_if_not_present(q.new_pod_info(UNSCHEDULABLE_POD), 0)
    q.move_all_to_active_or_backoff_queue("test")
    q.add_unschedulable_if_not_present(q.new_pod_info(MED_PRIORITY_POD), 0)
    q.add_unschedulable_if_not_present(q.new_pod_info(HIGH_PRIORITY_POD), 1)
    assert in_backoff(q, UNSCHEDULABLE_POD) and in_backoff(q, MED_PRIORITY_POD)
    for pod in (UNSCHEDULABLE_POD, HIGH_PRIORITY_POD):
        q.add(pod)
    assert len(q.active_q) == 2 and len(q.pod_backoff_q) == 1 and q.num_unschedulable_pods() == 0


# -- AssignedPodAdded / Updated --------------------------------------------------------
AFFINITY_CASES = [
    # (pending namespace, term namespaces, assigned pod namespace, assigned labels, moves)
    ("same namespace, matching label", "ns1", (), "ns1", {"service": "securityscan"}, True),
    ("other namespace", "ns1", (), "ns2", {"service": "securityscan"}, False),
    ("term lists the namespace", "ns1", ("ns2",), "ns2", {"service": "value2"}, True),
    ("term lists other namespaces", "ns1", ("ns3",), "ns1", {"service": "securityscan"}, False),
    ("label does not match", "ns1", (), "ns1", {"service": "web"}, False),
]


@pytest.mark.parametrize("name,pending_ns,term_ns,assigned_ns,labels,moves", AFFINITY_CASES,
                         ids=[c[0] for c in AFFINITY_CASES])
@pytest.mark.parametrize("method,event", [("assigned_pod_added", "AssignedPodAdd"),
                                          ("assigned_pod_updated", "AssignedPodUpdate")])
def test_assigned_pod_moves_matching_required_affinity(name, pending_ns, term_ns, assigned_ns, labels, moves,
                                                       method, event):
    clock = FakeClock(T0)
    moved = []
    q = new_queue(clock, on_move=lambda pod, src, dst, ev: moved.append((pod.metadata.name, src, dst, ev)))
    pending = make_pod("afp", pending_ns, "afp-uid", MID,
                       affinity=required_affinity("service", ("securityscan", "value2"), term_ns))
    q.add_unschedulable_if_not_present(q.new_pod_info(pending), q.scheduling_cycle())
    q.add_unschedulable_if_not_present(q.new_pod_info(UNSCHEDULABLE_POD), q.scheduling_cycle())
    clock.step(2)
    getattr(q, method)(make_pod("lbp", assigned_ns, labels=labels, node_name="machine1"))
    assert in_active(q, pending) is moves
    assert q.unschedulable_q.get(UNSCHEDULABLE_POD) is not None
    assert [m for m in moved if m[3] == event] == ([("afp", "unschedulableQ", "activeQ", event)] if moves else [])
    assert q.move_request_cycle == q.scheduling_cycle()  # bumped even when nothing matched


def test_anti_affinity_and_preferred_terms_are_ignored():
    from kubesched.api.core import Affinity, PodAffinity, WeightedPodAffinityTerm
    term = required_affinity("service", ("securityscan",)).pod_affinity.required_during_scheduling_ignored_during_execution[0]
    affinity = Affinity(
        pod_affinity=PodAffinity(preferred_during_scheduling_ignored_during_execution=(
            WeightedPodAffinityTerm(weight=1, pod_affinity_term=term),)),
        pod_anti_affinity=PodAffinity(required_during_scheduling_ignored_during_execution=(term,)))
    q = new_queue()
    q.add_unschedulable_if_not_present(q.new_pod_info(make_pod("p", "ns1", "u", affinity=affinity)), 0)
    q.assigned_pod_added(make_pod("lbp", "ns1", labels={"service": "securityscan"}, node_name="m1"))
    assert q.num_unschedulable_pods() == 1


# -- on_move and metrics ---------------------------------------------------------------------
def test_on_move_and_incoming_metrics_follow_a_pod():
    clock = FakeClock(T0)
    moved = []
    q = new_queue(clock, on_move=lambda pod, src, dst, ev: moved.append((clock.now() - T0, src, dst, ev)))
    pod = make_pod("p", "ns", "uid")
    q.add(pod)                                               # "" -> activeQ (PodAdd)
    p_info = q.pop()                                         # activeQ -> "" (Pop)
    q.add_unschedulable_if_not_present(p_info, 1)            # "" -> unschedulableQ
    clock.step(0.5)
    q.move_all_to_active_or_backoff_queue(events.NODE_ADD)   # backing off -> podBackoffQ
    clock.step(0.5)
    q.flush_backoff_q_completed()                            # -> activeQ (BackoffComplete)
    q.delete(pod)                                            # activeQ -> "" (Delete)
    assert moved == [
        (0, "", "activeQ", "PodAdd"),
        (0, "activeQ", "", "Pop"),
        (0, "", "unschedulableQ", "ScheduleAttemptFailure"),
        (0.5, "unschedulableQ", "podBackoffQ", "NodeAdd"),
        (1.0, "podBackoffQ", "activeQ", "BackoffComplete"),
        (1.0, "activeQ", "", "Delete"),
    ]
    assert dict(q.incoming_pods) == {("active", "PodAdd"): 1, ("unschedulable", "ScheduleAttemptFailure"): 1,
                                     ("backoff", "NodeAdd"): 1, ("active", "BackoffComplete"): 1}


def test_broadcast_hooks_fire_where_upstream_broadcasts():
    q = new_queue()
    calls = []
    q.broadcast_hooks.append(lambda: calls.append(len(q.active_q)))
    q.add(HIGH_PRIORITY_POD)
    q.add_unschedulable_if_not_present(q.new_pod_info(UNSCHEDULABLE_POD), 0)  # no broadcast upstream
    q.move_all_to_active_or_backoff_queue("test")
    q.close()
    # Add; movePodsToActiveOrBackoffQueue and MoveAll each broadcast; Close.
    assert calls == [1, 1, 1, 1]


def test_pod_full_name_and_key():
    pod = make_pod("web", "prod")
    assert get_pod_full_name(pod) == "web_prod"
    assert meta_namespace_key(pod) == "prod/web"
    assert meta_namespace_key(make_pod("web", "")) == "web"


# -- stamps (issue 13: FIFO among equal priority) -------------------------------------
def test_pods_stamped_at_one_instant_pop_in_stamping_order():
    q = new_queue()
    pods = [make_pod(name, "ns", name) for name in ("p1", "p2", "p3", "p4", "p5", "p6")]
    for p in pods:
        q.add(p)
    popped = [q.pop() for _ in pods]
    assert [i.pod.metadata.name for i in popped] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert [(i.timestamp, i.seq) for i in popped] == [(T0, n) for n in range(1, 7)]


def test_requeued_pods_keep_the_order_of_their_failures_through_backoff():
    clock = FakeClock(T0)
    q = new_queue(clock)
    for name in ("a", "b", "c"):
        q.add(make_pod(name, "ns", name))
    infos = [q.pop() for _ in range(3)]
    q.move_all_to_active_or_backoff_queue("test")  # a move request during their cycles
    for info in (infos[2], infos[0], infos[1]):     # they fail in the order c, a, b
        q.add_unschedulable_if_not_present(info, q.scheduling_cycle())
    assert [q.get_backoff_time(i) for i in infos] == [T0 + 1] * 3   # equal expiries
    clock.step(1)
    q.flush_backoff_q_completed()
    assert [q.pop().pod.metadata.name for _ in range(3)] == ["c", "a", "b"]


def test_leftover_rule_uses_the_time_alone():
    clock = FakeClock(T0)
    q = new_queue(clock)
    q.add(make_pod("p", "ns", "p"))
    q.add_unschedulable_if_not_present(q.pop(), q.scheduling_cycle())
    clock.step(60)
    q.flush_unschedulable_q_leftover()    # exactly 60 s: not more than unschedulableQTimeInterval
    assert q.num_unschedulable_pods() == 1
    clock.step(0.5)
    q.flush_unschedulable_q_leftover()
    assert q.num_unschedulable_pods() == 0 and len(q.active_q) == 1
