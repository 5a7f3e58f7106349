"""The trace: a typed, immutable log of everything the simulated scheduler does.

Upstream: no counterpart (see ``records.py``). Views and the CLI read only this.

- ``records``: ``Kind``, ``Record`` and its payload dataclasses, ``Trace`` (append-only).
- ``decisions``: the decision payloads (``FilterRun``, ``ScoreRun``, ``Preemption``, ``PointRun``).
- ``calls``: ``plugin_calls(records)``, the per-call rows derived from them (never stored).
- ``recorder``: ``TraceRecorder``, the one object handed to every engine component.
- ``klog``: klog-style lines for LOG records; ``digest``: JSON lines and sha256.
- ``upstream``: record kind → upstream file/function, tag permalinks.
- ``vocabulary``: names payloads carry (pickOneNodeForPreemption's rules, ``PICK_CRITERIA``).
"""

from __future__ import annotations

from kubesched.trace.calls import calls_of, plugin_calls
from kubesched.trace.digest import digest, dumps, loads
from kubesched.trace.recorder import TraceRecorder
from kubesched.trace.records import Kind, Record, Trace
from kubesched.trace.vocabulary import NO_VICTIMS, PICK_CRITERIA

__all__ = ["NO_VICTIMS", "PICK_CRITERIA", "Kind", "Record", "Trace", "TraceRecorder", "calls_of", "digest", "dumps",
           "loads", "plugin_calls"]
