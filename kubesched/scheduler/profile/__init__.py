"""Scheduling profiles: one framework and one event recorder per scheduler name.

Upstream: pkg/scheduler/profile.
"""
