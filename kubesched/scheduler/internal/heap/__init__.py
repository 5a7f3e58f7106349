"""Keyed heap used by the scheduling queue.

Upstream: pkg/scheduler/internal/heap.
"""

from kubesched.scheduler.internal.heap.heap import Heap, HeapError

__all__ = ["Heap", "HeapError"]
