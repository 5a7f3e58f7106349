"""The scheduler's Events: reasons, actions, notes, and the per-profile recorder.

Upstream: pkg/scheduler/scheduler.go @ v1.18.5 (the ``Recorder.Eventf`` calls of
scheduleOne, skipPodSchedule, recordSchedulingFailure, preempt, finishBinding) and
cmd/kube-scheduler/app/server.go (getRecorderFactory: one recorder per profile, reporting
as that profile's scheduler name).

| reason             | type    | action       | note                                        |
|--------------------|---------|--------------|---------------------------------------------|
| ``Scheduled``        | Normal  | ``Binding``    | ``Successfully assigned <ns>/<name> to <node>`` |
| ``FailedScheduling`` | Warning | ``Scheduling`` | the failure message (≤ 1024 bytes) or ``skip schedule deleting pod: <ns>/<name>`` |
| ``Preempted``        | Normal  | ``Preempting`` | ``Preempted by <ns>/<name> on node <node>`` (about the victim) |

Deviation: the events.k8s.io/v1beta1 fields ``action`` and ``related`` are accepted and
passed to the observer, but the in-memory API server stores core/v1 Events (the
``EventBroadcasterAdapter`` fallback, see kubesched/cluster/events.py), which have neither.

Observer hook (keyword-only; called only when an observer is set and has the method):
``event(obj, type, reason, message, action, related, component)`` — after each Eventf.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Optional, Protocol

NORMAL: Final = "Normal"
WARNING: Final = "Warning"

SCHEDULED: Final = "Scheduled"
FAILED_SCHEDULING: Final = "FailedScheduling"
PREEMPTED: Final = "Preempted"

ACTION_BINDING: Final = "Binding"
ACTION_SCHEDULING: Final = "Scheduling"
ACTION_PREEMPTING: Final = "Preempting"


def scheduled_note(namespace: str, name: str, node: str) -> str:
    return f"Successfully assigned {namespace}/{name} to {node}"


def preempted_note(preemptor_namespace: str, preemptor_name: str, node: str) -> str:
    return f"Preempted by {preemptor_namespace}/{preemptor_name} on node {node}"


def skip_deleting_note(namespace: str, name: str) -> str:
    return f"skip schedule deleting pod: {namespace}/{name}"


class EventSink(Protocol):
    """What the recorder writes to (``kubesched.cluster.APIServer.record_event``)."""

    def record_event(self, involved: Any, type: str, reason: str, message: str,
                     component: str = ..., host: str = ...) -> Any: ...


class Recorder(Protocol):
    """``events.EventRecorder`` as profiles hold it."""

    def eventf(self, obj: Any, type: str, reason: str, message: str, *, action: str = "",
               related: Any = None) -> None: ...


class EventRecorder:
    """A profile's recorder: Events from ``component`` (the profile's scheduler name)."""

    def __init__(self, sink: EventSink, component: str, *, observer: Any = None) -> None:
        self.sink = sink
        self.component = component
        self.observer = observer

    def eventf(self, obj: Any, type: str, reason: str, message: str, *, action: str = "",
               related: Any = None) -> None:
        self.sink.record_event(obj, type, reason, message, component=self.component)
        hook = getattr(self.observer, "event", None) if self.observer is not None else None
        if hook is not None:
            hook(obj=obj, type=type, reason=reason, message=message, action=action, related=related,
                 component=self.component)


RecorderFactory = Callable[[str], Recorder]


def new_recorder_factory(sink: EventSink, *, observer: Optional[Any] = None) -> RecorderFactory:
    """``profile.RecorderFactory``: scheduler name → a recorder reporting as that component."""
    def factory(scheduler_name: str) -> Recorder:
        return EventRecorder(sink, scheduler_name, observer=observer)
    return factory
