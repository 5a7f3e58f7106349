"""Scheduler internals: the scheduling queue, the keyed heap and the scheduler cache.

Upstream: pkg/scheduler/internal (heap/, queue/, cache/).
"""
