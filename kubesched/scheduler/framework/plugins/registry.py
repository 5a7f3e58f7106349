"""The in-tree plugin registry: every plugin of v1.18.5 by name, with its factory.

Upstream: pkg/scheduler/framework/plugins/registry.go (NewInTreeRegistry).

All registration happens here. Each entry names the module (one per upstream file) and
its factory; the module is imported when the factory is first called, so the registry
can be built — and listed — even if a plugin module is missing or fails to import (the
framework then reports ``error initializing plugin "<name>": ...`` for that plugin only).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Final

from kubesched.scheduler.framework.v1alpha1.registry import Registry

_PACKAGE: Final = "kubesched.scheduler.framework.plugins"

# Plugin name → (module under framework/plugins, factory function), in upstream's listing order.
IN_TREE_PLUGINS: Final[dict[str, tuple[str, str]]] = {
    "DefaultPodTopologySpread": ("defaultpodtopologyspread.default_pod_topology_spread", "new"),
    "ImageLocality": ("imagelocality.image_locality", "new"),
    "TaintToleration": ("tainttoleration.taint_toleration", "new"),
    "NodeName": ("nodename.node_name", "new"),
    "NodePorts": ("nodeports.node_ports", "new"),
    "NodePreferAvoidPods": ("nodepreferavoidpods.node_prefer_avoid_pods", "new"),
    "NodeAffinity": ("nodeaffinity.node_affinity", "new"),
    "PodTopologySpread": ("podtopologyspread.plugin", "new"),
    "NodeUnschedulable": ("nodeunschedulable.node_unschedulable", "new"),
    "NodeResourcesFit": ("noderesources.fit", "new"),
    "NodeResourcesBalancedAllocation": ("noderesources.balanced_allocation", "new"),
    "NodeResourcesMostAllocated": ("noderesources.most_allocated", "new"),
    "NodeResourcesLeastAllocated": ("noderesources.least_allocated", "new"),
    "RequestedToCapacityRatio": ("noderesources.requested_to_capacity_ratio", "new"),
    "NodeResourceLimits": ("noderesources.resource_limits", "new"),
    "VolumeBinding": ("volumebinding.volume_binding", "new"),
    "VolumeRestrictions": ("volumerestrictions.volume_restrictions", "new"),
    "VolumeZone": ("volumezone.volume_zone", "new"),
    "NodeVolumeLimits": ("nodevolumelimits.csi", "new"),
    "EBSLimits": ("nodevolumelimits.non_csi", "new_ebs"),
    "GCEPDLimits": ("nodevolumelimits.non_csi", "new_gce_pd"),
    "AzureDiskLimits": ("nodevolumelimits.non_csi", "new_azure_disk"),
    "CinderLimits": ("nodevolumelimits.non_csi", "new_cinder"),
    "InterPodAffinity": ("interpodaffinity.plugin", "new"),
    "NodeLabel": ("nodelabel.node_label", "new"),
    "ServiceAffinity": ("serviceaffinity.service_affinity", "new"),
    "PrioritySort": ("queuesort.priority_sort", "new"),
    "DefaultBinder": ("defaultbinder.default_binder", "new"),
}

Factory = Callable[[Any, Any], Any]


def load_factory(name: str) -> Factory:
    """The factory of in-tree plugin ``name`` (imports its module; raises ImportError if missing)."""
    module, func = IN_TREE_PLUGINS[name]
    return getattr(importlib.import_module(f"{_PACKAGE}.{module}"), func)


def _lazy(name: str) -> Factory:
    def factory(args: Any, handle: Any) -> Any:
        return load_factory(name)(args, handle)
    factory.__name__ = f"new_{name}"
    factory.__qualname__ = factory.__name__
    return factory


def new_in_tree_registry() -> Registry:
    """``NewInTreeRegistry``: a fresh registry holding all 28 in-tree plugins."""
    return Registry((name, _lazy(name)) for name in IN_TREE_PLUGINS)
