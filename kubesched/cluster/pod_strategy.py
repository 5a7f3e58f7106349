"""Pod-specific API-server rules: create defaults, update validation, graceful delete, conditions.

Upstream: pkg/registry/core/pod/strategy.go (podStrategy.PrepareForCreate,
PrepareForUpdate, CheckGracefulDelete), pkg/apis/core/validation/validation.go
(ValidatePodUpdate), pkg/api/pod/util.go (UpdatePodCondition).
Deviation: PrepareForCreate resets the whole status to ``Pending``; here a
status supplied with the object (a ``kubectl get -o yaml`` snapshot of a running
pod) is kept and only an empty phase becomes ``Pending``. QoS class is not set.
Deviation: the Forbidden message of ValidatePodUpdate ends with a Go object diff
upstream; it is left out here.
"""

from __future__ import annotations

import dataclasses
from typing import Final, Optional

from kubesched.api.core import Pod, PodCondition, PodSpec, PodStatus
from kubesched.api.defaults import DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
from kubesched.api.meta import Time

POD_PENDING: Final = "Pending"
POD_RUNNING: Final = "Running"
POD_SUCCEEDED: Final = "Succeeded"
POD_FAILED: Final = "Failed"
CONDITION_TRUE: Final = "True"
POD_SCHEDULED: Final = "PodScheduled"

POD_UPDATE_FORBIDDEN: Final = (
    "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`, "
    "`spec.initContainers[*].image`, `spec.activeDeadlineSeconds` or `spec.tolerations` "
    "(only additions to existing tolerations)")


def prepare_for_create(pod: Pod) -> Pod:
    """Upstream: podStrategy.PrepareForCreate (phase Pending)."""
    if pod.status.phase:
        return pod
    return dataclasses.replace(pod, status=dataclasses.replace(pod.status, phase=POD_PENDING))


def validate_pod_update(new: Pod, old: Pod) -> list[str]:
    """Upstream: ValidatePodUpdate's spec check; returns the causes (empty = valid)."""
    if _munged(new.spec, old.spec) != old.spec:
        return [POD_UPDATE_FORBIDDEN]
    return []


def _munged(new: PodSpec, old: PodSpec) -> PodSpec:
    """New spec with the mutable fields taken from the old one, as ValidatePodUpdate munges it."""
    def images(mine: tuple, theirs: tuple) -> tuple:
        if len(mine) != len(theirs):
            return mine
        return tuple(dataclasses.replace(c, image=o.image) for c, o in zip(mine, theirs))

    tolerations = old.tolerations if set(old.tolerations) <= set(new.tolerations) else new.tolerations
    return dataclasses.replace(new, containers=images(new.containers, old.containers),
                               init_containers=images(new.init_containers, old.init_containers),
                               tolerations=tolerations)


def check_graceful_delete(pod: Pod, grace_period_seconds: Optional[int]) -> int:
    """Upstream: podStrategy.CheckGracefulDelete -> the grace period to use.

    The API server's defaulting sets ``terminationGracePeriodSeconds`` to 30; a pod
    stored without it gets that default here.
    """
    if grace_period_seconds is not None:
        period = grace_period_seconds
    elif pod.spec.termination_grace_period_seconds is not None:
        period = pod.spec.termination_grace_period_seconds
    else:
        period = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
    if not pod.spec.node_name:
        period = 0
    if pod.status.phase in (POD_FAILED, POD_SUCCEEDED):
        period = 0
    return period


def get_pod_condition(status: PodStatus, condition_type: str) -> Optional[PodCondition]:
    return next((c for c in status.conditions if c.type == condition_type), None)


def update_pod_condition(status: PodStatus, condition: PodCondition, now: float) -> PodStatus:
    """Upstream: podutil.UpdatePodCondition; the transition time moves only when status changes."""
    condition = dataclasses.replace(condition, last_transition_time=Time(now))
    old = get_pod_condition(status, condition.type)
    if old is None:
        return dataclasses.replace(status, conditions=status.conditions + (condition,))
    if old.status == condition.status:
        condition = dataclasses.replace(condition, last_transition_time=old.last_transition_time)
    conditions = tuple(condition if c.type == condition.type else c for c in status.conditions)
    return dataclasses.replace(status, conditions=conditions)
