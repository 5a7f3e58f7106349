"""The scheduling loop: one pod per ``scheduleOne``, then an asynchronous binding cycle.

Upstream: pkg/scheduler/scheduler.go @ v1.18.5 (Scheduler, New, Run, scheduleOne,
profileForPod, skipPodSchedule, recordSchedulingFailure, truncateMessage, preempt,
bindVolumes, assume, bind, extendersBinding, finishBinding, podConditionUpdaterImpl,
podPreemptorImpl) and pkg/scheduler/internal/queue/scheduling_queue.go (MakeNextPodFunc).

How the goroutines become loop callbacks (one ``EventLoop``, no wall clock):

- ``wait.UntilWithContext(ctx, scheduleOne, 0)`` is a chain of ``scheduleOne`` callbacks:
  after a cycle that popped a pod the next one is scheduled at once (``call_later(0)``);
  when activeQ is empty the chain stops and the queue's ``broadcast_hooks`` (upstream's
  condition variable) start it again when a pod can be popped. No busy loop.
- The binding goroutine is one callback (``call_later(0)``) scheduled at the end of the
  scheduling cycle; ``WaitOnPermit`` hands over to the loop until Allow/Reject/timeout, and
  so does ``bindVolumes`` while BindPodVolumes polls (first check 1 s later).
- Every cycle takes no simulated time.

Deviations:
- ``state.SetRecordPluginMetrics(rand.Intn(100) < 10)`` and all metrics are left out (no
  global random number is drawn).
- ``recordSchedulingFailure`` reads the pod before calling the error func: the error func
  re-queues synchronously here (see factory.make_default_error_func), where upstream's
  goroutine usually replaces ``podInfo.Pod`` only later.
- Pods are immutable: where upstream mutates ``assumedPod.Spec.NodeName`` in place, the
  assumed PodInfo gets the new pod object.
- Errors that are Python bugs (TypeError, AttributeError, NameError, AssertionError,
  ImportError) propagate instead of becoming ``SchedulerError`` failures.
- ``Run`` also starts what server.go ``Run`` and ``internalcache.New`` start before it:
  the cache's expiry sweep and the informers (List + Watch), so one call starts a scheduler.

Log hook: ``log(verbosity, message, *, severity, site)`` with klog's verbosity (0 for
Error/Warning lines), upstream's message text, the klog severity (``I``, ``W``, ``E``: which of
Infof/Warningf/Errorf upstream calls) and the call site as (upstream file, function). A
callable taking only ``(verbosity, message)`` still works: ``as_log`` drops the keywords.

Observer hooks (keyword-only; each is called only when an observer is set and defines it):

- ``pod_popped(pod, scheduling_cycle, attempts)`` — NextPod returned a pod.
- ``cycle_start(pod, profile, scheduling_cycle)``; ``cycle_end(pod, profile,
  scheduling_cycle, result, node, message)`` with result ``skipped`` | ``no-profile`` |
  ``failed`` | ``assumed`` (handed to the binding cycle).
- ``phase_start(phase, pod, node)``; ``phase_end(phase, pod, node, code, message)`` for
  ``Schedule``, ``Preempt``, ``AssumePodVolumes``, ``Reserve``, ``Assume``, ``Permit``,
  ``WaitOnPermit``, ``BindVolumes``, ``PreBind``, ``Bind``, ``PostBind``, ``Unreserve``
  (``code`` is a framework code name: ``Success``, ``Error``, ``Unschedulable`` …, ``Wait``).
- ``assume(pod, node)``; ``forget(pod, node)`` — scheduler cache AssumePod / ForgetPod.
- ``permit_wait(pod, node, pending_plugins)`` — Permit returned Wait.
- ``binding_cycle_start(pod, node)``; ``binding_cycle_end(pod, node, result, message)``
  with result ``bound`` | ``failed``.
- ``bind(pod, node, binder, error)`` — ``binder`` is the extender's name or ``framework``.
- ``scheduling_failure(pod, reason, message, error)`` — recordSchedulingFailure.
- ``nominate(pod, node)``; ``victim(pod, preemptor, node)``; ``clear_nomination(pod)`` —
  the API writes of ``preempt``.
- ``requeue(pod, scheduling_cycle)`` — from the default error func (factory.py).
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Final, Mapping, Optional, Protocol

from kubesched.api.core import Pod, PodCondition
from kubesched.cluster.errors import APIError
from kubesched.cluster.pod_strategy import POD_SCHEDULED, update_pod_condition
from kubesched.scheduler import events
from kubesched.scheduler.core.fit_error import FitError, NoNodesAvailableError
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    Code, FrameworkError, Status, code_of, is_success, message_of)
from kubesched.scheduler.internal.queue.pod_info import PodInfo
from kubesched.scheduler.internal.queue.scheduling_queue import QueueClosedError
from kubesched.util.clock import Clock
from kubesched.util.loop import Loop

BIND_TIMEOUT_SECONDS: Final = 100
SCHEDULER_ERROR: Final = "SchedulerError"
POD_REASON_UNSCHEDULABLE: Final = "Unschedulable"  # v1.PodReasonUnschedulable
VOLUME_BINDING_FAILED: Final = "VolumeBindingFailed"
CONDITION_FALSE: Final = "False"
NOTE_LENGTH_LIMIT: Final = 1024  # pkg/apis/core/validation NoteLengthLimit
SCHEDULE_ONE_PRIORITY: Final = 0
BINDING_PRIORITY: Final = 0

# Exceptions that are bugs in Python code, never an upstream ``err`` value.
_BUGS: Final = (TypeError, AttributeError, NameError, AssertionError, ImportError)

Log = Callable[..., None]  # log(verbosity, message, *, severity="I", site=(file, func))
LogSite = tuple[str, str]
ErrorFunc = Callable[[PodInfo, BaseException], None]

INFO, WARNING, ERROR = "I", "W", "E"  # klog severities
SCHEDULER_GO: Final = "pkg/scheduler/scheduler.go"
EVENTHANDLERS_GO: Final = "pkg/scheduler/eventhandlers.go"
SCHEDULE_ONE: Final[LogSite] = (SCHEDULER_GO, "Scheduler.scheduleOne")
_NEXT_POD: Final[LogSite] = ("pkg/scheduler/internal/queue/scheduling_queue.go", "MakeNextPodFunc")
_SKIP_POD_SCHEDULE: Final[LogSite] = (SCHEDULER_GO, "Scheduler.skipPodSchedule")
_SKIP_POD_UPDATE: Final[LogSite] = (EVENTHANDLERS_GO, "Scheduler.skipPodUpdate")
_RECORD_FAILURE: Final[LogSite] = (SCHEDULER_GO, "Scheduler.recordSchedulingFailure")
_PREEMPT: Final[LogSite] = (SCHEDULER_GO, "Scheduler.preempt")
_BIND_VOLUMES: Final[LogSite] = (SCHEDULER_GO, "Scheduler.bindVolumes")
_ASSUME: Final[LogSite] = (SCHEDULER_GO, "Scheduler.assume")
_FINISH_BINDING: Final[LogSite] = (SCHEDULER_GO, "Scheduler.finishBinding")
_UPDATE_CONDITION: Final[LogSite] = (SCHEDULER_GO, "podConditionUpdaterImpl.update")


def no_log(verbosity: int, message: str, **where: str) -> None:
    return None


def as_log(log: Callable[..., None]) -> Log:
    """``log`` itself when it takes ``severity`` and ``site``; else a wrapper dropping them."""
    try:
        params = inspect.signature(log).parameters.values()
    except (TypeError, ValueError):
        params = ()
    names = {p.name for p in params}
    if {"severity", "site"} <= names or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return log

    def two_argument_log(verbosity: int, message: str, **where: Any) -> None:
        log(verbosity, message)
    return two_argument_log


def _ns_name(pod: Pod) -> str:
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def truncate_message(message: str) -> str:
    """``truncateMessage``: at most NoteLengthLimit bytes, cut ones ending in `` ...``.

    Go slices bytes; a rune cut in half becomes U+FFFD when the Event is serialised.
    """
    data = message.encode("utf-8")
    if len(data) <= NOTE_LENGTH_LIMIT:
        return message
    suffix = " ..."
    return data[:NOTE_LENGTH_LIMIT - len(suffix)].decode("utf-8", errors="replace") + suffix


def is_fit_error(err: BaseException) -> bool:
    """``err.(*core.FitError)``."""
    return isinstance(err, FitError)


def is_no_nodes_available(err: BaseException) -> bool:
    """``err == core.ErrNoNodesAvailable``."""
    return isinstance(err, NoNodesAvailableError)


# -- collaborators (structural) -----------------------------------------------------
class Client(Protocol):
    """The API-server verbs the scheduler uses (``kubesched.cluster.APIServer``)."""

    def get(self, kind: str, namespace: str, name: str) -> Any: ...
    def update_status(self, obj: Any) -> Any: ...
    def delete(self, kind: str, namespace: str, name: str, grace_period_seconds: Optional[int] = None) -> Any: ...


class ProfileNotFoundError(LookupError):
    pass


# -- podConditionUpdaterImpl / podPreemptorImpl --------------------------------------
class PodConditionUpdater:
    """``podConditionUpdaterImpl``: UpdateStatus only when the condition really changes."""

    def __init__(self, client: Client, clock: Clock, log: Log = no_log) -> None:
        self.client, self.clock, self.log = client, clock, as_log(log)

    def update(self, pod: Pod, condition: PodCondition) -> None:
        """Raises the API error of the UpdateStatus call, if any."""
        self.log(3, f"Updating pod condition for {_ns_name(pod)} to ({condition.type}=={condition.status}, "
                    f"Reason={condition.reason})", site=_UPDATE_CONDITION)
        status = update_pod_condition(pod.status, condition, self.clock.now())
        if status != pod.status:
            self.client.update_status(dataclasses.replace(pod, status=status))


class PodPreemptor:
    """``podPreemptorImpl``: the preemptor's GET, victims' DELETE, nominatedNodeName writes."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def get_updated_pod(self, pod: Pod) -> Pod:
        return self.client.get("Pod", pod.metadata.namespace, pod.metadata.name)

    def delete_pod(self, pod: Pod) -> None:
        self.client.delete("Pod", pod.metadata.namespace, pod.metadata.name)

    def set_nominated_node_name(self, pod: Pod, nominated_node_name: str) -> None:
        status = dataclasses.replace(pod.status, nominated_node_name=nominated_node_name)
        self.client.update_status(dataclasses.replace(pod, status=status))

    def remove_nominated_node_name(self, pod: Pod) -> None:
        if not pod.status.nominated_node_name:
            return
        self.set_nominated_node_name(pod, "")


