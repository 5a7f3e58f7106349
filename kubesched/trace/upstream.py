"""Where each trace record happens upstream: file and function in kubernetes v1.18.5, and permalinks.

Upstream: the files named below, at tag v1.18.5 (paths relative to the kubernetes repository).
The dashboard's source panel links ``permalink(record.file)``; klog lines print the base name.

Functions are written ``Receiver.Method`` for methods and ``name`` for functions, as in Go.
Line numbers are not kept (they would drift from the Python); a permalink opens the file.
"""

from __future__ import annotations

from typing import Final

from kubesched.trace.records import Kind

TAG: Final = "v1.18.5"
REPO_URL: Final = "https://github.com/kubernetes/kubernetes"

SCHED: Final = "pkg/scheduler"
SCHEDULER_GO: Final = f"{SCHED}/scheduler.go"
FACTORY_GO: Final = f"{SCHED}/factory.go"
EVENTHANDLERS_GO: Final = f"{SCHED}/eventhandlers.go"
GENERIC_SCHEDULER_GO: Final = f"{SCHED}/core/generic_scheduler.go"
FRAMEWORK_GO: Final = f"{SCHED}/framework/v1alpha1/framework.go"
QUEUE_GO: Final = f"{SCHED}/internal/queue/scheduling_queue.go"
CACHE_GO: Final = f"{SCHED}/internal/cache/cache.go"
SERVER_GO: Final = "cmd/kube-scheduler/app/server.go"
SHARED_INFORMER_GO: Final = "staging/src/k8s.io/client-go/tools/cache/shared_informer.go"
EVENTS_CACHE_GO: Final = "staging/src/k8s.io/client-go/tools/record/events_cache.go"
LEADERELECTION_GO: Final = "staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go"

Location = tuple[str, str]  # (file, func)

# Kinds whose location does not depend on the record's payload.
KIND_LOCATION: Final[dict[Kind, Location]] = {
    Kind.STARTUP_STEP: (SERVER_GO, "Run"),
    Kind.INFORMER_EVENT: (SHARED_INFORMER_GO, "sharedIndexInformer.HandleDeltas"),
    Kind.CACHE_EVENT: (CACHE_GO, "schedulerCache"),
    Kind.QUEUE_MOVE: (QUEUE_GO, "PriorityQueue"),
    Kind.POD_POPPED: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.CYCLE_START: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.CYCLE_END: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.PHASE_START: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.PHASE_END: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.PLUGIN_CALL: (FRAMEWORK_GO, "framework"),
    Kind.POINT_RUN: (FRAMEWORK_GO, "framework"),
    Kind.FILTER_RUN: (GENERIC_SCHEDULER_GO, "genericScheduler.findNodesThatPassFilters"),
    Kind.EXTENDER_CALL: (GENERIC_SCHEDULER_GO, "genericScheduler.findNodesThatPassExtenders"),
    Kind.SCORE_RUN: (GENERIC_SCHEDULER_GO, "genericScheduler.prioritizeNodes"),
    Kind.SCHEDULE_RESULT: (GENERIC_SCHEDULER_GO, "genericScheduler.Schedule"),
    Kind.PREEMPTION: (GENERIC_SCHEDULER_GO, "genericScheduler.Preempt"),
    Kind.NOMINATE: (SCHEDULER_GO, "Scheduler.preempt"),
    Kind.VICTIM: (SCHEDULER_GO, "Scheduler.preempt"),
    Kind.CLEAR_NOMINATION: (SCHEDULER_GO, "Scheduler.preempt"),
    Kind.ASSUME: (SCHEDULER_GO, "Scheduler.assume"),
    Kind.FORGET: (CACHE_GO, "schedulerCache.ForgetPod"),
    Kind.EXPIRE: (CACHE_GO, "schedulerCache.cleanupAssumedPods"),
    Kind.PERMIT_WAIT: (FRAMEWORK_GO, "framework.RunPermitPlugins"),
    Kind.BINDING_CYCLE_START: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.BINDING_CYCLE_END: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.BIND: (SCHEDULER_GO, "Scheduler.bind"),
    Kind.SCHEDULING_FAILURE: (SCHEDULER_GO, "Scheduler.recordSchedulingFailure"),
    Kind.REQUEUE: (FACTORY_GO, "MakeDefaultErrorFunc"),
    Kind.EVENT: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.API_EVENT: (EVENTS_CACHE_GO, "EventCorrelator.EventCorrelate"),
    Kind.LEADER_ELECTION: (LEADERELECTION_GO, "LeaderElector.tryAcquireOrRenew"),
    Kind.LOG: (SCHEDULER_GO, "Scheduler.scheduleOne"),
    Kind.TIME: ("", ""),  # no upstream counterpart: the simulated clock reached this time
}

# -- plugins -------------------------------------------------------------------------------------
_PLUGINS: Final = f"{SCHED}/framework/plugins"

