"""HTTPExtender against a live sample extender on 127.0.0.1: wire format and errors."""

from __future__ import annotations

import pytest

from kubesched.api.encode import to_manifest
from kubesched.extender.sample import (
    FILTER_REASON,
    REJECT_LABEL,
    SCORE_LABEL,
    SampleExtender,
    run_sample_extender,
)
from kubesched.scheduler.core.extender import (
    DEFAULT_EXTENDER_TIMEOUT,
    ExtenderError,
    HostPriority,
    HTTPExtender,
    Victims,
    http_timeout_seconds,
    ignored_extended_resources,
    new_binding,
    new_http_extenders,
)
from kubesched.scheduler.core.extender_policy import LOOPBACK_ONLY, ExtenderURLError
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.scheduler.listers.listers import NodeInfoNotFoundError

from .conftest import ExtenderCfg, ManagedResource, make_node, make_pod

pytestmark = pytest.mark.timeout(30)

NODES = [make_node("n0", {SCORE_LABEL: "3"}),
         make_node("n1", {REJECT_LABEL: "true", SCORE_LABEL: "10"}),
         make_node("n2", {SCORE_LABEL: "99"}),
         make_node("n3")]
POD = make_pod()


def extender(url: str, **changes) -> HTTPExtender:
    return HTTPExtender(ExtenderCfg(url_prefix=url, **changes), policy=LOOPBACK_ONLY)


def wire(obj):
    return to_manifest(obj, type_meta=False)


# ---------------------------------------------------------------- filter


def test_filter_round_trip_and_request_shape(sample):
    server, url = sample
    ext = extender(url + "/scheduler/")
    nodes, failed = ext.filter(POD, NODES)
    assert [n.metadata.name for n in nodes] == ["n0", "n2", "n3"]
    assert nodes == [NODES[0], NODES[2], NODES[3]]  # decoded from the answer, equal to the input
    assert failed == {"n1": FILTER_REASON}
    [request] = server.requests
    assert (request.verb, request.path, request.content_type) == (
        "filter", "/scheduler/filter", "application/json")
    assert request.body == {"Pod": wire(POD),
                            "Nodes": {"metadata": {}, "items": [wire(n) for n in NODES]},
                            "NodeNames": None}


def test_filter_node_cache_capable_sends_names_only(sample):
    server, url = sample
    server.node_labels = {"n3": {REJECT_LABEL: "true"}}
    ext = extender(url, node_cache_capable=True)
    nodes, failed = ext.filter(POD, NODES)
    assert all(a is b for a, b in zip(nodes, [NODES[0], NODES[1], NODES[2]]))  # input objects
    assert len(nodes) == 3
    assert failed == {"n3": FILTER_REASON}
    assert server.requests[0].body == {"Pod": wire(POD), "Nodes": None,
                                       "NodeNames": ["n0", "n1", "n2", "n3"]}


def test_filter_without_verb_passes_everything_without_a_call(sample):
    server, url = sample
    nodes, failed = extender(url, filter_verb="").filter(POD, NODES)
    assert (nodes, failed, server.requests) == (NODES, {}, [])


@pytest.mark.parametrize("answer,cache,expected", [
    # field names as an extender built on the old tagged types writes them
    ({"nodenames": ["n2"], "failedNodes": {"n0": "no"}, "error": ""}, True, (["n2"], {"n0": "no"})),
    ({"NODES": {"items": [to_manifest(NODES[3])]}}, False, (["n3"], {})),
    ({}, False, ([], {})),
    (None, False, ([], {})),
    # NodeNames is used only in nodeCacheCapable mode
    ({"NodeNames": ["n0"], "Nodes": {"items": []}}, False, ([], {})),
])
def test_filter_answer_decoding(answer, cache, expected):
    server = SampleExtender(handlers={"filter": lambda args: answer})
    with run_sample_extender(extender=server) as url:
        nodes, failed = extender(url, node_cache_capable=cache).filter(POD, NODES)
    assert ([n.metadata.name for n in nodes], failed) == expected


def test_filter_claiming_an_unknown_node_is_an_error():
    server = SampleExtender(handlers={"filter": lambda args: {"NodeNames": ["n0", "ghost"]}})
    with run_sample_extender(extender=server) as url:
        with pytest.raises(ExtenderError) as info:
            extender(url, node_cache_capable=True).filter(POD, NODES)
    assert str(info.value) == (f'extender "{url}" claims a filtered node "ghost" which is not '
                               f"found in the input node list")


# ---------------------------------------------------------------- prioritize


@pytest.mark.parametrize("cache", [False, True])
def test_prioritize_round_trip(sample, cache):
    server, url = sample
    server.node_labels = {n.metadata.name: n.metadata.labels for n in NODES}
    scores, weight = extender(url, weight=5, node_cache_capable=cache).prioritize(POD, NODES)
    assert scores == [HostPriority("n0", 3), HostPriority("n1", 10), HostPriority("n2", 10),
                      HostPriority("n3", 0)]
    assert weight == 5
    body = server.requests_for("prioritize")[0].body
    if cache:
        assert body == {"Pod": wire(POD), "Nodes": None, "NodeNames": ["n0", "n1", "n2", "n3"]}
    else:
        assert body["NodeNames"] is None and len(body["Nodes"]["items"]) == 4


