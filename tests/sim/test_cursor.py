"""The cursor: step by event / phase / pod / idle, back, seek, advance, and state() at a cursor."""

from __future__ import annotations

import pytest

from kubesched.sim import Simulation
from kubesched.sim.simulation import PHASE_KINDS
from kubesched.trace import Kind
from tests.sim.clusters import SMALL, node, pod

# scheduler.go's own phases, in the order scheduleOne and the binding goroutine run them
SCHEDULER_PHASES = ("Schedule", "AssumePodVolumes", "Reserve", "Assume", "Permit", "WaitOnPermit", "PreBind",
                    "Bind", "PostBind")


@pytest.fixture
def sim():
    return Simulation.from_yaml(SMALL)


def test_event_steps_visit_every_mark_in_order(sim):
    cursors = [sim.step("event")]
    while sim.stopped_reason is None:
        cursors.append(sim.step("event"))
    assert sim.stopped_reason == "idle"
    assert cursors[-1] == cursors[-2] == len(sim.trace)   # at the end, a step stays put
    assert cursors[:-1] == [m.trace_len for m in sim.engine.marks]
    # the first event is main's callback: every step up to InformerFactory.Start
    first = sim.trace[:cursors[0]]
    assert {r.kind for r in first} == {Kind.STARTUP_STEP, Kind.LOG}   # + "Creating scheduler from …"
    assert first[-1].data.step == "InformerFactory.Start"


def test_phase_steps_stop_right_after_each_phase_record(sim):
    previous, seen = 0, []
    for _ in range(60):
        cursor = sim.step("phase")
        record = sim.trace[cursor - 1]
        assert record.kind in PHASE_KINDS
        assert [r for r in sim.trace[previous:cursor - 1] if r.kind in PHASE_KINDS] == []
        seen.append(record)
        previous = cursor
    first_pod = seen[0].pod
    assert seen[0].kind is Kind.CYCLE_START
    mine = [r.data.phase for r in seen if r.pod == first_pod and r.kind is Kind.PHASE_START
            and r.data.phase in SCHEDULER_PHASES]
    assert tuple(mine) == SCHEDULER_PHASES


def test_pod_steps_end_at_the_callback_that_ends_a_cycle(sim):
    marks = set()
    previous = 0
    pods = []
    for _ in range(3):
        cursor = sim.step("pod")
        marks = {m.trace_len for m in sim.engine.marks}
        assert cursor in marks
        ends = [r for r in sim.trace[previous:cursor] if r.kind is Kind.CYCLE_END]
        assert len(ends) == 1
        pods.append(ends[0].pod)
        previous = cursor
    assert sorted(pods) == ["default/db", "default/web-1", "default/web-2"]
    assert sim.step("pod") == len(sim.trace)       # no fourth cycle: the run ends idle
    assert sim.stopped_reason == "idle"


def test_cycle_and_current_pod_follow_the_cursor(sim):
    assert (sim.cycle, sim.current_pod) == (0, None)
    sim.step("phase")                               # CYCLE_START of the first pod
    start = sim.trace[sim.cursor - 1]
    assert (sim.cycle, sim.current_pod) == (start.cycle, start.pod)
    while sim.trace[sim.cursor - 1].kind is not Kind.CYCLE_END:
        sim.step("phase")
    assert sim.current_pod is None and sim.cycle == start.cycle


def test_back_moves_by_event_boundaries_and_stops_at_zero(sim):
    a, b, c = (sim.step("event") for _ in range(3))
    assert a < b < c == sim.cursor
    assert sim.back() == b
    assert sim.back(1) == a
    assert sim.back(5) == 0
    assert sim.time == 0.0
    sim.step("phase")
    inside = sim.cursor
    assert inside not in {m.trace_len for m in sim.engine.marks}
    before = max(m.trace_len for m in sim.engine.marks if m.trace_len < inside)
    assert sim.back() == before


def test_seek_moves_only_the_cursor_and_computes_when_needed(sim):
    sim.run_until_idle()
    end = len(sim.trace)
    assert sim.seek(10) == 10 and len(sim.trace) == end
    assert sim.seek(end + 1000) == end
    assert sim.seek(-3) == 0
    fresh = Simulation.from_yaml(SMALL)
    assert fresh.seek(120) == 120 and len(fresh.trace) >= 120
    assert fresh.trace[:120] == sim.trace[:120]


