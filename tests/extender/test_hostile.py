"""Extenders that misbehave (issue 15, issue 17 item 8): ``httpTimeout`` bounds the whole exchange as
Go's ``Client.Timeout`` does, redirects go nowhere, a huge answer is cut off, odd URLs are written
as Go writes them, and a failing extender fails the scheduling cycle as v1.18 does."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from kubesched.extender.sample import SampleExtender, run_sample_extender
from kubesched.scheduler.core.extender import ExtenderError, HTTPExtender
from kubesched.scheduler.core.extender_policy import LOOPBACK_ONLY
from kubesched.scheduler.core.extender_transport import MAX_RESPONSE_BYTES, TransportError, request_uri
from kubesched.sim import Simulation

from .conftest import ExtenderCfg, make_node, make_pod

pytestmark = pytest.mark.timeout(30)

POD = make_pod()
NODES = [make_node("n0")]
HEADERS = "net/http: request canceled (Client.Timeout exceeded while awaiting headers)"
BODY = "net/http: request canceled (Client.Timeout exceeded while reading body)"


@contextlib.contextmanager
def raw_server(answer: Callable[[socket.socket], None]) -> Iterator[str]:
    """A loopback server that reads one request and lets ``answer`` write (or not) on the socket."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        with contextlib.suppress(OSError):
            conn, _ = listener.accept()
            with conn:
                conn.recv(1 << 16)
                with contextlib.suppress(OSError):
                    answer(conn, stop)
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()
        thread.join(timeout=5)


def filter_with(url: str, timeout: float) -> tuple[str, float]:
    ext = HTTPExtender(ExtenderCfg(url, http_timeout=timeout), policy=LOOPBACK_ONLY)
    start = time.monotonic()
    with pytest.raises(ExtenderError) as info:
        ext.filter(POD, NODES)
    return str(info.value), time.monotonic() - start


# ---------------------------------------------------------------- one timeout for the whole exchange


def test_a_server_dripping_its_answer_fails_at_the_timeout():
    """One byte every 0.5 s, each within any per-read timeout: the call still ends at 1 s."""
    server = SampleExtender(drip={"filter": 0.5})
    with run_sample_extender(extender=server) as url:
        message, took = filter_with(url, 1.0)
    assert message == f"Post {url}/filter: {HEADERS}"
    assert 0.9 <= took < 1.6


