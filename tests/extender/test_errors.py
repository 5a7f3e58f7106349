"""Extender failures: HTTP status, Error answers, bad JSON, timeouts, refused connections,
and what the generic scheduler does with them (ignorable vs fatal)."""

from __future__ import annotations

import socket

import pytest

from kubesched.extender.sample import (
    FILTER_REASON,
    REJECT_LABEL,
    SampleExtender,
    run_sample_extender,
)
from kubesched.scheduler.core.extender import ExtenderError, HTTPExtender, new_binding
from kubesched.scheduler.core.extender_policy import LOOPBACK_ONLY
from kubesched.scheduler.core.generic_scheduler import GenericScheduler
from kubesched.scheduler.framework.v1alpha1.interface import Code

from .conftest import ExtenderCfg, make_node, make_pod

pytestmark = pytest.mark.timeout(30)

POD = make_pod()
NODES = [make_node("n0"), make_node("n1", {REJECT_LABEL: "true"})]


def call(ext: HTTPExtender, verb: str):
    if verb == "filter":
        return ext.filter(POD, NODES)
    if verb == "prioritize":
        return ext.prioritize(POD, NODES)
    if verb == "bind":
        return ext.bind(new_binding(POD, "n0"))
    return ext.process_preemption(POD, {}, None)


@pytest.mark.parametrize("verb", ["filter", "prioritize", "bind", "preempt"])
@pytest.mark.parametrize("status", [500, 404, 201])
def test_non_200_status(verb, status):
    server = SampleExtender(status={verb: status})
    with run_sample_extender(extender=server) as url:
        with pytest.raises(ExtenderError) as info:
            call(HTTPExtender(ExtenderCfg(url + "/ext"), policy=LOOPBACK_ONLY), verb)
    assert str(info.value) == f"Failed {verb} with extender at URL {url}/ext/{verb}, code {status}"


@pytest.mark.parametrize("verb,message", [
    ("filter", "filter went wrong"),
    ("bind", "bind went wrong"),
    ("prioritize", "json: cannot unmarshal object into Go value of type v1.HostPriorityList"),
])
def test_error_answers(verb, message):
    server = SampleExtender(errors={verb: f"{verb} went wrong"})
    with run_sample_extender(extender=server) as url:
        with pytest.raises(ExtenderError) as info:
            call(HTTPExtender(ExtenderCfg(url), policy=LOOPBACK_ONLY), verb)
    assert str(info.value) == message


@pytest.mark.parametrize("verb,answer,message", [
    ("filter", [], "json: cannot unmarshal array into Go value of type v1.ExtenderFilterResult"),
    ("filter", {"Error": 3}, "json: cannot unmarshal number into Go value of type string "
                             "(field ExtenderFilterResult.Error)"),
    ("filter", {"FailedNodes": {"n0": 1}}, "json: cannot unmarshal number into Go value of type "
                                           "string (field ExtenderFilterResult.FailedNodes)"),
    ("filter", {"Nodes": {"items": [{"metadata": "x"}]}},
     "json: cannot decode Nodes.items[0].metadata: must be an object, not a string"),
    ("prioritize", [{"Host": "n0", "Score": 2.5}],
     "json: cannot unmarshal number into Go value of type int64 (field HostPriority.Score)"),
    ("prioritize", [{"Host": "n0", "Score": True}],
     "json: cannot unmarshal bool into Go value of type int64 (field HostPriority.Score)"),
    ("bind", "ok", "json: cannot unmarshal string into Go value of type v1.ExtenderBindingResult"),
    ("preempt", {"NodeNameToMetaVictims": []},
     "json: cannot unmarshal array into Go value of type map[string]*v1.MetaVictims"),
])
def test_badly_typed_answers(verb, answer, message):
    server = SampleExtender(handlers={verb: lambda args: answer})
    with run_sample_extender(extender=server) as url:
        with pytest.raises(ExtenderError) as info:
            call(HTTPExtender(ExtenderCfg(url), policy=LOOPBACK_ONLY), verb)
    assert str(info.value) == message


