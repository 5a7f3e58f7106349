"""The steppable Simulation: a cluster, its kubelet and controllers, N kube-scheduler replicas,
and a cursor over the trace with checkpoints, edits that fork the future, and a horizon.

Upstream: no counterpart; the engine it drives is the v1.18.5 scheduler (kubesched.scheduler)
started as ``cmd/kube-scheduler`` does (kubesched.cmd.app.server), one process per replica.

How it runs:

- The engine runs forward lazily on one EventLoop; every loop callback that runs is one
  *event*. Records are appended to the trace as they happen. After a callback that produced
  records, a *mark* ``(trace length, events run, time)`` is kept, with a frozen ``SimState``
  checkpoint (clusters of at most ``CHECKPOINT_LIMIT`` nodes + pods; bigger ones compute a
  past state on demand by replaying).
- ``cursor`` is how many records are visible. ``step("event")`` moves it to the next mark
  (running the engine when needed), ``step("phase")`` past the next PHASE_START / PHASE_END /
  CYCLE_START / CYCLE_END record, ``step("pod")`` to the end of the callback that ends the next
  scheduling cycle, ``step("idle")`` to the end of a run to idle; when the run has stopped
  (idle, horizon, event cap) and there is no such record, a step goes to the end of the trace.
  ``back``/``seek`` only move the cursor. ``state()`` is the last checkpoint at or before the cursor.
  ``advance(seconds)`` runs to a time; when that moves the frontier to a time no record has
  reached, it adds a TIME record there (a ``Tick``, kept with the edits and exported as a
  ``tick`` action), so seeking back to that cursor later shows that time (kubesched.trace.records).
- Idle: the leader's three sub-queues are empty, no pod is assumed, the stored lock names the
  leader and the leader is not partitioned (or leader election is off), and nothing but
  background timers (queue flushes, cache sweeps, leader-election renewals) is pending. A pod
  left in unschedulableQ always moves again (``flushUnschedulableQLeftover`` retries it after
  60 s), so such a run is never idle: it ends at the horizon. A run that never goes idle
  stops at the horizon (``horizon`` simulated seconds after the last change: a write to any
  object other than Events and the leader-election lock, or the last timed action) or after
  ``max_events`` callbacks. ``stopped_reason`` says which.
- ``apply(edit)`` records the edit with the cursor's event position and time, then rebuilds
  the run from the inputs plus every edit, replaying deterministically to that position, where
  the edit is applied: the past is identical, the future forks, the cursor stays.
- The configuration's feature gates are applied around every engine step.

With tracing off (``trace=False``) there are no records and no marks: ``step`` runs to the
end (as ``run_until_idle``) and ``state()`` is the live state; decisions are the same.
``digest()`` is the sha256 of the trace (``kubesched.trace.digest``).

Two doors: ``Simulation.from_text`` (YAML text: the dashboard's only door, the text is never
taken for a path) and ``Simulation.from_path`` (a file: CLI, samples, lessons); ``from_yaml``
picks one by the argument's type. Loading raises only LoadError, ConfigError or ScenarioError.
One run is an ``Engine`` (engine.py); what it is a function of is ``Inputs`` (inputs.py); both are
re-exported here. ``CHECKPOINT_LIMIT`` is read from this module each time
an engine is built.

Deviation: an edit made while the cursor is inside a callback's records is applied after that
callback (a callback is never split).
"""

from __future__ import annotations

import bisect
import ctypes
import ctypes.util
import gc
import pathlib
import re
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from kubesched.cluster.errors import APIError
from kubesched.scheduler.apis.config.types import KubeSchedulerConfiguration
from kubesched.sim import state as st
from kubesched.sim.bindings import OpenBindings
from kubesched.sim.edits import Edit, Tick, describe
from kubesched.sim.engine import CHECKPOINT_LIMIT, ActionError, AppliedEdit, EditError, Engine, Mark
from kubesched.sim.inputs import CONFIG_KIND, Inputs, guarded, inputs_from_path, inputs_from_text, load_inputs
from kubesched.sim.limits import ServerLimits
from kubesched.sim.scenario import (
    DEFAULT_FILENAME,
    Action,
    ScenarioError,
    dump,
    horizon_problems,
    join_documents,
    scenario_document,
)
from kubesched.sim.vocabulary import ASSUMED_POD_TTL
from kubesched.trace import Kind, Trace
from kubesched.trace import digest as trace_digest

