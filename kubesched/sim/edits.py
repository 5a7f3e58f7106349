"""Edits a learner (or a scenario) makes to the running cluster: create, update, delete,
cordon, uncordon, kill the leader, cut a scheduler replica off the API server (``Partition``);
and ``Tick``, a time-only step (no edit: a TIME record).

Upstream: no scheduler counterpart; each edit is what ``kubectl create / replace / delete /
cordon / uncordon`` (or killing the leading kube-scheduler's process) does to the API server.

``apply_edit(edit, api, kill_leader)`` performs one edit on the API server and raises the
API server's error (``kubesched.cluster.errors.APIError``) when it is refused. A created
object is defaulted as the API server's create path does (pods get their priority from
their PriorityClass); a created ReplicaSet, RC or Deployment also creates its pods, as the
loader does (StatefulSets, DaemonSets and Jobs get theirs from their controllers on the loop).
``Update`` replaces the whole object (``kubectl replace``): its spec and metadata, defaulted
as a create is (SetDefaults runs on every write; the Priority admission plugin keeps the
stored pod's priority and preemptionPolicy when the update leaves them out), so an update
only has to say what changes; then its status, with a status write, when the manifest gives
one that differs (a manifest without status leaves the stored status alone).

Deviation: a pod update that leaves out ``priorityClassName`` gets the globalDefault class's
name again, as at create time (upstream's admission restores only the priority value, so
``kubectl replace`` of such a pod is refused).

``Partition(replica)`` cuts one scheduler replica (``scheduler-a`` …) off the API server for the
rest of the run: its requests fail and its watches deliver nothing (a network partition
between that process and kube-apiserver); ``Partition(replica, watch_only=True)`` stalls only
its watches, so its requests (a Binding, a lease renewal) still succeed but its informers
never hear of them (kubesched.sim.replica.ReplicaClient). Scenario verbs: ``partition:
scheduler-a`` and ``stallWatch: scheduler-a``.

``Tick`` changes nothing on the API server: the engine records a TIME record for it (at the
time the clock reached), so a step that only lets time pass is visible in the trace
(``Simulation.advance`` makes one at the frontier; a Scenario may ask for one: ``{at: 31, tick: true}``).

``to_action(edit)`` / ``from_action(...)`` convert to and from the Scenario format's action
body (``create: manifest`` …).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kubesched.api.controllers import WORKLOADS, expand_owner
from kubesched.api.core import Pod
from kubesched.api.defaults import apply_defaults, default_pod
from kubesched.api.encode import to_manifest


@dataclass(frozen=True, slots=True)
class Create:
    obj: Any


@dataclass(frozen=True, slots=True)
class Update:
    obj: Any


@dataclass(frozen=True, slots=True)
class Delete:
    kind: str
    namespace: str
    name: str


@dataclass(frozen=True, slots=True)
class Cordon:
    node: str


@dataclass(frozen=True, slots=True)
class Uncordon:
    node: str


@dataclass(frozen=True, slots=True)
class KillLeader:
    pass


@dataclass(frozen=True, slots=True)
class Partition:
    """A scheduler replica loses the API server: requests and watches, or (``watch_only``) its watches."""

    replica: str
    watch_only: bool = False


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes to this point: the engine records a TIME record (nothing else changes)."""


Edit = Create | Update | Delete | Cordon | Uncordon | KillLeader | Partition | Tick


def describe(edit: Edit) -> str:
    """``create Node zone-d-1``, ``cordon zone-a-1``, ``kill the leader`` …"""
    if isinstance(edit, (Create, Update)):
        meta = edit.obj.metadata
        name = f"{meta.namespace}/{meta.name}" if meta.namespace else meta.name
        return f"{'create' if isinstance(edit, Create) else 'update'} {type(edit.obj).KIND} {name}"
    if isinstance(edit, Delete):
        name = f"{edit.namespace}/{edit.name}" if edit.namespace else edit.name
        return f"delete {edit.kind} {name}"
    if isinstance(edit, Cordon):
        return f"cordon {edit.node}"
    if isinstance(edit, Uncordon):
        return f"uncordon {edit.node}"
    if isinstance(edit, Partition):
        return f"stall the watches of {edit.replica}" if edit.watch_only else f"partition {edit.replica} from the API server"
    if isinstance(edit, Tick):
        return "time passes"
    return "kill the leader"


