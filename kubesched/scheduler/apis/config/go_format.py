"""Go value formats the configuration needs: durations, host:port pairs, IPs (``%q``: util.strconv).

Upstream: Go's standard library as the v1.18 config code uses it — time.ParseDuration,
time.Duration.String, net.SplitHostPort, net.JoinHostPort, net.ParseIP — and
apimachinery/pkg/util/validation (IsValidSocketAddr, IsValidIP).

Durations are kept as integer nanoseconds here (exact), as ``time.Duration``.
Deviation: ``parse_ip`` follows Python's ``ipaddress``, which rejects IPv4 parts with
leading zeros ("010.0.0.1") that Go 1.13's ParseIP accepted.
"""

from __future__ import annotations

import ipaddress
import re

from kubesched.api.field_errors import is_valid_port_num
from kubesched.util.strconv import go_quote  # noqa: F401 - re-exported for the dashboard's config checks

NANOSECOND = 1
MICROSECOND = 1000 * NANOSECOND
MILLISECOND = 1000 * MICROSECOND
SECOND = 1000 * MILLISECOND
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

_UNITS = {"ns": NANOSECOND, "us": MICROSECOND, "µs": MICROSECOND, "μs": MICROSECOND,
          "ms": MILLISECOND, "s": SECOND, "m": MINUTE, "h": HOUR}
_PART = re.compile(r"([0-9]*)(\.[0-9]*)?([^0-9.]+)")
_MAX = (1 << 63) - 1


class DurationError(ValueError):
    """``time.ParseDuration`` rejected the text; the message is Go's."""


def parse_duration(text: str) -> int:
    """``time.ParseDuration``: ``"1h2m3.5s"`` → nanoseconds."""
    orig, s, sign = text, text, 1
    if s[:1] in ("-", "+"):
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    if s == "0":
        return 0
    if not s:
        raise DurationError(f'time: invalid duration "{orig}"')
    total, pos = 0, 0
    while pos < len(s):
        m = _PART.match(s, pos)
        if m is None and re.fullmatch(r"[0-9]*(\.[0-9]*)?", s[pos:]) and s[pos:] not in ("", "."):
            raise DurationError(f'time: missing unit in duration "{orig}"')
        if m is None or (not m.group(1) and (m.group(2) or ".") == "."):
            raise DurationError(f'time: invalid duration "{orig}"')
        unit = _UNITS.get(m.group(3))
        if unit is None:
            raise DurationError(f'time: unknown unit "{m.group(3)}" in duration "{orig}"')
        whole = int(m.group(1) or "0")
        frac = m.group(2)[1:] if m.group(2) else ""
        value = whole * unit + (int(frac) * unit // 10 ** len(frac) if frac else 0)
        total += value
        if total > _MAX:
            raise DurationError(f'time: invalid duration "{orig}"')
        pos = m.end()
    return sign * total


def format_duration(ns: int) -> str:
    """``time.Duration.String``: ``15000000000`` → ``"15s"``, ``0`` → ``"0s"``."""
    if ns == 0:
        return "0s"
    neg, u = ns < 0, abs(ns)
    if u < SECOND:
        for unit, size in (("ns", 1), ("µs", MICROSECOND), ("ms", MILLISECOND)):
            if u < size * 1000:
                text = _fraction(u, size) + unit
                break
    else:
        hours, rest = divmod(u, HOUR)
        minutes, rest = divmod(rest, MINUTE)
        text = _fraction(rest, SECOND) + "s"
        if hours or minutes:
            text = f"{minutes}m" + text
        if hours:
            text = f"{hours}h" + text
    return ("-" if neg else "") + text


def _fraction(value: int, size: int) -> str:
    whole, frac = divmod(value, size)
    if not frac:
        return str(whole)
    digits = str(frac).rjust(len(str(size)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


class AddrError(ValueError):
    """``net.SplitHostPort`` failed."""


def split_host_port(hostport: str) -> tuple[str, str]:
    """``net.SplitHostPort``: ``"[::1]:80"`` → ``("::1", "80")``; raises ``AddrError``."""
    i = hostport.rfind(":")
    if i < 0:
        raise AddrError(f"address {hostport}: missing port in address")
    j = k = 0
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            raise AddrError(f"address {hostport}: missing ']' in address")
        if end + 1 == len(hostport):
            raise AddrError(f"address {hostport}: missing port in address")
        if end + 1 != i:
            reason = "too many colons" if hostport[end + 1] == ":" else "missing port"
            raise AddrError(f"address {hostport}: {reason} in address")
        host, j, k = hostport[1:end], 1, end + 1
    else:
        host = hostport[:i]
        if ":" in host:
            raise AddrError(f"address {hostport}: too many colons in address")
    if "[" in hostport[j:]:
        raise AddrError(f"address {hostport}: unexpected '[' in address")
    if "]" in hostport[k:]:
        raise AddrError(f"address {hostport}: unexpected ']' in address")
    return host, hostport[i + 1:]


def join_host_port(host: str, port: str) -> str:
    """``net.JoinHostPort``: brackets a host that contains a colon."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``net.ParseIP``: the address, or ``None`` (zones such as ``%eth0`` are not IPs)."""
    if "%" in text:
        return None
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def go_atoi(text: str) -> int | None:
    """``strconv.Atoi``: an optional sign and decimal digits, else ``None``."""
    return int(text) if re.fullmatch(r"[+-]?[0-9]+", text) else None


def is_valid_ip(value: str) -> list[str]:
    """``validation.IsValidIP``."""
    return [] if parse_ip(value) is not None else ["must be a valid IP address, (e.g. 10.9.8.7)"]


def is_valid_socket_addr(value: str) -> list[str]:
    """``validation.IsValidSocketAddr``: a host:port whose port and IP are valid."""
    try:
        ip, port = split_host_port(value)
    except AddrError:
        return ["must be a valid socket address format, (e.g. 0.0.0.0:10254 or [::]:10254)"]
    return is_valid_port_num(go_atoi(port) or 0) + is_valid_ip(ip)