DEFAULT_HORIZON: Final = 300.0
DEFAULT_MAX_EVENTS: Final = 50_000
"""Loop callbacks a run may take (flushes and sweeps that change nothing are not callbacks, see
``kubesched.util.loop`` rule 8): a few per pod and per scheduling attempt, so a 10,000-pod cluster
finishes; a run that never settles stops here ("max_events") instead of holding a core."""
LARGE_TRACE: Final = 200_000
"""Records from which a dropped run is collected at once (a full collection costs some 60 ms per
live session; a trace this long holds tens of MB)."""
PHASE_KINDS: Final = frozenset({Kind.PHASE_START, Kind.PHASE_END, Kind.CYCLE_START, Kind.CYCLE_END})
UNITS: Final = ("event", "phase", "pod", "idle")


# -- the Simulation ------------------------------------------------------------------------------------------
class Simulation:
    """A steppable, forkable run of the scheduler over one cluster (see the module docstring)."""

    def __init__(self, inputs: Inputs, *, trace: bool = True, horizon: float = DEFAULT_HORIZON,
                 max_events: int = DEFAULT_MAX_EVENTS) -> None:
        problems = horizon_problems(inputs.scenario, float(horizon))
        if problems:
            raise ScenarioError(problems)
        self.inputs = inputs
        self.tracing = trace
        self.horizon = float(horizon)
        self.max_events = int(max_events)
        self._moves: list[AppliedEdit] = []  # edits and time-only steps (Tick), in the order made
        self._held = _Held(self._new_engine(self._moves))
        weakref.finalize(self, self._held.release)
        self.cursor = 0
        self._pos = 0
        self._time = 0.0
        self.stopped_reason: str | None = None

    # -- construction ---------------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, *, config: str | dict | KubeSchedulerConfiguration | None = None,
                  policy: str | None = None, seed: int | None = None, filename: str = DEFAULT_FILENAME,
                  trace: bool = True, horizon: float = DEFAULT_HORIZON, max_events: int = DEFAULT_MAX_EVENTS,
                  limits: ServerLimits | None = None) -> Simulation:
        """A run of YAML text (the dashboard's only door: the text is never taken for a path).

        The text may hold a KubeSchedulerConfiguration, a Policy and a Scenario; ``config`` (YAML
        text, a mapping or an object) and ``policy`` (YAML/JSON text) are ``--config`` and
        ``--policy-config-file`` and replace the text's own; ``limits`` refuses a cluster larger
        than a server takes (kubesched.sim.limits). Raises LoadError / ConfigError / ScenarioError.
        """
        inputs = inputs_from_text(text, config=config, policy=policy, seed=seed, filename=filename, limits=limits)
        return guarded(filename, lambda: cls(inputs, trace=trace, horizon=horizon, max_events=max_events))

    @classmethod
    def from_path(cls, path: pathlib.Path, *,
                  config: pathlib.Path | str | dict | KubeSchedulerConfiguration | None = None,
                  policy: pathlib.Path | str | None = None, seed: int | None = None, trace: bool = True,
                  horizon: float = DEFAULT_HORIZON, max_events: int = DEFAULT_MAX_EVENTS,
                  limits: ServerLimits | None = None) -> Simulation:
        """A run of a cluster file (CLI, samples, lessons); ``config`` / ``policy`` may also be files."""
        inputs = inputs_from_path(pathlib.Path(path), config=config, policy=policy, seed=seed, limits=limits)
        return guarded(inputs.filename, lambda: cls(inputs, trace=trace, horizon=horizon, max_events=max_events))

    @classmethod
    def from_yaml(cls, source: str | pathlib.Path, **options: Any) -> Simulation:
        """``from_path`` for a ``pathlib.Path``, ``from_text`` for a ``str`` (always YAML text)."""
        if isinstance(source, pathlib.PurePath):
            return cls.from_path(pathlib.Path(source), **options)
        return cls.from_text(source, **options)

    def _positional(self, edits: list[AppliedEdit]) -> list[AppliedEdit]:
        """The scenario's positional actions (``afterEvent``), then ``edits``."""
        return [AppliedEdit(a.edit, a.after_event, a.at, index) for index, a in enumerate(self.inputs.scenario.actions)
                if a.after_event is not None] + list(edits)

    def _new_engine(self, edits: list[AppliedEdit], strict: AppliedEdit | None = None) -> Engine:
        return Engine(self.inputs, self._positional(edits), trace=self.tracing, horizon=self.horizon,
                      max_events=self.max_events, strict=strict, checkpoint_limit=CHECKPOINT_LIMIT)

    # -- what is visible --------------------------------------------------------------------------------
    @property
    def _engine(self) -> Engine:
        return self._held.engine

    @property
    def edits(self) -> list[AppliedEdit]:
        """The edits made with ``apply``, in order (time-only steps left out)."""
        return [m for m in self._moves if not isinstance(m.edit, Tick)]

    @property
    def trace(self) -> Trace:
        """Every record computed so far (views show ``trace[:cursor]``)."""
        return self._engine.recorder.trace

    @property
    def engine(self) -> Engine:
        return self._engine

    @property
    def time(self) -> float:
        return self._time

    @property
    def cycle(self) -> int:
        """The scheduling cycle of the last record at or before the cursor (0 before any)."""
        trace = self.trace
        for i in range(self.cursor - 1, -1, -1):
            if trace[i].cycle is not None:
                return trace[i].cycle
        return 0

    @property
    def current_pod(self) -> str | None:
        """The pod whose scheduling cycle is in progress at the cursor, if any."""
        trace = self.trace
        for i in range(self.cursor - 1, -1, -1):
            record = trace[i]
            if record.kind is Kind.POD_POPPED:
                return record.pod
            if record.kind is Kind.CYCLE_END:
                return None
        return None

    @property
    def binding_pods(self) -> tuple[tuple[str, str | None], ...]:
        """``(pod, node)`` of each binding cycle under way at the cursor (kubesched.sim.bindings):
        assumed and past Permit, waiting on a permit or binding, not yet bound or failed."""
        return self._held.bindings.at(self.cursor)

    def digest(self) -> str:
        """sha256 of the trace computed so far (kubesched.trace.digest)."""
        return trace_digest(self.trace)

    def is_idle(self) -> bool:
        return self._engine.is_idle()

    # -- moving the cursor -------------------------------------------------------------------------------
    def step(self, unit: str = "event") -> int:
        """Move the cursor by one ``event`` / ``phase`` / ``pod``, or to ``idle``; returns it."""
        if unit == "event":
            self._seek_mark(self._next_mark(lambda m: m.trace_len > self.cursor))
        elif unit == "phase":
            index = self._find(self.cursor, lambda r: r.kind in PHASE_KINDS)
            self._set_cursor(index + 1 if index is not None else len(self.trace))
        elif unit == "pod":
            index = self._find(self.cursor, lambda r: r.kind is Kind.CYCLE_END)
            self._seek_mark(self._next_mark(lambda m: m.trace_len > index) if index is not None else None)
        elif unit == "idle":
            self.run_until_idle()
        else:
            raise ValueError(f"unknown step unit {unit!r} (one of {', '.join(UNITS)})")
        return self.cursor

    def run_until_idle(self) -> int:
        """Run until idle, the horizon or the event cap; the cursor goes to the end."""
        while self._compute():
            pass
        self.cursor = len(self.trace)
        self._pos, self._time = self._engine.events, self._engine.loop.now()
        return self.cursor

    @property
    def computed_time(self) -> float:
        """The simulated time the computed part of the run has reached (at or after ``time``)."""
        return self._engine.loop.now()

    def compute_ahead(self, callbacks: int) -> bool:
        """Run at most ``callbacks`` more engine callbacks beyond the computed run, the cursor
        unchanged; True once the run has stopped (idle, horizon or event cap). The dashboard
        computes a long run to idle this way, a slice per rerun; slicing never changes the run
        (the same callbacks run in the same order), so the trace is the same however it is cut."""
        engine = self._engine
        for _ in range(max(1, int(callbacks))):
            reason = engine.stop_reason()
            if reason is not None:
                self.stopped_reason = reason
                return True
            engine.step()
        return False

    def advance(self, seconds: float) -> int:
        """Move ``seconds`` of simulated time forward (running the engine as needed).

        At the frontier, a target time no record has reached gets a TIME record (a ``Tick``,
        kept with the edits), so ``seek`` to the returned cursor lands at the target time."""
        target = self._time + float(seconds)
        engine = self._engine
        while engine.loop.now() <= target:
            engine.loop.skip_idle(target)
            nxt = engine.loop.peek()
            if nxt is None or nxt.time > target or engine.events >= self.max_events:
                break
            engine.step()
        if engine.loop.now() < target:
            engine._set_clock(target)
        if self.tracing and engine.loop.now() == target and (engine.mark_times or [0.0])[-1] < target:
            self._tick(target)
        index = bisect.bisect_right(engine.mark_times, target)
        self.cursor = engine.marks[index - 1].trace_len if index else 0
        self._pos = bisect.bisect_right(engine.event_times, target)
        self._time = target
        return self.cursor

    def previous(self, unit: str = "event") -> int:
        """Where one step back by ``unit`` puts the cursor (the inverse of ``step``); nothing moves.

        ``event``: the previous event boundary; ``phase``: just past the phase record before the
        one the cursor follows; ``pod``: the event boundary after the previous CYCLE_END.
        """
        cursor, trace, lens = self.cursor, self.trace, self._engine.mark_lens
        if unit == "event":
            index = bisect.bisect_left(lens, cursor) - 1
            return lens[index] if index >= 0 else 0
        if unit == "phase":
            return next((i + 1 for i in range(min(cursor, len(trace)) - 2, -1, -1)
                         if trace[i].kind in PHASE_KINDS), 0)
        if unit == "pod":
            for index in range(min(cursor, len(trace)) - 1, -1, -1):
                if trace[index].kind is Kind.CYCLE_END:
                    at = bisect.bisect_right(lens, index)
                    position = lens[at] if at < len(lens) else index + 1
                    if position < cursor:
                        return position
            return 0
        raise ValueError(f"unknown step unit {unit!r} (one of event, phase, pod)")

    def step_back(self, unit: str = "event") -> int:
        """Move the cursor one ``event`` / ``phase`` / ``pod`` back (instant); returns it."""
        return self.seek(self.previous(unit))

    def back(self, n: int = 1) -> int:
        """Move the cursor ``n`` event boundaries back (instant)."""
        lens = self._engine.mark_lens
        index = bisect.bisect_left(lens, self.cursor) - int(n)
        self._set_cursor(lens[index] if index >= 0 else 0)
        return self.cursor

    def seek(self, index: int) -> int:
        """Put the cursor at record count ``index`` (computing further if needed)."""
        index = max(0, int(index))
        while len(self.trace) < index and self._compute():
            pass
        self._set_cursor(min(index, len(self.trace)))
        return self.cursor

    # -- helpers -------------------------------------------------------------------------------------------
    def _tick(self, target: float) -> None:
        """A TIME record at ``target`` on the frontier, kept for every rebuild of the run."""
        self._moves.append(AppliedEdit(Tick(), self._engine.events, target))
        self._engine.tick(target)

    def _compute(self) -> bool:
        """Run the engine until it produces a new mark; False once it stopped (reason set)."""
        engine = self._engine
        start = len(engine.marks)
        while len(engine.marks) == start:
            reason = engine.stop_reason()
            if reason is not None:
                self.stopped_reason = reason
                return False
            engine.step()
        self.stopped_reason = None
        return True

    def _next_mark(self, wanted: Callable[[Mark], bool]) -> Mark | None:
        marks = self._engine.marks
        lo = bisect.bisect_left(self._engine.mark_lens, self.cursor)
        while True:
            for mark in marks[lo:]:
                if wanted(mark):
                    return mark
            lo = len(marks)
            if not self._compute():
                return None

    def _find(self, start: int, wanted: Callable[[Any], bool]) -> int | None:
        index = start
        while True:
            trace = self.trace
            while index < len(trace):
                if wanted(trace[index]):
                    return index
                index += 1
            if not self._compute():
                return None

    def _seek_mark(self, mark: Mark | None) -> None:
        if mark is None:
            self._set_cursor(len(self.trace))
            return
        self.cursor, self._pos, self._time = mark.trace_len, mark.events, mark.time

    def _set_cursor(self, cursor: int) -> None:
        self.cursor = cursor
        marks = self._engine.marks
        index = bisect.bisect_left(self._engine.mark_lens, cursor)
        if cursor == 0 or index >= len(marks):
            if cursor == 0:
                self._pos, self._time = 0, 0.0
            return
        self._pos, self._time = marks[index].events, marks[index].time

    # -- state ------------------------------------------------------------------------------------------------
    def state(self) -> st.SimState:
        """The last checkpoint at or before the cursor (live at the engine's frontier)."""
        engine = self._engine
        if self._pos == engine.events and self.cursor == len(self.trace):
            return replace(engine.capture(), time=self._time)
        index = bisect.bisect_right(engine.mark_lens, self.cursor) - 1
        if index < 0:
            return self._replay_state(0, 0)
        mark = engine.marks[index]
        if mark.trace_len in engine.checkpoints:
            return engine.checkpoints[mark.trace_len]
        return self._replay_state(mark.events, mark.trace_len)

    def end_state(self) -> st.SimState:
        """The state at the end of the computed run (where every pod has got to so far)."""
        return self._engine.capture()

    @property
    def assumed_pod_ttl(self) -> float:
        """Seconds an assumed pod may wait for its informer add after FinishBinding
        (scheduler.go ``durationToExpireAssumedPod``, the cache's ttl)."""
        return ASSUMED_POD_TTL

    def _replay_state(self, events: int, key: int) -> st.SimState:
        # tracing off makes the same decisions (tested), and replays faster
        replay = Engine(self.inputs, self._positional(self._moves), trace=False, horizon=self.horizon,
                        max_events=self.max_events, checkpoint_limit=CHECKPOINT_LIMIT)
        while replay.events < events and replay.step():
            pass
        snapshot = replay.capture()
        replay.release()
        if key:
            self._engine.checkpoints[key] = snapshot
        return snapshot

    # -- edits --------------------------------------------------------------------------------------------------
    def apply(self, edit: Edit) -> None:
        """Apply ``edit`` at the cursor: the future is rebuilt from the inputs plus every edit.

        Raises ``EditError`` (and changes nothing) when the API server refuses the edit.
        """
        applied = AppliedEdit(edit, self._pos, self._time)
        edits = self._moves + [applied]
        engine = self._new_engine(edits, strict=applied)
        try:
            while engine.events < self._pos and engine.step():
                pass
            if engine.events < self._pos:
                raise EditError(f"{describe(edit)}: the run ended before event {self._pos}")
            engine.step_edits_due()
        except (APIError, EditError) as err:
            engine.release()
            if isinstance(err, EditError):
                raise
            raise EditError(f"{describe(edit)}: {err}") from err
        self._moves = edits
        self._held.swap(engine)
        self.stopped_reason = None

    @property
    def exit_errors(self) -> tuple[str, ...]:
        """Why kube-scheduler replicas exited 1 during startup, so far (``Engine.exit_errors``)."""
        return tuple(self._engine.exit_errors())

    @property
    def action_errors(self) -> tuple[ActionError, ...]:
        """Scenario actions the API server refused so far, in the order they were tried (the run
        went on without them)."""
        return tuple(self._engine.action_errors)

    # -- export ------------------------------------------------------------------------------------------------
    def to_scenario_yaml(self) -> str:
        """Cluster + configuration + a Scenario document with the seed and every action and edit."""
        inputs = self.inputs
        actions = tuple(inputs.scenario.actions) + tuple(
            Action(a.time, a.edit, a.after_event) for a in self._moves)
        scenario = replace(inputs.scenario, seed=inputs.seed, actions=actions)
        parts = [_tidy(inputs.cluster_text)]
        if inputs.config_document is not None:
            parts.append(dump(inputs.config_document))
        if inputs.policy_document is not None:
            parts.append(dump(inputs.policy_document))
        elif inputs.config_given and not inputs.loaded_config_in_text:
            parts.append(f"# {CONFIG_KIND} given as an object: not written (the reloaded run uses the defaults)")
        parts.append(dump(scenario_document(scenario)))
        return join_documents(parts)


