"""A sample scheduler extender (HTTP, standard library only) for lessons and tests.

Upstream: none (kube-scheduler ships no extender; this plays the external process that
pkg/scheduler/core/extender.go calls). See :mod:`kubesched.extender.sample`.
"""
