"""One event heap on a fake clock: the replacement for every goroutine and timer.

Upstream: no counterpart. It stands in for the goroutines, ``time.AfterFunc`` timers
and ``wait.Until`` loops of the scheduler (staging/src/k8s.io/apimachinery/pkg/util/
wait/wait.go Until/JitterUntil), so a run is a pure function of its inputs.

Ordering rules (results depend on them; keep them stable):

1. Every pending callback has a key ``(time, priority, seq)`` and the smallest key runs
   first. ``seq`` is a counter incremented for every entry pushed on the heap, so among
   equal ``time`` and ``priority`` callbacks run in the order they were scheduled (FIFO).
2. A lower ``priority`` value runs first among callbacks due at the same time; the time
   always wins over the priority.
3. Nothing runs synchronously: ``call_later(0, f)`` made inside a callback at time ``t``
   runs after every callback already pending at ``(t, same priority)``, and before any
   callback due later.
4. A time in the past is clamped to ``now()`` (as a Go timer with a non-positive duration
   fires at once); the clock never moves backwards.
5. ``every(period, f)`` models ``wait.Until(f, period, stop)``: the first run is an
   ordinary entry at ``now()``; the next occurrence is pushed *after* ``f`` returns, at
   ``(time it ran) + period``, with a fresh ``seq``. So at a time where two timers meet,
   the one whose occurrence was pushed earlier runs first (e.g. timers of 1 s and 30 s
   started in that order at t=0: at t=30 the 30 s timer, pushed at t=0, runs before
   the 1 s timer, pushed at t=29). If ``f`` raises, the timer stops.
6. A cancelled entry never runs; cancelling a recurring timer stops all later runs,
   including from inside its own callback.
7. ``run(until=T)`` runs every callback due at or before ``T`` (including ones scheduled
   meanwhile for times ``<= T``), then sets the clock to ``T``.
8. Clock skip: a recurring timer may say when a run would change nothing (``every(...,
   idle=predicate)``: queue flushes with an empty queue, a cache sweep with nothing
   assumed). When such an occurrence reaches the head of the heap and ``predicate()`` is
   true (the clock already at its time), it is not run: its next occurrence is pushed as
   if it had run (same ``(time, seq)`` order as rule 5), and it is not a step. So a
   stretch where only such timers are due costs a heap operation per occurrence, and the
   order of everything else is exactly what running them would have given.
   ``skip_idle(until)`` does this for the occurrences due by ``until``; ``step()`` and
   ``run()`` do it before every callback. Skipping needs something else pending (a callback
   without ``idle``): with nothing but such timers left, the head runs as an ordinary step,
   so a skip always ends.
"""

from __future__ import annotations

import heapq
import itertools
import math
from typing import Callable, NamedTuple, Optional, Protocol

from kubesched.util.clock import Clock, FakeClock

Callback = Callable[[], object]


class Entry(NamedTuple):
    """What is (or was) due: the ordering key plus its label."""

    time: float
    priority: int
    seq: int
    label: str


class Handle:
    """Cancels one scheduled callback, or every later run of a recurring timer."""

    __slots__ = ("_callback", "label", "period", "priority", "cancelled", "idle")

    def __init__(self, callback: Callback, label: str, priority: int, period: Optional[float],
                 idle: Optional[Callable[[], bool]] = None) -> None:
        self._callback = callback
        self.label = label
        self.priority = priority
        self.period = period
        self.cancelled = False
        self.idle = idle  # recurring only: true when a run now would change nothing (rule 8)

    def cancel(self) -> None:
        self.cancelled = True

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else "active"
        return f"Handle({self.label!r}, {state})"


class Loop(Clock, Protocol):
    """What engine code may rely on: the time, one-shot timers and ``wait.Until`` loops.

    The one loop protocol of the code base; ``EventLoop`` is its implementation (a
    scheduler replica's ``ProcessLoop`` wraps one).
    """

    def call_later(self, delay: float, callback: Callback, *, priority: int = 0,
                   label: str = "") -> Handle: ...

    def every(self, period: float, callback: Callback, *, priority: int = 0,
              label: str = "", idle: Optional[Callable[[], bool]] = None) -> Handle: ...


