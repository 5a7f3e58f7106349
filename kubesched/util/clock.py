"""Simulated time: the ``Clock`` protocol and a settable ``FakeClock``.

Upstream: no scheduler counterpart. Modelled on
staging/src/k8s.io/apimachinery/pkg/util/clock/clock.go (Clock.Now, FakeClock.Step,
FakeClock.SetTime), which upstream tests inject into the scheduling queue.

Time is a float number of seconds since the start of the simulation (0.0). Nothing
under ``kubesched/`` reads the wall clock.
"""

from __future__ import annotations

import math
from typing import Protocol


class Clock(Protocol):
    """Anything that tells the simulated time (``util.Clock.Now``)."""

    def now(self) -> float: ...


class FakeClock:
    """A clock that only moves when told to (``clock.FakeClock``)."""

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0) -> None:
        self._now = _checked(start)

    def now(self) -> float:
        return self._now

    def step(self, delta: float) -> None:
        """Move forward by ``delta`` seconds (``FakeClock.Step``)."""
        self.set(self._now + _checked(delta))

    def set(self, when: float) -> None:
        """Jump to ``when`` (``FakeClock.SetTime``); any value, as upstream allows."""
        self._now = _checked(when)

    def __repr__(self) -> str:
        return f"FakeClock(now={self._now!r})"


def _checked(value: float) -> float:
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"clock value must be finite, got {value!r}")
    return value
