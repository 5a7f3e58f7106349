"""Upstream: pkg/scheduler/framework/plugins/tainttoleration."""
