"""Go formats used by the configuration: durations, host:port, socket addresses."""

from __future__ import annotations

import pytest

from kubesched.scheduler.apis.config.go_format import (
    AddrError,
    DurationError,
    format_duration,
    is_valid_socket_addr,
    join_host_port,
    parse_duration,
    split_host_port,
)


@pytest.mark.parametrize("text,ns,shown", [
    ("15s", 15_000_000_000, "15s"),
    ("1h2m3.5s", 3_723_500_000_000, "1h2m3.5s"),
    ("90s", 90_000_000_000, "1m30s"),
    ("1h", 3_600_000_000_000, "1h0m0s"),
    ("1.5ms", 1_500_000, "1.5ms"),
    ("2us", 2_000, "2µs"),
    ("500ns", 500, "500ns"),
    ("0", 0, "0s"),
    ("-2m", -120_000_000_000, "-2m0s"),
    ("+1.s", 1_000_000_000, "1s"),
])
def test_durations(text, ns, shown):
    assert parse_duration(text) == ns
    assert format_duration(ns) == shown


@pytest.mark.parametrize("text,message", [
    ("", 'time: invalid duration ""'),
    ("5", 'time: missing unit in duration "5"'),
    ("x", 'time: invalid duration "x"'),
    (".s", 'time: invalid duration ".s"'),
    ("1d", 'time: unknown unit "d" in duration "1d"'),
])
def test_duration_errors(text, message):
    with pytest.raises(DurationError) as info:
        parse_duration(text)
    assert str(info.value) == message


@pytest.mark.parametrize("hostport,expected", [
    ("0.0.0.0:10251", ("0.0.0.0", "10251")),
    (":80", ("", "80")),
    ("[::1]:80", ("::1", "80")),
    ("host:", ("host", "")),
    ("1.2.3.4", "address 1.2.3.4: missing port in address"),
    ("::1:80", "address ::1:80: too many colons in address"),
    ("[::1]", "address [::1]: missing port in address"),
    ("[::1]x:80", "address [::1]x:80: missing port in address"),
    ("[::1:80", "address [::1:80: missing ']' in address"),
    ("a]:80", "address a]:80: unexpected ']' in address"),
])
def test_split_host_port(hostport, expected):
    if isinstance(expected, tuple):
        assert split_host_port(hostport) == expected
    else:
        with pytest.raises(AddrError) as info:
            split_host_port(hostport)
        assert str(info.value) == expected


@pytest.mark.parametrize("host,port,expected", [("::1", "80", "[::1]:80"), ("h", "1", "h:1")])
def test_join_host_port(host, port, expected):
    assert join_host_port(host, port) == expected


@pytest.mark.parametrize("value,expected", [
    ("0.0.0.0:10254", []),
    ("[::]:10254", []),
    ("0.0.0.0", ["must be a valid socket address format, (e.g. 0.0.0.0:10254 or [::]:10254)"]),
    ("0.0.0.0:0", ["must be between 1 and 65535, inclusive"]),
    ("host:80", ["must be a valid IP address, (e.g. 10.9.8.7)"]),
    (":x", ["must be between 1 and 65535, inclusive", "must be a valid IP address, (e.g. 10.9.8.7)"]),
    ("[fe80::1%eth0]:80", ["must be a valid IP address, (e.g. 10.9.8.7)"]),
])
def test_is_valid_socket_addr(value, expected):
    assert is_valid_socket_addr(value) == expected
