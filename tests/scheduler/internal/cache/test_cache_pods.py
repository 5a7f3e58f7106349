"""Scheduler cache: the pod state machine (assume, finish binding, expire, add, update, remove, forget).

Upstream: TestAssumePodScheduled, TestExpirePod, TestAddPodWillConfirm,
TestAddPodWillReplaceAssumed, TestAddPodAfterExpiration, TestUpdatePod,
TestUpdatePodAndGet, TestExpireAddUpdatePod, TestEphemeralStorageResource, TestRemovePod,
TestForgetPod in internal/cache/cache_test.go. Time is a FakeClock (upstream: time.Now()).
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.scheduler.internal.cache.cache_fixtures import host_port, make_base_pod, make_node, new_cache, requested
from kubesched.api.core import Container, ContainerPort, PodSpec, ResourceRequirements
from kubesched.api.quantity import Quantity
from kubesched.scheduler.internal.cache.cache import (CLEAN_ASSUMED_PERIOD, DURATION_TO_EXPIRE_ASSUMED_POD,
                                                      CacheEvent, new)
from kubesched.scheduler.internal.cache.interface import CacheCorruptedError, CacheError
from kubesched.util.loop import EventLoop

NODE = "node"
P80, P8080 = host_port(80), host_port(8080)
NON0_CPU, NON0_MEM = 100, 200 * 1024 * 1024

ASSUME_PODS = [
    make_base_pod(NODE, "test", "100m", "500", "", (P80,)),
    make_base_pod(NODE, "test-1", "100m", "500", "", (P80,)),
    make_base_pod(NODE, "test-2", "200m", "1Ki", "", (P8080,)),
    make_base_pod(NODE, "test-nonzero", "", "", "", (P80,)),
    make_base_pod(NODE, "test", "100m", "500", "example.com/foo:3", (P80,)),
    make_base_pod(NODE, "test-2", "200m", "1Ki", "example.com/foo:5", (P8080,)),
    make_base_pod(NODE, "test", "100m", "500", "random-invalid-extended-key:100", (ContainerPort(0),)),
]
TCP80, TCP8080 = ("127.0.0.1", "TCP", 80), ("127.0.0.1", "TCP", 8080)


@pytest.mark.parametrize("pods, want", [
    ([0], (100, 500, {}, 100, 500, ["test"], [TCP80])),
    ([1, 2], (300, 1524, {}, 300, 1524, ["test-1", "test-2"], [TCP80, TCP8080])),
    ([3], (0, 0, {}, NON0_CPU, NON0_MEM, ["test-nonzero"], [TCP80])),
    ([4], (100, 500, {"example.com/foo": 3}, 100, 500, ["test"], [TCP80])),
    ([4, 5], (300, 1524, {"example.com/foo": 8}, 300, 1524, ["test", "test-2"], [TCP80, TCP8080])),
    ([6], (100, 500, {}, 100, 500, ["test"], [])),
], ids=[f"case_{i}" for i in range(6)])
def test_assume_pod_scheduled(pods, want):
    cache, _ = new_cache(1.0)
    for i in pods:
        cache.assume_pod(ASSUME_PODS[i])
    assert requested(cache, NODE) == want
    for i in pods:
        cache.forget_pod(ASSUME_PODS[i])
        assert not cache.is_assumed_pod(ASSUME_PODS[i])
        with pytest.raises(CacheError):
            cache.get_pod(ASSUME_PODS[i])


EXPIRE_PODS = [
    make_base_pod(NODE, "test-1", "100m", "500", "", (P80,)),
    make_base_pod(NODE, "test-2", "200m", "1Ki", "", (P8080,)),
    make_base_pod(NODE, "test-3", "200m", "1Ki", "", (P8080,)),
]


EMPTY = (0, 0, {}, 0, 0, [], [])


@pytest.mark.parametrize("ghosts", [False, True], ids=["1.18.5", "ghost-nodes"])
@pytest.mark.parametrize("pods, cleanup_at, want", [
    # (pod index, finish binding at) — None: binding still in progress
    # 1.18.5 keeps the emptied node-less NodeInfo; the ghost-node variant drops it.
    ([(0, 0.0)], 20.0, "empty"),
    ([(0, 0.0), (1, 15.0), (2, None)], 20.0,
     (400, 2048, {}, 400, 2048, ["test-3", "test-2"], [TCP8080])),   # order altered by removal
    ([(0, 0.0)], 10.0, (100, 500, {}, 100, 500, ["test-1"], [TCP80])),  # deadline not passed: now > deadline
], ids=["assumed pod would expire", "first expires, second and third do not", "exactly at deadline"])
def test_expire_pod(pods, cleanup_at, want, ghosts):
    cache, _ = new_cache(10.0, keep_ghost_nodes=ghosts)
    if want == "empty":
        want = None if ghosts else EMPTY
    for index, finished_at in pods:
        cache.assume_pod(EXPIRE_PODS[index])
        if finished_at is not None:
            cache.finish_binding(EXPIRE_PODS[index], finished_at)
    cache.cleanup_assumed_pods(cleanup_at)
    assert requested(cache, NODE) == want


def test_add_pod_will_confirm():
    cache, _ = new_cache(10.0)
    for pod in EXPIRE_PODS[:2]:
        cache.assume_pod(pod)
        cache.finish_binding(pod, 0.0)
    cache.add_pod(EXPIRE_PODS[0])
    cache.cleanup_assumed_pods(20.0)
    assert requested(cache, NODE) == (100, 500, {}, 100, 500, ["test-1"], [TCP80])
    state = cache.pod_states[EXPIRE_PODS[0].metadata.uid]
    assert (cache.is_assumed_pod(EXPIRE_PODS[0]), state.deadline) == (False, None)


def test_dump():
    """Upstream: TestSnapshot (cache.Dump)."""
    cache, _ = new_cache(10.0)
    pods = [make_base_pod(NODE, "test-1", "100m", "500", "", (P80,)),
            make_base_pod(NODE, "test-2", "200m", "1Ki", "", (P80,))]
    for pod in pods:
        cache.assume_pod(pod)
        cache.finish_binding(pod, 0.0)
    cache.add_pod(pods[0])
    dump = cache.dump()
    assert list(dump.nodes) == [NODE]
    assert dump.nodes[NODE] is not cache.nodes[NODE].info
    assert [p.metadata.name for p in dump.nodes[NODE].pods] == ["test-1", "test-2"]
    assert dump.assumed_pods == {"test-2": True}
    assert dump.assumed_pods is not cache.assumed_pods
    assert {k: (v.assumed, v.deadline) for k, v in dump.pod_states.items()} == {
        "test-1": (False, None), "test-2": (True, 10.0)}


def test_add_pod_will_replace_assumed():
    cache, _ = new_cache(10.0)
    assumed = make_base_pod("assumed-node-1", "test-1", "100m", "500", "", (ContainerPort(80, host_port=80),))
    added = make_base_pod("actual-node", "test-1", "100m", "500", "", (ContainerPort(80, host_port=80),))
    updated = make_base_pod("actual-node", "test-1", "200m", "500", "", (ContainerPort(90, host_port=90),))
    seen: list[CacheEvent] = []
    cache.hooks.append(seen.append)
    cache.assume_pod(assumed)
    cache.finish_binding(assumed, 0.0)
    cache.add_pod(added)
    cache.update_pod(added, updated)
    assert requested(cache, "assumed-node-1") == (0, 0, {}, 0, 0, [], [])
    assert requested(cache, "actual-node") == (200, 500, {}, 200, 500, ["test-1"], [("0.0.0.0", "TCP", 90)])
    assert [e.kind for e in seen] == ["Assume", "FinishBinding", "Warning", "Confirm", "Update"]
    assert seen[2].message == "Pod test-1 was assumed to be on actual-node but got added to assumed-node-1"


def test_add_pod_after_expiration():
    cache, _ = new_cache(10.0)
    pod = make_base_pod(NODE, "test", "100m", "500", "", (P80,))
    cache.assume_pod(pod)
    cache.finish_binding(pod, 0.0)
    cache.cleanup_assumed_pods(20.0)
    with pytest.raises(CacheError):
        cache.get_pod(pod)
    assert not cache.is_assumed_pod(pod)
    cache.add_pod(pod)
    assert requested(cache, NODE) == (100, 500, {}, 100, 500, ["test"], [TCP80])


UPDATE_PODS = [make_base_pod(NODE, "test", "100m", "500", "", (P80,)),
               make_base_pod(NODE, "test", "200m", "1Ki", "", (P8080,))]
AFTER_UPDATE = [(200, 1024, {}, 200, 1024, ["test"], [TCP8080]), (100, 500, {}, 100, 500, ["test"], [TCP80])]


@pytest.mark.parametrize("expire_first", [False, True], ids=["TestUpdatePod", "TestExpireAddUpdatePod"])
def test_update_pod(expire_first):
    cache, _ = new_cache(10.0)
    if expire_first:
        cache.assume_pod(UPDATE_PODS[0])
        cache.finish_binding(UPDATE_PODS[0], 0.0)
        cache.cleanup_assumed_pods(20.0)
    cache.add_pod(UPDATE_PODS[0])
    sequence = [UPDATE_PODS[0], UPDATE_PODS[1], UPDATE_PODS[0]]
    for j in range(1, len(sequence)):
        cache.update_pod(sequence[j - 1], sequence[j])
        assert requested(cache, NODE) == AFTER_UPDATE[j - 1]


@pytest.mark.parametrize("assume, want", [(True, 0), (False, 1)], ids=["assumed", "added-then-updated"])
def test_update_pod_and_get(assume, want):
    cache, _ = new_cache(10.0)
    if assume:
        cache.assume_pod(UPDATE_PODS[0])
    else:
        cache.add_pod(UPDATE_PODS[0])
        cache.update_pod(UPDATE_PODS[0], UPDATE_PODS[1])
    assert cache.get_pod(UPDATE_PODS[0]) is UPDATE_PODS[want]


def test_ephemeral_storage_resource():
    pod = dataclasses.replace(
        make_base_pod(NODE, "pod-with-ephemeral-storage"),
        spec=PodSpec(node_name=NODE, containers=(Container(name="c", resources=ResourceRequirements(
            requests={"ephemeral-storage": Quantity.parse("500")})),)))
    cache, _ = new_cache(1.0)
    cache.add_pod(pod)
    info = cache.nodes[NODE].info
    assert (info.requested_resource.ephemeral_storage, info.non_zero_request.milli_cpu,
            info.non_zero_request.memory) == (500, NON0_CPU, NON0_MEM)
    cache.remove_pod(pod)
    with pytest.raises(CacheError):
        cache.get_pod(pod)


def test_remove_pod_moves_node_to_head():
    pod = make_base_pod("node-1", "test", "100m", "500", "", (P80,))
    cache, _ = new_cache(1.0)
    cache.add_pod(pod)  # succeeds even before the node exists
    assert requested(cache, "node-1") == (100, 500, {}, 100, 500, ["test"], [TCP80])
    cache.add_node(make_node("node-1"))
    cache.add_node(make_node("node-2"))
    cache.remove_pod(pod)
    with pytest.raises(CacheError):
        cache.get_pod(pod)
    assert cache.head_node.info.node_name() == "node-1"


def test_forget_pod():
    pod = make_base_pod(NODE, "test", "100m", "500", "", (P80,))
    cache, _ = new_cache(10.0)
    cache.assume_pod(pod)
    cache.finish_binding(pod, 0.0)
    assert cache.is_assumed_pod(pod)
    assert cache.get_pod(pod) is pod
    cache.forget_pod(pod)
    assert not cache.is_assumed_pod(pod)
    with pytest.raises(CacheError):
        cache.get_pod(pod)


POD = make_base_pod(NODE, "p", "100m", "500")
OTHER_NODE = dataclasses.replace(POD, spec=dataclasses.replace(POD.spec, node_name="elsewhere"))


@pytest.mark.parametrize("setup, action, error", [
    ("assume", lambda c: c.assume_pod(POD), "pod p is in the cache, so can't be assumed"),
    ("add", lambda c: c.assume_pod(POD), "pod p is in the cache, so can't be assumed"),
    ("add", lambda c: c.add_pod(POD), "pod p was already in added state"),
    ("", lambda c: c.forget_pod(POD), "pod p wasn't assumed so cannot be forgotten"),
    ("add", lambda c: c.forget_pod(POD), "pod p wasn't assumed so cannot be forgotten"),
    ("assume", lambda c: c.forget_pod(OTHER_NODE), "pod p was assumed on elsewhere but assigned to node"),
    ("assume", lambda c: c.update_pod(POD, POD), "pod p is not added to scheduler cache, so cannot be updated"),
    ("", lambda c: c.update_pod(POD, POD), "pod p is not added to scheduler cache, so cannot be updated"),
    ("assume", lambda c: c.remove_pod(POD),
     "pod p is not found in scheduler cache, so cannot be removed from it"),
    ("", lambda c: c.get_pod(POD), "pod p does not exist in scheduler cache"),
    ("", lambda c: c.remove_node(make_node("n")), "node n is not found"),
], ids=["assume-twice", "assume-added", "add-twice", "forget-unknown", "forget-added", "forget-other-node",
        "update-assumed", "update-unknown", "remove-assumed", "get-unknown", "remove-unknown-node"])
def test_errors(setup, action, error):
    cache, _ = new_cache(10.0)
    if setup == "assume":
        cache.assume_pod(POD)
    elif setup == "add":
        cache.add_pod(POD)
    with pytest.raises(CacheError) as err:
        action(cache)
    assert str(err.value) == error


@pytest.mark.parametrize("action", [lambda c: c.update_pod(POD, OTHER_NODE), lambda c: c.remove_pod(OTHER_NODE)],
                         ids=["update-other-node", "remove-other-node"])
def test_corrupted(action):
    cache, _ = new_cache(10.0)
    cache.add_pod(POD)
    with pytest.raises(CacheCorruptedError, match="Schedulercache is corrupted"):
        action(cache)


def test_finish_binding_of_unassumed_pod_is_a_no_op():
    cache, _ = new_cache(10.0)
    cache.add_pod(POD)
    cache.finish_binding(POD, 0.0)
    assert (cache.pod_states["p"].binding_finished, cache.pod_states["p"].deadline) == (False, None)


def test_defaults_match_upstream():
    assert (DURATION_TO_EXPIRE_ASSUMED_POD, CLEAN_ASSUMED_PERIOD) == (30.0, 1.0)


@pytest.mark.parametrize("bind_done_at, confirm_at, gone_at", [
    (0.0, None, 31.0),    # deadline 30: the sweep at 30 sees now == deadline, the one at 31 expires it
    (2.5, None, 33.0),    # deadline 32.5: first sweep after it is at 33
    (0.0, 29.0, None),    # confirmed by the informer before the deadline: never expires
    (None, None, None),   # binding never finished: never expires
], ids=["expires-31s", "expires-on-next-tick", "confirmed", "binding-in-progress"])
def test_expiry_on_the_loop(bind_done_at, confirm_at, gone_at):
    """The sweep runs at once and then every second on the loop (``New`` + ``run``)."""
    loop = EventLoop()
    cache = new(DURATION_TO_EXPIRE_ASSUMED_POD, loop)
    cache.assume_pod(POD)
    if bind_done_at is not None:
        loop.call_at(bind_done_at, lambda: cache.finish_binding(POD))
    if confirm_at is not None:
        loop.call_at(confirm_at, lambda: cache.add_pod(POD))
    expired_at = []
    cache.hooks.append(lambda e: expired_at.append(loop.now()) if e.kind == "Expire" else None)
    loop.run(until=60.0)
    assert (expired_at[0] if expired_at else None) == gone_at
    assert (POD.metadata.uid in cache.pod_states) == (gone_at is None)
    assert cache.pod_count() == (0 if gone_at is not None else 1)
    assert [(e.time, e.label) for e in loop.pending()] == [(61.0, "cleanupExpiredAssumedPods")]
    cache.stop()
    assert loop.pending() == []


@pytest.mark.parametrize("assumed, want", [
    (True, [0.0, 1.0, 2.0, 3.0]),   # wait.Until: at once, then every period
    (False, []),                    # nothing assumed: the loop skips the sweeps (clock skip)
], ids=["assumed-pod", "nothing-assumed"])
def test_sweep_runs_at_once_then_every_period(assumed, want):
    loop = EventLoop()
    cache = new(DURATION_TO_EXPIRE_ASSUMED_POD, loop)
    loop.call_at(100.0, lambda: None, label="later")  # something else pending, as in a cluster
    if assumed:
        cache.assume_pod(POD)
    ran = []
    original = cache.cleanup_assumed_pods
    cache.cleanup_assumed_pods = lambda now: (ran.append(now), original(now))
    assert loop.run(until=3.5) == len(want)
    assert ran == want
    assert (loop.now(), [(e.time, e.label) for e in loop.pending()]) == (
        3.5, [(4.0, "cleanupExpiredAssumedPods"), (100.0, "later")])
