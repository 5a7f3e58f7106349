"""A small scheduler extender on ``http.server``: filter, prioritize, bind, preempt.

Upstream: none (the external process pkg/scheduler/core/extender.go calls; it answers in the
k8s.io/kube-scheduler/extender/v1 wire format of v1.18, field names as Go writes them).

Run it::

    python -m kubesched.extender.sample --port 8888 [--host 127.0.0.1] [--tls-cert C --tls-key K]

and point a configuration at it::

    extenders:
    - urlPrefix: "http://127.0.0.1:8888"
      filterVerb: filter
      prioritizeVerb: prioritize
      bindVerb: bind          # optional: the extender then binds the pods it is interested in
      preemptVerb: preempt
      weight: 1

The verb is the last path segment, so any ``urlPrefix`` path works. Behaviour:

* ``filter`` rejects a node labelled ``extender.kubesched.io/reject=true`` with the reason
  :data:`FILTER_REASON`; every other node passes. Given ``NodeNames`` (nodeCacheCapable) it
  answers ``NodeNames`` and reads labels from its own node cache (``node_labels``).
* ``prioritize`` scores a node 0..10 from its label ``extender.kubesched.io/score``
  (missing or not a number: 0; clamped to 0..10).
* ``bind`` records the binding and answers success. In v1.18 a binder extender is
  responsible for the binding itself (the scheduler does not call the API server), but this
  process cannot reach the simulator's in-memory API server: a test or the simulator passes
  ``on_bind`` (a callback that receives the ``ExtenderBindingArgs`` dict and returns ``None``
  or an error text) to perform it. The callback runs on the server's thread while the
  scheduler waits for the answer, so it does not race with the event loop.
* ``preempt`` returns the victims it was given, as ``NodeNameToMetaVictims``.

For lessons and tests each verb can be given an HTTP status (``status``), an ``Error``
answer (``errors``), a delay in seconds (``delays``), a handler of its own (``handlers``), a
``307`` redirect to a URL (``redirects``) or a drip: the whole answer, status line included,
one byte every so many seconds (``drip``); every request is recorded
(:attr:`SampleExtender.requests`).

The server binds loopback addresses only. :func:`run_sample_extender` starts one on a
free port in a thread and always shuts it down.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import socket
import ssl
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from kubesched.scheduler.core.extender_policy import is_loopback

REJECT_LABEL = "extender.kubesched.io/reject"
SCORE_LABEL = "extender.kubesched.io/score"
FILTER_REASON = f"node(s) rejected by the sample extender ({REJECT_LABEL}=true)"
VERBS = ("filter", "prioritize", "bind", "preempt")
MAX_REQUEST_BYTES = 64 << 20
MAX_SCORE = 10

BindCallback = Callable[[Mapping[str, Any]], str | None]
Handler = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as received: verb, path, Content-Type and the parsed JSON body."""

    verb: str
    path: str
    content_type: str
    body: Any


@dataclass
class SampleExtender:
    """The extender's behaviour and its request log (thread-safe)."""

    node_labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    on_bind: BindCallback | None = None
    status: Mapping[str, int] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    delays: Mapping[str, float] = field(default_factory=dict)
    handlers: Mapping[str, Handler] = field(default_factory=dict)
    redirects: Mapping[str, str] = field(default_factory=dict)
    drip: Mapping[str, float] = field(default_factory=dict)
    _log: list[RecordedRequest] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _stopping: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._log)

    def requests_for(self, verb: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.verb == verb]

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._log.append(request)

    def handle(self, verb: str, args: Any) -> tuple[int, Any]:
        """(HTTP status, answer) for one call: overrides first, then the built-in verb."""
        delay = self.delays.get(verb, 0.0)
        if delay > 0:
            self._stopping.wait(delay)
        if verb in self.status:
            return self.status[verb], {"Error": f"status {self.status[verb]}"}
        if verb in self.handlers:
            answer = self.handlers[verb](args)
            return answer if _is_status_pair(answer) else (200, answer)
        if verb not in VERBS:
            return 404, {"Error": f"unknown verb {verb!r}"}
        if verb in self.errors:
            return 200, _error_answer(verb, self.errors[verb])
        return 200, getattr(self, f"_{verb}")(args if isinstance(args, dict) else {})

    # -- built-in verbs

    def _filter(self, args: dict) -> dict:
        names = args.get("NodeNames")
        if names is not None:
            failed = {n: FILTER_REASON for n in names if self._labels(n).get(REJECT_LABEL) == "true"}
            return {"Nodes": None, "NodeNames": [n for n in names if n not in failed],
                    "FailedNodes": failed, "Error": ""}
        items = ((args.get("Nodes") or {}).get("items")) or []
        failed = {}
        passed = []
        for node in items:
            meta = node.get("metadata") or {}
            if (meta.get("labels") or {}).get(REJECT_LABEL) == "true":
                failed[meta.get("name", "")] = FILTER_REASON
            else:
                passed.append(node)
        return {"Nodes": {"metadata": {}, "items": passed}, "NodeNames": None,
                "FailedNodes": failed, "Error": ""}

    def _prioritize(self, args: dict) -> list[dict]:
        names = args.get("NodeNames")
        if names is not None:
            labelled = [(n, self._labels(n)) for n in names]
        else:
            items = ((args.get("Nodes") or {}).get("items")) or []
            labelled = [((n.get("metadata") or {}).get("name", ""),
                         (n.get("metadata") or {}).get("labels") or {}) for n in items]
        return [{"Host": name, "Score": score_of(labels)} for name, labels in labelled]

    def _bind(self, args: dict) -> dict:
        error = self.on_bind(args) if self.on_bind is not None else None
        return {"Error": error or ""}

    def _preempt(self, args: dict) -> dict:
        meta = args.get("NodeNameToMetaVictims")
        if meta is None:
            meta = {node: {"Pods": [{"UID": ((p.get("metadata") or {}).get("uid", ""))}
                                    for p in (victims or {}).get("Pods") or []],
                           "NumPDBViolations": (victims or {}).get("NumPDBViolations", 0)}
                    for node, victims in (args.get("NodeNameToVictims") or {}).items()}
        return {"NodeNameToMetaVictims": meta}

    def _labels(self, node_name: str) -> Mapping[str, str]:
        return self.node_labels.get(node_name, {})


