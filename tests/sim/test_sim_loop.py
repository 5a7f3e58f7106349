"""EventLoop and FakeClock: ordering, cancel, every(), run(until)."""

from __future__ import annotations

import pytest

from kubesched.util.clock import FakeClock
from kubesched.util.loop import Entry, EventLoop


def _recorder(loop: EventLoop, log: list):
    def make(name: str):
        return lambda: log.append((loop.now(), name))
    return make


# (schedule: [(when, priority, label)], expected run order of labels)
ORDER_CASES = [
    ("time first", [(2, 0, "b"), (1, 0, "a")], ["a", "b"]),
    ("priority before sequence", [(1, 5, "late-prio"), (1, 0, "low-value")], ["low-value", "late-prio"]),
    ("fifo among equals", [(1, 0, "x"), (1, 0, "y"), (1, 0, "z")], ["x", "y", "z"]),
    ("time beats priority", [(2, -10, "urgent-later"), (1, 10, "lazy-sooner")], ["lazy-sooner", "urgent-later"]),
    ("negative priority first", [(3, 0, "zero"), (3, -1, "minus")], ["minus", "zero"]),
]


@pytest.mark.parametrize("name,schedule,expected", ORDER_CASES, ids=[c[0] for c in ORDER_CASES])
def test_order_is_time_priority_sequence(name, schedule, expected):
    loop = EventLoop()
    log: list = []
    make = _recorder(loop, log)
    for when, priority, label in schedule:
        loop.call_at(when, make(label), priority=priority, label=label)
    assert loop.run() == len(schedule)
    assert [label for _, label in log] == expected


def test_step_returns_entry_and_moves_clock():
    loop = EventLoop()
    loop.call_later(2.5, lambda: None, priority=3, label="one")
    assert loop.peek() == Entry(2.5, 3, 0, "one")
    assert loop.now() == 0.0
    assert loop.step() == Entry(2.5, 3, 0, "one")
    assert loop.now() == 2.5
    assert loop.step() is None
    assert loop.peek() is None


def test_callback_scheduled_for_now_runs_after_pending_same_time():
    loop = EventLoop()
    log: list = []
    make = _recorder(loop, log)

    def first():
        log.append((loop.now(), "first"))
        loop.call_later(0, make("spawned"), label="spawned")

    loop.call_at(1, first)
    loop.call_at(1, make("second"))
    loop.call_at(2, make("later"))
    loop.run()
    assert log == [(1, "first"), (1, "second"), (1, "spawned"), (2, "later")]


def test_past_time_is_clamped_to_now():
    loop = EventLoop(start=10)
    loop.call_at(3, lambda: None, label="past")
    loop.call_later(-4, lambda: None, label="negative")
    assert [(e.time, e.label) for e in loop.pending()] == [(10, "past"), (10, "negative")]


def test_cancel_prevents_run():
    loop = EventLoop()
    log: list = []
    make = _recorder(loop, log)
    keep = loop.call_at(1, make("keep"))
    drop = loop.call_at(1, make("drop"))
    drop.cancel()
    assert [e.label for e in loop.pending()] == [""]
    loop.run()
    assert log == [(1, "keep")]
    assert drop.cancelled and not keep.cancelled


def test_every_runs_now_then_each_period_and_cancel_stops_it():
    loop = EventLoop(start=5)
    log: list = []
    handle = loop.every(2, _recorder(loop, log)("tick"), label="tick")
    loop.run(until=11)
    assert [t for t, _ in log] == [5, 7, 9, 11]
    handle.cancel()
    loop.run(until=20)
    assert [t for t, _ in log] == [5, 7, 9, 11]
    assert loop.now() == 20


def test_every_can_cancel_itself_from_its_callback():
    loop = EventLoop()
    runs: list = []
    handle = None

    def tick():
        runs.append(loop.now())
        if len(runs) == 3:
            handle.cancel()

    handle = loop.every(1, tick)
    loop.run(until=10)
    assert runs == [0, 1, 2]


def test_recurring_timers_meet_in_push_order():
    """Docstring rule 5: at t=30 the 30 s timer (pushed at t=0) runs before the 1 s one."""
    loop = EventLoop()
    log: list = []
    make = _recorder(loop, log)
    loop.every(1, make("fast"))
    loop.every(30, make("slow"))
    loop.run(until=30)
    at_30 = [name for t, name in log if t == 30]
    at_0 = [name for t, name in log if t == 0]
    assert at_0 == ["fast", "slow"]
    assert at_30 == ["slow", "fast"]


@pytest.mark.parametrize("until,expected_times,end", [
    (3, [1, 2, 3], 3),          # inclusive bound
    (2.5, [1, 2], 2.5),         # clock ends at until
    (0.5, [], 0.5),
])
def test_run_until(until, expected_times, end):
    loop = EventLoop()
    log: list = []
    make = _recorder(loop, log)
    for t in (1, 2, 3, 4):
        loop.call_at(t, make(str(t)))
    loop.run(until=until)
    assert [t for t, _ in log] == expected_times
    assert loop.now() == end


