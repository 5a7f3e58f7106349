"""ServiceAffinity: keep a Service's pods on nodes with the same label values."""

from kubesched.scheduler.framework.plugins.serviceaffinity.service_affinity import NAME, ServiceAffinity, new

__all__ = ["NAME", "ServiceAffinity", "new"]
