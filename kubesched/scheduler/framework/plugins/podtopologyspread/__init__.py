"""PodTopologySpread: even spreading of pods across topology domains (plugin.go, common.go,
filtering.go, scoring.go)."""

from kubesched.scheduler.framework.plugins.podtopologyspread.plugin import NAME, PodTopologySpread, new

__all__ = ["NAME", "PodTopologySpread", "new"]