def apply_edit(edit: Edit, api: Any, kill_leader: Callable[[], None],
               partition: Callable[[Partition], None] | None = None) -> None:
    """Perform ``edit`` on the API server (``kill_leader`` for ``KillLeader``, ``partition`` for ``Partition``)."""
    if isinstance(edit, Create):
        _create(api, edit.obj)
    elif isinstance(edit, Update):
        _update(api, edit.obj)
    elif isinstance(edit, Delete):
        api.delete(edit.kind, edit.namespace, edit.name)
    elif isinstance(edit, (Cordon, Uncordon)):
        node = api.get("Node", "", edit.node)
        spec = dataclasses.replace(node.spec, unschedulable=isinstance(edit, Cordon))
        api.update(dataclasses.replace(node, spec=spec))
    elif isinstance(edit, KillLeader):
        kill_leader()
    elif isinstance(edit, Partition):
        if partition is None:
            raise TypeError("a Partition needs the engine's replicas")
        partition(edit)
    elif isinstance(edit, Tick):
        pass  # the engine records it (Engine._apply)
    else:
        raise TypeError(f"not an edit: {edit!r}")


def _classes(api: Any) -> dict[str, Any]:
    return {pc.metadata.name: pc for pc in api.list("PriorityClass")}


def default_object(obj: Any, api: Any) -> Any:
    """The API server's defaulting of a new object (pods see the stored PriorityClasses)."""
    if isinstance(obj, Pod):
        return default_pod(obj, _classes(api), seed=f"edit/{obj.metadata.namespace}/{obj.metadata.name}")
    return apply_defaults([obj])[0]


def _create(api: Any, obj: Any) -> None:
    obj = default_object(obj, api)
    created = api.create(obj)
    if isinstance(created, WORKLOADS):
        for child in expand_owner(created, _classes(api)):
            api.create(child)


def _update(api: Any, obj: Any) -> None:
    current = api.get(type(obj).KIND, obj.metadata.namespace, obj.metadata.name)
    status = getattr(obj, "status", None)
    obj = _defaulted_update(obj, current, api)
    meta = dataclasses.replace(obj.metadata, resource_version="", uid=current.metadata.uid)
    written = api.update(dataclasses.replace(obj, metadata=meta))
    if status is not None and status != type(status)() and written.status != status:
        api.update_status(dataclasses.replace(written, status=status))


def _defaulted_update(obj: Any, current: Any, api: Any) -> Any:
    """``obj`` defaulted as a create is; a pod keeps the stored priority and preemptionPolicy
    when it gives none (Priority admission on update)."""
    if isinstance(obj, Pod):
        spec = obj.spec
        if spec.priority is None:
            spec = dataclasses.replace(spec, priority=current.spec.priority)
        if spec.preemption_policy is None:
            spec = dataclasses.replace(spec, preemption_policy=current.spec.preemption_policy)
        obj = dataclasses.replace(obj, spec=spec)
    return default_object(obj, api)


# -- the Scenario format -----------------------------------------------------------------------------
def to_action(edit: Edit) -> dict[str, Any]:
    """The body of a Scenario action (without ``at``)."""
    if isinstance(edit, Create):
        return {"create": to_manifest(edit.obj)}
    if isinstance(edit, Update):
        return {"update": to_manifest(edit.obj)}
    if isinstance(edit, Delete):
        body: dict[str, Any] = {"kind": edit.kind, "name": edit.name}
        if edit.namespace:
            body["namespace"] = edit.namespace
        return {"delete": body}
    if isinstance(edit, Cordon):
        return {"cordon": edit.node}
    if isinstance(edit, Uncordon):
        return {"uncordon": edit.node}
    if isinstance(edit, Partition):
        return {"stallWatch" if edit.watch_only else "partition": edit.replica}
    if isinstance(edit, Tick):
        return {"tick": True}
    return {"killLeader": True}
