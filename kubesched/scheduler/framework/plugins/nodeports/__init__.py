"""Upstream: pkg/scheduler/framework/plugins/nodeports."""
