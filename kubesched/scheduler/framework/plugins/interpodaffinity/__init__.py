"""InterPodAffinity: required and preferred pod (anti-)affinity (plugin.go, filtering.go, scoring.go)."""

from kubesched.scheduler.framework.plugins.interpodaffinity.plugin import NAME, InterPodAffinity, new

__all__ = ["NAME", "InterPodAffinity", "new"]
