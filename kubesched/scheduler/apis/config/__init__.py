"""The scheduler's component configuration, ``kubescheduler.config.k8s.io/v1alpha2``.

Upstream: pkg/scheduler/apis/config (types.go, v1alpha2/defaults.go, v1alpha2/conversion.go,
validation/validation.go, scheme/scheme.go).
"""