@dataclass(slots=True)
class _BindingTask:
    """What the binding goroutine closes over."""

    prof: Any
    state: CycleState
    pod_info: PodInfo          # podInfo (attempts, initial attempt time)
    assumed_pod_info: PodInfo  # assumedPodInfo, handed to recordSchedulingFailure
    host: str
    all_bound: bool
    evaluated_nodes: int
    feasible_nodes: int

    @property
    def pod(self) -> Pod:
        return self.assumed_pod_info.pod


class Scheduler:
    """``Scheduler``: the fields eventhandlers.go and scheduleOne use, plus the loop driver."""

    def __init__(self, *, scheduler_cache: Any, algorithm: Any, profiles: Mapping[str, Any],
                 scheduling_queue: Any, error: ErrorFunc, volume_binder: Any, client: Client,
                 loop: Loop, disable_preemption: bool = False, informer_factory: Any = None,
                 log: Log = no_log, observer: Any = None) -> None:
        self.scheduler_cache = scheduler_cache
        self.algorithm = algorithm
        self.profiles = profiles
        self.scheduling_queue = scheduling_queue
        self.error = error
        self.volume_binder = volume_binder
        self.client = client
        self.loop = loop
        self.disable_preemption = disable_preemption
        self.informer_factory = informer_factory
        self.log = as_log(log)
        self.observer = observer
        self.pod_condition_updater = PodConditionUpdater(client, loop, self.log)
        self.pod_preemptor = PodPreemptor(client)
        self.event_handlers: Any = None  # set by add_all_event_handlers' caller (factory)
        self.running = False
        self._next_step: Any = None
        scheduling_queue.broadcast_hooks.append(self._on_queue_broadcast)

    # -- Run and the scheduleOne chain ---------------------------------------------------
    def run(self) -> None:
        """server.go ``Run`` from the informers on, then ``Scheduler.Run``.

        Order: the cache's expiry sweep (started by ``internalcache.New`` upstream), the
        informers (List + Watch), ``WaitForCacheSync``, ``SchedulingQueue.Run`` (both flushers
        run at once), then the first ``scheduleOne``.
        """
        if self.running:
            return
        self.running = True
        self.scheduler_cache.run(self.loop)
        if self.informer_factory is not None:
            self.informer_factory.start()
        self._wait_for_cache_sync()

    def scheduled_pods_has_synced(self) -> bool:
        return self.informer_factory is None or self.informer_factory.has_synced()

    def _wait_for_cache_sync(self) -> None:
        if not self.running:
            return
        if not self.scheduled_pods_has_synced():
            # WaitForCacheSync polls; the informers' "synced" mark is already on the loop.
            self.loop.call_later(0, self._wait_for_cache_sync, label="WaitForCacheSync")
            return
        self.scheduling_queue.run(self.loop)
        self._schedule_step()

    def stop(self) -> None:
        """Context cancelled: no further scheduleOne; ``SchedulingQueue.Close``."""
        self.running = False
        if self._next_step is not None:
            self._next_step.cancel()
            self._next_step = None
        self.scheduling_queue.close()
        self.scheduler_cache.stop()
        if self.informer_factory is not None:
            self.informer_factory.stop()

    def _schedule_step(self) -> None:
        if self.running and self._next_step is None:
            self._next_step = self.loop.call_later(0, self._step, priority=SCHEDULE_ONE_PRIORITY,
                                                   label="scheduleOne")

    def _step(self) -> None:
        self._next_step = None
        if not self.running:
            return
        try:
            popped = self.schedule_one()
        except QueueClosedError:
            self.running = False
            return
        if popped:
            self._schedule_step()

    def _on_queue_broadcast(self) -> None:
        """The queue's ``cond.Broadcast``: wake a Pop waiting for activeQ."""
        if len(self.scheduling_queue.active_q) > 0 or self.scheduling_queue.closed:
            self._schedule_step()

    def next_pod(self) -> Optional[PodInfo]:
        """``MakeNextPodFunc``: Pop; None when activeQ is empty (Deviation: Pop does not block)."""
        try:
            return self.scheduling_queue.pop()
        except QueueClosedError as err:
            self.log(0, f"Error while retrieving next pod from scheduling queue: {err}", severity=ERROR,
                     site=_NEXT_POD)
            raise

    # -- scheduleOne -----------------------------------------------------------------------
    def schedule_one(self) -> bool:
        """``scheduleOne``: one scheduling cycle. False when there was no pod to pop."""
        pod_info = self.next_pod()
        if pod_info is None or pod_info.pod is None:
            return False
        pod = pod_info.pod
        cycle = self.scheduling_queue.scheduling_cycle()
        self._notify("pod_popped", pod=pod, scheduling_cycle=cycle, attempts=pod_info.attempts)
        try:
            prof = self.profile_for_pod(pod)
        except ProfileNotFoundError as err:
            self.log(0, str(err), severity=ERROR, site=SCHEDULE_ONE)
            self._notify("cycle_end", pod=pod, profile=pod.spec.scheduler_name, scheduling_cycle=cycle,
                         result="no-profile", node="", message=str(err))
            return True
        name = pod.spec.scheduler_name
        if self.skip_pod_schedule(prof, pod):
            self._notify("cycle_end", pod=pod, profile=name, scheduling_cycle=cycle, result="skipped",
                         node="", message="")
            return True
        self.log(3, f"Attempting to schedule pod: {_ns_name(pod)}", site=SCHEDULE_ONE)
        self._notify("cycle_start", pod=pod, profile=name, scheduling_cycle=cycle)
        state = CycleState()
        outcome = self._scheduling_cycle(prof, state, pod_info)
        self._notify("cycle_end", pod=pod, profile=name, scheduling_cycle=cycle, result=outcome[0],
                     node=outcome[1], message=outcome[2])
        return True

    def _scheduling_cycle(self, prof: Any, state: CycleState, pod_info: PodInfo) -> tuple[str, str, str]:
        """Schedule → AssumePodVolumes → Reserve → assume → Permit; returns (result, node, message)."""
        pod = pod_info.pod
        fw = prof.framework
        self._phase_start("Schedule", pod)
        try:
            result = self.algorithm.schedule(prof, state, pod)
        except _BUGS:
            raise
        except Exception as err:  # noqa: BLE001 - any error Schedule returns
            self._phase_end("Schedule", pod, "", _err_code(err), str(err))
            self._handle_schedule_error(prof, state, pod, err)
            self.record_scheduling_failure(prof, pod_info.deep_copy(), err, POD_REASON_UNSCHEDULABLE, str(err))
            return "failed", "", str(err)
        host = result.suggested_host
        self._phase_end("Schedule", pod, host, "Success", "")

        assumed_pod_info = pod_info.deep_copy()
        assumed_pod = assumed_pod_info.pod
        self._phase_start("AssumePodVolumes", assumed_pod, host)
        try:
            all_bound = self.volume_binder.assume_pod_volumes(assumed_pod, host)
        except _BUGS:
            raise
        except Exception as err:  # noqa: BLE001 - the binder's err
            self._phase_end("AssumePodVolumes", assumed_pod, host, "Error", str(err))
            message = f"AssumePodVolumes failed: {err}"
            self.record_scheduling_failure(prof, assumed_pod_info, err, SCHEDULER_ERROR, message)
            return "failed", host, message
        self._phase_end("AssumePodVolumes", assumed_pod, host, "Success", "")

        self._phase_start("Reserve", assumed_pod, host)
        sts = fw.run_reserve_plugins(state, assumed_pod, host)
        self._phase_end("Reserve", assumed_pod, host, str(code_of(sts)), message_of(sts))
        if not is_success(sts):
            self.record_scheduling_failure(prof, assumed_pod_info, sts.as_error(), SCHEDULER_ERROR, sts.message())
            return "failed", host, sts.message()

        self._phase_start("Assume", assumed_pod, host)
        assumed_pod = _with_node_name(assumed_pod, host)
        assumed_pod_info.pod = assumed_pod  # assume() sets Spec.NodeName on the shared object
        try:
            self.assume(assumed_pod, host)
        except _BUGS:
            raise
        except Exception as err:  # noqa: BLE001 - cache error
            self._phase_end("Assume", assumed_pod, host, "Error", str(err))
            message = f"AssumePod failed: {err}"
            self.record_scheduling_failure(prof, assumed_pod_info, err, SCHEDULER_ERROR, message)
            self._run_unreserve(prof, state, assumed_pod, host)
            return "failed", host, message
        self._phase_end("Assume", assumed_pod, host, "Success", "")

        self._phase_start("Permit", assumed_pod, host)
        permit = fw.run_permit_plugins(state, assumed_pod, host)
        self._phase_end("Permit", assumed_pod, host, str(code_of(permit)), message_of(permit))
        if code_of(permit) != Code.WAIT and not is_success(permit):
            reason = POD_REASON_UNSCHEDULABLE if permit.is_unschedulable() else SCHEDULER_ERROR
            self._forget(assumed_pod)
            self._run_unreserve(prof, state, assumed_pod, host)
            self.record_scheduling_failure(prof, assumed_pod_info, permit.as_error(), reason, permit.message())
            return "failed", host, permit.message()
        if code_of(permit) == Code.WAIT:
            waiting = fw.get_waiting_pod(assumed_pod.metadata.uid)
            self._notify("permit_wait", pod=assumed_pod, node=host,
                         pending_plugins=tuple(waiting.get_pending_plugins()) if waiting is not None else ())

        task = _BindingTask(prof, state, pod_info, assumed_pod_info, host, all_bound,
                            result.evaluated_nodes, result.feasible_nodes)
        self.loop.call_later(0, lambda: self._binding_cycle(task), priority=BINDING_PRIORITY,
                             label=f"binding cycle {_ns_name(assumed_pod)}")
        return "assumed", host, ""

    def _handle_schedule_error(self, prof: Any, state: CycleState, pod: Pod, err: BaseException) -> None:
        """The branches of scheduleOne's ``if err != nil``: preempt on a FitError, else log."""
        if is_fit_error(err):
            if self.disable_preemption:
                self.log(3, "Pod priority feature is not enabled or preemption is disabled by scheduler "
                            "configuration. No preemption is performed.", site=SCHEDULE_ONE)
            else:
                self.preempt(prof, state, pod, err)
        elif not is_no_nodes_available(err):
            self.log(0, f"error selecting node for pod: {err}", severity=ERROR, site=SCHEDULE_ONE)

    # -- the binding goroutine ---------------------------------------------------------
    def _binding_cycle(self, task: _BindingTask) -> None:
        self._notify("binding_cycle_start", pod=task.pod, node=task.host)
        self._phase_start("WaitOnPermit", task.pod, task.host)
        task.prof.framework.wait_on_permit(task.pod, lambda status: self._after_wait_on_permit(task, status))

    def _after_wait_on_permit(self, task: _BindingTask, status: Optional[Status]) -> None:
        prof, state, pod, host = task.prof, task.state, task.pod, task.host
        self._phase_end("WaitOnPermit", pod, host, str(code_of(status)), message_of(status))
        if not is_success(status):
            reason = POD_REASON_UNSCHEDULABLE if status.is_unschedulable() else SCHEDULER_ERROR
            self._forget(pod)
            self._run_unreserve(prof, state, pod, host)
            self._binding_failed(task, status.as_error(), reason, status.message())
            return
        if task.all_bound:
            self._after_bind_volumes(task, None)
        else:
            self.bind_volumes(pod, lambda err: self._after_bind_volumes(task, err))

    def _after_bind_volumes(self, task: _BindingTask, err: Optional[BaseException]) -> None:
        prof, state, pod, host = task.prof, task.state, task.pod, task.host
        if err is not None:
            self._binding_failed(task, err, VOLUME_BINDING_FAILED, str(err))
            self._run_unreserve(prof, state, pod, host)
            return
        self._phase_start("PreBind", pod, host)
        pre_bind = prof.framework.run_pre_bind_plugins(state, pod, host)
        self._phase_end("PreBind", pod, host, str(code_of(pre_bind)), message_of(pre_bind))
        if not is_success(pre_bind):
            self._forget(pod)
            self._run_unreserve(prof, state, pod, host)
            self._binding_failed(task, pre_bind.as_error(), SCHEDULER_ERROR, pre_bind.message())
            return
        err = self.bind(prof, pod, host, state)
        if err is not None:
            self._run_unreserve(prof, state, pod, host)
            self._binding_failed(task, err, SCHEDULER_ERROR, f"Binding rejected: {err}")
            return
        self.log(2, f'pod {_ns_name(pod)} is bound successfully on node "{host}", {task.evaluated_nodes} nodes '
                    f"evaluated, {task.feasible_nodes} nodes were found feasible.", site=SCHEDULE_ONE)
        self._phase_start("PostBind", pod, host)
        prof.framework.run_post_bind_plugins(state, pod, host)
        self._phase_end("PostBind", pod, host, "Success", "")
        self._notify("binding_cycle_end", pod=pod, node=host, result="bound", message="")

    def _binding_failed(self, task: _BindingTask, err: BaseException, reason: str, message: str) -> None:
        self.record_scheduling_failure(task.prof, task.assumed_pod_info, err, reason, message)
        self._notify("binding_cycle_end", pod=task.pod, node=task.host, result="failed", message=message)

    # -- helpers of scheduleOne ------------------------------------------------------------
    def profile_for_pod(self, pod: Pod) -> Any:
        prof = self.profiles.get(pod.spec.scheduler_name)
        if prof is None:
            raise ProfileNotFoundError(f'profile not found for scheduler name "{pod.spec.scheduler_name}"')
        return prof

    def skip_pod_schedule(self, prof: Any, pod: Pod) -> bool:
        """``skipPodSchedule``: a pod being deleted, or an assumed pod's irrelevant update."""
        if pod.metadata.deletion_timestamp is not None:
            prof.recorder.eventf(pod, events.WARNING, events.FAILED_SCHEDULING,
                                 events.skip_deleting_note(pod.metadata.namespace, pod.metadata.name),
                                 action=events.ACTION_SCHEDULING)
            self.log(3, f"Skip schedule deleting pod: {_ns_name(pod)}", site=_SKIP_POD_SCHEDULE)
            return True
        return self.skip_pod_update(pod)

    def skip_pod_update(self, pod: Pod) -> bool:
        """``skipPodUpdate`` (eventhandlers.go)."""
        handlers = self.event_handlers
        if handlers is None:
            from kubesched.scheduler.eventhandlers import EventHandlers
            handlers = self.event_handlers = EventHandlers(self, lambda level, msg: self.log(
                0 if level == "error" else 4, msg, severity=ERROR if level == "error" else INFO,
                site=_SKIP_POD_UPDATE))
        return handlers.skip_pod_update(pod)

    def record_scheduling_failure(self, prof: Any, pod_info: PodInfo, err: BaseException, reason: str,
                                  message: str) -> None:
        """``recordSchedulingFailure``: requeue (error func), Warning event, PodScheduled=False."""
        pod = pod_info.pod
        self._notify("scheduling_failure", pod=pod, reason=reason, message=message, error=err)
        self.error(pod_info, err)
        prof.recorder.eventf(pod, events.WARNING, events.FAILED_SCHEDULING, truncate_message(message),
                             action=events.ACTION_SCHEDULING)
        condition = PodCondition(type=POD_SCHEDULED, status=CONDITION_FALSE, reason=reason, message=str(err))
        try:
            self.pod_condition_updater.update(pod, condition)
        except APIError as update_err:
            self.log(0, f"Error updating the condition of the pod {_ns_name(pod)}: {update_err}", severity=ERROR,
                     site=_RECORD_FAILURE)

    def preempt(self, prof: Any, state: CycleState, preemptor: Pod, schedule_err: BaseException) -> str:
        """``preempt``: nominate, delete victims, clear lower-priority nominations; returns the node."""
        self._phase_start("Preempt", preemptor)
        node_name = self._preempt(prof, state, preemptor, schedule_err)
        self._phase_end("Preempt", preemptor, node_name, "Success", "")
        return node_name

    def _preempt(self, prof: Any, state: CycleState, preemptor: Pod, schedule_err: BaseException) -> str:
        try:
            preemptor = self.pod_preemptor.get_updated_pod(preemptor)
        except APIError as err:
            self.log(0, f"Error getting the updated preemptor pod object: {err}", severity=ERROR, site=_PREEMPT)
            return ""
        try:
            node, victims, nominated_pods_to_clear = self.algorithm.preempt(prof, state, preemptor, schedule_err)
        except _BUGS:
            raise
        except Exception as err:  # noqa: BLE001 - Preempt's err
            self.log(0, f"Error preempting victims to make room for {_ns_name(preemptor)}: {err}", severity=ERROR,
                     site=_PREEMPT)
            return ""
        node_name = node or ""
        if node_name:
            self.scheduling_queue.update_nominated_pod_for_node(preemptor, node_name)
            try:
                self.pod_preemptor.set_nominated_node_name(preemptor, node_name)
            except APIError as err:
                self.log(0, f"Error in preemption process. Cannot set 'NominatedPod' on pod "
                            f"{_ns_name(preemptor)}: {err}", severity=ERROR, site=_PREEMPT)
                self.scheduling_queue.delete_nominated_pod_if_exists(preemptor)
                return ""
            self._notify("nominate", pod=preemptor, node=node_name)
            for victim in victims:
                try:
                    self.pod_preemptor.delete_pod(victim)
                except APIError as err:
                    self.log(0, f"Error preempting pod {_ns_name(victim)}: {err}", severity=ERROR, site=_PREEMPT)
                    return ""
                waiting = prof.framework.get_waiting_pod(victim.metadata.uid)
                if waiting is not None:
                    waiting.reject("preempted")
                prof.recorder.eventf(victim, events.NORMAL, events.PREEMPTED,
                                     events.preempted_note(preemptor.metadata.namespace, preemptor.metadata.name,
                                                           node_name),
                                     action=events.ACTION_PREEMPTING, related=preemptor)
                self._notify("victim", pod=victim, preemptor=preemptor, node=node_name)
        for p in nominated_pods_to_clear:
            try:
                self.pod_preemptor.remove_nominated_node_name(p)
            except APIError as err:
                self.log(0, f"Cannot remove 'NominatedPod' field of pod: {err}", severity=ERROR, site=_PREEMPT)
                continue
            self._notify("clear_nomination", pod=p)
        return node_name

    def bind_volumes(self, assumed: Pod, done: Callable[[Optional[BaseException]], None]) -> None:
        """``bindVolumes``: BindPodVolumes (which polls: ``done`` runs when it returns); on error
        ForgetPod, then ``done(err)``."""
        self.log(5, f'Trying to bind volumes for pod "{_ns_name(assumed)}"', site=_BIND_VOLUMES)
        self._phase_start("BindVolumes", assumed, assumed.spec.node_name)

        def returned(err: Optional[BaseException]) -> None:
            if err is not None:
                self._phase_end("BindVolumes", assumed, assumed.spec.node_name, "Error", str(err))
                self.log(1, f'Failed to bind volumes for pod "{_ns_name(assumed)}": {err}', site=_BIND_VOLUMES)
                self._forget(assumed)
            else:
                self._phase_end("BindVolumes", assumed, assumed.spec.node_name, "Success", "")
                self.log(5, f'Success binding volumes for pod "{_ns_name(assumed)}"', site=_BIND_VOLUMES)
            done(err)
        self.volume_binder.bind_pod_volumes(assumed, returned)

    def assume(self, assumed: Pod, host: str) -> None:
        """``assume``: AssumePod (``assumed`` already carries ``host``), drop its nomination."""
        try:
            self.scheduler_cache.assume_pod(assumed)
        except _BUGS:
            raise
        except Exception as err:
            self.log(0, f"scheduler cache AssumePod failed: {err}", severity=ERROR, site=_ASSUME)
            raise
        self._notify("assume", pod=assumed, node=host)
        if self.scheduling_queue is not None:
            self.scheduling_queue.delete_nominated_pod_if_exists(assumed)

    def bind(self, prof: Any, assumed: Pod, target_node: str, state: CycleState) -> Optional[BaseException]:
        """``bind``: an interested binder extender, else the Bind plugins; then finishBinding."""
        self._phase_start("Bind", assumed, target_node)
        err: Optional[BaseException] = None
        binder = "framework"
        try:
            extender = self._binder_extender(assumed)
            if extender is not None:
                binder = extender.name()
                err = self._extender_bind(extender, assumed, target_node)
            else:
                status = prof.framework.run_bind_plugins(state, assumed, target_node)
                if is_success(status):
                    err = None
                elif status.code == Code.ERROR:
                    err = status.as_error()
                else:
                    err = FrameworkError(f"bind status: {status.code}, {status.message()}")
        finally:
            self._phase_end("Bind", assumed, target_node, "Success" if err is None else "Error",
                            "" if err is None else str(err))
            self._notify("bind", pod=assumed, node=target_node, binder=binder, error=err)
            self.finish_binding(prof, assumed, target_node, err)
        return err

    def _binder_extender(self, pod: Pod) -> Any:
        """``extendersBinding``'s choice: the first extender that binds and is interested."""
        for extender in _extenders_of(self.algorithm):
            if extender.is_binder() and extender.is_interested(pod):
                return extender
        return None

    @staticmethod
    def _extender_bind(extender: Any, pod: Pod, node: str) -> Optional[BaseException]:
        from kubesched.scheduler.core.extender import new_binding
        try:
            extender.bind(new_binding(pod, node))
        except _BUGS:
            raise
        except Exception as err:  # noqa: BLE001 - the extender's err
            return err
        return None

    def finish_binding(self, prof: Any, assumed: Pod, target_node: str, err: Optional[BaseException]) -> None:
        """``finishBinding``: FinishBinding; on error ForgetPod, else the ``Scheduled`` event."""
        self.scheduler_cache.finish_binding(assumed)
        if err is not None:
            self.log(1, f"Failed to bind pod: {_ns_name(assumed)}", site=_FINISH_BINDING)
            self._forget(assumed)
            return
        prof.recorder.eventf(assumed, events.NORMAL, events.SCHEDULED,
                             events.scheduled_note(assumed.metadata.namespace, assumed.metadata.name, target_node),
                             action=events.ACTION_BINDING)

    # -- small helpers -----------------------------------------------------------------------
    def _forget(self, pod: Pod) -> None:
        """``Cache().ForgetPod`` with the error only logged."""
        try:
            self.scheduler_cache.forget_pod(pod)
        except _BUGS:
            raise
        except Exception as err:  # noqa: BLE001 - logged upstream
            self.log(0, f"scheduler cache ForgetPod failed: {err}", severity=ERROR, site=SCHEDULE_ONE)
            return
        self._notify("forget", pod=pod, node=pod.spec.node_name)

    def _run_unreserve(self, prof: Any, state: CycleState, pod: Pod, host: str) -> None:
        self._phase_start("Unreserve", pod, host)
        prof.framework.run_unreserve_plugins(state, pod, host)
        self._phase_end("Unreserve", pod, host, "Success", "")

    def _notify(self, hook: str, **fields: Any) -> None:
        if self.observer is not None:
            fn = getattr(self.observer, hook, None)
            if fn is not None:
                fn(**fields)

    def _phase_start(self, phase: str, pod: Pod, node: str = "") -> None:
        hook = getattr(self.observer, "phase_start", None)  # the most frequent hooks: no _notify in between
        if hook is not None:
            hook(phase=phase, pod=pod, node=node)

    def _phase_end(self, phase: str, pod: Pod, node: str, code: str, message: str) -> None:
        hook = getattr(self.observer, "phase_end", None)
        if hook is not None:
            hook(phase=phase, pod=pod, node=node, code=code, message=message)


def _with_node_name(pod: Pod, host: str) -> Pod:
    return dataclasses.replace(pod, spec=dataclasses.replace(pod.spec, node_name=host))


def _err_code(err: BaseException) -> str:
    return str(Code.UNSCHEDULABLE) if is_fit_error(err) or is_no_nodes_available(err) else str(Code.ERROR)


def _extenders_of(algorithm: Any) -> list[Any]:
    """``Algorithm.Extenders()``."""
    return list(algorithm.get_extenders())
