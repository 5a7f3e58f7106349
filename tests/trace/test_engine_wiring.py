"""One recorder wired into a real scheduler: complete records, identical decisions with tracing off."""

from __future__ import annotations

from kubesched.cluster import APIServer, Kubelet
from kubesched.scheduler import factory
from kubesched.client.informers import InformerFactory
from kubesched.util.loop import EventLoop
from kubesched.trace import Kind, TraceRecorder, digest, plugin_calls
from tests.e2e.harness import node, pod


def run(enabled: bool) -> tuple[TraceRecorder, APIServer]:
    loop = EventLoop()
    api = APIServer(loop)
    for obj in (node("n1", cpu="2"), node("n2", cpu="4"), node("n3", cpu="1"),
                pod("low", "3", priority=1), pod("a", "1"), pod("b", "1500m")):
        api.create(obj)
    Kubelet(api)
    rec = TraceRecorder(clock=loop, enabled=enabled)
    informers = InformerFactory(api, loop)
    rec.attach_informers(informers)
    rec.attach_apiserver(api)
    sched = factory.new(api, loop, None, seed=3, informer_factory=informers, observer=rec.observer, log=rec.log)
    sched.run()
    loop.call_at(5.0, lambda: api.create(pod("hi", "2", priority=1000)), label="create hi")
    loop.run(until=40)
    return rec, api


def placements(api: APIServer) -> list[tuple[str, str, str]]:
    return sorted((p.metadata.name, p.spec.node_name, p.status.nominated_node_name) for p in api.list("Pod"))


def test_tracing_off_records_nothing_and_decides_the_same():
    on, api_on = run(True)
    off, api_off = run(False)
    assert len(off.trace) == 0
    assert len(on.trace) > 0
    assert placements(api_on) == placements(api_off)
    assert [(e.reason, e.message, e.count) for e in api_on.list("Event")] == \
        [(e.reason, e.message, e.count) for e in api_off.list("Event")]


def test_same_run_same_digest():
    assert digest(run(True)[0].trace) == digest(run(True)[0].trace)


def test_records_of_a_run():
    rec, api = run(True)
    trace = rec.trace
    assert [r.seq for r in trace] == list(range(len(trace)))
    assert all(r.file and r.func for r in trace)
    kinds = {r.kind for r in trace}
    for kind in (Kind.INFORMER_EVENT, Kind.CACHE_EVENT, Kind.QUEUE_MOVE, Kind.CYCLE_START, Kind.POINT_RUN,
                 Kind.FILTER_RUN, Kind.SCORE_RUN, Kind.ASSUME, Kind.BIND, Kind.EVENT, Kind.API_EVENT, Kind.LOG,
                 Kind.PREEMPTION, Kind.NOMINATE, Kind.VICTIM):
        assert kind in kinds, kind
    assert Kind.PLUGIN_CALL not in kinds
    hi_cycle = trace.filter(Kind.CYCLE_START, pod="default/hi")[0].cycle
    victims = trace.filter(Kind.VICTIM, cycle=hi_cycle)
    # n1 (victim priority 0) beats n2 (victim priority 1): MinHighestPriority
    assert [(r.pod, r.node, r.data.preemptor) for r in victims] == [("default/a", "n1", "default/hi")]
    # every Score record carries raw → normalized → weight → weighted
    scores = [r.data for r in plugin_calls(trace) if r.data.extension_point == "Score"]
    assert scores and all(s.weighted_score == s.normalized_score * s.weight for s in scores)
    # a stored Event is recorded with its count; ``kubectl describe`` counts match the API server
    stored = {(f"Pod default/{e.involved_object.name}", e.reason, e.message): e.count for e in api.list("Event")}
    last_seen = {(r.data.object, r.data.reason, r.data.message): r.data.count for r in trace.filter(Kind.API_EVENT)}
    assert max(last_seen.values()) == 2
    assert last_seen == stored
