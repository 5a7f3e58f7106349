"""Upstream: pkg/scheduler/framework/plugins/nodelabel."""
