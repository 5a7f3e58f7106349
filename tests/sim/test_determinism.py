"""Same inputs, same trace (digest); tracing off, same decisions; the horizon ends endless runs."""

from __future__ import annotations

import pathlib

import pytest

from kubesched.sim import Simulation
from kubesched.trace import Kind
from tests.sim.clusters import SMALL, node, pod, scenario

SAMPLES = sorted((pathlib.Path(__file__).resolve().parents[2] / "sample_clusters").glob("*.yaml"))
HANDOVER = (node("n1") + node("n2") + pod("a") + scenario(
    "{at: 5, killLeader: true}",
    "{at: 7, create: {apiVersion: v1, kind: Pod, metadata: {name: late}, spec: {containers: [{name: c, "
    "image: nginx, resources: {requests: {cpu: 100m}}}]}}}", replicas=2))
CASES = [pytest.param(p, id=p.stem) for p in SAMPLES] + [pytest.param(HANDOVER, id="handover")]


def decisions(sim):
    state = sim.state()
    pods = [(p.key, p.phase, p.node, p.nominated_node, p.bound_at, p.attempts) for p in state.pods]
    events = [(e.type, e.reason, e.object, e.message, e.count, e.first_timestamp, e.last_timestamp)
              for e in state.events]
    return pods, events, state.time, state.leader


@pytest.mark.parametrize("source", CASES)
def test_same_inputs_give_the_same_digest(source):
    one, two = Simulation.from_yaml(source), Simulation.from_yaml(source)
    one.run_until_idle()
    two.run_until_idle()
    assert len(one.trace) > 0
    assert one.digest() == two.digest()


@pytest.mark.parametrize("source", CASES)
def test_tracing_off_makes_the_same_decisions(source):
    on, off = Simulation.from_yaml(source), Simulation.from_yaml(source, trace=False)
    on.run_until_idle()
    off.run_until_idle()
    assert len(off.trace) == 0
    assert decisions(off) == decisions(on)
    assert (off.stopped_reason, off.engine.events) == (on.stopped_reason, on.engine.events)


def test_stepping_gives_the_same_trace_as_running_through():
    stepped, straight = Simulation.from_yaml(SMALL), Simulation.from_yaml(SMALL)
    for unit in ("event", "phase", "pod", "event", "phase") * 5:
        stepped.step(unit)
    stepped.back(3)
    stepped.run_until_idle()
    straight.run_until_idle()
    assert stepped.digest() == straight.digest()


@pytest.mark.parametrize("horizon", [300.0, 100.0])
def test_pod_unschedulable_forever_stops_at_the_horizon(horizon):
    sim = Simulation.from_yaml(node("n1", cpu="1") + pod("big", cpu="2"), horizon=horizon)
    sim.run_until_idle()
    assert sim.stopped_reason == "horizon"
    assert sim.engine.last_change == 0.0           # the PodScheduled=False write; retries change nothing
    assert sim.time <= horizon and sim.engine.loop.peek().time > horizon
    cycles = [r for r in sim.trace if r.kind is Kind.CYCLE_END]
    assert {r.data.result for r in cycles} == {"failed"}
    assert len(cycles) >= 1 + int(horizon // 90)    # retried by the leftover flush
    assert sim.is_idle() is False


def test_event_cap_stops_the_run():
    sim = Simulation.from_yaml(SMALL, max_events=25)
    sim.run_until_idle()
    assert (sim.stopped_reason, sim.engine.events) == ("max_events", 25)


def test_seed_reaches_select_host():
    # two identical empty nodes: the tie is broken by the seeded reservoir sampling
    source = node("n1") + node("n2") + pod("p")
    picks = set()
    for seed in range(6):
        sim = Simulation.from_yaml(source, seed=seed)
        sim.run_until_idle()
        (select,) = [r for r in sim.trace if r.kind is Kind.SCORE_RUN]
        assert select.data.ties() == ("n1", "n2") and select.node == select.data.selected
        picks.add(sim.state().pod("default", "p").node)
        again = Simulation.from_yaml(source, seed=seed)
        again.run_until_idle()
        assert again.digest() == sim.digest()
    assert picks == {"n1", "n2"}


def test_feature_gates_of_the_config_hold_while_the_engine_runs():
    from kubesched import features
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1alpha2", "kind": "KubeSchedulerConfiguration",
              "featureGates": {"EvenPodsSpread": False, "NonPreemptingPriority": True}}
    sim = Simulation.from_yaml(SMALL, config=config)
    seen = []
    sim.engine.loop.call_at(0.5, lambda: seen.append((features.enabled("EvenPodsSpread"),
                                                      features.enabled("NonPreemptingPriority"))))
    sim.run_until_idle()
    assert seen == [(False, True)]
    assert (features.enabled("EvenPodsSpread"), features.enabled("NonPreemptingPriority")) == (True, False)
    scheduler_new = next(r for r in sim.trace if r.kind is Kind.STARTUP_STEP and r.data.step == "scheduler.New")
    filters = dict(scheduler_new.data.details)["profile default-scheduler filter"]
    assert "PodTopologySpread" not in filters.split(",")


@pytest.mark.parametrize("slice_size", [1, 7, 100])
@pytest.mark.parametrize("source", CASES)
def test_computing_in_slices_gives_the_same_run(source, slice_size):
    """The dashboard's run to idle in slices (``compute_ahead``): cursor unchanged meanwhile, the
    same trace, stop reason and event count as one run through."""
    sliced, straight = Simulation.from_yaml(source), Simulation.from_yaml(source)
    slices = 0
    while not sliced.compute_ahead(slice_size):
        slices += 1
        assert sliced.cursor == 0
        assert sliced.computed_time >= sliced.time
    sliced.run_until_idle()
    straight.run_until_idle()
    assert slices >= (straight.engine.events - 1) // slice_size
    assert (sliced.digest(), sliced.stopped_reason, sliced.engine.events, sliced.cursor) == (
        straight.digest(), straight.stopped_reason, straight.engine.events, straight.cursor)


def test_compute_ahead_after_the_end_says_done_at_once():
    sim = Simulation.from_yaml(SMALL)
    sim.run_until_idle()
    events = sim.engine.events
    assert sim.compute_ahead(10) is True
    assert sim.engine.events == events