def test_a_body_dripped_after_the_headers_fails_at_the_timeout():
    def answer(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        while not stop.wait(0.3):
            conn.sendall(b" ")
    with raw_server(answer) as url:
        message, took = filter_with(url, 1.0)
    assert message == BODY  # send() returns json.Decoder's error as it is: no "Post <url>:"
    assert 0.9 <= took < 1.6


def test_a_hanging_extender_hits_the_timeout():
    with raw_server(lambda conn, stop: stop.wait(10)) as url:
        message, took = filter_with(url, 0.5)
    assert message == f"Post {url}/filter: {HEADERS}"
    assert 0.4 <= took < 1.2


def test_a_huge_answer_is_cut_off():
    def answer(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[")
        chunk = b"0," * (1 << 19)
        while not stop.is_set():
            conn.sendall(chunk)
    with raw_server(answer) as url:
        message, took = filter_with(url, 10.0)
    assert message == f"Post {url}/filter: the answer is longer than {MAX_RESPONSE_BYTES} bytes: cut off"
    assert took < 5


# ---------------------------------------------------------------- redirects go nowhere


@pytest.mark.parametrize("target", ["http://10.0.0.1/filter", "http://169.254.169.254/latest/meta-data",
                                    "file:///etc/passwd", "LOOPBACK"])
def test_a_redirect_is_never_followed(target):
    other = SampleExtender()
    with run_sample_extender(extender=other) as other_url:
        location = f"{other_url}/filter" if target == "LOOPBACK" else target
        redirecting = SampleExtender(redirects={"filter": location})
        with run_sample_extender(extender=redirecting) as url:
            message, _ = filter_with(url, 2.0)
    assert message == f"Failed filter with extender at URL {url}/filter, code 307"
    assert other.requests == [] and len(redirecting.requests) == 1


# ---------------------------------------------------------------- URLs as Go writes them


def test_a_non_ascii_path_goes_out_percent_encoded():
    """url.Parse + RequestURI: Go sends the path as URL.EscapedPath writes it."""
    server = SampleExtender()
    with run_sample_extender(extender=server) as url:
        ext = HTTPExtender(ExtenderCfg(url + "/调度/é"), policy=LOOPBACK_ONLY)
        assert ext.filter(POD, NODES) == (NODES, {})
    assert [r.path for r in server.requests] == ["/%E8%B0%83%E5%BA%A6/%C3%A9/filter"]


@pytest.mark.parametrize("url, target", [
    ("http://127.0.0.1:1/a b/filter", "/a%20b/filter"),
    ("http://127.0.0.1:1/a%2Fb/filter", "/a%2Fb/filter"),      # valid escapes are kept as written
    ("http://127.0.0.1:1/x!'()*[]/filter", "/x!'()*[]/filter"),
    ("http://127.0.0.1:1/é!/filter", "/%C3%A9%21/filter"),    # once escaped, sub-delims are too
    ("http://127.0.0.1:1/q/filter?a=é", "/q/filter?a=%C3%A9"),
    ("http://127.0.0.1:1", "/"),
])
def test_request_uri(url, target):
    assert request_uri(url)[1] == target


@pytest.mark.parametrize("url, message", [
    ("http://127.0.0.1:1/a%zz/filter", 'parse http://127.0.0.1:1/a%zz/filter: invalid URL escape "%zz"'),
    ("http://127.0.0.1:1/a%4/filter", 'parse http://127.0.0.1:1/a%4/filter: invalid URL escape "%4/"'),
    ("http://127.0.0.1:1/a\nb/filter", "parse http://127.0.0.1:1/a\nb/filter: net/url: invalid control character in URL"),
])
def test_urls_go_refuses_to_parse(url, message):
    with pytest.raises(TransportError) as info:
        request_uri(url)
    assert str(info.value) == message


# ---------------------------------------------------------------- a failing extender fails the cycle


CLUSTER = """apiVersion: v1
kind: Node
metadata: {{name: n1, labels: {{kubernetes.io/hostname: n1}}}}
status: {{capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
---
apiVersion: v1
kind: Pod
metadata: {{name: web, namespace: default}}
spec: {{containers: [{{name: c, image: nginx}}]}}
---
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
extenders:
- {{urlPrefix: "{url}", filterVerb: filter, ignorable: {ignorable}, httpTimeout: 1000000000}}
"""


@pytest.mark.parametrize("behaviour, message", [
    ({"status": {"filter": 500}}, "Failed filter with extender at URL {url}/filter, code 500"),
    ({"handlers": {"filter": lambda args: (200, b"<html>garbage")}},
     "invalid character '<' looking for beginning of value"),
    ({"drip": {"filter": 0.4}}, "Post {url}/filter: " + HEADERS),
], ids=["500", "garbage-json", "drip"])
@pytest.mark.parametrize("ignorable", [False, True])
def test_a_failing_extender_fails_the_cycle_unless_ignorable(behaviour, message, ignorable):
    """v1.18 findNodesThatPassExtenders: an error fails the cycle (FailedScheduling with the error)
    unless the extender is ignorable, when it is skipped and the pod is scheduled."""
    server = SampleExtender(**behaviour)
    with run_sample_extender(extender=server) as url:
        sim = Simulation.from_text(CLUSTER.format(url=url, ignorable=str(ignorable).lower()), horizon=3)
        sim.run_until_idle()
    pod = sim.state().pod("default", "web")
    failed = [e.message for e in sim.state().events if e.reason == "FailedScheduling"]
    if ignorable:
        assert (pod.node, failed) == ("n1", [])
    else:
        assert (pod.node, set(failed)) == ("", {message.format(url=url)})
