"""Upstream: pkg/scheduler/framework/plugins/nodepreferavoidpods."""