def test_run_until_includes_events_spawned_inside_window():
    loop = EventLoop()
    log: list = []
    make = _recorder(loop, log)
    loop.call_at(1, lambda: loop.call_later(1, make("spawned")))
    loop.run(until=2)
    assert log == [(2, "spawned")]


def test_run_max_steps_does_not_jump_clock():
    loop = EventLoop()
    for t in (1, 2, 3):
        loop.call_at(t, lambda: None)
    assert loop.run(until=10, max_steps=2) == 2
    assert loop.now() == 2


def test_run_forever_with_recurring_timer_is_refused():
    loop = EventLoop()
    loop.every(1, lambda: None)
    with pytest.raises(ValueError):
        loop.run()
    assert loop.run(max_steps=3) == 3


def test_step_inside_callback_is_refused():
    loop = EventLoop()
    loop.call_at(1, loop.step)
    with pytest.raises(RuntimeError):
        loop.step()


def test_advance():
    loop = EventLoop(start=1)
    loop.call_later(2, lambda: None)
    assert loop.advance(5) == 1
    assert loop.now() == 6


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_non_finite_times_are_rejected(bad):
    loop = EventLoop()
    with pytest.raises(ValueError):
        loop.call_at(bad, lambda: None)
    with pytest.raises(ValueError):
        loop.every(bad, lambda: None)


def test_fake_clock_step_and_set():
    clock = FakeClock(3)
    clock.step(2)
    assert clock.now() == 5
    clock.set(1)
    assert clock.now() == 1
    with pytest.raises(ValueError):
        clock.step(float("nan"))


def test_loop_satisfies_cluster_protocol():
    from kubesched.util.loop import Loop
    loop: Loop = EventLoop()
    handle = loop.call_later(1, lambda: None, priority=2, label="x")
    handle.cancel()
    assert loop.now() == 0


# -- rule 8: the clock skips occurrences that would change nothing -------------------------------------
def _three_timers(loop: EventLoop, log: list, busy_from: float | None, skippable: bool) -> None:
    """A 1 s timer that does nothing before ``busy_from`` (ever, when None), a 30 s timer, a one-shot."""
    def idle() -> bool:
        return busy_from is None or loop.now() < busy_from

    loop.every(1, lambda: None if idle() else log.append((loop.now(), "fast")), label="fast",
               idle=idle if skippable else None)
    loop.every(30, lambda: log.append((loop.now(), "slow")), label="slow")
    loop.call_at(45.5, lambda: log.append((loop.now(), "once")), label="once")


@pytest.mark.parametrize("busy_from", [None, 0.0, 29.0, 44.0])
def test_skipped_occurrences_keep_the_order_running_them_gives(busy_from):
    """Skipping the idle 1 s occurrences leaves every other callback in the order (and the
    pending entries with the times and seq) that running them, doing nothing, gives."""
    skipping, running = EventLoop(), EventLoop()
    log_skip: list = []
    log_run: list = []
    _three_timers(skipping, log_skip, busy_from, skippable=True)
    _three_timers(running, log_run, busy_from, skippable=False)
    steps = skipping.run(until=90)
    assert running.run(until=90) == 91 + 4 + 1
    assert steps == 4 + 1 + (0 if busy_from is None else 91 - int(busy_from))
    assert log_skip == log_run
    assert [e[:3] for e in skipping.pending()] == [e[:3] for e in running.pending()]
    assert skipping.now() == running.now() == 90


def test_skip_needs_something_else_pending():
    """Only skippable timers left: the head runs as an ordinary step (a skip always ends)."""
    loop = EventLoop()
    runs: list = []
    loop.every(1, lambda: runs.append(loop.now()), label="sweep", idle=lambda: True)
    assert loop.skip_idle() == 0
    assert loop.step().time == 0.0 and runs == [0.0]
    loop.call_at(5.5, lambda: runs.append("work"), label="work")
    assert loop.step().label == "work" and runs == [0.0, "work"]
    assert loop.now() == 5.5 and loop.peek().time == 6.0


def test_skip_idle_is_bounded_and_asks_with_the_clock_at_the_occurrence():
    loop = EventLoop()
    asked: list = []
    busy = {"now": False}

    def idle() -> bool:
        asked.append(loop.now())
        return not busy["now"]
    loop.every(2, lambda: None, label="flush", idle=idle)
    loop.call_at(9.0, lambda: busy.update(now=True), label="work")
    assert loop.skip_idle(until=5) == 3              # occurrences at 0, 2, 4
    assert asked == [0.0, 2.0, 4.0]
    assert (loop.now(), loop.peek().time) == (4.0, 6.0)
    assert loop.run(until=20) == 1 + 6               # "work" at 9, then real flushes at 10, 12, … 20
    assert loop.skip_idle() == 0
    assert loop.peek().time == 22.0
