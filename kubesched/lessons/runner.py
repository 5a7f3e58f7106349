"""Drive a ``Simulation`` through a lesson's steps (the cursor targets of format.Goto).

Upstream: no counterpart.

``open_simulation(lesson)`` loads the lesson's rigged cluster; ``run_step(sim, step)`` moves
the cursor as the step says; ``play(lesson, sim)`` runs every step and returns the cursor
after each (the past of a run never changes, so the player can ``seek`` between them);
``show(sim, cursors, index)`` is how the Lessons page puts the finished run at step ``index``
(-1: the start). A time-only step ends on a TIME record (``Simulation.advance``), so seeking
back to its cursor shows its time too.
"""

from __future__ import annotations

from typing import Any

from kubesched.lessons.claims import pod_key
from kubesched.lessons.format import Goto, Lesson, LessonError, Step
from kubesched.sim.scenario import (
    SCENARIO_API_VERSION,
    SCENARIO_KIND,
    dump,
    split_source,
)
from kubesched.sim.simulation import Simulation


def open_simulation(lesson: Lesson) -> Simulation:
    config = lesson.config_path
    return Simulation.from_path(lesson.cluster_path, config=config, horizon=lesson.horizon)


def _matches(record: Any, match: tuple[tuple[str, str], ...]) -> bool:
    for key, want in match:
        if key == "kind":
            got = record.kind.value
        elif key == "pod":
            got, want = record.pod, pod_key(want)
        elif key in ("node", "plugin", "cycle", "profile"):
            got = getattr(record, key)
        else:
            got = getattr(record.data, key, None)
        if str(got) != want:
            return False
    return True


def _until(sim: Simulation, goto: Goto) -> None:
    index = sim.cursor
    while True:
        trace = sim.trace
        while index < len(trace):
            if _matches(trace[index], goto.match):
                _land(sim, index + 1, goto.settle)
                return
            index += 1
        before = len(trace)
        sim.seek(before + 1)
        if len(sim.trace) == before:
            what = ", ".join(f"{k}={v}" for k, v in goto.match)
            raise LessonError(f"no record {what} after the cursor (the run stopped: {sim.stopped_reason})")


def _land(sim: Simulation, cursor: int, settle: bool) -> None:
    sim.seek(cursor)
    if not settle:
        return
    marks = {m.trace_len for m in sim.engine.marks}
    if cursor not in marks:
        sim.step("event")


def _action(sim: Simulation, goto: Goto) -> None:
    doc = {"apiVersion": SCENARIO_API_VERSION, "kind": SCENARIO_KIND, "spec": {"actions": [dict(goto.action)]}}
    _, scenario = split_source(dump(doc), "lesson action")
    assert scenario is not None
    action = scenario.actions[0]
    if action.at > sim.time:
        sim.advance(action.at - sim.time)
    sim.apply(action.edit)


def goto(sim: Simulation, target: Goto) -> None:
    """Move the cursor (and run the engine) as ``target`` says."""
    if target.verb == "until":
        _until(sim, target)
    elif target.verb == "unit":
        for _ in range(target.count):
            sim.step(target.unit)
    elif target.verb == "advance":
        sim.advance(target.seconds)
    elif target.verb == "idle":
        sim.run_until_idle()
    elif target.verb == "action":
        _action(sim, target)
    else:  # pragma: no cover - format.py only builds the verbs above
        raise LessonError(f"unknown step target {target.verb!r}")


def run_step(sim: Simulation, step: Step) -> int:
    for target in step.goto:
        goto(sim, target)
    return sim.cursor


def play(lesson: Lesson, sim: Simulation | None = None) -> tuple[Simulation, tuple[int, ...]]:
    """Run every step; the Simulation (cursor after the last step) and each step's cursor."""
    sim = sim or open_simulation(lesson)
    return sim, tuple(run_step(sim, step) for step in lesson.steps)


def show(sim: Simulation, cursors: tuple[int, ...], index: int) -> Simulation:
    """Seek the finished run to step ``index``'s cursor (-1: the start), as the page does."""
    sim.seek(cursors[index] if index >= 0 else 0)
    return sim


__all__ = ["goto", "open_simulation", "play", "run_step", "show"]
