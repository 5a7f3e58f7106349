"""Which extender URLs this server may call: loopback only unless the server allows more.

Upstream: none (kube-scheduler calls any ``urlPrefix``). No upstream counterpart:
a kubesched dashboard may be shared by a whole workshop, so an extender URL
in a learner's configuration would let anyone make the server call arbitrary
hosts (cloud metadata at 169.254.169.254, the room's intranet, …).

Rules:
* scheme ``http`` or ``https``; no user-info (``http://127.0.0.1@evil/``) in the URL;
* allowed by default: IPv4 loopback ``127.0.0.0/8``, IPv6 ``::1``, and the literal
  name ``localhost``; names are never resolved (no DNS), so any other name is refused
  unless allow-listed; an IPv4-mapped IPv6 address (``[::ffff:127.0.0.1]``) is refused
  whatever it maps to (write the IPv4 address), so no spelling of an address slips past
  a rule written for the other;
* the server widens this with ``KUBESCHED_EXTENDER_ALLOW``: comma-separated
  ``host[:port]`` patterns, where host is a name (``ext.example.com``), a
  ``*.suffix`` wildcard, an IP address (IPv6 in brackets when a port follows:
  ``[fd00::1]:8080``) or a CIDR block (``10.0.0.0/8``); no port = any port.
  It is read by :func:`server_policy` (once, from the process environment),
  which the app and the CLI use; an uploaded configuration can never widen it.

A refused URL raises :class:`ExtenderURLError` naming the extender's index,
its URL and what to do.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ALLOW_ENV = "KUBESCHED_EXTENDER_ALLOW"
LOOPBACK_NAME = "localhost"
_DEFAULT_PORT = {"http": 80, "https": 443}
_Address = ipaddress.IPv4Address | ipaddress.IPv6Address
_Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ExtenderURLError(ValueError):
    """An extender ``urlPrefix`` this server will not call (a configuration error)."""

    def __init__(self, index: int, url: str, why: str):
        self.index, self.url, self.why = index, url, why
        super().__init__(f'extenders[{index}].urlPrefix: "{url}" is not allowed: {why}')


@dataclass(frozen=True, slots=True)
class HostPattern:
    """One allow-list entry: a name, ``*.suffix``, an address or a network, and a port."""

    host: str = ""
    network: _Network | None = None
    port: int | None = None

    def matches(self, host: str, address: _Address | None, port: int) -> bool:
        if self.port is not None and self.port != port:
            return False
        if self.network is not None:
            return address is not None and address in self.network
        if address is not None:
            return False
        if self.host.startswith("*."):
            return host.endswith(self.host[1:]) and len(host) > len(self.host) - 1
        return host == self.host


@dataclass(frozen=True, slots=True)
class ExtenderURLPolicy:
    """Loopback plus the server's allow-list."""

    allow: tuple[HostPattern, ...] = ()

    def refusal(self, url: str) -> str | None:
        """Why ``url`` is refused, or ``None`` when it may be called."""
        parsed = _split(url)
        if isinstance(parsed, str):
            return parsed
        _, host, address, port = parsed
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            return f"an IPv4-mapped IPv6 address is not accepted (write {address.ipv4_mapped} instead)"
        if is_loopback(host, address):
            return None
        if any(p.matches(host, address, port) for p in self.allow):
            return None
        if self.allow:
            return (f"only loopback extenders and the server's {ALLOW_ENV} list are enabled "
                    f"(add this host to {ALLOW_ENV} on the server to allow it)")
        return (f"only loopback extenders are enabled "
                f"(set {ALLOW_ENV} on the server to allow more)")

    def check(self, index: int, url: str) -> None:
        """Raise :class:`ExtenderURLError` when ``url`` is refused."""
        why = self.refusal(url)
        if why is not None:
            raise ExtenderURLError(index, url, why)

    def check_all(self, urls: Iterable[str]) -> None:
        """Check ``extenders[i].urlPrefix`` for every i, in order."""
        for index, url in enumerate(urls):
            self.check(index, url)


LOOPBACK_ONLY = ExtenderURLPolicy()


def is_loopback(host: str, address: _Address | None = None) -> bool:
    """Loopback without DNS: the name ``localhost`` or a loopback address literal."""
    if address is None:
        if host.lower().rstrip(".") == LOOPBACK_NAME:
            return True
        address = _literal(host)
    if address is None:
        return False
    return address.is_loopback


def parse_allow_list(text: str) -> tuple[HostPattern, ...]:
    """Parse ``KUBESCHED_EXTENDER_ALLOW`` (raise ValueError naming a bad entry)."""
    return tuple(_pattern(item.strip()) for item in text.split(",") if item.strip())


def policy_from_environ(environ: Mapping[str, str] | None = None) -> ExtenderURLPolicy:
    """The policy described by ``environ`` (default: this process's environment)."""
    env = os.environ if environ is None else environ
    return ExtenderURLPolicy(parse_allow_list(env.get(ALLOW_ENV, "")))


@functools.cache
def server_policy() -> ExtenderURLPolicy:
    """The server's policy, read once from the environment (app and CLI call this)."""
    return policy_from_environ()


# ---------------------------------------------------------------- parsing helpers


def _literal(host: str) -> _Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _split(url: str) -> tuple[str, str, _Address | None, int] | str:
    if not isinstance(url, str) or not url:
        return "the URL is empty"
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as err:
        return f"the URL cannot be parsed ({err})"
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORT:
        return "the scheme must be http or https"
    if "@" in parts.netloc:
        return "user information in the URL is not supported"
    host = (parts.hostname or "").lower()
    if not host:
        return "the URL has no host"
    return scheme, host, _literal(host), port if port is not None else _DEFAULT_PORT[scheme]


def _pattern(item: str) -> HostPattern:
    host, port = _host_port(item)
    if not host:
        raise ValueError(f"{ALLOW_ENV}: {item!r} has no host")
    if "/" in host:
        try:
            return HostPattern(network=ipaddress.ip_network(host, strict=False), port=port)
        except ValueError:
            raise ValueError(f"{ALLOW_ENV}: {item!r} is not a valid network") from None
    address = _literal(host)
    if address is not None:
        return HostPattern(network=ipaddress.ip_network(address), port=port)
    return HostPattern(host=host.lower().rstrip("."), port=port)


def _host_port(item: str) -> tuple[str, int | None]:
    if item.startswith("["):
        host, _, rest = item[1:].partition("]")
        return host, _port(item, rest[1:]) if rest.startswith(":") else None
    if item.count(":") == 1:
        host, _, port = item.partition(":")
        return host, _port(item, port)
    return item, None


def _port(item: str, text: str) -> int | None:
    if text == "*":
        return None
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ValueError(f"{ALLOW_ENV}: {item!r} has an invalid port")
    return int(text)
