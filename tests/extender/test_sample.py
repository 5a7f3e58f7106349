"""The sample extender: behaviour, loopback-only binding, CLI."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from kubesched.extender.sample import (
    SCORE_LABEL,
    SampleExtender,
    main,
    make_server,
    run_sample_extender,
    score_of,
)
from kubesched.scheduler.core.extender import HTTPExtender, Victims
from kubesched.scheduler.core.extender_policy import LOOPBACK_ONLY

from .conftest import ExtenderCfg, make_node, make_pod

pytestmark = pytest.mark.timeout(30)
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("labels,score", [
    ({}, 0), ({SCORE_LABEL: "7"}, 7), ({SCORE_LABEL: "10"}, 10), ({SCORE_LABEL: "11"}, 10),
    ({SCORE_LABEL: "-3"}, 0), ({SCORE_LABEL: "high"}, 0), ({"other": "9"}, 0),
])
def test_score_of(labels, score):
    assert score_of(labels) == score


@pytest.mark.parametrize("host", ["0.0.0.0", "10.0.0.5", "::", "example.com"])
def test_refuses_non_loopback_bind(host):
    with pytest.raises(ValueError) as info:
        make_server(host, 0, SampleExtender())
    assert str(info.value) == f"the sample extender binds loopback addresses only, not {host!r}"


def test_cli_refuses_non_loopback_host(capsys):
    assert main(["--port", "0", "--host", "0.0.0.0"]) == 2
    assert capsys.readouterr().err == (
        "error: the sample extender binds loopback addresses only, not '0.0.0.0'\n")


def post(url: str, path: str, body: bytes, method: str = "POST") -> tuple[int, object]:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    conn = http.client.HTTPConnection(host.strip("[]"), int(port), timeout=5)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.mark.parametrize("method,path,body,expected", [
    ("GET", "/filter", b"", (405, {"Error": "use POST"})),
    ("POST", "/nope", b"{}", (404, {"Error": "unknown verb 'nope'"})),
    ("POST", "/filter", b"{", (400, {"Error": "invalid JSON: Expecting property name enclosed in "
                                              "double quotes: line 1 column 2 (char 1)"})),
    ("POST", "/x/y/bind?dry=1", b'{"PodName":"p","Node":"n"}', (200, {"Error": ""})),
    ("POST", "/preempt", json.dumps({"NodeNameToVictims": {"n": {"Pods": [
        {"metadata": {"uid": "u1"}}], "NumPDBViolations": 2}}}).encode(),
     (200, {"NodeNameToMetaVictims": {"n": {"Pods": [{"UID": "u1"}], "NumPDBViolations": 2}}})),
])
def test_raw_requests(method, path, body, expected):
    with run_sample_extender() as url:
        assert post(url, path, body, method) == expected


def ipv6_loopback_available() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not ipv6_loopback_available(), reason="no IPv6 loopback here")
def test_ipv6_loopback_round_trip():
    with run_sample_extender(host="::1") as url:
        assert url.startswith("http://[::1]:")
        ext = HTTPExtender(ExtenderCfg(url), policy=LOOPBACK_ONLY)
        assert ext.prioritize(make_pod(), [make_node("n", {SCORE_LABEL: "4"})])[0][0].score == 4


def test_preempt_returns_victims_unchanged_through_extender():
    victim = make_pod("v", uid="uid-v", nodeName="n")
    from kubesched.scheduler.internal.cache.snapshot import Snapshot
    infos = Snapshot.new([victim], [make_node("n")]).node_infos()
    with run_sample_extender() as url:
        ext = HTTPExtender(ExtenderCfg(url), policy=LOOPBACK_ONLY)
        assert ext.process_preemption(make_pod(), {"n": Victims((victim,))}, infos) == {
            "n": Victims((victim,))}


def test_command_line_server():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "kubesched.extender.sample", "--port", str(port)],
                            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        assert line == (f"kubesched sample extender listening on http://127.0.0.1:{port} "
                        f"(verbs: filter, prioritize, bind, preempt)\n")
        ext = HTTPExtender(ExtenderCfg(f"http://127.0.0.1:{port}"), policy=LOOPBACK_ONLY)
        nodes, failed = ext.filter(make_pod(), [make_node("a"), make_node("b", {
            "extender.kubesched.io/reject": "true"})])
        assert ([n.metadata.name for n in nodes], list(failed)) == (["a"], ["b"])
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
