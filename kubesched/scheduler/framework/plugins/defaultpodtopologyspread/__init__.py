"""DefaultPodTopologySpread: spread a Service's / controller's pods over nodes and zones."""

from kubesched.scheduler.framework.plugins.defaultpodtopologyspread.default_pod_topology_spread import (
    NAME, DefaultPodTopologySpread, new,
)

__all__ = ["NAME", "DefaultPodTopologySpread", "new"]
