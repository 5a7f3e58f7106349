"""The trace: a typed, immutable log of everything the simulated scheduler does.

Upstream: no counterpart (see ``records.py``). Views and the CLI read only this.

- ``records``: ``Kind``, ``Record`` and its payload dataclasses, ``Trace`` (append-only).
- ``recorder``: ``TraceRecorder``, the one object handed to every engine component.
- ``klog``: klog-style lines for LOG records; ``digest``: JSON lines and sha256.
- ``upstream``: record kind → upstream file/function, tag permalinks.
"""

from __future__ import annotations

from kubesched.trace.digest import digest, dumps, loads
from kubesched.trace.recorder import TraceRecorder
from kubesched.trace.records import Kind, Record, Trace

__all__ = ["Kind", "Record", "Trace", "TraceRecorder", "digest", "dumps", "loads"]
