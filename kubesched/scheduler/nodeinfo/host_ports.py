"""Host ports in use on a node, keyed by host IP then (protocol, port).

Upstream: pkg/scheduler/nodeinfo/host_ports.go (HostPortInfo, Add, Remove, Len,
CheckConflict, sanitize, DefaultBindAllHostIP).
"""

from __future__ import annotations

DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0"


def _sanitize(ip: str, protocol: str) -> tuple[str, str]:
    return ip or DEFAULT_BIND_ALL_HOST_IP, protocol or "TCP"


class HostPortInfo(dict):
    """``map[ip]set[(protocol, port)]``; ports ≤ 0 are ignored everywhere."""

    def add(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = _sanitize(ip, protocol)
        self.setdefault(ip, set()).add((protocol, port))

    def remove(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = _sanitize(ip, protocol)
        ports = self.get(ip)
        if ports is not None:
            ports.discard((protocol, port))
            if not ports:
                del self[ip]

    def len(self) -> int:
        return sum(len(ports) for ports in self.values())

    def check_conflict(self, ip: str, protocol: str, port: int) -> bool:
        """A wildcard IP conflicts with the pair on any IP; others with their IP or 0.0.0.0."""
        if port <= 0:
            return False
        ip, protocol = _sanitize(ip, protocol)
        pair = (protocol, port)
        if ip == DEFAULT_BIND_ALL_HOST_IP:
            return any(pair in ports for ports in self.values())
        return any(pair in self.get(key, ()) for key in (DEFAULT_BIND_ALL_HOST_IP, ip))

    def clone(self) -> "HostPortInfo":
        copy = HostPortInfo()
        for ip, ports in self.items():
            copy[ip] = set(ports)
        return copy
