"""Upstream: pkg/scheduler/framework/plugins/nodeaffinity."""
