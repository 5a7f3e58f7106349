"""Names the trace's payloads carry, for views and lessons (so they need not import the scheduler).

Upstream: pkg/scheduler/core/generic_scheduler.go @ v1.18.5, pickOneNodeForPreemption: the
rules it applies, in order, each to the nodes the previous one left. ``Preemption.criterion``
is the rule that left one node and ``Preemption.rounds`` names the rules that ran; the names
are the engine's own (``kubesched.scheduler.core.preemption``), re-exported here.
"""

from __future__ import annotations

from kubesched.scheduler.core.preemption import NO_VICTIMS, PICK_CRITERIA

__all__ = ["NO_VICTIMS", "PICK_CRITERIA"]