def test_prioritize_without_verb_scores_zero_with_weight_zero(sample):
    server, url = sample
    scores, weight = extender(url, prioritize_verb="", weight=7).prioritize(POD, NODES[:2])
    assert (scores, weight, server.requests) == (
        [HostPriority("n0", 0), HostPriority("n1", 0)], 0, [])


@pytest.mark.parametrize("answer,expected", [
    ([{"host": "n0", "score": 4}], [HostPriority("n0", 4)]),
    (None, []),
    ([], []),
])
def test_prioritize_answer_decoding(answer, expected):
    server = SampleExtender(handlers={"prioritize": lambda args: answer})
    with run_sample_extender(extender=server) as url:
        assert extender(url).prioritize(POD, NODES)[0] == expected


# ---------------------------------------------------------------- bind


def test_bind_round_trip_calls_the_harness_hook(sample):
    server, url = sample
    seen = []
    server.on_bind = lambda args: seen.append(dict(args))
    pod = make_pod("web", uid="uid-web")
    extender(url).bind(new_binding(pod, "n2"))
    expected = {"PodName": "web", "PodNamespace": "default", "PodUID": "uid-web", "Node": "n2"}
    assert server.requests_for("bind")[0].body == expected
    assert seen == [expected]


def test_bind_error_from_extender(sample):
    server, url = sample
    server.on_bind = lambda args: f"node {args['Node']} is full"
    with pytest.raises(ExtenderError) as info:
        extender(url).bind(new_binding(POD, "n1"))
    assert str(info.value) == "node n1 is full"


def test_bind_without_verb(sample):
    _, url = sample
    ext = extender(url, bind_verb="")
    assert ext.is_binder() is False
    with pytest.raises(ExtenderError) as info:
        ext.bind(new_binding(POD, "n1"))
    assert str(info.value) == "Unexpected empty bindVerb in extender"


# ---------------------------------------------------------------- preempt

VICTIM_A = make_pod("a", uid="uid-a", nodeName="n0", priority=1)
VICTIM_B = make_pod("b", uid="uid-b", nodeName="n0", priority=2)
VICTIM_C = make_pod("c", uid="uid-c", nodeName="n2", priority=1)


def snapshot():
    return Snapshot.new([VICTIM_A, VICTIM_B, VICTIM_C], NODES).node_infos()


def test_preempt_round_trip_full_victims(sample):
    server, url = sample
    candidates = {"n0": Victims((VICTIM_A, VICTIM_B), 1), "n2": Victims((VICTIM_C,), 0)}
    result = extender(url).process_preemption(POD, candidates, snapshot())
    assert result == {"n0": Victims((VICTIM_A, VICTIM_B), 0), "n2": Victims((VICTIM_C,), 0)}
    assert server.requests_for("preempt")[0].body == {
        "Pod": wire(POD),
        "NodeNameToVictims": {"n0": {"Pods": [wire(VICTIM_A), wire(VICTIM_B)], "NumPDBViolations": 1},
                              "n2": {"Pods": [wire(VICTIM_C)], "NumPDBViolations": 0}},
        "NodeNameToMetaVictims": None}


def test_preempt_node_cache_capable_sends_meta_victims(sample):
    server, url = sample
    candidates = {"n0": Victims((VICTIM_B,), 3)}
    result = extender(url, node_cache_capable=True).process_preemption(POD, candidates, snapshot())
    assert result == {"n0": Victims((VICTIM_B,), 0)}
    assert result["n0"].pods[0] is VICTIM_B  # resolved from the snapshot by UID
    assert server.requests_for("preempt")[0].body == {
        "Pod": wire(POD), "NodeNameToVictims": None,
        "NodeNameToMetaVictims": {"n0": {"Pods": [{"UID": "uid-b"}], "NumPDBViolations": 0}}}


def test_preempt_extender_may_drop_nodes_and_victims():
    answer = {"NodeNameToMetaVictims": {"n2": {"Pods": [{"UID": "uid-c"}]}}}
    server = SampleExtender(handlers={"preempt": lambda args: answer})
    with run_sample_extender(extender=server) as url:
        candidates = {"n0": Victims((VICTIM_A,)), "n2": Victims((VICTIM_C,))}
        assert extender(url).process_preemption(POD, candidates, snapshot()) == {
            "n2": Victims((VICTIM_C,))}