def score_of(labels: Mapping[str, str]) -> int:
    """The 0..10 score a node's ``extender.kubesched.io/score`` label asks for."""
    try:
        value = int(labels.get(SCORE_LABEL, "0"))
    except ValueError:
        return 0
    return max(0, min(MAX_SCORE, value))


def _is_status_pair(answer: Any) -> bool:
    return isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[0], int)


def _error_answer(verb: str, message: str) -> Any:
    """An ``Error`` answer (for prioritize, whose answer is a list, a decoding error)."""
    del verb
    return {"Error": message}


# ---------------------------------------------------------------- HTTP server


class _RequestHandler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        verb = self.path.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_REQUEST_BYTES:
            self._reply(413, {"Error": "request too large"})
            return
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw) if raw else None
        except ValueError as err:
            self._reply(400, {"Error": f"invalid JSON: {err}"})
            return
        extender = self.server.extender
        extender.record(RecordedRequest(verb, self.path, self.headers.get("Content-Type", ""), body))
        if verb in extender.redirects:
            self._reply(307, {"Error": "moved"}, {"Location": extender.redirects[verb]})
            return
        status, answer = extender.handle(verb, body)
        self._reply(status, answer, drip=extender.drip.get(verb, 0.0))

    def do_GET(self) -> None:
        self._reply(405, {"Error": "use POST"})

    def _reply(self, status: int, answer: Any, headers: Mapping[str, str] | None = None,
               drip: float = 0.0) -> None:
        payload = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            if drip > 0:
                self._drip(b"".join(self._headers_buffer) + b"\r\n" + payload, drip)
                return
            self.end_headers()
            self.wfile.write(payload)
        except OSError:
            pass  # the scheduler gave up (timeout) and closed the connection

    def _drip(self, data: bytes, seconds: float) -> None:
        self._headers_buffer = []
        stopping = self.server.extender._stopping
        for i in range(len(data)):
            if stopping.wait(seconds):
                return
            self.wfile.write(data[i:i + 1])
            self.wfile.flush()

    def log_message(self, format: str, *args: Any) -> None:
        return


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    scheme = "http"

    def __init__(self, address: tuple[str, int], extender: SampleExtender, family: int) -> None:
        self.address_family = family
        self.extender = extender
        super().__init__(address, _RequestHandler)


def make_server(host: str, port: int, extender: SampleExtender,
                tls: tuple[str, str] | None = None) -> _Server:
    """A server bound to a loopback ``host`` (ValueError for any other address).

    ``tls`` = (certificate file, key file) serves HTTPS instead of HTTP.
    """
    if not is_loopback(host):
        raise ValueError(f"the sample extender binds loopback addresses only, not {host!r}")
    family = socket.AF_INET6 if _is_v6(host) else socket.AF_INET
    server = _Server((host, port), extender, family)
    if tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            context.load_cert_chain(*tls)
        except (OSError, ssl.SSLError):
            server.server_close()
            raise
        server.socket = context.wrap_socket(server.socket, server_side=True)
        server.scheme = "https"
    return server


def _is_v6(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).version == 6
    except ValueError:
        return False


def server_url(server: _Server) -> str:
    host, port = server.server_address[:2]
    host = f"[{host}]" if ":" in str(host) else host
    return f"{server.scheme}://{host}:{port}"


@contextlib.contextmanager
def run_sample_extender(port: int = 0, host: str = "127.0.0.1",
                        extender: SampleExtender | None = None,
                        tls: tuple[str, str] | None = None) -> Iterator[str]:
    """Serve ``extender`` (default: a new one) in a thread; yield its base URL; always stop.

    ``port=0`` picks a free port. Pass your own :class:`SampleExtender` to read its requests,
    and ``tls`` = (certificate file, key file) for HTTPS.
    """
    extender = extender if extender is not None else SampleExtender()
    server = make_server(host, port, extender, tls)
    extender._stopping.clear()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              name="kubesched-sample-extender", daemon=True)
    thread.start()
    try:
        yield server_url(server)
    finally:
        extender._stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def main(argv: list[str] | None = None) -> int:
    """``python -m kubesched.extender.sample --port N [--host 127.0.0.1]``."""
    parser = argparse.ArgumentParser(prog="python -m kubesched.extender.sample",
                                     description="kubesched sample scheduler extender (loopback only)")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--tls-cert", help="certificate file (PEM): serve HTTPS")
    parser.add_argument("--tls-key", help="key file (PEM) for --tls-cert")
    options = parser.parse_args(argv)
    tls = (options.tls_cert, options.tls_key) if options.tls_cert else None
    try:
        server = make_server(options.host, options.port, SampleExtender(), tls)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"kubesched sample extender listening on {server_url(server)} "
          f"(verbs: {', '.join(VERBS)})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
