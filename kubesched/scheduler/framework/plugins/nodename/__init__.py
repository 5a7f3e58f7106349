"""Upstream: pkg/scheduler/framework/plugins/nodename."""
