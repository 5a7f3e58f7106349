"""Time-only steps: ``advance`` to a time no record has reached adds one TIME record there, so a
later ``seek`` to that cursor lands at that time; forks, exports and Scenario ``tick`` actions keep it."""

from __future__ import annotations

from kubesched.sim import Simulation
from kubesched.sim.edits import Cordon
from kubesched.trace import Kind, digest
from tests.sim.clusters import node, pod, scenario

# big fits nowhere: it waits in unschedulableQ and nothing is recorded between its retries
STUCK = node("n1", cpu="1") + pod("big", cpu="2")


def _times(sim: Simulation) -> list[float]:
    return [r.time for r in sim.trace if r.kind is Kind.TIME]


def _first_failure(sim: Simulation) -> int:
    while not any(r.kind is Kind.CYCLE_END for r in sim.trace[:sim.cursor]):
        sim.step("pod")
    return sim.cursor


def test_advance_to_a_quiet_time_records_it_and_seek_lands_there():
    sim = Simulation.from_yaml(STUCK)
    start = _first_failure(sim)
    last_time = sim.time
    cursor = sim.advance(30)
    assert sim.cursor == cursor == len(sim.trace)
    record, before = sim.trace[cursor - 1], sim.trace[cursor - 2]
    assert (record.kind, record.time, record.cycle, record.pod, record.data) == (Kind.TIME, last_time + 30, None,
                                                                               None, None)
    assert before.kind is not Kind.TIME and before.time < last_time + 30
    sim.seek(start)
    assert sim.time == last_time
    sim.seek(cursor)
    assert (sim.time, sim.state().time) == (last_time + 30, last_time + 30)
    assert sim.edits == []                          # a time-only step is not an edit


def test_advance_onto_a_recorded_time_adds_nothing():
    sim = Simulation.from_yaml(STUCK + scenario("{at: 5, cordon: n1}"))
    _first_failure(sim)
    sim.advance(5 - sim.time)                       # the cordon's informer records happen at t=5
    assert _times(sim) == []
    assert sim.trace[sim.cursor - 1].time == 5.0


def test_advance_behind_the_frontier_adds_nothing():
    sim = Simulation.from_yaml(STUCK)
    _first_failure(sim)
    frontier = sim.time + 40
    sim.advance(40)
    sim.seek(0)
    before = len(sim.trace)
    sim.advance(10)
    assert (len(sim.trace), sim.time) == (before, 10.0)
    assert _times(sim) == [frontier]


def test_a_fork_after_a_time_step_keeps_its_record_in_place():
    sim = Simulation.from_yaml(STUCK)
    _first_failure(sim)
    sim.advance(20)
    past = sim.trace[:sim.cursor]
    sim.apply(Cordon("n1"))
    assert sim.trace[:len(past)] == past
    assert [type(e.edit).__name__ for e in sim.edits] == ["Cordon"]


def test_export_keeps_time_steps_as_tick_actions_and_reproduces_the_digest():
    sim = Simulation.from_yaml(STUCK)
    _first_failure(sim)
    sim.advance(20)
    sim.apply(Cordon("n1"))
    sim.advance(15)
    sim.run_until_idle()
    exported = sim.to_scenario_yaml()
    assert exported.count("tick: true") == 2
    again = Simulation.from_yaml(exported)
    again.run_until_idle()
    assert digest(again.trace) == digest(sim.trace)
    assert len(_times(again)) == 2


def test_a_scenario_tick_records_its_time():
    sim = Simulation.from_yaml(STUCK + scenario("{at: 7.5, tick: true}"))
    sim.advance(10)
    (record,) = [r for r in sim.trace if r.kind is Kind.TIME and r.time == 7.5]
    assert record.seq < sim.cursor
    assert sim.edits == []


def test_tracing_off_keeps_no_time_steps():
    sim = Simulation.from_yaml(STUCK, trace=False)
    sim.advance(30)
    assert (len(sim.trace), sim.time, sim.to_scenario_yaml().count("tick")) == (0, 30.0, 0)
