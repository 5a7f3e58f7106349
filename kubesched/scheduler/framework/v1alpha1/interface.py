"""The scheduling framework's contract: status codes, statuses, scores and plugin interfaces.

Upstream: pkg/scheduler/framework/v1alpha1/interface.go (Code, Status, NewStatus,
PluginToStatus.Merge, NodeScore, MaxNodeScore, MinNodeScore, the *Plugin interfaces and
FrameworkHandle).

Plugins return ``Status | None``; ``None`` means Success, as a nil ``*Status`` does upstream.
The extension-point protocols follow interface.go's order.

Deviation: ``PluginToStatus.Merge`` ranges over a Go map, so upstream's order of merged
reasons is random; here it is the map's insertion order (the plugins' order).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping, Optional, Protocol, runtime_checkable

if TYPE_CHECKING:
    from kubesched.api.core import Node, Pod
    from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
    from kubesched.scheduler.nodeinfo.node_info import NodeInfo

MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0
MAX_TOTAL_SCORE = 2**63 - 1


class Code(enum.IntEnum):
    """A plugin's verdict; ``str(code)`` is upstream's name (``Success``, ``Unschedulable`` …)."""

    SUCCESS = 0
    ERROR = 1
    UNSCHEDULABLE = 2  # preemption might help
    UNSCHEDULABLE_AND_UNRESOLVABLE = 3  # preemption would not help: skip it
    WAIT = 4  # Permit only
    SKIP = 5  # Bind only: let the next bind plugin bind

    def __str__(self) -> str:
        return _CODE_NAMES[self]


_CODE_NAMES = {
    Code.SUCCESS: "Success", Code.ERROR: "Error", Code.UNSCHEDULABLE: "Unschedulable",
    Code.UNSCHEDULABLE_AND_UNRESOLVABLE: "UnschedulableAndUnresolvable", Code.WAIT: "Wait",
    Code.SKIP: "Skip",
}
CODE_BY_NAME = {name: code for code, name in _CODE_NAMES.items()}


@dataclass(frozen=True, slots=True)
class Status:
    """A non-success result: a code and reasons (``message()`` joins them with ``", "``)."""

    code: Code
    reasons: tuple[str, ...] = ()

    @classmethod
    def new(cls, code: Code, *reasons: str) -> Optional["Status"]:
        """``NewStatus``; like a nil status, Success with no reasons is ``None``."""
        if code == Code.SUCCESS and not reasons:
            return None
        return cls(code, tuple(reasons))

    def message(self) -> str:
        return ", ".join(self.reasons)

    def is_success(self) -> bool:
        return self.code == Code.SUCCESS

    def is_unschedulable(self) -> bool:
        return self.code in (Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)

    def as_error(self) -> Optional["FrameworkError"]:
        """``Status.AsError``: None for success, else an error carrying the message."""
        return None if self.is_success() else FrameworkError(self.message())

    def with_reason(self, reason: str) -> "Status":
        return Status(self.code, self.reasons + (reason,))


class FrameworkError(Exception):
    """An error returned through the framework (``Status.AsError``, runner wrappers)."""


def code_of(status: Optional[Status]) -> Code:
    return Code.SUCCESS if status is None else status.code


def is_success(status: Optional[Status]) -> bool:
    return status is None or status.code == Code.SUCCESS


def message_of(status: Optional[Status]) -> str:
    return "" if status is None else status.message()


def merge_statuses(statuses: Mapping[str, Status]) -> Optional[Status]:
    """``PluginToStatus.Merge``: all reasons, and the worst code (Error > Unresolvable > Unschedulable)."""
    if not statuses:
        return None
    code, reasons = Code.SUCCESS, []
    for status in statuses.values():
        code = status.code
        reasons.extend(status.reasons)
    codes = {s.code for s in statuses.values()}
    for worst in (Code.ERROR, Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.UNSCHEDULABLE):
        if worst in codes:
            code = worst
            break
    return Status(code, tuple(reasons))


@dataclass(slots=True)
class NodeScore:
    """A node's score; NormalizeScore plugins update ``score`` in place, as upstream does."""

    name: str
    score: int


NodeScoreList = list[NodeScore]
PluginToNodeScores = dict[str, NodeScoreList]
NodeToStatusMap = dict[str, Status]


# ------------------------------------------------------------------ plugin interfaces (interface.go order)


@runtime_checkable
class Plugin(Protocol):
    def name(self) -> str: ...


@runtime_checkable
class QueueSortPlugin(Plugin, Protocol):
    def less(self, pod_info_1, pod_info_2) -> bool: ...


class PreFilterExtensions(Protocol):
    def add_pod(self, state: "CycleState", pod_to_schedule: "Pod", pod_to_add: "Pod",
                node_info: "NodeInfo") -> Optional[Status]: ...

    def remove_pod(self, state: "CycleState", pod_to_schedule: "Pod", pod_to_remove: "Pod",
                   node_info: "NodeInfo") -> Optional[Status]: ...


