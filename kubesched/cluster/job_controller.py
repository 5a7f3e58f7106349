"""The Job controller: ``parallelism`` pods at a time until ``completions`` of them succeeded.

Upstream: pkg/controller/job/job_controller.go @ v1.18.5 (addPod/updatePod/deletePod,
syncJob, manageJob, getStatus, pastActiveDeadline, newCondition, IsJobFinished) and
pkg/controller/controller_utils.go (FilterActivePods, ActivePods, the pod events).

Each sync counts the Job's active (not finished, not terminating), succeeded and failed
pods. With ``completions`` set it keeps ``min(parallelism, completions - succeeded)``
pods active; without, ``parallelism`` until one pod succeeded, then it lets the others
finish. When ``completions`` pods succeeded (or, without completions, one succeeded and
none is active) the Job gets the condition ``Complete`` and the event ``Completed``; once
``activeDeadlineSeconds`` have passed since ``startTime`` its active pods are deleted
and it fails with ``DeadlineExceeded``. Pods are named ``<job>-<5 chars>`` (generateName).
How long a Job's pod runs is the kubelet model's ``JOB_POD_RUN_SECONDS``.

Deviation: pods never fail here, so ``backoffLimit`` and the failure backoff are never
reached; pod names come from a stable hash of (job, count); no TTL controller
(``ttlSecondsAfterFinished`` is kept but nothing deletes finished Jobs).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Final

from kubesched.api.batch import JOB_COMPLETE, JOB_FAILED, Job, JobCondition
from kubesched.api.controllers import pod_from_template
from kubesched.api.core import Pod
from kubesched.api.meta import Time
from kubesched.api.names import generate_name
from kubesched.cluster import controller_utils as cu
from kubesched.cluster import pod_strategy
from kubesched.cluster.apiserver import APIServer
from kubesched.cluster.errors import APIError
from kubesched.cluster.watch import WatchEvent

COMPONENT: Final = "job-controller"
SYNC_LABEL: Final = "job-controller: sync"
_PHASE_RANK: Final = {pod_strategy.POD_PENDING: 0, "Unknown": 1, pod_strategy.POD_RUNNING: 2}


def is_job_finished(job: Job) -> bool:
    """``IsJobFinished``: a Complete or Failed condition is True."""
    return any(c.type in (JOB_COMPLETE, JOB_FAILED) and c.status == "True" for c in job.status.conditions)


def active_pods_order(pod: Pod) -> tuple:
    """``controller.ActivePods``: the pods to delete first sort first (unassigned, pending, not ready, newer)."""
    ready = cu.is_pod_ready(pod)
    condition = pod_strategy.get_pod_condition(pod.status, "Ready")
    ready_since = condition.last_transition_time if ready and condition is not None else None
    created = pod.metadata.creation_timestamp
    return (bool(pod.spec.node_name), _PHASE_RANK.get(pod.status.phase, 0), ready,
            -math.inf if ready_since is None else -ready_since,
            -math.inf if created is None else -created)


def new_condition(condition_type: str, reason: str, message: str, now: float) -> JobCondition:
    return JobCondition(type=condition_type, status="True", last_probe_time=Time(now),
                        last_transition_time=Time(now), reason=reason, message=message)


class JobController:
    """Runs every Job's pods to completion."""

    def __init__(self, api: APIServer):
        self._api = api
        self._queue = cu.SyncQueue(api.loop, self._sync, SYNC_LABEL)
        self._made: dict[cu.Key, int] = {}
        self.stop = api.watch(self._on_event, kinds=("Job", "Pod"))
        for job in api.list("Job"):
            self._queue.add(cu.key_of(job))

    def _on_event(self, event: WatchEvent) -> None:
        if event.kind == "Job":
            self._queue.add(cu.key_of(event.obj))
            return
        cu.enqueue_pod_owners(self._api, self._queue, Job.KIND, event.obj)

    # -- sync ----------------------------------------------------------------------------------
    def _sync(self, key: cu.Key) -> None:
        """``syncJob``."""
        try:
            job: Job = self._api.get(Job.KIND, *key)
        except APIError:
            return
        if is_job_finished(job):
            return
        now = self._api.loop.now()
        pods = cu.claim_pods(self._api, job, job.spec.selector)
        active_pods = [p for p in pods if cu.is_pod_active(p)]
        active = len(active_pods)
        succeeded = sum(1 for p in pods if p.status.phase == pod_strategy.POD_SUCCEEDED)
        failed = sum(1 for p in pods if p.status.phase == pod_strategy.POD_FAILED)
        status = job.status
        if status.start_time is None:
            status = dataclasses.replace(status, start_time=Time(now))
            if job.spec.active_deadline_seconds is not None:
                self._queue.add_after(key, job.spec.active_deadline_seconds)
        conditions = status.conditions
        deadline = job.spec.active_deadline_seconds
        if deadline is not None and now - status.start_time >= deadline:
            for pod in active_pods:
                cu.delete_pod(self._api, job, pod.metadata.name, COMPONENT)
            failed, active = failed + active, 0
            reason, message = "DeadlineExceeded", "Job was active longer than specified deadline"
            conditions += (new_condition(JOB_FAILED, reason, message, now),)
            self._api.record_event(job, cu.EVENT_WARNING, reason, message, component=COMPONENT)
        else:
            if job.metadata.deletion_timestamp is None:
                active = self._manage_job(job, active_pods, succeeded)
            if self._complete(job, active, succeeded):
                conditions += (new_condition(JOB_COMPLETE, "", "", now),)
                status = dataclasses.replace(status, completion_time=Time(now))
                self._api.record_event(job, cu.EVENT_NORMAL, "Completed", "Job completed", component=COMPONENT)
        if (status.active, status.succeeded, status.failed, len(status.conditions)) != (
                active, succeeded, failed, len(conditions)):
            cu.write_status(self._api, job, dataclasses.replace(
                status, active=active, succeeded=succeeded, failed=failed, conditions=conditions))

    def _complete(self, job: Job, active: int, succeeded: int) -> bool:
        completions = job.spec.completions
        if completions is None:
            return succeeded > 0 and active == 0
        if succeeded < completions:
            return False
        if active > 0:
            self._api.record_event(job, cu.EVENT_WARNING, "TooManyActivePods",
                                   "Too many active pods running after completion count reached",
                                   component=COMPONENT)
        if succeeded > completions:
            self._api.record_event(job, cu.EVENT_WARNING, "TooManySucceededPods",
                                   "Too many succeeded pods running after completion count reached",
                                   component=COMPONENT)
        return True

    def _manage_job(self, job: Job, active_pods: list[Pod], succeeded: int) -> int:
        """``manageJob``: delete the surplus over parallelism, or create up to what is wanted."""
        active = len(active_pods)
        parallelism = job.spec.parallelism if job.spec.parallelism is not None else 1
        if active > parallelism:
            for pod in sorted(active_pods, key=active_pods_order)[:active - parallelism]:
                cu.delete_pod(self._api, job, pod.metadata.name, COMPONENT)
            return parallelism
        if job.spec.completions is None:
            wanted = active if succeeded > 0 else parallelism
        else:
            wanted = min(job.spec.completions - succeeded, parallelism)
        classes = {pc.metadata.name: pc for pc in self._api.list("PriorityClass")}
        for _ in range(max(wanted - active, 0)):
            if cu.create_pod(self._api, job, self._new_pod(job, classes), COMPONENT) is not None:
                active += 1
        return active

    def _new_pod(self, job: Job, classes: dict) -> Pod:
        key = cu.key_of(job)
        taken = {p.metadata.name for p in self._api.list("Pod", key[0])}
        while True:
            count = self._made.get(key, 0)
            self._made[key] = count + 1
            name = generate_name(f"{key[1]}-", f"Job/{key[0]}/{key[1]}/{count}")
            if name not in taken:
                return pod_from_template(job, job.spec.template, name, classes, generate_name=f"{key[1]}-")
