"""One POST to a scheduler extender as Go's ``http.Client`` makes it: the request URI Go
writes, one timeout for the whole exchange, and a bounded answer.

Upstream: pkg/scheduler/core/extender.go (makeTransport, HTTPExtender.send: ``http.Client``
with ``Timeout: httpTimeout``); net/http client.go @ go1.13 (Client.Timeout: ``setRequestCancel``
cancels the request when the deadline passes, ``cancelTimerBody`` for the body);
net/url url.go (Parse, URL.EscapedPath, URL.RequestURI).

- ``httpTimeout`` bounds connecting, the TLS handshake, sending, the headers and the body
  together, as ``Client.Timeout`` does: every socket wait gets the time left, so a server
  that drips one byte at a time still fails at the deadline. Errors read as go1.13's:
  ``Post <url>: net/http: request canceled (Client.Timeout exceeded while awaiting headers)``,
  and once the headers are in, the body's ``net/http: request canceled (Client.Timeout
  exceeded while reading body)`` (``send`` returns the decoder's error as it is).
- The request line carries the path as ``URL.EscapedPath`` writes it (``/é`` goes out as
  ``/%C3%A9``); a control character or a bad ``%`` escape fails as ``url.Parse`` does.
- The deadline is wall time (this is the one module under ``kubesched/`` that reads the
  clock, allowed by tests/sim/test_no_wall_clock.py): a network wait is real time. Nothing
  else that happens depends on it.

Deviation: redirects are not followed (Go follows up to 10): a 3xx answer fails the call like
any non-200 status, so an allowed loopback URL cannot send the call elsewhere. Proxy
environment variables are ignored, no ``Accept-Encoding: gzip`` is sent, and answers longer
than ``MAX_RESPONSE_BYTES`` are cut off (no upstream limit).
"""

from __future__ import annotations

import http.client
import io
import select
import socket
import ssl
import time
import urllib.parse
from typing import Any

MAX_RESPONSE_BYTES = 16 << 20
"""Largest extender answer read (16 MiB: a NodeList of some 10,000 nodes); longer ones fail the call."""
_PATH_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~$&+,/:;=@")
_PATH_VALID = _PATH_SAFE | frozenset(b"!'()*[]%")  # url.validEncodedPath also keeps these as written
_QUERY_KEPT = frozenset(range(0x21, 0x7F))  # RawQuery goes out as written; bytes Go would send raw are %-escaped
_HEX = "0123456789ABCDEFabcdef"
AWAITING_HEADERS = "net/http: request canceled (Client.Timeout exceeded while awaiting headers)"
READING_BODY = "net/http: request canceled (Client.Timeout exceeded while reading body)"


class TransportError(Exception):
    """The call failed before an answer was read; ``str()`` is Go's error text."""


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left; TimeoutError once the deadline passed."""
        remaining = self._end - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        return remaining


class _DeadlineReader(io.RawIOBase):
    """A socket's bytes, each wait bounded by the time left."""

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        self._sock, self._deadline = sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self._sock.settimeout(self._deadline.left())
        return self._sock.recv_into(buffer)


class _Source:
    """What ``http.client.HTTPResponse`` needs of a socket: ``makefile``."""

    def __init__(self, reader: _DeadlineReader) -> None:
        self._reader = reader

    def makefile(self, mode: str) -> io.BufferedReader:
        del mode
        return io.BufferedReader(self._reader)


# ---------------------------------------------------------------- the URL as Go writes it


