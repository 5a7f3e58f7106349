"""A run's memory: checkpoints share what did not change, and a dropped run gives its memory back
(issue 17 item 3; figures over 20 dashboard sessions: benchmarks/session_memory.py)."""

from __future__ import annotations

import gc
import weakref

from kubesched.sim import Simulation
from kubesched.sim import simulation as simulation_module
from kubesched.sim.edits import Cordon
from tests.sim.clusters import SMALL


def test_checkpoints_share_unchanged_pods_nodes_and_events():
    sim = Simulation.from_text(SMALL)
    sim.run_until_idle()
    states = [sim.engine.checkpoints[m.trace_len] for m in sim.engine.marks]
    last, before = states[-1], states[-2]
    assert [p.name for p in last.pods] == ["db", "web-1", "web-2"]
    shared = [a is b for a, b in zip(before.pods, last.pods)] + [a is b for a, b in zip(before.events, last.events)]
    assert all(shared) and len(shared) == len(last.pods) + len(last.events)
    first_bound = next(s for s in states if any(p.node for p in s.pods))
    assert first_bound.pods != states[0].pods  # a change is a new state, not a shared one


def test_a_dropped_run_returns_its_memory(monkeypatch):
    calls = []
    monkeypatch.setattr(simulation_module, "_MALLOC_TRIM", calls.append)
    gc.disable()
    try:
        sim = Simulation.from_text(SMALL)
        sim.run_until_idle()
        engine = weakref.ref(sim.engine)
        assert (calls, len(engine().checkpoints) > 0) == ([], True)
        del sim
        # the engine is all cycles: alive until a full collection, but what it held is gone
        assert (engine().checkpoints, engine().marks, engine().event_times, calls) == ({}, [], [], [0])
    finally:
        gc.enable()
    gc.collect()
    assert engine() is None


def test_an_edit_releases_the_engine_it_replaces(monkeypatch):
    calls = []
    monkeypatch.setattr(simulation_module, "_MALLOC_TRIM", calls.append)
    sim = Simulation.from_text(SMALL)
    sim.step("pod")
    before = sim.engine
    sim.apply(Cordon("n1"))
    assert (before.checkpoints, before.marks, calls) == ({}, [], [0])
    assert sim.engine is not before and sim.engine.checkpoints


def test_a_dropped_run_with_a_large_trace_is_collected_at_once(monkeypatch):
    monkeypatch.setattr(simulation_module, "LARGE_TRACE", 10)
    gc.disable()
    try:
        sim = Simulation.from_text(SMALL)
        sim.run_until_idle()
        assert len(sim.trace) >= 10
        engine = weakref.ref(sim.engine)
        del sim
        assert engine() is None  # no full collection ran but the one the drop asked for
    finally:
        gc.enable()
