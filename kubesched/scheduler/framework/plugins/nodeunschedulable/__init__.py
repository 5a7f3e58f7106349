"""Upstream: pkg/scheduler/framework/plugins/nodeunschedulable."""