def request_uri(url: str) -> tuple[urllib.parse.SplitResult, str]:
    """(the split URL, the request target Go sends); TransportError as ``url.Parse`` fails."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in url):
        raise TransportError(f"parse {url}: net/url: invalid control character in URL")
    parts = urllib.parse.urlsplit(url)
    raw = parts.path.encode("utf-8")
    _check_escapes(url, raw)
    if all(b in _PATH_VALID for b in raw):
        path = raw.decode("ascii")
    else:
        path = _escape(urllib.parse.unquote_to_bytes(raw))
    query = _escape(parts.query.encode("utf-8"), keep=_QUERY_KEPT) if parts.query else ""
    return parts, (path or "/") + (f"?{query}" if query else "")


def _check_escapes(url: str, raw: bytes) -> None:
    i = raw.find(b"%")
    while i >= 0:
        escape = raw[i:i + 3].decode("utf-8", "replace")
        if len(escape) < 3 or escape[1] not in _HEX or escape[2] not in _HEX:
            raise TransportError(f'parse {url}: invalid URL escape "{escape}"')
        i = raw.find(b"%", i + 3)


def _escape(data: bytes, keep: frozenset[int] = _PATH_SAFE) -> str:
    return "".join(chr(b) if b in keep else f"%{b:02X}" for b in data)


# ---------------------------------------------------------------- the exchange


def post(url: str, body: bytes, timeout: float, context: Any) -> tuple[int, bytes]:
    """POST ``body`` (JSON) to ``url``; (status, answer). TransportError with Go's texts."""
    parts, target = request_uri(url)
    go_url = f"{parts.scheme}://{parts.netloc}{target}"
    deadline = _Deadline(timeout)
    headers_in = False
    sock: socket.socket | None = None
    try:
        sock = _connect(parts, deadline, context)
        _send(sock, _request(parts, target, body), deadline)
        response = http.client.HTTPResponse(_Source(_DeadlineReader(sock, deadline)), method="POST")  # type: ignore[arg-type]
        response.begin()
        headers_in = True
        payload = response.read(MAX_RESPONSE_BYTES + 1)
        if len(payload) > MAX_RESPONSE_BYTES:
            raise TransportError(f"Post {go_url}: the answer is longer than {MAX_RESPONSE_BYTES} bytes: cut off")
        return response.status, payload
    except TimeoutError:
        raise TransportError(READING_BODY if headers_in else f"Post {go_url}: {AWAITING_HEADERS}") from None
    except ConnectionRefusedError:
        raise TransportError(f"Post {go_url}: dial tcp {_host_port(parts)}: connect: connection refused") from None
    except (OSError, http.client.HTTPException, ValueError) as err:
        raise TransportError(f"Post {go_url}: {err or type(err).__name__}") from None
    finally:
        if sock is not None:
            sock.close()


def _connect(parts: urllib.parse.SplitResult, deadline: _Deadline, context: Any) -> socket.socket:
    https = parts.scheme.lower() == "https"
    port = parts.port or (443 if https else 80)
    sock = socket.create_connection((parts.hostname, port), timeout=deadline.left())
    if not https:
        return sock
    try:
        tls = context.wrap_socket(sock, server_hostname=parts.hostname, do_handshake_on_connect=False)
    except BaseException:
        sock.close()
        raise
    tls.setblocking(False)
    while True:  # the handshake, each wait bounded by the time left
        try:
            tls.do_handshake()
            return tls
        except ssl.SSLWantReadError:
            select.select([tls], [], [], deadline.left())
        except ssl.SSLWantWriteError:
            select.select([], [tls], [], deadline.left())
        except BaseException:
            tls.close()
            raise


def _request(parts: urllib.parse.SplitResult, target: str, body: bytes) -> bytes:
    head = (f"POST {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nUser-Agent: Go-http-client/1.1\r\n"
            f"Content-Length: {len(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
    return head.encode("ascii") + body


def _send(sock: socket.socket, data: bytes, deadline: _Deadline) -> None:
    view = memoryview(data)
    while view:
        sock.settimeout(deadline.left())
        try:
            sent = sock.send(view[:1 << 16])
        except (ssl.SSLWantWriteError, ssl.SSLWantReadError):
            select.select([], [sock], [], deadline.left())
            continue
        view = view[sent:]


def _host_port(parts: urllib.parse.SplitResult) -> str:
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


__all__ = ["AWAITING_HEADERS", "MAX_RESPONSE_BYTES", "READING_BODY", "TransportError", "post", "request_uri"]
