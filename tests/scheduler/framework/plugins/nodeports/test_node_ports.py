"""NodePorts: host-port conflicts, wildcard IPs, protocols and the PreFilter state.

Upstream: nodeports/node_ports.go (getContainerPorts, PreFilter, Filter, Fits) and
nodeinfo/host_ports.go (HostPortInfo.CheckConflict).
"""

from __future__ import annotations

import pytest

from kubesched.scheduler.framework.plugins.nodeports import node_ports
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import Code

from tests.scheduler.framework.plugins.plugin_builders import node, node_info, pod

REASON = "node(s) didn't have free ports for the requested pod ports"


def _port_pod(*ports: tuple[str, str, int], init: bool = False) -> object:
    spec_ports = [{"containerPort": 80, "protocol": proto, "hostIP": ip, "hostPort": port}
                  for proto, ip, port in ports]
    key = "initContainers" if init else "containers"
    spec = {key: [{"name": "c", "ports": spec_ports}]}
    return pod(spec)


CASES = [
    ("wildcard existing blocks specific ip", [("TCP", "0.0.0.0", 8080)], [("TCP", "127.0.0.1", 8080)], True),
    ("specific existing blocks wildcard", [("TCP", "127.0.0.1", 8080)], [("TCP", "0.0.0.0", 8080)], True),
    ("empty ip means wildcard", [("TCP", "10.0.0.1", 8080)], [("TCP", "", 8080)], True),
    ("different specific ips coexist", [("TCP", "10.0.0.1", 8080)], [("TCP", "10.0.0.2", 8080)], False),
    ("different protocols coexist on wildcard", [("UDP", "0.0.0.0", 8080)], [("TCP", "0.0.0.0", 8080)], False),
    ("same port other number", [("TCP", "0.0.0.0", 8080)], [("TCP", "0.0.0.0", 8081)], False),
    ("hostPort 0 never conflicts", [("TCP", "0.0.0.0", 8080)], [("TCP", "0.0.0.0", 0)], False),
    ("SCTP same port", [("SCTP", "1.2.3.4", 9)], [("SCTP", "0.0.0.0", 9)], True),
]


@pytest.mark.parametrize("name,existing,wanted,conflict", CASES, ids=[c[0] for c in CASES])
def test_filter_host_port_conflicts(name, existing, wanted, conflict) -> None:
    plugin = node_ports.new(None, None)
    info = node_info(node(), _port_pod(*existing))
    state = CycleState()
    incoming = _port_pod(*wanted)
    assert plugin.pre_filter(state, incoming) is None
    status = plugin.filter(state, incoming, info)
    assert (None if status is None else (status.code, status.reasons)) == (
        (Code.UNSCHEDULABLE, (REASON,)) if conflict else None)
    assert node_ports.fits(incoming, info) is not conflict


def test_init_container_ports_are_ignored() -> None:
    info = node_info(node(), _port_pod(("TCP", "0.0.0.0", 8080), init=True))
    incoming = _port_pod(("TCP", "0.0.0.0", 8080), init=True)
    assert node_ports.get_container_ports(incoming) == []
    assert node_ports.fits(_port_pod(("TCP", "0.0.0.0", 8080)), info)


def test_filter_without_prefilter_is_error() -> None:
    status = node_ports.new(None, None).filter(CycleState(), pod(), node_info(node()))
    assert (status.code, status.reasons) == (
        Code.ERROR, ('error reading "PreFilterNodePorts" from cycleState: not found',))


def test_prefilter_state_order_and_clone() -> None:
    incoming = pod({"containers": [
        {"name": "a", "ports": [{"containerPort": 1}, {"containerPort": 2}]},
        {"name": "b", "ports": [{"containerPort": 3}]}]})
    state = CycleState()
    node_ports.new(None, None).pre_filter(state, incoming)
    s = state.read(node_ports.PRE_FILTER_STATE_KEY)
    assert [p.container_port for p in s.ports] == [1, 2, 3]
    assert state.clone().read(node_ports.PRE_FILTER_STATE_KEY) == s
