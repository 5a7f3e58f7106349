"""Upstream: pkg/scheduler/framework/plugins/imagelocality."""
