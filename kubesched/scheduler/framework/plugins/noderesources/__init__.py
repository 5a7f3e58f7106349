"""Node-resource plugins: Fit, the allocation scorers, RequestedToCapacityRatio, ResourceLimits.

Upstream: pkg/scheduler/framework/plugins/noderesources (one module per Go file).
"""
