"""NodePorts: a pod's host ports must be free on the node.

Upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go
(NodePorts.Name, getContainerPorts, PreFilter, PreFilterExtensions, getPreFilterState,
Filter, Fits, fitsPorts, New).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Optional

from kubesched.api.core import ContainerPort, Pod
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    Code, FilterPlugin, PreFilterSkip, PreFilterPlugin, Status)
from kubesched.scheduler.nodeinfo.host_ports import HostPortInfo
from kubesched.scheduler.nodeinfo.node_info import NodeInfo

NAME: Final = "NodePorts"
PRE_FILTER_STATE_KEY: Final = "PreFilter" + NAME
ERR_REASON: Final = "node(s) didn't have free ports for the requested pod ports"


@dataclass(frozen=True, slots=True)
class PreFilterState:
    """The pod's container ports, computed once per cycle (``preFilterState``)."""

    ports: tuple[ContainerPort, ...]

    def clone(self) -> "PreFilterState":
        return self  # read-only, as upstream


class NodePorts:
    """PreFilter + Filter plugin for host-port conflicts."""

    def name(self) -> str:
        return NAME

    def pre_filter(self, state: CycleState, pod: Pod) -> Optional[Status]:
        """Upstream: (*NodePorts).PreFilter."""
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(tuple(get_container_ports(pod))))
        return None

    def pre_filter_extensions(self) -> None:
        """Upstream: no AddPod/RemovePod (the state does not depend on other pods)."""
        return None

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Upstream: (*NodePorts).Filter."""
        try:
            wanted = _get_pre_filter_state(state)
        except LookupError as err:
            return Status(Code.ERROR, (str(err),))
        if not fits_ports(wanted.ports, node_info.used_ports):
            return Status(Code.UNSCHEDULABLE, (ERR_REASON,))
        return None

    def skip_filter(self, pod: Pod) -> bool:
        """Not upstream (PreFilterSkip): no container port asks for a host port.

        CheckConflict ignores ports <= 0, so such a pod conflicts with nothing.
        """
        for container in pod.spec.containers:
            for port in container.ports:
                if port.host_port > 0:
                    return False
        return True


class PreFilterStateError(LookupError):
    def __str__(self) -> str:
        return str(self.args[0])


def _get_pre_filter_state(state: CycleState) -> PreFilterState:
    try:
        value = state.read(PRE_FILTER_STATE_KEY)
    except KeyError as err:
        raise PreFilterStateError(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(value, PreFilterState):
        raise PreFilterStateError(f"{value!r} convert to nodeports.preFilterState error")
    return value


def get_container_ports(*pods: Pod) -> list[ContainerPort]:
    """Upstream: getContainerPorts. Ports of regular containers, in container then port order."""
    return [port for pod in pods for container in pod.spec.containers for port in container.ports]


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """Upstream: Fits (used outside the framework, e.g. by preemption checks)."""
    return fits_ports(get_container_ports(pod), node_info.used_ports)


def fits_ports(wanted: tuple[ContainerPort, ...] | list[ContainerPort], existing: HostPortInfo) -> bool:
    """Upstream: fitsPorts. False as soon as one wanted host port conflicts."""
    return not any(existing.check_conflict(p.host_ip, p.protocol, p.host_port) for p in wanted)


def new(args: dict | None, handle: object) -> NodePorts:
    """Upstream: New (no args)."""
    return NodePorts()


_: PreFilterPlugin = NodePorts()
__: FilterPlugin = NodePorts()
___: PreFilterSkip = NodePorts()