class EventLoop:
    """A fake clock plus one heap of callbacks ordered by ``(time, priority, seq)``."""

    def __init__(self, start: float = 0.0) -> None:
        self._clock = FakeClock(start)
        self.now = self._clock.now  # the clock's own method: one call, not two (every trace record asks)
        self._heap: list[tuple[float, int, int, Handle]] = []
        self._seq = itertools.count()
        self._running = False
        self._others = 0  # entries on the heap without an idle predicate (cancelled ones too)

    # -- time -------------------------------------------------------------------
    def now(self) -> float:
        return self._clock.now()

    # -- scheduling ---------------------------------------------------------------
    def call_at(self, when: float, callback: Callback, *, priority: int = 0, label: str = "") -> Handle:
        """Run ``callback`` at simulated time ``when`` (clamped to now)."""
        handle = Handle(callback, label, priority, None)
        self._push(when, handle)
        return handle

    def call_later(self, delay: float, callback: Callback, *, priority: int = 0, label: str = "") -> Handle:
        """Run ``callback`` ``delay`` seconds from now (``time.AfterFunc``)."""
        return self.call_at(self.now() + _finite(delay), callback, priority=priority, label=label)

    def every(self, period: float, callback: Callback, *, priority: int = 0, label: str = "",
              idle: Optional[Callable[[], bool]] = None) -> Handle:
        """Run ``callback`` now, then every ``period`` seconds (``wait.Until``).

        ``idle``: true when a run now would change nothing; such occurrences are skipped (rule 8).
        """
        if _finite(period) <= 0:
            raise ValueError(f"period must be positive, got {period!r}")
        handle = Handle(callback, label, priority, float(period), idle)
        self._push(self.now(), handle)
        return handle

    def _push(self, when: float, handle: Handle) -> None:
        when = max(_finite(when), self.now())
        heapq.heappush(self._heap, (when, handle.priority, next(self._seq), handle))
        self._others += handle.idle is None

    def _pop(self) -> tuple[float, int, int, Handle]:
        item = heapq.heappop(self._heap)
        self._others -= item[3].idle is None
        return item

    # -- inspection ---------------------------------------------------------------
    def peek(self) -> Optional[Entry]:
        """The next callback that would run, or None when nothing is pending."""
        self._drop_cancelled()
        if not self._heap:
            return None
        when, priority, seq, handle = self._heap[0]
        return Entry(when, priority, seq, handle.label)

    def pending(self) -> list[Entry]:
        """Every pending (not cancelled) callback, in the order they would run."""
        live = sorted(item[:3] + (item[3].label,) for item in self._heap if not item[3].cancelled)
        return [Entry(*item) for item in live]

    def _drop_cancelled(self) -> None:
        while self._heap and self._heap[0][3].cancelled:
            self._pop()

    def skip_idle(self, until: Optional[float] = None) -> int:
        """Skip the idle occurrences at the head of the heap due by ``until`` (rule 8); how many."""
        if self._running:
            raise RuntimeError("EventLoop.skip_idle() called from inside a callback")
        skipped = 0
        while True:
            self._drop_cancelled()
            if not self._heap or not self._others:
                return skipped
            when, _priority, _seq, handle = self._heap[0]
            if handle.idle is None or (until is not None and when > until):
                return skipped
            now = self._clock.now()
            self._clock.set(when)
            if not handle.idle():
                self._clock.set(now)
                return skipped
            self._pop()
            self._push(when + handle.period, handle)  # type: ignore[operator]
            skipped += 1

    # -- running ------------------------------------------------------------------
    def step(self) -> Optional[Entry]:
        """Run exactly one callback, moving the clock to its time; None if idle."""
        if self._running:
            raise RuntimeError("EventLoop.step() called from inside a callback")
        self.skip_idle()
        if not self._heap:
            return None
        when, priority, seq, handle = self._pop()
        self._clock.set(when)
        self._running = True
        try:
            handle._callback()
        finally:
            self._running = False
        if handle.period is not None and not handle.cancelled:
            self._push(when + handle.period, handle)
        return Entry(when, priority, seq, handle.label)

    def run(self, until: Optional[float] = None, max_steps: Optional[int] = None) -> int:
        """Run callbacks due at or before ``until`` (all if None), at most ``max_steps``.

        Returns the number of callbacks run. When it stops because nothing is due by
        ``until``, the clock is moved to ``until``.
        """
        if until is None and max_steps is None and self._has_recurring():
            raise ValueError("run() without until or max_steps would never end: a recurring timer is pending")
        steps = 0
        while max_steps is None or steps < max_steps:
            self.skip_idle(until)
            nxt = self.peek()
            if nxt is None or (until is not None and nxt.time > until):
                if until is not None and until > self.now():
                    self._clock.set(until)
                break
            self.step()
            steps += 1
        return steps

    def advance(self, delta: float) -> int:
        """Run everything due in the next ``delta`` seconds and end at now + delta."""
        return self.run(until=self.now() + _finite(delta))

    def _has_recurring(self) -> bool:
        return any(h.period is not None and not h.cancelled for _, _, _, h in self._heap)


def _finite(value: float) -> float:
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"time values must be finite, got {value!r}")
    return value
