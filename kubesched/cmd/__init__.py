"""The kube-scheduler command: options, configuration and ``Run`` as executed steps.

Upstream: cmd/kube-scheduler (scheduler.go main, app/server.go, app/options, app/config).
"""
