"""Scheduler APIs: the component configuration (``kubescheduler.config.k8s.io``).

Upstream: pkg/scheduler/apis.
"""
