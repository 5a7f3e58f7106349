"""Extender URL policy: loopback by default, widened only by the server's allow-list."""

from __future__ import annotations

import pytest

from kubesched.scheduler.core import extender_policy
from kubesched.scheduler.core.extender_policy import (
    ALLOW_ENV,
    LOOPBACK_ONLY,
    ExtenderURLError,
    is_loopback,
    parse_allow_list,
    policy_from_environ,
)

LOOPBACK_HINT = ("only loopback extenders are enabled "
                 "(set KUBESCHED_EXTENDER_ALLOW on the server to allow more)")

DEFAULT_TABLE = [
    ("http://127.0.0.1:8888/scheduler", None),
    ("http://127.0.0.1", None),
    ("http://127.5.6.7:1/x", None),
    ("https://127.0.0.1:8443", None),
    ("http://[::1]:8888", None),
    ("http://[::ffff:127.0.0.1]:80", "an IPv4-mapped IPv6 address is not accepted (write 127.0.0.1 instead)"),
    ("http://[::ffff:7f00:1]:80", "an IPv4-mapped IPv6 address is not accepted (write 127.0.0.1 instead)"),
    ("http://[::ffff:10.0.0.1]/", "an IPv4-mapped IPv6 address is not accepted (write 10.0.0.1 instead)"),
    ("http://[::127.0.0.1]/", LOOPBACK_HINT),  # IPv4-compatible (deprecated): not loopback
    ("http://[0:0:0:0:0:0:0:1]:80", None),
    ("http://localhost:8888/x", None),
    ("http://LOCALHOST.:8888", None),
    ("http://10.0.0.5/x", LOOPBACK_HINT),
    ("http://example.com/x", LOOPBACK_HINT),
    ("http://169.254.169.254/latest/meta-data", LOOPBACK_HINT),
    ("http://[fe80::1]:80", LOOPBACK_HINT),
    ("http://localhost.example.com", LOOPBACK_HINT),
    ("http://127.0.0.1.nip.io", LOOPBACK_HINT),
    ("http://2130706433/", LOOPBACK_HINT),  # a decimal "IP" is a name here: never resolved
    ("http://127.1/", LOOPBACK_HINT),
    ("http://0.0.0.0:80", LOOPBACK_HINT),
    ("http://127.0.0.1@evil.example/", "user information in the URL is not supported"),
    ("http://user:pw@127.0.0.1/", "user information in the URL is not supported"),
    ("ftp://127.0.0.1/", "the scheme must be http or https"),
    ("file:///etc/passwd", "the scheme must be http or https"),
    ("file://127.0.0.1/etc/passwd", "the scheme must be http or https"),
    ("gopher://127.0.0.1:6379/_INFO", "the scheme must be http or https"),
    ("HTTP://127.0.0.1/", None),
    ("http://127.0.0.1./", LOOPBACK_HINT),  # a name (trailing dot), never resolved
    ("http://0x7f.0.0.1/", LOOPBACK_HINT),
    ("http://metadata.google.internal/", LOOPBACK_HINT),
    ("http://[::]:80/", LOOPBACK_HINT),
    ("127.0.0.1:8888", "the scheme must be http or https"),
    ("http:///x", "the URL has no host"),
    ("", "the URL is empty"),
    ("http://127.0.0.1:99999/", "the URL cannot be parsed (Port out of range 0-65535)"),
]


@pytest.mark.parametrize("url,why", DEFAULT_TABLE)
def test_default_policy(url, why):
    assert LOOPBACK_ONLY.refusal(url) == why


def test_error_message_names_index_and_url():
    with pytest.raises(ExtenderURLError) as info:
        LOOPBACK_ONLY.check_all(["http://127.0.0.1:1/a", "http://10.0.0.5/x"])
    assert str(info.value) == (
        'extenders[1].urlPrefix: "http://10.0.0.5/x" is not allowed: only loopback extenders '
        "are enabled (set KUBESCHED_EXTENDER_ALLOW on the server to allow more)")
    assert (info.value.index, info.value.url) == (1, "http://10.0.0.5/x")


ALLOW = "ext.example.com, *.svc.local:8080, 10.0.0.0/8, [fd00::1]:9000, 192.168.1.7:*"
WIDENED_TABLE = [
    ("http://ext.example.com/x", True),
    ("http://EXT.example.com:1234/x", True),
    ("http://other.example.com/x", False),
    ("http://a.svc.local:8080", True),
    ("http://a.b.svc.local:8080", True),
    ("http://svc.local:8080", False),
    ("http://a.svc.local:8081", False),
    ("http://a.svc.local", False),  # port 80 is not 8080
    ("http://10.0.0.5/x", True),
    ("https://10.255.0.1", True),
    ("http://11.0.0.1", False),
    ("http://[fd00::1]:9000/", True),
    ("http://[fd00::1]:9001/", False),
    ("http://192.168.1.7:31000", True),
    ("http://169.254.169.254/", False),
    ("http://127.0.0.1:1", True),  # loopback stays allowed
]


@pytest.mark.parametrize("url,allowed", WIDENED_TABLE)
def test_allow_list_widens(url, allowed):
    policy = policy_from_environ({ALLOW_ENV: ALLOW})
    why = policy.refusal(url)
    assert (why is None) == allowed
    if not allowed:
        assert why == ("only loopback extenders and the server's KUBESCHED_EXTENDER_ALLOW list "
                       "are enabled (add this host to KUBESCHED_EXTENDER_ALLOW on the server "
                       "to allow it)")


@pytest.mark.parametrize("text,error", [
    ("host:abc", "KUBESCHED_EXTENDER_ALLOW: 'host:abc' has an invalid port"),
    ("host:0", "KUBESCHED_EXTENDER_ALLOW: 'host:0' has an invalid port"),
    ("10.0.0.0/33", "KUBESCHED_EXTENDER_ALLOW: '10.0.0.0/33' is not a valid network"),
    (":8080", "KUBESCHED_EXTENDER_ALLOW: ':8080' has no host"),
])
def test_bad_allow_list(text, error):
    with pytest.raises(ValueError) as info:
        parse_allow_list(text)
    assert str(info.value) == error


def test_empty_allow_list_is_loopback_only():
    assert policy_from_environ({}) == LOOPBACK_ONLY
    assert policy_from_environ({ALLOW_ENV: " , "}) == LOOPBACK_ONLY


def test_server_policy_reads_environment_once(monkeypatch):
    extender_policy.server_policy.cache_clear()
    try:
        monkeypatch.setenv(ALLOW_ENV, "10.0.0.5")
        first = extender_policy.server_policy()
        monkeypatch.setenv(ALLOW_ENV, "")
        assert extender_policy.server_policy() is first
        assert first.refusal("http://10.0.0.5/x") is None
    finally:
        extender_policy.server_policy.cache_clear()


@pytest.mark.parametrize("host,expected", [
    ("127.0.0.1", True), ("::1", True), ("localhost", True), ("127.255.255.254", True),
    ("10.0.0.1", False), ("0.0.0.0", False), ("::", False), ("example.com", False),
    ("::ffff:127.0.0.1", False),  # IPv4-mapped: refused by the policy, whatever it maps to
])
def test_is_loopback(host, expected):
    assert is_loopback(host) is expected
