"""The algorithm providers: the default plugin sets and weights of v1.18.5, as data.

Upstream: pkg/scheduler/algorithmprovider/registry.go @ v1.18.5 (NewRegistry,
ListAlgorithmProviders, getDefaultConfig, getClusterAutoscalerConfig, applyFeatureGates).

Feature gates are read when a config is built (``get_default_config`` …), not at import.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from kubesched import features
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet

SCHEDULER_DEFAULT_PROVIDER_NAME: Final = "DefaultProvider"  # apis/config SchedulerDefaultProviderName
CLUSTER_AUTOSCALER_PROVIDER: Final = "ClusterAutoscalerProvider"

_QUEUE_SORT: Final = ("PrioritySort",)
_PRE_FILTER: Final = ("NodeResourcesFit", "NodePorts", "InterPodAffinity")
_FILTER: Final = (
    "NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity",
    "VolumeRestrictions", "TaintToleration", "EBSLimits", "GCEPDLimits", "NodeVolumeLimits",
    "AzureDiskLimits", "VolumeBinding", "VolumeZone", "InterPodAffinity",
)
_PRE_SCORE: Final = ("InterPodAffinity", "DefaultPodTopologySpread", "TaintToleration")
_SCORE: Final = (
    ("NodeResourcesBalancedAllocation", 1),
    ("ImageLocality", 1),
    ("InterPodAffinity", 1),
    ("NodeResourcesLeastAllocated", 1),
    ("NodeAffinity", 1),
    # Weight 10000: a node whose preferAvoidPods annotation names the pod's controller loses
    # 100 * 10000 points, more than every other plugin together can give.
    ("NodePreferAvoidPods", 10000),
    ("DefaultPodTopologySpread", 1),
    ("TaintToleration", 1),
)
_BIND: Final = ("DefaultBinder",)


def _names(names: tuple[str, ...]) -> PluginSet:
    return PluginSet(enabled=tuple(Plugin(n) for n in names))


def get_default_config() -> Plugins:
    """``getDefaultConfig`` followed by ``applyFeatureGates`` (gates read now)."""
    return apply_feature_gates(_default_config())


def get_cluster_autoscaler_config() -> Plugins:
    """``getClusterAutoscalerConfig``: the default set with MostAllocated instead of LeastAllocated."""
    return apply_feature_gates(_cluster_autoscaler_config())


def _default_config() -> Plugins:
    return Plugins(
        queue_sort=_names(_QUEUE_SORT),
        pre_filter=_names(_PRE_FILTER),
        filter=_names(_FILTER),
        pre_score=_names(_PRE_SCORE),
        score=PluginSet(enabled=tuple(Plugin(n, w) for n, w in _SCORE)),
        bind=_names(_BIND),
    )


def _cluster_autoscaler_config() -> Plugins:
    config = _default_config()
    score = tuple(Plugin("NodeResourcesMostAllocated", p.weight) if p.name == "NodeResourcesLeastAllocated" else p
                  for p in config.score.enabled)
    return _replace(config, score=PluginSet(enabled=score))


def apply_feature_gates(config: Plugins) -> Plugins:
    """``applyFeatureGates``: EvenPodsSpread adds PodTopologySpread; ResourceLimitsPriorityFunction
    adds NodeResourceLimits to PreScore and Score."""
    if features.enabled("EvenPodsSpread"):
        f = Plugin("PodTopologySpread")
        config = _replace(config,
                          pre_filter=_append(config.pre_filter, f),
                          filter=_append(config.filter, f),
                          pre_score=_append(config.pre_score, f),
                          score=_append(config.score, Plugin("PodTopologySpread", 1)))
    if features.enabled("ResourceLimitsPriorityFunction"):
        config = _replace(config,
                          pre_score=_append(config.pre_score, Plugin("NodeResourceLimits")),
                          score=_append(config.score, Plugin("NodeResourceLimits", 1)))
    return config


def new_registry() -> dict[str, Plugins]:
    """``NewRegistry``: provider name → plugin set, with the current feature gates."""
    return {
        SCHEDULER_DEFAULT_PROVIDER_NAME: get_default_config(),
        CLUSTER_AUTOSCALER_PROVIDER: get_cluster_autoscaler_config(),
    }


def list_algorithm_providers() -> str:
    """``ListAlgorithmProviders``: sorted provider names joined by `` | ``."""
    return " | ".join(sorted(new_registry()))


def _append(plugin_set: PluginSet | None, plugin: Plugin) -> PluginSet:
    base = plugin_set or PluginSet()
    return PluginSet(enabled=base.enabled + (plugin,), disabled=base.disabled)


def _replace(config: Plugins, **changes: PluginSet) -> Plugins:
    return dataclasses.replace(config, **changes)