def test_state_at_a_past_cursor_is_the_checkpoint_at_or_before_it(sim):
    sim.run_until_idle()
    final = sim.state()
    assert set(final.placements()) == {"default/db", "default/web-1", "default/web-2"}
    first_bind = next(r for r in sim.trace if r.kind is Kind.BIND)
    sim.seek(first_bind.seq + 1)                        # inside the binding callback's records:
    assert sim.state().pod(*first_bind.pod.split("/")).phase == "Pending"   # the checkpoint before it
    sim.seek(min(m.trace_len for m in sim.engine.marks if m.trace_len > first_bind.seq))
    state = sim.state()
    bound = {p.key: p for p in state.pods if p.phase == "Bound"}
    assert list(bound) == [first_bind.pod]
    assert bound[first_bind.pod].node == first_bind.node
    assert bound[first_bind.pod].bound_at == first_bind.time
    assert all(p.phase == "Pending" for p in state.pods if p.key != first_bind.pod)
    sim.seek(0)
    start = sim.state()
    assert (start.time, start.leader, start.placements()) == (0.0, "", {})
    assert [p.phase for p in start.pods] == ["Pending"] * 3


def test_state_queues_show_attempts_and_backoff():
    sim = Simulation.from_yaml(node("n1", cpu="1") + pod("big", cpu="2"))
    sim.step("pod")
    state = sim.state()
    (waiting,) = state.queues.unschedulable_q
    assert (waiting.key, waiting.attempts) == ("default/big", 1)
    assert waiting.backoff_expiry == waiting.timestamp + 1.0       # podInitialBackoffSeconds
    assert state.pod("default", "big").queue == "unschedulableQ"
    n1 = state.node("n1")
    assert (n1.allocatable_of("cpu"), n1.requested_of("cpu"), n1.pods) == ("1", "0", ())


def test_advance_runs_to_a_time_and_stops_there(sim):
    assert sim.advance(1.5) == max(m.trace_len for m in sim.engine.marks if m.time <= 1.5)
    assert sim.time == 1.5
    assert sim.state().time == 1.5
    sim.advance(2)
    assert sim.time == 3.5


def test_unknown_step_unit_is_refused(sim):
    with pytest.raises(ValueError, match="unknown step unit 'cycle'"):
        sim.step("cycle")


def test_without_checkpoints_a_past_state_is_replayed(monkeypatch):
    from kubesched.sim import simulation
    with_checkpoints = Simulation.from_yaml(SMALL)
    with_checkpoints.run_until_idle()
    monkeypatch.setattr(simulation, "CHECKPOINT_LIMIT", 2)
    replayed = Simulation.from_yaml(SMALL)
    replayed.run_until_idle()
    assert replayed.engine.checkpoints == {}
    for mark in with_checkpoints.engine.marks[::7]:
        with_checkpoints.seek(mark.trace_len)
        replayed.seek(mark.trace_len)
        assert replayed.state() == with_checkpoints.state()
    assert len(replayed.engine.checkpoints) == len(with_checkpoints.engine.marks[::7])


@pytest.mark.parametrize("unit", ["event", "phase", "pod"])
def test_step_back_retraces_every_step_forward(unit):
    """From each position a run of ``step(unit)`` reaches, ``previous(unit)`` names the one before it."""
    sim = Simulation.from_yaml(SMALL)
    positions = [0]
    while True:
        at = sim.step(unit)
        if at == positions[-1]:
            break
        positions.append(at)
    assert len(positions) > 3
    for before, at in zip(positions, positions[1:]):
        sim.seek(at)
        assert sim.previous(unit) == before and sim.cursor == at      # previous() moves nothing
    for expected in reversed(positions[:-1]):
        assert sim.step_back(unit) == expected
    assert sim.step_back(unit) == 0


def test_previous_from_inside_a_phase_and_an_unknown_unit(sim):
    sim.run_until_idle()
    trace = sim.trace
    phase = next(i for i, r in enumerate(trace) if r.kind in PHASE_KINDS and i > 5
                 and not any(x.kind in PHASE_KINDS for x in trace[i + 1:i + 4]))
    sim.seek(phase + 3)                                   # three records after a phase boundary
    assert sim.previous("phase") == phase + 1
    with pytest.raises(ValueError, match="unknown step unit 'cycle'"):
        sim.previous("cycle")


def test_end_state_and_assumed_pod_ttl(sim):
    sim.run_until_idle()
    end = sim.state()
    sim.seek(0)
    assert sim.end_state() == end and sim.state() != end
    assert sim.assumed_pod_ttl == 30.0                    # scheduler.go durationToExpireAssumedPod
