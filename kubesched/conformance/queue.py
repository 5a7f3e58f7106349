"""Conformance adapter for ``queue.yaml``: PriorityQueue step vectors.

Upstream: pkg/scheduler/internal/queue/scheduling_queue_test.go (v1.18), translated to
steps in shared/conformance/queue.yaml; the file's ``notes`` define every op.

A queue case has no top-level ``expect``: its expectations are ``expect`` steps and the
``expect*`` keys of ``pop`` / ``add_unschedulable`` steps. The adapter runs the steps on
a real :class:`PriorityQueue` over a :class:`FakeClock` and raises ``AssertionError``
naming the first step that does not hold; it returns ``{}`` when every step holds.

Harness choices (documented because results depend on them):
- The fake clock starts at 1000 s, so a PodInfo made without a timestamp (0.0, Go's
  zero time) lies far in the past, as it does upstream.
- ``tick`` only moves the clock. ``tick`` with ``run_periodic_flush`` then runs
  flushBackoffQCompleted and flushUnschedulableQLeftover once each, in that order
  (the flushes the background loops would have run by then).
- Pods are compared by identity with the fixtures (upstream compares pointers); a pod
  whose status was changed by ``set_condition`` replaces its fixture.
- ``pop_blocking_start`` checks that Pop on the empty queue would wait (this Pop returns None
  instead of blocking); ``pop_blocking_result`` is what that Pop returns afterwards: the next
  pod, or with ``expect_error`` the error once the queue was closed.
- ``mark_time`` remembers the clock; ``backoff_deadline_minus_mark_seconds`` is
  getBackoffTime of the case's only pod (in podBackoffQ) minus that mark, rounded to 1 ns.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from kubesched.api.core import Pod, PodCondition
from kubesched.conformance._harness import as_object
from kubesched.conformance import register
from kubesched.scheduler.internal.queue.pod_info import PodInfo
from kubesched.scheduler.internal.queue.scheduling_queue import (
    PriorityQueue,
    QueueClosedError,
    QueueError,
    UnschedulablePodsMap,
    get_pod_full_name,
    meta_namespace_key,
)
from kubesched.util.clock import FakeClock

START = 1000.0


def decode_pod(manifest: dict) -> Pod:
    """Decode a fixture; vectors leave out ``spec.containers`` as upstream tests did."""
    return as_object(manifest, "Pod")


def update_pod_condition(pod: Pod, cond: dict) -> Pod:
    """``podutil.UpdatePodCondition``: replace the condition of that type, or append it."""
    new = PodCondition(type=cond["type"], status=cond["status"], reason=cond.get("reason", ""),
                       message=cond.get("message", ""))
    conditions = list(pod.status.conditions)
    for i, existing in enumerate(conditions):
        if existing.type == new.type:
            conditions[i] = new
            break
    else:
        conditions.append(new)
    return dataclasses.replace(pod, status=dataclasses.replace(pod.status, conditions=tuple(conditions)))


class _Harness:
    def __init__(self, case: dict) -> None:
        args = case.get("args") or {}
        self.clock = FakeClock(START)
        self.fixtures: dict[str, Pod] = {k: decode_pod(v) for k, v in (case.get("pods") or {}).items()}
        self.queue = PriorityQueue(
            clock=self.clock,
            pod_initial_backoff_duration=args.get("podInitialBackoffSeconds", 1),
            pod_max_backoff_duration=args.get("podMaxBackoffSeconds", 10))
        self.podinfos = {name: PodInfo(self.fixtures[spec["pod"]], timestamp=START + spec["timestamp_offset_s"])
                         for name, spec in (args.get("podinfos") or {}).items()}
        self.saved: dict[str, Any] = {}
        self.umap = UnschedulablePodsMap()
        self.updated_copies: set[int] = set()

    # -- naming -------------------------------------------------------------------------
    def name_of(self, pod: Pod) -> str:
        for key, fixture in self.fixtures.items():
            if fixture is pod:
                return key
        for key, fixture in self.fixtures.items():
            if fixture == pod:
                return key
        return meta_namespace_key(pod)

    def info_name(self, p_info: PodInfo) -> str:
        for name, info in {**self.podinfos, **self.saved}.items():
            if info is p_info:
                return name
        return self.name_of(p_info.pod)

    def pod_info(self, step: dict) -> PodInfo:
        spec = step.get("podinfo", "new")
        if isinstance(spec, dict):
            return PodInfo(self.fixtures[spec["pod"]], timestamp=START + spec["timestamp_offset_s"])
        if spec in self.saved:
            return self.saved[spec]
        if spec in self.podinfos:
            return self.podinfos[spec]
        pod = self.fixtures[step["pod"]]
        if step.get("with_condition"):
            pod = update_pod_condition(pod, step["with_condition"])
        return self.queue.new_pod_info(pod) if spec == "new" else PodInfo(pod)

    def cycle(self, value: Any) -> int:
        if value == "current":
            return self.queue.scheduling_cycle()
        return self.saved[value] if isinstance(value, str) else int(value)

    # -- ops ----------------------------------------------------------------------------
    def op_add(self, step: dict) -> None:
        self.queue.add(self.fixtures[step["pod"]])

    def op_pop(self, step: dict) -> None:
        p_info = self.queue.pop()
        _check(p_info is not None, "pop on an empty activeQ")
        assert p_info is not None
        self._check_popped(step, p_info)

    def _check_popped(self, step: dict, p_info: PodInfo) -> None:
        got = self.name_of(p_info.pod)
        if "expect" in step:
            _check(got == step["expect"], f"popped {got}, expected {step['expect']}")
        if "expect_one_of" in step:
            _check(got in step["expect_one_of"], f"popped {got}, expected one of {step['expect_one_of']}")
        if "expect_attempts" in step:
            _check(p_info.attempts == step["expect_attempts"], f"attempts {p_info.attempts}")
        if "expect_initial_attempt_timestamp_offset_s" in step:
            offset = p_info.initial_attempt_timestamp - START
            _check(offset == step["expect_initial_attempt_timestamp_offset_s"], f"initial attempt at +{offset}")
        if "save_as" in step:
            self.saved[step["save_as"]] = p_info

    def op_pop_blocking_start(self, step: dict) -> None:
        _check(self.queue.pop() is None, "Pop on an empty queue must wait (return None here)")

    def op_pop_blocking_result(self, step: dict) -> None:
        """What the waiting Pop returns: the queueClosed error (``expect_error``) or a pod."""
        if "expect_error" not in step:
            self.op_pop(step)
            return
        try:
            p_info = self.queue.pop()
        except QueueClosedError as err:
            _check(str(err) == step["expect_error"], f"Pop failed with {err!r}")
            return
        _check(False, f"Pop returned {p_info!r}, expected the error {step['expect_error']!r}")

    def op_close(self, step: dict) -> None:
        self.queue.close()

    def op_mark_time(self, step: dict) -> None:
        self.saved[step["as"]] = self.clock.now()

    def op_add_unschedulable(self, step: dict) -> None:
        p_info = self.pod_info(step)
        try:
            self.queue.add_unschedulable_if_not_present(p_info, self.cycle(step["cycle"]))
        except QueueError as err:
            _check(str(err) == step.get("expect_error"), f"unexpected error: {err}")
            return
        _check("expect_error" not in step, f"expected error {step.get('expect_error')!r}")

    def op_update(self, step: dict) -> None:
        old = self.fixtures[step["old"]] if step.get("old") else None
        self.queue.update(old, self.fixtures[step["new"]])

    def op_delete(self, step: dict) -> None:
        self.queue.delete(self.fixtures[step["pod"]])

    def op_move_all(self, step: dict) -> None:
        self.queue.move_all_to_active_or_backoff_queue(step["event"])

    def op_assigned_pod_added(self, step: dict) -> None:
        self.queue.assigned_pod_added(self.fixtures[step["pod"]])

    def op_update_nominated(self, step: dict) -> None:
        self.queue.update_nominated_pod_for_node(self.fixtures[step["pod"]], step["node"])

    def op_delete_nominated(self, step: dict) -> None:
        self.queue.delete_nominated_pod_if_exists(self.fixtures[step["pod"]])

    def op_tick(self, step: dict) -> None:
        self.clock.step(step["seconds"])
        if step.get("run_periodic_flush"):
            self.queue.flush_backoff_q_completed()
            self.queue.flush_unschedulable_q_leftover()

    def op_set_clock(self, step: dict) -> None:
        self.clock.set(START + step["offset_s"])

    def op_flush_backoff(self, step: dict) -> None:
        self.queue.flush_backoff_q_completed()

    def op_flush_unschedulable_leftover(self, step: dict) -> None:
        self.queue.flush_unschedulable_q_leftover()

    def op_save_cycle(self, step: dict) -> None:
        self.saved[step["as"]] = self.queue.scheduling_cycle()

    def op_set_condition(self, step: dict) -> None:
        ref = step["pod"]
        old = self.saved[ref].pod if ref in self.saved else self.fixtures[ref]
        new = update_pod_condition(old, step["condition"])
        for key, fixture in self.fixtures.items():
            if fixture is old:
                self.fixtures[key] = new
        for info in self.saved.values():
            if isinstance(info, PodInfo) and info.pod is old:
                info.pod = new

    def _raw_infos(self, step: dict) -> list[PodInfo]:
        if "podinfo" in step:
            return [self.podinfos[step["podinfo"]]]
        return [PodInfo(self.fixtures[k], timestamp=START + step["timestamp_offset_s"]) for k in step["pods"]]

    def op_raw_activeQ_add(self, step: dict) -> None:
        for p_info in self._raw_infos(step):
            self.queue.active_q.add(p_info)

    def op_raw_activeQ_update(self, step: dict) -> None:
        for p_info in self._raw_infos(step):
            self.queue.active_q.update(p_info)

    def op_raw_backoffQ_add(self, step: dict) -> None:
        for p_info in self._raw_infos(step):
            self.queue.pod_backoff_q.add(p_info)

    def op_raw_unschedulableQ_add(self, step: dict) -> None:
        condition = {"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                     "message": "fake scheduling failure"}
        for p_info in self._raw_infos(step):
            p_info.pod = update_pod_condition(p_info.pod, condition)
            self.queue.unschedulable_q.add_or_update(p_info)

    def op_map_add(self, step: dict) -> None:
        pod = self.fixtures[step["pod"]]
        if step.get("updated_copy"):
            pod = dataclasses.replace(pod)
            self.updated_copies.add(id(pod))
        self.umap.add_or_update(PodInfo(pod))

    def op_map_delete(self, step: dict) -> None:
        self.umap.delete(self.fixtures[step["pod"]])

    def op_map_clear(self, step: dict) -> None:
        self.umap.clear()

    def op_expect(self, step: dict) -> None:
        for key, want in step.items():
            if key != "op":
                got = self.observe(key, want)
                _check(got == want, f"{key}: expected {want!r}, got {got!r}")

    # -- observations -------------------------------------------------------------------
    def observe(self, key: str, want: Any) -> Any:
        q = self.queue
        if key == "nominated":
            return {node: [self.name_of(p) for p in pods] for node, pods in q.nominated_pods.nominated_pods.items()}
        if key == "nominated_count_on_node":
            return {node: len(q.nominated_pods.nominated_pods.get(node, [])) for node in want}
        if key == "nominated_node_count":
            return len(q.nominated_pods.nominated_pods)
        if key == "nominated_pods_for_node":
            return {node: _names_or_none(self.name_of, q.nominated_pods_for_node(node)) for node in want}
        if key == "backoff_deadline_minus_mark_seconds":
            p_info = q.pod_backoff_q.get_by_key(meta_namespace_key(self.fixtures[self._only_pod()]))
            got = None if p_info is None else round(q.get_backoff_time(p_info) - self.saved[want["mark"]], 9)
            return {"mark": want["mark"], "value": got}
        if key.endswith("_not_contains"):
            return [k for k in want if not self._holds(key.split("_")[0], k)]
        if key.endswith("_contains"):
            return [k for k in want if self._holds(key.split("_")[0], k)]
        if key.endswith("_len"):
            return {"activeQ": len(q.active_q), "backoffQ": len(q.pod_backoff_q),
                    "unschedulableQ": len(q.unschedulable_q)}[key[:-4]]
        if key == "pending_set":
            got = sorted(self.name_of(p) for p in q.pending_pods())
            return want if got == sorted(want) else got
        if key == "queue_lengths":
            return q.pending_pods_metric()
        if key == "incoming_pods_total":
            return {f"{event}/{queue}": n for (queue, event), n in q.incoming_pods.items()}
        if key == "podInitialBackoffSeconds":
            return q.pod_initial_backoff_duration
        if key == "podMaxBackoffSeconds":
            return q.pod_max_backoff_duration
        if key == "raw_activeQ_pop_order":
            return [self.info_name(q.active_q.pop()) for _ in range(len(want))]
        if key == "map_keys":
            got = sorted(self.umap.pod_info_map)
            return want if got == sorted(want) else got
        if key == "updated_entries":
            return sorted(k for k, info in self.umap.pod_info_map.items() if id(info.pod) in self.updated_copies)
        raise KeyError(f"unknown expect key {key!r}")

    def _only_pod(self) -> str:
        (key,) = self.fixtures
        return key

    def _holds(self, queue_name: str, pod_key: str) -> bool:
        pod = self.fixtures[pod_key]
        if queue_name == "unschedulableQ":
            return self.queue.unschedulable_q.get(pod) is not None
        heap = self.queue.active_q if queue_name == "activeQ" else self.queue.pod_backoff_q
        return heap.get_by_key(meta_namespace_key(pod)) is not None


def _names_or_none(name_of: Any, pods: Optional[list[Pod]]) -> Optional[list[str]]:
    return None if pods is None else [name_of(p) for p in pods]


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise AssertionError(message)


def run_steps(case: dict) -> Optional[PriorityQueue]:
    """Run every step of a queue case; AssertionError("step N (op): ...") on the first miss."""
    harness = _Harness(case)
    for index, step in enumerate(case.get("steps") or []):
        handler = getattr(harness, f"op_{step['op']}", None)
        if handler is None:
            raise KeyError(f"step {index}: unknown op {step['op']!r}")
        try:
            handler(step)
        except AssertionError as err:
            raise AssertionError(f"step {index} ({step['op']}): {err}") from None
    return harness.queue


@register("queue")
def evaluate_queue(case: dict, doc: dict) -> dict:
    """Adapter for queue.yaml (see module docstring)."""
    run_steps(case)
    # Queue cases carry their expectations in their steps; nothing is left to compare.
    case.setdefault("expect", {})
    return {}


__all__ = ["evaluate_queue", "run_steps", "decode_pod", "update_pod_condition", "get_pod_full_name"]
