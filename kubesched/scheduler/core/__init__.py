"""The scheduling algorithm: generic scheduler (Schedule), preemption and extenders.

Upstream: pkg/scheduler/core.
"""
