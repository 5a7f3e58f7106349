"""``wait.Poll`` on the event loop: check a condition every interval until it holds, fails or times out.

Upstream: staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go @ v1.18 (Poll, pollInternal,
poller, WaitFor, ErrWaitTimeout).

``poll(loop, interval, timeout, condition, done)`` checks ``condition()`` first at
``interval`` after the call (Poll, unlike PollImmediate, does not check at once), then every
``interval``; ``condition`` returns Go's ``(done bool, err error)`` pair. ``done(err)`` is
called once: ``None`` when the condition held, its error when it returned one, or
``WaitTimeoutError`` ("timed out waiting for the condition") at ``timeout`` after the call.
A timeout of 0 never times out (poller starts no timer); a negative one times out at once.

Deviation: where a tick falls on the timeout itself, the timeout wins (upstream's select
between the ticker and the timer picks at random).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Optional

from kubesched.util.loop import Loop

ERR_WAIT_TIMEOUT: Final = "timed out waiting for the condition"

Condition = Callable[[], tuple[bool, Optional[Exception]]]
Done = Callable[[Optional[Exception]], None]


class WaitTimeoutError(Exception):
    """``wait.ErrWaitTimeout``."""

    def __init__(self) -> None:
        super().__init__(ERR_WAIT_TIMEOUT)


def poll(loop: Loop, interval: float, timeout: float, condition: Condition, done: Done, *,
         label: str = "wait.Poll") -> None:
    """``wait.Poll(interval, timeout, condition)`` with its result handed to ``done``."""
    if interval <= 0:
        raise ValueError(f"interval must be positive, got {interval!r}")
    start = loop.now()
    deadline = None if timeout == 0 else start + max(0.0, float(timeout))

    def schedule(tick: int) -> None:
        due = start + tick * interval
        if deadline is not None and due >= deadline:
            loop.call_later(deadline - loop.now(), lambda: done(WaitTimeoutError()), label=label)
            return
        loop.call_later(due - loop.now(), lambda: check(tick), label=label)

    def check(tick: int) -> None:
        ok, err = condition()
        if err is not None:
            done(err)
        elif ok:
            done(None)
        else:
            schedule(tick + 1)

    schedule(1)
