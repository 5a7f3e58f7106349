"""Names of the events that move pods between the scheduling queue's sub-queues.

Upstream: pkg/scheduler/internal/queue/events.go (the constant block). The strings are
byte-identical to v1.18.5; in 1.18 they only label the queue metrics and the trace:
every event moves all unschedulable pods (no per-plugin filtering).
"""

from __future__ import annotations

from typing import Final

UNKNOWN: Final = "Unknown"
POD_ADD: Final = "PodAdd"
NODE_ADD: Final = "NodeAdd"
SCHEDULE_ATTEMPT_FAILURE: Final = "ScheduleAttemptFailure"
BACKOFF_COMPLETE: Final = "BackoffComplete"
UNSCHEDULABLE_TIMEOUT: Final = "UnschedulableTimeout"
ASSIGNED_POD_ADD: Final = "AssignedPodAdd"
ASSIGNED_POD_UPDATE: Final = "AssignedPodUpdate"
ASSIGNED_POD_DELETE: Final = "AssignedPodDelete"
PV_ADD: Final = "PvAdd"
PV_UPDATE: Final = "PvUpdate"
PVC_ADD: Final = "PvcAdd"
PVC_UPDATE: Final = "PvcUpdate"
STORAGE_CLASS_ADD: Final = "StorageClassAdd"
SERVICE_ADD: Final = "ServiceAdd"
SERVICE_UPDATE: Final = "ServiceUpdate"
SERVICE_DELETE: Final = "ServiceDelete"
CSI_NODE_ADD: Final = "CSINodeAdd"
CSI_NODE_UPDATE: Final = "CSINodeUpdate"
NODE_SPEC_UNSCHEDULABLE_CHANGE: Final = "NodeSpecUnschedulableChange"
NODE_ALLOCATABLE_CHANGE: Final = "NodeAllocatableChange"
NODE_LABEL_CHANGE: Final = "NodeLabelChange"
NODE_TAINT_CHANGE: Final = "NodeTaintChange"
NODE_CONDITION_CHANGE: Final = "NodeConditionChange"

ALL_EVENTS: Final = (
    UNKNOWN, POD_ADD, NODE_ADD, SCHEDULE_ATTEMPT_FAILURE, BACKOFF_COMPLETE, UNSCHEDULABLE_TIMEOUT,
    ASSIGNED_POD_ADD, ASSIGNED_POD_UPDATE, ASSIGNED_POD_DELETE, PV_ADD, PV_UPDATE, PVC_ADD,
    PVC_UPDATE, STORAGE_CLASS_ADD, SERVICE_ADD, SERVICE_UPDATE, SERVICE_DELETE, CSI_NODE_ADD,
    CSI_NODE_UPDATE, NODE_SPEC_UNSCHEDULABLE_CHANGE, NODE_ALLOCATABLE_CHANGE, NODE_LABEL_CHANGE,
    NODE_TAINT_CHANGE, NODE_CONDITION_CHANGE,
)
