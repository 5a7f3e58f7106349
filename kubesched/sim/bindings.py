"""Which binding cycles are under way at a cursor: pods past Reserve and Permit, not yet bound or failed.

Upstream: pkg/scheduler/scheduler.go, ``scheduleOne``: after the scheduling cycle assumes the pod
and runs Permit, the binding cycle (WaitOnPermit, PreBind, Bind, PostBind) runs in its own
goroutine, so the next pod's scheduling cycle may start while earlier pods still wait or bind.
In the trace a binding cycle runs from BINDING_CYCLE_START to BINDING_CYCLE_END (bound or failed).

``OpenBindings(trace)`` indexes those two kinds of records, reading only the records added since
it last looked (the trace is append-only); ``at(cursor)`` gives ``(pod, node)`` for each binding
cycle started and not ended in ``trace[:cursor]``, in the order they started.
"""

from __future__ import annotations

import bisect

from kubesched.trace import Kind, Trace

_KINDS = (Kind.BINDING_CYCLE_START, Kind.BINDING_CYCLE_END)


class OpenBindings:
    """The binding cycles of one trace, by position (see the module docstring)."""

    __slots__ = ("_events", "_seqs", "_trace")

    def __init__(self, trace: Trace) -> None:
        self._trace = trace
        self._seqs: list[int] = []                           # seq of each start or end record
        self._events: list[tuple[bool, str, str | None]] = []  # (starts, pod, node)

    def _catch_up(self) -> None:
        start = self._seqs[-1] + 1 if self._seqs else 0
        if start >= len(self._trace):
            return
        for record in self._trace.filter(_KINDS, start=start):
            self._seqs.append(record.seq)
            self._events.append((record.kind is Kind.BINDING_CYCLE_START, record.pod or "", record.node))

    def at(self, cursor: int) -> tuple[tuple[str, str | None], ...]:
        """``(pod, node)`` of every binding cycle under way after the first ``cursor`` records."""
        self._catch_up()
        under_way: dict[str, str | None] = {}
        for starts, pod, node in self._events[:bisect.bisect_left(self._seqs, cursor)]:
            if starts:
                under_way[pod] = node
            else:
                under_way.pop(pod, None)
        return tuple(under_way.items())