# plugin name → (file of its main type, Go receiver type); some extension points live in other files.
PLUGIN_FILES: Final[dict[str, tuple[str, str]]] = {
    "DefaultBinder": ("defaultbinder/default_binder.go", "DefaultBinder"),
    "DefaultPodTopologySpread": ("defaultpodtopologyspread/default_pod_topology_spread.go",
                                 "DefaultPodTopologySpread"),
    "ImageLocality": ("imagelocality/image_locality.go", "ImageLocality"),
    "InterPodAffinity": ("interpodaffinity/plugin.go", "InterPodAffinity"),
    "NodeAffinity": ("nodeaffinity/node_affinity.go", "NodeAffinity"),
    "NodeLabel": ("nodelabel/node_label.go", "NodeLabel"),
    "NodeName": ("nodename/node_name.go", "NodeName"),
    "NodePorts": ("nodeports/node_ports.go", "NodePorts"),
    "NodePreferAvoidPods": ("nodepreferavoidpods/node_prefer_avoid_pods.go", "NodePreferAvoidPods"),
    "NodeResourcesBalancedAllocation": ("noderesources/balanced_allocation.go", "BalancedAllocation"),
    "NodeResourcesFit": ("noderesources/fit.go", "Fit"),
    "NodeResourcesLeastAllocated": ("noderesources/least_allocated.go", "LeastAllocated"),
    "NodeResourcesMostAllocated": ("noderesources/most_allocated.go", "MostAllocated"),
    "RequestedToCapacityRatio": ("noderesources/requested_to_capacity_ratio.go", "RequestedToCapacityRatio"),
    "NodeResourceLimits": ("noderesources/resource_limits.go", "ResourceLimits"),
    "NodeUnschedulable": ("nodeunschedulable/node_unschedulable.go", "NodeUnschedulable"),
    "NodeVolumeLimits": ("nodevolumelimits/csi.go", "CSILimits"),
    "AzureDiskLimits": ("nodevolumelimits/non_csi.go", "nonCSILimits"),
    "CinderLimits": ("nodevolumelimits/non_csi.go", "nonCSILimits"),
    "EBSLimits": ("nodevolumelimits/non_csi.go", "nonCSILimits"),
    "GCEPDLimits": ("nodevolumelimits/non_csi.go", "nonCSILimits"),
    "PodTopologySpread": ("podtopologyspread/plugin.go", "PodTopologySpread"),
    "PrioritySort": ("queuesort/priority_sort.go", "PrioritySort"),
    "ServiceAffinity": ("serviceaffinity/service_affinity.go", "ServiceAffinity"),
    "TaintToleration": ("tainttoleration/taint_toleration.go", "TaintToleration"),
    "VolumeBinding": ("volumebinding/volume_binding.go", "VolumeBinding"),
    "VolumeRestrictions": ("volumerestrictions/volume_restrictions.go", "VolumeRestrictions"),
    "VolumeZone": ("volumezone/volume_zone.go", "VolumeZone"),
}

# Plugins split over filtering.go / scoring.go upstream.
_SPLIT_PLUGINS: Final = frozenset({"InterPodAffinity", "PodTopologySpread"})
_FILTERING_POINTS: Final = frozenset({"PreFilter", "Filter", "PreFilterExtensionAddPod",
                                      "PreFilterExtensionRemovePod"})
_SCORING_POINTS: Final = frozenset({"PreScore", "Score", "ScoreExtensionNormalize"})

# framework extension point name → the Go method the plugin implements.
_METHOD: Final[dict[str, str]] = {
    "PreFilterExtensionAddPod": "AddPod", "PreFilterExtensionRemovePod": "RemovePod",
    "ScoreExtensionNormalize": "NormalizeScore",
}

# framework extension point → the runner in framework.go (out-of-tree plugins point there).
RUNNER: Final[dict[str, str]] = {
    "PreFilter": "framework.RunPreFilterPlugins", "Filter": "framework.RunFilterPlugins",
    "PreFilterExtensionAddPod": "framework.RunPreFilterExtensionAddPod",
    "PreFilterExtensionRemovePod": "framework.RunPreFilterExtensionRemovePod",
    "PreScore": "framework.RunPreScorePlugins", "Score": "framework.RunScorePlugins",
    "ScoreExtensionNormalize": "framework.RunScorePlugins", "Reserve": "framework.RunReservePlugins",
    "Unreserve": "framework.RunUnreservePlugins", "Permit": "framework.RunPermitPlugins",
    "PreBind": "framework.RunPreBindPlugins", "Bind": "framework.RunBindPlugins",
    "PostBind": "framework.RunPostBindPlugins",
}


def plugin_location(plugin: str, extension_point: str) -> Location:
    """The plugin method that ran, e.g. ``("…/noderesources/fit.go", "Fit.Filter")``."""
    known = PLUGIN_FILES.get(plugin)
    if known is None:
        return FRAMEWORK_GO, RUNNER.get(extension_point, "framework")
    path, receiver = known
    if plugin in _SPLIT_PLUGINS:
        folder = path.rsplit("/", 1)[0]
        if extension_point in _FILTERING_POINTS:
            path = f"{folder}/filtering.go"
        elif extension_point in _SCORING_POINTS:
            path = f"{folder}/scoring.go"
    return f"{_PLUGINS}/{path}", f"{receiver}.{_METHOD.get(extension_point, extension_point)}"