@pytest.mark.parametrize("answer, message", [
    (b"<html>", "invalid character '<' looking for beginning of value"),
    (b"  \n", "EOF"),
    (b"", "EOF"),
    (b'{"Error": "x"', "unexpected EOF"),
    (b"NaN", "invalid character 'N' looking for beginning of value"),
    (b"'a'", "invalid character '\\'' looking for beginning of value"),
    (b"\x01", "invalid character '\\x01' looking for beginning of value"),
    (b"\x0b", "invalid character '\\v' looking for beginning of value"),
])
def test_answer_that_is_not_json(answer, message):
    """json.Decoder's words (the body is read by ``json.NewDecoder(resp.Body).Decode``)."""
    server = SampleExtender(handlers={"filter": lambda args: (200, answer)})
    with run_sample_extender(extender=server) as url:
        with pytest.raises(ExtenderError) as info:
            HTTPExtender(ExtenderCfg(url), policy=LOOPBACK_ONLY).filter(POD, NODES)
    assert str(info.value) == message


def test_only_the_first_json_value_is_read():
    """Like Go's Decoder, trailing bytes after the answer are never looked at."""
    server = SampleExtender(handlers={"filter": lambda args: (200, b'{"NodeNames": null, "Nodes": null} trailing <junk>')})
    with run_sample_extender(extender=server) as url:
        assert HTTPExtender(ExtenderCfg(url), policy=LOOPBACK_ONLY).filter(POD, NODES) == ([], {})


def test_timeout():
    server = SampleExtender(delays={"filter": 1.0})
    with run_sample_extender(extender=server) as url:
        ext = HTTPExtender(ExtenderCfg(url, http_timeout=0.2), policy=LOOPBACK_ONLY)
        with pytest.raises(ExtenderError) as info:
            ext.filter(POD, NODES)
    assert str(info.value) == (f"Post {url}/filter: net/http: request canceled "
                               f"(Client.Timeout exceeded while awaiting headers)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_connection_refused():
    port = free_port()
    ext = HTTPExtender(ExtenderCfg(f"http://127.0.0.1:{port}"), policy=LOOPBACK_ONLY)
    with pytest.raises(ExtenderError) as info:
        ext.filter(POD, NODES)
    assert str(info.value) == (f"Post http://127.0.0.1:{port}/filter: dial tcp 127.0.0.1:{port}: "
                               f"connect: connection refused")


# ---------------------------------------------------------------- through the generic scheduler


@pytest.mark.parametrize("ignorable", [True, False])
def test_filter_error_ignorable_or_fatal(ignorable):
    broken, working = SampleExtender(status={"filter": 503}), SampleExtender()
    with run_sample_extender(extender=broken) as url_a, run_sample_extender(extender=working) as url_b:
        failing = HTTPExtender(ExtenderCfg(url_a, ignorable=ignorable), policy=LOOPBACK_ONLY)
        rejecting = HTTPExtender(ExtenderCfg(url_b), policy=LOOPBACK_ONLY)
        sched = GenericScheduler(None, None, [failing, rejecting])
        statuses: dict = {}
        if ignorable:
            feasible = sched.find_nodes_that_pass_extenders(POD, list(NODES), statuses)
            assert [n.metadata.name for n in feasible] == ["n0"]
            assert statuses["n1"].code == Code.UNSCHEDULABLE
            assert statuses["n1"].reasons == (FILTER_REASON,)
        else:
            with pytest.raises(ExtenderError) as info:
                sched.find_nodes_that_pass_extenders(POD, list(NODES), statuses)
            assert str(info.value) == f"Failed filter with extender at URL {url_a}/filter, code 503"
            assert statuses == {}
    assert len(broken.requests) == 1
    assert len(working.requests) == (1 if ignorable else 0)
