"""Default and ClusterAutoscaler providers with feature gates.

Upstream: pkg/scheduler/algorithmprovider/registry.go and registry_test.go (v1.18).
"""

from __future__ import annotations

import pytest

from kubesched import features
from kubesched.scheduler.algorithmprovider.registry import (get_cluster_autoscaler_config, get_default_config,
                                                            list_algorithm_providers, new_registry)
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry

FILTER = ["NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity", "VolumeRestrictions",
          "TaintToleration", "EBSLimits", "GCEPDLimits", "NodeVolumeLimits", "AzureDiskLimits", "VolumeBinding",
          "VolumeZone", "InterPodAffinity"]
SCORE = [("NodeResourcesBalancedAllocation", 1), ("ImageLocality", 1), ("InterPodAffinity", 1),
         ("NodeResourcesLeastAllocated", 1), ("NodeAffinity", 1), ("NodePreferAvoidPods", 10000),
         ("DefaultPodTopologySpread", 1), ("TaintToleration", 1)]
PTS, RL = "PodTopologySpread", "NodeResourceLimits"


def names(plugin_set) -> list:
    return [p.name for p in plugin_set.enabled] if plugin_set else []


def weighted(plugin_set) -> list:
    return [(p.name, p.weight) for p in plugin_set.enabled]


@pytest.mark.parametrize(("gates", "extra_pre_filter", "extra_pre_score", "extra_score"), [
    ({}, [PTS], [PTS], [(PTS, 1)]),
    ({"EvenPodsSpread": False}, [], [], []),
    ({"ResourceLimitsPriorityFunction": True}, [PTS], [PTS, RL], [(PTS, 1), (RL, 1)]),
    ({"EvenPodsSpread": False, "ResourceLimitsPriorityFunction": True}, [], [RL], [(RL, 1)]),
])
@pytest.mark.parametrize("provider", ["default", "autoscaler"])
def test_provider_plugin_sets(provider, gates, extra_pre_filter, extra_pre_score, extra_score) -> None:
    build = get_default_config if provider == "default" else get_cluster_autoscaler_config
    with features.override(gates):
        cfg = build()
    score = [("NodeResourcesMostAllocated", w) if (provider == "autoscaler" and n == "NodeResourcesLeastAllocated")
             else (n, w) for n, w in SCORE]
    assert names(cfg.queue_sort) == ["PrioritySort"]
    assert names(cfg.pre_filter) == ["NodeResourcesFit", "NodePorts", "InterPodAffinity"] + extra_pre_filter
    assert names(cfg.filter) == FILTER + extra_pre_filter
    assert names(cfg.pre_score) == ["InterPodAffinity", "DefaultPodTopologySpread", "TaintToleration"] + extra_pre_score
    assert weighted(cfg.score) == score + extra_score
    assert names(cfg.bind) == ["DefaultBinder"]
    assert [names(getattr(cfg, p)) for p in ("reserve", "permit", "pre_bind", "post_bind", "unreserve")] == [[]] * 5


def test_gates_are_read_at_call_time() -> None:
    with features.override({"EvenPodsSpread": False}):
        off = get_default_config()
    assert PTS not in names(off.filter) and PTS in names(get_default_config().filter)


def test_registry_and_listing() -> None:
    assert list_algorithm_providers() == "ClusterAutoscalerProvider | DefaultProvider"
    assert new_registry()["DefaultProvider"] == get_default_config()


def test_every_default_plugin_is_in_tree() -> None:
    registry = new_in_tree_registry()
    with features.override({"ResourceLimitsPriorityFunction": True}):
        for cfg in (get_default_config(), get_cluster_autoscaler_config()):
            for attr in ("queue_sort", "pre_filter", "filter", "pre_score", "score", "bind"):
                assert set(names(getattr(cfg, attr))) <= set(registry)