# -- phases of scheduleOne / the binding cycle --------------------------------------------------
# Extension points reported by the framework's runners (and the generic scheduler's Filter
# walk) share this table with the scheduler's phases: Reserve … Unreserve are both.
PHASE_LOCATION: Final[dict[str, Location]] = {
    "Schedule": (GENERIC_SCHEDULER_GO, "genericScheduler.Schedule"),
    "PreFilter": (FRAMEWORK_GO, "framework.RunPreFilterPlugins"),
    "Filter": (GENERIC_SCHEDULER_GO, "genericScheduler.findNodesThatPassFilters"),
    "PreScore": (FRAMEWORK_GO, "framework.RunPreScorePlugins"),
    "Score": (FRAMEWORK_GO, "framework.RunScorePlugins"),
    "Preempt": (SCHEDULER_GO, "Scheduler.preempt"),
    "AssumePodVolumes": (SCHEDULER_GO, "Scheduler.scheduleOne"),
    "Reserve": (FRAMEWORK_GO, "framework.RunReservePlugins"),
    "Assume": (SCHEDULER_GO, "Scheduler.assume"),
    "Permit": (FRAMEWORK_GO, "framework.RunPermitPlugins"),
    "WaitOnPermit": (FRAMEWORK_GO, "framework.WaitOnPermit"),
    "BindVolumes": (SCHEDULER_GO, "Scheduler.bindVolumes"),
    "PreBind": (FRAMEWORK_GO, "framework.RunPreBindPlugins"),
    "Bind": (SCHEDULER_GO, "Scheduler.bind"),
    "PostBind": (FRAMEWORK_GO, "framework.RunPostBindPlugins"),
    "Unreserve": (FRAMEWORK_GO, "framework.RunUnreservePlugins"),
}


def phase_location(phase: str) -> Location:
    return PHASE_LOCATION.get(phase) or KIND_LOCATION[Kind.PHASE_START]


# -- queue moves -----------------------------------------------------------------------------------
def queue_location(source: str, target: str, event: str) -> Location:
    """The PriorityQueue method behind a move, from its event name and direction."""
    if event == "Pop":
        func = "PriorityQueue.Pop"
    elif event == "Update":
        func = "PriorityQueue.Update"
    elif event == "Delete":
        func = "PriorityQueue.Delete"
    elif event == "BackoffComplete":
        func = "PriorityQueue.flushBackoffQCompleted"
    elif event == "UnschedulableTimeout":
        func = "PriorityQueue.flushUnschedulableQLeftover"
    elif event in ("AssignedPodAdd", "AssignedPodUpdate"):
        func = "PriorityQueue.AssignedPodAdded" if event == "AssignedPodAdd" else "PriorityQueue.AssignedPodUpdated"
    elif event == "ScheduleAttemptFailure" or (source == "" and target in ("podBackoffQ", "unschedulableQ")):
        func = "PriorityQueue.AddUnschedulableIfNotPresent"
    elif source == "" and target == "activeQ":
        func = "PriorityQueue.Add"
    else:
        func = "PriorityQueue.MoveAllToActiveOrBackoffQueue"
    return QUEUE_GO, func


# -- cache events ------------------------------------------------------------------------------------
CACHE_FUNC: Final[dict[str, str]] = {
    "Assume": "schedulerCache.AssumePod", "FinishBinding": "schedulerCache.FinishBinding",
    "Forget": "schedulerCache.ForgetPod", "Add": "schedulerCache.AddPod", "Confirm": "schedulerCache.AddPod",
    "Warning": "schedulerCache.AddPod", "Update": "schedulerCache.UpdatePod", "Remove": "schedulerCache.RemovePod",
    "AddNode": "schedulerCache.AddNode", "UpdateNode": "schedulerCache.UpdateNode",
    "RemoveNode": "schedulerCache.RemoveNode", "Expire": "schedulerCache.cleanupAssumedPods",
    "Error": "schedulerCache.UpdateSnapshot",
}


def cache_location(event: str) -> Location:
    return CACHE_GO, CACHE_FUNC.get(event, "schedulerCache")


# -- Events, by reason -------------------------------------------------------------------------------
EVENT_FUNC: Final[dict[str, str]] = {
    "Scheduled": "Scheduler.finishBinding", "FailedScheduling": "Scheduler.recordSchedulingFailure",
    "Preempted": "Scheduler.preempt",
}


def event_location(reason: str) -> Location:
    return SCHEDULER_GO, EVENT_FUNC.get(reason, "Scheduler.scheduleOne")


# -- permalinks ----------------------------------------------------------------------------------------
def permalink(path: str, line: int | None = None) -> str:
    """``https://github.com/kubernetes/kubernetes/blob/v1.18.5/<path>`` (``#L<line>`` if given)."""
    url = f"{REPO_URL}/blob/{TAG}/{path}"
    return f"{url}#L{line}" if line else url


def record_link(record: object) -> str:
    """The permalink of a record's ``file`` ("" when it has none)."""
    path = getattr(record, "file", "")
    return permalink(path) if path else ""