class _Held:
    """A Simulation's current engine. The one an edit replaces, and the last one when the
    Simulation goes, are released (``Engine.release``); a large trace is collected at once
    (the engine's cycles would hold it until Python's next full collection, ``LARGE_TRACE``),
    and the freed memory is given back to the system."""

    __slots__ = ("bindings", "engine")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.bindings = OpenBindings(engine.recorder.trace)

    def swap(self, engine: Engine) -> None:
        old, self.engine = [self.engine], engine
        self.bindings = OpenBindings(engine.recorder.trace)
        _release(old)

    def release(self) -> None:
        old, self.engine = [self.engine], None  # type: ignore[assignment]
        self.bindings = None  # type: ignore[assignment]
        _release(old)


def _release(box: list[Engine]) -> None:
    """Release the engine in ``box``, the last reference to it (so a collection can free it)."""
    engine = box.pop()
    large = len(engine.recorder.trace) >= LARGE_TRACE
    engine.release()
    del engine
    if large:
        gc.collect()
    return_freed_memory()


def _libc_malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim  # glibc only
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _libc_malloc_trim()


def return_freed_memory() -> None:
    """Give the memory a dropped run freed back to the system (glibc keeps freed pages otherwise)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def reclaim_dropped_runs() -> None:
    """Collect runs nobody holds any more and give their memory back: a server calls this when a
    new session starts, since the sessions that ended may sit in reference cycles of their own."""
    gc.collect()
    return_freed_memory()


def _tidy(text: str) -> str:
    """Collapse the blank runs left by removed documents, and drop empty documents."""
    text = re.sub(r"(?m)^---[ \t]*\n(?:[ \t]*\n)*(?=^---|\Z)", "", text + "\n")
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n")


__all__ = ["CHECKPOINT_LIMIT", "PHASE_KINDS", "ActionError", "AppliedEdit", "EditError", "Engine", "Inputs", "Mark",
           "ScenarioError", "Simulation", "load_inputs", "reclaim_dropped_runs"]