@runtime_checkable
class PreFilterPlugin(Plugin, Protocol):
    def pre_filter(self, state: "CycleState", pod: "Pod") -> Optional[Status]: ...

    def pre_filter_extensions(self) -> Optional[PreFilterExtensions]: ...


@runtime_checkable
class FilterPlugin(Plugin, Protocol):
    def filter(self, state: "CycleState", pod: "Pod", node_info: "NodeInfo") -> Optional[Status]: ...


@runtime_checkable
class PreFilterSkip(Protocol):
    """Not upstream 1.18: a Filter plugin that knows from the pod alone that its Filter passes everywhere.

    It anticipates upstream's later PreFilter ``Skip`` status (v1.27, kubernetes#114125: a
    PreFilter returning Skip makes the framework leave that plugin's Filter out for the pod).
    ``skip_filter(pod)`` True promises: ``filter(state, pod, node_info)`` returns None
    (Success) for every node_info with a node and every cycle state on which this pod's
    PreFilter ran (clones with AddPod/RemovePod applied included). The framework then skips
    those calls; unlike later upstream, the trace still shows them, as Success (1.18 calls
    every Filter plugin). Pods are immutable, so the answer is asked once per pod.
    """

    def skip_filter(self, pod: "Pod") -> bool: ...


@runtime_checkable
class PreScoreSkip(Protocol):
    """Not upstream 1.18: a Score plugin that knows, after PreScore, that every node gets one score.

    It anticipates upstream's later PreScore ``Skip`` status (v1.27, kubernetes#115652: a
    PreScore returning Skip makes the framework leave that plugin's Score out for the pod).
    ``constant_score(state, pod, nodes)`` an int promises: ``score(state, pod, name)``
    returns ``(that int, None)`` for the name of every node in ``nodes`` (the nodes about to
    be scored: this cycle's snapshot has each of them), with this state after PreScore ran on
    it. None: the score depends on the node. Asked once per RunScorePlugins; the framework
    skips the calls and every node gets that score. Unlike later upstream, which drops a
    skipped plugin from scoring, the score still counts here: NormalizeScore runs on it and
    its weighted score is summed, as 1.18 does.
    """

    def constant_score(self, state: "CycleState", pod: "Pod", nodes: list["Node"]) -> Optional[int]: ...


@runtime_checkable
class PreScorePlugin(Plugin, Protocol):
    def pre_score(self, state: "CycleState", pod: "Pod", nodes: list["Node"]) -> Optional[Status]: ...


class ScoreExtensions(Protocol):
    def normalize_score(self, state: "CycleState", pod: "Pod", scores: NodeScoreList) -> Optional[Status]: ...


@runtime_checkable
class ScorePlugin(Plugin, Protocol):
    def score(self, state: "CycleState", pod: "Pod", node_name: str) -> tuple[int, Optional[Status]]: ...

    def score_extensions(self) -> Optional[ScoreExtensions]: ...


@runtime_checkable
class ReservePlugin(Plugin, Protocol):
    def reserve(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...


@runtime_checkable
class PreBindPlugin(Plugin, Protocol):
    def pre_bind(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...


@runtime_checkable
class PostBindPlugin(Plugin, Protocol):
    def post_bind(self, state: "CycleState", pod: "Pod", node_name: str) -> None: ...


@runtime_checkable
class UnreservePlugin(Plugin, Protocol):
    def unreserve(self, state: "CycleState", pod: "Pod", node_name: str) -> None: ...


@runtime_checkable
class PermitPlugin(Plugin, Protocol):
    def permit(self, state: "CycleState", pod: "Pod", node_name: str) -> tuple[Optional[Status], float]:
        """Return (status, timeout in seconds); a Wait status parks the pod up to ``timeout``."""
        ...


@runtime_checkable
class BindPlugin(Plugin, Protocol):
    def bind(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...


class WaitingPod(Protocol):
    """A pod parked at Permit (``WaitingPod``; implemented in waiting_pods_map.py)."""

    def get_pod(self) -> "Pod": ...

    def get_pending_plugins(self) -> list[str]: ...

    def allow(self, plugin_name: str) -> None: ...

    def reject(self, msg: str) -> None: ...


class FrameworkHandle(Protocol):
    """What plugins may use of the scheduler (``FrameworkHandle``)."""

    def snapshot_shared_lister(self): ...

    def listers(self):
        """Informer listers for Services, controllers, volumes … (kubesched.scheduler.listers)."""
        ...

    def client_set(self):
        """The API server (kubesched.cluster) — DefaultBinder binds through it."""
        ...

    def iterate_over_waiting_pods(self, callback: Callable) -> None: ...

    def get_waiting_pod(self, uid: str): ...

    def reject_waiting_pod(self, uid: str) -> None: ...

    def shared_informer_factory(self): ...

    def volume_binder(self):
        """The scheduler's volume binder (1.18 ``FrameworkHandle.VolumeBinder``)."""
        ...