@pytest.mark.parametrize("answer,error_type,message", [
    ({"NodeNameToMetaVictims": {"n2": {"Pods": [{"UID": "uid-a"}]}}}, ExtenderError,
     "extender: {url} claims to preempt pod (UID: &{{uid-a}}) on node: n2, but the pod is not "
     "found on that node"),
    ({"NodeNameToMetaVictims": {"ghost": {"Pods": []}}}, NodeInfoNotFoundError,
     'nodeinfo not found for node name "ghost"'),
])
def test_preempt_answer_errors(answer, error_type, message):
    server = SampleExtender(handlers={"preempt": lambda args: answer})
    with run_sample_extender(extender=server) as url:
        with pytest.raises(error_type) as info:
            extender(url).process_preemption(POD, {"n0": Victims((VICTIM_A,))}, snapshot())
    assert str(info.value) == message.format(url=url)


def test_preempt_without_verb(sample):
    _, url = sample
    ext = extender(url, preempt_verb="")
    assert ext.supports_preemption() is False
    with pytest.raises(ExtenderError) as info:
        ext.process_preemption(POD, {}, snapshot())
    assert str(info.value) == (f"preempt verb is not defined for extender {url} but run into "
                               f"ProcessPreemption")


# ---------------------------------------------------------------- interest, identity, config


@pytest.mark.parametrize("managed,pod,interested", [
    ((), make_pod(), True),
    (("example.com/gpu",), make_pod(), False),
    (("example.com/gpu",), make_pod(requests={"example.com/gpu": "1"}), True),
    (("example.com/gpu",), make_pod(requests={"cpu": "1"}), False),
    (("example.com/gpu",), make_pod(init_limits={"example.com/gpu": "1"}), True),
    (("a", "example.com/gpu"), make_pod(init_limits={"example.com/fpga": "1"}), False),
])
def test_is_interested(managed, pod, interested):
    ext = extender("http://127.0.0.1:1",
                   managed_resources=tuple(ManagedResource(m) for m in managed))
    assert ext.is_interested(pod) is interested


def test_identity_and_flags():
    ext = extender("http://127.0.0.1:1/x/", ignorable=True)
    assert (ext.name(), ext.is_ignorable(), ext.is_binder(), ext.supports_preemption()) == (
        "http://127.0.0.1:1/x/", True, True, True)


def test_new_http_extenders_orders_ignorable_last_and_checks_every_url():
    configs = [ExtenderCfg("http://127.0.0.1:1/a", ignorable=True), ExtenderCfg("http://127.0.0.1:1/b"),
               ExtenderCfg("http://localhost:1/c", ignorable=True), ExtenderCfg("http://[::1]:1/d")]
    built = new_http_extenders(configs, policy=LOOPBACK_ONLY)
    assert [e.name()[-1] for e in built] == ["b", "d", "a", "c"]
    with pytest.raises(ExtenderURLError) as info:
        new_http_extenders(configs + [ExtenderCfg("http://169.254.169.254/")], policy=LOOPBACK_ONLY)
    assert str(info.value).startswith('extenders[4].urlPrefix: "http://169.254.169.254/" is not allowed')


def test_constructor_refuses_disallowed_url():
    with pytest.raises(ExtenderURLError) as info:
        HTTPExtender(ExtenderCfg("http://10.0.0.5/x"), index=2, policy=LOOPBACK_ONLY)
    assert str(info.value) == (
        'extenders[2].urlPrefix: "http://10.0.0.5/x" is not allowed: only loopback extenders are '
        "enabled (set KUBESCHED_EXTENDER_ALLOW on the server to allow more)")


def test_ignored_extended_resources():
    configs = [ExtenderCfg("http://127.0.0.1:1", managed_resources=(
        ManagedResource("a", True), ManagedResource("b"))),
        ExtenderCfg("http://127.0.0.1:2", managed_resources=(ManagedResource("c", True),))]
    assert ignored_extended_resources(configs) == ["a", "c"]


@pytest.mark.parametrize("value,seconds", [
    (None, DEFAULT_EXTENDER_TIMEOUT), (0, 5.0), ("", 5.0), ("0", 5.0), (0.25, 0.25), (3, 3.0),
    ("1.5s", 1.5), ("300ms", 0.3), ("1m30s", 90.0), ("2h", 7200.0),
])
def test_http_timeout_seconds(value, seconds):
    assert http_timeout_seconds(value) == pytest.approx(seconds)


def test_http_timeout_bad_duration():
    with pytest.raises(ValueError) as info:
        http_timeout_seconds("5 seconds")
    assert str(info.value) == 'time: invalid duration "5 seconds"'


def test_new_binding():
    binding = new_binding(make_pod("web", uid="u"), "n9")
    assert (binding.metadata.name, binding.metadata.namespace, binding.metadata.uid,
            binding.target.kind, binding.target.name) == ("web", "default", "u", "Node", "n9")


def test_config_default_timeout_used():
    assert extender("http://127.0.0.1:1", http_timeout=0).timeout == DEFAULT_EXTENDER_TIMEOUT
    assert extender("http://127.0.0.1:1", http_timeout="750ms").timeout == 0.75
